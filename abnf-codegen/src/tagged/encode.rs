//! A tagged DFA in the runtime's wire format ([`abnf_runtime::wire`]): its
//! one-byte tables, and the two-byte steps where they make it small.

use super::*;
use crate::automata::bitpar::{utf8_leads, LoopSet, NibbleTable, MIN_LOOP_BYTES};
use crate::automata::shapes::{Graph, Shapes};
use abnf_runtime::simd::LOOP_SET_BYTES;

impl TaggedDfa {
    /// The row of state `q` in [`TaggedDfa::to_words`]' table (its first
    /// word): a row per state, of a word per class and one for the final
    /// map. What the runtime's walks hold as their state, and a walk as
    /// code reports where it stopped.
    pub fn row(&self, q: usize) -> usize {
        q * (self.alphabet + 1)
    }

    /// Whether [`TaggedDfa::to_words`] can encode the DFA: premultiplied
    /// targets in [`NEXT_BITS`] bits, the operation lists above them, and
    /// at most [`MAX_REGISTERS`] registers.
    pub fn fits_words(&self) -> bool {
        self.states() * (self.alphabet + 1) < 1 << NEXT_BITS
            && self.op_lists.len() + (FIRST_LIST as usize) < 1 << (32 - NEXT_BITS)
            && self.registers <= MAX_REGISTERS
            && self.tags < 1 << (32 - FINAL_TAG_SHIFT)
    }

    /// Serializes the DFA as `u32` words for the runtime (`iri_grammar`'s
    /// `TaggedDfa`). First one row per state of `alphabet + 1` words: a
    /// word per class, `(op << NEXT_BITS) | next` with `next` premultiplied
    /// (the target's row offset, so the walk needs no multiplication), then
    /// the offset of the state's final map in the final maps (`u32::MAX`
    /// when no parse ends there). Then the operation list offsets, the
    /// operations (`1 << 31 | dst` sets a register to the position,
    /// `dst << 16 | src` copies) and the final maps (sparse: a length, then
    /// a word per tag that matched). Fails when a table does not fit its
    /// fields.
    pub fn to_words(&self) -> Option<(Vec<u32>, WordLayout)> {
        if !self.fits_words() {
            return None;
        }
        let stride = self.row(1);
        // What a transition does to the registers, in the bits above the
        // target: nothing (0), store the position in register `f - 1`
        // (most lists: a branch-free store, 0 being a scratch register), or
        // run list `f - FIRST_LIST`.
        let effect = |op: u32| match self.op_lists[op as usize].as_slice() {
            [] => 0,
            [RegOp::SetPos { dst }] => dst + 1,
            _ => FIRST_LIST + op,
        };
        let mut words = Vec::with_capacity(self.states() * stride);
        // Each final map once, sparse: its length, then a word per tag that
        // matched, `tag << FINAL_TAG_SHIFT | register` (or
        // `FINAL_PENDING` for a tag set where the parse ends). The tags
        // left out never matched: a read costs what the parse set, not
        // every tag of every alternative.
        let mut maps: Vec<u32> = Vec::new();
        let mut map_at: HashMap<Vec<u32>, u32> = HashMap::default();
        for s in 0..self.states() {
            for c in 0..self.alphabet {
                let t = s * self.alphabet + c;
                words.push((effect(self.ops[t]) << NEXT_BITS) | (self.next[t] * stride as u32));
            }
            match &self.finals[s] {
                Some(map) => {
                    let sparse: Vec<u32> = map
                        .iter()
                        .enumerate()
                        .filter(|&(_, &r)| r != UNSET)
                        .map(|(tag, &r)| {
                            let code = if r == PENDING { FINAL_PENDING } else { r };
                            (tag as u32) << FINAL_TAG_SHIFT | code
                        })
                        .collect();
                    let at = *map_at.entry(sparse).or_insert_with_key(|sparse| {
                        let at = maps.len() as u32;
                        maps.push(sparse.len() as u32);
                        maps.extend_from_slice(sparse);
                        at
                    });
                    words.push(at);
                }
                None => words.push(NOT_FINAL),
            }
        }
        // The start operations are one more list, after the others.
        let lists: Vec<&Vec<RegOp>> = self.op_lists.iter().chain([&self.start_ops]).collect();
        let start_ops = self.op_lists.len() as u32;
        let op_start = words.len() as u32;
        let op_data = op_start + lists.len() as u32 + 1;
        let mut at = op_data;
        for list in &lists {
            words.push(at);
            at += list.len() as u32;
        }
        words.push(at);
        for list in &lists {
            words.extend(list.iter().map(|op| match *op {
                RegOp::SetPos { dst } => SET_POS | dst,
                RegOp::Copy { dst, src } => (dst << 16) | src,
            }));
        }
        let final_maps = words.len() as u32;
        words.extend(maps);
        Some((
            words,
            WordLayout {
                op_start,
                op_data,
                start_ops,
                final_maps,
            },
        ))
    }

