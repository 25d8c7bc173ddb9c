//! A DFA's short inputs as *shapes*: for each input length `n` up to
//! [`MAX_LEN`], the inputs of `n` bytes that the DFA accepts, as a few
//! products of byte sets, one set per position.
//!
//! A DFA accepts an input along one path of states, and the inputs that
//! follow one path `s0 s1 .. sn` are exactly those whose byte `i` leads
//! `si` to `si+1`: a byte set per position. So when few paths of length
//! `n` reach an accepting state, the DFA's language of length `n` is the
//! union of that many products. A UUID has one path (its 36 positions are
//! hex digits or `-`), an RFC 3339 timestamp of a given length one or two
//! (a fraction, or an offset, or both). The runtime then checks an input
//! against its length's shapes with no step waiting on the one before: it
//! classifies every byte at once (two nibble lookups and an `and`, as
//! simdjson classifies characters) and compares each position's class with
//! the set the shape allows there.
//!
//! The byte sets become *buckets* of a classification: each is a union of
//! rectangles of nibbles (bytes `h << 4 | l` with `h` in one set of high
//! nibbles and `l` in one set of low ones), each rectangle one bit of the
//! class byte, at most 8. The generator keeps shapes only for DFAs where
//! every length up to [`MAX_LEN`] has at most [`MAX_PER_LENGTH`] paths and
//! the rectangles fit in 8 bits: then every input of up to [`MAX_LEN`]
//! bytes is decided by its shapes alone (no shape: no match). A tagged DFA
//! may keep *partial* shapes: those of the lengths before the first with
//! too many paths (a language tag's 2 to 6 bytes), its walk deciding the
//! longer inputs ([`Shapes::decided`]).

use super::Compact;

/// The longest input that shapes decide: one 64-byte vector (two of 32).
pub const MAX_LEN: usize = 64;

/// The most paths (shapes) one length may have.
pub const MAX_PER_LENGTH: usize = 4;

/// The most shapes in all.
pub const MAX_SHAPES: usize = 255;

/// The most states of a DFA whose shapes are looked for (shapes of up to
/// [`MAX_LEN`] bytes, [`MAX_PER_LENGTH`] per length, never need more; a
/// cap that keeps the search cheap on large automata).
const MAX_STATES: usize = 256;

/// The most states of a DFA whose partial shapes are looked for: the
/// search stops at the first length with too many paths, so a larger
/// automaton costs a few passes over its states per length.
const MAX_PARTIAL_STATES: usize = 4096;

/// A DFA's inputs of up to [`MAX_LEN`] bytes as products of byte sets per
/// position (see the module).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shapes {
    /// Per low nibble, the bucket bits of the rectangles that have it.
    pub low: [u8; 16],
    /// Per high nibble, likewise: byte `b`'s class is
    /// `low[b & 15] & high[b >> 4]`.
    pub high: [u8; 16],
    /// The shapes of inputs of `n` bytes are `rows[ids[k]]` for `k` in
    /// `first[n]..first[n + 1]`.
    pub first: [u8; MAX_LEN + 2],
    /// Per shape, its row.
    pub ids: Vec<u8>,
    /// Per position, the bucket bits allowed there; a shape of `n` bytes
    /// reads the first `n` of its row, so that shapes that are prefixes of
    /// one another (`1*ALPHA` of every length) share one.
    pub rows: Vec<[u8; MAX_LEN]>,
    /// An input of each shape (in the order of `ids`), for what reads the
    /// shapes further (a tagged DFA's tags for each); not in the table.
    pub samples: Vec<Vec<u8>>,
    /// The shapes decide the inputs shorter than this ([`MAX_LEN`] + 1:
    /// all of up to [`MAX_LEN`] bytes); longer ones are walked. Below
    /// `MAX_LEN + 1` only where [`Graph::partial`] allowed it.
    pub decided: usize,
}

/// A DFA as [`Shapes::search`] reads it.
pub struct Graph<'a> {
    /// Number of states (state 0 is dead).
    pub states: usize,
    /// Number of byte classes.
    pub alphabet: usize,
    /// The start state.
    pub start: usize,
    /// Byte → class.
    pub classes: &'a [u8; 256],
    /// Class `x` read in state `s`: the next state (0: none) and a label
    /// that the inputs of one shape must share (a tagged DFA's operations,
    /// so that every input of a shape gets the same tags; 0 for a DFA
    /// without them).
    pub edge: &'a dyn Fn(usize, usize) -> (usize, u32),
    /// Whether the input may end in state `s`.
    pub accepts: &'a dyn Fn(usize) -> bool,
    /// Whether the shapes may stop at the first length with too many
    /// paths and decide only the shorter inputs (a tagged DFA: its walk
    /// takes the rest; a language tag's 2 to 6 bytes, most of them, have
    /// a few shapes each, its longer forms too many).
    pub partial: bool,
}

