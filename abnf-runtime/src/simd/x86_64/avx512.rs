//! AVX-512 F and BW: 64-byte vectors, and comparisons that give their
//! masks directly in mask registers.

use core::arch::x86_64::*;

use super::{HIGH, LEAD_HIGH};
use crate::simd::generic::{find, find_byte_in};
use crate::simd::{
    AtomNibbles, BlockMasks, LaneTask, Lanes, LoopSet, NibbleClass, NibbleSet, Starts, SHAPE_LEN,
};

/// One bit per byte of `v`: set where the byte is in the nibble set
/// `lo` (`hi` holds [`HIGH`] in every 128-bit lane).
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn in64(lo: __m512i, hi: __m512i, v: __m512i) -> u64 {
    let nib = _mm512_set1_epi8(0x0f);
    let a = _mm512_shuffle_epi8(lo, _mm512_and_si512(v, nib));
    let b = _mm512_shuffle_epi8(hi, _mm512_and_si512(_mm512_srli_epi16::<4>(v), nib));
    _mm512_test_epi8_mask(a, b)
}

/// [`crate::simd::find_outside`] with 64-byte vectors: [`super::avx2::find_outside_avx2`]
/// with one vector per window and the masks read from mask registers.
///
/// # Safety
///
/// The CPU must have AVX-512 F and BW (and the OS must save their
/// registers).
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn find_outside_avx512(set: &LoopSet, input: &[u8], from: usize) -> usize {
    // SAFETY: `NibbleSet` and `HIGH` are 16 bytes; unaligned loads.
    let lane = |t: &[u8; 16]| unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(t.as_ptr().cast())) };
    // Runs of ASCII bytes of the set, block by block, as with AVX2.
    let mut from = from;
    let (bytes, high) = (lane(&set.bytes.0), lane(&HIGH));
    while let Some(block) = input.get(from..from + 64) {
        // SAFETY: `block` is 64 bytes; an unaligned load.
        let v = unsafe { _mm512_loadu_si512(block.as_ptr().cast()) };
        let end = in64(bytes, high, v).trailing_ones() as usize;
        match block.get(end) {
            None => from += 64,
            Some(&b) if b < 0x80 && b != set.escape => return from + end,
            Some(_) => break,
        }
    }
    let escaped = lane(&set.escaped.0);
    let (leads, lead_high) = (lane(&set.leads.0), lane(&LEAD_HIGH));
    let escape = _mm512_set1_epi8(set.escape as i8);
    let (escapes, chars) = (!set.escaped.is_empty(), !set.leads.is_empty());
    // SAFETY: `find` passes pointers to 64 readable bytes.
    let load = |p: *const u8| unsafe { _mm512_loadu_si512(p.cast()) };
    find(
        set,
        input,
        from,
        |p| in64(bytes, high, load(p)),
        |p| {
            let v = load(p);
            let (mut open, mut esc, mut lead, mut hi3, mut cont) = (0u64, 0u64, 0u64, 0u64, 0u64);
            if escapes {
                open = _mm512_cmpeq_epi8_mask(v, escape);
                esc = in64(escaped, high, v);
            }
            if chars {
                lead = in64(leads, lead_high, v);
                let top = _mm512_and_si512(v, _mm512_set1_epi8(0xF0u8 as i8));
                hi3 = _mm512_cmpeq_epi8_mask(top, _mm512_set1_epi8(0xE0u8 as i8));
                // Continuation bytes 0x80-0xBF are, as signed bytes,
                // below -64.
                cont = _mm512_cmplt_epi8_mask(v, _mm512_set1_epi8(-64));
            }
            Starts::of(open, esc, lead, hi3, cont)
        },
    )
}

/// [`crate::simd::classify_block`] with one 64-byte vector.
///
/// # Safety
///
/// The CPU must have AVX-512 F and BW (and the OS must save their
/// registers).
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn classify_block_avx512(
    set: &LoopSet,
    pairs: Option<&(NibbleSet, NibbleSet)>,
    block: &[u8; 64],
) -> BlockMasks {
    // SAFETY: `NibbleSet`, `Leads` and `HIGH` are 16 bytes; unaligned loads.
    let lane = |t: &[u8; 16]| unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(t.as_ptr().cast())) };
    // SAFETY: `block` is 64 readable bytes; an unaligned load.
    let v = unsafe { _mm512_loadu_si512(block.as_ptr().cast()) };
    let high = lane(&HIGH);
    let inside = in64(lane(&set.bytes.0), high, v);
    let (mut open, mut esc, mut lead, mut hi3, mut cont) = (0u64, 0u64, 0u64, 0u64, 0u64);
    if !set.escaped.is_empty() {
        open = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(set.escape as i8));
        esc = in64(lane(&set.escaped.0), high, v);
    }
    if !set.leads.is_empty() {
        lead = in64(lane(&set.leads.0), lane(&LEAD_HIGH), v);
        let top = _mm512_and_si512(v, _mm512_set1_epi8(0xF0u8 as i8));
        hi3 = _mm512_cmpeq_epi8_mask(top, _mm512_set1_epi8(0xE0u8 as i8));
        // Continuation bytes 0x80-0xBF are, as signed bytes, below -64.
        cont = _mm512_cmplt_epi8_mask(v, _mm512_set1_epi8(-64));
    }
    let masks = BlockMasks::of(inside, Starts::of(open, esc, lead, hi3, cont));
    match pairs {
        Some((x, e)) => masks.with_pairs(in64(lane(&x.0), high, v), in64(lane(&e.0), high, v)),
        None => masks,
    }
}

