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
//!
//! The steps, one module each: [`TaggedDfa::build`] (`determinize`),
//! [`TaggedDfa::minimize`] (`minimize`), [`TaggedDfa::trust_utf8`] (`utf8`),
//! [`TaggedDfa::merge_classes`] (`classes`), and [`TaggedDfa::to_bytes`] in
//! the runtime's format (`encode`). [`TaggedDfa::run`] walks the result with
//! the runtime, so the generator has no walk of its own.

use rustc_hash::FxHashMap as HashMap;

use regex_automata::nfa::thompson::{State, NFA};
use regex_automata::util::primitives::StateID;

use abnf_runtime::wire::{self as rtwire, Kind, DELTA, FINAL_PENDING, FINAL_TAG_SHIFT, NOT_FINAL, SET_POS};
pub use abnf_runtime::wire::{FIRST_LIST, FIRST_PAIR_LIST, MAX_REGISTERS, NEXT_BITS, PENDING, UNSET};

use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_syntax::hir::Hir;

use crate::automata::SizeError;
use crate::limits::Limits;
use crate::wire::{WireBytes, NATIVE_BIG_ENDIAN};

pub use crate::limits::MAX_TAGGED_STATES as MAX_STATES;

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

impl std::fmt::Display for TaggedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TaggedError::TooManyStates => write!(f, "more than {MAX_STATES} states"),
            TaggedError::LookAround => f.write_str("the pattern holds a look-around assertion"),
        }
    }
}

impl std::error::Error for TaggedError {}

mod classes;
mod closures;
mod determinize;
mod encode;
pub mod exits;
pub mod item_loops;
mod lists;
mod minimize;
mod sets;
mod utf8;

pub use determinize::Registers;

/// Builds the minimized tagged DFA of a HIR with capture groups.
///
/// A large automaton (over 128 states for `@components` extractions, which
/// `components` marks, over 512 for parse trees) is also built with
/// registers per tag and losing threads pruned ([`Registers::PerTag`]), and
/// that form is taken when it has at most a sixth of the states. It costs
/// register copies where threads fork, so it pays only when it shrinks the
/// automaton by that much: for a grammar that splits rather than validates
/// (RFC 3986 Appendix B: 31 states instead of 900), whose
/// one-register-per-value form has a state for each combination of
/// optional parts present or absent. (Building both forms of every
/// automaton would cost generator time on every rule; the per-tag form is
/// given up past twice the shared form's states.)
///
/// `@components` extractions also read non-ASCII characters whole where
/// they can ([`TaggedDfa::trust_utf8`]): they are run on `&str`s, or check
/// UTF-8 first. Parse trees keep their byte-level automata.
pub fn from_hir(hir: &Hir, limits: Limits, components: bool) -> Result<TaggedDfa, SizeError> {
    let nfa = thompson::Compiler::new()
        .configure(
            thompson::Config::new()
                // The capture groups are the tags.
                .which_captures(WhichCaptures::All)
                .nfa_size_limit(Some(limits.nfa_bytes)),
        )
        .build_from_hir(hir)
        .map_err(SizeError::NfaTooBig)?;
    let build = |mode, max_states| -> Result<TaggedDfa, SizeError> {
        let mut dfa = TaggedDfa::build_capped(&nfa, mode, max_states).map_err(|e| match e {
            TaggedError::TooManyStates => SizeError::DfaTooBig(format!(
                "the tagged DFA has more than {} states (`Limits::tagged_states`)",
                limits.tagged_states.min(MAX_STATES)
            )),
            e => SizeError::DfaTooBig(e.to_string()),
        })?;
        dfa.minimize();
        // Components are read from `&str`s (their byte entry points check
        // UTF-8 first), parse trees also from spans of one.
        if components && dfa.trust_utf8() {
            dfa.minimize();
        }
        dfa.merge_classes();
        Ok(dfa)
    };
    let mut dfa = build(Registers::Shared, limits.tagged_states)?;
    if dfa.states() > if components { 128 } else { 512 } {
        // The per-tag form is taken at a sixth of the states once
        // minimized; it is built up to half the states of the minimized
        // shared form (so it may minimize by a factor of 3 and still be
        // taken: where it is taken in the corpus and `specs/` it has
        // between a sixth and a third of the shared form's minimized
        // states before minimizing: RFC 7230's 1,205 against 4,129).
        // Where it does not help it is as large as the shared form, or
        // larger, and its pruning makes each state cost milliseconds: at
        // twice the shared form's states, RFC 3261's sixteen largest
        // trees spent 15 s in it, at half 12 s (1 s since the pruning's
        // sets of NFA states are numbered once per build).
        let cap = (dfa.states() / 2).min(limits.tagged_states);
        // No DFA of the language has fewer states than its minimal DFA, so
        // where that has more than a sixth of the shared form's, the
        // per-tag form is not built (it could not be taken: this skips
        // RFC 3261's thirteen per-tag builds, 1 s, all of which failed at
        // their cap). Components read `&str`s: `trust_utf8` may have
        // changed what the shared form accepts, so they are always built.
        let could_be_taken = components || dfa.language_states() * 6 <= dfa.states();
        if let Some(p) = could_be_taken
            .then(|| build(Registers::PerTag, cap).ok())
            .flatten()
        {
            if p.states() * 6 <= dfa.states() && p.registers <= MAX_REGISTERS && p.fits_words() {
                dfa = p;
            }
        }
    }
    if dfa.registers > MAX_REGISTERS {
        return Err(SizeError::DfaTooBig(format!(
            "the tagged DFA needs {} registers, more than the runtime's {}",
            dfa.registers, MAX_REGISTERS
        )));
    }
    if !dfa.fits_words() {
        return Err(SizeError::DfaTooBig(format!(
            "{} states or {} register operation lists do not fit the runtime's 32-bit transitions",
            dfa.states(),
            dfa.op_lists.len()
        )));
    }
    Ok(dfa)
}

