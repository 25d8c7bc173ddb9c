//! Tests of the `iri` command, as one test binary: each file beside this
//! one is a module.
mod cli;
mod operations;
mod parse;
mod readme;
