//! The `iri parse` command: the exact JSON it prints, `--rule`, errors and
//! exit codes, and `--` before inputs that start with `-`.

use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_iri");

fn iri(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run iri")
}

fn parse(args: &[&str]) -> Output {
    let mut all = vec!["parse"];
    all.extend_from_slice(args);
    iri(&all)
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 output")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `iri parse ARGS`, expects success and exactly `json` and a newline.
fn ok(args: &[&str], json: &str) {
    let o = parse(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: stderr {}", stderr(&o));
    assert_eq!(stdout(&o), format!("{json}\n"), "{args:?}");
    assert!(o.stderr.is_empty(), "{args:?}: stderr {}", stderr(&o));
}

/// Runs `iri parse ARGS`, expects exit 1, nothing on stdout, and one error
/// line on stderr that starts with `prefix` and contains each of `parts`.
fn invalid(args: &[&str], prefix: &str, parts: &[&str]) {
    let o = parse(args);
    assert_eq!(o.status.code(), Some(1), "{args:?}: stdout {}", stdout(&o));
    assert!(o.stdout.is_empty(), "{args:?}: stdout {}", stdout(&o));
    let err = stderr(&o);
    assert!(err.starts_with(prefix), "{args:?}: {err:?}");
    assert!(
        err.ends_with('\n') && err.lines().count() == 1,
        "{args:?}: {err:?}"
    );
    for part in parts {
        assert!(err.contains(part), "{args:?}: {err:?} lacks {part:?}");
    }
}

#[test]
fn full_iri() {
    ok(
        &["http://user:pw@example.org:8080/a/b?q=1#top"],
        r#"{"scheme":"http","userinfo":"user:pw","host":"example.org","host_kind":"reg-name","port":"8080","path":"/a/b","query":"q=1","fragment":"top"}"#,
    );
}

#[test]
fn absent_components_are_null() {
    ok(
        &["http://a/b"],
        r#"{"scheme":"http","userinfo":null,"host":"a","host_kind":"reg-name","port":null,"path":"/b","query":null,"fragment":null}"#,
    );
    ok(
        &["mailto:a@example.org"],
        r#"{"scheme":"mailto","userinfo":null,"host":null,"host_kind":null,"port":null,"path":"a@example.org","query":null,"fragment":null}"#,
    );
    // The empty string is a valid (relative) reference: only the path, empty.
    ok(
        &[""],
        r#"{"scheme":null,"userinfo":null,"host":null,"host_kind":null,"port":null,"path":"","query":null,"fragment":null}"#,
    );
}

#[test]
fn empty_components_are_empty_strings() {
    ok(
        &["//@:?#"],
        r#"{"scheme":null,"userinfo":"","host":"","host_kind":"reg-name","port":"","path":"","query":"","fragment":""}"#,
    );
    ok(
        &["http://a:/?"],
        r#"{"scheme":"http","userinfo":null,"host":"a","host_kind":"reg-name","port":"","path":"/","query":"","fragment":null}"#,
    );
    ok(
        &["s:#"],
        r#"{"scheme":"s","userinfo":null,"host":null,"host_kind":null,"port":null,"path":"","query":null,"fragment":""}"#,
    );
}

#[test]
fn host_kinds() {
    ok(
        &["http://1.2.3.4/"],
        r#"{"scheme":"http","userinfo":null,"host":"1.2.3.4","host_kind":"ipv4","port":null,"path":"/","query":null,"fragment":null}"#,
    );
    ok(
        &["http://1.2.3.4.5/"],
        r#"{"scheme":"http","userinfo":null,"host":"1.2.3.4.5","host_kind":"reg-name","port":null,"path":"/","query":null,"fragment":null}"#,
    );
    ok(
        &["http://256.1.1.1/"],
        r#"{"scheme":"http","userinfo":null,"host":"256.1.1.1","host_kind":"reg-name","port":null,"path":"/","query":null,"fragment":null}"#,
    );
    // IP literals keep their brackets in "host".
    ok(
        &["//a:b@[2001:db8::7]:1"],
        r#"{"scheme":null,"userinfo":"a:b","host":"[2001:db8::7]","host_kind":"ipv6","port":"1","path":"","query":null,"fragment":null}"#,
    );
    ok(
        &["x://[v1.a:b]/"],
        r#"{"scheme":"x","userinfo":null,"host":"[v1.a:b]","host_kind":"ipvfuture","port":null,"path":"/","query":null,"fragment":null}"#,
    );
}

#[test]
fn relative_references() {
    ok(
        &["a/b:c"],
        r#"{"scheme":null,"userinfo":null,"host":null,"host_kind":null,"port":null,"path":"a/b:c","query":null,"fragment":null}"#,
    );
    ok(
        &["../x?y#z"],
        r#"{"scheme":null,"userinfo":null,"host":null,"host_kind":null,"port":null,"path":"../x","query":"y","fragment":"z"}"#,
    );
}

#[test]
fn non_ascii_is_printed_as_is() {
    ok(
        &["https://例え.jp/résumé?q=値#片"],
        r#"{"scheme":"https","userinfo":null,"host":"例え.jp","host_kind":"reg-name","port":null,"path":"/résumé","query":"q=値","fragment":"片"}"#,
    );
    // Private-use characters are allowed in the query.
    let o = parse(&["s:?\u{E000}"]);
    assert_eq!(o.status.code(), Some(0));
    let json = stdout(&o);
    assert!(json.contains("\"query\":\"\u{E000}\""), "{json}");
}

#[test]
fn rule_option() {
    ok(
        &["--rule", "rfc3986:URI", "http://a/b?c"],
        r#"{"scheme":"http","userinfo":null,"host":"a","host_kind":"reg-name","port":null,"path":"/b","query":"c","fragment":null}"#,
    );
    ok(
        &["--rule=rfc3986:URI", "urn:isbn:0451450523"],
        r#"{"scheme":"urn","userinfo":null,"host":null,"host_kind":null,"port":null,"path":"isbn:0451450523","query":null,"fragment":null}"#,
    );
    ok(
        &["--rule", "rfc3986:URI-reference", "//h"],
        r#"{"scheme":null,"userinfo":null,"host":"h","host_kind":"reg-name","port":null,"path":"","query":null,"fragment":null}"#,
    );
    ok(
        &["--rule", "rfc3987:IRI", "http://é/"],
        r#"{"scheme":"http","userinfo":null,"host":"é","host_kind":"reg-name","port":null,"path":"/","query":null,"fragment":null}"#,
    );
    // The option may follow the input.
    ok(
        &["s:x", "--rule", "rfc3986:URI"],
        r#"{"scheme":"s","userinfo":null,"host":null,"host_kind":null,"port":null,"path":"x","query":null,"fragment":null}"#,
    );
    // What one rule rejects.
    invalid(
        &["--rule", "rfc3986:URI", "//a"],
        "iri: invalid URI: ",
        &["byte 0", "(rfc3986:URI)"],
    );
    invalid(
        &["--rule", "rfc3986:URI", "http://例え.jp/"],
        "iri: invalid URI: ",
        &["'例'", "byte 7", "(rfc3986:URI)"],
    );
    invalid(
        &["--rule", "rfc3986:URI-reference", "/é"],
        "iri: invalid URI reference: ",
        &["byte 1", "(rfc3986:URI-reference)"],
    );
    invalid(
        &["--rule", "rfc3987:IRI", "a/b"],
        "iri: invalid IRI: ",
        &["(rfc3987:IRI)"],
    );
}

#[test]
fn unsupported_rule_exits_2() {
    for rule in ["rfc3986:authority", "nope:IRI", "IRI", ""] {
        let o = parse(&["--rule", rule, "http://a/"]);
        assert_eq!(o.status.code(), Some(2), "{rule:?}");
        assert!(o.stdout.is_empty());
        assert!(
            stderr(&o).contains("rfc3987:IRI-reference"),
            "{rule:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn invalid_input_exits_1() {
    invalid(
        &["http://a b/"],
        "iri: invalid IRI reference: ",
        &["unexpected ' ' at byte 8", "(rfc3987:IRI-reference)"],
    );
    invalid(
        &["http://[::1"],
        "iri: invalid IRI reference: ",
        &["end of input at byte 11", "(rfc3987:IRI-reference)"],
    );
    invalid(&["%zz"], "iri: invalid IRI reference: ", &["byte 1"]);
    invalid(
        &["http://a/\u{E000}"],
        "iri: invalid IRI reference: ",
        &["byte 9"],
    );
    let o = parse(&["a b"]);
    assert_eq!(
        stderr(&o),
        "iri: invalid IRI reference: unexpected ' ' at byte 1; expected iunreserved, sub-delims, '#', '%', '/', \
         ':', '?', '@' (rfc3987:IRI-reference)\n"
    );
}

#[test]
fn double_dash_before_inputs_starting_with_dash() {
    ok(
        &["--", "-a"],
        r#"{"scheme":null,"userinfo":null,"host":null,"host_kind":null,"port":null,"path":"-a","query":null,"fragment":null}"#,
    );
    ok(
        &["--", "--rule"],
        r#"{"scheme":null,"userinfo":null,"host":null,"host_kind":null,"port":null,"path":"--rule","query":null,"fragment":null}"#,
    );
    ok(
        &["--rule", "rfc3986:URI-reference", "--", "-._~/x"],
        r#"{"scheme":null,"userinfo":null,"host":null,"host_kind":null,"port":null,"path":"-._~/x","query":null,"fragment":null}"#,
    );
    // After "--" an invalid input is still an invalid input, not an option.
    invalid(&["--", "-:x"], "iri: invalid IRI reference: ", &["byte 1"]);
    // Without "--" it is taken for an option: a usage error.
    let o = parse(&["-a"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert!(stderr(&o).contains("-a"), "{}", stderr(&o));
}

#[test]
fn one_json_line_per_input() {
    let o = parse(&["http://a/", "b?c"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines: Vec<&str> = std::str::from_utf8(&o.stdout).unwrap().lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with(r#"{"scheme":"http","#), "{}", lines[0]);
    assert!(lines[1].starts_with(r#"{"scheme":null,"#), "{}", lines[1]);
    assert!(
        lines[1].ends_with(r#""query":"c","fragment":null}"#),
        "{}",
        lines[1]
    );
    // No inputs and an empty standard input: no output.
    let o = parse(&[]);
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stdout.is_empty());
    // An invalid input among valid ones: its error names its place, the
    // others are printed, and the exit code is 1.
    let o = parse(&["http://a/", "a b"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o).lines().count(), 1);
    assert!(
        stderr(&o).starts_with("iri: argument 2: invalid IRI reference"),
        "{}",
        stderr(&o)
    );
}