    /// Serializes the DFA's two-byte steps for the runtime (`iri_grammar`'s
    /// `Pairs`), if they fit in `max_bytes`: one row per state with a word
    /// per pair of classes `(c1, c2)` at `c1 * alphabet + c2`, the target
    /// premultiplied by the row length `alphabet²`; then, at the same
    /// places in a second table, the effect of both bytes: 0 none, `1 + r`
    /// (up to [`MAX_REGISTERS`]) the position of the first byte into
    /// register `r`, `1 + MAX_REGISTERS + r` the position of the second
    /// byte, from [`FIRST_PAIR_LIST`] on an operation list: `1 << 31 |
    /// delta << 30 | dst` sets register `dst` to the position plus `delta`,
    /// `dst << 16 | src` copies. After the tables, the list offsets and then
    /// the lists (the second number returned is where they start). Rows are
    /// numbered as [`TaggedDfa::to_words`] numbers states; the final maps
    /// are that table's. Targets and effects are apart so that the walk's
    /// chain of lookups is one load and one add per step. Fails when the
    /// tables exceed `max_bytes` or an effect [`PAIR_EFFECT_BITS`].
    ///
    /// Half as many steps as bytes: a walk that also has another automaton
    /// to walk (a recognizer checking the same input) no longer waits on
    /// this one.
    pub fn to_pair_words(&self, max_bytes: usize) -> Option<(Vec<u32>, u32)> {
        let (n, a) = (self.states(), self.alphabet);
        let stride = a * a;
        if n * stride * 8 > max_bytes || self.registers > MAX_REGISTERS {
            return None;
        }
        let mut lists: Vec<Vec<u32>> = Vec::new();
        let mut index: HashMap<Vec<u32>, u32> = HashMap::default();
        let encode = |op: &RegOp, delta: u32| match *op {
            RegOp::SetPos { dst } => SET_POS | (delta * DELTA) | dst,
            RegOp::Copy { dst, src } => (dst << 16) | src,
        };
        let mut words = Vec::with_capacity(2 * n * stride);
        let mut effects = Vec::with_capacity(n * stride);
        for s in 0..n {
            for c1 in 0..a {
                for c2 in 0..a {
                    let t1 = s * a + c1;
                    let mid = self.next[t1] as usize;
                    let t2 = mid * a + c2;
                    let (to, first, second) = if mid == 0 {
                        (0, &[][..], &[][..])
                    } else {
                        (
                            self.next[t2],
                            &self.op_lists[self.ops[t1] as usize][..],
                            &self.op_lists[self.ops[t2] as usize][..],
                        )
                    };
                    let effect = match (first, second) {
                        ([], []) => 0,
                        ([RegOp::SetPos { dst }], []) => 1 + dst,
                        ([], [RegOp::SetPos { dst }]) => 1 + MAX_REGISTERS as u32 + dst,
                        _ => {
                            let list: Vec<u32> = first
                                .iter()
                                .map(|op| encode(op, 0))
                                .chain(second.iter().map(|op| encode(op, 1)))
                                .collect();
                            let next = lists.len() as u32;
                            let i = *index.entry(list.clone()).or_insert_with(|| {
                                lists.push(list);
                                next
                            });
                            FIRST_PAIR_LIST + i
                        }
                    };
                    if effect >= 1 << PAIR_EFFECT_BITS {
                        return None;
                    }
                    words.push(to * stride as u32);
                    effects.push(effect);
                }
            }
        }
        words.extend(effects);
        let list_start = words.len() as u32;
        let mut at = list_start + lists.len() as u32 + 1;
        for list in &lists {
            words.push(at);
            at += list.len() as u32;
        }
        words.push(at);
        words.extend(lists.into_iter().flatten());
        Some((words, list_start))
    }

    /// The DFA in the runtime's format ([`Kind::Tagged`]), with its
    /// two-byte steps if `pair_bytes` is given and they fit in it; `None`
    /// when the tables do not fit their fields.
    pub fn to_bytes(&self, pair_bytes: Option<usize>, big_endian: bool) -> Option<Vec<u8>> {
        self.to_bytes_with(pair_bytes, big_endian, self.shapes().as_ref())
    }

    /// [`TaggedDfa::to_bytes`] in little- and big-endian order, searching
    /// the shapes once for both.
    pub fn to_bytes_both(&self, pair_bytes: Option<usize>) -> Option<([Vec<u8>; 2], bool)> {
        let shapes = self.shapes();
        let both = [
            self.to_bytes_with(pair_bytes, false, shapes.as_ref())?,
            self.to_bytes_with(pair_bytes, true, shapes.as_ref())?,
        ];
        Some((both, shapes.is_some()))
    }

