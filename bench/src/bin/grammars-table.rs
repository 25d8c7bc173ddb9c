//! The benchmark beyond IRIs (issue #29) in one table, without criterion:
//! `cargo run --release -p iri-bench --bin grammars-table` (or `cargo xtask
//! bench`, after the IRI table).
//!
//! Grammars people parse every day, compiled from their RFCs' ABNF by this
//! crate's build script with the defaults (`iri_bench::rfc`), against the
//! fastest Rust crates that do the same job, on seeded corpora. Each
//! operation runs its contenders over the whole corpus: two warm-up runs,
//! then `--rounds` rounds in which every contender runs once, starting with
//! a different contender each round, and the median of each contender's
//! rounds is its time. Ours runs once per vector level this machine has,
//! capped with `abnf_runtime::simd::cap_level` just before its turn.
//!
//! Options: `--seed S`, `--rounds R` (default 51), `--scale F` (corpus sizes
//! times F, default 1), `--levels L,L,...` (default every level the CPU
//! has), `--examples K` (disagreements shown per contender, default 3).

use std::collections::HashMap;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use abnf_runtime::simd::{cap_level, Level};
use iri_bench::rfc::{disagreements, operations, Disagreement, Grammar, Role};
use iri_bench::DEFAULT_SEED;

struct Options {
    seed: u64,
    rounds: usize,
    scale: f64,
    levels: Vec<Level>,
    examples: usize,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        seed: DEFAULT_SEED,
        rounds: 51,
        scale: 1.0,
        levels: Level::available().collect(),
        examples: 3,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--seed" => {
                let v = value("--seed")?;
                o.seed = match v.strip_prefix("0x") {
                    Some(hex) => u64::from_str_radix(hex, 16),
                    None => v.parse(),
                }
                .map_err(|e| format!("--seed {v}: {e}"))?;
            }
            "--rounds" => {
                o.rounds = value("--rounds")?
                    .parse::<usize>()
                    .map_err(|e| e.to_string())?
                    .max(1)
            }
            "--scale" => {
                o.scale = value("--scale")?
                    .parse::<f64>()
                    .map_err(|e| e.to_string())?
                    .max(0.001)
            }
            "--examples" => {
                o.examples = value("--examples")?
                    .parse()
                    .map_err(|e: std::num::ParseIntError| e.to_string())?
            }
            "--levels" => {
                let v = value("--levels")?;
                let top = Level::detected();
                o.levels = Vec::new();
                for name in v.split(',') {
                    let l = Level::ALL
                        .into_iter()
                        .find(|l| l.name().eq_ignore_ascii_case(name.trim()))
                        .ok_or(format!("unknown level {name:?}"))?;
                    if l > top {
                        return Err(format!(
                            "this CPU has no {} (its level: {})",
                            l.name(),
                            top.name()
                        ));
                    }
                    o.levels.push(l);
                }
            }
            "-h" | "--help" => return Err(
                "usage: grammars-table [--seed S] [--rounds R] [--scale F] [--levels L,L,...] [--examples K]"
                    .into(),
            ),
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

/// `s` with control characters escaped, cut to about 40 characters on
/// each side of `at` (where the grammar stops matching, if it does).
fn show(s: &str, at: Option<usize>) -> String {
    let at = at.unwrap_or(0).min(s.len());
    let mut from = at.saturating_sub(40);
    while !s.is_char_boundary(from) {
        from -= 1;
    }
    let mut to = (at + 40).min(s.len());
    while !s.is_char_boundary(to) {
        to += 1;
    }
    let (a, b) = (&s[from..at.max(from)], &s[at.max(from)..to]);
    let esc = |t: &str| {
        let e = format!("{t:?}");
        e[1..e.len() - 1].to_string()
    };
    format!(
        "{}{}⟨here⟩{}{}",
        if from > 0 { "…" } else { "\"" },
        esc(a),
        esc(b),
        if to < s.len() { "…" } else { "\"" }
    )
}