impl TaggedDfa {
    /// Number of states (the dead state included).
    pub fn states(&self) -> usize {
        self.finals.len()
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

/// The tagged DFA of a regex (its groups the tags), as determinized, for
/// tests.
#[cfg(test)]
pub(crate) fn tdfa(pattern: &str) -> TaggedDfa {
    let nfa = thompson::Compiler::new()
        .configure(thompson::Config::new().which_captures(WhichCaptures::All))
        .build(pattern)
        .unwrap();
    TaggedDfa::build(&nfa).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn a_tagged_dfa_whose_transition_or_class_points_outside_it_is_refused() {
        // The table walks step without bounds checks on what decoding
        // checked: a target past the last row, or a class past a row.
        use abnf_runtime::wire::WireError;

        let d = tdfa("(a|ab)(b?)c");
        let refused = |d: &TaggedDfa| {
            // (No shapes: their search would walk the broken automaton.)
            let bytes = d.to_bytes_with(None, NATIVE_BIG_ENDIAN, None).expect("fits");
            abnf_runtime::TaggedDfa::from_bytes(WireBytes::new(&bytes).bytes())
                .map(|_| ())
                .err()
        };
        assert_eq!(refused(&d), None);
        let mut far = d.clone();
        far.next[d.alphabet + 1] = d.states() as u32;
        assert_eq!(refused(&far), Some(WireError::OutOfRange));
        let mut class = d.clone();
        class.classes[usize::from(b'a')] = d.alphabet as u8;
        assert_eq!(refused(&class), Some(WireError::OutOfRange));
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
        build_budgeted(pattern, mode, determinize::COVER_BUDGET)
    }

    /// [`build`] with a given budget for the pruning.
    fn build_budgeted(pattern: &str, mode: Registers, cover_budget: usize) -> TaggedDfa {
        let nfa = thompson::Compiler::new()
            .configure(thompson::Config::new().which_captures(WhichCaptures::All))
            .build(pattern)
            .unwrap();
        let mut d = TaggedDfa::build_budgeted(&nfa, mode, MAX_STATES, cover_budget).unwrap();
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

    /// The runtime's walks against a reference that shares no code with
    /// them: regex-automata's PikeVM, whose thread priorities the tagged
    /// DFA follows, on the whole input (`run`, whose runs of a state's loop
    /// to itself are scanned with the row fixed); and `longest` against
    /// `run` on the longest prefix that matches.
    #[test]
    fn walks_agree_with_a_pikevm() {
        use regex_automata::nfa::thompson::pikevm::PikeVM;
        use regex_automata::{Anchored, Input};
        let mut runs = 0;
        for p in PATTERNS.iter().copied().chain([
            r"([a-z]*)([a-z1]*)",
            r"(?:([a-z]+)=)?([a-z:]*)(:*)",
            r"((?:a|1)*)(1?)([a/]*)",
            r"([^/]*)/?((?:[a-z]|/)*?)(/*)",
            // A group's end moves with every `/` of a run of them.
            r"([a/]*)/(a*)",
            r"((?:1|a)*)1([a1]*)",
        ]) {
            let d = build(p, Registers::Shared);
            let w = d.wire().unwrap();
            let vm = PikeVM::new(&format!("(?:{p})$")).unwrap();
            let (mut cache, mut caps) = (vm.create_cache(), vm.create_captures());
            let mut all = inputs();
            all.extend(["aaaa1111aaaa", "abc=def:::", "/aaaa/b//", "a1a1a1/aa/a"].map(String::from));
            all.extend((1..40).map(|n| "a".repeat(n) + &"1".repeat(n % 7)));
            for input in &all {
                vm.search(&mut cache, &Input::new(input).anchored(Anchored::Yes), &mut caps);
                // Group 0 (the whole input) is not tagged.
                let want = caps.is_match().then(|| {
                    [None, None]
                        .into_iter()
                        .chain((1..caps.group_len()).flat_map(|g| {
                            let s = caps.get_group(g);
                            [s.map(|s| s.start), s.map(|s| s.end)]
                        }))
                        .collect::<Vec<_>>()
                });
                assert_eq!(run_wire(&w, input.as_bytes()).ok(), want, "{p} on {input:?}");
                // The longest prefix that matches, and its tags.
                let dfa = w.tagged();
                let mut tags = vec![usize::MAX; dfa.tags()];
                let end = dfa.longest(input.as_bytes(), 0, input.len(), &mut tags);
                let prefix = (0..=input.len())
                    .rev()
                    .filter(|&k| input.is_char_boundary(k))
                    .find_map(|k| run_wire(&w, &input.as_bytes()[..k]).ok().map(|t| (k, t)));
                let got = end.map(|k| (k, tags.iter().map(|&t| (t != usize::MAX).then_some(t)).collect()));
                assert_eq!(got, prefix, "longest: {p} on {input:?}");
                runs += 1;
            }
        }
        assert!(runs > 10_000, "{runs}");
    }

    #[test]
    fn shapes_give_the_walks_tags() {
        // Patterns whose short inputs have shapes (a fixed layout, a
        // timestamp's fraction and offset forms, alternatives that set
        // different groups), against the same DFA without them: on every
        // small input, and on timestamps with each position changed.
        let timestamp = r"([0-9]{4})-([0-9]{2})[Tt]([0-9]{2})(\.[0-9]+)?([Zz]|([+-])([0-9]{2}))";
        let (mut with_shapes, mut read_by_shapes) = (0, 0);
        // Five forms of four bytes: shapes for shorter inputs only (the
        // walk must decide `a///`, not the missing shapes).
        let partial = r"(a)([1:]{3}|/{3}|\?{3}|#{3}|@{3})?";
        let decided = build(partial, Registers::Shared).shapes().map(|(s, _)| s.decided);
        assert_eq!(decided, Some(4), "{partial}");
        // The groups every shape sets, which typed trees read unchecked:
        // year, month, hour and offset (1, 2, 3, 5); not the fraction (4)
        // nor the sign and hours of a numeric offset (6, 7), nor group 0
        // (the whole match, whose tags the automaton leaves unset).
        let wire = build(timestamp, Registers::Shared).wire().unwrap();
        let always = wire.tagged().__shape_groups_always_set();
        assert_eq!(always, 0b10_1110, "{always:b}");
        for p in PATTERNS.iter().copied().chain([
            partial,
            r"([a-f]{2})-([a-f])(b?)",
            r"(a)|(b)(c)?|(cd)",
            r"([ab]*)(c)",
            timestamp,
        ]) {
            for mode in [Registers::Shared, Registers::PerTag] {
                let d = build(p, mode);
                let plain = WireBytes::new(&d.to_bytes_with(None, NATIVE_BIG_ENDIAN, None).unwrap());
                let Some(shaped) = d.shapes().map(|_| d.wire().unwrap()) else {
                    continue;
                };
                with_shapes += 1;
                let mut all = inputs();
                for digits in 0..5 {
                    for offset in ["Z", "+01", "z"] {
                        let good = format!(
                            "1985-04T23{}{offset}",
                            if digits == 0 {
                                String::new()
                            } else {
                                format!(".{}", "7".repeat(digits))
                            }
                        );
                        for i in 0..good.len() {
                            for b in ["0", "-", "+", ".", "Z", "T", "x"] {
                                let mut s = good.clone();
                                s.replace_range(i..i + 1, b);
                                all.push(s);
                            }
                        }
                        all.push(good);
                    }
                }
                // The walk, leaked so that its errors may keep it (a
                // generated automaton is a `static`).
                let walked: &'static WireBytes = Box::leak(Box::new(plain));
                let walk: &'static abnf_runtime::TaggedDfa<'static> = Box::leak(Box::new(walked.tagged()));
                let shaped: &'static WireBytes = Box::leak(Box::new(shaped));
                let with_shapes: &'static abnf_runtime::TaggedDfa<'static> =
                    Box::leak(Box::new(shaped.tagged()));
                for input in all {
                    let bytes = input.as_bytes();
                    let expected = run_wire(walked, bytes);
                    assert_eq!(run_wire(shaped, bytes), expected, "{p} ({mode:?}) on {input:?}");
                    // What a generated `parse_span` does: the shape's
                    // offsets read in place, else the walk without shapes,
                    // whose error works out what it expected when asked.
                    if let Some(tags) = read_shape_tags(&shaped.tagged(), &input) {
                        assert_eq!(Ok(tags), expected, "shape tags: {p} ({mode:?}) on {input:?}");
                        read_by_shapes += 1;
                    }
                    let mut tags = vec![usize::MAX; walk.tags()];
                    match (
                        walk.__parse_walk("g", "r", bytes, 0, bytes.len(), &mut tags),
                        &expected,
                    ) {
                        (Ok(()), Ok(found)) => {
                            let found: Vec<usize> = found.iter().map(|t| t.unwrap_or(usize::MAX)).collect();
                            assert_eq!(tags, found, "{p} ({mode:?}) on {input:?}");
                        }
                        (Err(lazy), Err(offset)) => {
                            let eager = walk
                                .parse("g", "r", bytes, 0, bytes.len(), &mut tags)
                                .unwrap_err();
                            assert_eq!(lazy.offset(), *offset);
                            // An input the shapes decide (and fit none of)
                            // skips the tagged walk: the same error.
                            let decided = with_shapes
                                .__parse_walk("g", "r", bytes, 0, bytes.len(), &mut tags)
                                .unwrap_err();
                            assert_eq!(decided.offset(), *offset, "{p} ({mode:?}) on {input:?}");
                            assert_eq!(decided.expected(), eager.expected(), "{p} on {input:?}");
                            assert_eq!(decided.to_string(), eager.to_string());
                            assert_eq!(lazy.expected(), eager.expected(), "{p} on {input:?}");
                            assert_eq!(lazy.to_string(), eager.to_string());
                            let expected = format!("expected: {:?}", eager.expected());
                            assert!(format!("{lazy:?}").contains(&expected), "{lazy:?}");
                        }
                        (walked, _) => panic!("{p} ({mode:?}) on {input:?}: {walked:?} against {expected:?}"),
                    }
                }
            }
        }
        assert!(with_shapes >= 6, "{with_shapes} patterns with shapes");
        assert!(
            read_by_shapes >= 400,
            "{read_by_shapes} inputs read by their shapes"
        );
    }

    /// The tags `TaggedDfa::__shape_tags` reads off the shape `input` fits,
    /// as `run_wire` gives them (for the tag counts of these tests), after
    /// checking the fields read off them ([`shape_fields_agree`]).
    fn read_shape_tags(dfa: &abnf_runtime::TaggedDfa<'_>, input: &str) -> Option<Vec<Option<usize>>> {
        use abnf_runtime::__private::TagRead;
        fn read<const N: usize>(
            dfa: &abnf_runtime::TaggedDfa<'_>,
            input: &str,
        ) -> Option<Vec<Option<usize>>> {
            let tags = dfa.__shape_tags::<[u8], N>(input.as_bytes(), 0, input.len())?;
            shape_fields_agree::<N>(dfa, input);
            Some(
                (0..N)
                    .map(|i| Some(tags.tag(i)).filter(|&t| t != usize::MAX))
                    .collect(),
            )
        }
        macro_rules! by_count {
            ($($n:literal)*) => {
                match dfa.tags() {
                    $($n => read::<$n>(dfa, input),)*
                    n => panic!("no test reads {n} tags"),
                }
            };
        }
        by_count!(0 2 4 6 8 10 12 14 16 18 20 22 24)
    }

    /// The fields a generated `__from_tags` reads off a shape's tags (with
    /// no char-boundary checks where the span is ASCII) are those the
    /// checked reads of the same tags give: for `input` alone, inside text
    /// with characters of two bytes before and after it, and as bytes; and
    /// they are read from the input the tags were made from, whatever
    /// input is passed (generated code passes that one).
    fn shape_fields_agree<const N: usize>(dfa: &abnf_runtime::TaggedDfa<'_>, input: &str) {
        use abnf_runtime::__private::{TagRead, Tags};
        use abnf_runtime::Span;
        let around = format!("é{input}ü");
        // Two-byte characters: every odd offset is inside one.
        let other = format!("{}{}", "é".repeat(around.len() / 2), "x".repeat(around.len() % 2));
        for (text, start) in [(input, 0), (around.as_str(), 2)] {
            let end = start + input.len();
            let Some(shape) = dfa.__shape_tags::<str, N>(text, start, end) else {
                panic!("{input:?} fits a shape alone but not in {text:?}");
            };
            let bytes = dfa.__shape_tags::<[u8], N>(text.as_bytes(), start, end).unwrap();
            let walked: Vec<usize> = (0..N).map(|i| shape.tag(i)).collect();
            let walked = &walked[..];
            let span = Span { start, end };
            assert_eq!(shape.text(text, span), &text[start..end]);
            assert_eq!(bytes.text(text.as_bytes(), span), &text.as_bytes()[start..end]);
            for g in 0..N / 2 {
                let what = format!("group {g} of {input:?} in {text:?}");
                assert_eq!(shape.leaf(text, g), walked.leaf(text, g), "{what}");
                assert_eq!(shape.optional(text, g), walked.optional(text, g), "{what}");
                assert_eq!(TagRead::group(shape, g), TagRead::group(walked, g), "{what}");
                assert_eq!(
                    bytes.leaf(text.as_bytes(), g),
                    walked.leaf(text.as_bytes(), g),
                    "{what}"
                );
                assert_eq!(
                    bytes.optional(text.as_bytes(), g),
                    walked.optional(text.as_bytes(), g)
                );
                match TagRead::group(walked, g) {
                    Some(s) => {
                        assert_eq!(shape.text(text, s), &text[s.range()], "{what}");
                        assert_eq!(TagRead::span(shape, g), s, "{what}");
                        // A part built from the tags from its group on (as
                        // generated code does): its text, read off the row
                        // where every row sets that group.
                        let (part, part_bytes) = (TagRead::from(shape, 2 * g), TagRead::from(bytes, 2 * g));
                        assert_eq!(part.node_text(text, s), &text[s.range()], "{what}");
                        assert_eq!(
                            part_bytes.node_text(text.as_bytes(), s),
                            &text.as_bytes()[s.range()]
                        );
                        assert_eq!(part.leaf(text, 0), &text[s.range()], "{what}");
                    }
                    // The span of a group never set reads as empty.
                    None => assert_eq!(shape.text(text, TagRead::span(shape, g)), "", "{what}"),
                }
                assert_eq!(
                    shape.leaf(other.as_str(), g),
                    walked.leaf(text, g),
                    "{what}, passed {other:?}"
                );
            }
        }
    }

    #[test]
    fn per_tag_registers_give_the_same_tags() {
        for p in PATTERNS {
            let shared = build(p, Registers::Shared).wire().unwrap();
            let per_tag = build(p, Registers::PerTag).wire().unwrap();
            for input in inputs() {
                assert_eq!(
                    run_wire(&per_tag, input.as_bytes()),
                    run_wire(&shared, input.as_bytes()),
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
    fn pruning_that_runs_out_of_budget_gives_the_same_tags() {
        // With no budget nothing is pruned: more states, the same parses.
        for p in PATTERNS {
            let pruned = build(p, Registers::PerTag);
            let unpruned = build_budgeted(p, Registers::PerTag, 0);
            let (pruned_wire, unpruned_wire) = (pruned.wire().unwrap(), unpruned.wire().unwrap());
            for input in inputs() {
                assert_eq!(
                    run_wire(&unpruned_wire, input.as_bytes()),
                    run_wire(&pruned_wire, input.as_bytes()),
                    "{p} on {input:?}"
                );
            }
            if *p == PATTERNS[0] {
                // (173 against 122 states, minimized.)
                assert!(
                    unpruned.states() > pruned.states(),
                    "{} {}",
                    unpruned.states(),
                    pruned.states()
                );
            }
        }
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
                let (trusting, plain) = (trusting.wire().unwrap(), plain.wire().unwrap());
                for input in inputs() {
                    assert_eq!(
                        run_wire(&trusting, input.as_bytes()),
                        run_wire(&plain, input.as_bytes()),
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
                let wire = d.wire().unwrap();
                for input in inputs() {
                    assert_eq!(
                        run_pairs(&d, &pairs, input.as_bytes()),
                        run_wire(&wire, input.as_bytes()).map_err(|_| ()),
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
