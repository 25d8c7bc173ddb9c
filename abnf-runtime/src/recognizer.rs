//! The recognizer of one rule: a compact table walked one byte at a time
//! (from both ends for long inputs of `@bidirectional` rules), and the same
//! automaton as a serialized sparse `regex-automata` DFA, loaded once,
//! zero-copy, for searching.

use core::fmt;

use once_cell::race::OnceBox;
use regex_automata::dfa::sparse;

use crate::simd::{walk_exits, ExitWalk, Level};
use crate::table::{
    Resume, Reverse, Stop, Table, Words, BIDIRECTIONAL_MIN, BOTH_ENDS_MAX, SHUFFLE_HEAD, SHUFFLE_MAX,
    SKIP_MIN,
};
use crate::tagged::TaggedDfa;
use crate::wire::Aligned;
use crate::ByteSet;

type SparseDfa = sparse::DFA<&'static [u8]>;

/// A recognizer for one ABNF rule: answers whether a whole string matches it.
///
/// Every exported rule of every generated grammar is a `static Recognizer`
/// in its grammar's module (here, RFC 3339's `date-time` from the example
/// crate of this repository).
///
/// ```
/// use rfc3339_example::rfc3339;
///
/// assert!(rfc3339::DATE_TIME.is_match("1985-04-12T23:20:50.52Z"));
/// let err = rfc3339::DATE_TIME.validate("1985-04-12T23:20").unwrap_err();
/// assert_eq!(err.offset(), 16);
/// assert_eq!(err.rule(), "date-time");
/// assert_eq!(err.expected().to_string(), "':'");
/// ```
pub struct Recognizer {
    grammar: &'static str,
    rule: &'static str,
    table: Table<'static>,
    reverse: Option<Reverse<'static>>,
    sparse: &'static [u8],
    dfa: OnceBox<SparseDfa>,
    /// The grammar's one-character rules, by name ([`Recognizer::classes`]).
    classes: &'static [(&'static str, ByteSet)],
    /// The table walked as code, where the generator wrote it
    /// ([`DirectWalk`]).
    direct: Option<DirectWalk>,
}

/// A rule's table walked as code, which `abnf-codegen` writes for a rule
/// whose automaton has states that loop on many bytes: `walk(input, s,
/// from, finder)` matches `input[from..]` from table state `s`
/// (premultiplied) as [`Table::full_match_skipping`] does, with the same
/// result (verdict and offset), searching runs of those states with
/// `finder`, or stepping through them where it is `None` (a CPU without
/// vectors). Each state is a block of code and each transition a jump, so
/// the CPU predicts the next state where the table walk would wait on a
/// load (measured on RFC 9112 request heads: 0.6x the time of the table's
/// bit-parallel walk at AVX2, and 0.53-0.61x the time of its plain walk
/// with no vectors, 2026-11-29).
#[doc(hidden)]
pub type DirectWalk = fn(&[u8], usize, usize, Option<crate::simd::OutsideFinder>) -> Result<(), usize>;

