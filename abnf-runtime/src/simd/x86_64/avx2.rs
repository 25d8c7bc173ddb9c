//! AVX2: 32-byte vectors; `vpshufb` looks up within each 128-bit lane, so
//! every 16-byte table is broadcast to both.

use core::arch::x86_64::*;

use super::{HIGH, LEAD_HIGH};
use crate::simd::generic::{find, find_byte_in, Classify, NibbleExits, ShortExits};
use crate::simd::{
    AtomNibbles, BlockMasks, ExitWalk, LaneTask, Lanes, LoopSet, NibbleClass, NibbleSet, Starts, SHAPE_LEN,
};

/// The lookup tables of a [`LoopSet`] in 32-byte registers (each table
/// in both 128-bit lanes: `vpshufb` looks up per lane).
#[derive(Clone, Copy)]
struct Tables32 {
    bytes: __m256i,
    escaped: __m256i,
    high: __m256i,
    escape: __m256i,
    leads: __m256i,
    lead_high: __m256i,
    escapes: bool,
    chars: bool,
}

/// [`super::ssse3`]'s `in16` for 32 bytes.
#[inline]
#[target_feature(enable = "avx2")]
fn in32(lo: __m256i, hi: __m256i, v: __m256i) -> u64 {
    let nib = _mm256_set1_epi8(0x0f);
    let a = _mm256_shuffle_epi8(lo, _mm256_and_si256(v, nib));
    let b = _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16::<4>(v), nib));
    let out = _mm256_cmpeq_epi8(_mm256_and_si256(a, b), _mm256_setzero_si256());
    u64::from(!(_mm256_movemask_epi8(out) as u32))
}

/// [`super::ssse3`]'s `inside16` with 32-byte vectors.
///
/// # Safety
///
/// `p .. p + 64` must be readable.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn inside32(t: &Tables32, p: *const u8) -> u64 {
    // SAFETY: both loads lie inside `p .. p + 64` (the caller's
    // promise); unaligned loads.
    let (v0, v1) = unsafe { (_mm256_loadu_si256(p.cast()), _mm256_loadu_si256(p.add(32).cast())) };
    in32(t.bytes, t.high, v0) | in32(t.bytes, t.high, v1) << 32
}

/// [`super::ssse3`]'s `starts16` with 32-byte vectors.
///
/// # Safety
///
/// `p .. p + 64` must be readable.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn starts32(t: &Tables32, p: *const u8) -> Starts {
    // SAFETY: as in `inside32`.
    let (v0, v1) = unsafe { (_mm256_loadu_si256(p.cast()), _mm256_loadu_si256(p.add(32).cast())) };
    let mask = |m: __m256i| u64::from(_mm256_movemask_epi8(m) as u32);
    let (mut open, mut esc, mut lead, mut high, mut cont) = (0u64, 0u64, 0u64, 0u64, 0u64);
    if t.escapes {
        let o = |v| mask(_mm256_cmpeq_epi8(v, t.escape));
        open = o(v0) | o(v1) << 32;
        esc = in32(t.escaped, t.high, v0) | in32(t.escaped, t.high, v1) << 32;
    }
    if t.chars {
        lead = in32(t.leads, t.lead_high, v0) | in32(t.leads, t.lead_high, v1) << 32;
        let h = |v| {
            let top = _mm256_and_si256(v, _mm256_set1_epi8(0xF0u8 as i8));
            mask(_mm256_cmpeq_epi8(top, _mm256_set1_epi8(0xE0u8 as i8)))
        };
        high = h(v0) | h(v1) << 32;
        // Continuation bytes 0x80-0xBF are, as signed bytes, below -64.
        let c = |v| mask(_mm256_cmpgt_epi8(_mm256_set1_epi8(-64), v));
        cont = c(v0) | c(v1) << 32;
    }
    Starts::of(open, esc, lead, high, cont)
}

