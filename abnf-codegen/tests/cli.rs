//! The `abnf-codegen` command: `check` and `match`, their output and exit codes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_abnf-codegen");

fn specs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../specs")
}

fn spec(name: &str) -> PathBuf {
    specs_dir().join(name)
}

/// A spec file written under the target's temporary folder.
fn temp_spec(name: &str, contents: &[u8]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("abnf-codegen-cli");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

fn run(args: &[&std::ffi::OsStr], stdin: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run abnf-codegen");
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // The command may exit without reading; a broken pipe is fine then.
        let _ = pipe.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}

fn args<'a>(items: &'a [&'a dyn AsRef<std::ffi::OsStr>]) -> Vec<&'a std::ffi::OsStr> {
    items.iter().map(|a| a.as_ref()).collect()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn check_accepts_every_spec_in_the_repository() {
    let mut specs: Vec<PathBuf> = std::fs::read_dir(specs_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "abnf"))
        .collect();
    specs.sort();
    assert!(
        specs.len() >= 2,
        "expected rfc3986.abnf and rfc3987.abnf, found {specs:?}"
    );
    let mut argv: Vec<&std::ffi::OsStr> = vec!["check".as_ref()];
    argv.extend(specs.iter().map(|p| p.as_os_str()));
    let o = run(&argv, b"");
    assert_eq!(o.status.code(), Some(0), "stderr:\n{}", stderr(&o));
    assert!(!stderr(&o).contains("error"), "stderr:\n{}", stderr(&o));
    assert!(o.stdout.is_empty());
    // Each spec alone too (rfc3987.abnf imports rfc3986.abnf by relative path).
    for s in &specs {
        let o = run(&args(&[&"check", s]), b"");
        assert_eq!(o.status.code(), Some(0), "{}: {}", s.display(), stderr(&o));
    }
}

#[test]
fn check_reports_a_bad_file_with_position_and_caret() {
    let path = temp_spec("pipe.abnf", b"a = \"x\"\nb = \"x\" | \"y\"\n");
    let o = run(&args(&[&"check", &path]), b"");
    assert_eq!(o.status.code(), Some(1), "stderr:\n{}", stderr(&o));
    assert!(o.stdout.is_empty(), "diagnostics go to stderr");
    let err = stderr(&o);
    let expected = format!(
        "error: unexpected character `|`\n  ┌─ {}:2:9\n  │\n2 │ b = \"x\" | \"y\"\n  │         ^ ABNF separates alternatives with `/`, not `|`\n",
        path.display()
    );
    assert!(
        err.starts_with(&expected),
        "got:\n{err}\nexpected it to start with:\n{expected}"
    );
    assert!(
        !err.contains('\x1b'),
        "no colour codes when stderr is not a terminal"
    );
}

#[test]
fn check_reports_every_error_of_a_file() {
    let path = temp_spec("several.abnf", b"a = %x39-30\nb = \"x\nc = undefined-rule\n");
    let o = run(&args(&[&"check", &path]), b"");
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    let p = path.display();
    for want in [
        format!("{p}:1:5"),
        "reversed range `%x39-30`".to_string(),
        format!("{p}:2:5"),
        "unterminated quoted string".to_string(),
    ] {
        assert!(err.contains(&want), "missing {want:?} in:\n{err}");
    }
}

#[test]
fn check_runs_the_whole_pipeline() {
    // Recursion that is not regular is found only when lowering. Asked for
    // by name, it is an error.
    let path = temp_spec("nested.abnf", b"a = \"(\" a \")\" / \"x\"\nb = \"y\"\n");
    let o = run(&args(&[&"check", &"--rule", &"a", &path]), b"");
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains(&format!("{}:1:1", path.display())), "{err}");
    assert!(err.contains("error: rule `a` is recursive"), "{err}");
    assert!(err.contains("a → a"), "{err}");
    assert!(err.contains("\n1 │ a = \"(\" a \")\" / \"x\"\n"), "{err}");
}

#[test]
fn check_of_a_whole_file_leaves_out_what_cannot_compile() {
    let path = temp_spec(
        "partial.abnf",
        b"a = \"(\" a \")\" / \"x\"\nb = \"[\" a \"]\"\nc = \"y\"\n",
    );
    let o = run(&args(&[&"check", &path]), b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("warning: rule `a` is recursive"), "{err}");
    assert_eq!(err.matches("warning:").count(), 1, "one warning per cycle: {err}");
    assert!(err.contains("left out (2 of 3 rules): a, b"), "{err}");
    let o = run(&args(&[&"check", &"--deny-warnings", &path]), b"");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    // The rules that compile can be matched.
    let o = run(&args(&[&"match", &"--rule", &"c", &path]), b"y\n");
    assert_eq!(stdout(&o), "valid\ty\n");
}

#[test]
fn check_with_rule_warns_only_about_that_rule() {
    let path = temp_spec(
        "unused.abnf",
        b"x = y\ny = \"1\"\nlonely = \"2\"\nn = \"(\" n \")\"\n",
    );
    let o = run(&args(&[&"check", &"--rule", &"x", &path]), b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        !err.contains("never used"),
        "the user asked about `x` only: {err}"
    );
    assert!(!err.contains("`n`"), "`x` does not reach `n`: {err}");
}

#[test]
fn check_accepts_the_limits() {
    let path = temp_spec("big.abnf", b"x = *(\"a\" / \"b\") \"a\" 12(\"a\" / \"b\")\n");
    let o = run(
        &args(&[&"check", &"--rule", &"x", &"--dfa-bytes", &"64K", &path]),
        b"",
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("the DFA for rule `x` exceeds its size limit"),
        "{err}"
    );
    assert!(err.contains("--dfa-bytes"), "{err}");
    let o = run(&args(&[&"check", &"--dfa-bytes", &"lots", &path]), b"");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn check_on_a_missing_file_exits_2() {
    let path = specs_dir().join("no-such-file.abnf");
    let o = run(&args(&[&"check", &path]), b"");
    assert_eq!(o.status.code(), Some(2), "stderr:\n{}", stderr(&o));
    assert!(stderr(&o).contains("no-such-file.abnf"), "{}", stderr(&o));
}

#[test]
fn check_on_a_file_that_is_not_utf8() {
    let path = temp_spec("latin1.abnf", b"a = \"x\"\nb = \"caf\xe9\"\n");
    let o = run(&args(&[&"check", &path]), b"");
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("not UTF-8"), "{err}");
    assert!(err.contains(&format!("{}:2:9", path.display())), "{err}");
}

#[test]
fn match_prints_one_result_per_line_exactly() {
    let input: &[u8] =
        b"http://a/b\n\nfoo\tbar\n\xff\xfe\nhttp://\xe4\xbe\x8b\xe3\x81\x88.jp/\na b\nhttp://x";
    let o = run(
        &args(&[&"match", &"--rule", &"IRI-reference", &spec("rfc3987.abnf")]),
        input,
    );
    assert_eq!(o.status.code(), Some(0), "stderr:\n{}", stderr(&o));
    let expected: &[u8] = b"valid\thttp://a/b\n\
        valid\t\n\
        invalid\tfoo\tbar\t3\n\
        invalid\t\xff\xfe\t0\n\
        valid\thttp://\xe4\xbe\x8b\xe3\x81\x88.jp/\n\
        invalid\ta b\t1\n\
        valid\thttp://x\n";
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(expected),
        "stdout differs"
    );
    assert_eq!(o.stdout, expected, "stdout bytes differ");
}