impl Recognizer {
    /// What generated code calls: the tables as `abnf-codegen` wrote them
    /// (checked while the code is compiled; see [`crate::wire`]).
    #[doc(hidden)]
    pub const fn __new(
        grammar: &'static str,
        rule: &'static str,
        table: &'static Aligned<[u8]>,
        reverse: Option<&'static Aligned<[u8]>>,
        sparse: &'static [u8],
        classes: &'static [(&'static str, ByteSet)],
    ) -> Recognizer {
        let table = Table::__wire(table);
        Recognizer {
            grammar,
            rule,
            table,
            reverse: match reverse {
                Some(r) => Some(Reverse::__wire(r)),
                None => None,
            },
            sparse,
            dfa: OnceBox::new(),
            classes,
            direct: None,
        }
    }

    /// This recognizer with its table walked as code ([`DirectWalk`]),
    /// for the inputs the bit-parallel walk takes.
    #[doc(hidden)]
    pub const fn __with_direct(mut self, walk: DirectWalk) -> Recognizer {
        self.direct = Some(walk);
        self
    }

    /// The bit-parallel walk of `input[from..]` from table state `s`
    /// (premultiplied, not dead) at the detected level: the generated
    /// code's where the rule has it, else the table's.
    #[inline]
    fn run_skip_from(&self, s: usize, input: &[u8], from: usize) -> Result<(), usize> {
        match self.direct {
            Some(walk) => walk(
                input,
                s,
                from,
                crate::simd::OutsideFinder::vectors(Level::detected()),
            ),
            None => self.table.run_skip_from(s, input, from),
        }
    }

    /// The bit-parallel walk of all of `input` at `level`, as code where
    /// the rule has it (`None` if it has not), for tests and fuzzing that
    /// compare it with [`Table::full_match_skipping`].
    #[doc(hidden)]
    pub fn __direct_match(&self, input: &[u8], level: Level) -> Option<Result<(), usize>> {
        let walk = self.direct?;
        // Without vectors the walk steps its runs, as `is_match` does.
        let finder = crate::simd::OutsideFinder::vectors(level);
        Some(walk(input, self.table.start as usize, 0, finder))
    }

    /// The rules of the recognizer's grammar that match one character
    /// (`sub-delims`, `unreserved`), each as the set of bytes its characters
    /// start with, largest first: errors name what they expected by them
    /// ([`ByteSet::named`]). RFC 5234's core rules are not among them: the
    /// display of a [`ByteSet`] names those (`a letter`, `a digit`).
    pub fn classes(&self) -> &'static [(&'static str, ByteSet)] {
        self.classes
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
    ///
    /// This checks the rule's grammar and nothing else: requirements that a
    /// specification states in prose (RFC 3987 §4.1's ban on bidirectional
    /// formatting characters in IRIs, say) are the business of the library
    /// built on the grammar (`iri_grammar::IriRef::parse` checks it).
    #[inline]
    pub fn is_match(&self, input: &str) -> bool {
        self.is_match_bytes(input.as_bytes())
    }

    /// Whether all of `input` matches the rule. Bytes that are not UTF-8 never
    /// match (the grammars are over Unicode characters).
    ///
    /// Rules whose short inputs are a few products of byte sets per
    /// position (see [`Recognizer::is_positional`]) decide inputs of up to
    /// 64 bytes by checking every position at once, with no walk.
    ///
    /// Rules named in a spec's `@bidirectional` directive walk a long input
    /// from both ends at once (see [`Recognizer::is_bidirectional`]).
    ///
    /// Inputs of 96 bytes or more (192 for `@bidirectional` rules), when
    /// the rule's automaton has states that loop on many bytes and the CPU
    /// has vectors (SSSE3 or more), are walked bit-parallel instead: runs
    /// of those states are skipped a vector block at a time
    /// ([`Table::full_match_skipping`]); for a rule that no other rule of
    /// its grammar uses, the generator also wrote the table as code, a
    /// block per state, which walks them with the same searches and the
    /// same result (and predicts better); without vectors, that code steps
    /// through the runs, where the table is walked a byte at a time (the
    /// code predicts better there too). Inputs under 192 bytes of
    /// `@bidirectional` rules are walked as a shuffle automaton instead
    /// where the CPU has AVX-512 VBMI ([`crate::table::Shuffle`]), and as
    /// above if they reach a state it has no lane for; longer inputs walk
    /// their first 32 bytes so, and the rest bit-parallel from there.
    #[inline(always)]
    pub fn is_match_bytes(&self, input: &[u8]) -> bool {
        // A short input of a language of few shapes (a UUID, a timestamp):
        // every position checked at once, no walk.
        if let Some(sh) = &self.table.shapes {
            if sh.decides(input.len()) {
                return sh.fits(input);
            }
        }
        self.is_match_walked(input)
    }

    /// [`Recognizer::is_match_bytes`] past the shapes, out of line: the
    /// shapes' check is a few instructions in the caller's code and one
    /// call, with none of the walks' register saves.
    #[inline(never)]
    fn is_match_walked(&self, input: &[u8]) -> bool {
        if let Some(sh) = &self.table.shuffle {
            let level = Level::detected();
            if level == Level::Vbmi {
                if input.len() < SHUFFLE_MAX {
                    if let Some(verdict) = sh.full_match(input, level) {
                        return verdict;
                    }
                } else if self.table.skips() {
                    // The head of a long input, where runs are short, as
                    // lanes; the rest bit-parallel from the state reached.
                    if let Some(s) = sh.state_after(&input[..SHUFFLE_HEAD], level) {
                        return s != 0 && self.run_skip_from(s, input, SHUFFLE_HEAD).is_ok();
                    }
                }
            }
        }
        // The scalar twin of the bit-parallel walk is slower than the walk
        // from both ends (A/B runs of `profile validate-iri-long ours
        // scalar`: 3.1-4.4 against 4.3-5.4 µs per IRI, URIs 3.3-4.0 against
        // 3.5-4.6), so without vectors long inputs take that. A rule that
        // is not bidirectional takes its walk as code, stepping its runs,
        // where it has one (RFC 9112 request heads: 343-361 ns against
        // 638-688 for the table's walk; long IRIs, whose runs change state
        // every few bytes, took 2.8-4.4 µs that way against 1.5-1.8 from
        // both ends). With vectors, inputs under `BOTH_ENDS_MAX` bytes of
        // a bidirectional rule take the walk from both ends too.
        let both_ends_max = if self.reverse.is_some() {
            BOTH_ENDS_MAX
        } else {
            SKIP_MIN
        };
        if input.len() >= both_ends_max && self.table.skips() {
            if Level::detected() != Level::Scalar {
                return self.run_skip_from(self.table.start as usize, input, 0).is_ok();
            }
            if let (Some(walk), None) = (self.direct, &self.reverse) {
                // (`OutsideFinder::vectors` is `None` here: steps.)
                return walk(input, self.table.start as usize, 0, None).is_ok();
            }
        }
        match &self.reverse {
            Some(rev) if input.len() >= BIDIRECTIONAL_MIN => self.table.full_match_both_ends(rev, input),
            _ => self.table.run(input).is_ok(),
        }
    }

    /// Whether the rule's short inputs are checked position by position:
    /// for each length up to 64 bytes, the inputs its automaton accepts are
    /// a few products of byte sets per position (a UUID's 36 positions, a
    /// timestamp's per fraction length and offset form), which
    /// [`Recognizer::is_match`] then checks at every position at once
    /// instead of walking the table ([`crate::Shapes`]). The generator finds
    /// them in the automaton, for any grammar.
    pub fn is_positional(&self) -> bool {
        self.table.shapes.is_some()
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

    /// Whether all of `input` matches, walking it from both ends at once
    /// for a bidirectional rule (forwards only otherwise), whatever the
    /// input's length and the CPU: what [`Recognizer::is_match_bytes`]
    /// does for short inputs without a shuffle automaton, or when one
    /// escapes.
    pub fn is_match_both_ends(&self, input: &[u8]) -> bool {
        match &self.reverse {
            Some(rev) => self.table.full_match_both_ends(rev, input),
            None => self.table.run(input).is_ok(),
        }
    }

    /// Checks many inputs at once: `out[i]` says whether `inputs[i]`
    /// matches. Faster than a loop over [`Recognizer::is_match`] (several
    /// inputs are walked in step), and allocates nothing.
    ///
    /// ```
    /// let inputs = ["1985-04-12T23:20:50Z", "yesterday", "1990-12-31T23:59:60Z", "1990-12-31"];
    /// let mut valid = [false; 4];
    /// rfc3339_example::rfc3339::DATE_TIME.is_match_many(&inputs, &mut valid);
    /// assert_eq!(valid, [true, false, true, false]);
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
    /// [`Recognizer::is_match`].
    ///
    /// Inputs of 96 bytes or more, when both automata have loop sets, are
    /// walked bit-parallel instead: forwards, skipping the runs on which
    /// both loop.
    #[doc(hidden)]
    pub fn extract(&self, parts: &TaggedDfa<'_>, input: &str, tags: &mut [usize]) -> Result<(), Stop> {
        let bytes = input.as_bytes();
        if bytes.len() >= SKIP_MIN && self.table.skips() && parts.has_loops() {
            return self.table.run_skip_tagged(parts, bytes, tags);
        }
        self.__extract_plain(parts, input, tags)
    }

    /// [`Recognizer::extract`] for an extraction that the generator also
    /// emitted as an exit-to-exit walk (`walk`, over the same tagged DFA
    /// `parts`). Where the rule has a shuffle automaton and the input is
    /// under 192 bytes, or the CPU has AVX-512 VBMI, the input is checked
    /// first ([`Recognizer::is_match`]), then `walk` finds the parts, a
    /// vector test and a trailing-zero count per state it passes through
    /// where the CPU has vectors for the walk's atoms, a byte loop
    /// elsewhere ([`crate::simd::walk_exits`]): two short passes in place
    /// of one walk of two automata in step. Elsewhere, and
    /// for inputs that do not match (whose error needs the forward walk),
    /// this is [`Recognizer::extract`]; an input under 96 bytes that does not match
    /// stops at once, for [`Recognizer::__error`] to walk forwards from its
    /// start (a long one is walked bit-parallel to its error, as
    /// [`Recognizer::extract`] does).
    #[doc(hidden)]
    #[inline]
    pub fn extract_by_exits<W: ExitWalk>(
        &self,
        parts: &TaggedDfa<'_>,
        walk: &W,
        input: &str,
        tags: &mut [usize],
    ) -> Result<(), Stop> {
        // Below VBMI, long inputs take the one-pass walk that skips the
        // runs both automata loop on: two passes with 32-byte blocks were
        // slower on the long corpus (A/B runs of `profile extract-long ours
        // avx2`: 815-1112 ns one pass against 982-1351 two), and with
        // 64-byte blocks (VBMI) faster (814-943 against 939-1018). Inputs
        // under 192 bytes take two passes at every level, even with the
        // scalar search (`profile extract ours scalar`: 412-561 against
        // 586-656 ns); from 96 to 191 bytes since the walk from both ends
        // lost its bounds checks (`profile extract ours avx2`, min of 11:
        // 138.8 against 133.3 ns, SSSE3 174.4 against 165.5).
        let level = Level::detected();
        let two_passes = level == Level::Vbmi || input.len() < BOTH_ENDS_MAX;
        if self.table.shuffle.is_some() && two_passes {
            let bytes = input.as_bytes();
            if self.is_match_bytes(bytes) {
                return match walk_exits(level, walk, bytes, tags) {
                    true => Ok(()),
                    false => Err(Stop::Parts),
                };
            }
            if bytes.len() < SKIP_MIN {
                return Err(Stop::Rule(Resume {
                    state: self.table.start as usize,
                    done: 0,
                }));
            }
        }
        self.extract(parts, input, tags)
    }

    /// [`Recognizer::extract`] by the bit-parallel walk whatever the
    /// input's length (`None` if either automaton has no loop sets), for
    /// tests.
    #[doc(hidden)]
    pub fn __extract_skipping(
        &self,
        parts: &TaggedDfa<'_>,
        input: &str,
        tags: &mut [usize],
    ) -> Option<Result<(), Stop>> {
        (self.table.skips() && parts.has_loops())
            .then(|| self.table.run_skip_tagged(parts, input.as_bytes(), tags))
    }

    /// [`Recognizer::extract`] by the plain walks (from both ends, two-byte
    /// steps) whatever the input's length, for tests.
    #[doc(hidden)]
    #[inline(always)]
    pub fn __extract_plain(
        &self,
        parts: &TaggedDfa<'_>,
        input: &str,
        tags: &mut [usize],
    ) -> Result<(), Stop> {
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

    /// The error for an input known not to match (the forward walk alone
    /// finds where the mismatch starts; it resumes from `at`, as
    /// [`Recognizer::extract`] left it).
    #[doc(hidden)]
    #[cold]
    ///
    /// The error holds the offset and the table state there
    /// ([`MatchError::__state`]): its callers (a library's own error type)
    /// work out what was expected when they are displayed, so that
    /// rejecting an input costs no more than finding where it fails.
    pub fn __error(&self, input: &str, at: Resume) -> MatchError {
        match self.table.find_error(input.as_bytes(), at) {
            Some((offset, state)) => MatchError {
                state,
                names: Names::Classes(self.classes),
                ..MatchError::__new(self.grammar, self.rule, offset)
            },
            None => crate::__private::inconsistent(self.grammar, self.rule, input.len()),
        }
    }

    /// Checks `input`; the error says at which byte offset the input stopped
    /// matching (the longest prefix that could still be completed), what it
    /// found there and what the rule expected.
    ///
    /// Like [`Recognizer::is_match`], this checks the rule's grammar only.
    pub fn validate(&self, input: &str) -> Result<(), MatchError> {
        self.validate_bytes(input.as_bytes())
    }

    /// Like [`Recognizer::validate`] on bytes.
    pub fn validate_bytes(&self, input: &[u8]) -> Result<(), MatchError> {
        if input.len() >= SKIP_MIN && self.table.skips() {
            // A rule with a shuffle automaton checks the input the fast way
            // first; the bit-parallel walk finds the table walk's offset.
            if self.table.shuffle.is_some() && self.is_match_bytes(input) {
                return Ok(());
            }
            return self
                .run_skip_from(self.table.start as usize, input, 0)
                .map_err(|offset| self.error(input, offset));
        }
        if self.reverse.is_some() && self.is_match_bytes(input) {
            return Ok(());
        }
        // Only the forward walk finds where a mismatch starts.
        self.table.run(input).map_err(|offset| self.error(input, offset))
    }

    /// The recognizer's table (for walking it directly, and for tests that
    /// compare its walks).
    pub fn table(&self) -> &Table<'static> {
        &self.table
    }

    /// The state of the table after `prefix` (0, the dead state, if no
    /// match can continue it).
    #[doc(hidden)]
    pub fn state_after(&self, prefix: &[u8]) -> usize {
        self.table.state_after(prefix)
    }

    /// Whether byte `b` continues a match from table state `state`.
    #[doc(hidden)]
    pub fn continues(&self, state: usize, b: u8) -> bool {
        self.table.expected(state).contains(b)
    }

    /// The error at `offset` of `input`, with what was expected there.
    #[cold]
    fn error(&self, input: &[u8], offset: usize) -> MatchError {
        let state = self.table.state_after(&input[..offset.min(input.len())]);
        MatchError {
            names: Names::Classes(self.classes),
            ..MatchError::at(self.grammar, self.rule, input, offset, self.table.expected(state))
        }
    }
}

impl fmt::Debug for Recognizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Recognizer({}:{})", self.grammar, self.rule)
    }
}

