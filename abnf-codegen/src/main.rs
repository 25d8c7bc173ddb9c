//! The `abnf-codegen` command: a thin shell over the library.

use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use abnf_codegen::limits::MAX_SPEC_BYTES;
use abnf_codegen::{Config, Error};
use clap::{Parser, Subcommand};

/// Build-time ABNF code generator: checks grammars and runs their recognizers.
#[derive(Parser)]
#[command(name = "abnf-codegen", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check spec files: print every diagnostic, exit 1 on errors.
    Check {
        /// Treat only these rules as exported (`RULE` or `GRAMMAR:RULE`);
        /// rules they do not reach are reported as unused.
        #[arg(long = "rule", value_name = "RULE")]
        rules: Vec<String>,
        /// Spec files.
        #[arg(required = true)]
        specs: Vec<PathBuf>,
    },
    /// Per exported rule: NFA and DFA states, byte classes, table bytes,
    /// extraction automaton bytes, build time.
    Stats {
        /// Spec files.
        #[arg(required = true)]
        specs: Vec<PathBuf>,
    },
    /// Write the generated Rust modules and tables to DIR, for projects that
    /// do not use a build script (include `DIR/grammars.rs` as a module).
    Generate {
        /// Output folder.
        #[arg(long)]
        out: PathBuf,
        /// The runtime crate's path in generated code.
        #[arg(long, default_value = "::abnf_runtime")]
        runtime: String,
        /// Spec files.
        #[arg(required = true)]
        specs: Vec<PathBuf>,
    },
    /// Show RULE with its dependencies inlined, and why it is or is not
    /// regular.
    Explain {
        /// The rule (`RULE` or `GRAMMAR:RULE`).
        #[arg(long)]
        rule: String,
        /// Spec files.
        #[arg(required = true)]
        specs: Vec<PathBuf>,
    },
    /// Render RULE as a railroad diagram (SVG on standard output).
    Diagram {
        /// The rule (`RULE` or `GRAMMAR:RULE`).
        #[arg(long)]
        rule: String,
        /// Spec files.
        #[arg(required = true)]
        specs: Vec<PathBuf>,
    },
    /// Write RULE's minimized DFA as Graphviz (byte classes as character
    /// sets).
    Dot {
        /// The rule (`RULE` or `GRAMMAR:RULE`).
        #[arg(long)]
        rule: String,
        /// Spec files.
        #[arg(required = true)]
        specs: Vec<PathBuf>,
    },
    /// Generate strings from RULE: matching ones, or with `--invalid` near
    /// misses (one boundary-crossing mutation) that the reference matcher
    /// rejects. One per line.
    Sample {
        /// The rule (`RULE` or `GRAMMAR:RULE`).
        #[arg(long)]
        rule: String,
        /// How many.
        #[arg(short = 'n', default_value_t = 10)]
        n: usize,
        /// Seed (the same seed gives the same strings).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Near misses instead of matching strings.
        #[arg(long)]
        invalid: bool,
        /// Spec files.
        #[arg(required = true)]
        specs: Vec<PathBuf>,
    },
    /// Print the ABNF rules found in an RFC's text (page breaks joined,
    /// prose and examples skipped), so a maintainer can check them.
    Extract {
        /// The RFC as published (a `.txt` file).
        rfc: PathBuf,
    },
    /// Build RULE's recognizer in memory and match each line of standard
    /// input against it (lines split on `\n` only).
    Match {
        /// The rule (`RULE` or `GRAMMAR:RULE`).
        #[arg(long)]
        rule: String,
        /// Spec files.
        #[arg(required = true)]
        specs: Vec<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(code) => code,
        // The reader went away (`| head`): nothing more to say to it.
        Err(Error::Io { error, .. }) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprint!("{}", render(&e));
            ExitCode::from(2)
        }
    }
}

fn render(e: &Error) -> String {
    match e.diagnostics() {
        Some(d) => d.render(io::stderr().is_terminal()),
        None => format!("{e}\n"),
    }
}

/// The longest shortest match `sample` generates from (a rule whose
/// shortest match is longer is refused rather than printed).
const MAX_SAMPLE_CHARS: u64 = 1 << 20;

