//! Bit-parallel byte classification: the one module with intrinsics and
//! `unsafe`, and its scalar twin.
//!
//! A set of ASCII bytes is a [`NibbleSet`]: sixteen bytes, one per low
//! nibble, whose bit `h` says whether the byte `h << 4 | low` is in the set
//! (the encoding of simdjson's `json_character_block` and of Hyperscan's
//! "shufti": two nibble lookups and an `and` classify a whole vector of
//! bytes). Bytes 0x80 and above are never in a set. The generator derives
//! the sets from its automata (the bytes on which a state loops to itself);
//! the runtime uses them to find, with one trailing-zero count per block,
//! the first byte that leaves a state.
//!
//! [`find_outside`] picks the widest implementation the CPU has, once (no
//! `std` needed: CPUID is read directly): AVX2 (32-byte vectors), SSSE3
//! (16), or the scalar twin [`find_outside_scalar`]. All give the same
//! answer; the tests compare them.

use core::sync::atomic::{AtomicU8, Ordering};

/// A set of ASCII bytes: bit `h` of `self.0[l]` is byte `h << 4 | l`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(16))]
pub struct NibbleSet(pub [u8; 16]);

impl NibbleSet {
    /// The set of the given bytes (bytes 0x80 and above are left out).
    pub const fn of(bytes: &[u8]) -> NibbleSet {
        let mut t = [0u8; 16];
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b < 0x80 {
                t[(b & 15) as usize] |= 1 << (b >> 4);
            }
            i += 1;
        }
        NibbleSet(t)
    }

    /// Whether `b` is in the set.
    #[inline(always)]
    pub const fn contains(&self, b: u8) -> bool {
        b < 0x80 && self.0[(b & 15) as usize] >> (b >> 4) & 1 == 1
    }
}

/// Which implementation [`find_outside`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// One byte at a time.
    Scalar,
    /// 16-byte vectors, two `pshufb` per vector (x86-64 with SSSE3).
    Ssse3,
    /// 32-byte vectors (x86-64 with AVX2, enabled by the OS).
    Avx2,
}

impl Level {
    /// The widest implementation this CPU runs, detected once.
    #[inline]
    pub fn detected() -> Level {
        // 0: not yet detected; else 1 + the level.
        static LEVEL: AtomicU8 = AtomicU8::new(0);
        match LEVEL.load(Ordering::Relaxed) {
            1 => Level::Scalar,
            2 => Level::Ssse3,
            3 => Level::Avx2,
            _ => {
                let l = detect();
                LEVEL.store(l as u8 + 1, Ordering::Relaxed);
                l
            }
        }
    }

    /// Every level this CPU can run (for tests and benchmarks).
    pub fn available() -> impl Iterator<Item = Level> {
        let top = Level::detected() as u8;
        [Level::Scalar, Level::Ssse3, Level::Avx2]
            .into_iter()
            .filter(move |l| *l as u8 <= top)
    }
}

#[cfg(target_arch = "x86_64")]
fn detect() -> Level {
    use core::arch::x86_64::{__cpuid, __cpuid_count};
    if cfg!(target_feature = "avx2") {
        return Level::Avx2;
    }
    // Leaf 1: ECX bit 9 SSSE3, bit 27 OSXSAVE, bit 28 AVX. Leaf 7: EBX bit 5
    // AVX2. Leaves 1 and 7 exist on every x86-64 CPU that has AVX2; leaf 0
    // says how many there are.
    let max = __cpuid(0).eax;
    let ecx1 = __cpuid(1).ecx;
    let ssse3 = ecx1 >> 9 & 1 == 1;
    let avx2 = max >= 7
        && ecx1 >> 27 & 1 == 1
        && ecx1 >> 28 & 1 == 1
        && __cpuid_count(7, 0).ebx >> 5 & 1 == 1
        // SAFETY: OSXSAVE (checked just above) means the CPU has XGETBV
        // and the OS enabled it.
        && unsafe { xcr0() } & 0b110 == 0b110;
    if avx2 {
        Level::Avx2
    } else if ssse3 || cfg!(target_feature = "ssse3") {
        Level::Ssse3
    } else {
        Level::Scalar
    }
}