/// The root of [`Shapes::search`]'s tree of paths (the empty path).
const NO_NODE: usize = usize::MAX;

/// The class sets of the path of `len` steps that ends at `node` of
/// `nodes` (each node its last step's set and the node before), first
/// step first.
fn path_sets(nodes: &[(usize, Vec<bool>)], mut node: usize, len: usize) -> Vec<Vec<bool>> {
    let mut sets = Vec::with_capacity(len);
    while node != NO_NODE {
        let (before, set) = &nodes[node];
        sets.push(set.clone());
        node = *before;
    }
    sets.reverse();
    sets
}

impl Shapes {
    /// The shapes of `c`, if every input length up to [`MAX_LEN`] has at
    /// most [`MAX_PER_LENGTH`] accepting paths and their byte sets are
    /// at most 8 rectangles of nibbles.
    pub fn of(c: &Compact) -> Option<Shapes> {
        let a = c.alphabet;
        Shapes::search(&Graph {
            states: c.states(),
            alphabet: a,
            start: c.start as usize / a,
            classes: &c.classes,
            edge: &|s, x| (c.trans[s * a + x] as usize / a, 0),
            accepts: &|s| c.accept[s],
            partial: false,
        })
    }

    /// The shapes of the DFA `g`, as [`Shapes::of`] says; a path is a
    /// sequence of states and labels.
    pub fn search(g: &Graph<'_>) -> Option<Shapes> {
        let (states, a, start) = (g.states, g.alphabet, g.start);
        if start == 0 || states > if g.partial { MAX_PARTIAL_STATES } else { MAX_STATES } {
            return None;
        }
        let next = |s: usize, x: usize| (g.edge)(s, x).0;
        // `ends[k][s]`: state `s` accepts after exactly `k` more bytes (one
        // more `k` per length, so that most automata, which have too many
        // paths of a few bytes already, cost little).
        let mut ends = vec![(0..states)
            .map(|s| s != 0 && (g.accepts)(s))
            .collect::<Vec<bool>>()];
        // Each length's paths, as class sets per position.
        let mut paths: Vec<(usize, Vec<Vec<bool>>)> = Vec::new();
        let mut first = [0u8; MAX_LEN + 2];
        let mut decided = MAX_LEN + 1;
        for n in 0..=MAX_LEN {
            if n > 0 {
                let prev = &ends[n - 1];
                let row = (0..states)
                    .map(|s| s != 0 && (0..a).any(|x| prev[next(s, x)]))
                    .collect();
                ends.push(row);
            }
            first[n] = u8::try_from(paths.len()).ok()?;
            if !ends[n][start] {
                continue;
            }
            let before = paths.len();
            // Depth first, each step to a next state that still accepts in
            // time, with the classes that lead there with one label. A
            // path so far is a node of a tree (its last step's class set
            // and the node before), not a copy of its sets per step.
            let mut nodes: Vec<(usize, Vec<bool>)> = Vec::new();
            let mut stack: Vec<(usize, usize, usize)> = vec![(start, NO_NODE, 0)];
            let mut to: Vec<((usize, u32), Vec<bool>)> = Vec::new();
            let mut too_many = false;
            while let Some((s, node, i)) = stack.pop() {
                if i == n {
                    paths.push((n, path_sets(&nodes, node, n)));
                    too_many = paths.len() - before > MAX_PER_LENGTH || paths.len() > MAX_SHAPES;
                    if too_many {
                        break;
                    }
                    continue;
                }
                to.clear();
                for x in 0..a {
                    let e = (g.edge)(s, x);
                    if e.0 == 0 || !ends[n - i - 1][e.0] {
                        continue;
                    }
                    match to.iter_mut().find(|(f, _)| *f == e) {
                        Some((_, set)) => set[x] = true,
                        None => {
                            let mut set = vec![false; a];
                            set[x] = true;
                            to.push((e, set));
                        }
                    }
                }
                // Every state pushed still accepts in time, so each entry
                // leads to a path of its own.
                too_many = stack.len() + to.len() > MAX_PER_LENGTH;
                if too_many {
                    break;
                }
                for ((t, _), set) in to.drain(..) {
                    nodes.push((node, set));
                    stack.push((t, nodes.len() - 1, i + 1));
                }
            }
            if too_many {
                // Partial shapes stop here: this length and the longer
                // ones are walked.
                if !g.partial {
                    return None;
                }
                paths.truncate(before);
                decided = n;
                break;
            }
        }
        // Lengths from `decided` on have no shapes (the walk decides them).
        let count = u8::try_from(paths.len()).ok()?;
        for f in &mut first[decided.min(MAX_LEN + 1)..] {
            *f = count;
        }
        if paths.is_empty() || decided < 2 {
            // Nothing this short matches, or only the empty input is
            // decided: no shape worth checking.
            return None;
        }
        // Atoms: classes that every position's set takes or leaves together.
        let sets: Vec<&Vec<bool>> = paths.iter().flat_map(|(_, p)| p).collect();
        let signature = |x: usize| sets.iter().map(|set| set[x]).collect::<Vec<bool>>();
        let mut atoms: Vec<(Vec<bool>, Vec<usize>)> = Vec::new();
        for x in 0..a {
            let sig = signature(x);
            if !sig.contains(&true) {
                continue;
            }
            match atoms.iter_mut().find(|(s, _)| *s == sig) {
                Some((_, xs)) => xs.push(x),
                None => atoms.push((sig, vec![x])),
            }
        }
        // Each atom's bytes as rectangles: high nibbles with the same row
        // of low nibbles share one. Per class, its bucket bits.
        let (mut low, mut high) = ([0u8; 16], [0u8; 16]);
        let mut bits_of_class = vec![0u8; a];
        let mut bucket = 0;
        for (_, xs) in &atoms {
            let mut rows = [0u16; 16];
            for b in 0..=255u8 {
                if xs.contains(&usize::from(g.classes[usize::from(b)])) {
                    rows[usize::from(b >> 4)] |= 1 << (b & 15);
                }
            }
            let mut done = [false; 16];
            let mut bits = 0u8;
            for h in 0..16 {
                if rows[h] == 0 || done[h] {
                    continue;
                }
                if bucket == 8 {
                    return None;
                }
                let bit = 1u8 << bucket;
                bucket += 1;
                bits |= bit;
                for (g, row) in rows.iter().enumerate() {
                    if *row == rows[h] {
                        done[g] = true;
                        high[g] |= bit;
                    }
                }
                for (l, x) in low.iter_mut().enumerate() {
                    if rows[h] >> l & 1 == 1 {
                        *x |= bit;
                    }
                }
            }
            for &x in xs {
                bits_of_class[x] = bits;
            }
        }
        // Each shape's masks, in the first row that agrees with them as far
        // as both go (extended if they go further), else a new row.
        let mut rows: Vec<([u8; MAX_LEN], usize)> = Vec::new();
        let mut ids = Vec::with_capacity(paths.len());
        for (n, sets) in &paths {
            let mut m = [0u8; MAX_LEN];
            for (i, set) in sets.iter().enumerate() {
                m[i] = (0..a).filter(|&x| set[x]).fold(0, |m, x| m | bits_of_class[x]);
            }
            let fits = |(row, len): &([u8; MAX_LEN], usize)| {
                let k = (*n).min(*len);
                row[..k] == m[..k]
            };
            let id = match rows.iter().position(fits) {
                Some(id) => {
                    let (row, len) = &mut rows[id];
                    if *n > *len {
                        row[*len..*n].copy_from_slice(&m[*len..*n]);
                        *len = *n;
                    }
                    id
                }
                None => {
                    rows.push((m, *n));
                    rows.len() - 1
                }
            };
            ids.push(u8::try_from(id).ok()?);
        }
        // An input of each shape: a byte of the first class at each position.
        let byte_of = |x: usize| (0..=255u8).find(|&b| usize::from(g.classes[usize::from(b)]) == x);
        let samples = paths
            .iter()
            .map(|(_, sets)| {
                sets.iter()
                    .map(|set| set.iter().position(|&y| y).and_then(byte_of))
                    .collect::<Option<Vec<u8>>>()
            })
            .collect::<Option<Vec<Vec<u8>>>>()?;
        Some(Shapes {
            low,
            high,
            first,
            ids,
            rows: rows.into_iter().map(|(row, _)| row).collect(),
            samples,
            decided,
        })
    }

