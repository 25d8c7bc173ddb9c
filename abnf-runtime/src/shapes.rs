//! Short inputs as *shapes*: the runtime side of the generator's
//! `automata::shapes`, for recognizer tables and tagged DFAs alike.

use crate::simd::{self, AtomNibbles, Level, SHAPE_LEN};

/// An automaton's inputs of up to [`SHAPE_LEN`] bytes as *shapes* (the
/// generator's `automata::shapes`): the inputs of each length that it
/// accepts, as at most a few products of byte sets per position
/// (one for a UUID's 36 bytes, one or two for each length of an RFC 3339
/// timestamp). Each byte set is a union of *buckets*, the bits of a class
/// that two nibble lookups and an `and` give each byte, so an input is
/// checked at every position at once ([`simd::match_shapes`]) instead of
/// walked one dependent table load per byte. When a table has shapes, they
/// decide every input of up to [`SHAPE_LEN`] bytes; a tagged DFA's may
/// decide only the inputs shorter than some length (`decided`), its walk
/// the others.
#[derive(Clone, Copy, Debug)]
pub struct Shapes<'a> {
    /// Byte → its buckets (`rest` unused), as nibble lookups and as a
    /// table (`classes[b]` is `nibbles.class(b)`). (Only vectors read the
    /// nibbles: other CPUs take the scalar twin, which reads the table.)
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) nibbles: AtomNibbles,
    pub(crate) classes: &'a [u8; 256],
    /// The shapes of inputs of `n` bytes are `ids[first[n]..first[n + 1]]`.
    pub(crate) first: &'a [u8; SHAPE_LEN + 2],
    /// Per shape, its row.
    pub(crate) ids: &'a [u8],
    /// Rows of [`SHAPE_LEN`] bytes, the buckets allowed at each position;
    /// a shape of `n` bytes reads the first `n` of its row.
    pub(crate) rows: &'a [u8],
    /// The shapes decide the inputs shorter than this (at most
    /// [`SHAPE_LEN`] + 1).
    pub(crate) decided: usize,
    /// Whether every input that fits a shape is non-empty ASCII: no
    /// shape of no bytes, and no byte from 0x80 on fits any position of
    /// any shape.
    pub(crate) ascii: bool,
}

