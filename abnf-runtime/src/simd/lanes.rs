//! Bit masks of several 64-byte blocks side by side, one block per 64-bit
//! lane, so that a scalar algorithm over one block's masks (stage 1 of the
//! walk over a structural index, [`crate::network`]) runs over four
//! blocks with AVX2 or eight with AVX-512 when written once over
//! [`Lanes`]. `u64` is the one-lane scalar twin; the carries from one
//! block to the next that such an algorithm has become moves across lanes
//! ([`Lanes::up`], [`Lanes::xor_prefix`]).
//!
//! NEON would give two lanes (`uint64x2_t`, `vextq_u64` for [`Lanes::up`]).

use core::ops::{BitAnd, BitOr, BitXor, Not};

use super::Level;

/// Blocks' masks, one per lane, lane 0 the first block.
pub trait Lanes:
    Copy + BitAnd<Output = Self> + BitOr<Output = Self> + BitXor<Output = Self> + Not<Output = Self>
{
    /// Lanes per value.
    const COUNT: usize;
    /// The proof that this CPU runs the type's instructions: made only by
    /// [`run_lanes`], after it detected them.
    type Token: Copy;
    /// `x` in every lane.
    fn splat(token: Self::Token, x: u64) -> Self;
    /// `from[..COUNT]` (panics if shorter).
    fn load(token: Self::Token, from: &[u64]) -> Self;
    /// Into `to[..COUNT]` (panics if shorter).
    fn store(self, to: &mut [u64]);
    /// Each lane shifted left by `n` bits (below 64).
    fn shl(self, n: u32) -> Self;
    /// Each lane shifted right by `n` bits (below 64).
    fn shr(self, n: u32) -> Self;
    /// Each lane negated (two's complement: 1 becomes all ones).
    fn neg(self) -> Self;
    /// The lanes moved up by one: lane `i` is lane `i - 1`, lane 0 is
    /// `carry` (the last lane of the blocks before).
    fn up(self, carry: u64) -> Self;
    /// Lane `i` is the xor of lanes `0 ..= i`.
    fn xor_prefix(self) -> Self;
    /// The last lane.
    fn last(self) -> u64;
}

impl Lanes for u64 {
    const COUNT: usize = 1;
    type Token = ();

    #[inline(always)]
    fn splat((): (), x: u64) -> u64 {
        x
    }

    #[inline(always)]
    fn load((): (), from: &[u64]) -> u64 {
        from[0]
    }

    #[inline(always)]
    fn store(self, to: &mut [u64]) {
        to[0] = self;
    }

    #[inline(always)]
    fn shl(self, n: u32) -> u64 {
        self << n
    }

    #[inline(always)]
    fn shr(self, n: u32) -> u64 {
        self >> n
    }

    #[inline(always)]
    fn neg(self) -> u64 {
        self.wrapping_neg()
    }

    #[inline(always)]
    fn up(self, carry: u64) -> u64 {
        carry
    }

    #[inline(always)]
    fn xor_prefix(self) -> u64 {
        self
    }

    #[inline(always)]
    fn last(self) -> u64 {
        self
    }
}

/// Work written once over [`Lanes`], run by [`run_lanes`] with the widest
/// lanes a level has.
pub trait LaneTask {
    /// What the work gives.
    type Output;
    /// The work, with lanes of type `V`.
    fn run<V: Lanes>(self, token: V::Token) -> Self::Output;
}

/// Runs `task` with the widest lanes of `level` (capped at the CPU's):
/// eight with AVX-512, four with AVX2, one (`u64`) below. The task is
/// compiled for the level's target features (everything it calls must
/// be inlined for that: `#[inline(always)]`).
#[inline]
pub fn run_lanes<T: LaneTask>(level: Level, task: T) -> T::Output {
    #[cfg(target_arch = "x86_64")]
    {
        match level.min(Level::detected()) {
            // SAFETY: `Level::detected` found AVX-512 F and BW on this CPU
            // (CPUID and XCR0), the function's target features.
            Level::Avx512 | Level::Vbmi => return unsafe { super::x86_64::avx512::run_lanes(task) },
            // SAFETY: as above, for AVX2.
            Level::Avx2 => return unsafe { super::x86_64::avx2::run_lanes(task) },
            _ => {}
        }
    }
    let _ = level;
    task.run::<u64>(())
}
