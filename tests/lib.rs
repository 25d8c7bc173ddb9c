//! Integration and conformance tests; see the files under `tests/tests/`.
//!
//! The README's and `docs/iri.md`'s Rust examples are this crate's doctests
//! (below), so `cargo test --workspace` runs them; `tests/tests/readme.rs`
//! checks that the README's `build.rs` example is the example crate's.

/// The README's Rust examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// `docs/iri.md`'s Rust examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/iri.md")]
pub struct IriGuideDoctests;
