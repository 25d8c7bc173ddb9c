//! Which states of a [`Compact`] DFA the runtime can skip through
//! bit-parallel, and the byte sets it needs for that.
//!
//! A state that loops to itself on many bytes (a path segment, a query, a
//! fragment, a `data:` payload) reads long runs of input without changing.
//! The runtime does not step through such a run one table lookup at a time:
//! it classifies a block of 16 or 32 bytes at once against the state's loop
//! set (two nibble lookups, see [`NibbleTable`]) and jumps to the first
//! byte outside it with one trailing-zero count. Only that byte takes a
//! table step.
//!
//! The generator decides, per state, from the automaton alone:
//! - a state is *accelerated* when it loops to itself on at least
//!   [`MIN_LOOP_BYTES`] ASCII bytes; the others are walked as before (IP
//!   literals, `%` escapes, the bytes inside a UTF-8 sequence);
//! - its set holds only bytes on which it loops (ASCII ones: a nibble table
//!   has no room for more), so skipping them never changes the state and a
//!   byte outside the set is simply stepped: the walk ends in the same
//!   state, and stops at the same byte, as the plain table walk.
//!
//! - a state may also have an *escape*: a byte `x` outside its loop and a
//!   set `H` of ASCII bytes such that `x h1 h2` leads back to the state for
//!   every `h1`, `h2` in `H` (`"%" HEXDIG HEXDIG` in every URI component,
//!   found here from the transitions, not from the grammar's text). The
//!   runtime skips whole escapes too; any other `x` takes table steps.
//!
//! - and a state may loop on whole UTF-8 characters: the lead bytes `l`
//!   of two- and three-byte sequences such that every `l c` (or `l c1
//!   c2`) with continuation bytes `c` leads back to the state ([`utf8_leads`];
//!   for `ucschar`, `C3`-`DF` and `E1`-`EC`). The runtime skips such a
//!   character after checking its continuation bytes only, so that the
//!   non-ASCII text of an IRI stays inside the run.
//!
//! [`accelerate`] renumbers the accelerated states last, so that the
//! runtime tells them apart from the others with one comparison of the
//! (premultiplied) state number.

use super::Compact;

/// A state is accelerated when it loops to itself on at least this many
/// ASCII bytes: then a run of its bytes is likely long enough for a vector
/// compare to beat one table step per byte. Every loop of the URI grammars'
/// components (scheme, userinfo, host name, path, query, fragment) has 60
/// or more; the small loops (hex digits of an IPv6 piece are bounded
/// repetitions, not loops) stay table walks.
pub const MIN_LOOP_BYTES: usize = 32;

/// A set of ASCII bytes as a nibble-pair bitmap: bit `h` of `self.0[l]`
/// is set when byte `h << 4 | l` is in the set (the runtime's
/// `simd::NibbleSet`). Bytes 0x80 and above are never in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NibbleTable(pub [u8; 16]);

impl NibbleTable {
    /// The ASCII bytes `b` for which `keep(b)` holds.
    pub fn from_fn(keep: impl Fn(u8) -> bool) -> NibbleTable {
        let mut t = [0u8; 16];
        for b in (0..0x80u8).filter(|&b| keep(b)) {
            t[usize::from(b & 15)] |= 1 << (b >> 4);
        }
        NibbleTable(t)
    }

    /// Whether `b` is in the set.
    pub fn contains(&self, b: u8) -> bool {
        b < 0x80 && self.0[usize::from(b & 15)] >> (b >> 4) & 1 == 1
    }

    /// How many bytes the set holds.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What an accelerated state loops on: single bytes, and escapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LoopSet {
    /// The ASCII bytes on which the state loops to itself.
    pub bytes: NibbleTable,
    /// The byte that opens an escape (meaningless when `escaped` is empty).
    pub escape: u8,
    /// The bytes `h` such that `escape h1 h2` loops, for any two of them;
    /// empty when the state has no escape.
    pub escaped: NibbleTable,
    /// The lead bytes of the UTF-8 characters on which the state loops
    /// whatever their continuation bytes ([`utf8_leads`]).
    pub leads: abnf_runtime::simd::Leads,
}

impl LoopSet {
    /// The same set as the runtime holds it (and writes it into tables).
    pub fn to_runtime(&self) -> abnf_runtime::simd::LoopSet {
        use abnf_runtime::simd::NibbleSet;
        abnf_runtime::simd::LoopSet {
            bytes: NibbleSet(self.bytes.0),
            escape: self.escape,
            escaped: NibbleSet(self.escaped.0),
            leads: self.leads,
        }
    }
}

/// The accelerated states of a [`Compact`] table renumbered by
/// [`accelerate`]: states `first / alphabet ..` in order, each with its
/// loop set.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Acceleration {
    /// The first accelerated state, premultiplied (the number of states,
    /// premultiplied, when there are none).
    pub first: u32,
    /// The loop set of each accelerated state, in state order.
    pub sets: Vec<LoopSet>,
}

