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
