//! The window searches every vector level shares, written once over a
//! function that gives a 64-byte window's masks (as memchr's
//! `arch/generic` is): each level supplies the window's classification
//! (two nibble lookups and an `and`, with 16-, 32- or 64-byte vectors), the
//! search, the overlap of the last window and the resumption after an
//! escape are the same. A NEON level would supply its windows the same way.

use crate::simd::{outside_of, resume_after, Exits, LoopSet, Starts};

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

/// Bytes of the blocks [`NibbleExits`] classifies.
pub(super) const BLOCK: usize = 32;

/// A vector level's classification of 32-byte blocks by an
/// [`crate::simd::AtomNibbles`] (two 16-byte vectors with SSSE3, one with
/// AVX2; NEON would take two `vqtbl1q_u8` lookups per 16 bytes).
pub(super) trait Classify: Copy {
    /// A classified block: its bytes and their classes.
    type Block: Copy;

    /// Loads and classifies the 32 bytes at `p`.
    ///
    /// # Safety
    ///
    /// `p .. p + 32` must be readable, and the CPU must have the level's
    /// features (the implementations are made only after detection).
    unsafe fn classify(&self, p: *const u8) -> Self::Block;

    /// The positions of `block` whose class meets `test` (`!=` 0), or,
    /// with `invert`, does not (`==` 0).
    fn exits(block: &Self::Block, test: u8, invert: bool) -> u32;

    /// The positions of `block` whose byte is `a` or `b`.
    fn equal_block(block: &Self::Block, a: u8, b: u8) -> u32;

    /// The positions of the 32 bytes at `p` equal to `a` or `b`.
    ///
    /// # Safety
    ///
    /// As for [`Classify::classify`].
    unsafe fn equal(&self, p: *const u8, a: u8, b: u8) -> u32;
}

/// A [`Classify`] implementation's block.
pub(super) type Block<C> = <C as Classify>::Block;

/// [`Exits`] over 32-byte blocks classified by nibble lookups: the block
/// that holds the offset asked about is loaded and classified once (the
/// last block of an input of 32 bytes or more as the input's last 32
/// bytes, its masks shifted; an input under 32 bytes copied into a block
/// of zeros), and each question is then one `and`, one compare, one mask
/// and a trailing-zero count. Blocks start at multiples of 32.
pub(super) struct NibbleExits<'a, C: Classify> {
    pub(super) input: &'a [u8],
    pub(super) classify: C,
    /// [`crate::simd::AtomNibbles::rest`].
    pub(super) rest: u8,
    /// The block classified: its offset, its classes, how far its masks
    /// are shifted (the last block's vector starts before it), and which
    /// of its positions are in the input.
    pub(super) base: usize,
    pub(super) block: Block<C>,
    pub(super) shift: u32,
    pub(super) live: u32,
}

impl<C: Classify> NibbleExits<'_, C> {
    /// Loads and classifies the block at `base` (below the input's length).
    #[inline(always)]
    pub(super) fn load(&mut self, base: usize) {
        let len = self.input.len();
        let n = len - base;
        let ptr = self.input.as_ptr();
        // SAFETY (all three): `classify` reads 32 bytes from the pointer:
        // `input[base .. base + 32]`, `input[len - 32 ..]`, or the local
        // copy; the CPU has the features (`C` is made only after detection).
        if n >= BLOCK {
            self.block = unsafe { self.classify.classify(ptr.add(base)) };
            self.shift = 0;
            self.live = !0;
        } else if len >= BLOCK {
            self.block = unsafe { self.classify.classify(ptr.add(len - BLOCK)) };
            self.shift = (BLOCK - n) as u32;
            self.live = (1u32 << n) - 1;
        } else {
            let mut copy = [0u8; BLOCK];
            copy[..n].copy_from_slice(&self.input[base..]);
            self.block = unsafe { self.classify.classify(copy.as_ptr()) };
            self.shift = 0;
            self.live = (1u32 << n) - 1;
        }
        self.base = base;
    }

    /// The offset of the block that holds `from` (below the input's
    /// length), loaded and classified if it is not the current one.
    #[inline(always)]
    fn block_of(&mut self, from: usize) -> usize {
        let base = from & !(BLOCK - 1);
        if base != self.base {
            self.load(base);
        }
        base
    }

    /// The positions of the classified block that are exits of `bits`.
    #[inline(always)]
    fn hits(&self, bits: u8) -> u32 {
        let m = if bits & self.rest != 0 {
            C::exits(&self.block, !bits, true)
        } else {
            C::exits(&self.block, bits, false)
        };
        (m >> self.shift) & self.live
    }
}

impl<C: Classify> Exits for NibbleExits<'_, C> {
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
            base += BLOCK;
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
        let here = self.hits_equal(a, b) >> (from - base);
        if here != 0 {
            return from + here.trailing_zeros() as usize;
        }
        // Whole blocks without classifying them; the block with the byte
        // (or the last one) is loaded as usual.
        base += BLOCK;
        while base + BLOCK <= len {
            // SAFETY: `input[base .. base + 32]` is in bounds; the CPU has
            // the features.
            let m = unsafe { self.classify.equal(self.input.as_ptr().add(base), a, b) };
            if m != 0 {
                self.load(base);
                return base + m.trailing_zeros() as usize;
            }
            base += BLOCK;
        }
        if base >= len {
            return len;
        }
        self.load(base);
        let m = self.hits_equal(a, b);
        if m != 0 {
            base + m.trailing_zeros() as usize
        } else {
            len
        }
    }
}