/// An input that does not match a rule: where it stopped matching, what was
/// there, and which bytes could have continued a match.
///
/// ```
/// use abnf_runtime::ByteSet;
///
/// let e = abnf_runtime::MatchError::at("g", "digits", b"12x", 2, ByteSet::from_range(b'0', b'9'));
/// assert_eq!(e.offset(), 2);
/// assert_eq!(e.to_string(), "invalid g:digits at byte offset 2: found 'x', expected a digit");
/// ```
///
/// Two errors are equal when they are for the same rule at the same offset
/// (what was found and expected there follow from the input; an error made
/// on a fast path, [`MatchError::expected`] empty, equals the full one).
#[derive(Clone, Copy)]
pub struct MatchError {
    grammar: &'static str,
    rule: &'static str,
    offset: usize,
    found: Found,
    expected: ByteSet,
    /// The table state before `offset`, where the walk that found the
    /// error knew it (`usize::MAX` otherwise); for a tagged DFA's error,
    /// the row of its state there.
    state: usize,
    /// For a network rule's error, the innermost rule open at `offset`
    /// (`None` otherwise); then `state` holds the offset where it was called.
    /// (The error's kind is in `found`: `MatchError` stays under 128 bytes.)
    open_rule: Option<&'static &'static str>,
    /// The grammar's class names for `expected` ([`Recognizer::classes`]),
    /// or the tagged DFA whose state `state` is.
    names: Names,
}