/// Writes `text` to standard output; a closed pipe is an error (which
/// `main` ends on quietly), not a panic as with `print!`.
fn emit(text: &str) -> Result<(), Error> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|error| Error::Io {
            path: "<stdout>".into(),
            error,
        })
}

/// Splits `GRAMMAR:RULE`; a bare RULE belongs to the first spec that has it.
fn export_rule(config: &mut Config, specs: &[PathBuf], rule: &str) -> Result<(String, String), Error> {
    if let Some((g, r)) = rule.split_once(':') {
        config.export(g, &[r]);
        return Ok((g.to_string(), r.to_string()));
    }
    let (grammar, _) = config.load()?;
    for spec in specs {
        let stem = spec
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if let Some(m) = grammar.module_by_name(&stem) {
            if grammar.module(m).get(rule).is_some() {
                config.export(&stem, &[rule]);
                return Ok((stem, rule.to_string()));
            }
        }
    }
    Err(Error::Config(format!(
        "no spec file given defines or imports a rule `{rule}`"
    )))
}

/// A configuration reading these spec files.
fn config_for(specs: &[PathBuf]) -> Config {
    let mut config = Config::new();
    for s in specs {
        config.spec(s);
    }
    config
}

/// Loads the specs and finds RULE (`RULE` or `GRAMMAR:RULE`).
fn find_rule(
    specs: &[PathBuf],
    rule: &str,
) -> Result<(abnf_codegen::grammar::Grammar, abnf_codegen::grammar::RuleId), Error> {
    let mut config = config_for(specs);
    let (grammar_name, rule) = export_rule(&mut config, specs, rule)?;
    let (grammar, _) = config.load()?;
    let id = grammar
        .module_by_name(&grammar_name)
        .and_then(|m| grammar.module(m).get(&rule))
        .ok_or_else(|| Error::Config(format!("`{grammar_name}` has no rule `{rule}`")))?;
    Ok((grammar, id))
}

