//! IRI (RFC 3987) and URI (RFC 3986) recognizers, generated at build time
//! from the grammar files in `specs/` by [`abnf-codegen`].
//!
//! Each grammar is a module ([`rfc3986`], [`rfc3987`]) with one
//! [`Recognizer`] per exported rule, named after the rule
//! (`IRI-reference` → [`rfc3987::IRI_REFERENCE`]). A recognizer is a
//! minimized DFA, embedded in the binary and loaded once, zero-copy.
//!
//! ```
//! use iri_grammar::{rfc3986, rfc3987};
//!
//! assert!(rfc3987::IRI.is_match("https://例え.jp/引き出し?q=1#frag"));
//! assert!(!rfc3986::URI.is_match("https://例え.jp/"));
//! assert!(rfc3986::IPV6ADDRESS.is_match("2001:db8::7"));
//!
//! // Tools can look a rule up by grammar and ABNF name.
//! let r = iri_grammar::lookup("rfc3987", "IRI-reference").unwrap();
//! assert!(r.is_match("../a/b?c"));
//! ```
//!
//! The everyday types ([`IriRef`], [`Iri`], [`UriRef`], [`Uri`], the
//! fragment-less [`AbsoluteIri`] and [`AbsoluteUri`], and their owned forms)
//! are validated and give the components; the IRI types are strict (RFC 3987
//! §4.1: no bidi formatting characters), while a [`Recognizer`] checks its
//! grammar rule alone. [`ops`] has the RFC 3987 / RFC 3986 operations on
//! them: IRI ↔ URI mapping (literal and display-safe), resolution,
//! normalization and comparison (scheme-based by default), bidi checks, a
//! lint, and a builder.
//!
//! ```
//! use iri_grammar::{Iri, IriRef};
//!
//! let base = Iri::parse("http://例え.jp/a/b")?;
//! let target = base.resolve(IriRef::parse("../引き出し?q=1")?);
//! assert_eq!(target, "http://例え.jp/引き出し?q=1");
//! assert_eq!(base.resolve_str("../引き出し?q=1")?, target);
//! assert_eq!(base.scheme(), "http");
//! assert_eq!(
//!     target.as_ref().to_uri().as_str(),
//!     "http://%E4%BE%8B%E3%81%88.jp/%E5%BC%95%E3%81%8D%E5%87%BA%E3%81%97?q=1"
//! );
//! # Ok::<(), iri_grammar::ParseError>(())
//! ```
//!
//! The crate is `#![no_std]` (it needs `alloc` for the one-time DFA load
//! and for the operations' results).
//!
//! [`abnf-codegen`]: https://docs.rs/abnf-codegen

#![no_std]
#![warn(missing_docs)]

extern crate alloc;

/// The crate's README (its example runs as a doctest).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub mod ops;
mod scheme;
mod types;

/// The runtime that the generated recognizers and parse trees run on.
pub use abnf_runtime;
pub use abnf_runtime::{ByteSet, Grammar, List, MatchError, Recognizer, Span};
pub use ops::{
    equivalent, iri_to_uri, normalize, relativize, remove_dot_segments, resolve, uri_to_iri, IriBuilder,
    Normalizer, Rung,
};
pub use scheme::{check_scheme, scheme_grammar, SchemeCheck};
pub use types::{
    AbsoluteIri, AbsoluteIriBuf, AbsoluteUri, AbsoluteUriBuf, Host, Iri, IriBuf, IriRef, IriRefBuf,
    ParseError, ParseErrorKind, Port, Uri, UriBuf, UriRef, UriRefBuf,
};

// One module per spec file (`rfc3986`, `rfc3987`, `rfc2396`, `rfc1738`, ...),
// documented with the spec's opening comment, and the `GRAMMARS` index: all
// generated from `specs/`, so a new spec file needs no Rust code here.
include!(concat!(env!("OUT_DIR"), "/grammars.rs"));

/// The recognizer of `rule` in `grammar` (a spec file stem such as
/// `rfc3987`); rule names are case-insensitive, as in ABNF.
///
/// ```
/// let r = iri_grammar::lookup("rfc3986", "ipv4ADDRESS").unwrap();
/// assert!(r.is_match("192.0.2.1"));
/// assert!(iri_grammar::lookup("rfc3986", "no-such-rule").is_none());
/// ```
pub fn lookup(grammar: &str, rule: &str) -> Option<&'static Recognizer> {
    grammar_by_name(grammar)?.get(rule)
}

/// A generated grammar by name.
pub fn grammar_by_name(name: &str) -> Option<&'static Grammar> {
    GRAMMARS.iter().copied().find(|g| g.name() == name)
}