/// XCR0: which register states the OS saves (bit 1 SSE, bit 2 AVX).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "xsave")]
unsafe fn xcr0() -> u64 {
    core::arch::x86_64::_xgetbv(0)
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> Level {
    Level::Scalar
}

/// The first index `i >= from` whose byte is not in `set`, or
/// `input.len()` if there is none (also when `from >= input.len()`).
#[inline]
pub fn find_outside(set: &NibbleSet, input: &[u8], from: usize) -> usize {
    find_outside_with(Level::detected(), set, input, from)
}

/// [`find_outside`] with a given implementation; a level the CPU does not
/// have runs the best one it has.
#[inline]
pub fn find_outside_with(level: Level, set: &NibbleSet, input: &[u8], from: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        let level = if level as u8 > Level::detected() as u8 {
            Level::detected()
        } else {
            level
        };
        match level {
            // SAFETY: `Level::detected` found AVX2 (CPUID and XCR0) or
            // SSSE3 on this CPU, so the functions' target features are
            // present.
            Level::Avx2 => return unsafe { x86::find_outside_avx2(set, input, from) },
            // SAFETY: as above.
            Level::Ssse3 => return unsafe { x86::find_outside_ssse3(set, input, from) },
            Level::Scalar => {}
        }
    }
    let _ = level;
    find_outside_scalar(set, input, from)
}