fn run(command: Command) -> Result<ExitCode, Error> {
    match command {
        Command::Check { rules, specs } => {
            let mut config = config_for(&specs);
            for r in &rules {
                export_rule(&mut config, &specs, r)?;
            }
            // The full pipeline: recursion and automaton size are checks too.
            match config.build() {
                Ok(compiled) => {
                    eprint!("{}", compiled.warnings.render(io::stderr().is_terminal()));
                    let rules = compiled.rule_count();
                    let warnings = compiled.warnings.items.len();
                    println!(
                        "ok: {} checked, {rules} rule{} compiled, {warnings} warning{}",
                        plural(specs.len(), "spec file"),
                        if rules == 1 { "" } else { "s" },
                        if warnings == 1 { "" } else { "s" },
                    );
                    Ok(ExitCode::SUCCESS)
                }
                Err(e @ Error::Grammar(_)) => {
                    eprint!("{}", render(&e));
                    Ok(ExitCode::from(1))
                }
                Err(e) => Err(e),
            }
        }
        Command::Stats { specs } => {
            let config = config_for(&specs);
            let compiled = config.build()?;
            let mut out = BufWriter::new(io::stdout().lock());
            let io_err = |error| Error::Io {
                path: "<stdout>".into(),
                error,
            };
            writeln!(
                out,
                "{:<12} {:<18} {:>6} {:>6} {:>7} {:>8} {:>8} {:>8} {:>9}",
                "grammar", "rule", "nfa", "dfa", "classes", "table", "sparse", "extract", "build ms"
            )
            .map_err(io_err)?;
            for s in compiled.stats() {
                writeln!(
                    out,
                    "{:<12} {:<18} {:>6} {:>6} {:>7} {:>8} {:>8} {:>8} {:>9.1}",
                    s.grammar,
                    s.rule,
                    s.nfa_states,
                    s.dfa_states,
                    s.classes,
                    s.table_bytes,
                    s.sparse_bytes,
                    s.extract_bytes,
                    s.build_time.as_secs_f64() * 1e3
                )
                .map_err(io_err)?;
            }
            out.flush().map_err(io_err)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Generate { out, runtime, specs } => {
            let mut config = config_for(&specs);
            let generated = config
                .runtime_crate(runtime)
                .include_style(abnf_codegen::emit::IncludeStyle::Relative)
                .generate()?;
            abnf_codegen::write_if_changed(&out, &generated.files)?;
            eprint!("{}", generated.warnings.render(io::stderr().is_terminal()));
            eprintln!("wrote {} files to {}", generated.files.len(), out.display());
            Ok(ExitCode::SUCCESS)
        }
        Command::Explain { rule, specs } => {
            let (grammar, id) = find_rule(&specs, &rule)?;
            let r = grammar.rule(id);
            let mut direct = Vec::new();
            r.expr.for_each_ref(&mut |d, _| direct.push(d));
            let reach = abnf_codegen::grammar::reachable(&grammar, &direct);
            let recursive = reach[id.0 as usize];
            let deps: Vec<&str> = grammar
                .rules
                .iter()
                .enumerate()
                .filter(|(i, _)| reach[*i] && *i != id.0 as usize)
                .map(|(_, r)| r.name.as_str())
                .collect();
            use std::fmt::Write as _;
            let mut text = String::new();
            let _ = writeln!(text, "{}\n", grammar.rule_text(id));
            let _ = writeln!(
                text,
                "depends on: {}",
                if deps.is_empty() {
                    "nothing".into()
                } else {
                    deps.join(", ")
                }
            );
            let _ = writeln!(
                text,
                "\ninlined:\n  {} = {}",
                r.name,
                abnf_codegen::tools::inline(&grammar, id, 1500)
            );
            let mut lowerer = abnf_codegen::regular::Lowerer::new(&grammar);
            match lowerer.lower(id) {
                Ok(_) if recursive => writeln!(
                    text,
                    "\nregular: yes; the rule is recursive, but only at one end of its alternatives \
                     (right- or left-linear), which Arden's lemma turns into repetition"
                ),
                Ok(_) => writeln!(text, "\nregular: yes; no rule it uses refers back to it"),
                Err(d) => {
                    let _ = writeln!(text, "\nregular: no");
                    let diags = abnf_codegen::Diagnostics {
                        sources: grammar.sources.clone(),
                        items: vec![d],
                    };
                    text.push_str(&diags.render(io::stdout().is_terminal()));
                    Ok(())
                }
            }
            .ok();
            emit(&text)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Diagram { rule, specs } => {
            let (grammar, id) = find_rule(&specs, &rule)?;
            emit(&(abnf_codegen::tools::diagram_svg(&grammar, id) + "\n"))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Dot { rule, specs } => {
            let mut config = config_for(&specs);
            let (grammar_name, rule) = export_rule(&mut config, &specs, &rule)?;
            config.typed_ast(false);
            let compiled = config.build()?;
            let r = compiled
                .recognizer(&grammar_name, &rule)
                .ok_or_else(|| Error::Config(format!("`{grammar_name}` has no rule `{rule}`")))?;
            emit(&abnf_codegen::tools::dfa_dot(r.rule, &r.automaton.compact()))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Sample {
            rule,
            n,
            seed,
            invalid,
            specs,
        } => {
            let mut config = config_for(&specs);
            let (grammar_name, rule) = export_rule(&mut config, &specs, &rule)?;
            // The checks of `check` first: a rule that is not regular, or
            // whose automaton is too large, is refused with the same
            // diagnostic (the sampler would recurse or grow without end).
            config.typed_ast(false);
            let compiled = match config.build() {
                Ok(c) => c,
                Err(e @ Error::Grammar(_)) => {
                    eprint!("{}", render(&e));
                    return Ok(ExitCode::from(1));
                }
                Err(e) => return Err(e),
            };
            let recognizer = compiled
                .recognizer(&grammar_name, &rule)
                .ok_or_else(|| Error::Config(format!("`{grammar_name}` has no rule `{rule}`")))?;
            let grammar = &compiled.grammar;
            let id = grammar
                .module_by_name(&grammar_name)
                .and_then(|m| grammar.module(m).get(&rule))
                .ok_or_else(|| Error::Config(format!("`{grammar_name}` has no rule `{rule}`")))?;
            let mut sampler = abnf_codegen::sample::Sampler::new(grammar, seed);
            match sampler.shortest(id) {
                None => {
                    return Err(Error::Config(format!("rule `{rule}` matches no string")));
                }
                Some(len) if len > MAX_SAMPLE_CHARS => {
                    return Err(Error::Config(format!(
                        "the shortest string rule `{rule}` matches has {len} characters; `sample` prints \
                         strings of at most {MAX_SAMPLE_CHARS}"
                    )));
                }
                Some(_) => {}
            }
            let mut out = BufWriter::new(io::stdout().lock());
            let io_err = |error| Error::Io {
                path: "<stdout>".into(),
                error,
            };
            for _ in 0..n {
                let s = if invalid {
                    match sampler.invalid_by(id, |s| recognizer.is_match(s.as_bytes()), 1000) {
                        Some(s) => s,
                        None => {
                            return Err(Error::Config(format!(
                                "no near miss of `{rule}` found that is invalid (the rule may accept almost anything)"
                            )))
                        }
                    }
                } else {
                    sampler.sample(id)
                };
                writeln!(out, "{s}").map_err(io_err)?;
            }
            out.flush().map_err(io_err)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Extract { rfc } => {
            // Through the spec size cap: `extract /dev/zero` must end.
            let mut bytes = Vec::new();
            std::fs::File::open(&rfc)
                .and_then(|f| f.take(MAX_SPEC_BYTES as u64 + 1).read_to_end(&mut bytes))
                .map_err(|error| Error::Io {
                    path: rfc.clone(),
                    error,
                })?;
            if bytes.len() > MAX_SPEC_BYTES {
                return Err(Error::Config(format!(
                    "{} is larger than {MAX_SPEC_BYTES} bytes, the largest spec read",
                    rfc.display()
                )));
            }
            let text = String::from_utf8_lossy(&bytes);
            let extracted = abnf_codegen::syntax::rfc_text::extract(&text);
            if extracted.rules == 0 {
                return Err(Error::Config(format!("no ABNF rules found in {}", rfc.display())));
            }
            emit(&extracted.abnf)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Match { rule, specs } => {
            let mut config = config_for(&specs);
            let (grammar, rule) = export_rule(&mut config, &specs, &rule)?;
            let compiled = config.build()?;
            let recognizer = compiled
                .recognizer(&grammar, &rule)
                .ok_or_else(|| Error::Config(format!("`{grammar}` has no rule `{rule}`")))?;
            let mut input = Vec::new();
            io::stdin().read_to_end(&mut input).map_err(|error| Error::Io {
                path: "<stdin>".into(),
                error,
            })?;
            let mut out = BufWriter::new(io::stdout().lock());
            let all_valid =
                write_results(&mut out, &input, |line| recognizer.full_match(line)).map_err(|error| {
                    Error::Io {
                        path: "<stdout>".into(),
                        error,
                    }
                })?;
            // As `iri check`: 1 when an input is invalid.
            Ok(if all_valid {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
    }
}

/// `n thing` or `n things`.
fn plural(n: usize, thing: &str) -> String {
    format!("{n} {thing}{}", if n == 1 { "" } else { "s" })
}

/// One line per input: `valid\tINPUT` or `invalid\tINPUT\tOFFSET`;
/// whether every input was valid.
fn write_results(
    out: &mut impl Write,
    input: &[u8],
    matcher: impl Fn(&[u8]) -> Result<(), usize>,
) -> io::Result<bool> {
    let body = input.strip_suffix(b"\n").unwrap_or(input);
    if input.is_empty() {
        out.flush()?;
        return Ok(true);
    }
    let mut all_valid = true;
    for line in body.split(|&b| b == b'\n') {
        match matcher(line) {
            Ok(()) => {
                out.write_all(b"valid\t")?;
                out.write_all(line)?;
            }
            Err(offset) => {
                all_valid = false;
                out.write_all(b"invalid\t")?;
                out.write_all(line)?;
                write!(out, "\t{offset}")?;
            }
        }
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(all_valid)
}
