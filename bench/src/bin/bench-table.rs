//! One table comparing `iri-grammar` with its peers, without criterion:
//! `cargo run --release -p iri-bench --bin bench-table` (or `cargo xtask
//! bench`).
//!
//! Each operation runs its contenders over the whole corpus: a warm-up, then
//! `--rounds` rounds in which every contender runs once, starting with a
//! different contender each round (so that no contender always follows the
//! same one), and the median of each contender's rounds is its time. The
//! table gives it per IRI (corpus time / n), as throughput, and as a ratio
//! to the operation's fastest peer (`oxiri`, `iri-string`, `fluent-uri`;
//! `url` and other reference-only contenders are never that peer).
//!
//! Options: `--n N` (corpus size, default 10000), `--n-long N` (long corpus
//! size, default 2000), `--seed S`, `--rounds R`
//! (default 101), `--examples K` (inputs shown per disagreement group,
//! default 2).

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use iri_bench::contenders::{operations, Corpus, Role};
use iri_bench::long::{long_iri_corpus, long_uri_corpus, LONG_N};
use iri_bench::{agreement, iri_corpus, uri_corpus, CorpusStats, DEFAULT_N, DEFAULT_SEED};

struct Options {
    n: usize,
    n_long: usize,
    seed: u64,
    rounds: usize,
    examples: usize,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        n: DEFAULT_N,
        n_long: LONG_N,
        seed: DEFAULT_SEED,
        rounds: 101,
        examples: 2,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| -> Result<u64, String> {
            let v = args.next().ok_or(format!("{name} needs a value"))?;
            let parsed = match v.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => v.parse(),
            };
            parsed.map_err(|e| format!("{name} {v}: {e}"))
        };
        match a.as_str() {
            "--n" => o.n = value("--n")?.max(1) as usize,
            "--n-long" => o.n_long = value("--n-long")?.max(1) as usize,
            "--seed" => o.seed = value("--seed")?,
            "--rounds" => o.rounds = value("--rounds")?.max(1) as usize,
            "--examples" => o.examples = value("--examples")? as usize,
            "-h" | "--help" => {
                return Err(
                    "usage: bench-table [--n N] [--n-long N] [--seed S] [--rounds R] [--examples K]".into(),
                )
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    Ok(o)
}

/// The median of `xs` (sorted in place).
fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(f64::total_cmp);
    let m = xs.len() / 2;
    if xs.len() % 2 == 1 {
        xs[m]
    } else {
        (xs[m - 1] + xs[m]) / 2.0
    }
}

