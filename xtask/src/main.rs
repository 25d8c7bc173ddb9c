//! Maintainers' commands: `cargo xtask <command>`.
//!
//! - `stats`: per exported rule of every grammar in `specs/`, the NFA and DFA
//!   states, serialized DFA bytes and build time.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("stats") => stats(),
        _ => {
            eprintln!("usage: cargo xtask stats");
            ExitCode::from(2)
        }
    }
}

fn stats() -> ExitCode {
    let mut config = abnf_codegen::Config::new();
    config.specs_dir(workspace_root().join("specs"));
    let t0 = std::time::Instant::now();
    let compiled = match config.build() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let total = t0.elapsed();
    println!(
        "{:<10} {:<16} {:>6} {:>6} {:>7} {:>8} {:>8} {:>8} {:>8}",
        "grammar", "rule", "nfa", "dfa", "classes", "table", "sparse", "extract", "build ms"
    );
    let mut bytes = 0;
    for s in compiled.stats() {
        bytes += s.table_bytes + s.sparse_bytes + s.extract_bytes;
        println!(
            "{:<10} {:<16} {:>6} {:>6} {:>7} {:>8} {:>8} {:>8} {:>8.1}",
            s.grammar,
            s.rule,
            s.nfa_states,
            s.dfa_states,
            s.classes,
            s.table_bytes,
            s.sparse_bytes,
            s.extract_bytes,
            s.build_time.as_secs_f64() * 1e3
        );
    }
    println!("total: {bytes} bytes embedded (one byte order); pipeline {:.2} s", total.as_secs_f64());
    ExitCode::SUCCESS
}
