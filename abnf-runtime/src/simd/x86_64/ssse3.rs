//! SSSE3 (and SSE2): 16-byte vectors. `pshufb` is the nibble lookup of the
//! loop sets; SSE2, which every x86-64 CPU has, is enough for the byte
//! search.

use core::arch::x86_64::*;

use super::{HIGH, LEAD_HIGH};
use crate::simd::generic::{find, find_byte_in, match_shapes_in, Classify, NibbleExits, ShortExits};
use crate::simd::{AtomNibbles, BlockMasks, ExitWalk, LoopSet, NibbleClass, NibbleSet, Starts};

/// The lookup tables of a [`LoopSet`] in 16-byte registers.
#[derive(Clone, Copy)]
struct Tables16 {
    bytes: __m128i,
    escaped: __m128i,
    high: __m128i,
    escape: __m128i,
    leads: __m128i,
    lead_high: __m128i,
    escapes: bool,
    chars: bool,
}

/// One bit per byte of `v`: set where the byte is in the nibble set
/// `lo` (`hi` holds [`HIGH`]).
#[inline]
#[target_feature(enable = "ssse3")]
fn in16(lo: __m128i, hi: __m128i, v: __m128i) -> u64 {
    let nib = _mm_set1_epi8(0x0f);
    let a = _mm_shuffle_epi8(lo, _mm_and_si128(v, nib));
    let b = _mm_shuffle_epi8(hi, _mm_and_si128(_mm_srli_epi16::<4>(v), nib));
    let out = _mm_cmpeq_epi8(_mm_and_si128(a, b), _mm_setzero_si128());
    u64::from(!(_mm_movemask_epi8(out) as u32) & 0xffff)
}

/// The bytes of the set among the 64 at `p`.
///
/// # Safety
///
/// `p .. p + 64` must be readable.
#[inline]
#[target_feature(enable = "ssse3")]
unsafe fn inside16(t: &Tables16, p: *const u8) -> u64 {
    let mut inside = 0;
    for k in 0..4 {
        // SAFETY: inside `p .. p + 64` (the caller's promise); an
        // unaligned load.
        let v = unsafe { _mm_loadu_si128(p.add(16 * k).cast()) };
        inside |= in16(t.bytes, t.high, v) << (16 * k);
    }
    inside
}

/// The escapes and characters that start among the 64 bytes at `p`.
///
/// # Safety
///
/// `p .. p + 64` must be readable.
#[inline]
#[target_feature(enable = "ssse3")]
unsafe fn starts16(t: &Tables16, p: *const u8) -> Starts {
    let (mut open, mut esc, mut lead, mut high, mut cont) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mask = |m: __m128i| u64::from(_mm_movemask_epi8(m) as u32 & 0xffff);
    for k in 0..4 {
        // SAFETY: as in `inside16`.
        let v = unsafe { _mm_loadu_si128(p.add(16 * k).cast()) };
        if t.escapes {
            open |= mask(_mm_cmpeq_epi8(v, t.escape)) << (16 * k);
            esc |= in16(t.escaped, t.high, v) << (16 * k);
        }
        if t.chars {
            lead |= in16(t.leads, t.lead_high, v) << (16 * k);
            let top = _mm_and_si128(v, _mm_set1_epi8(0xF0u8 as i8));
            high |= mask(_mm_cmpeq_epi8(top, _mm_set1_epi8(0xE0u8 as i8))) << (16 * k);
            // Continuation bytes 0x80-0xBF are, as signed bytes, below -64.
            cont |= mask(_mm_cmplt_epi8(v, _mm_set1_epi8(-64))) << (16 * k);
        }
    }
    Starts::of(open, esc, lead, high, cont)
}