/// [`crate::simd::find_outside`] with 32-byte vectors.
///
/// # Safety
///
/// The CPU must have AVX2 (and the OS must save its registers).
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn find_outside_avx2(set: &LoopSet, input: &[u8], from: usize) -> usize {
    // Most runs end at an ASCII byte (a field name, a value, a path
    // segment): blocks of ASCII bytes of the set decide them, with two of
    // the tables (measured on RFC 9112 request heads: 17 searches per
    // head, of 94 instructions each before). A run that meets a byte from
    // 0x80 on, which may start a character of the set, or the escape
    // byte, takes the whole search from that block (`find_outside_rest`,
    // out of line so that this part saves few registers).
    let n = input.len();
    if n < 32 {
        // SAFETY: the caller's promise.
        return unsafe { find_outside_rest(set, input, from) };
    }
    // SAFETY: `NibbleSet` and `HIGH` are 16 bytes; unaligned loads.
    let (bytes, high) = unsafe {
        (
            _mm256_broadcastsi128_si256(_mm_loadu_si128(set.bytes.0.as_ptr().cast())),
            _mm256_broadcastsi128_si256(_mm_loadu_si128(HIGH.as_ptr().cast())),
        )
    };
    // One block of 32 bytes (most runs end in it): from `from`, or, for a
    // run that starts in the last 32 bytes (the last field of a request
    // head, say), the input's last 32 bytes shifted so that bit 0 is
    // `from` (the bits past the end are 0: outside). Chosen without a
    // branch: which one a search takes follows the data.
    let from = from.min(n);
    let at = from.min(n - 32);
    let shift = from - at;
    // SAFETY: `at + 32 <= n`; an unaligned load.
    let v = unsafe { _mm256_loadu_si256(input.as_ptr().add(at).cast()) };
    let run = (in32(bytes, high, v) >> shift).trailing_ones() as usize;
    let stop = from + run;
    if stop >= n {
        return n;
    }
    let mut from = from;
    if run < 32 - shift {
        // The byte that ends the run decides it unless it is from 0x80
        // on or the escape: tested in the block's masks, not loaded again
        // (the load would add its latency to every search's).
        let escape = _mm256_set1_epi8(set.escape as i8);
        let special = (_mm256_movemask_epi8(v) | _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, escape))) as u32;
        if (u64::from(special) >> (shift + run)) & 1 == 0 {
            return stop;
        }
    } else {
        // Then blocks of 64 (two vectors, one branch).
        from += 32;
        while let Some(block) = input.get(from..from + 64) {
            // SAFETY: `block` is 64 bytes; unaligned loads.
            let inside = unsafe {
                in32(bytes, high, _mm256_loadu_si256(block.as_ptr().cast()))
                    | in32(bytes, high, _mm256_loadu_si256(block.as_ptr().add(32).cast())) << 32
            };
            let end = inside.trailing_ones() as usize;
            match block.get(end) {
                None => from += 64,
                Some(&b) if b < 0x80 && b != set.escape => return from + end,
                Some(_) => break,
            }
        }
    }
    // SAFETY: the caller's promise.
    unsafe { find_outside_rest(set, input, from) }
}

/// The whole search of [`find_outside_avx2`], escapes and characters
/// included, from `from`.
///
/// # Safety
///
/// As [`find_outside_avx2`].
#[inline(never)]
#[target_feature(enable = "avx2")]
unsafe fn find_outside_rest(set: &LoopSet, input: &[u8], from: usize) -> usize {
    let t = tables32(set);
    // SAFETY: `inside32` and `starts32` read 64 bytes from `p`, which
    // `find` makes sure are inside its buffer.
    find(
        set,
        input,
        from,
        |p| unsafe { inside32(&t, p) },
        |p| unsafe { starts32(&t, p) },
    )
}

/// The lookup tables of `set`.
#[inline]
#[target_feature(enable = "avx2")]
fn tables32(set: &LoopSet) -> Tables32 {
    // SAFETY: `NibbleSet` and `HIGH` are 16 bytes; unaligned loads.
    unsafe {
        Tables32 {
            bytes: _mm256_broadcastsi128_si256(_mm_loadu_si128(set.bytes.0.as_ptr().cast())),
            escaped: _mm256_broadcastsi128_si256(_mm_loadu_si128(set.escaped.0.as_ptr().cast())),
            high: _mm256_broadcastsi128_si256(_mm_loadu_si128(HIGH.as_ptr().cast())),
            escape: _mm256_set1_epi8(set.escape as i8),
            leads: _mm256_broadcastsi128_si256(_mm_loadu_si128(set.leads.0.as_ptr().cast())),
            lead_high: _mm256_broadcastsi128_si256(_mm_loadu_si128(LEAD_HIGH.as_ptr().cast())),
            escapes: !set.escaped.is_empty(),
            chars: !set.leads.is_empty(),
        }
    }
}

