//! The benchmarks beyond IRIs (issue #29): grammars people parse every day,
//! compiled from their RFCs' ABNF by this crate's build script with the
//! defaults, each against the fastest Rust crates that do the same job.
//!
//! | grammar | module | contenders |
//! |---|---|---|
//! | RFC 3339 `date-time` | [`timestamp`] | jiff, time, chrono, speedate |
//! | RFC 9562 `UUID` | [`uuid`] | uuid |
//! | RFC 5646 `Language-Tag` | [`langtag`] | oxilangtag, language-tags |
//! | RFC 9112 request head | [`http`] | httparse |
//! | RFC 8259 `JSON-text` | [`crate::json`] | serde_json, simd-json (reference) |
//!
//! Each module generates a seeded corpus (realistic inputs, 5% invalid with
//! the flaw anywhere) and holds the timed functions; [`operations`] lists
//! them for the `grammars-table` binary and the criterion bench
//! (`benches/grammars.rs`), and [`disagreements`] finds where a contender
//! and the generated parser differ on a corpus.

pub mod http;
pub mod langtag;
pub mod timestamp;
pub mod uuid;

pub use crate::contenders::Role;

/// The generated parsers: `rfc3339`, `rfc5646`, `rfc9562` and `rfc9112`,
/// each exporting its top rule, typed trees on.
#[allow(missing_docs, dead_code, clippy::all)]
pub mod generated {
    include!(concat!(env!("OUT_DIR"), "/rfc/grammars.rs"));
}

/// The same grammars with every walk on the tables
/// (`Config::direct_walks(false)`), for the tests.
#[cfg(test)]
#[allow(missing_docs, dead_code, clippy::all)]
pub(crate) mod tables {
    include!(concat!(env!("OUT_DIR"), "/rfc-tables/grammars.rs"));
}

#[cfg(test)]
mod direct_tests;

/// One implementation's way of doing an operation over a whole corpus; it
/// returns a checksum (inputs accepted, or a sum over the parts read).
pub type Run = fn(&[String]) -> u64;

/// A grammar of the suite, and so a corpus.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Grammar {
    /// RFC 3339 `date-time`.
    Timestamp,
    /// RFC 9562 `UUID`.
    Uuid,
    /// RFC 5646 `Language-Tag`.
    LanguageTag,
    /// RFC 9112 request head (request line, field lines, empty line).
    HttpHead,
    /// RFC 8259 `JSON-text`.
    Json,
}

impl Grammar {
    /// Every grammar, in the table's order.
    pub const ALL: [Grammar; 5] = [
        Grammar::Timestamp,
        Grammar::Uuid,
        Grammar::LanguageTag,
        Grammar::HttpHead,
        Grammar::Json,
    ];

    /// The grammar as the table names it.
    pub fn name(self) -> &'static str {
        match self {
            Grammar::Timestamp => "RFC 3339 date-time",
            Grammar::Uuid => "RFC 9562 UUID",
            Grammar::LanguageTag => "RFC 5646 Language-Tag",
            Grammar::HttpHead => "RFC 9112 request head",
            Grammar::Json => "RFC 8259 JSON-text",
        }
    }

    /// The default corpus size.
    pub fn default_n(self) -> usize {
        match self {
            Grammar::HttpHead => 2_000,
            Grammar::Json => crate::json::JSON_N,
            _ => 10_000,
        }
    }

    /// `n` inputs from `seed`.
    pub fn corpus(self, n: usize, seed: u64) -> Vec<String> {
        match self {
            Grammar::Timestamp => timestamp::corpus(n, seed),
            Grammar::Uuid => uuid::corpus(n, seed),
            Grammar::LanguageTag => langtag::corpus(n, seed),
            Grammar::HttpHead => http::corpus(n, seed),
            Grammar::Json => crate::json::json_corpus(n, seed),
        }
    }

    /// Whether the generated validator accepts `input`.
    pub fn ours(self, input: &str) -> bool {
        use generated::*;
        match self {
            Grammar::Timestamp => rfc3339::DATE_TIME.is_match(input),
            Grammar::Uuid => rfc9562::UUID.is_match(input),
            Grammar::LanguageTag => rfc5646::LANGUAGE_TAG.is_match(input),
            Grammar::HttpHead => rfc9112::REQUEST_HEAD.is_match_bytes(input.as_bytes()),
            Grammar::Json => crate::json::rfc8259::JSON_TEXT.is_match(input),
        }
    }
}

