//! Rules that need a stack: a network of rule automata joined by calls.
//!
//! A rule whose recursion no DFA can hold (`value` in JSON, `comment` in
//! RFC 5322), or whose DFA would be too large, is compiled by `abnf-codegen`
//! into a *recursive transition network*: one DFA per such "boundary" rule,
//! over bytes and over calls to other boundary rules. Every rule that is
//! regular is inlined into the boundary rule that uses it, so the bytes
//! between calls are walked as in any DFA.
//!
//! Two engines walk a network, and the generator picks one per network
//! ([`Network::is_deterministic`]):
//!
//! - **The deterministic walk.** Where the next byte (or the end of the
//!   input) decides every call and return (the network is ELL(1): brackets,
//!   parentheses, quotes), the generator writes an action table, one entry
//!   per state and byte class: shift to a state, call a rule (push the
//!   return state), tail-call a rule (push nothing), or return (pop). The
//!   walk is one table step per byte, with an explicit stack, but for runs.
//!   With vectors, and where the table has a *quoted loop set* (a loop set
//!   whose states one byte enters from outside and leaves: JSON's strings),
//!   it runs in two stages, as simdjson does. Stage 1 classifies each
//!   64-byte block once: where the strings are (the quote byte, escapes
//!   counted with the odd-backslash rule, a prefix xor), which bytes in
//!   them the loop set skips (its bytes, whole UTF-8 characters, two-byte
//!   escapes and long ones such as `\uFFFF`, all found in the table), and
//!   the runs of the two self-loop sets most states have (white space,
//!   digits). Every other byte is an *event*. Stage 2 steps at events only,
//!   with a copy of the table whose calls already take the callee's first
//!   shift, and skips the bytes between two events after checking that
//!   the walk's state loops on all of them (one bit of the table entry
//!   it reads anyway); where it does not, it steps them. So stage 1 only
//!   decides what is fast: a wrong guess costs steps, never a wrong answer.
//!   Without a quoted loop set (or without vectors), a state's run of
//!   bytes that shift it to itself is scanned with a fixed row, and the run
//!   of a state with a loop set is skipped with the bitmasks of its
//!   64-byte block ([`crate::simd::classify_block`]); what still ends a run
//!   is tried as a short detour of table steps back into it.
//! - **The general walk**, for everything else (ambiguity, left recursion,
//!   lookahead of more than one byte): an Earley recognizer whose items are
//!   rule-automaton states with the position where their rule was called
//!   (Jim and Mandelbaum's Earley parsing with regular right-hand sides).
//!   It accepts every context-free grammar and stops with
//!   [`ErrorKind::TooComplex`] past a work bound.
//!
//! Neither recurses on the input: stack use is fixed, and nesting deeper than
//! the limit ([`Limits::depth`]) ends in [`ErrorKind::TooDeep`] at the offset
//! where the limit was passed.
//!
//! The table format is [`crate::wire::Kind::Network`].

use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use once_cell::race::OnceBox;

use crate::recognizer::ErrorKind;
use crate::wire::{self, Kind, WireError};
use crate::{ByteSet, MatchError};

mod indexed;

/// The action kinds of the deterministic walk's table (the low
/// [`action::BITS`] bits of an entry; the rest is the payload), as the
/// generator writes them.
pub mod action {
    /// No action: the input does not match.
    pub const ERROR: u32 = 0;
    /// Consume the byte; the payload is the next state's row (premultiplied).
    pub const SHIFT: u32 = 1;
    /// Push the return state of call edge `payload`, go to the callee's start.
    pub const CALL: u32 = 2;
    /// Go to the callee's start of call edge `payload`, pushing nothing (the
    /// return state would only return).
    pub const TAIL: u32 = 3;
    /// Pop the return state (or, with an empty stack, accept at the end).
    pub const RETURN: u32 = 4;
    /// [`SHIFT`] into a state that loops on a run of bytes: the walk skips
    /// the run with a vector search of the state's loop set.
    pub const SHIFT_LOOP: u32 = 5;
    /// Bits of the kind.
    pub const BITS: u32 = 3;
}

/// Limits of one walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// How many rule calls may be open at once (the nesting depth).
    pub depth: usize,
    /// How many items the general walk may create, in all (its work and
    /// memory are proportional to it); the deterministic walk needs none.
    pub items: usize,
}

impl Limits {
    /// 1,024 open calls and 2^26 items (about 800 MB of items at most).
    pub const DEFAULT: Limits = Limits {
        depth: 1024,
        items: 1 << 26,
    };
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}

/// A call in a derivation ([`Network::derive`]): rule `rule` (an index into
/// the network's rules) matched `input[start..end]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Call {
    /// The callee.
    pub rule: u32,
    /// Where its match starts.
    pub start: usize,
    /// Where its match ends.
    pub end: usize,
}

/// Why a walk did not match, where, and what could have continued it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The byte offset where no match was possible any more (the input's
    /// length if it ended too early), or where the limit was passed.
    pub offset: usize,
    /// What went wrong.
    pub kind: ErrorKind,
    /// Bytes that could have continued a match at `offset`.
    pub expected: ByteSet,
    /// The innermost rule that was open at `offset` (an index into the
    /// network's rules) and the offset where it was called, where known.
    pub open: Option<(u32, usize)>,
}

impl Failure {
    /// The general walk's work bound was reached at `offset`.
    fn too_complex(offset: usize) -> Failure {
        Failure {
            offset,
            kind: ErrorKind::TooComplex,
            expected: ByteSet::EMPTY,
            open: None,
        }
    }
}

