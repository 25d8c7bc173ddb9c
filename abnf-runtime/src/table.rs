//! The runtime side of a generated recognizer: a compact transition table
//! walked one byte at a time, and the same automaton as a serialized sparse
//! `regex-automata` DFA, loaded once (zero-copy) for searching and for
//! explaining errors.

//! Recognizer tables and their walks: a compact transition table walked
//! one byte at a time, and its reverse, for walking an input from both ends
//! at once.

use crate::shapes::Shapes;
use crate::simd::{self, Level, LoopSet, LOOP_SET_BYTES};
use crate::tagged::{Pairs, TaggedDfa, NONE};
use crate::wire::{self, Kind, WireError, MAX_REGISTERS, NEXT_MASK};
use crate::ByteSet;

/// A recognizer's DFA as a flat table (see [`Kind::Table`]): row 0 is the
/// dead state, entries are premultiplied by `alphabet`, and after the
/// transitions comes one word per state that is 1 where the input may end.
///
/// The states from `skip_from` on (premultiplied) are walked bit-parallel:
/// each loops to itself on the bytes (and escapes) of its loop set, record
/// `(s - skip_from) / alphabet` of `loops`, so a run of them is skipped a
/// vector block at a time ([`crate::simd`]). `recip` is `2^32 / alphabet`
/// rounded up, so that `(s - skip_from) * recip >> 32` is that index with
/// no division.
///
/// Decoding checks that the start and every transition leave a whole row
/// after them in the transitions, and that every class is below
/// `alphabet` ([`WireError::OutOfRange`]): the walk from both ends steps
/// without bounds checks on the strength of it, and nothing changes a
/// table after it is decoded.
#[derive(Clone, Copy, Debug)]
pub struct Table<'a> {
    pub(crate) classes: [u8; 256],
    pub(crate) alphabet: u32,
    pub(crate) start: u32,
    pub(crate) words: Words<'a>,
    pub(crate) skip_from: u32,
    pub(crate) recip: u64,
    pub(crate) loops: &'a [u8],
    pub(crate) shuffle: Option<Shuffle<'a>>,
    pub(crate) shapes: Option<Shapes<'a>>,
}

/// A table's states as lanes of a 64-byte vector (the generator's
/// `automata::shuffle`): `rows[64 * b + j]` is the lane byte `b` leads lane
/// `j` to, `accept[j]` is 1 where lane `j` accepts. Lane 0 is the dead
/// state, lane [`simd::ESCAPE`] every state without a lane.
#[derive(Clone, Copy, Debug)]
pub struct Shuffle<'a> {
    pub(crate) rows: &'a [u8; simd::SHUFFLE_ROWS],
    pub(crate) accept: &'a [u8; simd::LANES],
    /// The table state of each lane (premultiplied; 0 for the escape lane).
    pub(crate) states: &'a [u32; simd::LANES],
    pub(crate) start: u8,
}

impl Shuffle<'_> {
    /// Whether all of `input` matches, walked as lanes by the given
    /// implementation (the scalar twin where the CPU lacks VBMI); `None`
    /// if the walk reached a state without a lane, and the table must
    /// walk it.
    #[inline(always)]
    pub fn full_match(&self, input: &[u8], level: simd::Level) -> Option<bool> {
        let lane = simd::shuffle_walk_with(level, self.rows, self.start, input);
        (lane != simd::ESCAPE).then(|| self.accept[usize::from(lane)] == 1)
    }

    /// The table state (premultiplied; 0 is the dead state) after `prefix`,
    /// walked as lanes; `None` if the walk escaped.
    #[inline(always)]
    pub fn state_after(&self, prefix: &[u8], level: simd::Level) -> Option<usize> {
        let lane = simd::shuffle_walk_with(level, self.rows, self.start, prefix);
        (lane != simd::ESCAPE).then(|| self.states[usize::from(lane)] as usize)
    }
}

