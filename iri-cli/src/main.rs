//! `iri`: check IRIs and URIs against the generated RFC recognizers.

use std::ffi::OsString;
use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use iri_grammar::Recognizer;

/// IRIs and URIs, checked by DFAs generated from the RFC grammars.
#[derive(Parser)]
#[command(name = "iri", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check inputs against a grammar rule. Prints `valid<TAB>INPUT` or
    /// `invalid<TAB>INPUT<TAB>OFFSET` per input; exits 1 if any is invalid.
    Check {
        /// The rule, as `GRAMMAR:RULE` (for example `rfc3986:URI`).
        #[arg(long, default_value = "rfc3987:IRI-reference")]
        rule: String,
        /// Inputs; without any, standard input is read one input per line
        /// (split on `\n` only). `--` ends the options.
        inputs: Vec<OsString>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check { rule, inputs } => check(&rule, inputs),
    }
}

fn recognizer(rule: &str) -> Result<&'static Recognizer, String> {
    let Some((grammar, name)) = rule.split_once(':') else {
        return Err(format!("--rule takes GRAMMAR:RULE, for example rfc3986:URI; got `{rule}`"));
    };
    if iri_grammar::grammar_by_name(grammar).is_none() {
        let known: Vec<_> = iri_grammar::GRAMMARS.iter().map(|g| g.name()).collect();
        return Err(format!("unknown grammar `{grammar}`; known: {}", known.join(", ")));
    }
    iri_grammar::lookup(grammar, name).ok_or_else(|| format!("grammar `{grammar}` has no exported rule `{name}`"))
}

fn check(rule: &str, inputs: Vec<OsString>) -> ExitCode {
    let recognizer = match recognizer(rule) {
        Ok(r) => r,
        Err(msg) => {
            eprintln!("iri: {msg}");
            return ExitCode::from(2);
        }
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let mut all_valid = true;
    let mut report = |input: &[u8]| -> io::Result<()> {
        match recognizer.validate_bytes(input) {
            Ok(()) => {
                out.write_all(b"valid\t")?;
                out.write_all(input)?;
            }
            Err(e) => {
                all_valid = false;
                out.write_all(b"invalid\t")?;
                out.write_all(input)?;
                write!(out, "\t{}", e.offset())?;
            }
        }
        out.write_all(b"\n")
    };
    let result = if inputs.is_empty() {
        let mut stdin = io::stdin().lock();
        let mut line = Vec::new();
        loop {
            line.clear();
            match stdin.read_until(b'\n', &mut line) {
                Ok(0) => break Ok(()),
                Ok(_) => {
                    let input = line.strip_suffix(b"\n").unwrap_or(&line);
                    if let Err(e) = report(input) {
                        break Err(e);
                    }
                }
                Err(e) => break Err(e),
            }
        }
    } else {
        inputs.iter().try_for_each(|i| report(i.as_encoded_bytes()))
    };
    if let Err(e) = result.and_then(|_| out.flush()) {
        eprintln!("iri: {e}");
        return ExitCode::from(2);
    }
    if all_valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