    /// The shapes of inputs of `n` bytes, as rows (of which the first `n`
    /// bytes count).
    fn shapes_of(&self, n: usize) -> impl Iterator<Item = &[u8; MAX_LEN]> {
        let ids = &self.ids[usize::from(self.first[n])..usize::from(self.first[n + 1])];
        ids.iter().map(|&id| &self.rows[usize::from(id)])
    }

    /// The bytes of the table the shapes take ([`Shapes::to_bytes`]).
    pub fn bytes(&self) -> usize {
        self.to_bytes().len()
    }

    /// Byte `b`'s bucket bits.
    pub fn class(&self, b: u8) -> u8 {
        self.low[usize::from(b & 15)] & self.high[usize::from(b >> 4)]
    }

    /// Whether all of `input` matches: the reference for the runtime's
    /// check (inputs over [`MAX_LEN`] bytes are not decided here).
    pub fn full_match(&self, input: &[u8]) -> Option<bool> {
        let n = input.len();
        if n > MAX_LEN || n >= self.decided {
            return None;
        }
        Some(
            self.shapes_of(n)
                .any(|m| input.iter().zip(m).all(|(&b, &m)| self.class(b) & m != 0)),
        )
    }

    /// Bytes in the runtime's format (`abnf_runtime::table::Shapes`): the
    /// low and high nibble tables, `first`, the length from which inputs
    /// are walked (0: none), zeros up to 128 bytes, each
    /// byte's class (256 bytes, for the scalar check), the row of each
    /// shape, zeros up to a multiple of 64 bytes, then the rows.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(512 + MAX_LEN * self.rows.len());
        out.extend_from_slice(&self.low);
        out.extend_from_slice(&self.high);
        out.extend_from_slice(&self.first);
        // Byte 98: the length from which inputs are walked (0: none).
        out.push(if self.decided > MAX_LEN {
            0
        } else {
            self.decided as u8
        });
        out.resize(128, 0);
        out.extend((0..=255u8).map(|b| self.class(b)));
        out.extend_from_slice(&self.ids);
        out.resize(out.len().next_multiple_of(64), 0);
        for row in &self.rows {
            out.extend_from_slice(row);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{compact, strings};
    use super::*;
    use abnf_runtime::simd::Level;

    #[test]
    fn shapes_decide_as_the_table_walk() {
        for pattern in [
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}",
            "[ab][cd]?",
            "(ab)?",
            "",
            "é[ab]",
            "[0-9]{2}(\\.[0-9]+)?([Zz]|[+-][0-9]{2})",
            "a[bc]+d|b",
            "(a|b)c|bd",
            "[ab]c?[a-c]",
            "[\\x00-\\x7f]{0,3}",
            "[ab]*",
        ] {
            let c = compact(pattern);
            let sh = Shapes::of(&c).unwrap_or_else(|| panic!("`{pattern}` has shapes"));
            let wire = c.wire();
            let table = wire.table();
            let runtime = table.shapes().expect("the shapes are in the wire table");
            let mut non_ascii_match = false;
            for s in strings(b"abcd019.Z+-\xc3\xa9", 4) {
                let walk = table.full_match(&s).is_ok();
                non_ascii_match |= walk && !s.is_ascii();
                assert_eq!(sh.full_match(&s), Some(walk), "`{pattern}` on {s:?}");
                for level in Level::available() {
                    assert_eq!(
                        runtime.full_match(&s, level),
                        Some(walk),
                        "`{pattern}` on {s:?} at {level:?}"
                    );
                }
            }
            // (Each pattern that takes non-ASCII takes it within 4 bytes.)
            let empty = table.full_match(b"").is_ok();
            assert_eq!(runtime.is_ascii(), !non_ascii_match && !empty, "`{pattern}`");
        }
        // Shapes that are prefixes of one another share a row.
        let loops = Shapes::of(&compact("[ab]*")).expect("a loop has shapes");
        assert_eq!((loops.ids.len(), loops.rows.len()), (MAX_LEN + 1, 1));
        // Long inputs, every vector window: timestamps of every fraction
        // length and both offset forms, and each with every position
        // changed to bytes of each class.
        let c = compact(
            "[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})",
        );
        let sh = Shapes::of(&c).expect("timestamps have shapes");
        let wire = c.wire();
        let table = wire.table();
        let runtime = table.shapes().expect("the shapes are in the wire table");
        for digits in 0..44 {
            for offset in ["Z", "+01:30"] {
                let fraction = if digits == 0 {
                    String::new()
                } else {
                    format!(".{}", "7".repeat(digits))
                };
                let good = format!("1985-04-12T23:20:50{fraction}{offset}");
                for i in 0..good.len() {
                    for b in [b'0', b'-', b':', b'.', b'Z', b'z', b'+', b'T', b'x', 0xC3] {
                        let mut s = good.clone().into_bytes();
                        s[i] = b;
                        let walk = table.full_match(&s).is_ok();
                        assert_eq!(sh.full_match(&s), (s.len() <= MAX_LEN).then_some(walk));
                        for level in Level::available() {
                            assert_eq!(
                                runtime.full_match(&s, level),
                                (s.len() <= MAX_LEN).then_some(walk),
                                "{s:?} at {level:?}"
                            );
                        }
                    }
                }
            }
        }
        // Too many paths of one length, or too many rectangles.
        for pattern in ["(a|bc)*", "[ab]{64}x", "[\\x01\\x12\\x23\\x34\\x45\\x56\\x67]-x"] {
            let c = compact(pattern);
            assert!(Shapes::of(&c).is_none(), "`{pattern}`");
        }
    }
}
