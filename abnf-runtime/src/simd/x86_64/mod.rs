//! The x86-64 implementations, one file per instruction set, each function
//! compiled for its features with `#[target_feature]` and called only by
//! the dispatch in [`crate::simd`] once [`crate::simd::Level::detected`]
//! has found them.

pub(crate) mod avx2;
pub(crate) mod avx512;
pub(crate) mod ssse3;
pub(crate) mod vbmi;

use super::{HIGH, LEAD_HIGH};
