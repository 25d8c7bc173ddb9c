//! The runtime side of a generated recognizer: a compact transition table
//! walked one byte at a time, and the same automaton as a serialized sparse
//! `regex-automata` DFA, loaded once (zero-copy) for searching and for
//! explaining errors.

use core::fmt;

use once_cell::race::OnceBox;
use regex_automata::dfa::sparse;

use crate::simd::{self, Level, LoopSet};
use crate::tagged::{Pairs, TaggedDfa, MAX_REGISTERS, NEXT_MASK};

type SparseDfa = sparse::DFA<&'static [u8]>;

/// A DFA as a flat table (see `abnf_codegen::automata::Compact`): row 0 is
/// the dead state, entries are premultiplied by `alphabet`, and after the
/// transitions comes one word per state that is 1 where the input may end.
#[doc(hidden)]
pub struct Table {
    pub classes: [u8; 256],
    pub alphabet: u32,
    pub start: u32,
    pub words: Words,
    pub skip: Skip,
}

/// The states of a [`Table`] that are walked bit-parallel (see
/// `abnf_codegen::automata::bitpar`): every state from `from` on
/// (premultiplied) loops to itself on the bytes (and escapes) of its set,
/// `sets[(s - from) / alphabet]`, so a run of them is skipped a block at a
/// time. `recip` is `2^32 / alphabet` rounded up, so that
/// `(s - from) * recip >> 32` is that index without a division.
#[doc(hidden)]
pub struct Skip {
    pub from: u32,
    pub recip: u64,
    pub sets: &'static [LoopSet],
}

/// The table's entries, 16-bit when they fit.
#[doc(hidden)]
pub enum Words {
    U16(&'static [u16]),
    U32(&'static [u32]),
}

/// The reverse of a [`Table`] (see `abnf_codegen::automata::Reverse`): a
/// state is the set of table states from which the bytes read so far,
/// backwards from the end, lead to a match; `sets` holds each as a bitset of
/// `set_words` words. Entries are premultiplied by the table's alphabet.
#[doc(hidden)]
pub struct Reverse {
    pub start: u32,
    pub set_words: u32,
    pub words: Words,
    pub sets: &'static [u32],
}

/// Inputs shorter than this are walked forwards only: for them, setting up
/// two walks costs more than it saves.
const BIDIRECTIONAL_MIN: usize = 8;

/// Inputs at least this long are walked with [`Table::run_skip`]: for
/// shorter ones the two table walks from both ends are quicker than
/// setting up vector compares.
const SKIP_MIN: usize = 96;

/// How many bytes the recognizer walks between checks for the dead state:
/// checking every byte costs a branch per byte, never checking would walk a
/// huge invalid input to its end.
const CHUNK: usize = 64;

/// One entry type of a [`Table`].
trait Entry: Copy {
    fn index(self) -> usize;
}

impl Entry for u16 {
    #[inline(always)]
    fn index(self) -> usize {
        usize::from(self)
    }
}

impl Entry for u32 {
    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }
}

#[inline(always)]
fn step<T: Entry>(trans: &[T], classes: &[u8; 256], s: usize, b: u8) -> usize {
    trans[s + usize::from(classes[usize::from(b)])].index()
}

/// [`step`] for a walk whose time is the latency of its chain of steps:
/// the table is offset by the byte's class first, which does not wait on
/// the previous step, so that the step's own latency is one load (with no
/// add before it).
#[inline(always)]
fn chain_step<T: Entry>(trans: &[T], classes: &[u8; 256], s: usize, b: u8) -> usize {
    trans[usize::from(classes[usize::from(b)])..][s].index()
}

impl Table {
    /// Walks `input`; `Ok` if it matches, else the offset of the first byte
    /// after which no match is possible (or the input's length).
    #[inline]
    fn run(&self, input: &[u8]) -> Result<(), usize> {
        match self.words {
            Words::U16(w) => self.run_in(w, input),
            Words::U32(w) => self.run_in(w, input),
        }
    }

    #[inline(always)]
    fn run_in<T: Entry>(&self, words: &[T], input: &[u8]) -> Result<(), usize> {
        self.run_from(words, input, self.start as usize, 0)
    }