/// [`crate::simd::classify_block`] with two 32-byte vectors.
///
/// # Safety
///
/// The CPU must have AVX2 (and the OS must save its registers).
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn classify_block_avx2(
    set: &LoopSet,
    pairs: Option<&(NibbleSet, NibbleSet)>,
    block: &[u8; 64],
) -> BlockMasks {
    let t = tables32(set);
    // SAFETY: `block` is 64 readable bytes, what both functions read.
    let inside = unsafe { inside32(&t, block.as_ptr()) };
    let starts = if t.escapes || t.chars {
        // SAFETY: as above.
        unsafe { starts32(&t, block.as_ptr()) }
    } else {
        Starts::NONE
    };
    let masks = BlockMasks::of(inside, starts);
    let Some((x, e)) = pairs else { return masks };
    // SAFETY: `NibbleSet`s are 16 bytes, `block` 64; unaligned loads.
    let (x, e, v0, v1) = unsafe {
        (
            _mm256_broadcastsi128_si256(_mm_loadu_si128(x.0.as_ptr().cast())),
            _mm256_broadcastsi128_si256(_mm_loadu_si128(e.0.as_ptr().cast())),
            _mm256_loadu_si256(block.as_ptr().cast()),
            _mm256_loadu_si256(block.as_ptr().add(32).cast()),
        )
    };
    let of = |set| in32(set, t.high, v0) | in32(set, t.high, v1) << 32;
    masks.with_pairs(of(x), of(e))
}

/// [`crate::simd::classify_blocks`] with two 32-byte vectors per block:
/// the packed classes' `T` pairs of tables, and per class its table and
/// bits (`select`).
///
/// # Safety
///
/// The CPU must have AVX2 (and the OS must save its registers), and
/// `bytes` must hold 64 bytes for each of the `blocks` blocks.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn classify_blocks_avx2<const T: usize, const K: usize, const N: usize>(
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
    let nib = _mm256_set1_epi8(0x0f);
    let z = _mm256_setzero_si256();
    let mut lo = [z; T];
    let mut hi = [z; T];
    for t in 0..T {
        // SAFETY: a `NibbleClass` is two tables of 16 bytes; unaligned
        // loads.
        unsafe {
            lo[t] = _mm256_broadcastsi128_si256(_mm_loadu_si128(tables[t].lo.as_ptr().cast()));
            hi[t] = _mm256_broadcastsi128_si256(_mm_loadu_si128(tables[t].hi.as_ptr().cast()));
        }
    }
    let mut bits = [z; K];
    for k in 0..K {
        bits[k] = _mm256_set1_epi8(select[k].1 as i8);
    }
    for i in 0..blocks {
        // SAFETY: bytes `64 i .. 64 i + 64` of `bytes` (the caller's
        // promise); unaligned loads.
        let v = unsafe {
            let p = bytes.as_ptr().add(64 * i);
            [_mm256_loadu_si256(p.cast()), _mm256_loadu_si256(p.add(32).cast())]
        };
        let mut m = [[z; 2]; T];
        for h in 0..2 {
            let l = _mm256_and_si256(v[h], nib);
            let u = _mm256_and_si256(_mm256_srli_epi16::<4>(v[h]), nib);
            for t in 0..T {
                m[t][h] = _mm256_and_si256(_mm256_shuffle_epi8(lo[t], l), _mm256_shuffle_epi8(hi[t], u));
            }
        }
        for k in 0..K {
            // A class's table is one of the `T` in use (`% T` only spares
            // the bounds check).
            let m = m[usize::from(select[k].0) % T];
            // The bytes outside the class, then their complement.
            let e0 = _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(m[0], bits[k]), z)) as u32;
            let e1 = _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(m[1], bits[k]), z)) as u32;
            out[k][first + i] = !(u64::from(e0) | u64::from(e1) << 32);
        }
    }
}

