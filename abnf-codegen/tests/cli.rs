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
    // One line says what was checked.
    let summary = stdout(&o);
    assert!(
        summary.starts_with(&format!("ok: {} spec files checked, ", specs.len()))
            && summary.lines().count() == 1,
        "{summary}"
    );
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
        "error[syntax]: unexpected character `|`\n  ┌─ {}:2:9\n  │\n2 │ b = \"x\" | \"y\"\n  │         ^ ABNF separates alternatives with `/`, not `|`\n",
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
    // Recursion that is not regular is found only when lowering: the rule
    // compiles as a network of rule automata, and `match` walks it.
    let path = temp_spec("nested.abnf", b"a = \"(\" a \")\" / \"x\"\nb = \"y\"\n");
    let o = run(&args(&[&"check", &"--rule", &"a", &path]), b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "ok: 1 spec file checked, 1 rule compiled (1 with a stack), 0 warnings\n"
    );
    let o = run(&args(&[&"match", &"--rule", &"a", &path]), b"((x))\n((x)\nx\n");
    assert_eq!(stdout(&o), "valid\t((x))\ninvalid\t((x)\t4\nvalid\tx\n");
    assert_eq!(o.status.code(), Some(1));
    // A recursion that never ends is still an error, with the rule's place.
    let path = temp_spec("endless.abnf", b"s = \"a\" t\nt = s \"bc\"\n");
    let o = run(&args(&[&"check", &"--rule", &"s", &path]), b"");
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains(&format!("{}:1:1", path.display())), "{err}");
    assert!(
        err.contains("error[empty-language]: rule `s` matches no string"),
        "{err}"
    );
}

#[test]
fn check_of_a_whole_file_compiles_recursive_rules_with_a_stack() {
    let path = temp_spec(
        "partial.abnf",
        b"a = \"(\" a \")\" / \"x\"\nb = \"[\" a \"]\"\nc = \"y\"\n",
    );
    let o = run(&args(&[&"check", &"--deny-warnings", &path]), b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "ok: 1 spec file checked, 3 rules compiled (2 with a stack), 0 warnings\n"
    );
    let o = run(&args(&[&"match", &"--rule", &"b", &path]), b"[(x)]\n[(x]\n");
    assert_eq!(stdout(&o), "valid\t[(x)]\ninvalid\t[(x]\t3\n");
    let o = run(&args(&[&"match", &"--rule", &"c", &path]), b"y\n");
    assert_eq!(stdout(&o), "valid\ty\n");
    // `explain` says how the rule is walked.
    let o = run(&args(&[&"explain", &"--rule", &"b", &path]), b"");
    assert!(stdout(&o).contains("walk: deterministic"), "{}", stdout(&o));
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
    // Some inputs are invalid: exit code 1, as `iri check`.
    assert_eq!(o.status.code(), Some(1), "stderr:\n{}", stderr(&o));
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
        let invalid = o.stdout.starts_with(b"invalid") || o.stdout.windows(8).any(|w| w == b"\ninvalid");
        assert_eq!(
            o.status.code(),
            Some(i32::from(invalid)),
            "stderr:\n{}",
            stderr(&o)
        );
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
    assert_eq!(o.status.code(), Some(1), "stderr:\n{}", stderr(&o));
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

#[test]
fn match_exits_0_only_when_every_input_is_valid() {
    let iri = spec("rfc3987.abnf");
    let m = |stdin: &[u8]| {
        run(&args(&[&"match", &"--rule", &"IRI-reference", &iri]), stdin)
            .status
            .code()
    };
    assert_eq!(m(b"http://a/\n../b\n"), Some(0));
    assert_eq!(m(b"http://a/\na b\n"), Some(1));
    assert_eq!(m(b""), Some(0));
}

#[test]
fn check_warns_about_core_rule_redefinitions_and_bounds_without_effect() {
    let path = temp_spec(
        "lints.abnf",
        b"a = 1*[ \"x\" ] b c\nb = 0*0\"y\" DIGIT\nDIGIT = \"d\"\nc = 0\"z\"\n",
    );
    let o = run(&args(&[&"check", &path]), b"");
    // Warnings only: the file compiles.
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    for (warning, at) in [
        (
            "[no-effect]: rule `a` repeats an optional element at least 1 time",
            ":1:1",
        ),
        ("[no-effect]: rule `b` repeats an element at most 0 times", ":2:1"),
        (
            "[core-rule-redefined]: rule `DIGIT` redefines the core rule `DIGIT`",
            ":3:1",
        ),
    ] {
        assert!(err.contains(&format!("warning{warning}")), "{warning}:\n{err}");
        assert!(err.contains(&format!("{}{at}", path.display())), "{at}:\n{err}");
    }
    // `c = 0"z"` names the empty string on purpose (RFC 3986's `path-empty`).
    assert!(!err.contains("rule `c`"), "{err}");
    assert!(stdout(&o).contains("3 warnings"), "{}", stdout(&o));
    // The `.bnf` dialect's `1*[ x ]` too; its grammars define `digit` themselves.
    let bnf = temp_spec("lints.bnf", b"a = 1*[ \"x\" | digit ]\ndigit = \"0\" | \"1\"\n");
    let o = run(&args(&[&"check", &bnf]), b"");
    let err = stderr(&o);
    assert!(err.contains("rule `a` repeats an optional element"), "{err}");
    assert!(!err.contains("core rule"), "{err}");
}

// ---- hostile input: bounded time and memory (issue 16) ----------------------

/// Runs the command with `args` under a virtual memory limit (`ulimit -v`,
/// in KiB) and a wall-clock limit, both generous: they catch quadratic and
/// unbounded behaviour (minutes, gigabytes), not a slow machine. Returns the
/// output, or panics naming the limit that was hit.
fn run_bounded(args: &[&std::ffi::OsStr], memory_kib: u64, seconds: u64) -> Output {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {memory_kib} && exec \"$0\" \"$@\""))
        .arg(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run abnf-codegen under sh");
    // Read both pipes on threads so that a large output cannot block it.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut out, &mut v).map(|_| v)
    });
    let err_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut err, &mut v).map(|_| v)
    });
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > std::time::Duration::from_secs(seconds) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} did not finish within {seconds} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let output = Output {
        status,
        stdout: out_t.join().unwrap().unwrap(),
        stderr: err_t.join().unwrap().unwrap(),
    };
    assert!(
        !stderr(&output).contains("memory allocation") && !stderr(&output).contains("panicked"),
        "{args:?} ran out of its {memory_kib} KiB or panicked:\n{}",
        stderr(&output)
    );
    output
}