    /// [`Table::run_in`] from state `s` after the first `done` bytes.
    #[inline(always)]
    fn run_from<T: Entry>(
        &self,
        words: &[T],
        input: &[u8],
        mut s: usize,
        mut done: usize,
    ) -> Result<(), usize> {
        let classes = &self.classes;
        for chunk in input[done..].chunks(CHUNK) {
            // The hot loop: one class lookup and one table lookup per byte.
            // The dead state loops to itself, so it is checked per chunk.
            let mut t = s;
            for &b in chunk {
                t = step(words, classes, t, b);
            }
            if t == 0 {
                // Find the exact byte again, in this chunk only.
                for (i, &b) in chunk.iter().enumerate() {
                    s = step(words, classes, s, b);
                    if s == 0 {
                        return Err(done + i);
                    }
                }
            }
            s = t;
            done += chunk.len();
        }
        if self.accepts(words, s) {
            Ok(())
        } else {
            Err(input.len())
        }
    }

    /// [`Table::run`], with the runs of accelerated states skipped a block
    /// at a time: from a state of [`Skip`], the walk jumps to the first byte
    /// outside the state's loop set ([`simd::find_outside`]); only that
    /// byte takes a table step. Skipped bytes loop to the same state, so
    /// the result (verdict and error offset) is [`Table::run`]'s.
    #[inline]
    fn run_skip(&self, input: &[u8], level: Level) -> Result<(), usize> {
        match self.words {
            Words::U16(w) => self.run_skip_in(w, input, level),
            Words::U32(w) => self.run_skip_in(w, input, level),
        }
    }

    #[inline(always)]
    fn run_skip_in<T: Entry>(&self, words: &[T], input: &[u8], level: Level) -> Result<(), usize> {
        match self.walk_skip(words, input, level) {
            Ok(s) if self.accepts(words, s) => Ok(()),
            Ok(_) => Err(input.len()),
            Err(i) => Err(i),
        }
    }

    /// The state after all of `input` (skipping as [`Table::run_skip`]
    /// does), or the offset of the byte that leads to the dead state.
    #[inline(always)]
    fn walk_skip<T: Entry>(&self, words: &[T], input: &[u8], level: Level) -> Result<usize, usize> {
        let classes = &self.classes;
        let (from, recip, sets) = (self.skip.from as usize, self.skip.recip, self.skip.sets);
        let mut s = self.start as usize;
        let mut i = 0;
        loop {
            if s >= from {
                let k = ((s - from) as u64 * recip >> 32) as usize;
                i = simd::find_outside_with(level, &sets[k], input, i);
            }
            let Some(&b) = input.get(i) else { break };
            s = step(words, classes, s, b);
            if s == 0 {
                return Err(i);
            }
            i += 1;
        }
        Ok(s)
    }

    /// [`Recognizer::extract`] bit-parallel, forwards only: where the
    /// recognizer is in a state of [`Skip`] and the tagged DFA in a state
    /// that loops without effect, both skip to the first byte outside
    /// both loop sets ([`LoopSet::meet`]); every other byte steps both.
    #[inline]
    fn run_skip_tagged(&self, x: &TaggedDfa, input: &[u8], tags: &mut [usize]) -> Result<(), Stop> {
        match self.words {
            Words::U16(w) => self.run_skip_tagged_in(w, x, input, tags),
            Words::U32(w) => self.run_skip_tagged_in(w, x, input, tags),
        }
    }

    #[inline(always)]
    fn run_skip_tagged_in<T: Entry>(
        &self,
        words: &[T],
        x: &TaggedDfa,
        input: &[u8],
        tags: &mut [usize],
    ) -> Result<(), Stop> {
        let classes = &self.classes;
        let (from, recip, sets) = (self.skip.from as usize, self.skip.recip, self.skip.sets);
        let (xw, xc, op_start) = (x.words, &x.classes, x.op_start as usize);
        let level = Level::detected();
        let mut regs = [crate::tagged::NONE; MAX_REGISTERS + 1];
        x.start_regs(&mut regs, 0);
        let mut q = self.start as usize;
        let mut s = x.start as usize;
        let mut i = 0;
        loop {
            if q >= from {
                let mine = &sets[((q - from) as u64 * recip >> 32) as usize];
                let both = mine.meet(&x.loops[(s as u64 * x.recip >> 32) as usize]);
                if !both.bytes.is_empty() {
                    i = simd::find_outside_with(level, &both, input, i);
                }
            }
            let Some(&b) = input.get(i) else { break };
            let before = q;
            q = step(words, classes, q, b);
            if q == 0 {
                return Err(Stop::Rule(Resume {
                    state: before,
                    done: i,
                }));
            }
            let t = xw[s + usize::from(xc[usize::from(b)])];
            TaggedDfa::effect(xw, op_start, t, &mut regs, i);
            s = (t & NEXT_MASK) as usize;
            i += 1;
        }
        if !self.accepts(words, q) {
            return Err(Stop::Rule(Resume {
                state: q,
                done: input.len(),
            }));
        }
        Self::finish(x, s, &regs, input.len(), tags)
    }