/// The table's entries, 16-bit when they fit.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Words<'a> {
    U16(&'a [u16]),
    U32(&'a [u32]),
}

impl<'a> Words<'a> {
    /// `bytes` (4-aligned) as words of `width` bytes.
    ///
    /// # Safety
    ///
    /// `bytes` must start at a 4-byte boundary.
    const unsafe fn new(bytes: &'a [u8], width: u32) -> Words<'a> {
        // SAFETY: passed on from the caller.
        unsafe {
            if width == 2 {
                Words::U16(wire::as_u16s(bytes))
            } else {
                Words::U32(wire::as_u32s(bytes))
            }
        }
    }

    const fn len(&self) -> usize {
        match self {
            Words::U16(w) => w.len(),
            Words::U32(w) => w.len(),
        }
    }
}

/// The reverse of a [`Table`] (see [`Kind::Reverse`]): a state is the set of
/// table states from which the bytes read so far, backwards from the end,
/// lead to a match; `sets` holds each as a bitset of `set_words` words.
/// Entries are premultiplied by the table's alphabet.
#[derive(Clone, Copy, Debug)]
pub struct Reverse<'a> {
    pub(crate) start: u32,
    pub(crate) set_words: u32,
    /// The largest of the start state and the transitions: a walk whose
    /// classes leave room for a row after it steps without bounds checks.
    pub(crate) max: u32,
    pub(crate) words: Words<'a>,
    pub(crate) sets: &'a [u32],
}

wire::loaders!(Table, "a recognizer table ([`Kind::Table`])");

impl<'a> Table<'a> {
    /// # Safety
    ///
    /// `bytes` must start at a 4-byte boundary.
    const unsafe fn decode(bytes: &'a [u8]) -> Result<Table<'a>, WireError> {
        let (h, rest) = match wire::read_header(bytes, Kind::Table) {
            Ok(x) => x,
            Err(e) => return Err(e),
        };
        let (classes, rest) = match wire::read_classes(rest) {
            Ok(x) => x,
            Err(e) => return Err(e),
        };
        let (alphabet, start, n) = (h.params[0], h.params[1], h.params[2] as usize);
        let (skip_from, sets) = (h.params[3], h.params[4] as usize);
        // The words, padded to a 4-byte boundary, then the loop sets, then
        // the shuffle automaton if there is one.
        let word_bytes = (n * h.width as usize).next_multiple_of(4);
        let loop_end = word_bytes + sets * LOOP_SET_BYTES;
        // The shuffle rows start at a multiple of 64 bytes of the table
        // (`rest` starts 320 bytes in, after the header and class map).
        let shuffle_at =
            (wire::HEADER_BYTES + 256 + loop_end).next_multiple_of(64) - wire::HEADER_BYTES - 256;
        let shuffle_end = if h.params[5] == 1 {
            shuffle_at + simd::SHUFFLE_BYTES
        } else {
            loop_end
        };
        if rest.len() < shuffle_end || h.params[6] >= simd::LANES as u32 {
            return Err(WireError::Truncated);
        }
        let shapes = if h.params[7] != 1 {
            None
        } else {
            // From the next multiple of 64 bytes too.
            let at = (wire::HEADER_BYTES + 256 + shuffle_end).next_multiple_of(64) - wire::HEADER_BYTES - 256;
            match Shapes::decode(rest, at) {
                Some(sh) => Some(sh),
                None => return Err(WireError::Truncated),
            }
        };
        let loops = rest.split_at(word_bytes).1.split_at(sets * LOOP_SET_BYTES).0;
        let shuffle = if h.params[5] != 1 {
            None
        } else {
            let (rows, accept) = rest.split_at(shuffle_at).1.split_at(simd::SHUFFLE_ROWS);
            let (accept, states) = accept.split_at(simd::LANES);
            // SAFETY: `states` starts a multiple of 64 bytes into `bytes`
            // (the rows start at one, and the rows and the accept lanes
            // are multiples of 64 bytes long), so at a 4-byte boundary:
            // the caller guarantees one for `bytes`.
            let states = unsafe { wire::as_u32s(states) };
            match (rows.first_chunk(), accept.first_chunk(), states.first_chunk()) {
                (Some(rows), Some(accept), Some(states)) => Some(Shuffle {
                    rows,
                    accept,
                    states,
                    start: h.params[6] as u8,
                }),
                _ => return Err(WireError::Truncated),
            }
        };
        // SAFETY: the header (64 bytes) and the class map (256 bytes) keep
        // 4-byte alignment, which the caller guarantees for `bytes`.
        let words = match unsafe { Words::new(rest, h.width) } {
            Words::U16(w) => Words::U16(w.split_at(n).0),
            Words::U32(w) => Words::U32(w.split_at(n).0),
        };
        // Each state has `alphabet` transitions and one accept word.
        if alphabet == 0 || words.len() % (alphabet as usize + 1) != 0 || start as usize >= words.len() {
            return Err(WireError::Truncated);
        }
        // Every transition and the start leave room for a whole row after
        // them, and every class is inside a row: what the walk from both
        // ends relies on to step without bounds checks ([`Table::run_both`]).
        let trans = words.len() / (alphabet as usize + 1) * alphabet as usize;
        let max = wire::max_word(rest.split_at(trans * h.width as usize).0, h.width);
        let max = if max > start { max } else { start };
        if max as usize + alphabet as usize > trans {
            return Err(WireError::OutOfRange);
        }
        if !wire::classes_below(&classes, alphabet as usize) {
            return Err(WireError::OutOfRange);
        }
        Ok(Table {
            classes,
            alphabet,
            start,
            words,
            skip_from,
            recip: u32::MAX as u64 / alphabet as u64 + 1,
            loops,
            shuffle,
            shapes,
        })
    }

    /// The table's shuffle automaton, if the generator made one (for the
    /// rules a spec marks `@bidirectional`).
    pub fn shuffle(&self) -> Option<&Shuffle<'a>> {
        self.shuffle.as_ref()
    }

    /// The table's short inputs as shapes, if the generator found them
    /// ([`Shapes`]).
    pub fn shapes(&self) -> Option<&Shapes<'a>> {
        self.shapes.as_ref()
    }

    /// How many states are walked bit-parallel.
    pub fn skip_states(&self) -> usize {
        self.loops.len() / LOOP_SET_BYTES
    }

    /// The loop set of state `s` (premultiplied, at least `skip_from`).
    #[inline(always)]
    fn loop_set(&self, s: usize) -> LoopSet {
        let k = (((s - self.skip_from as usize) as u64 * self.recip) >> 32) as usize;
        LoopSet::from_records(self.loops, k)
    }

    /// [`Table::full_match`] walked bit-parallel at a given vector width
    /// ([`Level::Scalar`]: the scalar twin), whatever the input's length:
    /// from a state that loops on many bytes, the walk jumps to the first
    /// byte outside its loop set ([`simd::find_outside`]), and only that
    /// byte takes a table step. Skipped bytes loop to the same state, so
    /// the result (verdict and error offset) is [`Table::full_match`]'s.
    pub fn full_match_skipping(&self, input: &[u8], level: Level) -> Result<(), usize> {
        match self.words {
            Words::U16(w) => self.run_skip_in(w, input, level),
            Words::U32(w) => self.run_skip_in(w, input, level),
        }
    }

    /// Number of states (the dead state included).
    pub fn states(&self) -> usize {
        self.words.len() / (self.alphabet as usize + 1)
    }

    /// The state after `prefix` (0, the dead state, if no match can
    /// continue it).
    pub fn state_after(&self, prefix: &[u8]) -> usize {
        if prefix.len() >= SKIP_MIN && self.skips() {
            let level = Level::detected();
            let after = match self.words {
                Words::U16(w) => self.walk_skip(w, prefix, level),
                Words::U32(w) => self.walk_skip(w, prefix, level),
            };
            return after.unwrap_or(0);
        }
        let mut s = self.start as usize;
        for &b in prefix {
            s = match self.words {
                Words::U16(w) => step(w, &self.classes, s, b),
                Words::U32(w) => step(w, &self.classes, s, b),
            };
        }
        s
    }

    /// The bytes that continue a match from `state`.
    pub fn expected(&self, state: usize) -> ByteSet {
        if state == 0 {
            return ByteSet::EMPTY;
        }
        let alphabet = self.alphabet as usize;
        match self.words {
            Words::U16(w) => ByteSet::of_classes(&self.classes, alphabet, |c| w[state + c] != 0),
            Words::U32(w) => ByteSet::of_classes(&self.classes, alphabet, |c| w[state + c] != 0),
        }
    }

    /// Walks all of `input`: `Ok` if it matches, else the offset of the
    /// first byte after which no match is possible (or the input's length
    /// if it ended too early).
    pub fn full_match(&self, input: &[u8]) -> Result<(), usize> {
        self.run(input)
    }

    /// Whether `input` matches, walking its first half forwards with this
    /// table and its second half backwards with `rev` at once (what a
    /// bidirectional [`crate::Recognizer`] does).
    pub fn full_match_both_ends(&self, rev: &Reverse<'_>, input: &[u8]) -> bool {
        // SAFETY: `w` are this table's words.
        unsafe {
            match (&self.words, &rev.words) {
                (Words::U16(w), Words::U16(r)) => self.run_both(w, rev, r, input),
                (Words::U16(w), Words::U32(r)) => self.run_both(w, rev, r, input),
                (Words::U32(w), Words::U16(r)) => self.run_both(w, rev, r, input),
                (Words::U32(w), Words::U32(r)) => self.run_both(w, rev, r, input),
            }
        }
    }
}