const GIB: u64 = 1 << 20; // in KiB

/// One 4 MB line of `"a" / "a" / ...`: the lexer rescanned the rest of the
/// line for every string (188 s); the excerpt echoed the whole line (4 MB of
/// standard error).
#[test]
fn a_four_megabyte_line_is_linear_and_its_excerpt_is_short() {
    let n = (4 << 20) / 6 - 2;
    let mut text = String::from("a = \"a\"");
    for _ in 1..n {
        text.push_str(" / \"a\"");
    }
    text.push_str(" / |\n");
    let path = temp_spec("long-line.abnf", text.as_bytes());
    let o = run_bounded(&args(&[&"check", &path]), 2 * GIB, 90);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("unexpected character `|`"), "{err}");
    assert!(
        err.len() < 2000,
        "{} bytes of diagnostics for one error",
        err.len()
    );
}

/// 8,000 undefined names (each was compared with every defined one for
/// "did you mean": 38 s), and two 150,000-character names (edit distance
/// quadratic in the length: 45 s).
#[test]
fn many_undefined_names_and_long_names_are_bounded() {
    let mut text = String::from("r =");
    for i in 0..8000 {
        text.push_str(&format!(" u{i}xyzq"));
    }
    text.push('\n');
    for i in 0..8000 {
        text.push_str(&format!("d{i}abc = \"x\"\n"));
    }
    let path = temp_spec("undefined.abnf", text.as_bytes());
    let o = run_bounded(&args(&[&"check", &path]), 2 * GIB, 60);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o)
            .matches("error[undefined-rule]: undefined rule")
            .count(),
        8000
    );

    let long = "a".repeat(150_000);
    let text = format!("r = {long}b\n{long}c = \"x\"\n");
    let path = temp_spec("long-names.abnf", text.as_bytes());
    let o = run_bounded(&args(&[&"check", &path]), 2 * GIB, 60);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).len() < 4000, "{}", stderr(&o).len());
}