/// A network of rule automata, read from a generated table.
#[derive(Clone, Copy)]
pub struct Network<'a> {
    classes: [u8; 256],
    alphabet: usize,
    states: usize,
    /// `trans[state * alphabet + class]`: the next state (0: dead).
    trans: &'a [u32],
    /// Per state: bit 0 accepting, the rest the state's rule.
    info: &'a [u32],
    /// Per state, the range of its call edges in `calls` (`states + 1`).
    call_start: &'a [u32],
    /// Call edges: (callee rule, return state) pairs.
    calls: &'a [u32],
    /// Per rule, its start state.
    starts: &'a [u32],
    /// The deterministic walk's actions, `states × (alphabet + 1)` (the last
    /// column is the end of the input), or empty.
    actions: &'a [u32],
    /// Per state, the index plus one of its loop set (0: none), or empty.
    loop_of: &'a [u32],
    /// The loop sets' records ([`crate::simd::LoopSet::to_record`]).
    loops: &'a [u8],
}

const fn take(words: &[u32], n: usize) -> Result<(&[u32], &[u32]), WireError> {
    if words.len() < n {
        return Err(WireError::Truncated);
    }
    Ok(words.split_at(n))
}

impl<'a> Network<'a> {
    /// # Safety
    ///
    /// `bytes` must start at a 4-byte boundary.
    const unsafe fn decode(bytes: &'a [u8]) -> Result<Network<'a>, WireError> {
        let (h, rest) = match wire::read_header(bytes, Kind::Network) {
            Ok(x) => x,
            Err(e) => return Err(e),
        };
        if h.width != 4 {
            return Err(WireError::Width);
        }
        let [alphabet, states, rules, call_words, action_words, loops, ..] = h.params;
        let (alphabet, states) = (alphabet as usize, states as usize);
        let (classes, rest) = match wire::read_classes(rest) {
            Ok(x) => x,
            Err(e) => return Err(e),
        };
        // SAFETY: the header (64 bytes) and the class map (256 bytes) keep
        // the caller's 4-byte alignment.
        let words = unsafe { wire::as_u32s(rest) };
        let (trans, words) = match take(words, states * alphabet) {
            Ok(x) => x,
            Err(e) => return Err(e),
        };
        let (info, words) = match take(words, states) {
            Ok(x) => x,
            Err(e) => return Err(e),
        };
        let (call_start, words) = match take(words, states + 1) {
            Ok(x) => x,
            Err(e) => return Err(e),
        };
        let (calls, words) = match take(words, call_words as usize) {
            Ok(x) => x,
            Err(e) => return Err(e),
        };
        let (starts, words) = match take(words, rules as usize) {
            Ok(x) => x,
            Err(e) => return Err(e),
        };
        let (actions, words) = match take(words, action_words as usize) {
            Ok(x) => x,
            Err(e) => return Err(e),
        };
        let (loop_of, words) = match take(words, if loops == 0 { 0 } else { states }) {
            Ok(x) => x,
            Err(e) => return Err(e),
        };
        // SAFETY: `words` are whole `u32`s of the caller's bytes, so their
        // bytes are in bounds and initialized; the slice borrows the input.
        let rest = unsafe { core::slice::from_raw_parts(words.as_ptr().cast::<u8>(), words.len() * 4) };
        let loop_bytes = loops as usize * crate::simd::LOOP_SET_BYTES;
        if rest.len() < loop_bytes {
            return Err(WireError::Truncated);
        }
        let (loops, _) = rest.split_at(loop_bytes);
        Ok(Network {
            classes,
            alphabet,
            states,
            trans,
            info,
            call_start,
            calls,
            starts,
            actions,
            loop_of,
            loops,
        })
    }

    /// Whether the generator found the network deterministic (the next
    /// byte decides every call and return), so that it is walked with one
    /// table step per byte; else the general walk runs.
    pub fn is_deterministic(&self) -> bool {
        !self.actions.is_empty()
    }

    /// How many rules (boundary rules) the network has.
    pub fn rules(&self) -> usize {
        self.starts.len()
    }

    /// How many states the rule automata have together (the dead state
    /// included).
    pub fn states(&self) -> usize {
        self.states
    }

    /// Whether all of `input` matches rule `rule` (an index into the
    /// network's rules), walking with the engine the generator chose.
    ///
    /// # Panics
    ///
    /// If `rule` is not a rule of the network.
    pub fn full_match(&self, rule: usize, input: &[u8], limits: Limits) -> Result<(), Failure> {
        if self.is_deterministic() {
            self.walk_deterministic(rule, input, limits)
        } else {
            self.walk_general(rule, input, limits)
        }
    }

    fn rule_of(&self, state: usize) -> u32 {
        self.info[state] >> 1
    }

    fn accepts(&self, state: usize) -> bool {
        self.info[state] & 1 == 1
    }

    fn call_edges(&self, state: usize) -> impl Iterator<Item = (u32, u32)> + 'a {
        let (a, b) = (
            self.call_start[state] as usize,
            self.call_start[state + 1] as usize,
        );
        let calls = self.calls;
        (a..b).map(move |i| (calls[2 * i], calls[2 * i + 1]))
    }

    /// The bytes with a transition out of `state` (calls not followed).
    fn bytes_out(&self, state: usize, out: &mut ByteSet) {
        let row = state * self.alphabet;
        *out = out.union(&ByteSet::of_classes(&self.classes, self.alphabet, |c| {
            self.trans[row + c] != 0
        }));
    }