    /// Whether the table has states to skip through.
    #[inline(always)]
    fn skips(&self) -> bool {
        !self.skip.sets.is_empty()
    }

    /// [`Table::run_from`] on either kind of table.
    fn resume(&self, input: &[u8], at: Resume) -> Result<(), usize> {
        match self.words {
            Words::U16(w) => self.run_from(w, input, at.state, at.done),
            Words::U32(w) => self.run_from(w, input, at.state, at.done),
        }
    }

    /// [`Recognizer::extract`] one byte at a time, forwards only.
    #[inline(always)]
    fn run_tagged<T: Entry>(
        &self,
        words: &[T],
        x: &TaggedDfa,
        input: &[u8],
        tags: &mut [usize],
    ) -> Result<(), Stop> {
        let classes = &self.classes;
        let (xw, xc) = (x.words, &x.classes);
        let op_start = x.op_start as usize;
        let mut regs = [crate::tagged::NONE; MAX_REGISTERS + 1];
        x.start_regs(&mut regs, 0);
        let mut q = self.start as usize;
        let mut s = x.start as usize;
        let mut done = 0;
        for chunk in input.chunks(CHUNK) {
            let before = Resume { state: q, done };
            for (i, &b) in chunk.iter().enumerate() {
                q = step(words, classes, q, b);
                let t = xw[s + usize::from(xc[usize::from(b)])];
                TaggedDfa::effect(xw, op_start, t, &mut regs, done + i);
                s = (t & NEXT_MASK) as usize;
            }
            if q == 0 {
                return Err(Stop::Rule(before));
            }
            done += chunk.len();
        }
        if !self.accepts(words, q) {
            return Err(Stop::Rule(Resume { state: q, done }));
        }
        Self::finish(x, s, &regs, input.len(), tags)
    }

    /// [`Recognizer::extract`] with the recognizer walked from both ends and
    /// the extraction two bytes at a time: round `k` reads byte `k` forwards,
    /// byte `len - 1 - k` backwards and bytes `2k` and `2k + 1` for the
    /// extraction. An odd last byte takes one single step of the extraction.
    #[inline(always)]
    #[expect(clippy::too_many_arguments, reason = "two automata, each with its tables")]
    fn run_pairs<T: Entry, R: Entry>(
        &self,
        words: &[T],
        rev: &Reverse,
        rwords: &[R],
        x: &TaggedDfa,
        pairs: &Pairs,
        input: &[u8],
        tags: &mut [usize],
    ) -> Result<(), Stop> {
        let classes = &self.classes;
        let (xc, xa) = (&x.classes, x.alphabet as usize);
        let (row1, row2) = (xa + 1, xa * xa);
        let cells = x.states() * row2;
        let (pn, pe) = (&pairs.words[..cells], &pairs.words[cells..2 * cells]);
        let mut regs = [crate::tagged::NONE; MAX_REGISTERS + 1];
        x.start_regs(&mut regs, 0);
        let half = input.len() / 2;
        let (front, back) = input.split_at(half);
        // `back` is as long as `front` or one byte longer: its extra first
        // byte is read last.
        let (extra, back) = back.split_at(back.len() - half);
        let both = &input[..2 * half];
        let mut q = self.start as usize;
        let mut r = rev.start as usize;
        // The extraction's start state, as a row of the two-byte table.
        let mut s = x.start as usize / row1 * row2;
        // Each step's effect on the registers is stored without a branch (the
        // generator checks that effects fit in 16 bits), with a bit per step
        // that has one; they run after the chunk
        // (registers never decide a transition, and a branch per step on
        // whether there is an effect would be mispredicted at every
        // delimiter).
        let mut effects = [0u16; CHUNK];
        let mut base = 0;
        for ((fs, bs), ps) in front
            .chunks(CHUNK)
            .zip(back.rchunks(CHUNK))
            .zip(both.chunks(2 * CHUNK))
        {
            let before = Resume {
                state: q,
                done: base / 2,
            };
            let mut some = 0u64;
            let last = bs.len() - 1;
            for k in 0..fs.len() {
                q = step(words, classes, q, fs[k]);
                r = step(rwords, classes, r, bs[last - k]);
                let c = usize::from(xc[usize::from(ps[2 * k])]) * xa
                    + usize::from(xc[usize::from(ps[2 * k + 1])]);
                let f = pe[s + c];
                effects[k] = f as u16;
                some |= u64::from(f != 0) << k;
                s = pn[s + c] as usize;
            }
            while some != 0 {
                let k = some.trailing_zeros() as usize;
                TaggedDfa::pair_effect(pairs, usize::from(effects[k]), &mut regs, base + 2 * k);
                some &= some - 1;
            }
            base += ps.len();
            // Both dead states loop to themselves: a long bad input stops
            // at the end of the chunk. The error is found by the forward
            // walk alone, from where it is known to be alive.
            if q == 0 {
                return Err(Stop::Rule(before));
            }
            if r == 0 {
                return Err(Stop::Rule(Resume {
                    state: q,
                    done: base / 2,
                }));
            }
        }
        if let [b] = extra {
            r = step(rwords, classes, r, *b);
        }
        if !self.meet(rev, q, r) {
            return Err(Stop::Rule(Resume { state: q, done: half }));
        }
        let mut s = s / row2 * row1;
        if input.len() % 2 == 1 {
            let last = input.len() - 1;
            let t = x.words[s + usize::from(xc[usize::from(input[last])])];
            TaggedDfa::effect(x.words, x.op_start as usize, t, &mut regs, last);
            s = (t & NEXT_MASK) as usize;
        }
        Self::finish(x, s, &regs, input.len(), tags)
    }

