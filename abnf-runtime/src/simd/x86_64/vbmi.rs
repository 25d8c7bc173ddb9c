//! AVX-512 VBMI: byte permutes across a whole 64-byte vector (`vpermb`,
//! `vpermi2b`), for the 64-lane shuffle automata and the exit walks' block
//! classification.

use core::arch::x86_64::*;

/// [`crate::simd::Exits`] with 64-byte vectors: the block that holds the
/// offset asked about is loaded (masked past the input's end) and
/// classified once, two `vpermi2b` lookups into the atom table and a
/// blend on the bytes' top bit; each question is then one `vptestmb`
/// and a trailing-zero count. Blocks start at multiples of 64.
pub(crate) struct VbmiExits<'a> {
    input: &'a [u8],
    table: [__m512i; 4],
    /// The block classified: its offset, its atoms, and which of its
    /// 64 positions are in the input.
    base: usize,
    bytes: __m512i,
    atoms: __m512i,
    live: u64,
}

impl VbmiExits<'_> {
    /// Loads and classifies the block at `base` (below the input's length).
    #[inline(always)]
    fn load(&mut self, base: usize) {
        let n = self.input.len() - base;
        self.live = if n >= 64 { !0 } else { (1u64 << n) - 1 };
        // SAFETY: the CPU has AVX-512 F, BW and VBMI (`VbmiExits` is only
        // made by `walk_exits_vbmi`); the masked load reads only the
        // `live` bytes, which are `input[base..]` (masked-off lanes do not
        // fault).
        unsafe {
            let v = _mm512_maskz_loadu_epi8(self.live, self.input.as_ptr().add(base).cast());
            self.bytes = v;
            let low = _mm512_permutex2var_epi8(self.table[0], v, self.table[1]);
            let high = _mm512_permutex2var_epi8(self.table[2], v, self.table[3]);
            self.atoms = _mm512_mask_blend_epi8(_mm512_movepi8_mask(v), low, high);
        }
        self.base = base;
    }

    /// The offset of the block that holds `from` (below the input's
    /// length), loaded and classified if it is not the current one.
    #[inline(always)]
    fn block_of(&mut self, from: usize) -> usize {
        let base = from & !63;
        if base != self.base {
            self.load(base);
        }
        base
    }

    /// The positions of the classified block whose atoms meet `bits`.
    #[inline(always)]
    fn hits(&self, bits: u8) -> u64 {
        // SAFETY: as in `load`.
        unsafe { _mm512_test_epi8_mask(self.atoms, _mm512_set1_epi8(bits as i8)) & self.live }
    }

    /// The positions of `bytes` (a block) that hold `a` or `b`.
    #[inline(always)]
    fn equal(bytes: __m512i, a: u8, b: u8) -> u64 {
        // SAFETY: as in `load`.
        unsafe {
            _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8(a as i8))
                | _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8(b as i8))
        }
    }
}

impl crate::simd::Exits for VbmiExits<'_> {
    #[inline(always)]
    fn next_exit(&mut self, from: usize, bits: u8) -> usize {
        let len = self.input.len();
        if from >= len {
            return len;
        }
        let mut base = self.block_of(from);
        let here = self.hits(bits) >> (from - base);
        if here != 0 {
            return from + here.trailing_zeros() as usize;
        }
        loop {
            base += 64;
            if base >= len {
                return len;
            }
            self.load(base);
            let m = self.hits(bits);
            if m != 0 {
                return base + m.trailing_zeros() as usize;
            }
        }
    }

    #[inline(always)]
    fn next_byte(&mut self, from: usize, a: u8, b: u8) -> usize {
        let len = self.input.len();
        if from >= len {
            return len;
        }
        let mut base = self.block_of(from);
        let here = (Self::equal(self.bytes, a, b) & self.live) >> (from - base);
        if here != 0 {
            return from + here.trailing_zeros() as usize;
        }
        // Whole blocks without classifying them; the block with the
        // byte (or the last one) is loaded as usual.
        base += 64;
        while base + 64 <= len {
            // SAFETY: `input[base..base + 64]` is in bounds.
            let v = unsafe { _mm512_loadu_si512(self.input.as_ptr().add(base).cast()) };
            let m = Self::equal(v, a, b);
            if m != 0 {
                self.load(base);
                return base + m.trailing_zeros() as usize;
            }
            base += 64;
        }
        if base >= len {
            return len;
        }
        self.load(base);
        let m = Self::equal(self.bytes, a, b) & self.live;
        if m != 0 {
            base + m.trailing_zeros() as usize
        } else {
            len
        }
    }
}

