//! The window searches every vector level shares, written once over a
//! function that gives a 64-byte window's masks (as memchr's
//! `arch/generic` is): each level supplies the window's classification
//! (two nibble lookups and an `and`, with 16-, 32- or 64-byte vectors), the
//! search, the overlap of the last window and the resumption after an
//! escape are the same. A NEON level would supply its windows the same way.

use crate::simd::{outside_of, resume_after, LoopSet, Starts};

/// The search over the 64-byte windows of `input` (at least 64 bytes),
/// the last one overlapping the one before; `hits` gives a window's
/// matches.
#[inline(always)]
pub(super) fn find_byte_in(input: &[u8], hits: impl Fn(*const u8) -> u64) -> Option<usize> {
    let n = input.len();
    let mut i = 0;
    while i + 64 <= n {
        let m = hits(input[i..i + 64].as_ptr());
        if m != 0 {
            return Some(i + m.trailing_zeros() as usize);
        }
        i += 64;
    }
    if i < n {
        // The last 64 bytes; those before `i` had no match.
        let m = hits(input[n - 64..].as_ptr());
        if m != 0 {
            return Some(n - 64 + m.trailing_zeros() as usize);
        }
    }
    None
}

/// The search over 64-byte windows, whatever computes a window's masks
/// (`inside`: bytes in the set; `starts`: escapes starting there, only
/// computed for a window with bytes outside the set): whole windows
/// read from `input`; then the last 64 bytes of the input, with the
/// bits of what was already read shifted out; an input shorter than 64
/// bytes is copied into a window padded with 0xFF (never in a set,
/// never in an escape, which are ASCII, and neither a lead byte of a
/// set nor a continuation byte).
#[inline(always)]
pub(super) fn find(
    set: &LoopSet,
    input: &[u8],
    from: usize,
    inside: impl Fn(*const u8) -> u64,
    starts: impl Fn(*const u8) -> Starts,
) -> usize {
    let sequences = !set.escaped.is_empty() || !set.leads.is_empty();
    let n = input.len();
    let mut tail;
    let mut i = from;
    while i < n {
        // The window and how far its bit 0 is before `i`.
        let (p, shift) = if i + 64 <= n {
            // `input[i .. i + 64]` exists.
            (input[i..i + 64].as_ptr(), 0)
        } else if n >= 64 {
            // Bytes `n - 64 + k`, shifted so that bit 0 is byte `i`
            // (escapes that start before `i` are dropped before they
            // are widened); the bits past the end are 0: outside.
            (input[n - 64..].as_ptr(), i - (n - 64))
        } else {
            tail = [0xFFu8; 64];
            tail[..n - i].copy_from_slice(&input[i..]);
            (tail.as_ptr(), 0)
        };
        let inside = inside(p) >> shift;
        if inside == !0 {
            i += 64;
            continue;
        }
        let starts = if sequences {
            starts(p).shr(shift)
        } else {
            Starts::NONE
        };
        let m = outside_of(inside, starts);
        if m == 0 {
            i += 64;
            continue;
        }
        let p = i + m.trailing_zeros() as usize;
        if p >= n {
            return n;
        }
        match resume_after(set, input, p) {
            Some(next) => i = next,
            None => return p,
        }
    }
    n
}