/// Where the names of a [`MatchError`]'s expected bytes come from, or, for
/// an error of a generated tagged DFA, the automaton: what it expected is
/// worked out from its state when asked for, so that an error nobody reads
/// costs no pass over the byte classes. 16 bytes, like the slice alone
/// (the slice's pointer is never null): `MatchError` stays under 128.
#[derive(Clone, Copy)]
enum Names {
    Classes(&'static [(&'static str, ByteSet)]),
    Tagged(&'static crate::TaggedDfa<'static>),
}

impl Names {
    /// The class names (none for a tagged DFA's error).
    fn classes(self) -> &'static [(&'static str, ByteSet)] {
        match self {
            Names::Classes(classes) => classes,
            Names::Tagged(_) => &[],
        }
    }
}

impl fmt::Debug for MatchError {
    /// Its fields, with the expected bytes worked out (a tagged DFA's
    /// tables are not printed).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MatchError")
            .field("grammar", &self.grammar)
            .field("rule", &self.rule)
            .field("offset", &self.offset)
            .field("found", &self.found)
            .field("expected", &self.expected())
            .field("state", &self.state)
            .field("open_rule", &self.open_rule)
            .field("classes", &self.names.classes())
            .finish()
    }
}

/// What kind of mismatch a [`MatchError`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input is not in the rule's language: no match can continue at
    /// the offset (or the input ended too early).
    Mismatch,
    /// Rule calls nested deeper than the limit at the offset (rules that
    /// need a stack; see [`crate::network`]). The input may match with a
    /// higher limit.
    TooDeep,
    /// The general walk of a rule that needs a stack reached its work
    /// bound at the offset ([`crate::network::Limits::items`]).
    TooComplex,
}

