//! `iri`: check, parse, convert, normalize, compare, resolve, relativize
//! and lint IRIs and URIs with the generated RFC recognizers.
//!
//! Every command takes its inputs as arguments or, when given none, reads
//! them from standard input, one per line (split on `\n` only), and writes
//! one result per input; `--json` writes one JSON object per input
//! instead. `cli.rs` has the arguments and the exit codes (`exit_codes!`).

use std::ffi::OsString;
use std::fmt;
use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

use clap::Parser;
use iri_grammar::ops::{self, Normalizer};
use iri_grammar::{rfc3987, ByteSet, Iri, IriRef, ParseError, ParseErrorKind, Recognizer, UriRef};
use serde_json::{json, Value};

mod cli;
use cli::{Cli, Command, CompareRung, NormalizeRung};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check {
            rule,
            scheme,
            json,
            inputs,
        } => check(rule.as_deref(), scheme, json, &inputs),
        Command::Parse {
            rule,
            json: _,
            inputs,
        } => parse(&rule, &inputs),
        Command::Resolve {
            json,
            base,
            references,
        } => with_base(&base, json, &references, "REF", |base, r| {
            let r = IriRef::parse(r).map_err(|e| format!("REF: {e}"))?;
            Ok(base.resolve(r).into_string())
        }),
        Command::Relativize { json, base, targets } => {
            with_base(&base, json, &targets, "TARGET", |base, t| {
                let t = Iri::parse(t).map_err(|e| format!("TARGET: {e}"))?;
                Ok(t.relative_to(base).into_string())
            })
        }
        Command::ToUri { idna, json, inputs } => map(&inputs, json, "IRI", |s| {
            let r = IriRef::parse(s).map_err(|e| e.to_string())?;
            if idna {
                ops::iri_to_uri_idna(r)
                    .map(|u| u.into_string())
                    .map_err(|e| e.to_string())
            } else {
                Ok(r.to_uri().into_string())
            }
        }),
        Command::ToIri {
            literal,
            unicode_labels,
            json,
            inputs,
        } => map(&inputs, json, "URI", |s| {
            let u = UriRef::parse(s).map_err(|e| e.to_string())?;
            let iri = if literal { u.to_iri() } else { u.to_display_iri() };
            Ok(if unicode_labels {
                ops::idna_labels_to_unicode(iri.as_ref()).into_string()
            } else {
                iri.into_string()
            })
        }),
        Command::Normalize {
            rung,
            nfc,
            uri,
            json,
            inputs,
        } => {
            let n = match rung {
                NormalizeRung::Syntax => Normalizer::syntax_based(),
                NormalizeRung::Scheme => Normalizer::scheme_based(),
            }
            .nfc(nfc);
            map(&inputs, json, "IRI", |s| {
                let r = IriRef::parse(s).map_err(|e| e.to_string())?;
                let iri = n.normalize(r);
                Ok(if uri {
                    n.normalize_uri(iri.as_ref().to_uri().as_ref()).into_string()
                } else {
                    iri.into_string()
                })
            })
        }
        Command::Compare {
            rung,
            nfc,
            json,
            pair,
        } => compare(rung, nfc, json, &pair),
        Command::Lint { json, inputs } => lint(json, &inputs),
    };
    match result {
        Ok(code) => code,
        // `iri ... | head`: the reader is gone; stop quietly, as other
        // line-oriented tools do.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("iri: {e}");
            ExitCode::from(2)
        }
    }
}

/// Where an input came from, for messages on standard error.
#[derive(Clone, Copy)]
enum Where {
    /// The only argument.
    Only,
    /// Argument `n` (1-based) of several.
    Arg(usize),
    /// Line `n` (1-based) of standard input.
    Line(usize),
}

impl fmt::Display for Where {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Where::Only => Ok(()),
            Where::Arg(n) => write!(f, "argument {n}: "),
            Where::Line(n) => write!(f, "line {n}: "),
        }
    }
}