/// [`crate::simd::classify_blocks`] with one 64-byte vector per block:
/// the packed classes' `T` pairs of tables, and per class its table and
/// bits (`select`).
///
/// # Safety
///
/// The CPU must have AVX-512 F and BW (and the OS must save their
/// registers), and `bytes` must hold 64 bytes for each of the `blocks` blocks.
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn classify_blocks_avx512<const T: usize, const K: usize, const N: usize>(
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
    let nib = _mm512_set1_epi8(0x0f);
    let z = _mm512_setzero_si512();
    let mut lo = [z; T];
    let mut hi = [z; T];
    for t in 0..T {
        // SAFETY: a `NibbleClass` is two tables of 16 bytes; unaligned
        // loads.
        unsafe {
            lo[t] = _mm512_broadcast_i32x4(_mm_loadu_si128(tables[t].lo.as_ptr().cast()));
            hi[t] = _mm512_broadcast_i32x4(_mm_loadu_si128(tables[t].hi.as_ptr().cast()));
        }
    }
    let mut bits = [z; K];
    for k in 0..K {
        bits[k] = _mm512_set1_epi8(select[k].1 as i8);
    }
    for i in 0..blocks {
        // SAFETY: bytes `64 i .. 64 i + 64` of `bytes` (the caller's
        // promise); an unaligned load.
        let v = unsafe { _mm512_loadu_si512(bytes.as_ptr().add(64 * i).cast()) };
        let l = _mm512_and_si512(v, nib);
        let u = _mm512_and_si512(_mm512_srli_epi16::<4>(v), nib);
        let mut m = [z; T];
        for t in 0..T {
            m[t] = _mm512_and_si512(_mm512_shuffle_epi8(lo[t], l), _mm512_shuffle_epi8(hi[t], u));
        }
        for k in 0..K {
            // A class's table is one of the `T` in use (`% T` only spares
            // the bounds check).
            out[k][first + i] = _mm512_test_epi8_mask(m[usize::from(select[k].0) % T], bits[k]);
        }
    }
}

/// [`crate::simd::find_byte`] with 64-byte vectors, on an input of at least
/// 64 bytes.
///
/// # Safety
///
/// The CPU must have AVX-512 F and BW (and the OS must save their
/// registers).
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn find_byte_avx512(input: &[u8], byte: u8) -> Option<usize> {
    let x = _mm512_set1_epi8(byte as i8);
    // SAFETY: the callers below pass windows of 64 bytes of `input`.
    let hits = |p: *const u8| _mm512_cmpeq_epi8_mask(unsafe { _mm512_loadu_si512(p.cast()) }, x);
    find_byte_in(input, hits)
}

/// [`crate::simd::find_byte`] on an input under 64 bytes: one masked load.
///
/// # Safety
///
/// The CPU must have AVX-512 F and BW (and the OS must save their
/// registers).
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn find_byte_avx512_short(input: &[u8], byte: u8) -> Option<usize> {
    let live = (1u64 << input.len()) - 1;
    // SAFETY: the masked load reads only the `live` lanes, which are
    // `input`'s bytes (masked-off lanes do not fault).
    let v = unsafe { _mm512_maskz_loadu_epi8(live, input.as_ptr().cast()) };
    let hits = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(byte as i8)) & live;
    (hits != 0).then(|| hits.trailing_zeros() as usize)
}

/// [`crate::simd::match_shapes`] with one masked 64-byte load: each shape
/// is one `and`-test of the classes against its masks.
///
/// # Safety
///
/// The CPU must have AVX-512 F and BW (and the OS must save their
/// registers); `input` must hold at most 64 bytes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn match_shapes_avx512(
    nibbles: &AtomNibbles,
    rows: &[u8],
    ids: &[u8],
    input: &[u8],
) -> Option<usize> {
    let live = match input.len() {
        SHAPE_LEN => u64::MAX,
        n => (1u64 << n) - 1,
    };
    // SAFETY: the masked load reads only the `live` lanes, which are
    // `input`'s bytes (masked-off lanes do not fault); the tables are 16
    // readable bytes each.
    let (v, low, high) = unsafe {
        (
            _mm512_maskz_loadu_epi8(live, input.as_ptr().cast()),
            _mm512_broadcast_i32x4(_mm_loadu_si128(nibbles.low.as_ptr().cast())),
            _mm512_broadcast_i32x4(_mm_loadu_si128(nibbles.high.as_ptr().cast())),
        )
    };
    let nib = _mm512_set1_epi8(0x0f);
    let lo = _mm512_shuffle_epi8(low, _mm512_and_si512(v, nib));
    let hi = _mm512_shuffle_epi8(high, _mm512_and_si512(_mm512_srli_epi16::<4>(v), nib));
    let classes = _mm512_and_si512(lo, hi);
    ids.iter().position(|&id| {
        let masks = &rows[usize::from(id) * SHAPE_LEN..][..SHAPE_LEN];
        // SAFETY: a row is 64 readable bytes; unaligned load.
        let m = unsafe { _mm512_loadu_si512(masks.as_ptr().cast()) };
        _mm512_test_epi8_mask(classes, m) & live == live
    })
}

