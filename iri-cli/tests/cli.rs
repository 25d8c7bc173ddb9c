//! The `iri check` command: output format, input sources, options and exit codes.

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_iri");

fn iri(args: &[&OsStr], stdin: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run iri");
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // With inputs on the command line stdin is not read; ignore EPIPE.
        let _ = pipe.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}

fn check(args: &[&str]) -> Output {
    let mut all: Vec<&OsStr> = vec![OsStr::new("check")];
    all.extend(args.iter().map(OsStr::new));
    iri(&all, b"")
}

fn check_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut all: Vec<&OsStr> = vec![OsStr::new("check")];
    all.extend(args.iter().map(OsStr::new));
    iri(&all, stdin)
}

/// Standard output without the REASON column, the last of `invalid`
/// lines (the tests of reasons look at it).
fn out(o: &Output) -> String {
    String::from_utf8_lossy(&without_reasons(&o.stdout)).into_owned()
}

fn without_reasons(stdout: &[u8]) -> Vec<u8> {
    let mut kept = Vec::new();
    for line in stdout.split_inclusive(|&b| b == b'\n') {
        if line.starts_with(b"invalid\t") {
            let tab = line.iter().rposition(|&b| b == b'\t').unwrap();
            assert!(
                line[tab + 1..].len() > 1,
                "an invalid line has a reason: {:?}",
                String::from_utf8_lossy(line)
            );
            kept.extend_from_slice(&line[..tab]);
            kept.push(b'\n');
        } else {
            kept.extend_from_slice(line);
        }
    }
    kept
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn valid_inputs_exit_0() {
    let o = check(&["http://a/b?c#d", "../x", "https://例え.jp/引き出し"]);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", err(&o));
    assert_eq!(
        out(&o),
        "valid\thttp://a/b?c#d\nvalid\t../x\nvalid\thttps://例え.jp/引き出し\n"
    );
    assert!(o.stderr.is_empty(), "stderr: {}", err(&o));
}

#[test]
fn any_invalid_input_exits_1() {
    let o = check(&["http://a/", "a b", "http://[::1", "%zz", "x"]);
    assert_eq!(o.status.code(), Some(1), "stderr: {}", err(&o));
    assert_eq!(
        out(&o),
        "valid\thttp://a/\ninvalid\ta b\t1\ninvalid\thttp://[::1\t11\ninvalid\t%zz\t1\nvalid\tx\n"
    );
    let o = check(&["a b"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(out(&o), "invalid\ta b\t1\n");
}

#[test]
fn reads_stdin_when_no_inputs_are_given() {
    let stdin: &[u8] = b"http://a/\n\nfoo\tbar\n\xff\xfe\na\r\nhttp://x";
    let o = check_stdin(&[], stdin);
    assert_eq!(o.status.code(), Some(1), "stderr: {}", err(&o));
    let expected: &[u8] = b"valid\thttp://a/\n\
        valid\t\n\
        invalid\tfoo\tbar\t3\n\
        invalid\t\xff\xfe\t0\n\
        invalid\ta\r\t1\n\
        valid\thttp://x\n";
    assert_eq!(out(&o), String::from_utf8_lossy(expected));
    assert_eq!(without_reasons(&o.stdout), expected);

    let o = check_stdin(&[], b"http://a/\n../b\n");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(out(&o), "valid\thttp://a/\nvalid\t../b\n");

    let o = check_stdin(&[], b"");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(out(&o), "", "no input, no output");

    let o = check_stdin(&[], b"\n");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(out(&o), "valid\t\n", "one empty line is one (valid) input");
}

#[test]
fn stdin_is_ignored_when_inputs_are_given() {
    let o = check_stdin(&["http://a/"], b"a b\n");
    assert_eq!(o.status.code(), Some(0), "stderr: {}", err(&o));
    assert_eq!(out(&o), "valid\thttp://a/\n");
}

#[test]
fn double_dash_allows_inputs_starting_with_a_dash() {
    let o = check(&["--", "-x", "--y"]);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", err(&o));
    assert_eq!(out(&o), "valid\t-x\nvalid\t--y\n");

    let o = check(&["--rule", "rfc3986:URI", "--", "-x"]);
    assert_eq!(o.status.code(), Some(1), "stderr: {}", err(&o));
    assert_eq!(out(&o), "invalid\t-x\t0\n");

    // Without `--`, `-x` is an unknown option: a usage error.
    let o = check(&["-x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert!(err(&o).contains("--"), "the error suggests `--`: {}", err(&o));
}

#[test]
fn empty_argument_is_an_input() {
    let o = check(&[""]);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", err(&o));
    assert_eq!(out(&o), "valid\t\n", "the empty string is a valid IRI-reference");

    let o = check(&["", "a b", ""]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(out(&o), "valid\t\ninvalid\ta b\t1\nvalid\t\n");

    // The empty string is not a URI (a scheme is required).
    let o = check(&["--rule", "rfc3986:URI", ""]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(out(&o), "invalid\t\t0\n");
}

#[test]
fn rule_option_selects_grammar_and_rule() {
    let o = check(&["--rule", "rfc3986:URI", "http://a/~x", "http://例/", "/relative"]);
    assert_eq!(o.status.code(), Some(1), "stderr: {}", err(&o));
    assert_eq!(
        out(&o),
        "valid\thttp://a/~x\ninvalid\thttp://例/\t7\ninvalid\t/relative\t0\n"
    );

    let o = check(&["--rule=rfc3987:IRI", "http://例/"]);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", err(&o));
    assert_eq!(out(&o), "valid\thttp://例/\n");

    // Rule names are case-insensitive, as in ABNF.
    let o = check(&["--rule", "rfc3986:ipv4address", "192.0.2.1", "192.0.2.256"]);
    assert_eq!(o.status.code(), Some(1), "stderr: {}", err(&o));
    assert_eq!(out(&o), "valid\t192.0.2.1\ninvalid\t192.0.2.256\t10\n");
}

#[test]
fn unknown_grammar_or_rule_exits_2() {
    for (rule, says) in [
        ("nope:URI", "nope"),
        ("rfc3986:no-such-rule", "no-such-rule"),
        ("URI", "GRAMMAR:RULE"),
        ("rfc3986:", "rfc3986"),
    ] {
        let o = check(&["--rule", rule, "http://a/"]);
        assert_eq!(o.status.code(), Some(2), "--rule {rule}: stderr {}", err(&o));
        assert!(o.stdout.is_empty(), "--rule {rule}: nothing is checked");
        assert!(err(&o).contains(says), "--rule {rule}: stderr {}", err(&o));
    }
    let o = check(&["--rule", "nope:URI"]);
    assert!(
        err(&o).contains("rfc3986") && err(&o).contains("rfc3987"),
        "lists known grammars: {}",
        err(&o)
    );
    // Also when reading stdin.
    let o = check_stdin(&["--rule", "nope:URI"], b"http://a/\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
}

#[test]
fn non_utf8_argument() {
    let bad = OsStr::from_bytes(b"http://a/\xff");
    let o = iri(&[OsStr::new("check"), OsStr::new("http://a/"), bad], b"");
    assert_eq!(o.status.code(), Some(1), "stderr: {}", err(&o));
    assert_eq!(
        without_reasons(&o.stdout),
        b"valid\thttp://a/\ninvalid\thttp://a/\xff\t9\n"
    );
}

#[test]
fn output_order_equals_input_order() {
    let inputs: Vec<String> = (0..200)
        .map(|i| match i % 4 {
            0 => format!("http://h{i}/p"),
            1 => format!("bad {i}"),
            2 => format!("../rel/{i}?q"),
            _ => format!("http://[::{i}"),
        })
        .collect();
    let args: Vec<OsString> = std::iter::once(OsString::from("check"))
        .chain(inputs.iter().map(OsString::from))
        .collect();
    let argv: Vec<&OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    let r = iri_grammar::lookup("rfc3987", "IRI-reference").unwrap();
    let expected: String = inputs
        .iter()
        .map(|i| match r.validate(i) {
            Ok(()) => format!("valid\t{i}\n"),
            Err(e) => format!("invalid\t{i}\t{}\n", e.offset()),
        })
        .collect();
    assert!(expected.contains("invalid\tbad 1\t3\n"));
    let o = iri(&argv, b"");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(out(&o), expected);

    // The same through stdin.
    let stdin = inputs.join("\n");
    let o = check_stdin(&[], stdin.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(out(&o), expected);
}

// ---------------------------------------------------------------------------
// RFC 3987: `check` without --rule is "is this an IRI reference"
// ---------------------------------------------------------------------------

/// The reason column of each `invalid` line.
fn reasons(o: &Output) -> Vec<String> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter(|l| l.starts_with("invalid\t"))
        .map(|l| l.rsplit('\t').next().unwrap().to_string())
        .collect()
}

#[test]
fn check_rejects_bidi_formatting_characters() {
    // RFC 3987 §4.1: "IRIs MUST NOT contain bidirectional formatting
    // characters (LRM, RLM, LRE, RLE, LRO, RLO, and PDF)". The grammar
    // alone (§2.2) allows them; `check` answers for the RFC.
    let rlo = "http://example.org/a\u{202E}b";
    let lrm = "http://exa\u{200E}mple.org/";
    let o = check(&[rlo, lrm]);
    assert_eq!(o.status.code(), Some(1), "stderr: {}", err(&o));
    assert_eq!(out(&o), format!("invalid\t{rlo}\t20\ninvalid\t{lrm}\t10\n"));
    let why = reasons(&o);
    assert!(why[0].contains("U+202E") && why[0].contains("§4.1"), "{why:?}");
    assert!(why[1].contains("U+200E") && why[1].contains("LRM"), "{why:?}");
    for c in [
        '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}',
    ] {
        let input = format!("/a{c}");
        let o = check(&[&input]);
        assert_eq!(o.status.code(), Some(1), "U+{:04X}", c as u32);
        assert_eq!(out(&o), format!("invalid\t{input}\t2\n"));
    }
    // Percent-encoded, they are fine.
    let o = check(&["http://example.org/a%E2%80%AEb"]);
    assert_eq!(o.status.code(), Some(0));
    // The bare grammar stays available with --rule.
    let o = check(&["--rule", "rfc3987:IRI-reference", rlo, lrm]);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", err(&o));
    assert_eq!(out(&o), format!("valid\t{rlo}\nvalid\t{lrm}\n"));
    // The earlier problem is reported: a syntax error before the character.
    let o = check(&["a b\u{202E}"]);
    assert_eq!(out(&o), "invalid\ta b\u{202E}\t1\n");
    assert!(reasons(&o)[0].contains("unexpected ' '"), "{:?}", reasons(&o));
}

#[test]
fn check_reasons_and_json() {
    let o = check(&["--json", "http://a/", "a b", "/x\u{202D}"]);
    assert_eq!(o.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0], serde_json::json!({"input": "http://a/", "valid": true}));
    assert_eq!(lines[1]["valid"], false);
    assert_eq!(lines[1]["offset"], 1);
    assert!(lines[1]["reason"]
        .as_str()
        .unwrap()
        .contains("rfc3987:IRI-reference"));
    assert_eq!(lines[2]["offset"], 2);
    assert!(lines[2]["reason"].as_str().unwrap().contains("U+202D"));
    // The reason names classes for people (the grammar's one-character
    // rules, then RFC 5234's); `expected` keeps the exact bytes, as
    // ranges: after `a`, a scheme or path character.
    assert_eq!(
        lines[1]["expected"],
        serde_json::json!([
            [33, 33],
            [35, 59],
            [61, 61],
            [63, 90],
            [95, 95],
            [97, 122],
            [126, 126],
            [194, 237],
            [239, 243]
        ])
    );
    assert!(lines[1]["reason"]
        .as_str()
        .unwrap()
        .contains("expected iunreserved, sub-delims, '#', '%', '/', ':', '?', '@' (rfc3987:IRI-reference)"));
    assert_eq!(
        lines[2].get("expected"),
        None,
        "a bidi control is no syntax error"
    );
    let o = check(&["--json", "--rule", "rfc3986:URI", "http://a/%g0"]);
    let line: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        line["expected"],
        serde_json::json!([[48, 57], [65, 70], [97, 102]])
    );
    // Not UTF-8: invalid where the bytes stop being UTF-8.
    let o = iri(&[OsStr::new("check"), OsStr::from_bytes(b"/a\xC3")], b"");
    assert_eq!(without_reasons(&o.stdout), b"invalid\t/a\xC3\t2\n");
    assert!(reasons(&o)[0].contains("UTF-8"));
}

#[test]
fn check_scheme_uses_the_scheme_grammar() {
    let o = check(&[
        "--scheme",
        "mailto:infobot@example.com?subject=current-issue",
        "tel:phone",
        "foo:bar",
        "/relative",
    ]);
    assert_eq!(o.status.code(), Some(1), "stderr: {}", err(&o));
    assert_eq!(
        out(&o),
        "valid\tmailto:infobot@example.com?subject=current-issue\n\
         invalid\ttel:phone\t4\n\
         unknown-scheme\tfoo:bar\n\
         invalid\t/relative\t0\n"
    );
    let why = reasons(&o);
    assert!(why[0].contains("tel:"), "names the scheme's rule: {why:?}");
    assert!(why[1].contains("invalid IRI"), "{why:?}");
    // The scheme's grammar sees the URI the IRI maps to (RFC 3987 §2).
    let o = check(&["--scheme", "--json", "tag:example.com,2024:résumé"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["valid"], true);
    assert_eq!(v["scheme_rule"], "tag:tagURI");
    // --rule and --scheme do not go together.
    assert_eq!(
        check(&["--scheme", "--rule", "rfc3986:URI", "a:b"]).status.code(),
        Some(2)
    );
}

// ---------------------------------------------------------------------------
// Pipelines
// ---------------------------------------------------------------------------

#[test]
fn closed_stdout_ends_quietly() {
    // `iri VERB | head -c 10`: the reader goes away after 10 bytes.
    let lines: String = (0..200_000)
        .map(|i| format!("http://example.org/{i}\n"))
        .collect();
    for verb in [
        &["check"][..],
        &["normalize"],
        &["to-uri"],
        &["lint"],
        &["check", "--json"],
    ] {
        let mut child = Command::new(BIN)
            .args(verb)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let input = lines.clone();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 10];
        std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
        drop(stdout);
        let o = child.wait_with_output().unwrap();
        writer.join().unwrap();
        assert_eq!(o.status.code(), Some(0), "{verb:?}: {}", err(&o));
        assert!(o.stderr.is_empty(), "{verb:?}: no message, no panic: {}", err(&o));
    }
}

#[test]
fn every_verb_reads_stdin_and_writes_json() {
    // (verb and options, two lines of input, the outputs)
    let cases: [(&[&str], &str, [&str; 2]); 6] = [
        (&["to-uri"], "/é\n/ü\n", ["/%C3%A9", "/%C3%BC"]),
        (&["to-iri"], "/%C3%A9\n/%C3%BC", ["/é", "/ü"]),
        (&["normalize"], "HTTP://A:80\n/%7e\n", ["http://a/", "/~"]),
        (
            &["resolve", "http://a/b/c"],
            "d\n../e\n",
            ["http://a/b/d", "http://a/e"],
        ),
        (
            &["relativize", "http://a/b/c"],
            "http://a/b/d\nhttp://a/x\n",
            ["d", "/x"],
        ),
        (
            &["to-uri", "--idna"],
            "http://résumé.example.org/\nurn:é\n",
            ["http://xn--rsum-bpad.example.org/", "urn:%C3%A9"],
        ),
    ];
    for (args, stdin, want) in cases {
        let mut all: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
        let o = iri(&all, stdin.as_bytes());
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", err(&o));
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            format!("{}\n{}\n", want[0], want[1]),
            "{args:?}"
        );
        all.push(OsStr::new("--json"));
        let o = iri(&all, stdin.as_bytes());
        assert_eq!(o.status.code(), Some(0), "{args:?} --json: {}", err(&o));
        let got: Vec<serde_json::Value> = String::from_utf8(o.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let inputs: Vec<&str> = stdin.lines().collect();
        for i in 0..2 {
            assert_eq!(
                got[i],
                serde_json::json!({"input": inputs[i], "output": want[i]}),
                "{args:?}"
            );
        }
    }
    // An error among results: in JSON it takes the input's place.
    let o = iri(&[OsStr::new("to-uri"), OsStr::new("--json")], b"/a\na b\n/c\n");
    assert_eq!(o.status.code(), Some(1));
    let got: Vec<serde_json::Value> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(got.len(), 3);
    assert_eq!(got[0]["output"], "/a");
    assert!(got[1]["error"]
        .as_str()
        .unwrap()
        .contains("invalid IRI reference"));
    assert_eq!(got[2]["output"], "/c");
    // Without --json, the error goes to standard error with its line.
    let o = iri(&[OsStr::new("to-uri")], b"/a\na b\n/c\n");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "/a\n/c\n");
    assert!(
        err(&o).starts_with("iri: line 2: invalid IRI reference"),
        "{}",
        err(&o)
    );
}

#[test]
fn streaming_is_not_slower_than_a_library_loop() {
    // The streaming path does per line what a loop over the library does
    // (validate and scan), plus buffered output; it must not be slower per
    // line. The process start-up is measured with an empty input and
    // taken away; the library loop is this (unoptimized) test binary's,
    // so the margin is generous and the comparison is a floor.
    let n = 200_000;
    let lines: String = (0..n)
        .map(|i| format!("http://example.org/a/{i}?q=é#f\n"))
        .collect();
    let time = |stdin: &[u8]| {
        let start = std::time::Instant::now();
        let o = iri(&[OsStr::new("check")], stdin);
        assert!(o.status.success());
        (start.elapsed(), o.stdout.len())
    };
    let (empty, _) = time(b"");
    let (full, bytes) = time(lines.as_bytes());
    assert_eq!(bytes, lines.len() + 6 * n, "one `valid\\t` line per input");
    let start = std::time::Instant::now();
    let mut valid = 0;
    for l in lines.lines() {
        valid += usize::from(iri_grammar::IriRef::parse(l).is_ok());
    }
    let library = start.elapsed();
    assert_eq!(valid, n);
    let per_line = full.saturating_sub(empty);
    if std::env::var_os("IRI_SHOW_TIMES").is_some() {
        eprintln!("streaming {per_line:?}, library loop {library:?}");
    }
    assert!(
        per_line <= library * 2,
        "streaming {per_line:?} for {n} lines, the library loop {library:?}"
    );
}