    /// The DFA's inputs of up to 64 bytes as shapes ([`Shapes`]) whose
    /// inputs share one path of states *and operations*, so that each
    /// shape's tags are the same for all its inputs: with those tags
    /// (offsets from the start, `0xFF` for a tag never set), found by
    /// running the DFA on each shape's sample.
    pub fn shapes(&self) -> Option<(Shapes, Vec<u8>)> {
        let a = self.alphabet;
        let shapes = Shapes::search(&Graph {
            states: self.states(),
            alphabet: a,
            start: self.start as usize,
            classes: &self.classes,
            edge: &|s, x| (self.next[s * a + x] as usize, self.ops[s * a + x]),
            accepts: &|s| self.finals[s].is_some(),
            partial: true,
        })?;
        let wire = WireBytes::new(&self.to_bytes_with(None, NATIVE_BIG_ENDIAN, None)?);
        let mut tags = Vec::with_capacity(shapes.samples.len() * self.tags);
        for sample in &shapes.samples {
            let found = run_wire(&wire, sample).ok()?;
            tags.extend(
                found
                    .iter()
                    .map(|t| t.map_or(Some(0xFF), |t| u8::try_from(t).ok())),
            );
        }
        let tags = tags.into_iter().collect::<Option<Vec<u8>>>()?;
        Some((shapes, tags))
    }

    /// [`TaggedDfa::to_bytes`], with `shapes` ([`TaggedDfa::shapes`]) if
    /// given.
    pub(super) fn to_bytes_with(
        &self,
        pair_bytes: Option<usize>,
        big_endian: bool,
        shapes: Option<&(Shapes, Vec<u8>)>,
    ) -> Option<Vec<u8>> {
        let (mut words, layout) = self.to_words()?;
        let pairs = pair_bytes.and_then(|max| self.to_pair_words(max));
        let (pairs_at, lists) = match &pairs {
            Some((_, lists)) => (words.len() as u32, *lists),
            None => (0, 0),
        };
        if let Some((p, _)) = pairs {
            words.extend(p);
        }
        // The one-pass extractions (those asked for with two-byte steps)
        // also get loop sets, for the bit-parallel walk.
        let loops = match pair_bytes {
            Some(_) => self.loop_sets(),
            None => Vec::new(),
        };
        let loops_at = if loops.is_empty() { 0 } else { words.len() as u32 };
        // The shapes after the loop sets, from the next multiple of 64
        // bytes of the table.
        let shapes_at = shapes.map_or(0, |_| {
            let end = rtwire::HEADER_BYTES + 256 + 4 * words.len() + LOOP_SET_BYTES * loops.len();
            (end.next_multiple_of(64) - rtwire::HEADER_BYTES - 256) as u32
        });
        let params = [
            self.alphabet as u32,
            self.tags as u32,
            // The walk starts at the start state's row.
            self.start * (self.alphabet as u32 + 1),
            layout.start_ops,
            layout.op_start,
            layout.final_maps,
            u32::from(self.utf8_only),
            pairs_at,
            lists,
            loops_at,
            shapes_at,
        ];
        let mut out = Vec::new();
        rtwire::write_header(&mut out, Kind::Tagged, 4, &params, big_endian);
        out.extend_from_slice(&self.classes);
        rtwire::write_words(&mut out, &words, 4, big_endian);
        for set in &loops {
            out.extend_from_slice(&set.to_runtime().to_record());
        }
        if let Some((shapes, tags)) = shapes {
            out.resize(out.len().next_multiple_of(64), 0);
            out.extend_from_slice(&shapes.to_bytes());
            out.extend_from_slice(tags);
        }
        Some(out)
    }

    /// The loop set of every state of a tagged DFA (empty for most): the
    /// ASCII bytes on which it moves to itself without touching a register, so
    /// that a run of them changes nothing but the position. Only states with
    /// at least [`MIN_LOOP_BYTES`] of them get a set. An extraction walks such
    /// a run bit-parallel where the recognizer walked with it loops too: on
    /// the intersection of both sets (the runtime's `LoopSet::meet`).
    pub fn loop_sets(&self) -> Vec<LoopSet> {
        let d = self;
        let a = d.alphabet;
        (0..d.states())
            .map(|q| {
                let bytes = NibbleTable::from_fn(|b| d.loops_on(q, b));
                let fast = q != 0 && bytes.len() >= MIN_LOOP_BYTES;
                // Characters are skipped where every step of them moves without
                // touching a register.
                let next = |s: usize, b: u8| {
                    let t = s * a + usize::from(d.classes[usize::from(b)]);
                    let n = d.next[t] as usize;
                    (n != 0 && d.op_lists[d.ops[t] as usize].is_empty()).then_some(n)
                };
                LoopSet {
                    bytes: if fast { bytes } else { NibbleTable([0; 16]) },
                    escape: 0,
                    escaped: NibbleTable([0; 16]),
                    leads: if fast {
                        utf8_leads(q, next)
                    } else {
                        abnf_runtime::simd::Leads::NONE
                    },
                }
            })
            .collect()
    }
}
