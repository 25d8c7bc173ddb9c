//! The runtime side of a generated recognizer: an embedded, serialized DFA
//! loaded once (zero-copy) and driven one byte at a time.

use core::fmt;

use once_cell::race::OnceBox;
use regex_automata::dfa::{dense, Automaton};
use regex_automata::util::start;
use regex_automata::Anchored;

type Dfa = dense::DFA<&'static [u32]>;

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
    bytes: &'static [u8],
    dfa: OnceBox<Dfa>,
}

impl Recognizer {
    #[doc(hidden)]
    pub const fn __new(grammar: &'static str, rule: &'static str, bytes: &'static [u8]) -> Recognizer {
        Recognizer {
            grammar,
            rule,
            bytes,
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

    /// The deserialized DFA, loaded on first use. Loading is checked (no
    /// `unsafe`); the bytes were produced by the same `regex-automata`
    /// version at build time, so a failure is a build bug and panics.
    pub fn dfa(&self) -> &Dfa {
        self.dfa.get_or_init(|| {
            let (dfa, _) = Dfa::from_bytes(self.bytes).unwrap_or_else(|e| {
                panic!(
                    "embedded DFA for {}:{} does not load: {e}",
                    self.grammar, self.rule
                )
            });
            alloc::boxed::Box::new(dfa)
        })
    }

    /// Whether all of `input` matches the rule.
    pub fn is_match(&self, input: &str) -> bool {
        self.run(input.as_bytes()).is_ok()
    }

    /// Whether all of `input` matches the rule. Bytes that are not UTF-8 never
    /// match (the grammars are over Unicode characters).
    pub fn is_match_bytes(&self, input: &[u8]) -> bool {
        self.run(input).is_ok()
    }

    /// Checks `input`; the error says at which byte offset the input stopped
    /// matching (the longest prefix that could still be completed).
    pub fn validate(&self, input: &str) -> Result<(), MatchError> {
        self.run(input.as_bytes()).map_err(|offset| self.error(offset))
    }

    /// Like [`Recognizer::validate`] on bytes.
    pub fn validate_bytes(&self, input: &[u8]) -> Result<(), MatchError> {
        self.run(input).map_err(|offset| self.error(offset))
    }

    /// The bytes that would continue a match after `input[..offset]` (the
    /// prefix must be viable: `offset` is at most where matching failed).
    pub(crate) fn expected_at(&self, input: &[u8], offset: usize) -> crate::types::ByteSet {
        let dfa = self.dfa();
        let mut set = crate::types::ByteSet::default();
        let Ok(mut s) = dfa.start_state(&start::Config::new().anchored(Anchored::Yes)) else {
            return set;
        };
        for &b in &input[..offset.min(input.len())] {
            s = dfa.next_state(s, b);
        }
        if dfa.is_dead_state(s) {
            return set;
        }
        for b in 0..=255u8 {
            if !dfa.is_dead_state(dfa.next_state(s, b)) {
                set.insert(b);
            }
        }
        set
    }

    fn error(&self, offset: usize) -> MatchError {
        MatchError {
            grammar: self.grammar,
            rule: self.rule,
            offset,
        }
    }

    /// Walks the DFA over `input`: `Err(i)` at the first byte `i` after which
    /// no match is possible, `Err(len)` when the input ends too early.
    #[inline]
    fn run(&self, input: &[u8]) -> Result<(), usize> {
        let dfa = self.dfa();
        let mut s = match dfa.start_state(&start::Config::new().anchored(Anchored::Yes)) {
            Ok(s) => s,
            // Generated DFAs always have anchored start states.
            Err(_) => return Err(0),
        };
        for (i, &b) in input.iter().enumerate() {
            s = dfa.next_state(s, b);
            if dfa.is_dead_state(s) {
                return Err(i);
            }
        }
        if dfa.is_match_state(dfa.next_eoi_state(s)) {
            Ok(())
        } else {
            Err(input.len())
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
