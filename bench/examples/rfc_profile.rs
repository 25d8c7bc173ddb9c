//! One contender of one operation of `iri_bench::rfc` (the RFC grammars
//! beyond IRIs) in a loop, for `perf record` and A/B timing:
//!
//! ```sh
//! cargo build --release -p iri-bench --example rfc_profile
//! perf record -e cpu-clock target/release/examples/rfc_profile uuid validate 0
//! ```
//!
//! Arguments: the grammar (`timestamp`, `uuid`, `langtag`, `http`, `json`),
//! the operation's name as `grammars-table` prints it (`validate`, `typed
//! tree`, `parts`, ...), the contender's index in that operation (0: ours,
//! as the table lists them), and optionally the seconds to loop (default 5)
//! and the highest vector level to use (`scalar`, `SSSE3`, `AVX2`, ...).
//! Prints the checksum and the mean time per input. Seconds written as
//! runs (`5r`: five passes over the corpus) make a fixed amount of work,
//! for counting instructions: under `valgrind --tool=cachegrind`, the
//! difference between `10r` and `5r`, over 5 passes, is what one pass
//! costs, whatever the machine is doing.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use abnf_runtime::simd::{self, Level};
use iri_bench::rfc::{operations, Grammar};
use iri_bench::DEFAULT_SEED;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: rfc_profile timestamp|uuid|langtag|http|json OPERATION INDEX [SECONDS [LEVEL]]";
    let (Some(g), Some(name), Some(index)) = (
        args.first(),
        args.get(1),
        args.get(2).and_then(|i| i.parse::<usize>().ok()),
    ) else {
        eprintln!("{usage}");
        return ExitCode::from(2);
    };
    let grammar = match g.as_str() {
        "timestamp" => Grammar::Timestamp,
        "uuid" => Grammar::Uuid,
        "langtag" => Grammar::LanguageTag,
        "http" => Grammar::HttpHead,
        "json" => Grammar::Json,
        _ => {
            eprintln!("{usage}");
            return ExitCode::from(2);
        }
    };
    let amount = args.get(3).map_or("5", String::as_str);
    let (seconds, fixed_runs): (f64, Option<u64>) = match amount.strip_suffix('r') {
        Some(runs) => (0.0, runs.parse().ok()),
        None => (amount.parse().unwrap_or(5.0), None),
    };
    if let Some(name) = args.get(4) {
        let Some(level) = Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(name))
        else {
            eprintln!("no vector level {name:?}: scalar, SSSE3, AVX2, AVX-512 or VBMI");
            return ExitCode::from(2);
        };
        simd::cap_level(level);
    }
    let Some(op) = operations()
        .into_iter()
        .find(|o| o.grammar == grammar && o.name == name)
    else {
        eprintln!("{} has no operation {name:?}", grammar.name());
        return ExitCode::from(2);
    };
    let Some(c) = op.contenders.get(index).copied() else {
        eprintln!("{} {name} has {} contenders", grammar.name(), op.contenders.len());
        return ExitCode::from(2);
    };
    let corpus = grammar.corpus(grammar.default_n(), DEFAULT_SEED);
    let sum = (c.run)(&corpus);
    let (t0, mut runs) = (Instant::now(), 0u64);
    while match fixed_runs {
        Some(n) => runs < n,
        None => t0.elapsed() < Duration::from_secs_f64(seconds),
    } {
        black_box((c.run)(black_box(&corpus)));
        runs += 1;
    }
    let per = t0.elapsed().as_secs_f64() * 1e9 / (runs as f64 * corpus.len() as f64);
    println!(
        "{} {name} / {}: checksum {sum}, {per:.1} ns per input ({} inputs per run)",
        grammar.name(),
        c.name,
        corpus.len()
    );
    ExitCode::SUCCESS
}
