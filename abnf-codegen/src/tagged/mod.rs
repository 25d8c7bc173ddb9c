//! Tagged DFAs: one forward pass that both recognizes a rule and records
//! where its parts start and end.
//!
//! The input is a Thompson NFA built by `regex-automata` from a HIR with
//! capture groups (one group per part the typed AST needs); capture slots are
//! the *tags*. Determinization follows Laurikari's tagged DFAs in the form
//! that gives leftmost-first ("first-match-wins", Perl-style) priority: a DFA
//! state is an *ordered* list of NFA states, each with the registers that hold
//! its tag values, in the order a PikeVM would keep its threads; the first
//! thread to reach a state wins it. Registers are numbered canonically (in
//! order of first appearance in the list), so two lists that differ only in
//! register contents are the same DFA state, and each transition carries the
//! register operations (`r := current position` or `r := old register`) that
//! rebuild the registers for the target state. Most transitions in a loop
//! (inside a path segment, say) are the identity and cost nothing at run time.
//!
//! At the end of the input, the first thread (in priority order) that has
//! reached the NFA's match state gives the highest-priority complete parse;
//! its registers are the tag values.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use regex_automata::nfa::thompson::{State, NFA};
use regex_automata::util::primitives::StateID;

use abnf_runtime::wire::{self as rtwire, Kind, DELTA, NOT_FINAL, SET_POS};
pub use abnf_runtime::wire::{FIRST_LIST, FIRST_PAIR_LIST, MAX_REGISTERS, NEXT_BITS, PENDING, UNSET};

use crate::wire::{WireBytes, NATIVE_BIG_ENDIAN};

/// The most DFA states a tagged DFA may have.
pub const MAX_STATES: usize = 0xFFFF;

/// One register operation on a transition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegOp {
    /// `regs[dst] := position` (the offset of the byte just read: where a
    /// pending tag was set).
    SetPos {
        /// Destination register.
        dst: u32,
    },
    /// `regs[dst] := regs[src]`.
    Copy {
        /// Destination register.
        dst: u32,
        /// Source register (in the source state's numbering).
        src: u32,
    },
}

/// A tagged DFA over byte classes.
#[derive(Clone, Debug)]
pub struct TaggedDfa {
    /// Byte → class.
    pub classes: [u8; 256],
    /// Number of classes (the alphabet's size).
    pub alphabet: usize,
    /// `next[state * alphabet + class]`: the target state (0 is dead).
    pub next: Vec<u32>,
    /// `ops[state * alphabet + class]`: index into `op_lists`; 0 is the
    /// identity (no register changes).
    pub ops: Vec<u32>,
    /// Distinct register operation lists; entry 0 is empty.
    pub op_lists: Vec<Vec<RegOp>>,
    /// Per state, for a state where a complete parse can end: the register
    /// holding each tag (or [`UNSET`]).
    pub finals: Vec<Option<Vec<u32>>>,
    /// The start state.
    pub start: u32,
    /// Register operations at position 0.
    pub start_ops: Vec<RegOp>,
    /// The most registers any state uses.
    pub registers: usize,
    /// Number of tags (capture slots, two per group, group 0 included).
    pub tags: usize,
    /// Whether [`TaggedDfa::trust_utf8`] changed the DFA: it may then only
    /// be run on valid UTF-8.
    pub utf8_only: bool,
}

/// Where the tables are inside [`TaggedDfa::to_words`]'s output.
#[derive(Clone, Copy, Debug)]
pub struct WordLayout {
    /// Offset of the operation-list offsets.
    pub op_start: u32,
    /// Offset of the operations.
    pub op_data: u32,
    /// Index of the start operations' list.
    pub start_ops: u32,
    /// Offset of the final maps.
    pub final_maps: u32,
}

/// The bits a two-byte step's effect may take (the runtime keeps a chunk's
/// effects as `u16`s).
pub const PAIR_EFFECT_BITS: u32 = 16;

/// Why a tagged DFA could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TaggedError {
    /// More than [`MAX_STATES`] states.
    TooManyStates,
    /// The NFA holds a look-around assertion (grammars never produce one).
    LookAround,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Val {
    Unset,
    /// Set at this position, not stored yet.
    Pending,
    /// Set at the previous position (pending there): stored now.
    Prev,
    Old(u32),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    sids: Vec<StateID>,
    regs: Vec<u32>,
}

/// How [`TaggedDfa::build_with`] gives tag values registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Registers {
    /// One register per distinct value, tags never set marked in the state
    /// itself: fewest registers and copies, but a state also records which
    /// tags hold equal values and which are unset, so a grammar with many
    /// optional parts gets a state for each combination.
    Shared,
    /// Registers per tag (two tags never share one, threads with the same
    /// value of a tag do), and tags never set held in registers (as
    /// "unset"): a state records how threads share values tag by tag, which
    /// follows the NFA's structure, not which parts happened to be present
    /// or empty. More registers, and copies where threads fork. Threads
    /// that can never give the parse are dropped as the DFA is built (see
    /// `Builder::prune`), which the splitting grammars need; it costs
    /// generator time, so the shared form skips it.
    PerTag,
}

/// While a [`Registers::PerTag`] DFA is built: the source of a copy that
/// clears a register, which becomes the register after the scratch one
/// (no operation writes it, so it holds "unset").
const NONE_PLACEHOLDER: u32 = u32::MAX;

struct Builder<'a> {
    nfa: &'a NFA,
    mode: Registers,
    max_states: usize,
    tags: usize,
    map: HashMap<Key, u32>,
    states: Vec<Key>,
    op_lists: HashMap<Vec<RegOp>, u32>,
    op_vec: Vec<Vec<RegOp>>,
    registers: usize,
    /// Memo of [`Builder::covers`], by sorted sets of states.
    covered: HashMap<(Vec<StateID>, Vec<StateID>), bool>,
}

