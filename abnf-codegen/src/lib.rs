//! `abnf-codegen` turns ABNF grammars (RFC 5234, with RFC 7405 case-sensitive
//! strings) into DFA recognizers at build time.
//!
//! The pipeline has one module per stage, and data flows one way:
//!
//! | stage | module | output |
//! |---|---|---|
//! | spec text → rules with spans | [`syntax`] | [`syntax::SpecFile`] |
//! | names, imports, core rules, checks | [`grammar`] | [`grammar::Grammar`] |
//! | rules → regular expressions | [`regular`] | `regex_syntax::hir::Hir` |
//! | HIR → minimized dense DFA | [`automata`] | [`automata::Automaton`] |
//! | emit model → formatted Rust | [`emit`] | `.rs` files and serialized DFAs |
//!
//! Problems are [`Diagnostic`]s with spans, collected and rendered once
//! ([`Diagnostics::render`]).
//!
//! # Use from a build script
//!
//! ```no_run
//! // build.rs
//! let result = abnf_codegen::Config::new()
//!     .specs_dir("specs")
//!     .runtime_crate("::iri_grammar")
//!     .compile();
//! if let Err(e) = result {
//!     eprintln!("{e}");
//!     std::process::exit(1);
//! }
//! ```
//!
//! # Use in tests (nothing touches the file system)
//!
//! ```
//! let mut config = abnf_codegen::Config::new();
//! config.spec_source("digits.abnf", "number = 1*DIGIT [\".\" 1*DIGIT]\n");
//! let compiled = config.build()?;
//! let number = compiled.recognizer("digits", "number").unwrap();
//! assert!(number.is_match(b"3.14"));
//! assert_eq!(number.full_match(b"3.x"), Err(2));
//! # Ok::<(), abnf_codegen::Error>(())
//! ```

#![warn(missing_docs)]
// Diagnostics are large and travel only on the error path of a build-time
// tool; boxing every `Result` would add noise for no measurable gain.
#![allow(clippy::result_large_err)]

pub mod automata;
mod config;
pub mod depth;
pub mod diagnostic;
pub mod emit;
pub mod grammar;
pub mod limits;
pub mod names;
pub mod oracle;
pub mod partial;
pub mod records;
pub mod regular;
pub mod sample;
pub mod syntax;
pub mod tagged;
pub mod terminals;
pub mod tools;
pub mod typed;
pub mod wire;

pub use config::{
    specs_hash, write_if_changed, Compiled, Config, Error, Generated, GeneratedFile, Recognizer, RuleStats,
};
pub use diagnostic::{Diagnostic, Diagnostics, Severity, Span};
