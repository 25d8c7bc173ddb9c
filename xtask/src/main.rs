//! Maintainers' commands: `cargo xtask <command>`.
//!
//! - `stats`: per exported rule of every grammar in `specs/`, the NFA and DFA
//!   states, table sizes and build time.
//! - `new-grammar NAME`: scaffolds `specs/NAME.abnf` and
//!   `tests/tests/NAME.rs`, a module of the one integration test binary (the
//!   grammar's module appears in `iri-grammar` by itself).
//! - `props [N]`: the property tests against the reference matcher with N
//!   cases each (default 10,000), in release mode.
//! - `codegen [--check] [--out DIR]`: writes the generated code for `specs/`
//!   to `iri-grammar/generated/` (what `iri-grammar` builds from while the
//!   specs are unchanged), or to DIR; with `--check`, fails if it is stale. A
//!   test runs the check, so `cargo test` catches stale output.
//! - `bench [ARGS]`: the comparison tables of `bench/` (IRIs, then the RFC
//!   grammars beyond IRIs: timestamps, UUIDs, language tags, HTTP request
//!   heads, JSON), then table sizes and build times.
//! - `fuzz [TARGET|all] [SECONDS]`: the cargo-fuzz targets of `fuzz/`.
//! - `man [--out DIR]`: man pages (`clap_mangen`: one per command and verb)
//!   and shell completions (`clap_complete`: bash, zsh, fish, elvish,
//!   PowerShell) of `iri` and `abnf-codegen`, written to DIR (default
//!   `target/assets`) as `man/*.1` and `completions/*`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::CommandFactory;

