//! Exit plans: what a tagged DFA needs to be walked from exit to exit
//! instead of byte by byte.
//!
//! In a splitting grammar (RFC 3986 Appendix B) almost every state loops on
//! most bytes without touching a register: a path loops on everything but
//! `?` and `#`. Such a run changes nothing but the position, so a walk may
//! jump over it to the state's next *exit* (a byte on which it does
//! something else) and take a step there. The generator emits that walk as
//! code ([`crate::emit`]), one block per state; the runtime finds exits
//! with `abnf_runtime::simd::Exits`, which classifies a 64-byte block once
//! and then answers each state with one vector test and a trailing-zero
//! count.
//!
//! The classification maps every byte to *atom bits*: bytes that every
//! state treats alike (an exit of the same states) share an atom, and each
//! atom is one bit of a byte, so a state's exits are the bytes whose atom
//! bits meet the state's mask. One byte of bits holds eight atoms; an
//! automaton that needs more gets no plan and keeps its table walk.

use super::TaggedDfa;

/// Atoms a plan may use: one bit each in a byte.
pub const MAX_ATOMS: usize = 8;

/// An exit plan's atoms as two nibble lookups and an `and`
/// (`abnf_runtime::simd::AtomNibbles`): byte `b`'s class is
/// `low[b & 15] & high[b >> 4]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nibbles {
    /// Per low nibble, the bits of the atoms that have it.
    pub low: [u8; 16],
    /// Per high nibble, likewise.
    pub high: [u8; 16],
    /// The one atom that is not a rectangle of nibbles, whose bytes have
    /// class 0 (0 if every atom is one).
    pub rest: u8,
}

/// The most states a planned walk may have: each is a block of generated
/// code, and one bit of a byte's 64-bit signature (the states it is an
/// exit of).
pub const MAX_STATES: usize = 64;

/// How a tagged DFA is walked exit to exit ([`TaggedDfa::exit_plan`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExitPlan {
    /// Byte → its atom's bit.
    pub atoms: [u8; 256],
    /// Per state, the atom bits of its exits: the bytes on which it does
    /// not loop without effect (0 for a state that loops on every byte;
    /// the dead state's entry is unused).
    pub exits: Vec<u8>,
}

impl ExitPlan {
    /// Whether state `q` loops on no byte, so that every byte is an exit
    /// and the walk steps it byte by byte.
    pub fn steps_every_byte(&self, q: usize) -> bool {
        (0..=255u8).all(|b| self.atoms[usize::from(b)] & self.exits[q] != 0)
    }

    /// The atoms as nibble lookups, if every atom but at most one is a
    /// *rectangle* (every byte `h << 4 | l` with `h` in one set of high
    /// nibbles and `l` in one set of low nibbles, as a single byte or `0-9`
    /// is): what the runtime's 16- and 32-byte vector levels classify
    /// blocks with (two `pshufb` and an `and`, simdjson's character
    /// classes), where only VBMI has the 256-byte lookup that takes any
    /// atoms. The atom that is not a rectangle (a splitter's "every other
    /// byte") becomes `rest`, whose bytes classify as 0; the runtime asks
    /// for it by complement. A plan with two such atoms gets none, and its
    /// walk runs the scalar search below VBMI.
    pub fn nibbles(&self) -> Option<Nibbles> {
        let mut n = Nibbles {
            low: [0; 16],
            high: [0; 16],
            rest: 0,
        };
        for k in 0..MAX_ATOMS {
            let bit = 1u8 << k;
            let (mut lows, mut highs, mut count) = (0u16, 0u16, 0u32);
            for b in 0..=255u8 {
                if self.atoms[usize::from(b)] == bit {
                    lows |= 1 << (b & 15);
                    highs |= 1 << (b >> 4);
                    count += 1;
                }
            }
            if count == 0 {
                continue;
            }
            if count != lows.count_ones() * highs.count_ones() {
                if n.rest != 0 {
                    return None;
                }
                n.rest = bit;
                continue;
            }
            for x in 0..16 {
                if lows >> x & 1 == 1 {
                    n.low[x] |= bit;
                }
                if highs >> x & 1 == 1 {
                    n.high[x] |= bit;
                }
            }
        }
        // The rectangles are the atoms exactly (atoms are disjoint, so no
        // byte is in two), and every other byte classifies as 0.
        let exact = (0..=255u8).all(|b| {
            let class = n.low[usize::from(b & 15)] & n.high[usize::from(b >> 4)];
            let a = self.atoms[usize::from(b)];
            class == if a == n.rest { 0 } else { a }
        });
        exact.then_some(n)
    }

    /// The bytes of each atom bit, as ranges: `(first, last, bit)`.
    pub fn atom_ranges(&self) -> Vec<(u8, u8, u8)> {
        let mut out: Vec<(u8, u8, u8)> = Vec::new();
        for b in 0..=255u8 {
            let bit = self.atoms[usize::from(b)];
            match out.last_mut() {
                Some((_, last, x)) if *x == bit && *last + 1 == b => *last = b,
                _ => out.push((b, b, bit)),
            }
        }
        out
    }
}