impl<C: Classify> NibbleExits<'_, C> {
    /// The positions of the classified block equal to `a` or `b`.
    #[inline(always)]
    fn hits_equal(&self, a: u8, b: u8) -> u32 {
        (C::equal_block(&self.block, a, b) >> self.shift) & self.live
    }
}

/// [`Exits`] over an input of at most 64 bytes, classified once as two
/// blocks: its first 32 bytes and its last 32 (overlapping), or, under 32
/// bytes, a copy padded with zeros. Each question is a 64-bit mask of the
/// whole input and a trailing-zero count, with no branch on which block
/// holds the offset or on the input's length (branches that inputs of
/// mixed lengths mispredict; [`NibbleExits`] is for longer inputs).
pub(super) struct ShortExits<C: Classify> {
    len: usize,
    /// [`crate::simd::AtomNibbles::rest`].
    rest: u8,
    first: Block<C>,
    last: Block<C>,
    /// How far the last block's masks are shifted up (`len - 32`; 0 for
    /// an input under 32 bytes, whose `last` is its `first`).
    shift: u32,
    /// The positions in the input.
    live: u64,
}

impl<C: Classify> ShortExits<C> {
    /// The exits of `input`, at most 64 bytes.
    #[inline(always)]
    pub(super) fn new(classify: &C, rest: u8, input: &[u8]) -> ShortExits<C> {
        let len = input.len();
        debug_assert!(len <= 2 * BLOCK);
        let live = if len >= 64 { !0 } else { (1u64 << len) - 1 };
        if len >= BLOCK {
            // SAFETY: `input[..32]` and `input[len - 32..]` are in bounds;
            // the CPU has the features (`C` is made only after detection).
            let (first, last) = unsafe {
                (
                    classify.classify(input.as_ptr()),
                    classify.classify(input.as_ptr().add(len - BLOCK)),
                )
            };
            ShortExits {
                len,
                rest,
                first,
                last,
                shift: (len - BLOCK) as u32,
                live,
            }
        } else {
            let mut copy = [0u8; BLOCK];
            copy[..len].copy_from_slice(input);
            // SAFETY: `copy` is 32 bytes; the CPU has the features.
            let first = unsafe { classify.classify(copy.as_ptr()) };
            ShortExits {
                len,
                rest,
                first,
                last: first,
                shift: 0,
                live,
            }
        }
    }

    /// The first position `>= from` of `mask` (one bit per position of
    /// the input), or the input's length.
    #[inline(always)]
    fn first_from(&self, mask: u64, from: usize) -> usize {
        let m = (mask & self.live).checked_shr(from as u32).unwrap_or(0);
        (from + m.trailing_zeros() as usize).min(self.len)
    }

    /// Two blocks' masks as one mask of the input.
    #[inline(always)]
    fn join(&self, first: u32, last: u32) -> u64 {
        u64::from(first) | u64::from(last) << self.shift
    }
}

impl<C: Classify> Exits for ShortExits<C> {
    #[inline(always)]
    fn next_exit(&mut self, from: usize, bits: u8) -> usize {
        let (test, invert) = if bits & self.rest != 0 {
            (!bits, true)
        } else {
            (bits, false)
        };
        let m = self.join(
            C::exits(&self.first, test, invert),
            C::exits(&self.last, test, invert),
        );
        self.first_from(m, from)
    }

    #[inline(always)]
    fn next_byte(&mut self, from: usize, a: u8, b: u8) -> usize {
        let m = self.join(
            C::equal_block(&self.first, a, b),
            C::equal_block(&self.last, a, b),
        );
        self.first_from(m, from)
    }
}

/// [`crate::simd::match_shapes`] over windows of `W` bytes at `0`, `W`,
/// `2W`, ..., the last at `input.len() - W` (overlapping the one before;
/// the input has at least `W` bytes), for each shape `ids` names in `rows`:
/// `miss(p, m)` says whether some byte of the window at `p` has no bucket
/// of the masks at `m`.
#[inline(always)]
pub(super) fn match_shapes_in<const W: usize>(
    rows: &[u8],
    ids: &[u8],
    input: &[u8],
    miss: impl Fn(*const u8, *const u8) -> bool,
) -> Option<usize> {
    use crate::simd::SHAPE_LEN;
    let last = input.len() - W;
    ids.iter().position(|&id| {
        let masks = &rows[usize::from(id) * SHAPE_LEN..][..SHAPE_LEN];
        let mut o = 0;
        loop {
            let at = o.min(last);
            if miss(input[at..at + W].as_ptr(), masks[at..at + W].as_ptr()) {
                return false;
            }
            if at == last {
                return true;
            }
            o += W;
        }
    })
}