    /// Whether state `q` accepts (the word after the transitions holds 1).
    #[inline(always)]
    fn accepts<T: Entry>(&self, words: &[T], q: usize) -> bool {
        let alphabet = self.alphabet as usize;
        let states = words.len() / (alphabet + 1);
        words[states * alphabet + q / alphabet].index() == 1
    }

    /// The tags of an extraction that ended in state `s`.
    #[inline(always)]
    fn finish(
        x: &TaggedDfa,
        s: usize,
        regs: &[usize; MAX_REGISTERS + 1],
        end: usize,
        tags: &mut [usize],
    ) -> Result<(), Stop> {
        if x.read_tags(s, &regs[1..], end, tags) {
            Ok(())
        } else {
            Err(Stop::Parts)
        }
    }

    /// Whether `input` matches, walking its first half forwards and its
    /// second half backwards at the same time: two independent chains of
    /// lookups, which the CPU overlaps (one walk waits on each lookup before
    /// the next). The input matches when the forward state is in the
    /// reverse state's set. Both walks use `classes`, and both tables are
    /// premultiplied by `alphabet`.
    #[inline(always)]
    fn run_both<T: Entry, R: Entry>(&self, words: &[T], rev: &Reverse, rwords: &[R], input: &[u8]) -> bool {
        let classes = &self.classes;
        let (x, y) = input.split_at(input.len() / 2);
        let mut q = self.start as usize;
        let mut r = rev.start as usize;
        // `y` is as long as `x` or one byte longer: walk `y`'s extra first
        // byte last.
        let extra = y.len() - x.len();
        let (first, y) = y.split_at(extra);
        // Pair `x[k]` with `y[len - 1 - k]`.
        if x.len() <= CHUNK {
            for (&a, &b) in x.iter().zip(y.iter().rev()) {
                q = chain_step(words, classes, q, a);
                r = chain_step(rwords, classes, r, b);
            }
        } else {
            // Both dead states loop to themselves: check them per chunk, so
            // that a long bad input stops early.
            for (xs, ys) in x.chunks(CHUNK).zip(y.rchunks(CHUNK)) {
                for (&a, &b) in xs.iter().zip(ys.iter().rev()) {
                    q = chain_step(words, classes, q, a);
                    r = chain_step(rwords, classes, r, b);
                }
                if q == 0 || r == 0 {
                    return false;
                }
            }
        }
        if let [b] = first {
            r = chain_step(rwords, classes, r, *b);
        }
        self.meet(rev, q, r)
    }

    /// Whether forward state `q` is in reverse state `r`'s set.
    #[inline(always)]
    fn meet(&self, rev: &Reverse, q: usize, r: usize) -> bool {
        // State numbers fit in 32 bits, and 32-bit division is quicker.
        let (q, r) = (
            (q as u32 / self.alphabet) as usize,
            (r as u32 / self.alphabet) as usize,
        );
        rev.sets[r * rev.set_words as usize + q / 32] >> (q % 32) & 1 == 1
    }

