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
use crate::shapes::Shapes;

/// [`Shapes::shape_of`] and [`Shapes::fits`] at one level: the length's
/// shapes looked up and matched in one function of two arguments, the
/// level's kernel inlined (the kernel alone takes seven, one of them on
/// the stack).
macro_rules! shape_of_at {
    ($name:ident, $fits:ident, $features:literal, $kernel:path) => {
        /// [`Shapes::shape_of`] at one level.
        ///
        /// # Safety
        ///
        /// The CPU must have the level's features; `input` must hold at
        /// most [`crate::simd::SHAPE_LEN`] bytes.
        #[inline]
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn $name(sh: &Shapes<'_>, input: &[u8]) -> Option<usize> {
            let (a, ids) = sh.ids_of(input.len());
            if ids.is_empty() {
                return None;
            }
            // SAFETY: the caller's promises are the kernel's.
            unsafe { $kernel(&sh.nibbles, sh.rows, ids, input) }.map(|k| a + k)
        }

        /// [`Shapes::fits`] at one level.
        ///
        /// # Safety
        ///
        /// As above.
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn $fits(sh: &Shapes<'_>, input: &[u8]) -> bool {
            // SAFETY: the caller's promises.
            unsafe { $name(sh, input) }.is_some()
        }
    };
}

shape_of_at!(shape_of_ssse3, fits_ssse3, "ssse3", ssse3::match_shapes_ssse3);
shape_of_at!(shape_of_avx2, fits_avx2, "avx2", avx2::match_shapes_avx2);
shape_of_at!(
    shape_of_avx512,
    fits_avx512,
    "avx512f,avx512bw",
    avx512::match_shapes_avx512
);
