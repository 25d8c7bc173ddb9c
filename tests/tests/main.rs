//! The integration, conformance and compile-fail tests, as one test binary:
//! each file beside this one is a module (`cargo test -p tests batch::`
//! runs one). One binary links the workspace once; seventeen linked it
//! seventeen times.

mod bad_grammars;
mod batch;
mod edge_cases;
mod extraction;
mod from_specs;
mod generated;
mod legacy;
mod operations;
mod peers;
mod properties;
mod readme;
mod rfc_examples;
mod rfc_text;
mod scheme_check;
mod schemes;
mod splitter;
mod stress;
mod ui;
mod vectors;