/// A 39-byte grammar whose DFA has 2^20 states: refused with the rule's name
/// and size, not written out (98 MB). (Written with rules `a` and `b` for
/// the letters, it compiles: as a network whose calls to `a` and `b` are
/// apart from the byte `a`, the general walk sorts them out.)
#[test]
fn generate_refuses_output_beyond_the_limit() {
    let path = temp_spec(
        "big_output.abnf",
        b"r = *(\"a\" / b) \"a\" 19(\"a\" / b)\na = \"a\"\nb = \"b\"\n",
    );
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("big-output");
    let _ = std::fs::remove_dir_all(&out);
    let o = run_bounded(&args(&[&"generate", &"--out", &out, &path]), 4 * GIB, 120);
    // The whole file is exported: `r` is left out with a warning that names
    // it and its size, and only the other rules are written.
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("warning[too-large]: the DFA for rule `r` exceeds its size limit"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("`r` is left out of the output"),
        "{}",
        stderr(&o)
    );
    assert!(
        !out.join("big_output/r.le.table").exists(),
        "r's tables were written"
    );
    assert!(
        out.join("big_output/a.le.table").exists(),
        "the other rules are written"
    );
}

/// `; @import` of a FIFO blocked forever, of a device (here a link to
/// `/dev/zero` with a spec extension) read until memory ran out.
#[test]
fn imports_of_fifos_and_devices_end_with_an_error() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("imports-special");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("fifo.abnf");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.abnf")).unwrap();
    let spec = dir.join("main.abnf");
    std::fs::write(&spec, "; @import fifo.abnf x\n; @import zero.abnf y\na = \"x\"\n").unwrap();
    let o = run_bounded(&args(&[&"check", &spec]), GIB, 30);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert_eq!(err.matches("not a regular file").count(), 2, "{err}");
}

/// `sample` ran no checks: a non-regular rule overflowed the stack, nested
/// counted repetitions took 1.6 GB. It now refuses them as `check` does.
#[test]
fn sample_refuses_what_check_refuses() {
    let cases: &[(&str, &[u8], &str)] = &[
        ("rec.abnf", b"a = \"x\" a\n", "a"),
        ("mutual.abnf", b"s = \"a\" t\nt = s \"bc\"\n", "s"),
        (
            "nested.abnf",
            b"r = 3*3(3*3(3*3(3*3(3*3(3*3(3*3(3*3(3*3(3*3(3*3(3*3(3*3(3*3(3*3(3*3(3*3(3*3(3*3(3*3(\"x\"))))))))))))))))))))\n",
            "r",
        ),
        ("surrogate.abnf", b"a = %xD800\n", "a"),
    ];
    for (name, text, rule) in cases {
        let path = temp_spec(name, text);
        let check = run_bounded(&args(&[&"check", &"--rule", rule, &path]), GIB, 60);
        for extra in [&[][..], &["--invalid"][..]] {
            let mut a: Vec<&std::ffi::OsStr> = vec!["sample".as_ref(), "--rule".as_ref(), rule.as_ref()];
            a.extend(extra.iter().map(std::ffi::OsStr::new));
            a.push(path.as_os_str());
            let o = run_bounded(&a, GIB, 60);
            assert_eq!(o.status.code(), Some(1), "{name}: {}", stderr(&o));
            assert_eq!(
                stderr(&o),
                stderr(&check),
                "{name}: sample and check --rule disagree"
            );
            assert!(o.stdout.is_empty());
        }
    }
    // A range that starts in the surrogates samples the code points after them.
    let path = temp_spec("after_surrogates.abnf", b"b = %xD800-E001\n");
    let o = run_bounded(&args(&[&"sample", &"--rule", &"b", &"-n", &"20", &path]), GIB, 60);
    assert!(o.status.success(), "{}", stderr(&o));
    for line in stdout(&o).lines() {
        assert!(matches!(line, "\u{E000}" | "\u{E001}"), "{line:?}");
    }
}

/// Every command that prints ends quietly when its reader goes away.
#[test]
fn commands_end_quietly_on_a_closed_pipe() {
    let rfc = specs_dir().join("rfc-text/rfc3986.txt");
    let iri = spec("rfc3987.abnf");
    let (rfc, iri) = (rfc.as_os_str(), iri.as_os_str());
    let commands: Vec<Vec<&std::ffi::OsStr>> = [
        &["extract".as_ref(), rfc][..],
        &[
            "diagram".as_ref(),
            "--rule".as_ref(),
            "IRI-reference".as_ref(),
            iri,
        ],
        &[
            "explain".as_ref(),
            "--rule".as_ref(),
            "IRI-reference".as_ref(),
            iri,
        ],
        &["dot".as_ref(), "--rule".as_ref(), "IRI-reference".as_ref(), iri],
        &[
            "sample".as_ref(),
            "--rule".as_ref(),
            "IRI-reference".as_ref(),
            "-n".as_ref(),
            "100000".as_ref(),
            iri,
        ],
    ]
    .iter()
    .map(|a| a.to_vec())
    .collect();
    for a in commands {
        let mut child = Command::new(BIN)
            .args(&a)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Read a few bytes, then close the pipe.
        let mut buf = [0u8; 10];
        std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut buf).unwrap();
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        assert!(
            o.status.success() && !stderr(&o).contains("panicked"),
            "{a:?} on a closed pipe: {} {}",
            o.status,
            stderr(&o)
        );
    }
}