impl TaggedDfa {
    /// Determinizes `nfa` (built with all captures, anchored start, no
    /// look-around).
    pub fn build(nfa: &NFA) -> Result<TaggedDfa, TaggedError> {
        Self::build_with(nfa, Registers::Shared)
    }

    /// Determinizes `nfa` with registers given out as `mode` says.
    pub fn build_with(nfa: &NFA, mode: Registers) -> Result<TaggedDfa, TaggedError> {
        Self::build_capped(nfa, mode, MAX_STATES)
    }

    /// Like [`TaggedDfa::build_with`], stopping with
    /// [`TaggedError::TooManyStates`] past `max_states` states (at most
    /// [`MAX_STATES`]).
    pub fn build_capped(nfa: &NFA, mode: Registers, max_states: usize) -> Result<TaggedDfa, TaggedError> {
        let tags = nfa.group_info().slot_len();
        let mut b = Builder {
            max_states: max_states.min(MAX_STATES),
            nfa,
            mode,
            tags,
            map: HashMap::default(),
            states: Vec::new(),
            op_lists: HashMap::from_iter([(Vec::new(), 0)]),
            op_vec: vec![Vec::new()],
            registers: 0,
            covered: HashMap::default(),
        };
        // State 0: dead (no threads).
        b.intern(Key {
            sids: Vec::new(),
            regs: Vec::new(),
        })?;
        let mut configs = Vec::new();
        let mut seen = HashSet::default();
        b.closure(
            nfa.start_anchored(),
            vec![Val::Unset; tags],
            &mut configs,
            &mut seen,
        )?;
        b.prune(&mut configs);
        let (key, start_ops) = b.canonical(&configs);
        let start = b.intern(key)?;

        let classes = nfa.byte_classes();
        let alphabet = classes.alphabet_len() - 1; // without the EOI class
        let reps: Vec<u8> = classes.representatives(..).filter_map(|u| u.as_u8()).collect();
        debug_assert_eq!(reps.len(), alphabet);
        let mut class_of = [0u8; 256];
        for byte in 0..=255u8 {
            class_of[byte as usize] = classes.get(byte);
        }
        let mut next = Vec::new();
        let mut ops = Vec::new();
        let mut s = 0;
        while s < b.states.len() {
            let key = b.states[s].clone();
            for &byte in &reps {
                let mut configs = Vec::new();
                let mut seen = HashSet::default();
                for (i, &sid) in key.sids.iter().enumerate() {
                    let Some(to) = step(nfa.state(sid), byte) else {
                        continue;
                    };
                    let regs = &key.regs[i * tags..(i + 1) * tags];
                    let vals = regs
                        .iter()
                        .map(|&r| match r {
                            UNSET => Val::Unset,
                            PENDING => Val::Prev,
                            r => Val::Old(r),
                        })
                        .collect();
                    b.closure(to, vals, &mut configs, &mut seen)?;
                }
                b.prune(&mut configs);
                let (target, list) = b.canonical(&configs);
                let identity = list
                    .iter()
                    .all(|op| matches!(op, RegOp::Copy { dst, src } if dst == src));
                let op_index = if identity { 0 } else { b.op_index(list) };
                next.push(b.intern(target)?);
                ops.push(op_index);
            }
            s += 1;
        }
        let finals = b
            .states
            .iter()
            .map(|k| {
                let i = k
                    .sids
                    .iter()
                    .position(|&sid| matches!(nfa.state(sid), State::Match { .. }))?;
                Some(k.regs[i * tags..(i + 1) * tags].to_vec())
            })
            .collect();
        // Operations are built as parallel assignments; run them in place,
        // one after the other (one register bank, most lists a single
        // store), with one scratch register for cycles of copies.
        let scratch = b.registers as u32;
        let mut uses_scratch = false;
        // The register that holds "unset" comes after the scratch register.
        let none_reg = scratch + 1;
        let mut uses_none = false;
        let mut seq = |list: &[RegOp]| {
            let list: Vec<RegOp> = list
                .iter()
                .map(|&op| match op {
                    RegOp::Copy {
                        dst,
                        src: NONE_PLACEHOLDER,
                    } => {
                        uses_none = true;
                        RegOp::Copy { dst, src: none_reg }
                    }
                    op => op,
                })
                .collect();
            let (out, used) = sequential(&list, scratch);
            uses_scratch |= used;
            out
        };
        let op_lists: Vec<Vec<RegOp>> = b.op_vec.iter().map(|l| seq(l)).collect();
        // Registers start out unset (the runtime's and `run`'s), so the
        // start needs no copies of "unset".
        let start_ops: Vec<RegOp> = seq(&start_ops)
            .into_iter()
            .filter(|op| !matches!(op, RegOp::Copy { src, .. } if *src == none_reg))
            .collect();
        Ok(TaggedDfa {
            classes: class_of,
            alphabet,
            next,
            ops,
            op_lists,
            finals,
            start,
            start_ops,
            utf8_only: false,
            registers: if uses_none {
                b.registers + 2
            } else {
                b.registers + usize::from(uses_scratch)
            },
            tags,
        })
    }