/// [`crate::simd::find_outside`] with 16-byte vectors.
///
/// # Safety
///
/// The CPU must have SSSE3.
#[target_feature(enable = "ssse3")]
pub(crate) unsafe fn find_outside_ssse3(set: &LoopSet, input: &[u8], from: usize) -> usize {
    // Runs of ASCII bytes of the set, block by block, as with AVX2.
    let mut from = from;
    // SAFETY: `NibbleSet` and `HIGH` are 16 bytes; unaligned loads.
    let (bytes, high) = unsafe {
        (
            _mm_loadu_si128(set.bytes.0.as_ptr().cast()),
            _mm_loadu_si128(HIGH.as_ptr().cast()),
        )
    };
    while let Some(block) = input.get(from..from + 16) {
        // SAFETY: `block` is 16 bytes; an unaligned load.
        let inside = in16(bytes, high, unsafe { _mm_loadu_si128(block.as_ptr().cast()) });
        let end = inside.trailing_ones() as usize;
        match block.get(end) {
            None => from += 16,
            Some(&b) if b < 0x80 && b != set.escape => return from + end,
            Some(_) => break,
        }
    }
    let t = tables16(set);
    // SAFETY: `inside16` and `starts16` read 64 bytes from `p`, which
    // `find` makes sure are inside its buffer.
    find(
        set,
        input,
        from,
        |p| unsafe { inside16(&t, p) },
        |p| unsafe { starts16(&t, p) },
    )
}

/// The lookup tables of `set`.
#[inline]
#[target_feature(enable = "ssse3")]
fn tables16(set: &LoopSet) -> Tables16 {
    // SAFETY: `NibbleSet` and `HIGH` are 16 bytes; unaligned loads.
    unsafe {
        Tables16 {
            bytes: _mm_loadu_si128(set.bytes.0.as_ptr().cast()),
            escaped: _mm_loadu_si128(set.escaped.0.as_ptr().cast()),
            high: _mm_loadu_si128(HIGH.as_ptr().cast()),
            escape: _mm_set1_epi8(set.escape as i8),
            leads: _mm_loadu_si128(set.leads.0.as_ptr().cast()),
            lead_high: _mm_loadu_si128(LEAD_HIGH.as_ptr().cast()),
            escapes: !set.escaped.is_empty(),
            chars: !set.leads.is_empty(),
        }
    }
}

/// [`crate::simd::classify_block`] with four 16-byte vectors.
///
/// # Safety
///
/// The CPU must have SSSE3.
#[target_feature(enable = "ssse3")]
pub(crate) unsafe fn classify_block_ssse3(
    set: &LoopSet,
    pairs: Option<&(NibbleSet, NibbleSet)>,
    block: &[u8; 64],
) -> BlockMasks {
    let t = tables16(set);
    // SAFETY: `block` is 64 readable bytes, what both functions read.
    let inside = unsafe { inside16(&t, block.as_ptr()) };
    let starts = if t.escapes || t.chars {
        // SAFETY: as above.
        unsafe { starts16(&t, block.as_ptr()) }
    } else {
        Starts::NONE
    };
    let masks = BlockMasks::of(inside, starts);
    let Some((x, e)) = pairs else { return masks };
    // SAFETY: `NibbleSet`s are 16 bytes; unaligned loads.
    let (x, e) = unsafe {
        (
            _mm_loadu_si128(x.0.as_ptr().cast()),
            _mm_loadu_si128(e.0.as_ptr().cast()),
        )
    };
    let (mut open, mut next) = (0u64, 0u64);
    for k in 0..4 {
        // SAFETY: bytes `16 k .. 16 k + 16` of the 64 of `block`.
        let v = unsafe { _mm_loadu_si128(block.as_ptr().add(16 * k).cast()) };
        open |= in16(x, t.high, v) << (16 * k);
        next |= in16(e, t.high, v) << (16 * k);
    }
    masks.with_pairs(open, next)
}

