//! The `abnf-codegen` command: a thin shell over the library.

use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use abnf_codegen::limits::MAX_SPEC_BYTES;
use abnf_codegen::{Config, Error};
use clap::Parser;

mod cli;
use cli::{Cli, Command, FramingArgs, LimitArgs};

impl FramingArgs {
    fn framing(self) -> abnf_codegen::records::Framing {
        use abnf_codegen::records::Framing;
        match (self.null, self.json) {
            (true, _) => Framing::Nul,
            (_, true) => Framing::Json,
            _ => Framing::Lines,
        }
    }
}

impl LimitArgs {
    fn apply(self, config: &mut Config) {
        let mut l = abnf_codegen::limits::Limits::default();
        l.nfa_bytes = self.nfa_bytes.unwrap_or(l.nfa_bytes);
        l.dfa_bytes = self.dfa_bytes.unwrap_or(l.dfa_bytes);
        l.determinize_bytes = self.determinize_bytes.unwrap_or(l.determinize_bytes);
        l.tagged_states = self.tagged_states.unwrap_or(l.tagged_states);
        config.limits(l);
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command, &cli.import_dirs) {
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

/// A configuration reading these spec files, whose imports may also read
/// under `import_dirs` (`--import-dir`).
fn config_for(specs: &[PathBuf], import_dirs: &[PathBuf]) -> Config {
    let mut config = Config::new();
    for s in specs {
        config.spec(s);
    }
    for d in import_dirs {
        config.import_dir(d);
    }
    config
}

/// Loads the specs and finds RULE (`RULE` or `GRAMMAR:RULE`).
fn find_rule(
    specs: &[PathBuf],
    import_dirs: &[PathBuf],
    rule: &str,
) -> Result<(abnf_codegen::grammar::Grammar, abnf_codegen::grammar::RuleId), Error> {
    let mut config = config_for(specs, import_dirs);
    let (grammar_name, rule) = export_rule(&mut config, specs, rule)?;
    let (grammar, _) = config.load()?;
    let id = grammar
        .module_by_name(&grammar_name)
        .and_then(|m| grammar.module(m).get(&rule))
        .ok_or_else(|| Error::Config(format!("`{grammar_name}` has no rule `{rule}`")))?;
    Ok((grammar, id))
}

fn run(command: Command, import_dirs: &[PathBuf]) -> Result<ExitCode, Error> {
    match command {
        Command::Check {
            rules,
            deny_warnings,
            limits,
            specs,
        } => {
            let mut config = config_for(&specs, import_dirs);
            limits.apply(&mut config);
            for r in &rules {
                export_rule(&mut config, &specs, r)?;
            }
            // The user asked about these rules: the others being unused is
            // no news.
            config.unused_warnings(rules.is_empty());
            // The recognizers' pipeline: recursion and automaton size are
            // checks too. Typed trees are for `generate`.
            config.typed_ast(false);
            match config.build() {
                Ok(compiled) => {
                    eprint!("{}", compiled.warnings.render(io::stderr().is_terminal()));
                    let left_out = compiled.left_out();
                    if !left_out.is_empty() {
                        eprintln!(
                            "left out ({} of {} rules): {}",
                            left_out.len(),
                            left_out.len() + compiled.rule_count(),
                            left_out
                                .iter()
                                .map(|l| l.rule.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        );
                    }
                    let stack = compiled.network_rule_count();
                    let rules = compiled.rule_count() + stack;
                    let warnings = compiled.warnings.items.len();
                    println!(
                        "ok: {} checked, {rules} rule{} compiled{}, {warnings} warning{}",
                        plural(specs.len(), "spec file"),
                        if rules == 1 { "" } else { "s" },
                        if stack == 0 {
                            String::new()
                        } else {
                            format!(" ({stack} with a stack)")
                        },
                        if warnings == 1 { "" } else { "s" },
                    );
                    if deny_warnings && !compiled.warnings.items.is_empty() {
                        return Ok(ExitCode::from(1));
                    }
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
            let config = config_for(&specs, import_dirs);
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
            let mut config = config_for(&specs, import_dirs);
            let generated = config
                .runtime_crate(runtime)
                .include_style(abnf_codegen::emit::IncludeStyle::Relative)
                .generate()?;
            abnf_codegen::write_if_changed(&out, &generated.files)?;
            eprint!("{}", generated.warnings.render(io::stderr().is_terminal()));
            eprintln!("wrote {} files to {}", generated.files.len(), out.display());
            Ok(ExitCode::SUCCESS)
        }
        Command::Explain {
            rule,
            types: true,
            specs,
        } => {
            let (grammar, id) = find_rule(&specs, import_dirs, &rule)?;
            let module = grammar.module(grammar.rules[id.0 as usize].module).name.clone();
            let name = grammar.rule(id).name.clone();
            let compiled = match config_for(&specs, import_dirs).build() {
                Ok(c) => c,
                Err(e @ Error::Grammar(_)) => {
                    eprint!("{}", render(&e));
                    return Ok(ExitCode::from(1));
                }
                Err(e) => return Err(e),
            };
            let m = compiled.grammar.module_by_name(&module);
            let octets = m.is_some_and(|m| compiled.grammar.octets.contains(&m));
            match abnf_codegen::tools::types_outline(&compiled, &module, &name) {
                Some(text) => emit(&format!(
                    "// `{module}::ast` (`List`, `Nested` and `Span` are abnf_runtime's; every type also has\n\
                     // `parse(input: &'a {}) -> Result<Self, MatchError>`)\n{text}",
                    if octets { "[u8]" } else { "str" }
                ))?,
                None => emit(&format!(
                    "`{name}` has no type: where a field holds it, the field is its text ({})\n",
                    if octets { "&[u8]" } else { "&str" }
                ))?,
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Explain { rule, specs, .. } => {
            let (grammar, id) = find_rule(&specs, import_dirs, &rule)?;
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
                    match abnf_codegen::network::build(&grammar, &mut lowerer, &[id], Default::default()) {
                        Ok(net) => {
                            let called: Vec<&str> = net.rules.iter().map(|&r| grammar.rule(r).name.as_str()).collect();
                            let _ = writeln!(
                                text,
                                "\nengine: a network of {} rule automata ({}; {} states, {} byte classes)",
                                net.rules.len(),
                                called.join(", "),
                                net.states(),
                                net.alphabet
                            );
                            match &net.determinism {
                                abnf_codegen::network::Determinism::Deterministic(_) => writeln!(
                                    text,
                                    "walk: deterministic: the next byte decides every call and return (one table \
                                     step per byte, an explicit stack)"
                                ),
                                abnf_codegen::network::Determinism::General(why) => writeln!(
                                    text,
                                    "walk: general (an Earley recognizer over the rule automata): {why}"
                                ),
                            }
                        }
                        Err(d) => writeln!(text, "\nengine: none: {}", d.message),
                    }
                }
            }
            .ok();
            emit(&text)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Diagram { rule, specs } => {
            let (grammar, id) = find_rule(&specs, import_dirs, &rule)?;
            emit(&(abnf_codegen::tools::diagram_svg(&grammar, id) + "\n"))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Dot { rule, specs } => {
            let mut config = config_for(&specs, import_dirs);
            let (grammar_name, rule) = export_rule(&mut config, &specs, &rule)?;
            config.typed_ast(false);
            let compiled = config.build()?;
            let r = compiled
                .recognizer(&grammar_name, &rule)
                .ok_or_else(|| Error::Config(format!("`{grammar_name}` has no rule `{rule}`")))?;
            let automaton = r.automaton().ok_or_else(|| {
                Error::Config(format!(
                    "`{rule}` needs a stack: it is compiled as a network of rule automata, not one DFA"
                ))
            })?;
            emit(&abnf_codegen::tools::dfa_dot(r.rule, &automaton.compact()))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Sample {
            rule,
            n,
            seed,
            invalid,
            framing,
            specs,
        } => {
            let mut config = config_for(&specs, import_dirs);
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
            let octets = grammar.octets.contains(&grammar.rule(id).module);
            for _ in 0..n {
                if invalid && octets {
                    // Terminals are bytes: misses are bytes too.
                    let Some(bytes) = sampler.invalid_bytes(id, |s| recognizer.is_match(s), 1000) else {
                        return Err(Error::Config(format!(
                            "no near miss of `{rule}` found that is invalid"
                        )));
                    };
                    write_record(&mut out, &bytes, framing.framing()).map_err(io_err)?;
                    continue;
                }
                let s = if invalid {
                    match sampler.invalid_by(id, |s| recognizer.is_match(s.as_bytes()), 1000) {
                        Some(s) => s,
                        None => {
                            return Err(Error::Config(format!(
                                "no near miss of `{rule}` found that is invalid (the rule may accept almost anything)"
                            )))
                        }
                    }
                } else if octets {
                    // Terminals are bytes: the string's characters are
                    // U+0000-U+00FF, one per byte.
                    let bytes = sampler.sample_bytes(id);
                    write_record(&mut out, &bytes, framing.framing()).map_err(io_err)?;
                    continue;
                } else {
                    sampler.sample(id)
                };
                write_record(&mut out, s.as_bytes(), framing.framing()).map_err(io_err)?;
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
        Command::Match {
            rule,
            limits,
            framing,
            specs,
        } => {
            let mut config = config_for(&specs, import_dirs);
            limits.apply(&mut config);
            config.typed_ast(false);
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
            let records = abnf_codegen::records::split(&input, framing.framing())
                .map_err(|b| Error::Config(format!("<stdin>:{}: {}", b.line, b.message)))?;
            let all_valid = write_results(&mut out, &records, framing.framing(), |line| {
                recognizer.full_match(line)
            })
            .map_err(|error| Error::Io {
                path: "<stdout>".into(),
                error,
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

/// One sampled string, framed as asked.
fn write_record(
    out: &mut impl Write,
    bytes: &[u8],
    framing: abnf_codegen::records::Framing,
) -> io::Result<()> {
    use abnf_codegen::records::{json_string, Framing};
    match framing {
        Framing::Lines => {
            out.write_all(bytes)?;
            out.write_all(b"\n")
        }
        Framing::Nul => {
            out.write_all(bytes)?;
            out.write_all(b"\0")
        }
        Framing::Json => writeln!(out, "{}", json_string(bytes)),
    }
}

/// `n thing` or `n things`.
fn plural(n: usize, thing: &str) -> String {
    format!("{n} {thing}{}", if n == 1 { "" } else { "s" })
}

/// One result per input: `valid\tINPUT` or `invalid\tINPUT\tOFFSET`, each
/// ended by a line feed (by a NUL with `-0`); with `--json`, one object per
/// line: `{"input":"...","valid":false,"offset":3}`. Whether every input
/// was valid.
fn write_results(
    out: &mut impl Write,
    records: &[Vec<u8>],
    framing: abnf_codegen::records::Framing,
    matcher: impl Fn(&[u8]) -> Result<(), usize>,
) -> io::Result<bool> {
    use abnf_codegen::records::{json_string, Framing};
    let mut all_valid = true;
    for record in records {
        let result = matcher(record);
        all_valid &= result.is_ok();
        if framing == Framing::Json {
            match result {
                Ok(()) => writeln!(out, "{{\"input\":{},\"valid\":true}}", json_string(record))?,
                Err(offset) => writeln!(
                    out,
                    "{{\"input\":{},\"valid\":false,\"offset\":{offset}}}",
                    json_string(record)
                )?,
            }
            continue;
        }
        match result {
            Ok(()) => {
                out.write_all(b"valid\t")?;
                out.write_all(record)?;
            }
            Err(offset) => {
                out.write_all(b"invalid\t")?;
                out.write_all(record)?;
                write!(out, "\t{offset}")?;
            }
        }
        out.write_all(if framing == Framing::Nul { b"\0" } else { b"\n" })?;
    }
    out.flush()?;
    Ok(all_valid)
}