/// Calls `f` on each input: the arguments, or without any the lines of
/// standard input (locked once, read into one reused buffer, split on `\n`
/// only; a last line without `\n` counts).
fn each_input(inputs: &[OsString], mut f: impl FnMut(Where, &[u8]) -> io::Result<()>) -> io::Result<()> {
    if !inputs.is_empty() {
        let one = inputs.len() == 1;
        for (i, input) in inputs.iter().enumerate() {
            let at = if one { Where::Only } else { Where::Arg(i + 1) };
            f(at, input.as_encoded_bytes())?;
        }
        return Ok(());
    }
    let mut stdin = io::stdin().lock();
    let mut line = Vec::with_capacity(256);
    let mut n = 0;
    loop {
        line.clear();
        if stdin.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        n += 1;
        let input = line.strip_suffix(b"\n").unwrap_or(&line);
        f(Where::Line(n), input)?;
    }
}

/// Buffered standard output (locked once), and whether any input failed
/// (exit code 1) or could not be read (exit code 2).
struct Out {
    w: BufWriter<io::StdoutLock<'static>>,
    failed: bool,
    error: bool,
}

impl Out {
    fn new() -> Out {
        Out {
            w: BufWriter::with_capacity(64 * 1024, io::stdout().lock()),
            failed: false,
            error: false,
        }
    }

    /// Writes one JSON object, its keys in the order given, and a newline.
    fn json(&mut self, fields: &[(&str, Value)]) -> io::Result<()> {
        self.w.write_all(b"{")?;
        for (i, (k, v)) in fields.iter().enumerate() {
            if i > 0 {
                self.w.write_all(b",")?;
            }
            serde_json::to_writer(&mut self.w, k)?;
            self.w.write_all(b":")?;
            serde_json::to_writer(&mut self.w, v)?;
        }
        self.w.write_all(b"}\n")
    }

    /// Flushes and gives the exit code: 2 if any input could not be read,
    /// else 1 if any failed.
    fn finish(mut self) -> io::Result<ExitCode> {
        self.w.flush()?;
        Ok(if self.error {
            ExitCode::from(2)
        } else if self.failed {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        })
    }
}

/// An input as UTF-8, or the message saying it is not.
fn utf8<'a>(name: &str, input: &'a [u8]) -> Result<&'a str, String> {
    std::str::from_utf8(input).map_err(|e| format!("{name} is not valid UTF-8 (at byte {})", e.valid_up_to()))
}

/// The input as JSON text (lossy if it is not UTF-8).
fn text(input: &[u8]) -> Value {
    Value::from(String::from_utf8_lossy(input))
}

/// Runs a conversion on each input: prints the result, or reports the
/// error (on standard error, or in the JSON object).
fn map(
    inputs: &[OsString],
    json: bool,
    name: &str,
    f: impl Fn(&str) -> Result<String, String>,
) -> io::Result<ExitCode> {
    let mut out = Out::new();
    each_input(inputs, |at, input| {
        let result = utf8(name, input).and_then(&f);
        match (result, json) {
            (Ok(s), false) => {
                out.w.write_all(s.as_bytes())?;
                out.w.write_all(b"\n")?;
            }
            (Ok(s), true) => out.json(&[("input", json!(text(input))), ("output", json!(s))])?,
            (Err(e), false) => {
                out.failed = true;
                // Keep the order of results and messages when both go to
                // a terminal.
                out.w.flush()?;
                eprintln!("iri: {at}{e}");
            }
            (Err(e), true) => {
                out.failed = true;
                out.json(&[("input", json!(text(input))), ("error", json!(e))])?;
            }
        }
        Ok(())
    })?;
    out.finish()
}