/// Prints `rows` as a Markdown table, the first `left` columns left-aligned.
fn print_table(header: &[&str], rows: &[Vec<String>], left: usize) {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (w, cell) in widths.iter_mut().zip(r) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let mut s = String::from("|");
        for (i, (c, w)) in cells.iter().zip(&widths).enumerate() {
            if i < left {
                s += &format!(" {c:<w$} |");
            } else {
                s += &format!(" {c:>w$} |");
            }
        }
        s
    };
    println!("{}", line(header.to_vec()));
    let mut rule = String::from("|");
    for (i, w) in widths.iter().enumerate() {
        rule += &"-".repeat(w + 1);
        rule += if i < left { "-|" } else { ":|" };
    }
    println!("{rule}");
    for r in rows {
        println!("{}", line(r.iter().map(String::as_str).collect()));
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
            "warning: not an optimized build; use `cargo run --release -p iri-bench --bin grammars-table`"
        );
    }
    let top = Level::detected();
    let names: Vec<&str> = o.levels.iter().map(|l| l.name()).collect();
    println!("# Beyond IRIs: RFC grammars compiled by abnf-codegen (defaults) against hand-written crates");
    println!();
    let mut corpora: HashMap<Grammar, Vec<String>> = HashMap::new();
    for g in Grammar::ALL {
        let n = ((g.default_n() as f64 * o.scale).round() as usize).max(1);
        let corpus = g.corpus(n, o.seed);
        let bytes: usize = corpus.iter().map(String::len).sum();
        let invalid = corpus.iter().filter(|s| !g.ours(s)).count();
        println!(
            "corpus {}: {n} inputs, {bytes} bytes ({:.1} per input), {:.1}% invalid by the grammar",
            g.name(),
            bytes as f64 / n as f64,
            100.0 * invalid as f64 / n as f64
        );
        corpora.insert(g, corpus);
    }
    println!(
        "seed {:#x}; timing: whole corpus per run, 2 warm-up runs, median of {} rounds alternating the contenders",
        o.seed, o.rounds
    );
    println!(
        "levels: this CPU runs {}; ours timed at {} (marked [LEVEL]), each capped just before its turn",
        top.name(),
        names.join(", ")
    );
    println!();

    let mut rows = Vec::new();
    let mut summary: Vec<(String, Vec<Option<f64>>)> = Vec::new();
    let mut notes = Vec::new();
    let mut checks = Vec::new();
    let mut level_mismatch = Vec::new();
    let mut disagree = Vec::new();
    for op in operations() {
        let corpus = &corpora[&op.grammar];
        let n = corpus.len() as f64;
        let bytes: usize = corpus.iter().map(String::len).sum();
        let entries: Vec<(usize, Option<Level>)> = op
            .contenders
            .iter()
            .enumerate()
            .flat_map(|(i, c)| match c.role {
                Role::Ours => o.levels.iter().map(|&l| (i, Some(l))).collect::<Vec<_>>(),
                _ => vec![(i, None)],
            })
            .collect();
        let mut sums: HashMap<usize, u64> = HashMap::new();
        for &(i, level) in &entries {
            cap_level(level.unwrap_or(top));
            let c = &op.contenders[i];
            let sum = (c.run)(corpus);
            match sums.get(&i) {
                None => {
                    sums.insert(i, sum);
                }
                Some(&s) if s != sum => level_mismatch.push(format!(
                    "{} {} / {} at {}: checksum {sum}, not {s}",
                    op.grammar.name(),
                    op.name,
                    c.name,
                    level.map_or("-", Level::name)
                )),
                _ => {}
            }
            black_box((c.run)(black_box(corpus)));
        }
        let k = entries.len();
        let mut samples = vec![Vec::with_capacity(o.rounds); k];
        for round in 0..o.rounds {
            for j in 0..k {
                let e = (j + round) % k;
                let (i, level) = entries[e];
                cap_level(level.unwrap_or(top));
                let t = Instant::now();
                black_box((op.contenders[i].run)(black_box(corpus)));
                samples[e].push(t.elapsed().as_secs_f64());
            }
        }
        cap_level(top);
        let times: Vec<f64> = samples.iter_mut().map(|s| median(s)).collect();
        let fastest = entries
            .iter()
            .zip(&times)
            .filter(|((i, _), _)| op.contenders[*i].role == Role::Peer)
            .map(|(_, &t)| t)
            .min_by(f64::total_cmp);
        let mut per_ours: HashMap<usize, Vec<Option<f64>>> = HashMap::new();
        for (&(i, level), &t) in entries.iter().zip(&times) {
            let c = &op.contenders[i];
            let mark = match (c.role, level) {
                (Role::Reference, _) => " (ref)".to_string(),
                (_, Some(l)) => format!(" [{}]", l.name()),
                _ => String::new(),
            };
            if let Some(l) = level {
                let at = o.levels.iter().position(|&x| x == l).unwrap_or(0);
                per_ours.entry(i).or_insert_with(|| vec![None; o.levels.len()])[at] = fastest.map(|f| f / t);
            }
            rows.push(vec![
                op.grammar.name().to_string(),
                op.name.to_string(),
                format!("{}{mark}", c.name),
                format!("{:.1}", t * 1e9 / n),
                format!("{:.0}", bytes as f64 / t / 1e6),
                fastest.map_or("-".into(), |f| format!("{:.2}", t / f)),
            ]);
        }
        let mut ours: Vec<_> = per_ours.into_iter().collect();
        ours.sort_by_key(|(i, _)| *i);
        for (i, ratios) in ours {
            summary.push((
                format!("{} {}: {}", op.grammar.name(), op.name, op.contenders[i].name),
                ratios,
            ));
        }
        notes.push(format!("{} {}: {}", op.grammar.name(), op.name, op.note));
        let mut sums: Vec<_> = sums.into_iter().collect();
        sums.sort_by_key(|(i, _)| *i);
        let first = sums.first().map(|s| s.1);
        if sums.iter().any(|s| Some(s.1) != first) {
            let list: Vec<String> = sums
                .iter()
                .map(|(i, s)| format!("{} {s}", op.contenders[*i].name))
                .collect();
            checks.push(format!("{} {}: {}", op.grammar.name(), op.name, list.join("; ")));
        }
        if op.contenders.iter().any(|c| c.accepts.is_some()) {
            disagree.push((op.grammar, disagreements(&op, corpus)));
        }
    }

    // Merge the grammar and operation cells of repeated rows.
    let mut last = (String::new(), String::new());
    for r in &mut rows {
        let key = (r[0].clone(), r[1].clone());
        if key == last {
            r[1] = String::new();
            r[0] = String::new();
        } else if key.0 == last.0 {
            r[0] = String::new();
        }
        last = key;
    }
    print_table(
        &[
            "grammar",
            "operation",
            "contender",
            "ns/input",
            "MB/s",
            "vs fastest crate",
        ],
        &rows,
        3,
    );
    println!();
    println!(
        "ns/input = median corpus time / inputs; MB/s = corpus bytes / median time (10^6 bytes); \
         vs fastest crate = time / time of the operation's fastest hand-written crate (below 1: faster); \
         (ref) = reference only."
    );
    println!();
    for n in &notes {
        println!("- {n}");
    }
    println!();
    println!(
        "how many times faster than the fastest crate ours is, per level (fastest crate's time / ours):"
    );
    println!();
    let mut header = vec!["grammar, operation: ours"];
    header.extend(names.iter().copied());
    let srows: Vec<Vec<String>> = summary
        .iter()
        .map(|(name, ratios)| {
            let mut r = vec![name.clone()];
            r.extend(
                ratios
                    .iter()
                    .map(|x| x.map_or("-".into(), |x| format!("{x:.2}x"))),
            );
            r
        })
        .collect();
    print_table(&header, &srows, 1);
    if !level_mismatch.is_empty() {
        println!();
        println!("LEVELS DISAGREE (a bug):");
        for l in &level_mismatch {
            println!("  {l}");
        }
    }
    println!();
    println!("operations whose contenders' checksums differ (they read different parts, or accept different inputs):");
    if checks.is_empty() {
        println!("  none");
    }
    for c in &checks {
        println!("  {c}");
    }
    println!();
    println!(
        "validation disagreements with the generated parser (theirs differs from ours on these inputs):"
    );
    for (g, list) in &disagree {
        let mut by: Vec<(&str, Vec<&Disagreement>)> = Vec::new();
        for d in list {
            match by.iter_mut().find(|(n, _)| *n == d.contender) {
                Some((_, v)) => v.push(d),
                None => by.push((d.contender, vec![d])),
            }
        }
        if by.is_empty() {
            println!("  {}: none", g.name());
        }
        for (name, v) in by {
            let accepts = v.iter().filter(|d| !d.ours).count();
            println!(
                "  {} / {name}: {} inputs ({accepts} it accepts and the grammar rejects, {} it rejects and the grammar accepts)",
                g.name(),
                v.len(),
                v.len() - accepts
            );
            for d in v.iter().filter(|d| !d.ours).take(o.examples) {
                println!("      accepts {}", show(&d.input, g.error_offset(&d.input)));
            }
            for d in v.iter().filter(|d| d.ours).take(o.examples) {
                println!("      rejects {}", show(&d.input, None));
            }
        }
    }
    ExitCode::SUCCESS
}