impl Grammar {
    /// Where the generated validator stops matching `input`, if it does.
    pub fn error_offset(self, input: &str) -> Option<usize> {
        use generated::*;
        let r = match self {
            Grammar::Timestamp => rfc3339::DATE_TIME.validate(input),
            Grammar::Uuid => rfc9562::UUID.validate(input),
            Grammar::LanguageTag => rfc5646::LANGUAGE_TAG.validate(input),
            Grammar::HttpHead => rfc9112::REQUEST_HEAD.validate_bytes(input.as_bytes()),
            Grammar::Json => crate::json::rfc8259::JSON_TEXT.validate(input),
        };
        r.err().map(|e| e.offset())
    }
}

/// One contender of an operation.
#[derive(Clone, Copy, Debug)]
pub struct Contender {
    /// Crate and API, as the table shows it.
    pub name: &'static str,
    /// Ours (timed at every vector level), a peer (a hand-written crate
    /// doing the same job), or a reference line.
    pub role: Role,
    /// The timed function.
    pub run: Run,
    /// For validation: whether this contender accepts one input (for the
    /// agreement check); `None` for the other operations.
    pub accepts: Option<fn(&str) -> bool>,
}

/// One operation on one grammar's corpus.
#[derive(Clone, Debug)]
pub struct Operation {
    /// The grammar, and so the corpus.
    pub grammar: Grammar,
    /// A short name (with the grammar's: the criterion group name).
    pub name: &'static str,
    /// Ours first.
    pub contenders: Vec<Contender>,
    /// What the table says about the comparison (where a crate does more
    /// or other work than ours, say).
    pub note: &'static str,
}

pub(crate) fn c(name: &'static str, role: Role, run: Run) -> Contender {
    Contender {
        name,
        role,
        run,
        accepts: None,
    }
}

/// A validating contender: timed over the corpus by counting what
/// `accepts` accepts.
#[macro_export]
#[doc(hidden)]
macro_rules! validator {
    ($name:expr, $role:expr, $accepts:expr) => {
        $crate::rfc::Contender {
            name: $name,
            role: $role,
            run: |corpus: &[String]| {
                let accepts: fn(&str) -> bool = $accepts;
                corpus
                    .iter()
                    .map(|s| u64::from(accepts(::std::hint::black_box(s))))
                    .sum()
            },
            accepts: Some($accepts),
        }
    };
}

/// Every operation, grammar by grammar.
pub fn operations() -> Vec<Operation> {
    let mut ops = Vec::new();
    ops.extend(timestamp::operations());
    ops.extend(uuid::operations());
    ops.extend(langtag::operations());
    ops.extend(http::operations());
    ops.push(Operation {
        grammar: Grammar::Json,
        name: "validate",
        contenders: vec![
            validator!("abnf-codegen JSON_TEXT.is_match", Role::Ours, |d| {
                crate::json::rfc8259::JSON_TEXT.is_match(d)
            }),
            validator!("serde_json from_str::<IgnoredAny>", Role::Peer, |d| {
                serde_json::from_str::<serde::de::IgnoredAny>(d).is_ok()
            }),
            Contender {
                name: "simd-json to_tape (copies the input)",
                role: Role::Reference,
                run: |docs| {
                    let mut buf = Vec::new();
                    docs.iter()
                        .map(|d| {
                            buf.clear();
                            buf.extend_from_slice(d.as_bytes());
                            u64::from(simd_json::to_tape(&mut buf).is_ok())
                        })
                        .sum()
                },
                accepts: None,
            },
        ],
        note: "simd-json also builds its tape (every value indexed): a reference line",
    });
    ops
}

/// An input on which a validating contender and the generated validator
/// disagree.
#[derive(Clone, Debug)]
pub struct Disagreement {
    /// The contender's name.
    pub contender: &'static str,
    /// The input.
    pub input: String,
    /// Whether the generated validator accepts it (the contender does not).
    pub ours: bool,
}