    /// Many inputs at a time: [`LANES`] walks interleaved, so that the
    /// table lookups of different inputs overlap (a single walk waits on
    /// each lookup before the next). All lanes step together for as many
    /// bytes as the shortest of them has left, with no branch per byte; a
    /// lane that reaches the end of its input takes the next one.
    fn run_many<S: AsRef<[u8]>, T: Entry>(&self, words: &[T], inputs: &[S], out: &mut [bool]) {
        let accept = |s: usize| self.accepts(words, s);
        let classes = &self.classes;
        let start = self.start as usize;
        if inputs.len() < LANES {
            for (input, r) in inputs.iter().zip(out.iter_mut()) {
                *r = self.run_in(words, input.as_ref()).is_ok();
            }
            return;
        }
        // Lane `l` walks `inputs[who[l]]`, with `rest[l]` still to read.
        let mut who: [usize; LANES] = core::array::from_fn(|l| l);
        let mut rest: [&[u8]; LANES] = core::array::from_fn(|l| inputs[l].as_ref());
        let mut state = [start; LANES];
        let mut next = LANES;
        loop {
            let m = rest.iter().map(|r| r.len()).min().unwrap_or(0);
            // Slices of exactly `m` bytes: no bounds checks in the loop.
            let now: [&[u8]; LANES] = core::array::from_fn(|l| &rest[l][..m]);
            #[expect(clippy::needless_range_loop, reason = "`k` indexes every lane's slice")]
            for k in 0..m {
                for l in 0..LANES {
                    state[l] = step(words, classes, state[l], now[l][k]);
                }
            }
            for r in rest.iter_mut() {
                *r = &r[m..];
            }
            // Lanes at their end: record, and take the next input.
            for l in 0..LANES {
                if rest[l].is_empty() {
                    out[who[l]] = accept(state[l]);
                    if next == inputs.len() {
                        // No inputs left to share out: finish the other
                        // lanes one at a time (those that also reached
                        // their end this round read nothing more).
                        for o in (0..LANES).filter(|&o| o != l) {
                            let mut s = state[o];
                            for &b in rest[o] {
                                s = step(words, classes, s, b);
                            }
                            out[who[o]] = accept(s);
                        }
                        return;
                    }
                    who[l] = next;
                    rest[l] = inputs[next].as_ref();
                    state[l] = start;
                    next += 1;
                }
            }
        }
    }
}

/// Why [`Recognizer::extract`] failed.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The input does not match the recognizer's rule; where the forward
    /// walk can resume to find the error ([`Recognizer::__error`]).
    Rule(Resume),
    /// The input matches the rule, but the tagged DFA does not match it.
    Parts,
}

/// A state of a recognizer's forward walk: `state` after the first `done`
/// bytes, with no error before them.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resume {
    state: usize,
    done: usize,
}

/// How many inputs [`Recognizer::is_match_many`] walks at once.
const LANES: usize = 4;

/// A recognizer for one ABNF rule: answers whether a whole string matches it.
///
/// Every exported rule of every grammar is a `static Recognizer` in its
/// grammar's module (for example [`crate::rfc3987::IRI_REFERENCE`]); tools
/// can also find one by name with [`crate::lookup`].
///
/// ```
/// use iri_grammar::rfc3987;
///
/// assert!(rfc3987::IRI_REFERENCE.is_match("http://example.org/résumé"));
/// let err = rfc3987::IRI_REFERENCE.validate("http://exa mple.org").unwrap_err();
/// assert_eq!(err.offset(), 10);
/// assert_eq!(err.rule(), "IRI-reference");
/// ```
pub struct Recognizer {
    grammar: &'static str,
    rule: &'static str,
    table: Table,
    reverse: Option<Reverse>,
    sparse: &'static [u8],
    dfa: OnceBox<SparseDfa>,
}

impl Recognizer {
    #[doc(hidden)]
    pub const fn __new(
        grammar: &'static str,
        rule: &'static str,
        table: Table,
        reverse: Option<Reverse>,
        sparse: &'static [u8],
    ) -> Recognizer {
        Recognizer {
            grammar,
            rule,
            table,
            reverse,
            sparse,
            dfa: OnceBox::new(),
        }
    }