/// Issue 26: `sample --json` of an octet rule wrote byte 0xE9 as
/// `"\u00e9"`, which `match --json` read back as the two bytes of `é` and
/// rejected. Every record of `sample --json` must now match as written.
#[test]
fn json_samples_of_an_octet_rule_match_as_written() {
    let path = temp_spec(
        "obs.abnf",
        b"; @terminals octets\nfield-value = 1*( %x21-7E / obs-text )\nobs-text = %x80-FF\n",
    );
    let o = run(
        &args(&[
            &"sample",
            &"--rule",
            &"field-value",
            &"-n",
            &"30",
            &"--json",
            &path,
        ]),
        b"",
    );
    assert_eq!(o.status.code(), Some(0), "stderr:\n{}", stderr(&o));
    let records = stdout(&o);
    assert!(
        records.contains("\\udc"),
        "no byte above 0x7F in 30 samples:\n{records}"
    );
    let m = run(
        &args(&[&"match", &"--rule", &"field-value", &"--json", &path]),
        records.as_bytes(),
    );
    assert_eq!(
        m.status.code(),
        Some(0),
        "stdout:\n{}\nstderr:\n{}",
        stdout(&m),
        stderr(&m)
    );
    assert_eq!(stdout(&m).lines().count(), 30);
    assert!(stdout(&m).lines().all(|l| l.ends_with("\"valid\":true}")));
}

/// Issue 26: a grammar with `%x80-FF` and no `@terminals` checked with 0
/// warnings.
#[test]
fn check_warns_about_byte_values_read_as_characters() {
    let path = temp_spec(
        "http-ish.abnf",
        b"field-vchar = VCHAR / obs-text\nobs-text = %x80-FF\n",
    );
    let o = run(&args(&[&"check", &path]), b"");
    let err = stderr(&o);
    assert!(
        err.contains("warning[encoding]: `obs-text` uses %x80-FF"),
        "{err}"
    );
    assert!(err.contains("; @terminals octets"), "{err}");
    let stated = temp_spec(
        "http-octets.abnf",
        b"; @terminals octets\nfield-vchar = VCHAR / obs-text\nobs-text = %x80-FF\n",
    );
    assert!(!stderr(&run(&args(&[&"check", &stated]), b"")).contains("[encoding]"));
    let unicode = temp_spec("uni.abnf", b"c = %x80-FF / %x100-10FFFF\n");
    assert!(!stderr(&run(&args(&[&"check", &unicode]), b"")).contains("[encoding]"));
}

/// `explain --types` prints the types of a rule's typed tree.
#[test]
fn explain_types_shows_the_generated_signatures() {
    let path = temp_spec(
        "qs.abnf",
        b"quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE\nqdtext = %x20-21 / %x23-5B / %x5D-7E\nquoted-pair = \"\\\" %x20-7E\n",
    );
    let o = run(
        &args(&[&"explain", &"--types", &"--rule", &"quoted-string", &path]),
        b"",
    );
    assert_eq!(o.status.code(), Some(0), "stderr:\n{}", stderr(&o));
    let out = stdout(&o);
    for want in [
        "pub struct QuotedString<'a> {",
        "pub qdtext_or_quoted_pairs: List<'a, QuotedStringItem<'a>>,",
        "pub kind: QuotedStringItemKind<'a>,",
        "    Qdtext(&'a str),\n    QuotedPair(&'a str),",
    ] {
        assert!(out.contains(want), "no {want:?} in:\n{out}");
    }
    let o = run(&args(&[&"explain", &"--types", &"--rule", &"qdtext", &path]), b"");
    assert!(stdout(&o).contains("`qdtext` has no type"), "{}", stdout(&o));
}