    /// The deterministic walk: one action per byte (calls and returns
    /// re-read the same byte), with an explicit stack of return rows and the
    /// offsets where their calls were made. Where the network has a quoted
    /// loop set (JSON's strings) and the CPU has vectors, the walk steps
    /// only at the events of a structural index that stage 1 builds a
    /// 64-byte block at a time (simdjson's two stages, described in the
    /// module's documentation); else it is
    /// [`Network::walk_table`]. Both give the same answer and
    /// the same [`Failure`].
    ///
    /// This reads the action table for what the walk needs ([`Network::loop_pairs`],
    /// the structural index's sets) at each call; [`NetworkRecognizer`]
    /// does it once.
    pub fn walk_deterministic(&self, rule: usize, input: &[u8], limits: Limits) -> Result<(), Failure> {
        self.walk_planned(rule, input, limits, &self.plan())
    }

    /// What the deterministic walk reads from the action table before it
    /// walks, for many walks.
    pub fn plan(&self) -> Plan {
        let pairs = self.loop_pairs();
        let index = indexed::Index::of(self, &pairs);
        Plan { pairs, index }
    }

    /// [`Network::walk_deterministic`] with its [`Network::plan`] read
    /// already: over stage 1's structural index where the network has a
    /// quoted loop set and the CPU has vectors, else with the table alone
    /// ([`Network::walk_table`]).
    pub fn walk_planned(
        &self,
        rule: usize,
        input: &[u8],
        limits: Limits,
        plan: &Plan,
    ) -> Result<(), Failure> {
        match &plan.index {
            Some(index) if crate::simd::Level::detected() > crate::simd::Level::Scalar => {
                self.walk_indexed(rule, input, limits, index)
            }
            _ => self.walk_table(rule, input, limits, &plan.pairs),
        }
    }

    /// The two-byte escapes of each loop set's state, found in the action
    /// table: the bytes `x` of a class outside the set that shifts to a
    /// state from which the bytes `e` of a set shift straight back (by the
    /// same action that enters the looping state), so that `x e` loops;
    /// the class with the most such `e` (ASCII bytes only), if any. Runs skip them with the
    /// block's masks ([`crate::simd::BlockMasks::with_pairs`]) instead of
    /// table steps.
    pub fn loop_pairs(&self) -> Vec<Option<(crate::simd::NibbleSet, crate::simd::NibbleSet)>> {
        use crate::simd::NibbleSet;
        const KIND: u32 = (1 << action::BITS) - 1;
        let width = self.alphabet + 1;
        let sets = self.loops.len() / crate::simd::LOOP_SET_BYTES;
        let mut out = vec![None; sets];
        let mut seen = vec![false; sets];
        if sets == 0 {
            return out;
        }
        // The ASCII bytes of each class, as sets (one allocation).
        let union = |a: NibbleSet, b: NibbleSet| {
            NibbleSet((u128::from_ne_bytes(a.0) | u128::from_ne_bytes(b.0)).to_ne_bytes())
        };
        let count = |a: &NibbleSet| u128::from_ne_bytes(a.0).count_ones();
        let mut members = vec![NibbleSet([0; 16]); self.alphabet];
        for b in 0..0x80u8 {
            let c = self.classes[b as usize] as usize;
            members[c] = union(members[c], NibbleSet::of(&[b]));
        }
        for (state, &k) in self.loop_of.iter().enumerate() {
            if k == 0 || k as usize > sets {
                continue;
            }
            let row = state * width;
            let enter = (row as u32) << action::BITS | action::SHIFT_LOOP;
            let mut found: Option<(NibbleSet, NibbleSet)> = None;
            for (c, xs) in members.iter().enumerate() {
                let a = self.actions[row + c];
                let p = (a >> action::BITS) as usize;
                if xs.is_empty() || a & KIND != action::SHIFT || p == row {
                    continue;
                }
                let next = (0..self.alphabet)
                    .filter(|&e| self.actions[p + e] == enter)
                    .fold(NibbleSet([0; 16]), |n, e| union(n, members[e]));
                if !next.is_empty() && found.as_ref().is_none_or(|(_, b)| count(&next) > count(b)) {
                    found = Some((*xs, next));
                }
            }
            // States that share a loop set keep its escapes only if they
            // all have the same.
            match seen[k as usize - 1] {
                false => out[k as usize - 1] = found,
                true if out[k as usize - 1] != found => out[k as usize - 1] = None,
                true => {}
            }
            seen[k as usize - 1] = true;
        }
        out
    }

