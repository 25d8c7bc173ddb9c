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
//! `iri-grammar`'s contenders run once per vector level this machine has
//! (`scalar`, `SSSE3`, `AVX2`, `AVX-512`, `VBMI`: see
//! `abnf_runtime::simd::Level`), each level capped for the process with
//! `abnf_runtime::simd::cap_level` just before the contender's turn, in the
//! same rounds as the peers; a second table puts each operation's ratio to
//! its fastest peer at every level side by side.
//!
//! Options: `--n N` (corpus size, default 10000), `--n-long N` (long corpus
//! size, default 2000), `--seed S`, `--rounds R`
//! (default 101), `--examples K` (inputs shown per disagreement group,
//! default 2), `--levels L,L,...` (the levels to time ours at, default
//! every level the CPU has; names as printed, case-insensitive).

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use iri_bench::contenders::{operations, Contender, Corpus, Role};
use iri_bench::long::{long_iri_corpus, long_uri_corpus, LONG_N};
use iri_bench::{agreement, iri_corpus, uri_corpus, CorpusStats, DEFAULT_N, DEFAULT_SEED};
use iri_grammar::abnf_runtime::simd::{cap_level, Level};

struct Options {
    n: usize,
    n_long: usize,
    seed: u64,
    rounds: usize,
    examples: usize,
    levels: Vec<Level>,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        n: DEFAULT_N,
        n_long: LONG_N,
        seed: DEFAULT_SEED,
        rounds: 101,
        examples: 2,
        levels: Level::available().collect(),
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
            "--levels" => {
                let v = args.next().ok_or("--levels needs a value")?;
                let top = Level::detected();
                o.levels = Vec::new();
                for name in v.split(',') {
                    let l = Level::ALL
                        .into_iter()
                        .find(|l| l.name().eq_ignore_ascii_case(name.trim()))
                        .ok_or(format!("unknown level {name:?}"))?;
                    if l > top {
                        return Err(format!("this CPU has no {} (its level: {})", l.name(), top.name()));
                    }
                    o.levels.push(l);
                }
            }
            "-h" | "--help" => {
                return Err(
                    "usage: bench-table [--n N] [--n-long N] [--seed S] [--rounds R] [--examples K] [--levels L,L,...]".into(),
                )
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    Ok(o)
}

/// An operation's name and, per level timed, how many times faster ours is
/// than its fastest peer and than oxiri.
type Summary = (&'static str, Vec<Option<f64>>, Vec<Option<f64>>);

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

    let top = Level::detected();
    let names: Vec<&str> = o.levels.iter().map(|l| l.name()).collect();
    println!(
        "levels: this CPU runs {}; ours timed at {} (marked [LEVEL]), each capped just before its turn",
        top.name(),
        names.join(", ")
    );
    println!();

    let mut rows: Vec<[String; 5]> = Vec::new();
    let mut checksums = Vec::new();
    // Per operation: its name and, per level, how many times faster ours
    // (its first contender) is than the fastest peer, and than oxiri.
    let mut summary: Vec<Summary> = Vec::new();
    let mut level_mismatch = Vec::new();
    for op in operations() {
        let (corpus, stats) = match op.corpus {
            Corpus::Iri => (&iri, si),
            Corpus::Uri => (&uri, su),
            Corpus::LongIri => (&long_iri, sli),
            Corpus::LongUri => (&long_uri, slu),
        };
        // Ours once per level, peers once (at the CPU's level).
        let entries: Vec<(&Contender, Option<Level>)> = op
            .contenders
            .iter()
            .flat_map(|c| match c.role {
                Role::Ours => o.levels.iter().map(|&l| (c, Some(l))).collect::<Vec<_>>(),
                _ => vec![(c, None)],
            })
            .collect();
        let k = entries.len();
        let mut out = vec![false; corpus.len()];
        let mut first_sum = std::collections::HashMap::new();
        for &(c, level) in &entries {
            cap_level(level.unwrap_or(top));
            let sum = (c.run)(corpus, &mut out);
            match first_sum.get(c.name) {
                None => {
                    first_sum.insert(c.name, sum);
                    checksums.push((op.name, c.name, sum));
                }
                Some(&s) if s != sum => level_mismatch.push(format!(
                    "{} / {} at {}: checksum {sum}, not {s}",
                    op.name,
                    c.name,
                    level.map_or("-", Level::name)
                )),
                _ => {}
            }
            for _ in 0..2 {
                black_box((c.run)(black_box(corpus), black_box(&mut out)));
            }
        }
        let mut samples = vec![Vec::with_capacity(o.rounds); k];
        for round in 0..o.rounds {
            for j in 0..k {
                let i = (j + round) % k;
                let (c, level) = entries[i];
                cap_level(level.unwrap_or(top));
                let t = Instant::now();
                let r = (c.run)(black_box(corpus), black_box(&mut out));
                let elapsed = t.elapsed().as_secs_f64();
                black_box(r);
                samples[i].push(elapsed);
            }
        }
        cap_level(top);
        let times: Vec<f64> = samples.iter_mut().map(|s| median(s)).collect();
        let fastest = entries
            .iter()
            .zip(&times)
            .filter(|((c, _), _)| c.role == Role::Peer)
            .map(|(_, &t)| t)
            .min_by(f64::total_cmp);
        let oxiri = entries
            .iter()
            .zip(&times)
            .find(|((c, _), _)| c.role == Role::Peer && c.name.starts_with("oxiri"))
            .map(|(_, &t)| t);
        let mut per_level = vec![None; o.levels.len()];
        let mut per_level_oxiri = vec![None; o.levels.len()];
        for (&(c, level), &t) in entries.iter().zip(&times) {
            let ratio = match fastest {
                Some(f) => format!("{:.2}", t / f),
                None => "-".into(),
            };
            let mark = match (c.role, level) {
                (Role::Reference, _) => " (ref)".to_string(),
                (_, Some(l)) => format!(" [{}]", l.name()),
                _ => String::new(),
            };
            if let Some(l) = level.filter(|_| std::ptr::eq(c, &op.contenders[0])) {
                let at = o.levels.iter().position(|&x| x == l).unwrap_or(0);
                per_level[at] = fastest.map(|f| f / t);
                per_level_oxiri[at] = oxiri.map(|x| x / t);
            }
            rows.push([
                op.name.to_string(),
                format!("{}{mark}", c.name),
                format!("{:.1}", t * 1e9 / stats.n as f64),
                format!("{:.0}", stats.bytes as f64 / t / 1e6),
                ratio,
            ]);
        }
        summary.push((op.name, per_level, per_level_oxiri));
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
    for (title, oxiri_only) in [("the fastest peer", false), ("oxiri", true)] {
        println!(
            "how many times faster than {title} ours is (each operation's first iri-grammar contender), per level:"
        );
        println!();
        let w0 = summary.iter().map(|(n, ..)| n.len()).max().unwrap_or(9).max(9);
        let mut head = format!("| {:<w0$} |", "operation");
        let mut rule = format!("|{}|", "-".repeat(w0 + 2));
        for n in &names {
            head += &format!(" {n:>7} |");
            rule += &format!("{}:|", "-".repeat(8));
        }
        println!("{head}");
        println!("{rule}");
        for (name, fastest, oxiri) in &summary {
            let cells = if oxiri_only { oxiri } else { fastest };
            if cells.iter().all(Option::is_none) {
                continue;
            }
            let mut line = format!("| {name:<w0$} |");
            for r in cells {
                let cell = r.map_or("-".to_string(), |r| format!("{r:.2}x"));
                line += &format!(" {cell:>7} |");
            }
            println!("{line}");
        }
        println!();
    }
    println!("(peer time / our time in the same rounds: above 1, ours is faster)");
    if !level_mismatch.is_empty() {
        println!();
        println!("LEVELS DISAGREE (a bug):");
        for l in &level_mismatch {
            println!("  {l}");
        }
    }

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
