//! Tests of the generator as its users meet it (the CLI, and the generated
//! code as snapshots), as one test binary: each file beside this one is a
//! module.
mod cli;
mod readme;
mod snapshot;