/// [`crate::simd::classify_blocks`] with four 16-byte vectors per block:
/// the packed classes' `T` pairs of tables, and per class its table and
/// bits (`select`).
///
/// # Safety
///
/// The CPU must have SSSE3, and `bytes` must hold 64 bytes for each of
/// the `blocks` blocks.
#[target_feature(enable = "ssse3")]
pub(crate) unsafe fn classify_blocks_ssse3<const T: usize, const K: usize, const N: usize>(
    tables: &[NibbleClass; T],
    select: &[(u8, u8); K],
    bytes: &[u8],
    out: &mut [[u64; N]; K],
    first: usize,
    blocks: usize,
) {
    debug_assert!(bytes.len() >= 64 * blocks);
    // One check for every store below.
    assert!(first + blocks <= N);
    let nib = _mm_set1_epi8(0x0f);
    let z = _mm_setzero_si128();
    let mut lo = [z; T];
    let mut hi = [z; T];
    for t in 0..T {
        // SAFETY: a `NibbleClass` is two tables of 16 bytes; unaligned
        // loads.
        unsafe {
            lo[t] = _mm_loadu_si128(tables[t].lo.as_ptr().cast());
            hi[t] = _mm_loadu_si128(tables[t].hi.as_ptr().cast());
        }
    }
    let mut bits = [z; K];
    for k in 0..K {
        bits[k] = _mm_set1_epi8(select[k].1 as i8);
    }
    for i in 0..blocks {
        let mut o = [0u64; K];
        for q in 0..4 {
            // SAFETY: bytes `64 i + 16 q ..` `+ 16` of `bytes` (the
            // caller's promise); an unaligned load.
            let v = unsafe { _mm_loadu_si128(bytes.as_ptr().add(64 * i + 16 * q).cast()) };
            let l = _mm_and_si128(v, nib);
            let u = _mm_and_si128(_mm_srli_epi16::<4>(v), nib);
            let mut m = [z; T];
            for t in 0..T {
                m[t] = _mm_and_si128(_mm_shuffle_epi8(lo[t], l), _mm_shuffle_epi8(hi[t], u));
            }
            for k in 0..K {
                // A class's table is one of the `T` in use (`% T` only spares
                // the bounds check).
                let m = _mm_and_si128(m[usize::from(select[k].0) % T], bits[k]);
                let e = !(_mm_movemask_epi8(_mm_cmpeq_epi8(m, z)) as u32) & 0xffff;
                o[k] |= u64::from(e) << (16 * q);
            }
        }
        for k in 0..K {
            out[k][first + i] = o[k];
        }
    }
}

/// [`crate::simd::find_byte`] with 16-byte vectors, on an input of at least
/// 64 bytes.
///
/// # Safety
///
/// The CPU must have SSSE3.
#[target_feature(enable = "ssse3")]
pub(crate) unsafe fn find_byte_ssse3(input: &[u8], byte: u8) -> Option<usize> {
    let x = _mm_set1_epi8(byte as i8);
    let hits = |p: *const u8| {
        let mut m = 0u64;
        for k in 0..4 {
            // SAFETY: the callers below pass windows of 64 bytes of
            // `input`.
            let v = unsafe { _mm_loadu_si128(p.add(16 * k).cast()) };
            m |= u64::from(_mm_movemask_epi8(_mm_cmpeq_epi8(v, x)) as u32 & 0xffff) << (16 * k);
        }
        m
    };
    find_byte_in(input, hits)
}

/// [`crate::simd::find_byte`] on an input of 16 to 64 bytes: four 16-byte
/// windows at `0`, `min(16, n - 16)`, `min(32, n - 16)` and `n - 16`
/// (overlapping where the input is shorter than 64 bytes), with no branch
/// on the length (SSE2, which every x86-64 CPU has). A loop over the
/// windows would end after a number of rounds that varies with the
/// length, a branch that inputs of mixed lengths mispredict.
///
/// # Safety
///
/// The CPU must have SSE2, as every x86-64 CPU does.
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) unsafe fn find_byte_sse2_short(input: &[u8], byte: u8) -> Option<usize> {
    let n = input.len();
    let x = _mm_set1_epi8(byte as i8);
    let hits = |at: usize| {
        let w = &input[at..at + 16];
        // SAFETY: `w` is 16 bytes of `input`, loaded unaligned.
        let v = unsafe { _mm_loadu_si128(w.as_ptr().cast()) };
        u64::from(_mm_movemask_epi8(_mm_cmpeq_epi8(v, x)) as u32) << at
    };
    let last = n - 16;
    let m = hits(0) | hits(last.min(16)) | hits(last.min(32)) | hits(last);
    (m != 0).then(|| m.trailing_zeros() as usize)
}

