//! The x86-64 implementations, one file per instruction set, each function
//! compiled for its features with `#[target_feature]` and called only by
//! the dispatch in [`crate::simd`] once [`crate::simd::Level::detected`]
//! has found them.

pub(crate) mod avx2;
pub(crate) mod avx512;
pub(crate) mod ssse3;
pub(crate) mod vbmi;

/// Bit `h` for high nibble `h < 8`: the second lookup's table. High
/// nibbles 8 to 15 (non-ASCII bytes) map to 0, so they are never in a
/// set.
const HIGH: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0];

/// The second lookup's table for lead bytes ([`crate::simd::Leads`]): bit
/// `h - 0xC` for high nibbles `C`, `D` and `E`.
const LEAD_HIGH: [u8; 16] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 0];
