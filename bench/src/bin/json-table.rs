//! RFC 8259's ABNF, compiled by `abnf-codegen` with the defaults, against
//! `serde_json` (into `IgnoredAny`) and `simd-json` (reference) on a
//! generated corpus: `cargo run --release -p iri-bench --bin json-table`.
//!
//! Every contender validates the whole corpus once per round; rounds start
//! with a different contender each time, and the median round is its time.
//! Options: `--n N` (documents, default 400), `--seed S`, `--rounds R`
//! (default 31). Ours is timed at every vector level this CPU has
//! (`abnf_runtime::simd::cap_level` just before its turn).

use std::hint::black_box;
use std::time::Instant;

use abnf_runtime::simd::{cap_level, Level};
use iri_bench::json::{json_corpus, rfc8259, JSON_N, JSON_SEED};

fn main() {
    let mut n = JSON_N;
    let mut seed = JSON_SEED;
    let mut rounds = 31;
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).and_then(|v| v.parse().ok());
        match (pair[0].as_str(), value) {
            ("--n", Some(v)) => n = v as usize,
            ("--seed", Some(v)) => seed = v,
            ("--rounds", Some(v)) => rounds = v as usize,
            _ => {
                eprintln!("usage: json-table [--n N] [--seed S] [--rounds R]");
                std::process::exit(2);
            }
        }
    }
    let docs = json_corpus(n, seed);
    let bytes: usize = docs.iter().map(String::len).sum();
    let depth = docs
        .iter()
        .map(|d| {
            d.bytes()
                .fold((0i32, 0i32), |(cur, max), b| match b {
                    b'[' | b'{' => (cur + 1, max.max(cur + 1)),
                    b']' | b'}' => (cur - 1, max),
                    _ => (cur, max),
                })
                .1
        })
        .max()
        .unwrap_or(0);
    let ours = |d: &str| rfc8259::JSON_TEXT.is_match(d);
    let serde = |d: &str| serde_json::from_str::<serde::de::IgnoredAny>(d).is_ok();
    let mut buf = Vec::new();
    let mut simd = |d: &str| {
        buf.clear();
        buf.extend_from_slice(d.as_bytes());
        simd_json::to_tape(&mut buf).is_ok()
    };
    let valid = docs.iter().filter(|d| ours(d)).count();
    let disagree: Vec<&String> = docs.iter().filter(|d| ours(d) != serde(d)).collect();
    println!(
        "JSON corpus: {n} documents, {bytes} bytes, {valid} valid by RFC 8259, nesting up to {depth}; \
         serde_json disagrees on {}",
        disagree.len()
    );
    for d in disagree.iter().take(3) {
        println!("  disagreement: {:?}", &d[..d.len().min(120)]);
    }
    // Ours once per vector level this CPU has (capped just before its
    // turn), then the two peers at the CPU's level.
    let top = Level::detected();
    let levels: Vec<Level> = Level::available().collect();
    let k = levels.len() + 2;
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); k];
    for round in 0..rounds + 2 {
        for j in 0..k {
            let who = (j + round) % k;
            cap_level(levels.get(who).copied().unwrap_or(top));
            let t = Instant::now();
            let mut ok = 0usize;
            for d in &docs {
                ok += usize::from(match who.checked_sub(levels.len()) {
                    None => ours(black_box(d)),
                    Some(0) => serde(black_box(d)),
                    Some(_) => simd(black_box(d)),
                });
            }
            black_box(ok);
            if round >= 2 {
                times[who].push(t.elapsed().as_secs_f64());
            }
        }
    }
    cap_level(top);
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let times: Vec<f64> = times.iter_mut().map(median).collect();
    let serde_t = times[levels.len()];
    println!("{:<52} {:>9} {:>10}", "validate", "MB/s", "vs serde");
    let mut names: Vec<String> = levels
        .iter()
        .map(|l| format!("abnf-codegen (RFC 8259 ABNF, defaults) [{}]", l.name()))
        .collect();
    names.push("serde_json::from_str::<IgnoredAny>".into());
    names.push("simd-json to_tape (reference; copies the input)".into());
    for (name, t) in names.iter().zip(&times) {
        println!("{name:<52} {:>9.0} {:>9.2}x", bytes as f64 / t / 1e6, serde_t / t);
    }
}