    /// The grammar (spec file stem) that defines the rule, such as `rfc3986`.
    pub fn grammar(&self) -> &'static str {
        self.grammar
    }

    /// The rule's name as written in the grammar, such as `IRI-reference`.
    pub fn rule(&self) -> &'static str {
        self.rule
    }

    /// The same automaton as a `regex-automata` sparse DFA (anchored, for
    /// `(?:rule)\z`), loaded on first use, zero-copy, with the checked
    /// `DFA::from_bytes`. The bytes were written by the same `regex-automata`
    /// at build time, so a failure to load is a build bug and panics.
    pub fn dfa(&self) -> &SparseDfa {
        self.dfa.get_or_init(|| {
            let (dfa, _) = SparseDfa::from_bytes(self.sparse).unwrap_or_else(|e| {
                panic!(
                    "embedded DFA for {}:{} does not load: {e}",
                    self.grammar, self.rule
                )
            });
            alloc::boxed::Box::new(dfa)
        })
    }

    /// Whether all of `input` matches the rule.
    #[inline]
    pub fn is_match(&self, input: &str) -> bool {
        self.is_match_bytes(input.as_bytes())
    }

    /// Whether all of `input` matches the rule. Bytes that are not UTF-8 never
    /// match (the grammars are over Unicode characters).
    ///
    /// Rules named in a spec's `@bidirectional` directive walk a long input
    /// from both ends at once (see [`Recognizer::is_bidirectional`]).
    #[inline]
    pub fn is_match_bytes(&self, input: &[u8]) -> bool {
        if input.len() >= SKIP_MIN && self.table.skips() {
            return self.table.run_skip(input, Level::detected()).is_ok();
        }
        match &self.reverse {
            Some(rev) if input.len() >= BIDIRECTIONAL_MIN => match (&self.table.words, &rev.words) {
                (Words::U16(w), Words::U16(r)) => self.table.run_both(w, rev, r, input),
                (Words::U16(w), Words::U32(r)) => self.table.run_both(w, rev, r, input),
                (Words::U32(w), Words::U16(r)) => self.table.run_both(w, rev, r, input),
                (Words::U32(w), Words::U32(r)) => self.table.run_both(w, rev, r, input),
            },
            _ => self.table.run(input).is_ok(),
        }
    }

    /// Whether the generator gave this rule a reverse automaton too
    /// (`; @bidirectional RULE` in its spec), so that [`Recognizer::is_match`]
    /// walks inputs of 8 bytes or more from both ends at once. The answer
    /// is the same either way; only the speed differs.
    pub fn is_bidirectional(&self) -> bool {
        self.reverse.is_some()
    }

    /// Whether all of `input` matches, walking forwards only (what
    /// [`Recognizer::is_match_bytes`] does for rules that are not
    /// bidirectional, and for short inputs).
    pub fn is_match_forward(&self, input: &[u8]) -> bool {
        self.table.run(input).is_ok()
    }

    /// Checks many inputs at once: `out[i]` says whether `inputs[i]`
    /// matches. Faster than a loop over [`Recognizer::is_match`] (several
    /// inputs are walked in step), and allocates nothing.
    ///
    /// ```
    /// let inputs = ["http://a/", "not an iri", "../b", "mailto:x@y"];
    /// let mut valid = [false; 4];
    /// iri_grammar::rfc3987::IRI_REFERENCE.is_match_many(&inputs, &mut valid);
    /// assert_eq!(valid, [true, false, true, true]);
    /// ```
    ///
    /// # Panics
    ///
    /// If `out` is shorter than `inputs`.
    pub fn is_match_many<S: AsRef<[u8]>>(&self, inputs: &[S], out: &mut [bool]) {
        assert!(
            out.len() >= inputs.len(),
            "is_match_many: `out` is shorter than `inputs`"
        );
        // Four inputs walked forwards in step beat two walked from both
        // ends (measured: 40 against 62 ns per IRI).
        match self.table.words {
            Words::U16(w) => self.table.run_many(w, inputs, out),
            Words::U32(w) => self.table.run_many(w, inputs, out),
        }
    }

    /// Matches `input` against the rule and, in the same pass, walks the
    /// tagged DFA `parts` over it (which finds where the parts are, not
    /// whether the input is valid: a splitting grammar such as RFC 3986
    /// Appendix B). `tags` is filled as [`TaggedDfa::run`] fills it.
    ///
    /// For a bidirectional rule and an extraction with two-byte steps, one
    /// loop advances three independent walks per round: the recognizer from
    /// the front and from the back, one byte each, and the extraction by
    /// two bytes, so that the extraction costs little more than
    /// [`Recognizer::is_match`]. Inputs of 96 bytes or more, when both
    /// automata have loop sets, are walked bit-parallel instead
    /// ([`Table::run_skip_tagged`]).
    #[doc(hidden)]
    pub fn extract(&self, parts: &TaggedDfa, input: &str, tags: &mut [usize]) -> Result<(), Stop> {
        let bytes = input.as_bytes();
        if bytes.len() >= SKIP_MIN && self.table.skips() && !parts.loops.is_empty() {
            return self.table.run_skip_tagged(parts, bytes, tags);
        }
        self.__extract_plain(parts, input, tags)
    }

    /// The error for an input known not to match (the forward walk alone
    /// finds where the mismatch starts; it resumes from `at`, as
    /// [`Recognizer::extract`] left it).
    #[doc(hidden)]
    #[cold]
    pub fn __error(&self, input: &str, at: Resume) -> MatchError {
        match self.table.resume(input.as_bytes(), at) {
            Err(offset) => self.error(offset),
            Ok(()) => crate::__private::inconsistent(self.grammar, self.rule, input.len()),
        }
    }

    /// Checks `input`; the error says at which byte offset the input stopped
    /// matching (the longest prefix that could still be completed).
    pub fn validate(&self, input: &str) -> Result<(), MatchError> {
        self.validate_bytes(input.as_bytes())
    }

    /// Like [`Recognizer::validate`] on bytes.
    pub fn validate_bytes(&self, input: &[u8]) -> Result<(), MatchError> {
        if input.len() >= SKIP_MIN && self.table.skips() {
            // The skipping walk finds the same offset as the table walk.
            return self
                .table
                .run_skip(input, Level::detected())
                .map_err(|offset| self.error(offset));
        }
        if self.reverse.is_some() && self.is_match_bytes(input) {
            return Ok(());
        }
        // Only the forward walk finds where a mismatch starts.
        self.table.run(input).map_err(|offset| self.error(offset))
    }

    /// The forward table walk, one lookup per byte, with no skipping: the
    /// reference the other walks are tested against. `Err` holds the
    /// offset [`MatchError::offset`] reports.
    #[doc(hidden)]
    pub fn __walk_plain(&self, input: &[u8]) -> Result<(), usize> {
        self.table.run(input)
    }

    /// The bit-parallel walk with a given vector width (whatever the input's
    /// length; [`Level::Scalar`] is the scalar twin), for tests.
    #[doc(hidden)]
    pub fn __walk_skip(&self, input: &[u8], level: Level) -> Result<(), usize> {
        self.table.run_skip(input, level)
    }

    /// [`Recognizer::extract`] by the bit-parallel walk whatever the
    /// input's length (`None` if `parts` has no loop sets), for tests.
    #[doc(hidden)]
    pub fn __extract_skip(&self, parts: &TaggedDfa, input: &str, tags: &mut [usize]) -> Option<Result<(), Stop>> {
        (self.table.skips() && !parts.loops.is_empty()).then(|| self.table.run_skip_tagged(parts, input.as_bytes(), tags))
    }

    /// [`Recognizer::extract`] by the plain walks (both ends and two-byte
    /// steps where the tables have them), for tests.
    #[doc(hidden)]
    #[inline(always)]
    pub fn __extract_plain(&self, parts: &TaggedDfa, input: &str, tags: &mut [usize]) -> Result<(), Stop> {
        let bytes = input.as_bytes();
        match (&self.reverse, &parts.pairs) {
            (Some(rev), Some(pairs)) => match (&self.table.words, &rev.words) {
                (Words::U16(w), Words::U16(r)) => self.table.run_pairs(w, rev, r, parts, pairs, bytes, tags),
                (Words::U16(w), Words::U32(r)) => self.table.run_pairs(w, rev, r, parts, pairs, bytes, tags),
                (Words::U32(w), Words::U16(r)) => self.table.run_pairs(w, rev, r, parts, pairs, bytes, tags),
                (Words::U32(w), Words::U32(r)) => self.table.run_pairs(w, rev, r, parts, pairs, bytes, tags),
            },
            _ => match self.table.words {
                Words::U16(w) => self.table.run_tagged(w, parts, bytes, tags),
                Words::U32(w) => self.table.run_tagged(w, parts, bytes, tags),
            },
        }
    }

    /// How many states the bit-parallel walk skips through.
    #[doc(hidden)]
    pub fn __skip_states(&self) -> usize {
        self.table.skip.sets.len()
    }

    /// The state of the table after `prefix` (0, the dead state, if no
    /// match can continue it).
    pub(crate) fn state_after(&self, prefix: &[u8]) -> usize {
        let t = &self.table;
        if prefix.len() >= SKIP_MIN && t.skips() {
            let level = Level::detected();
            let after = match t.words {
                Words::U16(w) => t.walk_skip(w, prefix, level),
                Words::U32(w) => t.walk_skip(w, prefix, level),
            };
            return after.unwrap_or(0);
        }
        let mut s = t.start as usize;
        for &b in prefix {
            s = match t.words {
                Words::U16(w) => step(w, &t.classes, s, b),
                Words::U32(w) => step(w, &t.classes, s, b),
            };
        }
        s
    }

    /// Whether byte `b` continues a match from table state `state`.
    pub(crate) fn continues(&self, state: usize, b: u8) -> bool {
        let t = &self.table;
        state != 0
            && match t.words {
                Words::U16(w) => step(w, &t.classes, state, b),
                Words::U32(w) => step(w, &t.classes, state, b),
            } != 0
    }

    fn error(&self, offset: usize) -> MatchError {
        MatchError {
            grammar: self.grammar,
            rule: self.rule,
            offset,
        }
    }
}