impl Acceleration {
    /// Bytes the runtime embeds for it.
    pub fn bytes(&self) -> usize {
        abnf_runtime::simd::LOOP_SET_BYTES * self.sets.len()
    }
}

impl Compact {
    /// The ASCII bytes on which state `q` (not premultiplied) loops to
    /// itself.
    pub fn ascii_loop(&self, q: usize) -> NibbleTable {
        let a = self.alphabet;
        NibbleTable::from_fn(|b| {
            self.trans[q * a + usize::from(self.classes[usize::from(b)])] as usize == q * a
        })
    }

    /// The escape of state `q` (not premultiplied), if it has one: the
    /// byte `x` and the set `H` of [`LoopSet`], with `H` as large as this
    /// finds it (the bytes on which `x`'s target moves on, less those after
    /// which some byte of `H` does not return to `q`) and at least 2
    /// bytes. `x` and `H` are ASCII and `x` is not in `H`; of several
    /// candidates, the one with the largest `H`.
    pub fn escape(&self, q: usize) -> Option<(u8, NibbleTable)> {
        let a = self.alphabet;
        let next = |s: usize, b: u8| self.trans[s + usize::from(self.classes[usize::from(b)])] as usize;
        let (s, loops) = (q * a, self.ascii_loop(q));
        let mut best: Option<(u8, NibbleTable)> = None;
        for x in (0..0x80u8).filter(|&x| !loops.contains(x)) {
            let s1 = next(s, x);
            if s1 == 0 {
                continue;
            }
            let moves: Vec<u8> = (0..0x80u8).filter(|&h| h != x && next(s1, h) != 0).collect();
            let mut h: Vec<u8> = moves.clone();
            // Keep `h1` while every kept `h2` after it returns to `q`.
            loop {
                let keep: Vec<u8> = h
                    .iter()
                    .copied()
                    .filter(|&h1| h.iter().all(|&h2| next(next(s1, h1), h2) == s))
                    .collect();
                if keep.len() == h.len() {
                    break;
                }
                h = keep;
            }
            let set = NibbleTable::from_fn(|b| h.contains(&b));
            if set.len() >= 2 && best.is_none_or(|(_, b)| b.len() < set.len()) {
                best = Some((x, set));
            }
        }
        best
    }
}

/// The lead bytes `l` (`C1`-`EF`, low nibble not 0: see the runtime's
/// `simd::Leads`) such that from state `q` every UTF-8 sequence `l c`, or
/// `l c1 c2` for a lead of a three-byte sequence, with continuation bytes
/// `c` in `80`-`BF` leads back to `q`; `next(s, b)` is the state after `b`
/// from `s`, `None` for the dead state (or a transition that must not be
/// skipped). Leads whose sequences are not all valid (`E0`, `ED`, `C0`,
/// `C1`) or not all in the loop (`C2` for `ucschar`, which starts at
/// U+00A0) are left out, so the runtime checks only that continuation bytes
/// follow. Four-byte sequences are left to table steps.
pub fn utf8_leads(q: usize, next: impl Fn(usize, u8) -> Option<usize>) -> abnf_runtime::simd::Leads {
    let cont = || 0x80..=0xBFu8;
    let loops = |l: u8| {
        let Some(s1) = next(q, l) else { return false };
        if l < 0xE0 {
            cont().all(|c| next(s1, c) == Some(q))
        } else {
            cont().all(|c| next(s1, c).is_some_and(|s2| cont().all(|d| next(s2, d) == Some(q))))
        }
    };
    let leads: Vec<u8> = (0xC1..0xF0u8).filter(|&l| l & 15 != 0 && loops(l)).collect();
    abnf_runtime::simd::Leads::of(&leads)
}