/// [`crate::simd::walk_exits`] with [`VbmiExits`].
///
/// # Safety
///
/// The CPU must have AVX-512 F, BW and VBMI, enabled by the OS.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(crate) unsafe fn walk_exits_vbmi<W: crate::simd::ExitWalk>(
    walk: &W,
    input: &[u8],
    tags: &mut [usize],
) -> bool {
    let t = walk.atoms();
    // SAFETY: `AtomTable` is 256 bytes; each load reads 64 of them.
    let quarter = |k: usize| unsafe { _mm512_loadu_si512(t.0.as_ptr().add(64 * k).cast()) };
    let mut exits = VbmiExits {
        input,
        table: [quarter(0), quarter(1), quarter(2), quarter(3)],
        base: 0,
        bytes: _mm512_setzero_si512(),
        atoms: _mm512_setzero_si512(),
        live: 0,
    };
    if !input.is_empty() {
        exits.load(0);
    }
    walk.walk(input, &mut exits, tags)
}

/// [`crate::simd::shuffle_walk`] with 64-byte vectors: each quarter of the
/// input is walked from the identity vector (lane `j` holds `j`), one
/// `vpermb` per byte, so that afterwards lane `j` holds the lane the
/// quarter leads `j` to; the four are independent chains, and three
/// more permutes compose them. The first quarter starts from `start`
/// in every lane instead.
///
/// # Safety
///
/// The CPU must have AVX-512 F, BW and VBMI, enabled by the OS.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(crate) unsafe fn shuffle_walk_vbmi(
    rows: &[u8; crate::simd::SHUFFLE_ROWS],
    start: u8,
    input: &[u8],
) -> u8 {
    // Lane `j` of row `b`: its 64 bytes start at `64 * b`.
    let row = |b: u8| -> __m512i {
        let r: &[u8; 64] = rows[usize::from(b) * 64..][..64]
            .try_into()
            .unwrap_or(&[crate::simd::ESCAPE; 64]);
        // SAFETY: `r` is 64 readable bytes; the load is unaligned.
        unsafe { _mm512_loadu_si512(r.as_ptr().cast()) }
    };
    let mut ids = [0u8; 64];
    for (j, x) in ids.iter_mut().enumerate() {
        *x = j as u8;
    }
    // SAFETY: `ids` is 64 readable bytes.
    let id = unsafe { _mm512_loadu_si512(ids.as_ptr().cast()) };
    let q = input.len() / 4;
    let (q0, rest) = input.split_at(q);
    let (q1, rest) = rest.split_at(q);
    let (q2, q3) = rest.split_at(q);
    let mut a = _mm512_set1_epi8((start & crate::simd::ESCAPE) as i8);
    let (mut b, mut c, mut d) = (id, id, id);
    for (((&x0, &x1), &x2), &x3) in q0.iter().zip(q1).zip(q2).zip(q3) {
        a = _mm512_permutexvar_epi8(a, row(x0));
        b = _mm512_permutexvar_epi8(b, row(x1));
        c = _mm512_permutexvar_epi8(c, row(x2));
        d = _mm512_permutexvar_epi8(d, row(x3));
    }
    // The last quarter has up to three bytes more.
    for &x in &q3[q..] {
        d = _mm512_permutexvar_epi8(d, row(x));
    }
    // Lane `j` of `permute(x, y)` is `y[x[j]]`: b after a, and so on.
    let f = _mm512_permutexvar_epi8(_mm512_permutexvar_epi8(_mm512_permutexvar_epi8(a, b), c), d);
    _mm_cvtsi128_si32(_mm512_castsi512_si128(f)) as u8
}