wire::loaders!(Reverse, "the reverse automaton of a table ([`Kind::Reverse`])");

impl<'a> Reverse<'a> {
    /// # Safety
    ///
    /// `bytes` must start at a 4-byte boundary.
    const unsafe fn decode(bytes: &'a [u8]) -> Result<Reverse<'a>, WireError> {
        let (h, rest) = match wire::read_header(bytes, Kind::Reverse) {
            Ok(x) => x,
            Err(e) => return Err(e),
        };
        let (start, set_words, n) = (h.params[0], h.params[1], h.params[2] as usize);
        // The transitions, padded to a 4-byte boundary, then the sets.
        let trans_bytes = (n * h.width as usize).next_multiple_of(4);
        if rest.len() < trans_bytes {
            return Err(WireError::Truncated);
        }
        let (trans, sets) = rest.split_at(trans_bytes);
        // SAFETY: the header keeps the caller's 4-byte alignment, and the
        // sets start after a multiple of 4 bytes.
        let (words, sets) = unsafe { (Words::new(trans, h.width), wire::as_u32s(sets)) };
        if set_words == 0 || sets.len() % set_words as usize != 0 {
            return Err(WireError::Truncated);
        }
        let max = wire::max_word(trans.split_at(n * h.width as usize).0, h.width);
        Ok(Reverse {
            start,
            set_words,
            max: if max > start { max } else { start },
            words: match words {
                Words::U16(w) => Words::U16(w.split_at(n).0),
                Words::U32(w) => Words::U32(w.split_at(n).0),
            },
            sets,
        })
    }

    /// Number of states (the empty set included).
    pub fn states(&self) -> usize {
        self.sets.len() / self.set_words as usize
    }
}

/// How many inputs [`crate::Recognizer::is_match_many`] walks at once.
const LANES: usize = 4;

/// Inputs shorter than this are walked forwards only: for them, setting up
/// two walks costs more than it saves.
pub(crate) const BIDIRECTIONAL_MIN: usize = 8;

/// Inputs at least this long are walked bit-parallel ([`Table::full_match_skipping`])
/// when the table has states for it: for shorter ones, the two table walks
/// from both ends are quicker than setting up vector compares.
pub(crate) const SKIP_MIN: usize = 96;

/// [`crate::Recognizer::is_match`] walks inputs shorter than this from both
/// ends when the rule is bidirectional, even where it could walk them
/// bit-parallel (from [`SKIP_MIN`] bytes on): since the walk from both ends
/// steps without bounds checks, it is the quicker one up to here (A/B runs
/// of `profile validate-iri ours avx2`, min of 11: 52.2 ns with the
/// bit-parallel walk from 96 bytes, 50.1 from 128, 47.7 from 192;
/// instructions 8.62, 8.13 and 8.05 G), the length the shuffle automaton
/// takes with VBMI too.
pub(crate) const BOTH_ENDS_MAX: usize = SHUFFLE_MAX;

/// Inputs shorter than this are walked by the shuffle automaton, when the
/// table has one and the CPU the instructions: it reads a byte per cycle
/// whatever the input, which beats the bit-parallel walk's fixed cost up
/// to about 200 bytes (measured: 32 against 72 ns at 96-128 bytes, 52
/// against 73 ns at 128-192, 206 against 81 ns at 400-800, on the URI
/// and IRI corpora).
pub(crate) const SHUFFLE_MAX: usize = 192;

/// How many bytes of a longer input the shuffle automaton walks before the
/// bit-parallel walk takes over from the state it reached: the scheme and
/// authority, whose runs are too short for vector searches (measured on
/// the long corpus: 32, 48, 64 and 96 within noise of each other for IRIs,
/// 32 best for URIs; 128 slower).
pub(crate) const SHUFFLE_HEAD: usize = 32;

/// How many bytes the recognizer walks between checks for the dead state:
/// checking every byte costs a branch per byte, never checking would walk a
/// huge invalid input to its end.
const CHUNK: usize = 64;

/// Whether the bytes at `i` and `i + 1` are both in `set`: a run worth a
/// vector search. Shorter runs (most of them, at the start of an IRI) take
/// table steps, which are always right; this only saves the setup of a
/// search that would stop at once (measured on the long corpus: IRI
/// validation from 203 to 191 ns, extraction from 361 to 341 ns).
#[inline(always)]
fn run_ahead(set: &LoopSet, input: &[u8], i: usize) -> bool {
    match input.get(i..i + 2) {
        Some(&[a, b]) => set.bytes.contains(a) && set.bytes.contains(b),
        _ => false,
    }
}

/// One entry type of a [`Table`].
pub(crate) trait Entry: Copy {
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
pub(crate) fn step<T: Entry>(trans: &[T], classes: &[u8; 256], s: usize, b: u8) -> usize {
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

/// Keeps the compiler from unrolling the loop this is called in: an empty
/// assembly block, which emits no instruction. Unrolled by two, the walk
/// from both ends branched on the parity of its step count before the
/// loop, which a corpus of mixed lengths mispredicts on every other input
/// (cachegrind on the short IRI corpus at AVX2: 1.89 -> 1.35
/// mispredictions and 408 -> 488 instructions an IRI rolled; the steps'
/// chain of loads, not their instructions, is what the walk waits on).
#[inline(always)]
fn keep_rolled() {
    // (Not under Miri, which runs no assembly.)
    #[cfg(all(any(target_arch = "x86_64", target_arch = "aarch64"), not(miri)))]
    // SAFETY: an empty block that reads and writes no memory, no stack
    // and no flags; it only stands in the optimizer's way.
    unsafe {
        core::arch::asm!("", options(nomem, nostack, preserves_flags));
    }
}

/// [`chain_step`] without bounds checks.
///
/// # Safety
///
/// `s + alphabet <= trans.len()` for the table's alphabet, whose classes
/// are all below it.
#[inline(always)]
unsafe fn chain_step_unchecked<T: Entry>(trans: &[T], classes: &[u8; 256], s: usize, b: u8) -> usize {
    // SAFETY: `classes[b] < alphabet`, so `classes[b] + s < trans.len()`,
    // as the caller guarantees.
    unsafe { (*trans.as_ptr().add(usize::from(classes[usize::from(b)])).add(s)).index() }
}

impl Table<'_> {
    #[inline(always)]
    fn run_skip_in<T: Entry>(&self, words: &[T], input: &[u8], level: Level) -> Result<(), usize> {
        self.run_skip_from_in(words, self.start as usize, input, 0, level)
    }

    /// [`Table::full_match_skipping`] from table state `s` (premultiplied, not dead)
    /// at offset `from` of `input`.
    #[inline]
    pub(crate) fn run_skip_from(&self, s: usize, input: &[u8], from: usize) -> Result<(), usize> {
        let level = Level::detected();
        match self.words {
            Words::U16(w) => self.run_skip_from_in(w, s, input, from, level),
            Words::U32(w) => self.run_skip_from_in(w, s, input, from, level),
        }
    }

    #[inline(always)]
    fn run_skip_from_in<T: Entry>(
        &self,
        words: &[T],
        s: usize,
        input: &[u8],
        from: usize,
        level: Level,
    ) -> Result<(), usize> {
        match self.walk_skip_from(words, s, input, from, level) {
            Ok(s) if self.accepts(words, s) => Ok(()),
            Ok(_) => Err(input.len()),
            Err(i) => Err(i),
        }
    }

    /// The state after all of `input`, walked bit-parallel, or the offset
    /// of the byte that leads to the dead state.
    #[inline(always)]
    fn walk_skip<T: Entry>(&self, words: &[T], input: &[u8], level: Level) -> Result<usize, usize> {
        self.walk_skip_from(words, self.start as usize, input, 0, level)
    }

    /// [`Table::walk_skip`] from state `s` at offset `i`.
    #[inline(always)]
    fn walk_skip_from<T: Entry>(
        &self,
        words: &[T],
        mut s: usize,
        input: &[u8],
        mut i: usize,
        level: Level,
    ) -> Result<usize, usize> {
        let classes = &self.classes;
        let from = self.skip_from as usize;
        let finder = simd::OutsideFinder::at(level);
        // Unchecked steps need `s` to leave a row's room; decoding checked
        // that the start and every transition do (a state from elsewhere,
        // the shuffle automaton's, is checked here once).
        if s + self.alphabet as usize > words.len() {
            return Err(i);
        }
        loop {
            if s >= from {
                let set = self.loop_set(s);
                if run_ahead(&set, input, i) {
                    i = finder.find(&set, input, i);
                }
            }
            let Some(&b) = input.get(i) else { break };
            // SAFETY: `s` is the start, a transition (decoding checked that
            // each leaves a row's room in `words`, this table's) or the
            // state checked above, and every class is below the alphabet.
            s = unsafe { chain_step_unchecked(words, classes, s, b) };
            if s == 0 {
                return Err(i);
            }
            i += 1;
        }
        Ok(s)
    }

    /// Whether the table has states to walk bit-parallel.
    #[inline(always)]
    pub(crate) fn skips(&self) -> bool {
        !self.loops.is_empty()
    }

    /// [`crate::Recognizer::extract`] bit-parallel, forwards only: where
    /// the recognizer is in a state that loops on many bytes and the tagged
    /// DFA in a state that loops on many without effect, both skip to the
    /// first byte outside both loop sets ([`LoopSet::meet`]); every other
    /// byte steps both.
    #[inline]
    pub(crate) fn run_skip_tagged(
        &self,
        x: &TaggedDfa<'_>,
        input: &[u8],
        tags: &mut [usize],
    ) -> Result<(), Stop> {
        match self.words {
            Words::U16(w) => self.run_skip_tagged_in(w, x, input, tags),
            Words::U32(w) => self.run_skip_tagged_in(w, x, input, tags),
        }
    }

    #[inline(always)]
    fn run_skip_tagged_in<T: Entry>(
        &self,
        words: &[T],
        x: &TaggedDfa<'_>,
        input: &[u8],
        tags: &mut [usize],
    ) -> Result<(), Stop> {
        let classes = &self.classes;
        let from = self.skip_from as usize;
        let (xw, xc, op_start) = (x.words, &x.classes, x.op_start as usize);
        let finder = simd::OutsideFinder::at(Level::detected());
        let mut regs = [NONE; MAX_REGISTERS + 1];
        x.start_regs(&mut regs, 0);
        let mut q = self.start as usize;
        let mut s = x.start as usize;
        let mut i = 0;
        loop {
            if q >= from {
                let mine = self.loop_set(q);
                if run_ahead(&mine, input, i) {
                    let both = mine.meet(&x.loop_set(s));
                    if run_ahead(&both, input, i) {
                        i = finder.find(&both, input, i);
                    }
                }
            }
            let Some(&b) = input.get(i) else { break };
            let before = q;
            // SAFETY: `q` is the start or a transition (decoding checked
            // that each leaves a row's room in `words`, this table's), and
            // every class is below the alphabet.
            q = unsafe { chain_step_unchecked(words, classes, q, b) };
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

    /// Walks `input`; `Ok` if it matches, else the offset of the first byte
    /// after which no match is possible (or the input's length).
    #[inline]
    pub(crate) fn run(&self, input: &[u8]) -> Result<(), usize> {
        match self.words {
            Words::U16(w) => self.run_in(w, input),
            Words::U32(w) => self.run_in(w, input),
        }
    }

    #[inline(always)]
    pub(crate) fn run_in<T: Entry>(&self, words: &[T], input: &[u8]) -> Result<(), usize> {
        self.run_from(words, input, self.start as usize, 0)
    }

    /// [`Table::run_in`] from state `s` after the first `done` bytes.
    #[inline(always)]
    pub(crate) fn run_from<T: Entry>(
        &self,
        words: &[T],
        input: &[u8],
        mut s: usize,
        mut done: usize,
    ) -> Result<(), usize> {
        let classes = &self.classes;
        // Unchecked steps need `s` to leave a row's room, as decoding
        // checked the start and every transition do.
        if s + self.alphabet as usize > words.len() {
            return Err(done);
        }
        for chunk in input[done..].chunks(CHUNK) {
            // The hot loop: one class lookup and one table lookup per byte.
            // The dead state loops to itself, so it is checked per chunk.
            let mut t = s;
            for &b in chunk {
                // SAFETY: `t` is `s` (checked above) or a transition
                // (decoding checked that each leaves a row's room in
                // `words`, this table's), and every class is below the
                // alphabet.
                t = unsafe { chain_step_unchecked(words, classes, t, b) };
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

    /// Where an input known not to match fails, walking forwards from
    /// `at` one byte at a time and stopping there (the error path: one
    /// pass, where [`Table::run_from`] would walk a chunk twice): the
    /// offset and the state before it. `None` if the input matches after
    /// all.
    pub(crate) fn find_error(&self, input: &[u8], at: Resume) -> Option<(usize, usize)> {
        fn walk<T: Entry>(t: &Table<'_>, words: &[T], input: &[u8], at: Resume) -> Option<(usize, usize)> {
            let mut s = at.state;
            for (i, &b) in input[at.done..].iter().enumerate() {
                let next = step(words, &t.classes, s, b);
                if next == 0 {
                    return Some((at.done + i, s));
                }
                s = next;
            }
            (!t.accepts(words, s)).then_some((input.len(), s))
        }
        match self.words {
            Words::U16(w) => walk(self, w, input, at),
            Words::U32(w) => walk(self, w, input, at),
        }
    }

    /// [`Recognizer::extract`] one byte at a time, forwards only.
    #[inline(always)]
    pub(crate) fn run_tagged<T: Entry>(
        &self,
        words: &[T],
        x: &TaggedDfa<'_>,
        input: &[u8],
        tags: &mut [usize],
    ) -> Result<(), Stop> {
        let classes = &self.classes;
        let (xw, xc) = (x.words, &x.classes);
        let op_start = x.op_start as usize;
        let mut regs = [NONE; MAX_REGISTERS + 1];
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
    pub(crate) fn run_pairs<T: Entry, R: Entry>(
        &self,
        words: &[T],
        rev: &Reverse<'_>,
        rwords: &[R],
        x: &TaggedDfa<'_>,
        pairs: &Pairs<'_>,
        input: &[u8],
        tags: &mut [usize],
    ) -> Result<(), Stop> {
        let classes = &self.classes;
        let (xc, xa) = (&x.classes, x.alphabet as usize);
        let (row1, row2) = (xa + 1, xa * xa);
        let cells = x.states() * row2;
        let (pn, pe) = (&pairs.words[..cells], &pairs.words[cells..2 * cells]);
        // Both as long as each other, so that one bounds check serves both
        // lookups of a round (fewer registers live in the loop: with one
        // more, the loop spilled to the stack).
        let pe = &pe[..pn.len()];
        let mut regs = [NONE; MAX_REGISTERS + 1];
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
            // Iterators rather than indices: no bounds checks on the input.
            let rounds = fs.iter().zip(bs.iter().rev()).zip(ps.chunks_exact(2));
            for (k, ((&a, &b), p)) in rounds.enumerate() {
                q = step(words, classes, q, a);
                r = step(rwords, classes, r, b);
                let c = usize::from(xc[usize::from(p[0])]) * xa + usize::from(xc[usize::from(p[1])]);
                let f = pe[s + c];
                effects[k % CHUNK] = f as u16;
                some |= u64::from(f != 0) << (k % CHUNK);
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
    pub(crate) fn accepts<T: Entry>(&self, words: &[T], q: usize) -> bool {
        let alphabet = self.alphabet as usize;
        let states = words.len() / (alphabet + 1);
        words[states * alphabet + q / alphabet].index() == 1
    }

    /// The tags of an extraction that ended in state `s`.
    #[inline(always)]
    fn finish(
        x: &TaggedDfa<'_>,
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
    ///
    /// The steps have no bounds checks (they were a third of the walk's
    /// instructions, and it is bound by how many it runs as much as by the
    /// chains' latency: A/B runs of `profile validate-iri ours avx2`, 66
    /// against 49 ns): decoding checked that every transition of this
    /// table leaves a row's room after it ([`WireError::OutOfRange`]), and
    /// the reverse automaton's largest entry is checked here (a reverse
    /// automaton of another table walks with the checked steps).
    ///
    /// # Safety
    ///
    /// `words` must be this table's words.
    #[inline(always)]
    pub(crate) unsafe fn run_both<T: Entry, R: Entry>(
        &self,
        words: &[T],
        rev: &Reverse<'_>,
        rwords: &[R],
        input: &[u8],
    ) -> bool {
        let classes = &self.classes;
        // Both walks take half the input, rounded up: for an odd length the
        // middle byte is the last step of both, and the reverse state before
        // it (`before`) is the one to meet. The same number of steps whatever
        // the length's parity, with no branch on it (which a corpus of mixed
        // lengths mispredicts on every other input: A/B runs of `profile
        // validate-iri ours avx2`, 48.8 -> 45.0 ns, min of 7; cachegrind's
        // mispredictions 2.09 -> 1.62 an IRI).
        let n = input.len();
        let half = n.div_ceil(2);
        let (x, y) = (&input[..half], &input[n - half..]);
        let mut q = self.start as usize;
        let mut r = rev.start as usize;
        let mut before = r;
        if rev.max as usize + self.alphabet as usize > rwords.len() {
            // Not this table's reverse automaton: checked steps.
            for (&a, &b) in x.iter().zip(y.iter().rev()) {
                q = chain_step(words, classes, q, a);
                before = r;
                r = chain_step(rwords, classes, r, b);
            }
        } else if half <= CHUNK {
            // Pair `x[k]` with `y[half - 1 - k]`.
            for (&a, &b) in x.iter().zip(y.iter().rev()) {
                // SAFETY: `q` is this table's start or one of its
                // transitions (`words` are this table's, as the caller
                // guarantees), each of which decoding checked has a row's
                // room after it, and the classes are below the alphabet;
                // `r` is the reverse automaton's start or a transition,
                // none larger than `rev.max`, checked just above.
                unsafe {
                    q = chain_step_unchecked(words, classes, q, a);
                    before = r;
                    r = chain_step_unchecked(rwords, classes, r, b);
                }
                keep_rolled();
            }
        } else {
            // Both dead states loop to themselves: check them per chunk, so
            // that a long bad input stops early.
            for (xs, ys) in x.chunks(CHUNK).zip(y.rchunks(CHUNK)) {
                for (&a, &b) in xs.iter().zip(ys.iter().rev()) {
                    // SAFETY: as above.
                    unsafe {
                        q = chain_step_unchecked(words, classes, q, a);
                        before = r;
                        r = chain_step_unchecked(rwords, classes, r, b);
                    }
                }
                if q == 0 || r == 0 {
                    return false;
                }
            }
        }
        let r = core::hint::select_unpredictable(n % 2 == 1, before, r);
        self.meet(rev, q, r)
    }

    /// Whether forward state `q` is in reverse state `r`'s set.
    #[inline(always)]
    pub(crate) fn meet(&self, rev: &Reverse<'_>, q: usize, r: usize) -> bool {
        // Both are multiples of the alphabet below 2^32: dividing by a
        // multiplication with the rounded-up reciprocal is exact (the error,
        // under one per state, stays below 2^32), and it ends the walk's
        // chain of latencies sooner than two divisions.
        let state = |s: usize| ((s as u64 * self.recip) >> 32) as usize;
        let (q, r) = (state(q), state(r));
        rev.sets[r * rev.set_words as usize + q / 32] >> (q % 32) & 1 == 1
    }

    /// Many inputs at a time: [`LANES`] walks interleaved, so that the
    /// table lookups of different inputs overlap (a single walk waits on
    /// each lookup before the next). All lanes step together for as many
    /// bytes as the shortest of them has left, with no branch per byte; a
    /// lane that reaches the end of its input takes the next one.
    pub(crate) fn run_many<S: AsRef<[u8]>, T: Entry>(&self, words: &[T], inputs: &[S], out: &mut [bool]) {
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
    pub(crate) state: usize,
    pub(crate) done: usize,
}