    /// The deterministic walk with the action table alone, and the loop
    /// sets' two-byte escapes ([`Network::loop_pairs`]) found already:
    /// what [`Network::walk_deterministic`] runs without a structural
    /// index (and without vectors). Shifts run in a tight loop; a shift of
    /// a state to itself scans the rest of its run with the same row (the
    /// lookups of a run do not depend on each other, so they overlap, where
    /// the steps of a walk wait for each other). A shift into a state with
    /// a loop set skips its run with the bitmasks of the run's 64-byte
    /// block ([`crate::simd::classify_block`]), classified once for all
    /// the runs of that set in the block; where a run stops, up to 8 table
    /// steps that come back into the state (an escape, a character) let it
    /// go on.
    pub fn walk_table(
        &self,
        rule: usize,
        input: &[u8],
        limits: Limits,
        pairs: &[Option<(crate::simd::NibbleSet, crate::simd::NibbleSet)>],
    ) -> Result<(), Failure> {
        const KIND: u32 = (1 << action::BITS) - 1;
        let width = self.alphabet + 1;
        let actions = self.actions;
        let classes = &self.classes;
        // `row / width` for the rows of the table (multiples of `width`
        // below 2^32), with a multiplication: the state of a row.
        let inverse = u64::MAX / width as u64 + 1;
        let state_of = |row: usize| ((row as u128 * u128::from(inverse)) >> 64) as usize;
        let mut blocks = Blocks::new(pairs);
        // The last shift into a looping state, and its loop set's index
        // plus one.
        let mut last_loop = (action::ERROR, 0);
        let mut row = self.starts[rule] as usize * width;
        let mut stack: Vec<(u32, usize)> = Vec::new();
        let mut i = 0;
        loop {
            let a = loop {
                let Some(&b) = input.get(i) else {
                    break actions[row + self.alphabet];
                };
                let a = actions[row + classes[b as usize] as usize];
                let next = (a >> action::BITS) as usize;
                if a & KIND == action::SHIFT {
                    i += 1;
                    if next == row {
                        while i < input.len() && actions[row + classes[input[i] as usize] as usize] == a {
                            i += 1;
                        }
                    }
                    row = next;
                } else if a & KIND == action::SHIFT_LOOP {
                    row = next;
                    i += 1;
                    if a != last_loop.0 {
                        last_loop = (a, self.loop_of[state_of(row)] as usize);
                    }
                    if last_loop.1 > 0 {
                        i = blocks.skip(self, row, a, last_loop.1 - 1, input, i);
                    }
                } else {
                    break a;
                }
            };
            let payload = (a >> action::BITS) as usize;
            match a & KIND {
                action::CALL => {
                    if stack.len() >= limits.depth {
                        return Err(self.failure_det(i, row / width, ErrorKind::TooDeep, &stack));
                    }
                    let (callee, ret) = (self.calls[2 * payload], self.calls[2 * payload + 1]);
                    stack.push((ret * width as u32, i));
                    row = self.starts[callee as usize] as usize * width;
                }
                action::TAIL => row = self.starts[self.calls[2 * payload] as usize] as usize * width,
                action::RETURN => match stack.pop() {
                    Some((r, _)) => row = r as usize,
                    None if i == input.len() => return Ok(()),
                    None => return Err(self.failure_det(i, row / width, ErrorKind::Mismatch, &stack)),
                },
                _ => return Err(self.failure_det(i, row / width, ErrorKind::Mismatch, &stack)),
            }
        }
    }

    #[cold]
    fn failure_det(&self, offset: usize, state: usize, kind: ErrorKind, stack: &[(u32, usize)]) -> Failure {
        let width = self.alphabet + 1;
        let expected = match kind {
            ErrorKind::Mismatch => ByteSet::of_classes(&self.classes, self.alphabet, |c| {
                self.actions[state * width + c] != action::ERROR
            }),
            _ => ByteSet::EMPTY,
        };
        Failure {
            offset,
            kind,
            expected,
            open: stack.last().map(|&(_, at)| (self.rule_of(state), at)),
        }
    }

    /// The general walk: Earley sets of (state, origin) items over the rule
    /// automata. Items of one position are kept in one vector, with the
    /// callers waiting on each position's calls beside them.
    pub fn walk_general(&self, rule: usize, input: &[u8], limits: Limits) -> Result<(), Failure> {
        self.chart(rule, input, limits).map(|_| ())
    }