/// Where the validating contenders of `op` and the generated validator
/// disagree on `corpus`.
pub fn disagreements(op: &Operation, corpus: &[String]) -> Vec<Disagreement> {
    let mut out = Vec::new();
    for c in &op.contenders {
        let (Some(accepts), false) = (c.accepts, c.role == Role::Ours) else {
            continue;
        };
        for s in corpus {
            let ours = op.grammar.ours(s);
            if accepts(s) != ours {
                out.push(Disagreement {
                    contender: c.name,
                    input: s.clone(),
                    ours,
                });
            }
        }
    }
    out
}

/// Inserts `what` at a character boundary of `s` in `from..=to`.
pub(crate) fn insert_at(rng: &mut crate::Rng, s: &mut String, from: usize, to: usize, what: &str) {
    let bounds: Vec<usize> = (from..=to.min(s.len()))
        .filter(|&i| s.is_char_boundary(i))
        .collect();
    let at = rng.pick(&bounds);
    s.insert_str(at, what);
}

/// The value of ASCII decimal digits (the grammar has checked them).
#[inline]
pub fn digits(s: &[u8]) -> u32 {
    s.iter().fold(0, |a, &b| a * 10 + u32::from(b.wrapping_sub(b'0')))
}

#[cfg(test)]
mod tests {
    use super::generated::{rfc3339, rfc5646, rfc9562};
    use super::Grammar;

    /// A typed tree's `parse` reads shapes in the caller's code and walks
    /// out of line; `parse_span`, which parents call, does both in one
    /// function; a tree read off a shape slices its text and its lists'
    /// with no char-boundary check, one from the walk with: on every
    /// input of the corpora (5% flawed, and each cut short), the same
    /// tree (every text and list compared) or the same error all three
    /// ways.
    #[test]
    fn parse_is_parse_span_on_the_corpora() {
        macro_rules! same {
            ($t:ty, $s:expr) => {{
                let s = $s;
                let tree = <$t>::parse(s);
                assert_eq!(tree, <$t>::parse_span(s, 0, s.len()), "{s:?}");
                assert_eq!(tree, <$t>::__parse_walked(s, 0, s.len()), "{s:?}");
            }};
        }
        let mut inputs = 0;
        for grammar in [Grammar::Timestamp, Grammar::Uuid, Grammar::LanguageTag] {
            for s in grammar.corpus(2000, 7) {
                for end in [s.len(), s.len() / 2, s.len().saturating_sub(1)] {
                    let Some(s) = s.get(..end) else { continue };
                    inputs += 1;
                    match grammar {
                        Grammar::Timestamp => same!(rfc3339::ast::DateTime, s),
                        Grammar::Uuid => same!(rfc9562::ast::Uuid, s),
                        _ => same!(rfc5646::ast::LanguageTag, s),
                    }
                }
            }
        }
        assert!(inputs > 15_000, "{inputs}");
    }

    /// A recognizer with shapes decides short inputs by them, at the
    /// level the CPU has, in the caller's code: at every level, on every
    /// input of the corpora (and each cut short or one byte longer), the
    /// verdict of the table's plain walk.
    #[test]
    fn shapes_decide_as_the_table_walks_at_every_level() {
        use abnf_runtime::simd::{cap_level, Level};
        let mut decided = 0;
        for level in Level::available() {
            cap_level(level);
            for (grammar, r) in [
                (Grammar::Timestamp, &rfc3339::DATE_TIME),
                (Grammar::Uuid, &rfc9562::UUID),
                (Grammar::LanguageTag, &rfc5646::LANGUAGE_TAG),
            ] {
                // (The language tag's recognizer has no shapes: the walk.)
                assert_eq!(r.is_positional(), grammar != Grammar::LanguageTag, "{grammar:?}");
                for s in grammar.corpus(2000, 11) {
                    let longer = format!("{s}0");
                    for input in [
                        &s[..],
                        &s[..s.len() / 2],
                        &s[..s.len().saturating_sub(1)],
                        &longer,
                    ] {
                        let b = input.as_bytes();
                        decided += usize::from(
                            r.table()
                                .shapes()
                                .is_some_and(|sh| sh.full_match(b, level).is_some()),
                        );
                        assert_eq!(
                            r.is_match_bytes(b),
                            r.table().full_match(b).is_ok(),
                            "{grammar:?} at {level:?}: {input:?}"
                        );
                    }
                }
            }
        }
        cap_level(Level::Vbmi);
        assert!(decided > 20_000, "{decided}");
    }
}