#[allow(dead_code)]
#[path = "../../abnf-codegen/src/cli.rs"]
mod abnf_codegen_cli;
/// The commands' argument definitions, the very files their binaries use
/// (fields that only the binaries read are unused here).
#[allow(dead_code)]
#[path = "../../iri-cli/src/cli.rs"]
mod iri_cli;

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
        Some("new-grammar") => match args.get(1).map(|n| new_grammar(n)) {
            Some(Ok(msg)) => {
                println!("{msg}");
                ExitCode::SUCCESS
            }
            Some(Err(e)) => {
                eprintln!("{e}");
                ExitCode::FAILURE
            }
            None => {
                eprintln!("usage: cargo xtask new-grammar NAME");
                ExitCode::from(2)
            }
        },
        Some("props") => {
            // The property tests against the reference matcher, N cases each.
            let cases = args.get(1).cloned().unwrap_or_else(|| "10000".into());
            let status =
                std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
                    .args([
                        "test",
                        "--release",
                        "-p",
                        "tests",
                        "--test",
                        "properties",
                        "--",
                        "--nocapture",
                    ])
                    .env("PROPTEST_CASES", &cases)
                    .current_dir(workspace_root())
                    .status();
            match status {
                Ok(s) if s.success() => ExitCode::SUCCESS,
                _ => ExitCode::FAILURE,
            }
        }
        Some("man") => {
            let out = args
                .iter()
                .position(|a| a == "--out")
                .and_then(|i| args.get(i + 1))
                .map(PathBuf::from)
                .unwrap_or_else(|| workspace_root().join("target/assets"));
            match man(&out) {
                Ok(()) => {
                    println!(
                        "wrote man pages to {0}/man and completions to {0}/completions",
                        out.display()
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("cannot write to {}: {e}", out.display());
                    ExitCode::FAILURE
                }
            }
        }
        Some("codegen") => match codegen(
            args.iter().any(|a| a == "--check"),
            args.iter()
                .position(|a| a == "--out")
                .and_then(|i| args.get(i + 1))
                .map(PathBuf::from),
        ) {
            Ok(msg) => {
                println!("{msg}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{e}");
                ExitCode::FAILURE
            }
        },
        // The comparison tables of bench/: iri-grammar against its peers
        // (further arguments go to bench-table: `--n`, `--seed`, `--rounds`,
        // `--levels`), then the RFC grammars beyond IRIs against their
        // crates (grammars-table, with the same `--seed`, `--rounds` and
        // `--levels`), then table sizes and build times. Ours is timed at
        // every vector level the CPU has.
        Some("bench") => {
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let run = |bin: &str, args: &[String]| {
                std::process::Command::new(&cargo)
                    .current_dir(workspace_root())
                    .args(["run", "--release", "-p", "iri-bench", "--bin", bin, "--"])
                    .args(args)
                    .status()
            };
            let iri = run("bench-table", &args[1..]);
            let grammars = match iri {
                Ok(s) if s.success() => {
                    println!();
                    run("grammars-table", &grammar_table_args(&args[1..]))
                }
                other => other,
            };
            match grammars {
                Ok(s) if s.success() => bench_sizes_and_builds(),
                Ok(_) => ExitCode::FAILURE,
                Err(e) => {
                    eprintln!("cannot run cargo: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        // The fuzz targets of fuzz/ (a cargo-fuzz crate outside the
        // workspace; needs `cargo install cargo-fuzz`): `cargo xtask fuzz
        // [TARGET|all] [SECONDS]` runs each for SECONDS (default all, 60 s
        // each), one libFuzzer process at a time, after seeding its corpus
        // with the lines of tests/data/vectors/*.txt. RUSTC_BOOTSTRAP=1 lets
        // a stable toolchain take the nightly flags cargo-fuzz passes.
        Some("fuzz") => {
            const TARGETS: [&str; 8] = [
                "recognizers",
                "extraction",
                "differential_iri_string",
                "differential_fluent_uri",
                "bit_parallel",
                "generator",
                "typed_trees",
                "networks",
            ];
            let which = args.get(1).map(String::as_str).unwrap_or("all");
            let seconds = args.get(2).map(String::as_str).unwrap_or("60");
            let targets: Vec<&str> = match which {
                "all" => TARGETS.to_vec(),
                t if TARGETS.contains(&t) => vec![t],
                _ => Vec::new(),
            };
            if targets.is_empty() || seconds.parse::<u64>().is_err() {
                eprintln!(
                    "usage: cargo xtask fuzz [all | {}] [SECONDS]",
                    TARGETS.join(" | ")
                );
                return ExitCode::from(2);
            }
            let root = workspace_root();
            let fuzz_dir = root.join("fuzz");
            let vectors = root.join("tests/data/vectors");
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let mut failed = Vec::new();
            for target in targets {
                // One corpus file per vector line (lines are verbatim: split
                // on "\n" only), kept if already there.
                let corpus = fuzz_dir.join("corpus").join(target);
                let seeded = (|| -> std::io::Result<()> {
                    std::fs::create_dir_all(&corpus)?;
                    for entry in std::fs::read_dir(&vectors)? {
                        let path = entry?.path();
                        if path.extension().is_none_or(|e| e != "txt") {
                            continue;
                        }
                        let stem = path
                            .file_stem()
                            .unwrap_or_default()
                            .to_string_lossy()
                            .into_owned();
                        let text = std::fs::read_to_string(&path)?;
                        let text = text.strip_suffix('\n').unwrap_or(&text);
                        for (i, line) in text.split('\n').enumerate() {
                            let file = corpus.join(format!("seed-{stem}-{}", i + 1));
                            if !file.exists() {
                                std::fs::write(file, line)?;
                            }
                        }
                    }
                    Ok(())
                })();
                if let Err(e) = seeded {
                    eprintln!("cannot seed {}: {e}", corpus.display());
                    return ExitCode::FAILURE;
                }
                println!("== cargo fuzz run {target} -- -max_total_time={seconds}");
                let status = std::process::Command::new(&cargo)
                    .current_dir(&fuzz_dir)
                    .env("RUSTC_BOOTSTRAP", "1")
                    .args(["fuzz", "run", target, "--"])
                    .arg(format!("-max_total_time={seconds}"))
                    .status();
                match status {
                    Ok(s) if s.success() => {}
                    Ok(_) => failed.push(target),
                    Err(e) => {
                        eprintln!("cannot run cargo: {e}");
                        return ExitCode::FAILURE;
                    }
                }
            }
            if failed.is_empty() {
                ExitCode::SUCCESS
            } else {
                eprintln!(
                    "fuzzing failed: {} (crashes are in fuzz/artifacts/; is cargo-fuzz installed? \
                     `cargo install cargo-fuzz`)",
                    failed.join(", ")
                );
                ExitCode::FAILURE
            }
        }
        _ => {
            eprintln!(
                "usage: cargo xtask <stats | codegen [--check] | bench [bench-table options] | fuzz [TARGET|all] [SECONDS]>"
            );
            ExitCode::from(2)
        }
    }
}

/// The generator over the workspace's `specs/`.
fn specs_config() -> abnf_codegen::Config {
    let mut config = abnf_codegen::Config::new();
    config.specs_dir(workspace_root().join("specs"));
    config
}

fn stats() -> ExitCode {
    let t0 = std::time::Instant::now();
    let compiled = match specs_config().build() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let total = t0.elapsed();
    println!(
        "{:<10} {:<16} {:>6} {:>6} {:>7} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "grammar", "rule", "nfa", "dfa", "classes", "table", "reverse", "sparse", "extract", "build ms"
    );
    let mut bytes = 0;
    for s in compiled.stats() {
        bytes += s.table_bytes + s.reverse_bytes + s.sparse_bytes + s.extract_bytes + s.components_bytes;
        println!(
            "{:<10} {:<16} {:>6} {:>6} {:>7} {:>8} {:>8} {:>8} {:>8} {:>8.1}",
            s.grammar,
            s.rule,
            s.nfa_states,
            s.dfa_states,
            s.classes,
            s.table_bytes,
            s.reverse_bytes,
            s.sparse_bytes,
            s.extract_bytes,
            s.build_time.as_secs_f64() * 1e3
        );
    }
    println!(
        "total: {bytes} bytes embedded (one byte order); pipeline {:.2} s",
        total.as_secs_f64()
    );
    ExitCode::SUCCESS
}

/// The arguments of `cargo xtask bench` that `grammars-table` takes too
/// (`--seed`, `--rounds`, `--levels`, each with its value); the IRI
/// corpus sizes (`--n`, `--n-long`) and `--examples` are bench-table's own.
fn grammar_table_args(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if matches!(a.as_str(), "--seed" | "--rounds" | "--levels") {
            out.push(a.clone());
            out.extend(it.next().cloned());
        }
    }
    out
}

/// The rest of `cargo xtask bench`: the embedded tables of the benchmarked
/// rules, the generator's time over `specs/`, and how long `iri-grammar`
/// takes to rebuild after a spec file changes.
fn bench_sizes_and_builds() -> ExitCode {
    let t0 = std::time::Instant::now();
    let generated = match specs_config().generate() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let pipeline = t0.elapsed();
    println!();
    println!(
        "| rule | recognizer table | reverse automaton | sparse DFA | components DFA | parse-tree DFA |"
    );
    println!(
        "|------|-----------------:|------------------:|-----------:|---------------:|---------------:|"
    );
    // The recognizers and full-grammar extractions, and the splitter that
    // `IriRef::parse` and its siblings walk in step with the recognizer.
    let wanted = [
        ("rfc3987", "IRI-reference"),
        ("rfc3987", "iauthority"),
        ("rfc3986", "URI-reference"),
        ("rfc3986", "authority"),
        ("rfc3986_appendix_b", "reference"),
    ];
    for s in &generated.stats {
        if wanted.contains(&(s.grammar.as_str(), s.rule.as_str())) {
            println!(
                "| {}:{} | {} B | {} B | {} B | {} B | {} B |",
                s.grammar,
                s.rule,
                s.table_bytes,
                s.reverse_bytes,
                s.sparse_bytes,
                s.components_bytes,
                s.extract_bytes
            );
        }
    }
    println!();
    println!(
        "generator over specs/ (build and generate, this dev profile): {:.2} s",
        pipeline.as_secs_f64()
    );
    // Rebuild: build once, make a spec newer, build again and time it.
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let build = || {
        std::process::Command::new(&cargo)
            .current_dir(workspace_root())
            .args(["build", "-q", "-p", "iri-grammar", "--features", "regenerate"])
            .status()
            .is_ok_and(|s| s.success())
    };
    let spec = workspace_root().join("specs/rfc3987.abnf");
    let touch = || {
        std::fs::File::options()
            .append(true)
            .open(&spec)
            .and_then(|f| f.set_modified(std::time::SystemTime::now()))
    };
    if !build() || touch().is_err() {
        eprintln!("cannot build iri-grammar");
        return ExitCode::FAILURE;
    }
    let t0 = std::time::Instant::now();
    if !build() {
        return ExitCode::FAILURE;
    }
    println!(
        "rebuild of iri-grammar (feature `regenerate`) after a change to specs/rfc3987.abnf: {:.2} s",
        t0.elapsed().as_secs_f64()
    );
    println!(
        "a clean debug build of the workspace: `CARGO_TARGET_DIR=$(mktemp -d) cargo build --workspace` (not run here)"
    );
    ExitCode::SUCCESS
}

/// Generates `iri-grammar/generated/` (or `out`: `iri-grammar`'s build
/// script asks for its `OUT_DIR` when the specs changed) from `specs/` (the
/// same configuration as `iri-grammar/build.rs`), or with `check` compares it
/// with what is there.
fn codegen(check: bool, out: Option<PathBuf>) -> Result<String, String> {
    let root = workspace_root();
    let specs = root.join("specs");
    let out = out.unwrap_or_else(|| root.join("iri-grammar/generated"));
    let generated = abnf_codegen::Config::new()
        .specs_dir(&specs)
        .regenerate_command("cargo xtask codegen")
        // No walks as code: `iri-grammar`'s operations take the both-ends,
        // shuffle and exit walks, which they do not replace (long IRIs and
        // URIs validated 1.04x and 0.90x the time with them, within the
        // noise, 2026-11-29), and they made its release build 20 -> 29 s.
        .direct_walks(false)
        .generate()
        .map_err(|e| e.to_string())?;
    let mut files = generated.files;
    let hash = abnf_codegen::specs_hash(&specs).map_err(|e| format!("{}: {e}", specs.display()))?;
    files.push(abnf_codegen::GeneratedFile {
        path: "SPECS_HASH".into(),
        contents: format!("{hash}\n").into_bytes(),
    });
    let wanted: std::collections::BTreeSet<PathBuf> = files.iter().map(|f| out.join(&f.path)).collect();
    let mut on_disk = Vec::new();
    list_files(&out, &mut on_disk);
    let stale: Vec<&PathBuf> = on_disk.iter().filter(|p| !wanted.contains(*p)).collect();
    if check {
        let changed: Vec<&str> = files
            .iter()
            .filter(|f| std::fs::read(out.join(&f.path)).ok().as_deref() != Some(&f.contents[..]))
            .map(|f| f.path.as_str())
            .collect();
        if changed.is_empty() && stale.is_empty() {
            return Ok(format!("{} is up to date", out.display()));
        }
        return Err(format!(
            "{} was not up-to-date (changed: {changed:?}, not generated any more: {stale:?}); \
             run `cargo xtask codegen`",
            out.display()
        ));
    }
    for p in stale {
        std::fs::remove_file(p).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    abnf_codegen::write_if_changed(&out, &files).map_err(|e| e.to_string())?;
    Ok(format!("wrote {} files to {}", files.len(), out.display()))
}

fn list_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            list_files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Scaffolds a new grammar: the spec file and a test file. No Rust code is
/// needed per grammar: `iri-grammar` declares a module for every spec file.
fn new_grammar(name: &str) -> Result<String, String> {
    let valid = name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !valid {
        return Err(format!(
            "`{name}` cannot name a grammar module: use lower-case letters, digits and `_`, starting with a letter"
        ));
    }
    let root = workspace_root();
    let spec = root.join("specs").join(format!("{name}.abnf"));
    let test = root.join("tests/tests").join(format!("{name}.rs"));
    for p in [&spec, &test] {
        if p.exists() {
            return Err(format!("{} exists already", p.display()));
        }
    }
    // ABNF rule names and URI schemes have `-` where module names have `_`.
    let scheme = name.replace('_', "-");
    let rule = format!("{scheme}-URI");
    let constant = format!("{}_URI", name.to_ascii_uppercase());
    std::fs::write(
        &spec,
        format!(
            "; RFC NNNN, TITLE\n\
             ; Section N, \"SECTION TITLE\" (the scheme's ABNF, as published).\n\
             ; Source: https://www.rfc-editor.org/rfc/rfcNNNN#section-N\n\
             ;\n\
             ; Rules of RFC 3986 are imported, not copied; list the ones used:\n\
             ; @import rfc3986.abnf pct-encoded unreserved\n\
             \n\
             {rule} = \"{scheme}:\" 1*( unreserved / pct-encoded )\n"
        ),
    )
    .map_err(|e| format!("{}: {e}", spec.display()))?;
    std::fs::write(
        &test,
        format!(
            "//! The examples of RFC NNNN for the `{name}` scheme (specs/{name}.abnf).\n\
             \n\
             use iri_grammar::{name};\n\
             \n\
             #[test]\n\
             fn rfc_examples_are_valid() {{\n    \
                 for example in [\"{scheme}:example\"] {{\n        \
                     assert!({name}::{constant}.is_match(example), \"{{example}}\");\n    \
                 }}\n\
             }}\n\
             \n\
             #[test]\n\
             fn invalid_examples_are_rejected() {{\n    \
                 for example in [\"{scheme}:\", \"{scheme}:has space\"] {{\n        \
                     assert!(!{name}::{constant}.is_match(example), \"{{example}}\");\n    \
                 }}\n\
             }}\n"
        ),
    )
    .map_err(|e| format!("{}: {e}", test.display()))?;
    // The test file is a module of the one integration test binary.
    let main = root.join("tests/tests/main.rs");
    let mut mods = std::fs::read_to_string(&main).map_err(|e| format!("{}: {e}", main.display()))?;
    mods.push_str(&format!("mod {name};\n"));
    std::fs::write(&main, mods).map_err(|e| format!("{}: {e}", main.display()))?;
    Ok(format!(
        "created {} and {}\n\
         next:\n  \
         1. write the RFC's ABNF into the spec file (see docs/adding-a-grammar.md)\n  \
         2. cargo run -p abnf-codegen -- check {}\n  \
         3. cargo xtask codegen\n  \
         4. put the RFC's examples into the test file and run cargo test -p tests {name}::",
        spec.display(),
        test.display(),
        spec.display()
    ))
}

/// Man pages and shell completions of `iri` and `abnf-codegen`, under
/// `out/man` and `out/completions`.
fn man(out: &Path) -> std::io::Result<()> {
    use clap::ValueEnum;
    use clap_complete::Shell;

    let (man, completions) = (out.join("man"), out.join("completions"));
    std::fs::create_dir_all(&man)?;
    std::fs::create_dir_all(&completions)?;
    for mut command in [iri_cli::Cli::command(), abnf_codegen_cli::Cli::command()] {
        clap_mangen::generate_to(command.clone(), &man)?;
        let name = command.get_name().to_string();
        for &shell in Shell::value_variants() {
            clap_complete::generate_to(shell, &mut command, &name, &completions)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// `cargo xtask man` writes a man page per command and verb, with the
    /// verbs' examples, and the completions of both commands.
    #[test]
    fn man_pages_and_completions_are_written() {
        let out = std::env::temp_dir().join(format!("xtask-man-{}", std::process::id()));
        super::man(&out).unwrap();
        let read = |path: &str| std::fs::read_to_string(out.join(path)).unwrap();
        for page in [
            "iri.1",
            "iri-check.1",
            "iri-to-uri.1",
            "abnf-codegen.1",
            "abnf-codegen-match.1",
        ] {
            assert!(
                read(&format!("man/{page}")).starts_with(".ie \\n(.g .ds Aq"),
                "{page}"
            );
        }
        assert!(read("man/iri-resolve.1").contains("iri resolve"));
        assert!(read("man/abnf-codegen-check.1").contains("import\\-dir"));
        assert!(read("completions/iri.bash").contains("to-uri"));
        assert!(read("completions/_abnf-codegen").contains("--import-dir"));
        assert!(read("completions/abnf-codegen.fish").contains("explain"));
        std::fs::remove_dir_all(&out).unwrap();
    }

    /// Like rust-analyzer's codegen tests: `cargo test` fails when the
    /// checked-in generated code does not match `specs/` and the generator.
    #[test]
    fn generated_code_is_fresh() {
        if let Err(e) = super::codegen(true, None) {
            panic!("{e}");
        }
    }
}