/// [`crate::simd::find_byte`] with 32-byte vectors, on an input of at least
/// 64 bytes.
///
/// # Safety
///
/// The CPU must have AVX2 (and the OS must save its registers).
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn find_byte_avx2(input: &[u8], byte: u8) -> Option<usize> {
    let x = _mm256_set1_epi8(byte as i8);
    let hits = |p: *const u8| {
        // SAFETY: the callers below pass windows of 64 bytes of `input`.
        let (v0, v1) = unsafe { (_mm256_loadu_si256(p.cast()), _mm256_loadu_si256(p.add(32).cast())) };
        let (e0, e1) = (_mm256_cmpeq_epi8(v0, x), _mm256_cmpeq_epi8(v1, x));
        let any = _mm256_or_si256(e0, e1);
        if _mm256_testz_si256(any, any) == 1 {
            0
        } else {
            u64::from(_mm256_movemask_epi8(e0) as u32) | u64::from(_mm256_movemask_epi8(e1) as u32) << 32
        }
    };
    find_byte_in(input, hits)
}

/// An [`AtomNibbles`] in 32-byte registers (each table in both 128-bit
/// lanes).
#[derive(Clone, Copy)]
pub(crate) struct Nibbles32 {
    low: __m256i,
    high: __m256i,
}

/// A block classified by [`Nibbles32`]: its 32 bytes and their classes.
#[derive(Clone, Copy)]
pub(crate) struct Block32 {
    bytes: __m256i,
    classes: __m256i,
}

impl Classify for Nibbles32 {
    type Block = Block32;

    #[inline(always)]
    unsafe fn classify(&self, p: *const u8) -> Block32 {
        // SAFETY: `p .. p + 32` is readable and the CPU has AVX2 (the
        // caller's promise); an unaligned load.
        unsafe {
            let v = _mm256_loadu_si256(p.cast());
            let nib = _mm256_set1_epi8(0x0f);
            let lo = _mm256_shuffle_epi8(self.low, _mm256_and_si256(v, nib));
            let hi = _mm256_shuffle_epi8(self.high, _mm256_and_si256(_mm256_srli_epi16::<4>(v), nib));
            Block32 {
                bytes: v,
                classes: _mm256_and_si256(lo, hi),
            }
        }
    }

    #[inline(always)]
    fn exits(block: &Block32, test: u8, invert: bool) -> u32 {
        // SAFETY: a `Block32` exists only where the CPU has AVX2 (made by
        // `classify`, whose callers detected it).
        let zero = unsafe {
            let t = _mm256_and_si256(block.classes, _mm256_set1_epi8(test as i8));
            _mm256_movemask_epi8(_mm256_cmpeq_epi8(t, _mm256_setzero_si256())) as u32
        };
        if invert {
            zero
        } else {
            !zero
        }
    }

    #[inline(always)]
    fn equal_block(block: &Block32, a: u8, b: u8) -> u32 {
        // SAFETY: as in `exits`.
        unsafe { equal32(block.bytes, a, b) }
    }

    #[inline(always)]
    unsafe fn equal(&self, p: *const u8, a: u8, b: u8) -> u32 {
        // SAFETY: `p .. p + 32` is readable and the CPU has AVX2 (the
        // caller's promise).
        unsafe { equal32(_mm256_loadu_si256(p.cast()), a, b) }
    }
}

/// The positions of `v` that hold `a` or `b`.
#[inline]
#[target_feature(enable = "avx2")]
fn equal32(v: __m256i, a: u8, b: u8) -> u32 {
    let e = _mm256_or_si256(
        _mm256_cmpeq_epi8(v, _mm256_set1_epi8(a as i8)),
        _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b as i8)),
    );
    _mm256_movemask_epi8(e) as u32
}