impl fmt::Debug for Recognizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Recognizer({}:{})", self.grammar, self.rule)
    }
}

/// An input that does not match a rule, and where it stopped matching.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MatchError {
    grammar: &'static str,
    rule: &'static str,
    offset: usize,
}

impl MatchError {
    #[doc(hidden)]
    pub const fn __new(grammar: &'static str, rule: &'static str, offset: usize) -> MatchError {
        MatchError {
            grammar,
            rule,
            offset,
        }
    }

    /// The byte offset of the first byte that cannot continue a match, or the
    /// input's length when the input ended before a match was complete.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The rule that was matched against.
    pub fn rule(&self) -> &'static str {
        self.rule
    }

    /// The grammar of the rule.
    pub fn grammar(&self) -> &'static str {
        self.grammar
    }
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid {}:{} at byte offset {}",
            self.grammar, self.rule, self.offset
        )
    }
}

impl core::error::Error for MatchError {}

/// The exported rules of one grammar (one spec file).
pub struct Grammar {
    name: &'static str,
    rules: &'static [&'static Recognizer],
}

impl Grammar {
    #[doc(hidden)]
    pub const fn __new(name: &'static str, rules: &'static [&'static Recognizer]) -> Grammar {
        Grammar { name, rules }
    }

    /// The grammar's name (its spec file stem).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Its exported rules, in spec order.
    pub fn rules(&self) -> &'static [&'static Recognizer] {
        self.rules
    }