#[test]
fn match_edge_inputs() {
    let iri = spec("rfc3987.abnf");
    let m = |stdin: &[u8]| {
        let o = run(&args(&[&"match", &"--rule", &"IRI-reference", &iri]), stdin);
        assert_eq!(o.status.code(), Some(0), "stderr:\n{}", stderr(&o));
        o.stdout
    };
    assert_eq!(m(b""), b"", "no input, no output");
    assert_eq!(m(b"\n"), b"valid\t\n", "one empty line");
    assert_eq!(m(b"\n\n"), b"valid\t\nvalid\t\n", "two empty lines");
    assert_eq!(m(b"a\r\n"), b"invalid\ta\r\t1\n", "lines split on \\n only");
    assert_eq!(m(b"x\n"), m(b"x"), "a trailing newline does not matter");
    // A truncated IRI is reported at its end.
    assert_eq!(m(b"http://[::1\n"), b"invalid\thttp://[::1\t11\n");
    assert_eq!(m(b"%4\n"), b"invalid\t%4\t2\n");
}

#[test]
fn match_with_an_unknown_rule_exits_2() {
    let o = run(
        &args(&[&"match", &"--rule", &"no-such-rule", &spec("rfc3987.abnf")]),
        b"x\n",
    );
    assert_eq!(o.status.code(), Some(2), "stderr:\n{}", stderr(&o));
    assert!(o.stdout.is_empty());
    assert!(stderr(&o).contains("no-such-rule"), "{}", stderr(&o));

    let o = run(
        &args(&[
            &"match",
            &"--rule",
            &"rfc3986:no-such-rule",
            &spec("rfc3986.abnf"),
        ]),
        b"x\n",
    );
    assert_eq!(o.status.code(), Some(2), "stderr:\n{}", stderr(&o));
    assert!(o.stdout.is_empty());
    assert!(stderr(&o).contains("no-such-rule"), "{}", stderr(&o));

    let o = run(
        &args(&[&"match", &"--rule", &"nope:URI", &spec("rfc3986.abnf")]),
        b"x\n",
    );
    assert_eq!(o.status.code(), Some(2), "stderr:\n{}", stderr(&o));
    assert!(o.stdout.is_empty());
}