/// Renumbers `c`'s states so that the accelerated ones come last, with
/// their loop sets in [`Compact::skip`]. The dead state stays 0, the others
/// keep their relative order; the language, the classes and the accepting
/// states are unchanged.
pub fn accelerate(c: &Compact) -> Compact {
    let (n, a) = (c.states(), c.alphabet);
    let loops: Vec<NibbleTable> = (0..n).map(|q| c.ascii_loop(q)).collect();
    let fast = |q: usize| q != 0 && loops[q].len() >= MIN_LOOP_BYTES;
    let order: Vec<usize> = (0..n)
        .filter(|&q| !fast(q))
        .chain((0..n).filter(|&q| fast(q)))
        .collect();
    let mut new_of = vec![0usize; n];
    for (new, &old) in order.iter().enumerate() {
        new_of[old] = new;
    }
    let mut trans = vec![0u32; n * a];
    for (new, &old) in order.iter().enumerate() {
        for k in 0..a {
            let t = c.trans[old * a + k] as usize / a;
            trans[new * a + k] = (new_of[t] * a) as u32;
        }
    }
    let plain = order.iter().filter(|&&q| !fast(q)).count();
    let skip = Acceleration {
        first: (plain * a) as u32,
        sets: order[plain..]
            .iter()
            .map(|&q| {
                let (escape, escaped) = c.escape(q).unwrap_or((0, NibbleTable([0; 16])));
                let next = |s: usize, b: u8| {
                    let t = c.trans[s * a + usize::from(c.classes[usize::from(b)])] as usize / a;
                    (t != 0).then_some(t)
                };
                LoopSet {
                    bytes: loops[q],
                    escape,
                    escaped,
                    leads: utf8_leads(q, next),
                }
            })
            .collect(),
    };
    Compact {
        classes: c.classes,
        alphabet: a,
        trans,
        accept: order.iter().map(|&q| c.accept[q]).collect(),
        start: (new_of[c.start as usize / a] * a) as u32,
        skip,
        shuffle: None,
        shapes: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::automata::{Automaton, Limits};

    fn compact(pattern: &str) -> Compact {
        let hir = regex_syntax::parse(pattern).unwrap();
        Automaton::build(&hir, Limits::default()).unwrap().compact()
    }

    #[test]
    fn nibble_table_holds_its_ascii_bytes() {
        let t = NibbleTable::from_fn(|b| b.is_ascii_alphanumeric() || b == b'~');
        for b in 0..=255u8 {
            assert_eq!(t.contains(b), b.is_ascii_alphanumeric() || b == b'~');
        }
        assert_eq!(t.len(), 63);
    }

    #[test]
    fn loops_are_found_and_renumbered_last() {
        // The path and query loops qualify; the three-digit port does not.
        let c = compact(r"[a-z]+:(?:[0-9]{1,3})?/[a-zA-Z0-9/._~-]*(?:\?[a-zA-Z0-9/?=&._~-]*)?");
        let r = accelerate(&c);
        let acc = &r.skip;
        assert_eq!(r.states(), c.states());
        assert_eq!(acc.sets.len(), 2, "{acc:?}");
        assert_eq!(acc.first as usize, (r.states() - 2) * r.alphabet);
        assert!(acc
            .sets
            .iter()
            .all(|s| s.bytes.contains(b'/') && !s.bytes.contains(b'#')));
        for (k, set) in acc.sets.iter().enumerate() {
            assert_eq!(set.bytes, r.ascii_loop(acc.first as usize / r.alphabet + k));
            assert!(set.escaped.is_empty());
        }
    }

    #[test]
    fn utf8_leads_are_those_whose_every_character_loops() {
        // `ucschar`'s first range: U+00A0 on, so `C2` (U+0080-U+00BF) is
        // out; `E0` and `ED` have restricted continuations; `EE` and `EF`
        // start characters past U+D7FF.
        let r = accelerate(&compact(r"x[a-zA-Z\u{A0}-\u{D7FF}]*"));
        let [set] = &r.skip.sets[..] else {
            panic!("{:?}", r.skip)
        };
        for l in 0xC0..=0xFFu8 {
            let want = matches!(l, 0xC3..=0xDF | 0xE1..=0xEC) && l & 15 != 0;
            assert_eq!(set.leads.contains(l), want, "{l:#x}");
        }
    }

    #[test]
    fn accelerated_walk_equals_the_table_walk() {
        let pattern = r"(?:[a-z]+:)?(?://[a-z0-9.]*(?::[0-9]{0,5})?)?(?:/(?:[a-zA-Z0-9._~-]|%[0-9a-fA-F]{2})*)*(?:\?[^# ]*)?(?:#.*)?";
        let c = compact(pattern);
        let r = accelerate(&c);
        let acc = &r.skip;
        assert!(!acc.sets.is_empty());
        // The path's `%` escapes are found: `%` and the hex digits.
        // The same table without loop sets: walked one byte at a time.
        let plain = Compact {
            skip: Acceleration::default(),
            ..r.clone()
        }
        .wire();
        let fast = r.wire();
        assert_eq!(fast.table().skip_states(), acc.sets.len());
        let hex = NibbleTable::from_fn(|b| b.is_ascii_hexdigit());
        assert!(
            acc.sets.iter().any(|s| s.escape == b'%' && s.escaped == hex),
            "{acc:?}"
        );
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let pieces: [&[u8]; 14] = [
            b"http:",
            b"//",
            b"ex.org",
            b":80",
            b"/",
            b"abc",
            b"%2F",
            b"%g",
            b"%",
            b"?",
            b"q=1&",
            b"#",
            b" ",
            "é".as_bytes(),
        ];
        for _ in 0..20_000 {
            let mut s = Vec::new();
            for _ in 0..rnd() % 40 {
                s.extend_from_slice(pieces[(rnd() % pieces.len() as u64) as usize]);
            }
            if rnd() % 4 == 0 && !s.is_empty() {
                let k = (rnd() % s.len() as u64) as usize;
                s[k] = rnd() as u8;
            }
            let want = plain.table().full_match(&s);
            assert_eq!(
                fast.table().full_match(&s),
                want,
                "{:?}",
                String::from_utf8_lossy(&s)
            );
            for level in abnf_runtime::simd::Level::available() {
                assert_eq!(
                    fast.table().full_match_skipping(&s, level),
                    want,
                    "{level:?} on {:?}",
                    String::from_utf8_lossy(&s)
                );
            }
        }
    }
}