/// What an input held where it stopped matching.
#[derive(Clone, Copy, Debug)]
enum Found {
    /// Not recorded.
    Unknown,
    End,
    Char(char),
    /// A byte that does not start a UTF-8 character there.
    Byte(u8),
    /// Not a mismatch: rule calls nested deeper than the limit.
    TooDeep,
    /// Not a mismatch: the general walk's work bound was reached.
    TooComplex,
}

impl PartialEq for MatchError {
    fn eq(&self, other: &MatchError) -> bool {
        (self.grammar, self.rule, self.offset) == (other.grammar, other.rule, other.offset)
    }
}

impl Eq for MatchError {}

impl core::hash::Hash for MatchError {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        (self.grammar, self.rule, self.offset).hash(state);
    }
}

impl MatchError {
    /// An error with no more than its place (generated code's fallback).
    #[doc(hidden)]
    pub const fn __new(grammar: &'static str, rule: &'static str, offset: usize) -> MatchError {
        MatchError {
            grammar,
            rule,
            offset,
            found: Found::Unknown,
            expected: ByteSet::EMPTY,
            state: usize::MAX,
            open_rule: None,
            names: Names::Classes(&[]),
        }
    }

    /// The recognizer's table state before the offset, if the walk that
    /// found the error recorded it ([`Recognizer::__error`] does), so
    /// that what was expected there needs no second walk.
    #[doc(hidden)]
    pub fn __state(&self) -> Option<usize> {
        let table = matches!(self.names, Names::Classes(_));
        (self.state != usize::MAX && self.open_rule.is_none() && table).then_some(self.state)
    }