/// The scalar twin of [`find_outside`]: one byte at a time.
#[inline]
pub fn find_outside_scalar(set: &NibbleSet, input: &[u8], from: usize) -> usize {
    let Some(rest) = input.get(from..) else {
        return input.len();
    };
    match rest.iter().position(|&b| !set.contains(b)) {
        Some(k) => from + k,
        None => input.len(),
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::*;

    use super::NibbleSet;

    /// Bit `h` for high nibble `h < 8`: the second lookup's table. High
    /// nibbles 8 to 15 (non-ASCII bytes) map to 0, so they are never in a
    /// set.
    const HIGH: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0];

    /// One bit per byte of `v`: set where the byte is not in the set whose
    /// low-nibble table is `lo` (`hi` holds [`HIGH`]).
    #[inline]
    #[target_feature(enable = "ssse3")]
    fn outside16(lo: __m128i, hi: __m128i, v: __m128i) -> u32 {
        let nib = _mm_set1_epi8(0x0f);
        let a = _mm_shuffle_epi8(lo, _mm_and_si128(v, nib));
        let b = _mm_shuffle_epi8(hi, _mm_and_si128(_mm_srli_epi16::<4>(v), nib));
        let inside = _mm_and_si128(a, b);
        _mm_movemask_epi8(_mm_cmpeq_epi8(inside, _mm_setzero_si128())) as u32
    }

    /// [`super::find_outside`] with 16-byte vectors.
    ///
    /// # Safety
    ///
    /// The CPU must have SSSE3.
    #[target_feature(enable = "ssse3")]
    pub(super) unsafe fn find_outside_ssse3(set: &NibbleSet, input: &[u8], from: usize) -> usize {
        let n = input.len();
        let p = input.as_ptr();
        let mut i = from;
        // SAFETY: `NibbleSet` and `HIGH` are 16 bytes; unaligned loads.
        let (lo, hi) = unsafe {
            (
                _mm_loadu_si128(set.0.as_ptr().cast()),
                _mm_loadu_si128(HIGH.as_ptr().cast()),
            )
        };
        // SAFETY (every load below): `p + i .. p + i + 16` lies inside
        // `input`, as the loop conditions check (`i + 16 <= n`), and
        // `_mm_loadu_si128` has no alignment requirement.
        let load = |i: usize| unsafe { _mm_loadu_si128(p.add(i).cast()) };
        // The first block alone: many runs are short.
        if i + 16 <= n {
            let m = outside16(lo, hi, load(i));
            if m != 0 {
                return i + m.trailing_zeros() as usize;
            }
            i += 16;
        }
        while i + 64 <= n {
            let m = u64::from(outside16(lo, hi, load(i)))
                | u64::from(outside16(lo, hi, load(i + 16))) << 16
                | u64::from(outside16(lo, hi, load(i + 32))) << 32
                | u64::from(outside16(lo, hi, load(i + 48))) << 48;
            if m != 0 {
                return i + m.trailing_zeros() as usize;
            }
            i += 64;
        }
        while i + 16 <= n {
            let m = outside16(lo, hi, load(i));
            if m != 0 {
                return i + m.trailing_zeros() as usize;
            }
            i += 16;
        }
        if i >= n {
            return n;
        }
        if n >= 16 {
            // The last 16 bytes, overlapping what was read: drop the bits of
            // the bytes before `i`.
            let m = outside16(lo, hi, load(n - 16)) >> (i - (n - 16));
            if m != 0 {
                return i + m.trailing_zeros() as usize;
            }
            return n;
        }
        super::find_outside_scalar(set, input, i)
    }

    /// One bit per byte of `v`, as [`outside16`] for 32 bytes (`lo` and `hi`
    /// hold their table in both 128-bit lanes: `vpshufb` looks up per lane).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn outside32(lo: __m256i, hi: __m256i, v: __m256i) -> u32 {
        let nib = _mm256_set1_epi8(0x0f);
        let a = _mm256_shuffle_epi8(lo, _mm256_and_si256(v, nib));
        let b = _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16::<4>(v), nib));
        let inside = _mm256_and_si256(a, b);
        _mm256_movemask_epi8(_mm256_cmpeq_epi8(inside, _mm256_setzero_si256())) as u32
    }

    /// [`super::find_outside`] with 32-byte vectors.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2 (and the OS must save its registers).
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn find_outside_avx2(set: &NibbleSet, input: &[u8], from: usize) -> usize {
        let n = input.len();
        let p = input.as_ptr();
        let mut i = from;
        // SAFETY: `NibbleSet` and `HIGH` are 16 bytes; unaligned loads.
        let (lo, hi) = unsafe {
            (
                _mm256_broadcastsi128_si256(_mm_loadu_si128(set.0.as_ptr().cast())),
                _mm256_broadcastsi128_si256(_mm_loadu_si128(HIGH.as_ptr().cast())),
            )
        };
        // SAFETY (every load below): `p + i .. p + i + 32` lies inside
        // `input`, as the loop conditions check (`i + 32 <= n`), and
        // `_mm256_loadu_si256` has no alignment requirement.
        let load = |i: usize| unsafe { _mm256_loadu_si256(p.add(i).cast()) };
        if i + 32 <= n {
            let m = outside32(lo, hi, load(i));
            if m != 0 {
                return i + m.trailing_zeros() as usize;
            }
            i += 32;
        }
        while i + 64 <= n {
            let m = u64::from(outside32(lo, hi, load(i))) | u64::from(outside32(lo, hi, load(i + 32))) << 32;
            if m != 0 {
                return i + m.trailing_zeros() as usize;
            }
            i += 64;
        }
        if i + 32 <= n {
            let m = outside32(lo, hi, load(i));
            if m != 0 {
                return i + m.trailing_zeros() as usize;
            }
            i += 32;
        }
        if i >= n {
            return n;
        }
        if n >= 32 {
            // The last 32 bytes, overlapping what was read.
            let m = outside32(lo, hi, load(n - 32)) >> (i - (n - 32));
            if m != 0 {
                return i + m.trailing_zeros() as usize;
            }
            return n;
        }
        // SAFETY: AVX2 implies SSSE3.
        unsafe { find_outside_ssse3(set, input, i) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    #[test]
    fn nibble_set_holds_exactly_its_ascii_bytes() {
        let bytes: [u8; 6] = [b'a', b'/', 0, 0x7f, 0x80, 0xff];
        let set = NibbleSet::of(&bytes);
        for b in 0..=255u8 {
            assert_eq!(set.contains(b), b < 0x80 && bytes.contains(&b), "{b:#x}");
        }
    }

    #[test]
    fn every_level_agrees_with_the_scalar_twin() {
        let mut rng = Rng(0x5eed_1234_abcd);
        let mut input = [0u8; 300];
        for round in 0..2000 {
            // A set of most ASCII bytes, and inputs mostly inside it, with
            // outsiders (some non-ASCII) at random places.
            let members: alloc::vec::Vec<u8> = (0..=255u8).filter(|_| rng.next() % 8 != 0).collect();
            let set = NibbleSet::of(&members);
            let inside: alloc::vec::Vec<u8> = (0..128u8).filter(|&b| set.contains(b)).collect();
            let n = (rng.next() % 300) as usize;
            let outsiders = rng.next() % 4;
            for b in input[..n].iter_mut() {
                *b = inside[(rng.next() % inside.len() as u64) as usize];
            }
            for _ in 0..outsiders {
                if n > 0 {
                    input[(rng.next() % n as u64) as usize] = (rng.next() % 256) as u8;
                }
            }
            let input = &input[..n];
            for from in [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, n.saturating_sub(1), n, n + 1] {
                let want = find_outside_scalar(&set, input, from);
                for level in Level::available() {
                    assert_eq!(
                        find_outside_with(level, &set, input, from),
                        want,
                        "round {round}, {level:?}, from {from}, length {n}"
                    );
                }
            }
        }
    }
}