/// [`crate::simd::walk_exits`] with 32-byte blocks classified by nibble
/// lookups ([`NibbleExits`]; an input of at most 64 bytes classified at
/// once, [`ShortExits`]).
///
/// # Safety
///
/// The CPU must have AVX2 (and the OS must save its registers).
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn walk_exits_avx2<W: ExitWalk>(
    walk: &W,
    nibbles: &AtomNibbles,
    input: &[u8],
    tags: &mut [usize],
) -> bool {
    let classify = Nibbles32 {
        low: lane(&nibbles.low),
        high: lane(&nibbles.high),
    };
    if input.len() <= 64 {
        let mut exits = ShortExits::new(&classify, nibbles.rest, input);
        return walk.walk(input, &mut exits, tags);
    }
    let zero = _mm256_setzero_si256();
    let mut exits = NibbleExits {
        input,
        classify,
        rest: nibbles.rest,
        base: 0,
        block: Block32 {
            bytes: zero,
            classes: zero,
        },
        shift: 0,
        live: 0,
    };
    if !input.is_empty() {
        exits.load(0);
    }
    walk.walk(input, &mut exits, tags)
}

/// A 16-byte table in both 128-bit lanes (`vpshufb` looks up per lane).
#[inline]
#[target_feature(enable = "avx2")]
fn lane(t: &[u8; 16]) -> __m256i {
    // SAFETY: `t` is 16 readable bytes; an unaligned load.
    _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(t.as_ptr().cast()) })
}

/// [`crate::simd::match_shapes`] with 32-byte windows: two, at `0` and at
/// `n - 32` (overlapping), or for 16 to 31 bytes two 16-byte windows in
/// one register, classified once for all the shapes of the length (an
/// input under 16 bytes takes SSSE3's one window).
///
/// # Safety
///
/// The CPU must have AVX2; `input` must hold at most 64 bytes.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn match_shapes_avx2(
    nibbles: &AtomNibbles,
    rows: &[u8],
    ids: &[u8],
    input: &[u8],
) -> Option<usize> {
    let n = input.len();
    if n < 16 {
        // SAFETY: AVX2 implies SSSE3; the rest is the caller's promise.
        return unsafe { super::ssse3::match_shapes_ssse3(nibbles, rows, ids, input) };
    }
    let (low, high) = (lane(&nibbles.low), lane(&nibbles.high));
    let nib = _mm256_set1_epi8(0x0f);
    let classify = |v: __m256i| {
        let lo = _mm256_shuffle_epi8(low, _mm256_and_si256(v, nib));
        let hi = _mm256_shuffle_epi8(high, _mm256_and_si256(_mm256_srli_epi16::<4>(v), nib));
        _mm256_and_si256(lo, hi)
    };
    let zero = _mm256_setzero_si256();
    if n < 32 {
        // One register of two 16-byte windows, at `0` and at `n - 16`
        // (overlapping), of the input and of each row alike.
        let halves = |p: *const u8| {
            // SAFETY: `16 <= n < 32`: both windows lie in the `n` bytes
            // at `p` (the input, or a 64-byte row); unaligned loads.
            unsafe {
                _mm256_inserti128_si256::<1>(
                    _mm256_castsi128_si256(_mm_loadu_si128(p.cast())),
                    _mm_loadu_si128(p.add(n - 16).cast()),
                )
            }
        };
        let classes = classify(halves(input.as_ptr()));
        return ids.iter().position(|&id| {
            let at = usize::from(id) * SHAPE_LEN;
            let Some(masks) = rows.get(at..at + SHAPE_LEN) else {
                return false;
            };
            let miss = _mm256_cmpeq_epi8(_mm256_and_si256(classes, halves(masks.as_ptr())), zero);
            _mm256_movemask_epi8(miss) == 0
        });
    }
    // At most 32 (the caller's promise: at most 64 bytes).
    let last = n - 32;
    // SAFETY: `32 <= n`: both windows lie in `input`; unaligned loads.
    let (first, second) = unsafe {
        (
            _mm256_loadu_si256(input.as_ptr().cast()),
            _mm256_loadu_si256(input.as_ptr().add(last).cast()),
        )
    };
    let (first, second) = (classify(first), classify(second));
    ids.iter().position(|&id| {
        let at = usize::from(id) * SHAPE_LEN;
        let Some(masks) = rows.get(at..at + SHAPE_LEN) else {
            return false;
        };
        // SAFETY: a row is 64 readable bytes and `last + 32 <= 64`;
        // unaligned loads.
        let (m1, m2) = unsafe {
            (
                _mm256_loadu_si256(masks.as_ptr().cast()),
                _mm256_loadu_si256(masks.as_ptr().add(last).cast()),
            )
        };
        let miss = _mm256_or_si256(
            _mm256_cmpeq_epi8(_mm256_and_si256(first, m1), zero),
            _mm256_cmpeq_epi8(_mm256_and_si256(second, m2), zero),
        );
        _mm256_movemask_epi8(miss) == 0
    })
}