    /// The calls that rule `rule`'s own automaton makes in one derivation
    /// of all of `input` (the calls at depth one, in input order, with
    /// offsets into `input`; what the callees call is not listed): the
    /// parts of a typed tree that are rules with a stack.
    ///
    /// It runs the general walk and then reads one derivation back from its
    /// Earley sets, from the end of the input to its start, with no
    /// recursion: every item of the sets is the end of some path from its
    /// rule's start, so each backward step finds a predecessor, and steps
    /// that read no input (calls of rules that matched the empty string)
    /// are searched breadth-first so that they cannot cycle. Of the steps
    /// back, a call that ends there is taken before a byte of the rule's
    /// own, and of the calls the one that starts last, so that the parts to
    /// the left keep what they can, as first-match-wins gives them.
    ///
    /// # Panics
    ///
    /// If `rule` is not a rule of the network.
    pub fn derive(&self, rule: usize, input: &[u8], limits: Limits) -> Result<Vec<Call>, Failure> {
        let chart = self.chart(rule, input, limits)?;
        let set = |k: usize| {
            let to = chart.set_start.get(k + 1).copied().unwrap_or(chart.items.len());
            &chart.items[chart.set_start[k]..to]
        };
        let start = self.starts[rule];
        // Items of the derived rule's own instance: origin 0, its states.
        let own = |k: usize, state: u32| {
            set(k)
                .iter()
                .any(|it| it.origin == 0 && it.state == state && self.rule_of(state as usize) == rule as u32)
        };
        let n = input.len();
        let Some(last) = set(n).iter().find(|it| {
            it.origin == 0
                && self.accepts(it.state as usize)
                && self.rule_of(it.state as usize) == rule as u32
        }) else {
            unreachable!("the chart of an accepted input holds its final item")
        };
        let mut calls = Vec::new();
        let (mut q, mut k) = (last.state, n);
        // States reached at position `k` by steps that read nothing, each
        // with the step that reached it: (state, from, call).
        let mut level: Vec<(u32, usize, Option<Call>)> = Vec::new();
        // A call of the whole input (`a = b`, or `s = [ "(" s ")" ] s` read
        // as `s` calling `s`) is taken only when nothing else is: a grammar
        // with such unit cycles has endless derivations, and preferring
        // steps that read input or part of it ends them.
        let mut unit: Option<(usize, u32, Call)>;
        loop {
            unit = None;
            // Breadth-first over the empty steps at `k`, from `q`, to a
            // state with a step that reads input (or the start at 0).
            level.clear();
            level.push((q, usize::MAX, None));
            let mut next: Option<(usize, u32, usize, Option<Call>)> = None;
            let mut at = 0;
            while at < level.len() && next.is_none() {
                let (s, _, _) = level[at];
                if s == start && k == 0 {
                    next = Some((at, s, 0, None));
                    break;
                }
                // A call that ends here, the one that starts last first, then
                // a byte of the rule's own: the parts to the left keep all
                // they can, as first-match-wins gives them (its repetitions
                // take the longest match first), in the common cases (a
                // separator that either side may take goes to the left).
                let mut best: Option<(u32, usize, Call)> = None;
                for done in set(k).iter().filter(|it| self.accepts(it.state as usize)) {
                    let (callee, j) = (self.rule_of(done.state as usize), done.origin as usize);
                    if best.is_some_and(|(_, b, _)| j <= b) && j < k {
                        continue;
                    }
                    let caller = set(j).iter().find(|it| {
                        it.origin == 0
                            && self.rule_of(it.state as usize) == rule as u32
                            && self.call_edges(it.state as usize).any(|e| e == (callee, s))
                    });
                    let Some(p) = caller else { continue };
                    let call = Call {
                        rule: callee,
                        start: j,
                        end: k,
                    };
                    if j == 0 && k == n {
                        unit.get_or_insert((at, p.state, call));
                        continue;
                    }
                    if j < k {
                        best = Some((p.state, j, call));
                        continue;
                    }
                    if !level.iter().any(|&(x, _, _)| x == p.state) {
                        level.push((p.state, at, Some(call)));
                    }
                }
                if let Some((state, j, call)) = best {
                    next = Some((at, state, j, Some(call)));
                    break;
                }
                if k > 0 {
                    let class = self.classes[input[k - 1] as usize];
                    if let Some(p) = set(k - 1).iter().find(|it| {
                        it.origin == 0
                            && self.rule_of(it.state as usize) == rule as u32
                            && self.trans[it.state as usize * self.alphabet + class as usize] == s
                    }) {
                        next = Some((at, p.state, k - 1, None));
                        break;
                    }
                }
                at += 1;
            }
            let next = next.or_else(|| unit.map(|(at, state, call)| (at, state, 0, Some(call))));
            let Some((mut from, state, to, call)) = next else {
                unreachable!("every item of the chart has a predecessor")
            };
            // Backwards: the empty calls from `q` to the state found, then
            // the step before that state.
            let mark = calls.len();
            while from != usize::MAX {
                let (_, parent, call) = level[from];
                calls.extend(call);
                from = parent;
            }
            calls[mark..].reverse();
            calls.extend(call);
            if to == 0 && state == start && call.is_none() && k == 0 {
                break;
            }
            debug_assert!(own(to, state));
            q = state;
            k = to;
        }
        calls.reverse();
        Ok(calls)
    }

    /// The general walk's Earley sets, when all of `input` matches `rule`.
    fn chart(&self, rule: usize, input: &[u8], limits: Limits) -> Result<Chart, Failure> {
        let mut chart = Chart::new(self.states);
        chart.start_set();
        chart.add(Item {
            state: self.starts[rule],
            origin: 0,
            depth: 0,
        });
        let mut too_deep: Option<usize> = None;
        let mut i = 0;
        loop {
            self.close(&mut chart, i, limits, &mut too_deep)?;
            if chart.items.len() > limits.items {
                return Err(Failure::too_complex(i));
            }
            let (from, to) = (chart.set_start[i], chart.items.len());
            let Some(&b) = input.get(i) else {
                let done = chart.items[from..to].iter().any(|it| {
                    it.origin == 0
                        && self.accepts(it.state as usize)
                        && self.rule_of(it.state as usize) == rule as u32
                });
                if done {
                    return Ok(chart);
                }
                return Err(self.failure_general(&chart, i, too_deep));
            };
            let class = self.classes[b as usize] as usize;
            chart.start_set();
            for k in from..to {
                let it = chart.items[k];
                let next = self.trans[it.state as usize * self.alphabet + class];
                if next != 0 {
                    chart.add(Item { state: next, ..it });
                }
            }
            if chart.items.len() == chart.set_start[i + 1] {
                return Err(self.failure_general(&chart, i, too_deep));
            }
            i += 1;
        }
    }

