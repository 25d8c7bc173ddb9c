//! One contender of one operation in a loop, for profilers (`perf record`)
//! and for A/B timing of two builds, which the interleaved bench table is
//! too noisy for when the difference is a few nanoseconds:
//!
//! ```sh
//! cargo build --release -p iri-bench --example profile
//! perf record -e cpu-clock target/release/examples/profile extract ours
//! target/release/examples/profile validate-uri fluent
//! ```
//!
//! Operations: `validate-iri`, `validate-uri`, `batch`, `extract`, `split`;
//! with a `-long` suffix (`validate-iri-long`, ...), on the long corpus.
//! Contenders: `ours`, or the operation's first peer (`oxiri` for IRIs,
//! `fluent` for URIs); for `batch`, `ours` (`is_match_many`) or `loop`; for
//! `split` (RFC 3986 Appendix B's splitter alone), `ours` (its generated
//! exit walk), `scalar` (the same with the scalar search) or `table` (its
//! table walk).
//! A third argument caps the vector level (`scalar`, `SSSE3`, `AVX2`,
//! `AVX-512`, `VBMI`; see `abnf_runtime::simd::Level`), so that an AVX-512
//! machine profiles the path an AVX2 one takes:
//! `target/release/examples/profile extract ours avx2`.
//! Prints the checksum and the mean time per input; `PROFILE_ROUNDS=N`
//! sets how many times the corpus is run.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use iri_bench::contenders::{batch, extract, iri, split, uri};
use iri_bench::long::{long_iri_corpus, long_uri_corpus, LONG_N};
use iri_bench::{iri_corpus, uri_corpus, DEFAULT_N, DEFAULT_SEED};
use iri_grammar::abnf_runtime::simd::{cap_level, Level};

type Run = fn(&[String], &mut [bool]) -> u64;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (op, who, level) = match args.as_slice() {
        [op, who] => (op.as_str(), who.as_str(), None),
        [op, who, level] => (op.as_str(), who.as_str(), Some(level.as_str())),
        _ => {
            eprintln!("usage: profile OPERATION CONTENDER [LEVEL] (see the source's header)");
            return ExitCode::from(2);
        }
    };
    if let Some(name) = level {
        match Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(name))
        {
            Some(l) if l <= Level::detected() => cap_level(l),
            _ => {
                eprintln!("unknown level, or one this CPU does not have: {name}");
                return ExitCode::from(2);
            }
        }
    }
    let (op, long) = match op.strip_suffix("-long") {
        Some(op) => (op, true),
        None => (op, false),
    };
    let run: Run = match (op, who) {
        ("validate-iri", "ours") => iri::ours,
        ("validate-iri", "oxiri") => iri::oxiri,
        ("validate-uri", "ours") => uri::ours,
        ("validate-uri", "fluent") => uri::fluent,
        ("batch", "ours") => batch::ours_many,
        ("batch", "loop") => batch::ours_loop,
        ("extract", "ours") => extract::ours,
        ("extract", "oxiri") => extract::oxiri,
        ("split", "ours") => split::exits,
        ("split", "scalar") => split::exits_scalar,
        ("split", "table") => split::table,
        _ => {
            eprintln!("unknown operation or contender: {op} {who}");
            return ExitCode::from(2);
        }
    };
    let corpus = match (op == "validate-uri", long) {
        (true, false) => uri_corpus(DEFAULT_N, DEFAULT_SEED),
        (false, false) => iri_corpus(DEFAULT_N, DEFAULT_SEED),
        (true, true) => long_uri_corpus(LONG_N, DEFAULT_SEED),
        (false, true) => long_iri_corpus(LONG_N, DEFAULT_SEED),
    };
    let mut out = vec![false; corpus.len()];
    // `PROFILE_ROUNDS` overrides the rounds (two runs of different rounds
    // under cachegrind give the instructions per input by difference).
    let rounds = std::env::var("PROFILE_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(if long { 500 } else { 2000 });
    let mut sum = 0;
    let t = Instant::now();
    for _ in 0..rounds {
        sum += run(black_box(&corpus), &mut out);
    }
    let ns = t.elapsed().as_nanos() as f64 / (rounds * corpus.len()) as f64;
    println!("{sum} {ns:.1} ns");
    ExitCode::SUCCESS
}