/// [`map`] with a base IRI parsed once.
fn with_base(
    base: &OsString,
    json: bool,
    inputs: &[OsString],
    name: &str,
    f: impl Fn(Iri<'_>, &str) -> Result<String, String>,
) -> io::Result<ExitCode> {
    let base = match utf8("BASE", base.as_encoded_bytes())
        .and_then(|b| Iri::parse(b).map_err(|e| format!("BASE: {e}")))
    {
        Ok(b) => b,
        Err(e) => {
            eprintln!("iri: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    map(inputs, json, name, |s| f(base, s))
}

/// The components of any of the four validated types, as JSON fields in
/// the order they appear in an IRI.
macro_rules! components_json {
    ($v:expr) => {{
        let v = $v;
        let host = v.host();
        let scheme: Option<&str> = v.scheme().into();
        vec![
            ("scheme", json!(scheme)),
            ("userinfo", json!(v.userinfo())),
            ("host", json!(v.host_str())),
            ("host_kind", json!(host.map(|h| h.kind()))),
            ("port", json!(v.port().map(|p| p.as_str()))),
            ("path", json!(v.path())),
            ("query", json!(v.query())),
            ("fragment", json!(v.fragment())),
        ]
    }};
}

fn parse(rule: &str, inputs: &[OsString]) -> io::Result<ExitCode> {
    use iri_grammar::{Uri, UriRef};
    let parse_one = |s: &str| -> Result<Vec<(&str, Value)>, ParseError> {
        Ok(match rule {
            "rfc3987:IRI" => components_json!(Iri::parse(s)?),
            "rfc3986:URI-reference" => components_json!(UriRef::parse(s)?),
            "rfc3986:URI" => components_json!(Uri::parse(s)?),
            _ => components_json!(IriRef::parse(s)?),
        })
    };
    if !matches!(
        rule,
        "rfc3987:IRI-reference" | "rfc3987:IRI" | "rfc3986:URI-reference" | "rfc3986:URI"
    ) {
        eprintln!(
            "iri: parse supports rfc3987:IRI-reference, rfc3987:IRI, rfc3986:URI-reference and rfc3986:URI; got `{rule}`"
        );
        return Ok(ExitCode::from(2));
    }
    let mut out = Out::new();
    each_input(inputs, |at, input| {
        match utf8("the input", input).and_then(|s| parse_one(s).map_err(|e| e.to_string())) {
            Ok(v) => out.json(&v)?,
            Err(e) => {
                out.failed = true;
                out.w.flush()?;
                eprintln!("iri: {at}{e}");
            }
        }
        Ok(())
    })?;
    out.finish()
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

/// What `check` found about one input.
enum Verdict {
    Valid,
    /// With `--scheme`: a valid IRI whose scheme has no grammar.
    UnknownScheme,
    Invalid {
        offset: usize,
        reason: String,
        /// For a syntax error: the bytes that could have continued a
        /// match (`--json` gives them as exact ranges).
        expected: Option<ByteSet>,
    },
}

/// Is `input` an IRI reference per RFC 3987: the grammar, and no bidi
/// formatting characters (§4.1). The same answer as `IriRef::parse`, with
/// the cheaper recognizer and scan on the way (the components are not
/// needed); the error's text is worked out only for invalid inputs.
fn check_iri_reference(input: &[u8]) -> Verdict {
    let s = match std::str::from_utf8(input) {
        Ok(s) => s,
        Err(e) => {
            return Verdict::Invalid {
                offset: e.valid_up_to(),
                reason: "not valid UTF-8".into(),
                expected: None,
            }
        }
    };
    if rfc3987::IRI_REFERENCE.is_match(s) && ops::find_bidi_formatting(s).is_none() {
        return Verdict::Valid;
    }
    match IriRef::parse(s) {
        Ok(_) => Verdict::Valid,
        Err(e) => Verdict::Invalid {
            offset: e.offset(),
            reason: e.to_string(),
            expected: parse_error_expected(&e),
        },
    }
}

/// What a syntax error expected (none for the other kinds of error).
fn parse_error_expected(e: &ParseError) -> Option<ByteSet> {
    if e.kind() != ParseErrorKind::Syntax {
        return None;
    }
    let mut set = ByteSet::EMPTY;
    (0..=255u8).filter(|&b| e.expects(b)).for_each(|b| set.insert(b));
    Some(set)
}

/// `--scheme`: an IRI, then its scheme's grammar.
fn check_scheme(input: &[u8]) -> (Verdict, Option<&'static Recognizer>) {
    let s = match std::str::from_utf8(input) {
        Ok(s) => s,
        Err(e) => {
            let reason = "not valid UTF-8".into();
            return (
                Verdict::Invalid {
                    offset: e.valid_up_to(),
                    reason,
                    expected: None,
                },
                None,
            );
        }
    };
    match iri_grammar::check_scheme(s) {
        Ok(iri_grammar::SchemeCheck::Valid(r)) => (Verdict::Valid, Some(r)),
        Ok(iri_grammar::SchemeCheck::Invalid(r, e)) => {
            let reason = format!(
                "the URI it maps to does not match {}:{} (the grammar of its scheme) at byte {}",
                r.grammar(),
                r.rule(),
                e.offset()
            );
            let offset = e.offset();
            let expected = Some(e.expected());
            (
                Verdict::Invalid {
                    offset,
                    reason,
                    expected,
                },
                Some(r),
            )
        }
        Ok(iri_grammar::SchemeCheck::Unknown) => (Verdict::UnknownScheme, None),
        Err(e) => (
            Verdict::Invalid {
                offset: e.offset(),
                reason: e.to_string(),
                expected: parse_error_expected(&e),
            },
            None,
        ),
    }
}

fn check(rule: Option<&str>, scheme: bool, json: bool, inputs: &[OsString]) -> io::Result<ExitCode> {
    let recognizer = match rule.map(recognizer).transpose() {
        Ok(r) => r,
        Err(msg) => {
            eprintln!("iri: {msg}");
            return Ok(ExitCode::from(2));
        }
    };
    let mut out = Out::new();
    each_input(inputs, |_, input| {
        let mut grammar = None;
        let verdict = match recognizer {
            Some(r) => match r.validate_bytes(input) {
                Ok(()) => Verdict::Valid,
                Err(e) => Verdict::Invalid {
                    offset: e.offset(),
                    reason: format!("does not match {}:{}", e.grammar(), e.rule()),
                    expected: Some(e.expected()),
                },
            },
            None if scheme => {
                let (v, g) = check_scheme(input);
                grammar = g;
                v
            }
            None => check_iri_reference(input),
        };
        if matches!(verdict, Verdict::Invalid { .. }) {
            out.failed = true;
        }
        if json {
            let mut v = vec![("input", text(input))];
            match &verdict {
                Verdict::Valid => v.push(("valid", json!(true))),
                Verdict::UnknownScheme => {
                    v.push(("valid", json!(true)));
                    v.push(("unknown_scheme", json!(true)));
                }
                Verdict::Invalid {
                    offset,
                    reason,
                    expected,
                } => {
                    v.push(("valid", json!(false)));
                    v.push(("offset", json!(offset)));
                    v.push(("reason", json!(reason)));
                    if let Some(set) = expected {
                        // The exact set, as byte ranges [first, last]: the
                        // reason names classes for people.
                        let ranges: Vec<[u8; 2]> = set.ranges().map(|(lo, hi)| [lo, hi]).collect();
                        v.push(("expected", json!(ranges)));
                    }
                }
            }
            if scheme {
                let rule = grammar.map(|r| format!("{}:{}", r.grammar(), r.rule()));
                v.push(("scheme_rule", json!(rule)));
            }
            return out.json(&v);
        }
        let w = &mut out.w;
        match verdict {
            Verdict::Valid => w.write_all(b"valid\t")?,
            Verdict::UnknownScheme => w.write_all(b"unknown-scheme\t")?,
            Verdict::Invalid { .. } => w.write_all(b"invalid\t")?,
        }
        w.write_all(input)?;
        if let Verdict::Invalid { offset, reason, .. } = verdict {
            write!(w, "\t{offset}\t{reason}")?;
        }
        w.write_all(b"\n")
    })?;
    out.finish()
}

fn compare(rung: CompareRung, nfc: bool, json: bool, pair: &[OsString]) -> io::Result<ExitCode> {
    if nfc && rung == CompareRung::Simple {
        eprintln!("iri: --nfc needs --rung syntax or --rung scheme");
        return Ok(ExitCode::from(2));
    }
    let normalizer = match rung {
        CompareRung::Simple => None,
        CompareRung::Syntax => Some(Normalizer::syntax_based().nfc(nfc)),
        CompareRung::Scheme => Some(Normalizer::scheme_based().nfc(nfc)),
    };
    let rung_name = match rung {
        CompareRung::Simple => "simple",
        CompareRung::Syntax => "syntax",
        CompareRung::Scheme => "scheme",
    };
    let one = |a: &[u8], b: &[u8]| -> Result<(bool, String, String), String> {
        let a = utf8("A", a).and_then(|s| IriRef::parse(s).map_err(|e| format!("A: {e}")))?;
        let b = utf8("B", b).and_then(|s| IriRef::parse(s).map_err(|e| format!("B: {e}")))?;
        let (na, nb) = match normalizer {
            None => (a.as_str().to_owned(), b.as_str().to_owned()),
            Some(n) => (n.normalize(a).into_string(), n.normalize(b).into_string()),
        };
        Ok((na == nb, na, nb))
    };
    let mut out = Out::new();
    let run = |at: Where, a: &[u8], b: &[u8], out: &mut Out| -> io::Result<()> {
        let result = one(a, b);
        match &result {
            Ok((false, ..)) => out.failed = true,
            Err(_) => out.error = true,
            Ok(_) => {}
        }
        match (result, json) {
            (Ok((equal, ..)), false) => out.w.write_all(if equal { b"equal\n" } else { b"different\n" }),
            (Ok((equal, na, nb)), true) => out.json(&[
                ("a", json!(text(a))),
                ("b", json!(text(b))),
                ("rung", json!(rung_name)),
                ("equal", json!(equal)),
                ("a_normalized", json!(na)),
                ("b_normalized", json!(nb)),
            ]),
            (Err(e), false) => {
                out.w.flush()?;
                eprintln!("iri: {at}{e}");
                Ok(())
            }
            (Err(e), true) => out.json(&[("a", json!(text(a))), ("b", json!(text(b))), ("error", json!(e))]),
        }
    };
    match pair {
        [] => each_input(&[], |at, line| match line.iter().position(|&c| c == b'\t') {
            Some(tab) => run(at, &line[..tab], &line[tab + 1..], &mut out),
            None => {
                out.error = true;
                out.w.flush()?;
                eprintln!("iri: {at}expected two IRI references separated by a tab");
                Ok(())
            }
        })?,
        [a, b] => run(Where::Only, a.as_encoded_bytes(), b.as_encoded_bytes(), &mut out)?,
        _ => {
            eprintln!("iri: compare takes two IRI references A B, or none to read pairs A<TAB>B from standard input");
            return Ok(ExitCode::from(2));
        }
    }
    out.finish()
}

fn lint(json: bool, inputs: &[OsString]) -> io::Result<ExitCode> {
    let mut out = Out::new();
    each_input(inputs, |_, input| {
        let result = match std::str::from_utf8(input) {
            Ok(s) => ops::lint(s)
                .map(|found| (s, found))
                .map_err(|e| (e.offset(), e.to_string())),
            Err(e) => Err((e.valid_up_to(), "not valid UTF-8".to_string())),
        };
        match result {
            Ok((s, found)) => {
                if !found.is_empty() {
                    out.failed = true;
                }
                // With a bidi formatting character it is not an IRI (§4.1).
                let valid = !found
                    .iter()
                    .any(|l| matches!(l.kind, ops::LintKind::BidiFormatting(_)));
                if json {
                    let findings: Vec<Value> = found
                        .iter()
                        .map(|l| {
                            json!({
                                "kind": l.kind.name(),
                                "start": l.span.start,
                                "end": l.span.end,
                                "text": l.text(s),
                                "message": l.to_string(),
                            })
                        })
                        .collect();
                    return out.json(&[
                        ("input", json!(s)),
                        ("valid", json!(valid)),
                        ("findings", json!(findings)),
                    ]);
                }
                if found.is_empty() {
                    out.w.write_all(b"ok\t")?;
                    out.w.write_all(input)?;
                    return out.w.write_all(b"\n");
                }
                for l in &found {
                    writeln!(out.w, "{}\t{s}\t{}\t{l}", l.kind.name(), l.span.start)?;
                }
                Ok(())
            }
            Err((offset, e)) => {
                out.failed = true;
                if json {
                    return out.json(&[
                        ("input", json!(text(input))),
                        ("valid", json!(false)),
                        ("offset", json!(offset)),
                        ("reason", json!(e)),
                        ("findings", json!([])),
                    ]);
                }
                out.w.write_all(b"invalid\t")?;
                out.w.write_all(input)?;
                writeln!(out.w, "\t{offset}\t{e}")
            }
        }
    })?;
    out.finish()
}
