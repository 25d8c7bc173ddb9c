//! `abnf-codegen` turns ABNF grammars (RFC 5234, with RFC 7405 case-sensitive
//! strings) into DFA recognizers at build time.
//!
//! The pipeline has one module per stage, and data flows one way: each
//! stage reads only the stages above it in this table.
//!
//! | stage | module | output |
//! |---|---|---|
//! | settings: what to compile and how | `config` ([`Config`], [`Error`]) | — |
//! | spec text → rules with spans | [`syntax`] | [`syntax::SpecFile`] |
//! | names, imports, core rules, checks | [`grammar`] (with [`depth`], [`terminals`]) | [`grammar::Grammar`] |
//! | which rules get a Rust type | [`typed`] | [`typed::TypeModel`] |
//! | rules → regular expressions | [`regular`] | `regex_syntax::hir::Hir` |
//! | HIR → minimized DFA, compact table | [`automata`] | [`automata::Automaton`] |
//! | HIR with captures → tagged DFA | [`tagged`] | [`tagged::TaggedDfa`] |
//! | rules no DFA can hold → rule automata joined by calls | [`network`] | [`network::Network`] |
//! | the pipeline, rule by rule | [`compile`] (with [`partial`]) | [`Compiled`] |
//! | compiled grammar → emit model → Rust | [`emit`] | [`Generated`] files |
//! | the driver: the stages for a `Config`, then writing | `driver` ([`Config::compile`], [`Config::generate`], [`Config::build`], [`write_if_changed`]) | files |
//!
//! Beside the pipeline: [`limits`] (every limit,
//! in one place), [`names`] (Rust names from rule names), [`diagnostic`]
//! (errors as data, rendered once at the edge), [`wire`] (the runtime's table
//! format, as the generator writes it). Off the pipeline, for authoring:
//! [`oracle`] (a reference matcher), [`sample`], [`records`], [`tools`].
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
pub mod compile;
mod config;
pub mod depth;
pub mod diagnostic;
mod driver;
pub mod emit;
mod files;
pub mod grammar;
pub mod limits;
pub mod names;
pub mod network;
pub mod oracle;
pub mod partial;
pub mod records;
pub mod regular;
pub mod sample;
pub mod syntax;
pub mod tagged;
pub mod terminals;
pub mod tools;
pub mod tree;
pub mod typed;
pub mod wire;

pub use compile::{Compiled, CompiledRule, RuleStats};
pub use config::{Config, Error};
pub use diagnostic::{Code, Diagnostic, Diagnostics, Severity, Span};
pub use driver::write_if_changed;
pub use emit::{Generated, GeneratedFile};
pub use files::specs_hash;