    /// Predicts and completes set `i` to closure.
    fn close(
        &self,
        chart: &mut Chart,
        i: usize,
        limits: Limits,
        too_deep: &mut Option<usize>,
    ) -> Result<(), Failure> {
        let mut k = chart.set_start[i];
        while k < chart.items.len() {
            let it = chart.items[k];
            k += 1;
            let state = it.state as usize;
            for (callee, ret) in self.call_edges(state) {
                chart.waiters.push(Waiter {
                    callee,
                    ret,
                    origin: it.origin,
                    depth: it.depth,
                });
                if it.depth as usize >= limits.depth {
                    too_deep.get_or_insert(i);
                } else {
                    chart.add(Item {
                        state: self.starts[callee as usize],
                        origin: i as u32,
                        depth: it.depth + 1,
                    });
                }
                // The callee may already have matched the empty string here.
                if chart.completed_here(callee) {
                    chart.add(Item {
                        state: ret,
                        origin: it.origin,
                        depth: it.depth,
                    });
                }
            }
            if self.accepts(state) {
                let r = self.rule_of(state);
                let origin = it.origin as usize;
                if origin == i {
                    chart.mark_completed_here(r);
                }
                let (a, b) = (chart.waiter_start[origin], chart.waiter_end(origin));
                let mut w = a;
                while w < b.min(chart.waiters.len()) {
                    let x = chart.waiters[w];
                    w += 1;
                    if x.callee == r {
                        chart.add(Item {
                            state: x.ret,
                            origin: x.origin,
                            depth: x.depth,
                        });
                    }
                }
            }
            if chart.items.len() > limits.items {
                return Err(Failure::too_complex(i));
            }
        }
        Ok(())
    }

    fn failure_general(&self, chart: &Chart, i: usize, too_deep: Option<usize>) -> Failure {
        if let Some(at) = too_deep {
            return Failure {
                offset: at,
                kind: ErrorKind::TooDeep,
                expected: ByteSet::EMPTY,
                open: None,
            };
        }
        let mut expected = ByteSet::EMPTY;
        let (from, to) = (
            chart.set_start[i],
            chart.set_start.get(i + 1).copied().unwrap_or(chart.items.len()),
        );
        let mut open = None;
        for it in &chart.items[from..to] {
            self.bytes_out(it.state as usize, &mut expected);
            if it.origin != 0 || open.is_none() {
                open = Some((self.rule_of(it.state as usize), it.origin as usize));
            }
        }
        Failure {
            offset: i,
            kind: ErrorKind::Mismatch,
            expected,
            open,
        }
    }
}

/// The bitmasks of the 64-byte blocks (aligned to the input's start) that
/// the deterministic walk has classified by a loop set: the last one of
/// each of four sets (by their index modulo 4). A run that starts in a
/// block already classified by its set costs a shift and a trailing-zero
/// count; simdjson's stage 1 keeps its quote masks the same way.
struct Blocks<'p> {
    /// The loop sets' two-byte escapes ([`Network::loop_pairs`]).
    pairs: &'p [Option<(crate::simd::NibbleSet, crate::simd::NibbleSet)>],
    /// Per entry: the block's offset (`usize::MAX`: none), the loop set,
    /// and its classification by the set.
    at: [(usize, usize, crate::simd::BlockMasks); 4],
    /// Whether the CPU (or [`crate::simd::cap_level`]) has no vectors: a
    /// run's bytes are then looked up in the table one by one (the scalar
    /// twin of a block's classification would look at all 64 bytes of a
    /// block for runs of a few).
    scalar: bool,
    /// Actions that started a detour which did not come back to its loop
    /// (the end of a string, say): not tried again, so that a run's usual
    /// end costs one lookup (a guess for speed only: the walk is the same
    /// without it).
    dead_ends: [u32; 4],
    next_dead_end: usize,
}

/// The most table steps a detour from a loop set's run may take to come
/// back to it (an escape as `\uFFFF`, a four-byte character).
const DETOUR: usize = 8;

/// How many detours a run takes before it goes on with the vector search
/// ([`crate::simd::find_outside`]) at an escape or character of its set.
const VECTOR_AFTER: usize = 4;