    /// The recognizer of a rule, by its ABNF name (case-insensitive, as rule
    /// names are in ABNF).
    pub fn get(&self, rule: &str) -> Option<&'static Recognizer> {
        self.rules
            .iter()
            .copied()
            .find(|r| r.rule.eq_ignore_ascii_case(rule))
    }
}

impl fmt::Debug for Grammar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Grammar")
            .field("name", &self.name)
            .field("rules", &self.rules.len())
            .finish()
    }
}

/// Alignment wrapper so that embedded DFA bytes can be read as `u32`s in
/// place (`DFA::from_bytes` checks it).
#[doc(hidden)]
#[repr(C)]
pub struct Aligned<B: ?Sized> {
    _align: [u32; 0],
    /// The bytes.
    pub bytes: B,
}

impl<const N: usize> Aligned<[u8; N]> {
    #[doc(hidden)]
    pub const fn new(bytes: [u8; N]) -> Aligned<[u8; N]> {
        Aligned { _align: [], bytes }
    }
}

impl Aligned<[u8]> {
    /// The bytes as native-endian `u16`s.
    pub const fn as_u16s(&'static self) -> &'static [u16] {
        // SAFETY: `Aligned` is `repr(C)` and starts with a zero-length
        // `[u32; 0]`, so `bytes` is 4-aligned (enough for `u16`); `len / 2`
        // whole `u16`s lie inside it; every bit pattern is a valid `u16`; the
        // bytes are `'static` and immutable.
        unsafe { core::slice::from_raw_parts(self.bytes.as_ptr().cast::<u16>(), self.bytes.len() / 2) }
    }

    /// The bytes as native-endian `u32`s.
    pub const fn as_u32s(&'static self) -> &'static [u32] {
        // SAFETY: as for `as_u16s`, with the 4-byte alignment `[u32; 0]`
        // gives and `len / 4` whole `u32`s.
        unsafe { core::slice::from_raw_parts(self.bytes.as_ptr().cast::<u32>(), self.bytes.len() / 4) }
    }
}