/// An [`AtomNibbles`] in 16-byte registers.
#[derive(Clone, Copy)]
pub(crate) struct Nibbles16 {
    low: __m128i,
    high: __m128i,
}

/// A 32-byte block classified by [`Nibbles16`]: its bytes and their
/// classes, 16 per register.
#[derive(Clone, Copy)]
pub(crate) struct Block16x2 {
    bytes: [__m128i; 2],
    classes: [__m128i; 2],
}

/// The classes of the 16 bytes `v` (two `pshufb` and an `and`).
#[inline]
#[target_feature(enable = "ssse3")]
fn classes16(t: &Nibbles16, v: __m128i) -> __m128i {
    let nib = _mm_set1_epi8(0x0f);
    let lo = _mm_shuffle_epi8(t.low, _mm_and_si128(v, nib));
    let hi = _mm_shuffle_epi8(t.high, _mm_and_si128(_mm_srli_epi16::<4>(v), nib));
    _mm_and_si128(lo, hi)
}

/// The positions of `v` (16 bytes) that hold `a` or `b`.
#[inline]
#[target_feature(enable = "sse2")]
fn equal16(v: __m128i, a: u8, b: u8) -> u32 {
    let e = _mm_or_si128(
        _mm_cmpeq_epi8(v, _mm_set1_epi8(a as i8)),
        _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8)),
    );
    _mm_movemask_epi8(e) as u32 & 0xffff
}

impl Classify for Nibbles16 {
    type Block = Block16x2;

    #[inline(always)]
    unsafe fn classify(&self, p: *const u8) -> Block16x2 {
        // SAFETY: `p .. p + 32` is readable and the CPU has SSSE3 (the
        // caller's promise); unaligned loads.
        unsafe {
            let v0 = _mm_loadu_si128(p.cast());
            let v1 = _mm_loadu_si128(p.add(16).cast());
            Block16x2 {
                bytes: [v0, v1],
                classes: [classes16(self, v0), classes16(self, v1)],
            }
        }
    }

    #[inline(always)]
    fn exits(block: &Block16x2, test: u8, invert: bool) -> u32 {
        // SAFETY: a `Block16x2` exists only where the CPU has SSSE3 (made
        // by `classify`, whose callers detected it); SSE2 is baseline.
        let zero = unsafe {
            let t = _mm_set1_epi8(test as i8);
            let z = |c: __m128i| {
                _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(c, t), _mm_setzero_si128())) as u32
            };
            z(block.classes[0]) & 0xffff | z(block.classes[1]) << 16
        };
        if invert {
            zero
        } else {
            !zero
        }
    }

    #[inline(always)]
    fn equal_block(block: &Block16x2, a: u8, b: u8) -> u32 {
        // SAFETY: SSE2 is part of the x86-64 baseline.
        unsafe { equal16(block.bytes[0], a, b) | equal16(block.bytes[1], a, b) << 16 }
    }

    #[inline(always)]
    unsafe fn equal(&self, p: *const u8, a: u8, b: u8) -> u32 {
        // SAFETY: `p .. p + 32` is readable (the caller's promise); SSE2
        // is part of the x86-64 baseline.
        unsafe {
            let (v0, v1) = (_mm_loadu_si128(p.cast()), _mm_loadu_si128(p.add(16).cast()));
            equal16(v0, a, b) | equal16(v1, a, b) << 16
        }
    }
}