impl<'p> Blocks<'p> {
    fn new(pairs: &'p [Option<(crate::simd::NibbleSet, crate::simd::NibbleSet)>]) -> Blocks<'p> {
        Blocks {
            pairs,
            scalar: crate::simd::Level::detected() == crate::simd::Level::Scalar,
            at: [(usize::MAX, 0, crate::simd::BlockMasks::NONE); 4],
            dead_ends: [action::ERROR; 4],
            next_dead_end: 0,
        }
    }

    /// Where the run of the looping state at `row` (entered by action
    /// `enter`, with loop set `k`) that starts at `input[i]` ends. Bytes
    /// of the set's single bytes are skipped with the block's bitmask; at
    /// a byte outside them, the walk takes up to [`DETOUR`] table steps,
    /// and if they are shifts that come back into the state (by `enter`),
    /// the run goes on after them (escapes, characters); else it ends at
    /// that byte, where the walk's own steps take over.
    #[inline(always)]
    fn skip(
        &mut self,
        net: &Network<'_>,
        row: usize,
        enter: u32,
        k: usize,
        input: &[u8],
        mut i: usize,
    ) -> usize {
        use crate::simd::LoopSet;
        const KIND: u32 = (1 << action::BITS) - 1;
        let n = input.len();
        let records = net.loops;
        let mut detours = 0;
        loop {
            if self.scalar {
                // One table lookup per byte of the run (no vectors to
                // classify a block with).
                loop {
                    while i < n && net.actions[row + net.classes[input[i] as usize] as usize] == enter {
                        i += 1;
                    }
                    // A two-byte escape goes on with the run.
                    match self.pairs.get(k) {
                        Some(Some((x, e)))
                            if i + 1 < n && x.contains(input[i]) && e.contains(input[i + 1]) =>
                        {
                            i += 2
                        }
                        _ => break,
                    }
                }
            } else {
                let entry = &mut self.at[k % 4];
                loop {
                    if i >= n {
                        return n;
                    }
                    let base = i & !63;
                    if entry.0 != base || entry.1 != k {
                        let set = LoopSet::from_records(records, k);
                        let pairs = self.pairs.get(k).and_then(Option::as_ref);
                        let masks = crate::simd::classify_block(&set, pairs, input, base);
                        *entry = (base, k, masks);
                    }
                    let outside = entry.2.outside_from(i - base);
                    if outside != 0 {
                        i += outside.trailing_zeros() as usize;
                        break;
                    }
                    i = base + 64;
                }
            }
            if i >= n {
                return n;
            }
            // A run with many escapes or characters (text in a script
            // other than Latin, say) goes on with the vector search, which
            // skips the set's whole characters and escapes.
            detours += 1;
            if detours > VECTOR_AFTER && crate::simd::LoopSet::record_may_go_on(records, k, input[i]) {
                i = crate::simd::find_outside(&crate::simd::LoopSet::from_records(records, k), input, i);
                if i >= n {
                    return n;
                }
            }
            // The detour.
            let first = net.actions[row + net.classes[input[i] as usize] as usize];
            if first & KIND != action::SHIFT || self.dead_ends.contains(&first) {
                return i;
            }
            let mut r = (first >> action::BITS) as usize;
            let mut j = i + 1;
            let back = loop {
                if j >= n || j - i >= DETOUR {
                    break false;
                }
                let x = net.actions[r + net.classes[input[j] as usize] as usize];
                j += 1;
                if x == enter {
                    break true;
                }
                if x & KIND != action::SHIFT {
                    break false;
                }
                r = (x >> action::BITS) as usize;
            };
            if !back {
                self.dead_ends[self.next_dead_end % 4] = first;
                self.next_dead_end += 1;
                return i;
            }
            i = j;
        }
    }
}

impl fmt::Debug for Network<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("rules", &self.starts.len())
            .field("states", &self.states)
            .field("classes", &self.alphabet)
            .field("deterministic", &self.is_deterministic())
            .finish()
    }
}

wire::loaders!(Network, "a rule network");

#[derive(Clone, Copy, Debug)]
struct Item {
    state: u32,
    origin: u32,
    /// How many calls are open around the item's rule.
    depth: u32,
}

/// A caller waiting at `origin`'s set for `callee` to complete.
#[derive(Clone, Copy, Debug)]
struct Waiter {
    callee: u32,
    ret: u32,
    origin: u32,
    depth: u32,
}

/// The Earley sets: items and waiters of every position, in order, and a
/// hash set of the current set's (state, origin) pairs.
struct Chart {
    items: Vec<Item>,
    set_start: Vec<usize>,
    waiters: Vec<Waiter>,
    waiter_start: Vec<usize>,
    /// Open addressing over `(state, origin)` keys of the current set
    /// (`u64::MAX`: empty), with the slots used, for clearing.
    slots: Vec<u64>,
    used: Vec<usize>,
    /// Rules that matched the empty string at the current position.
    empty: Vec<u32>,
}

impl Chart {
    fn new(states: usize) -> Chart {
        let cap = (states * 2).next_power_of_two().max(64);
        Chart {
            items: Vec::new(),
            set_start: Vec::new(),
            waiters: Vec::new(),
            waiter_start: Vec::new(),
            slots: vec![u64::MAX; cap],
            used: Vec::new(),
            empty: Vec::new(),
        }
    }

    fn start_set(&mut self) {
        self.set_start.push(self.items.len());
        self.waiter_start.push(self.waiters.len());
        for &s in &self.used {
            self.slots[s] = u64::MAX;
        }
        self.used.clear();
        self.empty.clear();
    }

    fn waiter_end(&self, set: usize) -> usize {
        self.waiter_start.get(set + 1).copied().unwrap_or(usize::MAX)
    }

    fn completed_here(&self, rule: u32) -> bool {
        self.empty.contains(&rule)
    }

    fn mark_completed_here(&mut self, rule: u32) {
        if !self.empty.contains(&rule) {
            self.empty.push(rule);
        }
    }

    /// Adds `it` to the current set unless an item of the same state and
    /// origin is there.
    fn add(&mut self, it: Item) {
        if 2 * (self.used.len() + 1) > self.slots.len() {
            self.grow();
        }
        let key = (u64::from(it.state) << 32) | u64::from(it.origin);
        let mask = self.slots.len() - 1;
        let mut h = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & mask;
        loop {
            match self.slots[h] {
                u64::MAX => {
                    self.slots[h] = key;
                    self.used.push(h);
                    self.items.push(it);
                    return;
                }
                k if k == key => return,
                _ => h = (h + 1) & mask,
            }
        }
    }

    fn grow(&mut self) {
        let keys: Vec<u64> = self.used.iter().map(|&s| self.slots[s]).collect();
        self.slots = vec![u64::MAX; self.slots.len() * 2];
        self.used.clear();
        let mask = self.slots.len() - 1;
        for key in keys {
            let mut h = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & mask;
            while self.slots[h] != u64::MAX {
                h = (h + 1) & mask;
            }
            self.slots[h] = key;
            self.used.push(h);
        }
    }
}

/// A rule of a generated grammar that is walked as a network: what the
/// generated code holds for it, as [`crate::Recognizer`] for a DFA rule.
pub struct NetworkRecognizer {
    grammar: &'static str,
    rule: &'static str,
    index: usize,
    network: Network<'static>,
    names: &'static [&'static str],
    limits: Limits,
    /// What the deterministic walk finds in the network once, on first
    /// use.
    plan: OnceBox<Plan>,
}

