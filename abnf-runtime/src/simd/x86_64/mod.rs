//! The x86-64 implementations, one file per instruction set, each function
//! compiled for its features with `#[target_feature]` and called only by
//! the dispatch in [`crate::simd`] once [`crate::simd::Level::detected`]
//! has found them.

/// `&`, `|` and `^` of a [`crate::simd::Lanes`] type that wraps one
/// vector, from its instruction set's intrinsics. Every `unsafe` block
/// they expand to holds because a value of the type exists only where its
/// level's token was made, after detection (see each type).
macro_rules! lane_bitwise {
    ($t:ident, $and:ident, $or:ident, $xor:ident) => {
        impl core::ops::BitAnd for $t {
            type Output = $t;
            #[inline(always)]
            fn bitand(self, o: $t) -> $t {
                // SAFETY: see `lane_bitwise`.
                $t(unsafe { $and(self.0, o.0) })
            }
        }

        impl core::ops::BitOr for $t {
            type Output = $t;
            #[inline(always)]
            fn bitor(self, o: $t) -> $t {
                // SAFETY: see `lane_bitwise`.
                $t(unsafe { $or(self.0, o.0) })
            }
        }

        impl core::ops::BitXor for $t {
            type Output = $t;
            #[inline(always)]
            fn bitxor(self, o: $t) -> $t {
                // SAFETY: see `lane_bitwise`.
                $t(unsafe { $xor(self.0, o.0) })
            }
        }
    };
}

pub(crate) mod avx2;
pub(crate) mod avx512;
pub(crate) mod ssse3;
pub(crate) mod vbmi;

use super::{HIGH, LEAD_HIGH};
