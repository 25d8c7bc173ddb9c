//! The `abnf-codegen` command: a thin shell over the library.

use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

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
            println!("{}\n", grammar.rule_text(id));
            println!(
                "depends on: {}",
                if deps.is_empty() {
                    "nothing".into()
                } else {
                    deps.join(", ")
                }
            );
            println!(
                "\ninlined:\n  {} = {}",
                r.name,
                abnf_codegen::tools::inline(&grammar, id, 1500)
            );
            let mut lowerer = abnf_codegen::regular::Lowerer::new(&grammar);
            match lowerer.lower(id) {
                Ok(_) if recursive => println!(
                    "\nregular: yes; the rule is recursive, but only at one end of its alternatives \
                     (right- or left-linear), which Arden's lemma turns into repetition"
                ),
                Ok(_) => println!("\nregular: yes; no rule it uses refers back to it"),
                Err(d) => {
                    println!("\nregular: no");
                    let diags = abnf_codegen::Diagnostics {
                        sources: grammar.sources.clone(),
                        items: vec![d],
                    };
                    print!("{}", diags.render(io::stdout().is_terminal()));
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Diagram { rule, specs } => {
            let (grammar, id) = find_rule(&specs, &rule)?;
            println!("{}", abnf_codegen::tools::diagram_svg(&grammar, id));
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
            print!("{}", abnf_codegen::tools::dfa_dot(r.rule, &r.automaton.compact()));
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
            let (grammar, _) = config.load()?;
            let id = grammar
                .module_by_name(&grammar_name)
                .and_then(|m| grammar.module(m).get(&rule))
                .ok_or_else(|| Error::Config(format!("`{grammar_name}` has no rule `{rule}`")))?;
            let mut sampler = abnf_codegen::sample::Sampler::new(&grammar, seed);
            let oracle = abnf_codegen::oracle::Oracle::new(&grammar);
            let mut out = BufWriter::new(io::stdout().lock());
            let io_err = |error| Error::Io {
                path: "<stdout>".into(),
                error,
            };
            for _ in 0..n {
                let s = if invalid {
                    match sampler.invalid(id, &oracle, 1000) {
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
            let bytes = std::fs::read(&rfc).map_err(|error| Error::Io {
                path: rfc.clone(),
                error,
            })?;
            let text = String::from_utf8_lossy(&bytes);
            let extracted = abnf_codegen::syntax::rfc_text::extract(&text);
            if extracted.rules == 0 {
                return Err(Error::Config(format!("no ABNF rules found in {}", rfc.display())));
            }
            print!("{}", extracted.abnf);
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
            write_results(&mut out, &input, |line| recognizer.full_match(line)).map_err(|error| {
                Error::Io {
                    path: "<stdout>".into(),
                    error,
                }
            })?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// One line per input: `valid\tINPUT` or `invalid\tINPUT\tOFFSET`.
fn write_results(
    out: &mut impl Write,
    input: &[u8],
    matcher: impl Fn(&[u8]) -> Result<(), usize>,
) -> io::Result<()> {
    let body = input.strip_suffix(b"\n").unwrap_or(input);
    if input.is_empty() {
        return out.flush();
    }
    for line in body.split(|&b| b == b'\n') {
        match matcher(line) {
            Ok(()) => {
                out.write_all(b"valid\t")?;
                out.write_all(line)?;
            }
            Err(offset) => {
                out.write_all(b"invalid\t")?;
                out.write_all(line)?;
                write!(out, "\t{offset}")?;
            }
        }
        out.write_all(b"\n")?;
    }
    out.flush()
}