    /// The error of `rule` of `grammar` at byte `offset` of `input`, where
    /// the bytes in `expected` could have continued a match.
    pub fn at(
        grammar: &'static str,
        rule: &'static str,
        input: &[u8],
        offset: usize,
        expected: ByteSet,
    ) -> MatchError {
        let rest = input.get(offset..).unwrap_or_default();
        let found = match rest.first() {
            None => Found::End,
            Some(&b) => {
                let len = match b {
                    0x00..=0x7F => 1,
                    0xC0..=0xDF => 2,
                    0xE0..=0xEF => 3,
                    _ => 4,
                };
                match rest.get(..len).and_then(|c| core::str::from_utf8(c).ok()) {
                    Some(c) => c.chars().next().map_or(Found::Byte(b), Found::Char),
                    None => Found::Byte(b),
                }
            }
        };
        MatchError {
            grammar,
            rule,
            offset,
            found,
            expected,
            state: usize::MAX,
            open_rule: None,
            names: Names::Classes(&[]),
        }
    }

    /// [`MatchError::at`] where a generated tagged DFA stopped in the
    /// state of `row`: what it expected there is worked out when asked for.
    pub(crate) fn at_tagged(
        grammar: &'static str,
        rule: &'static str,
        input: &[u8],
        offset: usize,
        dfa: &'static crate::TaggedDfa<'static>,
        row: usize,
    ) -> MatchError {
        MatchError {
            state: row,
            names: Names::Tagged(dfa),
            ..Self::at(grammar, rule, input, offset, ByteSet::EMPTY)
        }
    }