fn main() -> ExitCode {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    if cfg!(debug_assertions) {
        eprintln!(
            "warning: not an optimized build; use `cargo run --release -p iri-bench --bin bench-table`"
        );
    }
    let iri = iri_corpus(o.n, o.seed);
    let uri = uri_corpus(o.n, o.seed);
    let long_iri = long_iri_corpus(o.n_long, o.seed);
    let long_uri = long_uri_corpus(o.n_long, o.seed);
    let (si, su) = (CorpusStats::of(&iri), CorpusStats::of(&uri));
    let (sli, slu) = (CorpusStats::of(&long_iri), CorpusStats::of(&long_uri));
    println!(
        "corpus: {} IRIs, seed {:#x}: {} bytes ({:.1} per IRI, {:.1}% non-ASCII); URI variant {} bytes ({:.1} per URI)",
        si.n,
        o.seed,
        si.bytes,
        si.mean_len(),
        100.0 * si.non_ascii as f64 / si.n as f64,
        su.bytes,
        su.mean_len()
    );
    println!(
        "long corpus: {} IRIs, seed {:#x}: {} bytes ({:.1} per IRI, {:.1}% non-ASCII); URI variant {} bytes ({:.1} per URI)",
        sli.n,
        o.seed,
        sli.bytes,
        sli.mean_len(),
        100.0 * sli.non_ascii as f64 / sli.n as f64,
        slu.bytes,
        slu.mean_len()
    );
    println!(
        "timing: whole corpus per run, 3 warm-up runs, median of {} rounds alternating the contenders",
        o.rounds
    );
    println!();

    let mut rows: Vec<[String; 5]> = Vec::new();
    let mut checksums = Vec::new();
    for op in operations() {
        let (corpus, stats) = match op.corpus {
            Corpus::Iri => (&iri, si),
            Corpus::Uri => (&uri, su),
            Corpus::LongIri => (&long_iri, sli),
            Corpus::LongUri => (&long_uri, slu),
        };
        let k = op.contenders.len();
        let mut out = vec![false; corpus.len()];
        for c in &op.contenders {
            let sum = (c.run)(corpus, &mut out);
            checksums.push((op.name, c.name, sum));
            for _ in 0..2 {
                black_box((c.run)(black_box(corpus), black_box(&mut out)));
            }
        }
        let mut samples = vec![Vec::with_capacity(o.rounds); k];
        for round in 0..o.rounds {
            for j in 0..k {
                let i = (j + round) % k;
                let run = op.contenders[i].run;
                let t = Instant::now();
                let r = run(black_box(corpus), black_box(&mut out));
                let elapsed = t.elapsed().as_secs_f64();
                black_box(r);
                samples[i].push(elapsed);
            }
        }
        let times: Vec<f64> = samples.iter_mut().map(|s| median(s)).collect();
        let fastest = op.fastest_peer(&times).map(|i| times[i]);
        for (c, &t) in op.contenders.iter().zip(&times) {
            let ratio = match fastest {
                Some(f) => format!("{:.2}", t / f),
                None => "-".into(),
            };
            let mark = match c.role {
                Role::Reference => " (ref)",
                _ => "",
            };
            rows.push([
                op.name.to_string(),
                format!("{}{mark}", c.name),
                format!("{:.1}", t * 1e9 / stats.n as f64),
                format!("{:.0}", stats.bytes as f64 / t / 1e6),
                ratio,
            ]);
        }
    }

    let header = ["operation", "contender", "ns/IRI", "MB/s", "vs fastest peer"];
    let mut widths = header.map(str::len);
    for r in &rows {
        for (w, cell) in widths.iter_mut().zip(r) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: [&str; 5]| {
        format!(
            "| {:<w0$} | {:<w1$} | {:>w2$} | {:>w3$} | {:>w4$} |",
            cells[0],
            cells[1],
            cells[2],
            cells[3],
            cells[4],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
            w3 = widths[3],
            w4 = widths[4]
        )
    };
    println!("{}", line(header));
    println!(
        "|{}|{}|{}:|{}:|{}:|",
        "-".repeat(widths[0] + 2),
        "-".repeat(widths[1] + 2),
        "-".repeat(widths[2] + 1),
        "-".repeat(widths[3] + 1),
        "-".repeat(widths[4] + 1),
    );
    let mut last_op = String::new();
    for r in &rows {
        let op = if r[0] == last_op { "" } else { r[0].as_str() };
        last_op = r[0].clone();
        println!("{}", line([op, &r[1], &r[2], &r[3], &r[4]]));
    }
    println!();
    println!(
        "ns/IRI = median corpus time / n; MB/s = corpus bytes / median time (10^6 bytes); \
         vs fastest peer = time / time of the fastest of oxiri, iri-string, fluent-uri \
         (below 1: faster); (ref) = reference only, never the fastest peer \
         (url: WHATWG, rejects relative references without a base; oxiri on the URI corpus: \
         an IRI parser)."
    );

    println!();
    println!("checksums (accepted inputs; for extract, parsed inputs + component bytes read):");
    for (op, name, sum) in &checksums {
        println!("  {op} / {name}: {sum}");
    }
    println!();
    println!("disagreements with iri-grammar:");
    let mut all = agreement::validity(&iri, Corpus::Iri);
    all.extend(agreement::validity(&uri, Corpus::Uri));
    all.extend(agreement::validity(&long_iri, Corpus::LongIri));
    all.extend(agreement::validity(&long_uri, Corpus::LongUri));
    all.extend(agreement::components(&iri));
    let lines = agreement::summarize(&all, o.examples);
    if lines.is_empty() {
        println!("  none");
    }
    for l in lines {
        println!("  {l}");
    }
    ExitCode::SUCCESS
}