impl TaggedDfa {
    /// Whether state `q` moves to itself on `b` without touching a register.
    pub(super) fn loops_on(&self, q: usize, b: u8) -> bool {
        let t = q * self.alphabet + usize::from(self.classes[usize::from(b)]);
        self.next[t] as usize == q && self.op_lists[self.ops[t] as usize].is_empty()
    }

    /// The exit plan of this DFA, if it has one: at most [`MAX_STATES`]
    /// states, at most [`MAX_ATOMS`] atoms, and some state that loops on
    /// something (else there is nothing to skip).
    pub fn exit_plan(&self) -> Option<ExitPlan> {
        let n = self.states();
        if n > MAX_STATES {
            return None;
        }
        // Each byte's signature: the states it is an exit of (dead state
        // left out), as a bit set.
        let signature = |b: u8| -> u64 {
            (1..n)
                .filter(|&q| !self.loops_on(q, b))
                .fold(0, |acc, q| acc | 1 << q)
        };
        let signatures: Vec<u64> = (0..=255u8).map(signature).collect();
        let mut distinct: Vec<u64> = signatures.clone();
        distinct.sort_unstable();
        distinct.dedup();
        if distinct.len() > MAX_ATOMS {
            return None;
        }
        let all = (1..n).fold(0u64, |acc, q| acc | 1 << q);
        if distinct == [all] {
            return None;
        }
        let bit_of = |sig: u64| 1u8 << distinct.binary_search(&sig).unwrap_or(0);
        let atoms: [u8; 256] = core::array::from_fn(|b| bit_of(signatures[b]));
        let exits = (0..n)
            .map(|q| {
                distinct
                    .iter()
                    .enumerate()
                    .filter(|&(_, sig)| q != 0 && sig & 1 << q != 0)
                    .fold(0u8, |acc, (k, _)| acc | 1 << k)
            })
            .collect();
        Some(ExitPlan { atoms, exits })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;

    fn plan(pattern: &str) -> (TaggedDfa, Option<ExitPlan>) {
        let hir = regex_syntax::parse(pattern).unwrap();
        let d = super::super::from_hir(&hir, Limits::default(), true).unwrap();
        let p = d.exit_plan();
        (d, p)
    }

    #[test]
    fn a_byte_is_an_exit_exactly_where_the_state_does_something_else() {
        let (d, p) = plan(
            r"(?s)(?:([^:/?#]+):)?(?://(?:([^/?#@]*)@)?(\[[^/?#\]]*\]|[^:/?#@]*)(?::([0-9]*))?)?([^?#]*)(?:\?([^#]*))?(?:#(.*))?",
        );
        let p = p.expect("Appendix B has a plan");
        for q in 1..d.states() {
            for b in 0..=255u8 {
                let exit = p.atoms[usize::from(b)] & p.exits[q] != 0;
                assert_eq!(exit, !d.loops_on(q, b), "state {q}, byte {b:#x}");
            }
        }
        // Every atom is one bit, and the ranges cover every byte once.
        assert!(p.atoms.iter().all(|a| a.count_ones() == 1));
        let ranges = p.atom_ranges();
        assert_eq!(ranges.first().map(|r| r.0), Some(0));
        assert_eq!(ranges.last().map(|r| r.1), Some(255));
        assert!(ranges
            .windows(2)
            .all(|w| w[0].1 + 1 == w[1].0 && w[0].2 != w[1].2));
    }

    #[test]
    fn nibbles_classify_every_byte_as_the_atoms_do() {
        // Appendix B: single bytes, `0-9` and everything else (`rest`).
        let (_, p) = plan(
            r"(?s)(?:([^:/?#]+):)?(?://(?:([^/?#@]*)@)?(\[[^/?#\]]*\]|[^:/?#@]*)(?::([0-9]*))?)?([^?#]*)(?:\?([^#]*))?(?:#(.*))?",
        );
        let p = p.expect("Appendix B has a plan");
        let n = p.nibbles().expect("Appendix B's atoms are rectangles but one");
        assert_ne!(n.rest, 0);
        for b in 0..=255u8 {
            let a = p.atoms[usize::from(b)];
            let class = n.low[usize::from(b & 15)] & n.high[usize::from(b >> 4)];
            assert_eq!(class, if a == n.rest { 0 } else { a }, "byte {b:#x}");
        }
        // Atoms that are not rectangles (`a` or `z`, `b` or `y`): none.
        let (_, p) = plan("([^azby]*)[az]([^by]*)[by](.*)");
        let p = p.expect("a plan");
        assert_eq!(p.nibbles(), None);
    }

    #[test]
    fn no_plan_without_loops_or_with_too_many_atoms() {
        // Nothing loops: every byte is an exit of every state.
        assert_eq!(plan("(ab)(cd)").1, None);
        // Nine states that each exit on one more letter: nine atoms.
        assert_eq!(
            plan("([^a]*)a([^b]*)b([^c]*)c([^d]*)d([^e]*)e([^f]*)f([^g]*)g([^h]*)h([^i]*)i").1,
            None
        );
        // Two loops are fine.
        let (_, p) = plan("([^:]*):(.*)");
        assert!(p.is_some());
    }
}