    /// The error of a network walk's failure (see [`crate::network`]).
    pub(crate) fn from_failure(
        grammar: &'static str,
        rule: &'static str,
        input: &[u8],
        f: &crate::network::Failure,
        names: &'static [&'static str],
    ) -> MatchError {
        let mut e = MatchError::at(grammar, rule, input, f.offset, f.expected);
        match f.kind {
            ErrorKind::TooDeep => e.found = Found::TooDeep,
            ErrorKind::TooComplex => e.found = Found::TooComplex,
            _ => {}
        }
        if let Some((r, at)) = f.open {
            if let Some(name) = names.get(r as usize) {
                e.open_rule = Some(name);
                e.state = at;
            }
        }
        e
    }

    /// What kind of error this is: a mismatch, or a limit passed.
    pub fn kind(&self) -> ErrorKind {
        match self.found {
            Found::TooDeep => ErrorKind::TooDeep,
            Found::TooComplex => ErrorKind::TooComplex,
            _ => ErrorKind::Mismatch,
        }
    }

    /// For a rule that needs a stack: the innermost rule that was open at
    /// the offset, and the offset where it was called.
    pub fn open_rule(&self) -> Option<(&'static str, usize)> {
        self.open_rule.map(|name| (*name, self.state))
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

    /// The bytes that could have continued a match at [`MatchError::offset`]
    /// (empty when only the end of the input could have, or when the error
    /// does not know).
    pub fn expected(&self) -> ByteSet {
        match self.names {
            Names::Classes(_) => self.expected,
            Names::Tagged(dfa) => dfa.expected_at(self.state),
        }
    }
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid {}:{} at byte offset {}",
            self.grammar, self.rule, self.offset
        )?;
        match self.found {
            Found::TooDeep => return f.write_str(": rule calls nest deeper than the limit"),
            Found::TooComplex => return f.write_str(": the general walk's work limit was reached"),
            _ => {}
        }
        if let Some((open, at)) = self.open_rule() {
            if open != self.rule || at != 0 {
                write!(f, " (inside `{open}` opened at {at})")?;
            }
        }
        match self.found {
            Found::Unknown | Found::TooDeep | Found::TooComplex => return Ok(()),
            Found::End => f.write_str(": found the end of the input")?,
            Found::Char(c) => write!(f, ": found {c:?}")?,
            Found::Byte(b) => write!(f, ": found byte 0x{b:02X}")?,
        }
        let expected = self.expected();
        if expected.is_empty() {
            f.write_str(", expected the end of the input")
        } else {
            write!(f, ", expected {}", expected.named(self.names.classes()))
        }
    }
}

impl core::error::Error for MatchError {}

/// The exported rules of one grammar (one spec file).
pub struct Grammar {
    name: &'static str,
    rules: &'static [&'static Recognizer],
    networks: &'static [&'static crate::NetworkRecognizer],
}

impl Grammar {
    #[doc(hidden)]
    pub const fn __new(name: &'static str, rules: &'static [&'static Recognizer]) -> Grammar {
        Grammar {
            name,
            rules,
            networks: &[],
        }
    }

    #[doc(hidden)]
    pub const fn __with_networks(
        name: &'static str,
        rules: &'static [&'static Recognizer],
        networks: &'static [&'static crate::NetworkRecognizer],
    ) -> Grammar {
        Grammar {
            name,
            rules,
            networks,
        }
    }

    /// Its exported rules that need a stack (recursive rules, walked as a
    /// network of rule automata; see [`crate::network`]), in spec order.
    pub fn network_rules(&self) -> &'static [&'static crate::NetworkRecognizer] {
        self.networks
    }

    /// The recognizer of a rule that needs a stack, by its ABNF name
    /// (case-insensitive).
    pub fn get_network(&self, rule: &str) -> Option<&'static crate::NetworkRecognizer> {
        self.networks
            .iter()
            .copied()
            .find(|r| r.rule().eq_ignore_ascii_case(rule))
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
            .field("network_rules", &self.networks.len())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn match_errors_stay_under_128_bytes() {
        // So that `Result<_, MatchError>`, and a caller's error type that
        // holds one, pass clippy's `result_large_err`.
        assert!(core::mem::size_of::<MatchError>() <= 112);
    }
}