impl<'a> Shapes<'a> {
    /// The shapes at byte `at` of `rest` (the table after its class map,
    /// `at` a multiple of 64 bytes into the table): the low and high
    /// nibble tables, `first`, the length from which inputs are walked (0:
    /// none), padding to 128 bytes, the class of each
    /// byte, each shape's row, padding to a multiple of 64 bytes, then the
    /// rows. `None` if they do not fit, `first` does not rise or a row is
    /// missing.
    pub(crate) const fn decode(rest: &'a [u8], at: usize) -> Option<Shapes<'a>> {
        if rest.len() < at + 384 {
            return None;
        }
        let (head, more) = rest.split_at(at).1.split_at(384);
        let (low, head) = head.split_at(16);
        let (high, head) = head.split_at(16);
        let (first, classes) = head.split_at(96);
        let decided = match first[SHAPE_LEN + 2] as usize {
            0 => SHAPE_LEN + 1,
            n if n <= SHAPE_LEN => n,
            _ => return None,
        };
        let (Some(low), Some(high), Some(first), Some(classes)) = (
            low.first_chunk(),
            high.first_chunk(),
            first.first_chunk(),
            classes.first_chunk(),
        ) else {
            return None;
        };
        let first: &[u8; SHAPE_LEN + 2] = first;
        let mut n = 0;
        while n <= SHAPE_LEN {
            if first[n] > first[n + 1] {
                return None;
            }
            n += 1;
        }
        let count = first[SHAPE_LEN + 1] as usize;
        let rows_at = (384 + count).next_multiple_of(64) - 384;
        if more.len() < rows_at {
            return None;
        }
        let (ids, rows) = more.split_at(rows_at);
        let ids = ids.split_at(count).0;
        let mut used = 0;
        let mut k = 0;
        while k < count {
            if ids[k] as usize >= used {
                used = ids[k] as usize + 1;
            }
            k += 1;
        }
        if rows.len() < used * SHAPE_LEN {
            return None;
        }
        let rows = rows.split_at(used * SHAPE_LEN).0;
        Some(Shapes {
            nibbles: AtomNibbles {
                low: *low,
                high: *high,
                rest: 0,
            },
            classes,
            first,
            ids,
            rows,
            decided,
            ascii: Self::only_ascii(classes, first, ids, rows),
        })
    }

    /// Whether no shape has no bytes and no byte from 0x80 on fits a
    /// position of a shape: the buckets those bytes are in against every
    /// bucket that a shape of `n` bytes allows at its first `n` positions.
    const fn only_ascii(classes: &[u8; 256], first: &[u8; SHAPE_LEN + 2], ids: &[u8], rows: &[u8]) -> bool {
        if first[0] != first[1] {
            return false;
        }
        let mut high = 0;
        let mut b = 0x80;
        while b < 256 {
            high |= classes[b];
            b += 1;
        }
        let mut n = 0;
        while n <= SHAPE_LEN {
            let mut k = first[n] as usize;
            while k < first[n + 1] as usize {
                let row = ids[k] as usize * SHAPE_LEN;
                let mut i = 0;
                while i < n {
                    if rows[row + i] & high != 0 {
                        return false;
                    }
                    i += 1;
                }
                k += 1;
            }
            n += 1;
        }
        true
    }

    /// Whether all of `input` matches, checked against its length's
    /// shapes at `level` ([`simd::match_shapes_with`]); `None` for an
    /// input the shapes do not decide (longer than [`SHAPE_LEN`] bytes, or
    /// than `decided`), which the table must walk.
    #[inline(always)]
    pub fn full_match(&self, input: &[u8], level: Level) -> Option<bool> {
        self.decides(input.len())
            .then(|| self.shape_of(input, level).is_some())
    }

    /// Whether the shapes decide the inputs of `n` bytes: a shape fits
    /// each of them that matches.
    #[inline(always)]
    pub(crate) fn decides(&self, n: usize) -> bool {
        n <= SHAPE_LEN && n < self.decided
    }

    /// The index of the shape `input` (at most [`SHAPE_LEN`] bytes) fits,
    /// among all shapes (those of shorter inputs first), if any.
    #[inline(always)]
    pub(crate) fn shape_of(&self, input: &[u8], level: Level) -> Option<usize> {
        simd::shape_of(level.min(Level::detected()), self, input)
    }

    /// Whether `input`, an input the shapes decide ([`Shapes::decides`]),
    /// fits one, at the best level this CPU has: the level's choice in the
    /// caller's code, then one call of two arguments (what a UUID's or a
    /// timestamp's validation costs is mostly this call).
    #[inline(always)]
    pub(crate) fn fits(&self, input: &[u8]) -> bool {
        simd::fits(self, input)
    }

    /// The shapes of inputs of `n` bytes (at most [`SHAPE_LEN`]): the
    /// index of the first among all shapes, and their rows' ids (none
    /// when no input of this length matches or, past `decided`, the walk
    /// decides it).
    #[inline(always)]
    pub(crate) fn ids_of(&self, n: usize) -> (usize, &'a [u8]) {
        let a = usize::from(self.first[n]);
        (a, &self.ids[a..usize::from(self.first[n + 1])])
    }

    /// Where the section that starts at byte `at` ends (what a tagged
    /// DFA's shapes put after it).
    pub(crate) const fn end(&self, at: usize) -> usize {
        at + (384 + self.ids.len()).next_multiple_of(64) + self.rows.len()
    }

    /// Whether every input that fits a shape is non-empty ASCII (what
    /// lets a typed tree slice the fields of a shape's input with no
    /// char-boundary check and no look at its bytes).
    pub fn is_ascii(&self) -> bool {
        self.ascii
    }

    /// How many shapes there are, all lengths together.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether there are none (never, for a table that has shapes).
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}