/// What the deterministic walk reads from a network's action table before
/// it walks ([`Network::plan`]): the loop sets' escapes
/// ([`Network::loop_pairs`]) and, if the network has a quoted loop set,
/// what stage 1 of the walk over a structural index classifies by.
pub struct Plan {
    pairs: Vec<Option<(crate::simd::NibbleSet, crate::simd::NibbleSet)>>,
    index: Option<indexed::Index>,
}

impl Plan {
    /// Whether the walk runs over a structural index (with vectors): the
    /// network has a quoted loop set.
    pub fn is_indexed(&self) -> bool {
        self.index.is_some()
    }

    /// Whether stage 1 skips four-byte UTF-8 characters inside the quoted
    /// loop set's strings (the table loops on all of those it tests for),
    /// rather than stepping each of their bytes: at the AVX2 level and
    /// above, where the two classes this takes cost less than the events
    /// they save.
    pub fn skips_four_byte_characters(&self) -> bool {
        self.index
            .as_ref()
            .is_some_and(indexed::Index::skips_four_byte_characters)
    }
}

impl fmt::Debug for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Plan")
            .field("indexed", &self.is_indexed())
            .field("four_byte_characters", &self.skips_four_byte_characters())
            .finish()
    }
}

impl NetworkRecognizer {
    /// What generated code calls: the network's table (checked while the
    /// code compiles), the rule's index in it, the names of its rules, and
    /// the nesting limit the generator was configured with.
    #[doc(hidden)]
    pub const fn __new(
        grammar: &'static str,
        rule: &'static str,
        table: &'static wire::Aligned<[u8]>,
        index: usize,
        names: &'static [&'static str],
        depth: usize,
    ) -> NetworkRecognizer {
        NetworkRecognizer {
            grammar,
            rule,
            index,
            network: Network::__wire(table),
            names,
            limits: Limits {
                depth,
                items: Limits::DEFAULT.items,
            },
            plan: OnceBox::new(),
        }
    }

    /// The grammar (spec file stem) that defines the rule.
    pub fn grammar(&self) -> &'static str {
        self.grammar
    }

    /// The rule's name as written in the grammar.
    pub fn rule(&self) -> &'static str {
        self.rule
    }

    /// The network the rule is walked in.
    pub fn network(&self) -> &Network<'static> {
        &self.network
    }

    /// The limits [`NetworkRecognizer::validate`] walks with (the nesting
    /// limit is the generator's `Config::nesting_limit`).
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Whether all of `input` matches the rule.
    pub fn is_match(&self, input: &str) -> bool {
        self.is_match_bytes(input.as_bytes())
    }

    /// Whether all of `input` matches the rule (bytes that are not UTF-8
    /// never match a grammar over Unicode characters).
    pub fn is_match_bytes(&self, input: &[u8]) -> bool {
        self.full_match(input, self.limits).is_ok()
    }

    fn full_match(&self, input: &[u8], limits: Limits) -> Result<(), Failure> {
        if self.network.is_deterministic() {
            let plan = self
                .plan
                .get_or_init(|| alloc::boxed::Box::new(self.network.plan()));
            self.network.walk_planned(self.index, input, limits, plan)
        } else {
            self.network.walk_general(self.index, input, limits)
        }
    }

    /// `Ok` if all of `input` matches the rule, else where and why not.
    pub fn validate(&self, input: &str) -> Result<(), MatchError> {
        self.validate_bytes(input.as_bytes())
    }

    /// [`NetworkRecognizer::validate`] for bytes.
    pub fn validate_bytes(&self, input: &[u8]) -> Result<(), MatchError> {
        self.validate_with(input, self.limits)
    }

    /// The holes of the typed tree of the rule over `input[start..end]`:
    /// the calls of one derivation ([`Network::derive`]), each with the
    /// byte `bytes[callee]` that the tree's automaton reads for it; what
    /// generated typed trees of rules with a stack call.
    #[doc(hidden)]
    pub fn __holes(
        &self,
        input: &[u8],
        start: usize,
        end: usize,
        bytes: &[u8],
    ) -> Result<Vec<crate::Hole>, MatchError> {
        match self.network.derive(self.index, &input[start..end], self.limits) {
            Ok(calls) => Ok(calls
                .into_iter()
                .map(|c| crate::Hole {
                    byte: bytes[c.rule as usize],
                    start: start + c.start,
                    end: start + c.end,
                })
                .collect()),
            Err(f) => {
                let f = Failure {
                    offset: start + f.offset,
                    open: f.open.map(|(r, at)| (r, start + at)),
                    ..f
                };
                Err(MatchError::from_failure(
                    self.grammar,
                    self.rule,
                    &input[..end],
                    &f,
                    self.names,
                ))
            }
        }
    }

    /// [`NetworkRecognizer::validate_bytes`] with other limits (a nesting
    /// depth for this call, say).
    pub fn validate_with(&self, input: &[u8], limits: Limits) -> Result<(), MatchError> {
        self.full_match(input, limits)
            .map_err(|f| MatchError::from_failure(self.grammar, self.rule, input, &f, self.names))
    }
}

impl fmt::Debug for NetworkRecognizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NetworkRecognizer")
            .field("grammar", &self.grammar)
            .field("rule", &self.rule)
            .field("network", &self.network)
            .finish()
    }
}