    /// Merges equivalent states (Moore's partition refinement): two states are
    /// equivalent when they have the same final register map and, for every
    /// class, the same register operations into equivalent states. The dead
    /// state stays state 0.
    pub fn minimize(&mut self) {
        let n = self.states();
        // Each refinement round costs O(states × classes), and a chain needs
        // as many rounds as it is long: leave very large automata as built.
        if n > crate::automata::MAX_MINIMIZE_STATES {
            return;
        }
        let a = self.alphabet;
        let mut block: Vec<u32> = {
            let mut ids: HashMap<&Option<Vec<u32>>, u32> = HashMap::default();
            // The dead state gets a block of its own (it has no final map,
            // like many live states).
            let mut v: Vec<u32> = self
                .finals
                .iter()
                .map(|f| {
                    let next = ids.len() as u32 + 1;
                    *ids.entry(f).or_insert(next)
                })
                .collect();
            v[0] = 0;
            v
        };
        let mut count = 0;
        loop {
            let mut ids: HashMap<Vec<u32>, u32> = HashMap::default();
            let mut next_block = vec![0u32; n];
            for s in 0..n {
                let mut sig = Vec::with_capacity(2 * a + 1);
                sig.push(block[s]);
                for c in 0..a {
                    let t = s * a + c;
                    sig.push(block[self.next[t] as usize]);
                    sig.push(self.ops[t]);
                }
                let len = ids.len() as u32;
                next_block[s] = *ids.entry(sig).or_insert(len);
            }
            let new_count = ids.len();
            block = next_block;
            if new_count == count {
                break;
            }
            count = new_count;
        }
        // Renumber: the dead state's block first, then in order of first
        // appearance.
        let mut order: HashMap<u32, u32> = HashMap::from_iter([(block[0], 0)]);
        let mut reps = vec![0usize];
        for (s, &b) in block.iter().enumerate() {
            if let std::collections::hash_map::Entry::Vacant(e) = order.entry(b) {
                e.insert(reps.len() as u32);
                reps.push(s);
            }
        }
        let mut next = Vec::with_capacity(reps.len() * a);
        let mut ops = Vec::with_capacity(reps.len() * a);
        for &s in &reps {
            for c in 0..a {
                next.push(order[&block[self.next[s * a + c] as usize]]);
                ops.push(self.ops[s * a + c]);
            }
        }
        self.finals = reps.iter().map(|&s| self.finals[s].clone()).collect();
        self.start = order[&block[self.start as usize]];
        self.next = next;
        self.ops = ops;
    }

    /// Whether [`TaggedDfa::to_words`] can encode the DFA: premultiplied
    /// targets in [`NEXT_BITS`] bits, the operation lists above them, and
    /// at most [`MAX_REGISTERS`] registers.
    pub fn fits_words(&self) -> bool {
        self.states() * (self.alphabet + 1) < 1 << NEXT_BITS
            && self.op_lists.len() + (FIRST_LIST as usize) < 1 << (32 - NEXT_BITS)
            && self.registers <= MAX_REGISTERS
    }