#[test]
fn match_with_grammar_colon_rule() {
    let o = run(
        &args(&[
            &"match",
            &"--rule",
            &"rfc3986:URI",
            &spec("rfc3986.abnf"),
            &spec("rfc3987.abnf"),
        ]),
        "http://a/~x\nhttp://例/\n/relative\nHTTP://A/%7e\n".as_bytes(),
    );
    assert_eq!(o.status.code(), Some(0), "stderr:\n{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "valid\thttp://a/~x\ninvalid\thttp://例/\t7\ninvalid\t/relative\t0\nvalid\tHTTP://A/%7e\n"
    );
    // The rule name is case-insensitive in both forms.
    let o = run(
        &args(&[&"match", &"--rule", &"rfc3986:uri", &spec("rfc3986.abnf")]),
        b"http://a/\n",
    );
    assert_eq!(o.status.code(), Some(0), "stderr:\n{}", stderr(&o));
    assert_eq!(stdout(&o), "valid\thttp://a/\n");
}

#[test]
fn match_with_a_bad_grammar_fails_with_its_diagnostic() {
    let path = temp_spec("bad-match.abnf", b"r = \"x\" / %x7A-61\n");
    let o = run(&args(&[&"match", &"--rule", &"r", &path]), b"x\n");
    assert_eq!(o.status.code(), Some(2), "stderr:\n{}", stderr(&o));
    assert!(o.stdout.is_empty());
    let err = stderr(&o);
    assert!(err.contains(&format!("{}:1:11", path.display())), "{err}");
    assert!(err.contains("reversed range"), "{err}");
}

#[test]

fn check_survives_deeply_nested_groups() {
    let depth = 1000;
    let text = format!("a = {}\"x\"{}\n", "(".repeat(depth), ")".repeat(depth));
    let path = temp_spec("deep.abnf", text.as_bytes());
    let o = run(&args(&[&"check", &path]), b"");
    // Either it compiles (the language is just "x") or it says why not.
    match o.status.code() {
        Some(0) => {}
        Some(1) => assert!(
            stderr(&o).contains(&format!("{}:1:", path.display())),
            "{}",
            stderr(&o)
        ),
        other => panic!("exit status {other:?} ({}):\n{}", o.status, stderr(&o)),
    }
}

#[test]
fn check_with_an_unknown_rule_exits_2() {
    let o = run(
        &args(&[&"check", &"--rule", &"no-such-rule", &spec("rfc3986.abnf")]),
        b"",
    );
    assert_eq!(o.status.code(), Some(2), "stderr:\n{}", stderr(&o));
    assert!(stderr(&o).contains("no-such-rule"), "{}", stderr(&o));
}