/// Eight blocks' masks, one per 64-bit lane ([`crate::simd::Lanes`]).
#[derive(Clone, Copy)]
pub struct Lanes8(__m512i);

/// The proof that the CPU has AVX-512 F (made by [`run_lanes`] only):
/// every [`Lanes8`] is made from one, so its methods may use AVX-512 F.
#[derive(Clone, Copy)]
pub struct Avx512(());

/// Runs `task` with [`Lanes8`].
///
/// # Safety
///
/// The CPU must have AVX-512 F and BW (and the OS must save their
/// registers).
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn run_lanes<T: LaneTask>(task: T) -> T::Output {
    task.run::<Lanes8>(Avx512(()))
}

// SAFETY (every `unsafe` block of these impls): a `Lanes8` exists only
// where an `Avx512` token was made, by `run_lanes`, which runs on a CPU
// with AVX-512 F; loads and stores are unaligned, within the slices
// (asserted).
lane_bitwise!(Lanes8, _mm512_and_si512, _mm512_or_si512, _mm512_xor_si512);

impl core::ops::Not for Lanes8 {
    type Output = Lanes8;
    #[inline(always)]
    fn not(self) -> Lanes8 {
        // SAFETY: see the note above these impls.
        Lanes8(unsafe { _mm512_ternarylogic_epi64::<0x55>(self.0, self.0, self.0) })
    }
}

impl Lanes for Lanes8 {
    const COUNT: usize = 8;
    type Token = Avx512;

    #[inline(always)]
    fn splat(_: Avx512, x: u64) -> Lanes8 {
        // SAFETY: see the note above these impls.
        Lanes8(unsafe { _mm512_set1_epi64(x as i64) })
    }

    #[inline(always)]
    fn load(_: Avx512, from: &[u64]) -> Lanes8 {
        assert!(from.len() >= 8);
        // SAFETY: see the note above these impls.
        Lanes8(unsafe { _mm512_loadu_si512(from.as_ptr().cast()) })
    }

    #[inline(always)]
    fn store(self, to: &mut [u64]) {
        assert!(to.len() >= 8);
        // SAFETY: see the note above these impls.
        unsafe { _mm512_storeu_si512(to.as_mut_ptr().cast(), self.0) }
    }

    #[inline(always)]
    fn shl(self, n: u32) -> Lanes8 {
        // SAFETY: see the note above these impls.
        Lanes8(unsafe { _mm512_sll_epi64(self.0, _mm_cvtsi32_si128(n as i32)) })
    }

    #[inline(always)]
    fn shr(self, n: u32) -> Lanes8 {
        // SAFETY: see the note above these impls.
        Lanes8(unsafe { _mm512_srl_epi64(self.0, _mm_cvtsi32_si128(n as i32)) })
    }

    #[inline(always)]
    fn neg(self) -> Lanes8 {
        // SAFETY: see the note above these impls.
        Lanes8(unsafe { _mm512_sub_epi64(_mm512_setzero_si512(), self.0) })
    }

    #[inline(always)]
    fn up(self, carry: u64) -> Lanes8 {
        // The sixteen lanes `carry` x 8, then `self`, moved down by seven.
        // SAFETY: see the note above these impls.
        Lanes8(unsafe { _mm512_alignr_epi64::<7>(self.0, _mm512_set1_epi64(carry as i64)) })
    }

    #[inline(always)]
    fn xor_prefix(self) -> Lanes8 {
        // SAFETY: see the note above these impls.
        let z = unsafe { _mm512_setzero_si512() };
        let x = self ^ self.up(0);
        // SAFETY: see the note above these impls.
        let x = x ^ Lanes8(unsafe { _mm512_alignr_epi64::<6>(x.0, z) });
        // SAFETY: see the note above these impls.
        x ^ Lanes8(unsafe { _mm512_alignr_epi64::<4>(x.0, z) })
    }

    #[inline(always)]
    fn last(self) -> u64 {
        // SAFETY: see the note above these impls.
        unsafe { _mm256_extract_epi64::<3>(_mm512_extracti64x4_epi64::<1>(self.0)) as u64 }
    }
}