    /// Serializes the DFA as `u32` words for the runtime (`iri_grammar`'s
    /// `TaggedDfa`). First one row per state of `alphabet + 1` words: a
    /// word per class, `(op << NEXT_BITS) | next` with `next` premultiplied
    /// (the target's row offset, so the walk needs no multiplication), then
    /// the offset of the state's final map in the final maps (`u32::MAX`
    /// when no parse ends there). Then the operation list offsets, the
    /// operations (`1 << 31 | dst` sets a register to the position,
    /// `dst << 16 | src` copies) and the final maps. Fails when a table does
    /// not fit its fields.
    pub fn to_words(&self) -> Option<(Vec<u32>, WordLayout)> {
        if !self.fits_words() {
            return None;
        }
        let stride = self.alphabet + 1;
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
        let mut maps = Vec::new();
        for s in 0..self.states() {
            for c in 0..self.alphabet {
                let t = s * self.alphabet + c;
                words.push((effect(self.ops[t]) << NEXT_BITS) | (self.next[t] * stride as u32));
            }
            match &self.finals[s] {
                Some(map) => {
                    words.push(maps.len() as u32);
                    maps.extend(map.iter().copied());
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

    /// Reads non-ASCII characters a character at a time, for inputs known to
    /// be UTF-8 (a `&str`): where every non-ASCII character takes a state to
    /// the same place (with the same register operations, all on the
    /// character's first byte), every byte from 0x80 up goes there directly,
    /// in place of the chain of states that checks the character's encoding.
    /// The place is the dead state, or a state that every non-ASCII
    /// character leads back to (which then loops on those bytes). Unreachable
    /// states are dropped. Returns whether anything changed; if so, the DFA
    /// must only ever see valid UTF-8 (on other bytes it may accept what the
    /// grammar does not).
    ///
    /// This is what makes a splitting grammar such as RFC 3986 Appendix B
    /// small: `[^?#]*` over Unicode characters is one state, not one per
    /// UTF-8 byte position, and all bytes from 0x80 up are one class.
    pub fn trust_utf8(&mut self) -> bool {
        let (n, a) = (self.states(), self.alphabet);
        let sequences: Vec<_> = regex_syntax::utf8::Utf8Sequences::new('\u{80}', '\u{10FFFF}').collect();
        // The classes of the bytes of a range, each once.
        let classes_in = |start: u8, end: u8| -> Vec<usize> {
            let mut v: Vec<usize> = (start..=end).map(|b| self.classes[b as usize] as usize).collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        // Where a non-ASCII character takes state `s`, if everywhere the
        // same: (target, operations on the first byte).
        let outcome = |s: usize| -> Option<(u32, u32)> {
            // A state inside a character reads continuation bytes; at a
            // character boundary they never come (and lead nowhere).
            if (0x80..0xC0).any(|b| self.next[s * a + self.classes[b] as usize] != 0) {
                return None;
            }
            let mut seen: Option<(u32, u32)> = None;
            for seq in &sequences {
                let ranges = seq.as_slice();
                for lead in classes_in(ranges[0].start, ranges[0].end) {
                    let t = s * a + lead;
                    let here = if self.next[t] == 0 {
                        (0, 0)
                    } else {
                        let mut frontier = vec![self.next[t]];
                        for range in &ranges[1..] {
                            let mut next = Vec::new();
                            for &f in &frontier {
                                for class in classes_in(range.start, range.end) {
                                    let u = f as usize * a + class;
                                    if self.next[u] == 0 || self.ops[u] != 0 {
                                        return None;
                                    }
                                    if !next.contains(&self.next[u]) {
                                        next.push(self.next[u]);
                                    }
                                }
                            }
                            frontier = next;
                        }
                        match frontier[..] {
                            [to] => (to, self.ops[t]),
                            _ => return None,
                        }
                    };
                    match seen {
                        None => seen = Some(here),
                        Some(o) if o == here => {}
                        Some(_) => return None,
                    }
                }
            }
            seen
        };
        let outcomes: Vec<Option<(u32, u32)>> = (0..n).map(outcome).collect();
        let loops = |t: u32| t == 0 || outcomes[t as usize] == Some((t, 0));
        // Only where it changes something: a state that already takes every
        // byte from 0x80 up to one place keeps its transitions.
        let redirect: Vec<Option<(u32, u32)>> = outcomes
            .iter()
            .enumerate()
            .map(|(s, o)| {
                o.filter(|&(t, op)| {
                    s != 0
                        && loops(t)
                        && (0x80..256).any(|b| {
                            let u = s * a + self.classes[b] as usize;
                            (self.next[u], self.ops[u]) != (t, op)
                        })
                })
            })
            .collect();
        if redirect.iter().all(Option::is_none) {
            return false;
        }
        // One column per byte, so that bytes from 0x80 up can be told apart
        // from ASCII bytes that shared their class.
        let mut next = vec![0u32; n * 256];
        let mut ops = vec![0u32; n * 256];
        for s in 0..n {
            for byte in 0..256 {
                let t = s * a + self.classes[byte] as usize;
                let (to, op) = match redirect[s] {
                    Some(r) if byte >= 0x80 => r,
                    _ => (self.next[t], self.ops[t]),
                };
                next[s * 256 + byte] = to;
                ops[s * 256 + byte] = op;
            }
        }
        // Keep the states still reachable from the start (and the dead
        // state), in their order.
        let mut keep = vec![false; n];
        keep[0] = true;
        keep[self.start as usize] = true;
        let mut stack = vec![self.start as usize];
        while let Some(s) = stack.pop() {
            for &t in &next[s * 256..(s + 1) * 256] {
                if !keep[t as usize] {
                    keep[t as usize] = true;
                    stack.push(t as usize);
                }
            }
        }
        let mut id = vec![0u32; n];
        let kept: Vec<usize> = (0..n).filter(|&s| keep[s]).collect();
        for (i, &s) in kept.iter().enumerate() {
            id[s] = i as u32;
        }
        self.next = kept
            .iter()
            .flat_map(|&s| next[s * 256..(s + 1) * 256].iter().map(|&t| id[t as usize]))
            .collect();
        self.ops = kept
            .iter()
            .flat_map(|&s| ops[s * 256..(s + 1) * 256].to_vec())
            .collect();
        self.finals = kept.iter().map(|&s| self.finals[s].clone()).collect();
        self.start = id[self.start as usize];
        self.alphabet = 256;
        for (byte, class) in self.classes.iter_mut().enumerate() {
            *class = byte as u8;
        }
        self.utf8_only = true;
        true
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

    /// Merges byte classes that no state tells apart (same target and same
    /// operations everywhere). The NFA's classes distinguish bytes that the
    /// minimized automaton no longer does.
    pub fn merge_classes(&mut self) {
        let (n, a) = (self.states(), self.alphabet);
        let column = |c: usize| -> Vec<(u32, u32)> {
            (0..n)
                .map(|s| (self.next[s * a + c], self.ops[s * a + c]))
                .collect()
        };
        let mut reps: Vec<Vec<(u32, u32)>> = Vec::new();
        let mut map = vec![0usize; a];
        for (c, slot) in map.iter_mut().enumerate() {
            let col = column(c);
            *slot = match reps.iter().position(|r| *r == col) {
                Some(i) => i,
                None => {
                    reps.push(col);
                    reps.len() - 1
                }
            };
        }
        let b = reps.len();
        let mut next = vec![0; n * b];
        let mut ops = vec![0; n * b];
        for (c, col) in reps.iter().enumerate() {
            for (s, &(t, o)) in col.iter().enumerate() {
                next[s * b + c] = t;
                ops[s * b + c] = o;
            }
        }
        for class in self.classes.iter_mut() {
            *class = map[*class as usize] as u8;
        }
        self.alphabet = b;
        self.next = next;
        self.ops = ops;
    }

    /// Number of states (the dead state included).
    pub fn states(&self) -> usize {
        self.finals.len()
    }

    /// The DFA in the runtime's format ([`Kind::Tagged`]), with its
    /// two-byte steps if `pair_bytes` is given and they fit in it; `None`
    /// when the tables do not fit their fields.
    pub fn to_bytes(&self, pair_bytes: Option<usize>, big_endian: bool) -> Option<Vec<u8>> {
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
            Some(_) => crate::automata::bitpar::tagged_loops(self),
            None => Vec::new(),
        };
        let loops_at = if loops.is_empty() { 0 } else { words.len() as u32 };
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
        ];
        let mut out = Vec::new();
        rtwire::write_header(&mut out, Kind::Tagged, 4, &params, big_endian);
        out.extend_from_slice(&self.classes);
        rtwire::write_words(&mut out, &words, 4, big_endian);
        for set in &loops {
            out.extend_from_slice(&set.to_runtime().to_record());
        }
        Some(out)
    }

    /// The DFA in this machine's byte order, for walking it with the runtime
    /// ([`WireBytes::tagged`]); `None` as for [`TaggedDfa::to_bytes`].
    pub fn wire(&self) -> Option<WireBytes> {
        self.to_bytes(None, NATIVE_BIG_ENDIAN).map(|b| WireBytes::new(&b))
    }

    /// Runs the DFA with the runtime's walk: the tag values of the
    /// highest-priority complete parse, or the offset at which matching
    /// failed. (Serializes the DFA on every call: for tests and tools; keep
    /// a [`TaggedDfa::wire`] to run many inputs.)
    ///
    /// # Panics
    ///
    /// If the DFA does not fit the runtime's format ([`TaggedDfa::fits_words`]).
    pub fn run(&self, input: &[u8]) -> Result<Vec<Option<usize>>, usize> {
        let wire = self.wire().expect("the tagged DFA fits the runtime's format");
        run_wire(&wire, input)
    }
}

/// Runs a serialized tagged DFA over all of `input` with the runtime.
pub fn run_wire(wire: &WireBytes, input: &[u8]) -> Result<Vec<Option<usize>>, usize> {
    let dfa = wire.tagged();
    let mut tags = vec![usize::MAX; dfa.tags()];
    dfa.run(input, 0, input.len(), &mut tags)?;
    Ok(tags.into_iter().map(|t| (t != usize::MAX).then_some(t)).collect())
}

/// Runs sequential register operations in place.
#[cfg(test)]
fn apply(ops: &[RegOp], regs: &mut [usize], pos: usize) {
    for op in ops {
        match *op {
            RegOp::SetPos { dst } => regs[dst as usize] = pos,
            RegOp::Copy { dst, src } => regs[dst as usize] = regs[src as usize],
        }
    }
}

/// Turns a parallel assignment into a sequence with the same effect:
/// identity copies dropped, each copy emitted once no pending copy still
/// reads its destination, a cycle of copies broken through `scratch`, and
/// position stores last (they read no register). Returns whether `scratch`
/// was used.
fn sequential(list: &[RegOp], scratch: u32) -> (Vec<RegOp>, bool) {
    let mut copies: Vec<(u32, u32)> = list
        .iter()
        .filter_map(|op| match *op {
            RegOp::Copy { dst, src } if dst != src => Some((dst, src)),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    let mut used = false;
    while !copies.is_empty() {
        match copies
            .iter()
            .position(|&(d, _)| !copies.iter().any(|&(_, s)| s == d))
        {
            Some(i) => {
                let (dst, src) = copies.remove(i);
                out.push(RegOp::Copy { dst, src });
            }
            None => {
                // Every destination is still read: save one, read it from
                // the scratch register instead.
                let (d, _) = copies[0];
                out.push(RegOp::Copy { dst: scratch, src: d });
                used = true;
                for c in copies.iter_mut() {
                    if c.1 == d {
                        c.1 = scratch;
                    }
                }
            }
        }
    }
    out.extend(
        list.iter()
            .filter(|op| matches!(op, RegOp::SetPos { .. }))
            .copied(),
    );
    (out, used)
}

/// The state a byte-consuming NFA state moves to on `byte`.
fn step(state: &State, byte: u8) -> Option<StateID> {
    match state {
        State::ByteRange { trans } => trans.matches_byte(byte).then_some(trans.next),
        State::Sparse(s) => s.matches_byte(byte),
        State::Dense(d) => d.matches_byte(byte),
        _ => None,
    }
}

impl Builder<'_> {
    fn intern(&mut self, key: Key) -> Result<u32, TaggedError> {
        if let Some(&id) = self.map.get(&key) {
            return Ok(id);
        }
        if self.states.len() >= self.max_states {
            return Err(TaggedError::TooManyStates);
        }
        let id = self.states.len() as u32;
        self.map.insert(key.clone(), id);
        self.states.push(key);
        Ok(id)
    }

    fn op_index(&mut self, list: Vec<RegOp>) -> u32 {
        if let Some(&i) = self.op_lists.get(&list) {
            return i;
        }
        let i = self.op_vec.len() as u32;
        self.op_lists.insert(list.clone(), i);
        self.op_vec.push(list);
        i
    }

    /// Drops the threads that can never give the parse: those after the
    /// shortest run of first threads that accept every nonempty rest of the
    /// input that any thread accepts. The threads that run spawns keep their
    /// priority over those of the threads after it, so whatever follows,
    /// one of them wins. A thread at the match state is kept: it decides the
    /// parse if the input ends here. Grammars that split rather than
    /// validate (RFC 3986 Appendix B) otherwise carry losing threads through
    /// whole parts, and a state for each way they line up.
    fn prune(&mut self, configs: &mut Vec<(StateID, Vec<Val>)>) {
        if self.mode == Registers::Shared {
            return;
        }
        let sids: Vec<StateID> = configs.iter().map(|(sid, _)| *sid).collect();
        let nfa = self.nfa;
        // Covering is monotone in the number of first threads taken: if all
        // but the last do not cover, no fewer do.
        if sids.len() < 2 || !self.covers(&sids[..sids.len() - 1], &sids) {
            return;
        }
        let (mut lo, mut hi) = (1, sids.len() - 1);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.covers(&sids[..mid], &sids) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        let mut k = 0;
        configs.retain(|(sid, _)| {
            k += 1;
            k <= lo || matches!(nfa.state(*sid), State::Match { .. })
        });
    }

    /// Whether threads at NFA states `first` accept every nonempty string
    /// that threads at `all` accept: a walk over pairs of state sets, one
    /// byte class at a time, up to a small limit (beyond it, the answer is
    /// no, and nothing is pruned).
    fn covers(&mut self, first: &[StateID], all: &[StateID]) -> bool {
        let norm = |s: &[StateID]| {
            let mut v = s.to_vec();
            v.sort();
            v.dedup();
            v
        };
        let key = (norm(first), norm(all));
        if key.0 == key.1 {
            return true;
        }
        if let Some(&u) = self.covered.get(&key) {
            return u;
        }
        const LIMIT: usize = 256;
        let nfa = self.nfa;
        let close = |from: Vec<StateID>| -> Option<Vec<StateID>> {
            let mut out = Vec::new();
            let mut stack = from;
            while let Some(s) = stack.pop() {
                if out.contains(&s) {
                    continue;
                }
                out.push(s);
                match nfa.state(s) {
                    State::Union { alternates } => stack.extend(alternates.iter().copied()),
                    State::BinaryUnion { alt1, alt2 } => stack.extend([*alt1, *alt2]),
                    State::Capture { next, .. } => stack.push(*next),
                    State::Look { .. } => return None,
                    _ => {}
                }
            }
            out.sort();
            Some(out)
        };
        let accepts = |set: &[StateID]| set.iter().any(|&s| matches!(nfa.state(s), State::Match { .. }));
        let reps: Vec<u8> = nfa
            .byte_classes()
            .representatives(..)
            .filter_map(|u| u.as_u8())
            .collect();
        let mut seen = vec![key.clone()];
        let mut todo = vec![key.clone()];
        let mut covers = true;
        'pairs: while let Some((p, a)) = todo.pop() {
            for &byte in &reps {
                let Some(a2) = close(a.iter().filter_map(|&s| step(nfa.state(s), byte)).collect()) else {
                    covers = false;
                    break 'pairs;
                };
                if a2.is_empty() {
                    continue;
                }
                let Some(p2) = close(p.iter().filter_map(|&s| step(nfa.state(s), byte)).collect()) else {
                    covers = false;
                    break 'pairs;
                };
                if p2.is_empty() || (accepts(&a2) && !accepts(&p2)) {
                    covers = false;
                    break 'pairs;
                }
                // The first threads may have spawned threads at every
                // state the others reach: then they accept all the others do.
                if a2.iter().all(|s| p2.contains(s)) {
                    continue;
                }
                let pair = (p2, a2);
                if !seen.contains(&pair) {
                    if seen.len() >= LIMIT {
                        covers = false;
                        break 'pairs;
                    }
                    seen.push(pair.clone());
                    todo.push(pair);
                }
            }
        }
        self.covered.insert(key, covers);
        covers
    }

    /// Adds the epsilon closure of `sid` to `out` in priority order (a
    /// depth-first walk that takes alternatives in order). `seen` holds every
    /// NFA state reached in this step, as in a PikeVM: the first thread to
    /// reach a state wins it, and epsilon loops end.
    fn closure(
        &self,
        sid: StateID,
        vals: Vec<Val>,
        out: &mut Vec<(StateID, Vec<Val>)>,
        seen: &mut HashSet<StateID>,
    ) -> Result<(), TaggedError> {
        let mut stack = vec![(sid, vals)];
        while let Some((sid, mut vals)) = stack.pop() {
            if !seen.insert(sid) {
                continue;
            }
            match self.nfa.state(sid) {
                State::ByteRange { .. } | State::Sparse(_) | State::Dense(_) | State::Match { .. } => {
                    out.push((sid, vals));
                }
                State::Union { alternates } => {
                    for &alt in alternates.iter().rev() {
                        stack.push((alt, vals.clone()));
                    }
                }
                State::BinaryUnion { alt1, alt2 } => {
                    stack.push((*alt2, vals.clone()));
                    stack.push((*alt1, vals));
                }
                State::Capture { next, slot, .. } => {
                    // Group 0 is the whole match, whose span the caller
                    // knows; tracking its end would cost an operation on
                    // every byte after which the input could end.
                    if slot.as_usize() >= 2 {
                        vals[slot.as_usize()] = Val::Pending;
                    }
                    stack.push((*next, vals));
                }
                State::Fail => {}
                State::Look { .. } => return Err(TaggedError::LookAround),
            }
        }
        Ok(())
    }

    /// Numbers registers by first appearance; returns the state key and the
    /// operations that fill the new registers.
    fn canonical(&mut self, configs: &[(StateID, Vec<Val>)]) -> (Key, Vec<RegOp>) {
        if self.mode == Registers::PerTag {
            return self.canonical_per_tag(configs);
        }
        let mut number: HashMap<Val, u32> = HashMap::default();
        let mut ops = Vec::new();
        let mut sids = Vec::with_capacity(configs.len());
        let mut regs = Vec::with_capacity(configs.len() * self.tags);
        for (sid, vals) in configs {
            sids.push(*sid);
            for &v in vals {
                match v {
                    Val::Unset => {
                        regs.push(UNSET);
                        continue;
                    }
                    Val::Pending => {
                        regs.push(PENDING);
                        continue;
                    }
                    Val::Prev | Val::Old(_) => {}
                }
                let next = number.len() as u32;
                let r = *number.entry(v).or_insert_with(|| {
                    ops.push(match v {
                        Val::Prev => RegOp::SetPos { dst: next },
                        Val::Old(src) => RegOp::Copy { dst: next, src },
                        Val::Unset | Val::Pending => unreachable!("not stored in registers"),
                    });
                    next
                });
                regs.push(r);
            }
        }
        self.registers = self.registers.max(number.len());
        (Key { sids, regs }, ops)
    }

    /// [`Registers::PerTag`]: a register per tag and distinct value, unset
    /// tags included (a copy of the register that holds "unset"); tag `t`'s
    /// first value in priority order takes register `t - 2`, further values
    /// the registers after the last tag's. Group 0 is never tracked.
    fn canonical_per_tag(&mut self, configs: &[(StateID, Vec<Val>)]) -> (Key, Vec<RegOp>) {
        let mut ops = Vec::new();
        let mut sids = Vec::with_capacity(configs.len());
        let mut regs = Vec::with_capacity(configs.len() * self.tags);
        let mut number: HashMap<(usize, Val), u32> = HashMap::default();
        // The first value of tag `t` (in priority order) lives in register
        // `t - 2` in every state, so that a loop that keeps its threads in
        // order needs no copies; other values take the registers after those.
        let tracked = self.tags.saturating_sub(2) as u32;
        let mut first = vec![false; self.tags];
        let mut extra = 0u32;
        for (sid, vals) in configs {
            sids.push(*sid);
            for (t, &v) in vals.iter().enumerate() {
                if t < 2 {
                    regs.push(UNSET);
                    continue;
                }
                if v == Val::Pending {
                    regs.push(PENDING);
                    continue;
                }
                let r = *number.entry((t, v)).or_insert_with(|| {
                    let next = if !first[t] {
                        first[t] = true;
                        t as u32 - 2
                    } else {
                        extra += 1;
                        tracked + extra - 1
                    };
                    ops.push(match v {
                        Val::Unset => RegOp::Copy {
                            dst: next,
                            src: NONE_PLACEHOLDER,
                        },
                        Val::Prev => RegOp::SetPos { dst: next },
                        Val::Old(src) => RegOp::Copy { dst: next, src },
                        Val::Pending => unreachable!("not stored in registers"),
                    });
                    next
                });
                regs.push(r);
            }
        }
        self.registers = self.registers.max((tracked + extra) as usize);
        (Key { sids, regs }, ops)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_automata::nfa::thompson::{self, WhichCaptures};

    fn tdfa(pattern: &str) -> TaggedDfa {
        let nfa = thompson::Compiler::new()
            .configure(thompson::Config::new().which_captures(WhichCaptures::All))
            .build(pattern)
            .unwrap();
        TaggedDfa::build(&nfa).unwrap()
    }

    /// Group `g`'s span.
    fn group(tags: &[Option<usize>], g: usize) -> Option<(usize, usize)> {
        Some((tags[2 * g]?, tags[2 * g + 1]?))
    }

    #[test]
    fn leftmost_first_priority() {
        // Perl picks `a` for group 1, then `b` for group 2.
        let d = tdfa("(a|ab)(b?)");
        let t = d.run(b"ab").unwrap();
        assert_eq!(group(&t, 1), Some((0, 1)));
        assert_eq!(group(&t, 2), Some((1, 2)));
        // Greedy repetition takes as much as it can.
        let d = tdfa("(a*)(a*)");
        let t = d.run(b"aaa").unwrap();
        assert_eq!(group(&t, 1), Some((0, 3)));
        assert_eq!(group(&t, 2), Some((3, 3)));
        // An optional group that is absent stays unset.
        let d = tdfa("(?:(x)@)?(y+)");
        let t = d.run(b"yy").unwrap();
        assert_eq!(group(&t, 1), None);
        assert_eq!(group(&t, 2), Some((0, 2)));
        assert_eq!(d.run(b"x@y").unwrap()[2..6], [Some(0), Some(1), Some(2), Some(3)]);
    }

    #[test]
    fn failure_offsets() {
        let d = tdfa("(ab)c");
        assert_eq!(d.run(b"ax"), Err(1));
        assert_eq!(d.run(b"ab"), Err(2));
    }

    #[test]
    fn last_iteration_of_a_repetition() {
        let d = tdfa("(?:/([a-z]*))*");
        let t = d.run(b"/ab/c/").unwrap();
        assert_eq!(group(&t, 1), Some((6, 6)));
    }
}

/// The forms of the tagged DFA that the generator may choose (per-tag
/// registers with pruning, UTF-8 trusting, two-byte steps) against the
/// plain one, on every string up to a length over a small alphabet, and on
/// strings with multi-byte characters.
#[cfg(test)]
mod forms {
    use super::*;
    use regex_automata::nfa::thompson::{self, WhichCaptures};

    /// Appendix B of RFC 3986, with its authority split (as in
    /// `specs/rfc3986_appendix_b.abnf`), and patterns with the ambiguities
    /// that need copies between registers.
    const PATTERNS: &[&str] = &[
        r"(?s)(?:([^:/?#]+):)?(?://(?:([^/?#@]*)@)?(\[[^/?#\]]*\]|[^:/?#@]*)(?::([0-9]*))?)?([^?#]*)(?:\?([^#]*))?(?:#(.*))?",
        r"(a|ab)(b?)",
        r"(?:(x)@)?(y+)",
        r"(?:/([a-z]*))*",
        r"([^:]*):(é*)|(.*)",
        r"(?:([a-zé]+):)?((?:[a-z/é]|:)*)",
    ];

    fn build(pattern: &str, mode: Registers) -> TaggedDfa {
        let nfa = thompson::Compiler::new()
            .configure(thompson::Config::new().which_captures(WhichCaptures::All))
            .build(pattern)
            .unwrap();
        let mut d = TaggedDfa::build_with(&nfa, mode).unwrap();
        d.minimize();
        d.merge_classes();
        d
    }

    /// Every string over `alphabet` of at most `n` characters.
    fn strings(alphabet: &[&str], n: usize) -> Vec<String> {
        let mut all = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..n {
            last = last
                .iter()
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    fn inputs() -> Vec<String> {
        let mut v = strings(&["a", ":", "/", "?", "#", "@", "[", "]", "1"], 4);
        v.extend(strings(&["é", "a", ":", "/", "😀"], 4));
        v.extend(
            [
                "http://user:pw@[::1]:80/a/b?q=1#f",
                "//é@例え.jp:8080/引き/x?é#é",
                "mailto:a@b",
                "a:b:c/d",
                "///",
                "[v1.x]",
            ]
            .map(String::from),
        );
        v
    }

    #[test]
    fn per_tag_registers_give_the_same_tags() {
        for p in PATTERNS {
            let shared = build(p, Registers::Shared);
            let per_tag = build(p, Registers::PerTag);
            for input in inputs() {
                assert_eq!(
                    per_tag.run(input.as_bytes()),
                    shared.run(input.as_bytes()),
                    "{p} on {input:?}"
                );
            }
        }
    }

    #[test]
    fn pruning_keeps_the_splitter_small() {
        let shared = build(PATTERNS[0], Registers::Shared);
        let per_tag = build(PATTERNS[0], Registers::PerTag);
        // Losing threads and presence combinations make hundreds of states.
        assert!(shared.states() > 300, "{}", shared.states());
        assert!(
            per_tag.states() * 4 < shared.states(),
            "{} {}",
            per_tag.states(),
            shared.states()
        );
    }

    #[test]
    fn trusting_utf8_changes_nothing_on_utf8() {
        for p in PATTERNS {
            for mode in [Registers::Shared, Registers::PerTag] {
                let plain = build(p, mode);
                let mut trusting = plain.clone();
                trusting.trust_utf8();
                trusting.minimize();
                trusting.merge_classes();
                for input in inputs() {
                    assert_eq!(
                        trusting.run(input.as_bytes()),
                        plain.run(input.as_bytes()),
                        "{p} ({mode:?}) on {input:?}"
                    );
                }
            }
        }
        // The splitter's loops take non-ASCII characters whole: all bytes
        // from 0x80 up end in one class, and the chains of states that
        // check encodings are gone.
        let mut d = build(PATTERNS[0], Registers::PerTag);
        let before = d.states();
        assert!(d.trust_utf8());
        d.minimize();
        d.merge_classes();
        assert!(d.utf8_only);
        assert!(d.states() * 2 < before, "{} {before}", d.states());
        assert!((0x80..=0xFF).all(|b| d.classes[b] == d.classes[0x80]));
    }

    #[test]
    fn a_state_inside_a_character_keeps_its_transitions() {
        // After `é`'s first byte the DFA is inside a character: bytes from
        // 0xC0 up lead nowhere there, which must not make it send every
        // byte from 0x80 up nowhere.
        let plain = build("(é)(a)", Registers::Shared);
        let mut trusting = plain.clone();
        trusting.trust_utf8();
        assert_eq!(trusting.run("éa".as_bytes()), plain.run("éa".as_bytes()));
        assert!(trusting.run("éa".as_bytes()).is_ok());
    }

    /// A walk over [`TaggedDfa::to_pair_words`]'s tables, as the runtime
    /// does it: two bytes a step, an odd last byte one step.
    fn run_pairs(
        d: &TaggedDfa,
        (words, lists): &(Vec<u32>, u32),
        input: &[u8],
    ) -> Result<Vec<Option<usize>>, ()> {
        let lists = *lists;
        let (a, cells) = (d.alphabet, d.states() * d.alphabet * d.alphabet);
        let mut regs = vec![usize::MAX; MAX_REGISTERS];
        apply(&d.start_ops, &mut regs, 0);
        let mut s = d.start as usize * a * a;
        for (k, p) in input.chunks_exact(2).enumerate() {
            let c = d.classes[p[0] as usize] as usize * a + d.classes[p[1] as usize] as usize;
            let f = words[cells + s + c] as usize;
            let pos = 2 * k;
            match f {
                0 => {}
                f if f <= MAX_REGISTERS => regs[f - 1] = pos,
                f if f < FIRST_PAIR_LIST as usize => regs[f - 1 - MAX_REGISTERS] = pos + 1,
                f => {
                    let l = lists as usize + f - FIRST_PAIR_LIST as usize;
                    for &w in &words[words[l] as usize..words[l + 1] as usize] {
                        if w & 1 << 31 != 0 {
                            regs[(w & !(3 << 30)) as usize] = pos + (w >> 30 & 1) as usize;
                        } else {
                            regs[(w >> 16) as usize] = regs[(w & 0xFFFF) as usize];
                        }
                    }
                }
            }
            s = words[s + c] as usize;
        }
        let mut s = s / (a * a);
        if input.len() % 2 == 1 {
            let t = s * a + d.classes[input[input.len() - 1] as usize] as usize;
            apply(&d.op_lists[d.ops[t] as usize], &mut regs, input.len() - 1);
            s = d.next[t] as usize;
        }
        let map = d.finals[s].as_ref().ok_or(())?;
        Ok(map
            .iter()
            .map(|&r| match r {
                UNSET => None,
                PENDING => Some(input.len()),
                r => Some(regs[r as usize]).filter(|&v| v != usize::MAX),
            })
            .collect())
    }

    #[test]
    fn two_byte_steps_give_the_same_tags() {
        for p in PATTERNS {
            for mode in [Registers::Shared, Registers::PerTag] {
                let d = build(p, mode);
                let pairs = d.to_pair_words(usize::MAX).unwrap();
                for input in inputs() {
                    assert_eq!(
                        run_pairs(&d, &pairs, input.as_bytes()),
                        d.run(input.as_bytes()).map_err(|_| ()),
                        "{p} ({mode:?}) on {input:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn two_byte_steps_stay_within_their_budget() {
        let d = build(PATTERNS[0], Registers::Shared);
        let cells = d.states() * d.alphabet * d.alphabet;
        assert!(d.to_pair_words(8 * cells - 1).is_none());
        assert!(d.to_pair_words(8 * cells).is_some());
    }
}