/// Four blocks' masks, one per 64-bit lane ([`crate::simd::Lanes`]).
#[derive(Clone, Copy)]
pub struct Lanes4(__m256i);

/// The proof that the CPU has AVX2 (made by [`run_lanes`] only): every
/// [`Lanes4`] is made from one, so its methods may use AVX2.
#[derive(Clone, Copy)]
pub struct Avx2(());

/// Runs `task` with [`Lanes4`].
///
/// # Safety
///
/// The CPU must have AVX2 (and the OS must save its registers).
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn run_lanes<T: LaneTask>(task: T) -> T::Output {
    task.run::<Lanes4>(Avx2(()))
}

// SAFETY (every `unsafe` block of these impls): a `Lanes4` exists only
// where an `Avx2` token was made, by `run_lanes`, which runs on a CPU with
// AVX2; loads and stores are unaligned, within the slices (asserted).
lane_bitwise!(Lanes4, _mm256_and_si256, _mm256_or_si256, _mm256_xor_si256);

impl core::ops::Not for Lanes4 {
    type Output = Lanes4;
    #[inline(always)]
    fn not(self) -> Lanes4 {
        // SAFETY: see the note above these impls.
        Lanes4(unsafe { _mm256_xor_si256(self.0, _mm256_set1_epi64x(-1)) })
    }
}

impl Lanes for Lanes4 {
    const COUNT: usize = 4;
    type Token = Avx2;

    #[inline(always)]
    fn splat(_: Avx2, x: u64) -> Lanes4 {
        // SAFETY: see the note above these impls.
        Lanes4(unsafe { _mm256_set1_epi64x(x as i64) })
    }

    #[inline(always)]
    fn load(_: Avx2, from: &[u64]) -> Lanes4 {
        assert!(from.len() >= 4);
        // SAFETY: see the note above these impls.
        Lanes4(unsafe { _mm256_loadu_si256(from.as_ptr().cast()) })
    }

    #[inline(always)]
    fn store(self, to: &mut [u64]) {
        assert!(to.len() >= 4);
        // SAFETY: see the note above these impls.
        unsafe { _mm256_storeu_si256(to.as_mut_ptr().cast(), self.0) }
    }

    #[inline(always)]
    fn shl(self, n: u32) -> Lanes4 {
        // SAFETY: see the note above these impls.
        Lanes4(unsafe { _mm256_sll_epi64(self.0, _mm_cvtsi32_si128(n as i32)) })
    }

    #[inline(always)]
    fn shr(self, n: u32) -> Lanes4 {
        // SAFETY: see the note above these impls.
        Lanes4(unsafe { _mm256_srl_epi64(self.0, _mm_cvtsi32_si128(n as i32)) })
    }

    #[inline(always)]
    fn neg(self) -> Lanes4 {
        // SAFETY: see the note above these impls.
        Lanes4(unsafe { _mm256_sub_epi64(_mm256_setzero_si256(), self.0) })
    }

    #[inline(always)]
    fn up(self, carry: u64) -> Lanes4 {
        // [a3, a0, a1, a2], then lane 0 from `carry`.
        // SAFETY: see the note above these impls.
        Lanes4(unsafe {
            let r = _mm256_permute4x64_epi64::<0b10_01_00_11>(self.0);
            _mm256_blend_epi32::<0b0000_0011>(r, _mm256_set1_epi64x(carry as i64))
        })
    }

    #[inline(always)]
    fn xor_prefix(self) -> Lanes4 {
        let x = self ^ self.up(0);
        // [0, 0, x0, x1]: the low half moved up.
        // SAFETY: see the note above these impls.
        x ^ Lanes4(unsafe { _mm256_permute2x128_si256::<0x08>(x.0, x.0) })
    }

    #[inline(always)]
    fn last(self) -> u64 {
        // SAFETY: see the note above these impls.
        unsafe { _mm256_extract_epi64::<3>(self.0) as u64 }
    }
}
