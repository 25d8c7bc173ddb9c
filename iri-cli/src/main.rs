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
    /// Parse one input and print its components as a JSON object with the
    /// keys scheme, userinfo, host, host_kind, port, path, query, fragment
    /// (null when absent). Exits 1 if the input is invalid.
    Parse {
        /// `rfc3987:IRI-reference` (default), `rfc3987:IRI`,
        /// `rfc3986:URI-reference` or `rfc3986:URI`.
        #[arg(long, default_value = "rfc3987:IRI-reference")]
        rule: String,
        /// The input.
        input: String,
    },
    /// Resolve an IRI reference against a base IRI (RFC 3986 §5.2, strict;
    /// RFC 3987 §6.5) and print the target IRI. Exits 1 if BASE is not an
    /// IRI or REF not an IRI reference.
    Resolve {
        /// The base IRI (with a scheme; a fragment is ignored).
        base: OsString,
        /// The reference to resolve.
        reference: OsString,
    },
    /// Map an IRI reference to a URI reference (RFC 3987 §3.1:
    /// percent-encode every ucschar and iprivate as UTF-8) and print it.
    ToUri {
        /// The IRI reference.
        iri: OsString,
    },
    /// Convert a URI reference to an IRI reference (RFC 3987 §3.2: decode
    /// the percent-encoded UTF-8 of characters an IRI may hold) and print it.
    ToIri {
        /// The URI reference.
        uri: OsString,
    },
    /// Syntax-based normalization of an IRI reference (RFC 3987 §5.3.2:
    /// case, percent-encodings with iunreserved decoded, dot segments) and
    /// print it.
    Normalize {
        /// The IRI reference.
        iri: OsString,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check { rule, inputs } => check(&rule, inputs),
        Command::Parse { rule, input } => parse(&rule, &input),
        Command::Resolve { base, reference } => operation(|| {
            let base = iri_grammar::Iri::parse(utf8("BASE", &base)?).map_err(|e| format!("BASE: {e}"))?;
            let reference =
                iri_grammar::IriRef::parse(utf8("REF", &reference)?).map_err(|e| format!("REF: {e}"))?;
            Ok(base.resolve(reference).into_string())
        }),
        Command::ToUri { iri } => operation(|| {
            let r = iri_grammar::IriRef::parse(utf8("IRI", &iri)?).map_err(|e| e.to_string())?;
            Ok(r.to_uri().into_string())
        }),
        Command::ToIri { uri } => operation(|| {
            let r = iri_grammar::UriRef::parse(utf8("URI", &uri)?).map_err(|e| e.to_string())?;
            Ok(r.to_iri().into_string())
        }),
        Command::Normalize { iri } => operation(|| {
            let r = iri_grammar::IriRef::parse(utf8("IRI", &iri)?).map_err(|e| e.to_string())?;
            Ok(r.normalize().into_string())
        }),
    }
}

/// An argument as UTF-8 text.
fn utf8<'a>(name: &str, arg: &'a OsString) -> Result<&'a str, String> {
    arg.to_str().ok_or_else(|| format!("{name} is not valid UTF-8"))
}

/// Runs one of the operations: prints its result alone on a line and exits
/// 0, or prints the error to standard error and exits 1.
fn operation(f: impl FnOnce() -> Result<String, String>) -> ExitCode {
    match f() {
        Ok(out) => {
            let mut stdout = io::stdout().lock();
            match writeln!(stdout, "{out}").and_then(|_| stdout.flush()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("iri: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Err(e) => {
            eprintln!("iri: {e}");
            ExitCode::from(1)
        }
    }
}

/// The components of any of the four validated types, as JSON.
macro_rules! components_json {
    ($v:expr) => {{
        let v = $v;
        let host = v.host();
        json_object(&[
            ("scheme", v.scheme()),
            ("userinfo", v.userinfo()),
            ("host", v.host_str()),
            ("host_kind", host.map(|h| h.kind())),
            ("port", v.port().map(|p| p.as_str())),
            ("path", Some(v.path())),
            ("query", v.query()),
            ("fragment", v.fragment()),
        ])
    }};
}

fn json_object(fields: &[(&str, Option<&str>)]) -> String {
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| {
            let value = v.map_or_else(|| "null".to_string(), |s| serde_json::Value::from(s).to_string());
            format!("{}:{value}", serde_json::Value::from(*k))
        })
        .collect();
    format!("{{{}}}", body.join(","))
}

fn parse(rule: &str, input: &str) -> ExitCode {
    use iri_grammar::{Iri, IriRef, Uri, UriRef};
    let result = match rule {
        "rfc3987:IRI-reference" => IriRef::parse(input).map(|v| components_json!(v)),
        "rfc3987:IRI" => Iri::parse(input).map(|v| components_json!(v)),
        "rfc3986:URI-reference" => UriRef::parse(input).map(|v| components_json!(v)),
        "rfc3986:URI" => Uri::parse(input).map(|v| components_json!(v)),
        _ => {
            eprintln!(
                "iri: parse supports rfc3987:IRI-reference, rfc3987:IRI, rfc3986:URI-reference and rfc3986:URI; got `{rule}`"
            );
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(json) => {
            println!("{json}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("iri: {e}");
            ExitCode::from(1)
        }
    }
}

fn recognizer(rule: &str) -> Result<&'static Recognizer, String> {
    let Some((grammar, name)) = rule.split_once(':') else {
        return Err(format!(
            "--rule takes GRAMMAR:RULE, for example rfc3986:URI; got `{rule}`"
        ));
    };
    if iri_grammar::grammar_by_name(grammar).is_none() {
        let known: Vec<_> = iri_grammar::GRAMMARS.iter().map(|g| g.name()).collect();
        return Err(format!(
            "unknown grammar `{grammar}`; known: {}",
            known.join(", ")
        ));
    }
    iri_grammar::lookup(grammar, name)
        .ok_or_else(|| format!("grammar `{grammar}` has no exported rule `{name}`"))
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