/// [`crate::simd::walk_exits`] with 32-byte blocks of two 16-byte vectors
/// classified by nibble lookups ([`NibbleExits`]; an input of at most 64
/// bytes classified at once, [`ShortExits`]).
///
/// # Safety
///
/// The CPU must have SSSE3.
#[target_feature(enable = "ssse3")]
pub(crate) unsafe fn walk_exits_ssse3<W: ExitWalk>(
    walk: &W,
    nibbles: &AtomNibbles,
    input: &[u8],
    tags: &mut [usize],
) -> bool {
    // SAFETY: both tables are 16 bytes; unaligned loads.
    let (low, high) = unsafe {
        (
            _mm_loadu_si128(nibbles.low.as_ptr().cast()),
            _mm_loadu_si128(nibbles.high.as_ptr().cast()),
        )
    };
    let classify = Nibbles16 { low, high };
    if input.len() <= 64 {
        let mut exits = ShortExits::new(&classify, nibbles.rest, input);
        return walk.walk(input, &mut exits, tags);
    }
    let zero = _mm_setzero_si128();
    let mut exits = NibbleExits {
        input,
        classify,
        rest: nibbles.rest,
        base: 0,
        block: Block16x2 {
            bytes: [zero; 2],
            classes: [zero; 2],
        },
        shift: 0,
        live: 0,
    };
    if !input.is_empty() {
        exits.load(0);
    }
    walk.walk(input, &mut exits, tags)
}

/// [`crate::simd::match_shapes`] with 16-byte windows; an input of 8 to 15
/// bytes is one window of its first and last 8 bytes (overlapping), a
/// shorter one the low bytes of one window, loaded as a word
/// ([`crate::simd::short_word`]).
///
/// # Safety
///
/// The CPU must have SSSE3; `input` must hold at most 64 bytes.
#[inline]
#[target_feature(enable = "ssse3")]
pub(crate) unsafe fn match_shapes_ssse3(
    nibbles: &AtomNibbles,
    rows: &[u8],
    ids: &[u8],
    input: &[u8],
) -> Option<usize> {
    // SAFETY: each table is 16 readable bytes; unaligned loads.
    let t = unsafe {
        Nibbles16 {
            low: _mm_loadu_si128(nibbles.low.as_ptr().cast()),
            high: _mm_loadu_si128(nibbles.high.as_ptr().cast()),
        }
    };
    let n = input.len();
    if n < 8 {
        // The input's bytes, the rest zeros; only the first `n` positions
        // are compared.
        let classes = classes16(&t, _mm_cvtsi64_si128(crate::simd::short_word(input) as i64));
        let first = (1u32 << n) - 1;
        return ids.iter().position(|&id| {
            let at = usize::from(id) * crate::simd::SHAPE_LEN;
            let Some(row) = rows.get(at..at + 8) else {
                return false;
            };
            // SAFETY: `row` is 8 readable bytes; an unaligned load.
            let m = unsafe { _mm_loadl_epi64(row.as_ptr().cast()) };
            _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(classes, m), _mm_setzero_si128())) as u32 & first
                == 0
        });
    }
    if n < 16 {
        // Two 8-byte halves: bytes `0..8` and `n - 8..n`, of the input and
        // of each row alike.
        // SAFETY: `8 <= n` (the caller's promise), so both halves lie in
        // `input`; 8-byte unaligned loads.
        let v = unsafe {
            _mm_unpacklo_epi64(
                _mm_loadl_epi64(input.as_ptr().cast()),
                _mm_loadl_epi64(input[n - 8..].as_ptr().cast()),
            )
        };
        let classes = classes16(&t, v);
        return ids.iter().position(|&id| {
            let row = &rows[usize::from(id) * crate::simd::SHAPE_LEN..][..n];
            // SAFETY: as above, within the row's first `n` bytes.
            let m = unsafe {
                _mm_unpacklo_epi64(
                    _mm_loadl_epi64(row.as_ptr().cast()),
                    _mm_loadl_epi64(row[n - 8..].as_ptr().cast()),
                )
            };
            _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(classes, m), _mm_setzero_si128())) == 0
        });
    }
    match_shapes_in::<16>(rows, ids, input, |p, m| {
        // SAFETY: `match_shapes_in` gives windows of 16 bytes inside
        // `input` and inside a shape; unaligned loads.
        let (v, m) = unsafe { (_mm_loadu_si128(p.cast()), _mm_loadu_si128(m.cast())) };
        let zero = _mm_cmpeq_epi8(_mm_and_si128(classes16(&t, v), m), _mm_setzero_si128());
        _mm_movemask_epi8(zero) != 0
    })
}
