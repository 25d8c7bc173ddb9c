//! The operation subcommands: `iri resolve BASE REF`, `iri to-uri IRI`,
//! `iri to-iri URI` and `iri normalize IRI`. Each prints its result alone on
//! one line and exits 0; invalid input gives one error line on standard
//! error and exit code 1; `--` ends the options.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_iri");

fn iri<S: AsRef<OsStr>>(args: &[S]) -> Output {
    Command::new(BIN).args(args).output().expect("run iri")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 output")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `iri ARGS`; expects exit 0, exactly `want` and a newline on
/// standard output, nothing on standard error.
fn ok(args: &[&str], want: &str) {
    let o = iri(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: stderr {}", stderr(&o));
    assert_eq!(stdout(&o), format!("{want}\n"), "{args:?}");
    assert!(o.stderr.is_empty(), "{args:?}: stderr {}", stderr(&o));
}

/// Runs `iri ARGS`; expects exit 1, nothing on standard output, and one
/// line on standard error that starts with "iri: " and contains `part`.
fn fails(args: &[&str], part: &str) {
    let o = iri(args);
    assert_eq!(o.status.code(), Some(1), "{args:?}: stdout {}", stdout(&o));
    assert!(o.stdout.is_empty(), "{args:?}: stdout {}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.starts_with("iri: ") && err.ends_with('\n'),
        "{args:?}: {err:?}"
    );
    assert_eq!(err.lines().count(), 1, "{args:?}: {err:?}");
    assert!(err.contains(part), "{args:?}: {err:?} lacks {part:?}");
}

// ---------------------------------------------------------------------------
// iri resolve BASE REF
// ---------------------------------------------------------------------------

#[test]
fn resolve_rfc3986_examples() {
    let base = "http://a/b/c/d;p?q";
    for (r, want) in [
        ("g:h", "g:h"),
        ("g", "http://a/b/c/g"),
        ("//g", "http://g"),
        ("?y", "http://a/b/c/d;p?y"),
        ("#s", "http://a/b/c/d;p?q#s"),
        ("", "http://a/b/c/d;p?q"),
        ("../../../g", "http://a/g"),
        ("g;x=1/../y", "http://a/b/c/y"),
        ("g#s/../x", "http://a/b/c/g#s/../x"),
        ("http:g", "http:g"),
    ] {
        ok(&["resolve", base, r], want);
    }
}

#[test]
fn resolve_iris() {
    ok(
        &["resolve", "http://例え.jp/a/b#frag", "../引き出し?q"],
        "http://例え.jp/引き出し?q",
    );
    // A reference that starts with "-" after "--".
    ok(&["resolve", "--", "s://h/a/b", "-x"], "s://h/a/-x");
    // No authority and a path starting with "//": written with "/.".
    ok(&["resolve", "f:/a", ".//g"], "f:/.//g");
}

#[test]
fn resolve_errors() {
    // The base must be an IRI (with a scheme).
    fails(&["resolve", "/relative", "g"], "BASE: invalid IRI");
    fails(&["resolve", "http://a/", "a b"], "REF: invalid IRI reference");
    fails(&["resolve", "http://a/", "/\u{202E}"], "U+202E");
    let o = iri(&["resolve"]);
    assert_eq!(o.status.code(), Some(2), "missing BASE is a usage error");
}

// ---------------------------------------------------------------------------
// iri to-uri IRI, iri to-iri URI
// ---------------------------------------------------------------------------

#[test]
fn to_uri() {
    ok(
        &["to-uri", "http://résumé.example.org/red%09rosé#red"],
        "http://r%C3%A9sum%C3%A9.example.org/red%09ros%C3%A9#red",
    );
    ok(
        &["to-uri", "?sushi=🍣&p=\u{E000}"],
        "?sushi=%F0%9F%8D%A3&p=%EE%80%80",
    );
    // An identity on URIs.
    ok(&["to-uri", "http://a/%7e?b#c"], "http://a/%7e?b#c");
    ok(&["to-uri", "--", "-é"], "-%C3%A9");
}

#[test]
fn to_uri_errors() {
    fails(&["to-uri", "http://a b/"], "invalid IRI reference");
    // RFC 3987 §4.1: no bidi formatting characters.
    fails(&["to-uri", "http://a/\u{200F}"], "RFC 3987 §4.1");
    // iprivate outside the query.
    fails(&["to-uri", "/\u{E000}"], "invalid IRI reference");
}

#[test]
fn to_iri_rfc3987_3_2_1_examples() {
    ok(
        &["to-iri", "http://www.example.org/D%C3%BCrst"],
        "http://www.example.org/Dürst",
    );
    ok(
        &["to-iri", "http://www.example.org/D%FCrst"],
        "http://www.example.org/D%FCrst",
    );
    ok(
        &["to-iri", "http://xn--99zt52a.example.org/%e2%80%ae"],
        "http://xn--99zt52a.example.org/%E2%80%AE",
    );
    ok(
        &["to-iri", "/%2f%25%41?%EE%80%80#%EE%80%80"],
        "/%2f%25A?\u{E000}#%EE%80%80",
    );
}

#[test]
fn to_iri_errors() {
    // The input must be a URI reference: ASCII only.
    fails(&["to-iri", "http://a/é"], "invalid URI reference");
    fails(&["to-iri", "http://a/%zz"], "invalid URI reference");
}

// ---------------------------------------------------------------------------
// iri normalize IRI
// ---------------------------------------------------------------------------

#[test]
fn normalize() {
    ok(
        &["normalize", "eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9"],
        "example://a/b/c/%7Bfoo%7D/rosé",
    );
    ok(
        &["normalize", "HTTPs://EXaMPLE.COM:/pA/Th?Query#Frag"],
        "https://example.com/pA/Th?Query#Frag",
    );
    ok(
        &["normalize", "http://example.com/?a=%CE%B1&b=%CE%CE%B1%B1"],
        "http://example.com/?a=α&b=%CEα%B1",
    );
    ok(&["normalize", "scheme:/a/b/../..//c"], "scheme:/.//c");
    ok(
        &["normalize", "//[0:0:0:0:0:ffff:192.0.2.1]"],
        "//[::ffff:192.0.2.1]",
    );
    // Scheme-based by default (RFC 3987 §5.3.3): the default port goes and
    // the empty path becomes "/"; syntax-based only on request.
    ok(&["normalize", "http://example.com:80"], "http://example.com/");
    ok(
        &["normalize", "--rung", "syntax", "http://example.com:80"],
        "http://example.com:80",
    );
    // Relative paths keep their dots.
    ok(&["normalize", "--", "-a/../b"], "-a/../b");
    // Percent-encoded bidi formatting characters stay encoded.
    ok(&["normalize", "/%e2%80%8e"], "/%E2%80%8E");
}

#[test]
fn normalize_errors() {
    fails(&["normalize", "http://a/b c"], "invalid IRI reference");
    fails(&["normalize", "/\u{202A}x\u{202C}"], "U+202A");
}

// ---------------------------------------------------------------------------
// Common behaviour
// ---------------------------------------------------------------------------

#[test]
fn invalid_utf8_is_an_input_error() {
    for sub in ["to-uri", "to-iri", "normalize"] {
        let o = iri(&[OsStr::new(sub), OsStr::from_bytes(b"/\xFF")]);
        assert_eq!(o.status.code(), Some(1), "{sub}");
        assert!(stderr(&o).contains("not valid UTF-8"), "{sub}: {}", stderr(&o));
        assert!(o.stdout.is_empty());
    }
    let o = iri(&[
        OsStr::new("resolve"),
        OsStr::new("http://a/"),
        OsStr::from_bytes(b"\xFF"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("REF is not valid UTF-8"), "{}", stderr(&o));
}

#[test]
fn options_end_at_double_dash() {
    // Without "--", an argument that starts with "-" is taken for an option.
    let o = iri(&["normalize", "-x"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    ok(&["normalize", "--", "-x"], "-x");
    ok(&["to-iri", "--", "-%41"], "-A");
}

#[test]
fn several_inputs_give_one_line_each() {
    for (sub, a, b, want) in [
        ("to-uri", "/é", "/ü", "/%C3%A9\n/%C3%BC\n"),
        ("to-iri", "/%C3%A9", "/%C3%BC", "/é\n/ü\n"),
        ("normalize", "/%7e", "HTTP://A", "/~\nhttp://a/\n"),
    ] {
        let o = iri(&[sub, a, b]);
        assert_eq!(o.status.code(), Some(0), "{sub}: {}", stderr(&o));
        assert_eq!(stdout(&o), want, "{sub}");
    }
    let o = iri(&["resolve", "s://h/a/b", "c", "../d"]);
    assert_eq!(stdout(&o), "s://h/a/c\ns://h/d\n");
    // Without inputs (and with an empty standard input): nothing to do.
    for sub in ["to-uri", "to-iri", "normalize"] {
        let o = iri(&[sub]);
        assert_eq!(o.status.code(), Some(0), "{sub} without input");
        assert!(o.stdout.is_empty(), "{sub} without input");
    }
}

#[test]
fn help_lists_the_operations() {
    let o = iri(&["--help"]);
    let out = stdout(&o);
    for sub in ["check", "parse", "resolve", "to-uri", "to-iri", "normalize"] {
        assert!(out.contains(&format!("  {sub} ")), "{sub} missing from:\n{out}");
    }
}

// ---------------------------------------------------------------------------
// iri normalize: the rungs as options
// ---------------------------------------------------------------------------

#[test]
fn normalize_rungs() {
    // RFC 3987 §5.3.3 / RFC 3986 §6.2.3: default ports of the schemes the
    // normalizer knows, and "/" for an empty path where the scheme says so.
    for (input, scheme, syntax) in [
        (
            "HTTP://Example.COM:80",
            "http://example.com/",
            "http://example.com:80",
        ),
        ("https://h:443/a", "https://h/a", "https://h:443/a"),
        ("ws://h:80", "ws://h/", "ws://h:80"),
        ("wss://h:443?q", "wss://h/?q", "wss://h:443?q"),
        ("ftp://h:21/f", "ftp://h/f", "ftp://h:21/f"),
        // ftp: no rule making the empty path "/".
        ("ftp://h:21", "ftp://h", "ftp://h:21"),
        // Not the default port: kept.
        ("http://h:8080", "http://h:8080/", "http://h:8080"),
        // file: localhost is the empty host (RFC 3986 §3.2.2, RFC 8089 §2).
        (
            "file://LOCALHOST/etc/hosts",
            "file:///etc/hosts",
            "file://localhost/etc/hosts",
        ),
        ("file://host/x", "file://host/x", "file://host/x"),
        // mailto: the domain is case-insensitive, the local part is not.
        (
            "mailto:Joe@Example.ORG,Ann@B.C",
            "mailto:Joe@example.org,Ann@b.c",
            "mailto:Joe@Example.ORG,Ann@B.C",
        ),
        // Other schemes: syntax-based only.
        ("foo://h:80", "foo://h:80", "foo://h:80"),
    ] {
        ok(&["normalize", input], scheme);
        ok(&["normalize", "--rung", "scheme", input], scheme);
        ok(&["normalize", "--rung", "syntax", input], syntax);
    }
    assert_eq!(
        iri(&["normalize", "--rung", "simple", "a"]).status.code(),
        Some(2)
    );
}

#[test]
fn normalize_nfc_and_uri_output() {
    // §5.3.2.2: NFC on request only.
    let decomposed = "http://www.example.org/re\u{301}sume\u{301}.html";
    ok(&["normalize", decomposed], decomposed);
    ok(
        &["normalize", "--nfc", decomposed],
        "http://www.example.org/r\u{E9}sum\u{E9}.html",
    );
    // URI output: the normalized IRI mapped to a URI (§3.1), normalized
    // as a URI (RFC 3986 §6.2.2: only unreserved characters decoded).
    ok(
        &["normalize", "--uri", "HTTP://Example.org:80/%7e/é?%C3%A9"],
        "http://example.org/~/%C3%A9?%C3%A9",
    );
    ok(
        &["normalize", "--uri", "--nfc", decomposed],
        "http://www.example.org/r%C3%A9sum%C3%A9.html",
    );
    ok(
        &["normalize", "--uri", "--rung", "syntax", "http://a:80"],
        "http://a:80",
    );
}

// ---------------------------------------------------------------------------
// iri compare A B
// ---------------------------------------------------------------------------

fn compare(args: &[&str]) -> (Option<i32>, String) {
    let mut all = vec!["compare"];
    all.extend_from_slice(args);
    let o = iri(&all);
    (o.status.code(), stdout(&o))
}

#[test]
fn compare_exit_codes_and_rungs() {
    // §5.3.3's four equivalent IRIs.
    let all = [
        "http://example.com",
        "http://example.com/",
        "http://example.com:/",
        "http://example.com:80/",
    ];
    for a in all {
        for b in all {
            assert_eq!(compare(&[a, b]), (Some(0), "equal\n".into()), "{a} {b}");
        }
    }
    // Simple string comparison (§5.3.1) tells them apart.
    assert_eq!(
        compare(&["--rung", "simple", all[0], all[1]]),
        (Some(1), "different\n".into())
    );
    // Syntax-based (§5.3.2): case and percent-encoding, not ports.
    let (a, b) = (
        "eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9",
        "example://a/b/c/%7Bfoo%7D/ros\u{E9}",
    );
    assert_eq!(compare(&["--rung", "syntax", a, b]), (Some(0), "equal\n".into()));
    assert_eq!(compare(&["--rung", "simple", a, b]).0, Some(1));
    assert_eq!(compare(&["--rung", "syntax", all[0], all[3]]).0, Some(1));
    // Fragments count, and "?" is not nothing (§5.3.3).
    assert_eq!(compare(&["http://example.com/?", all[1]]).0, Some(1));
    assert_eq!(compare(&["http://a/#x", "http://a/#y"]).0, Some(1));
    // NFC only with --nfc.
    let (nfd, nfc) = ("/re\u{301}sume\u{301}", "/r\u{E9}sum\u{E9}");
    assert_eq!(compare(&[nfd, nfc]).0, Some(1));
    assert_eq!(compare(&["--nfc", nfd, nfc]).0, Some(0));
    assert_eq!(compare(&["--nfc", "--rung", "simple", nfd, nfc]).0, Some(2));
}

#[test]
fn compare_errors_and_stdin() {
    // An input that is not an IRI reference: exit 2, not "different".
    let o = iri(&["compare", "a b", "a"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert!(stderr(&o).contains("A: invalid IRI reference"), "{}", stderr(&o));
    let o = iri(&["compare", "http://a/", "/\u{202E}"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("B: ") && stderr(&o).contains("U+202E"),
        "{}",
        stderr(&o)
    );
    // One input is a usage error.
    assert_eq!(iri(&["compare", "a"]).status.code(), Some(2));
    // Pairs from standard input, tab-separated; one answer per line.
    let o = with_stdin(&["compare"], "http://a\tHTTP://A:80/\nhttp://a/\thttp://b/\n");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "equal\ndifferent\n");
    let o = with_stdin(
        &["compare", "--json", "--rung", "syntax"],
        "HTTP://A/%7e\thttp://a/~\n",
    );
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"a": "HTTP://A/%7e", "b": "http://a/~", "rung": "syntax", "equal": true,
                           "a_normalized": "http://a/~", "b_normalized": "http://a/~"})
    );
    // A line without a tab is an input error.
    let o = with_stdin(&["compare"], "http://a/\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("line 1"), "{}", stderr(&o));
}

fn with_stdin(args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

// ---------------------------------------------------------------------------
// iri relativize BASE TARGET
// ---------------------------------------------------------------------------

#[test]
fn relativize() {
    let base = "http://a/b/c/d;p?q";
    // The inverse of RFC 3986 §5.4.1's resolutions.
    for (target, want) in [
        ("http://a/b/c/g", "g"),
        ("http://a/b/c/g?y", "g?y"),
        ("http://a/b/c/d;p?y", "?y"),
        ("http://a/b/c/d;p?q#s", "#s"),
        ("http://a/b/g", "../g"),
        ("http://g", "//g"),
        ("g:h", "g:h"),
    ] {
        ok(&["relativize", base, target], want);
        // And back.
        ok(&["resolve", base, want], target);
    }
    ok(
        &["relativize", "http://例え.jp/a/b", "http://例え.jp/a/引き出し"],
        "引き出し",
    );
    fails(&["relativize", "/no-scheme", "http://a/"], "BASE: invalid IRI");
    fails(&["relativize", "http://a/", "/relative"], "TARGET: invalid IRI");
}

// ---------------------------------------------------------------------------
// iri to-uri --idna, iri to-iri (display-safe by default)
// ---------------------------------------------------------------------------

#[test]
fn to_uri_idna() {
    // RFC 3987 §3.1's example, with the optional ToASCII step.
    ok(
        &["to-uri", "--idna", "http://résumé.example.org/ré"],
        "http://xn--rsum-bpad.example.org/r%C3%A9",
    );
    // Only for schemes that use DNS names.
    ok(&["to-uri", "--idna", "urn://résumé/"], "urn://r%C3%A9sum%C3%A9/");
    // ToASCII can fail; then the IRI cannot be resolved (§3.1).
    fails(&["to-uri", "--idna", "http://-ü.de/"], "IDNA ToASCII");
}

#[test]
fn to_iri_keeps_look_alikes_encoded() {
    // RFC 3987 §6.1, §8: look-alikes, invisible characters and bidi
    // controls (also those newer than RFC 3987) stay percent-encoded for
    // display; --literal is the plain §3.2 conversion.
    for (encoded, c) in [
        ("%E2%88%95", '\u{2215}'), // DIVISION SLASH, reads as "/"
        ("%EF%BC%8F", '\u{FF0F}'), // FULLWIDTH SOLIDUS
        ("%E3%80%80", '\u{3000}'), // IDEOGRAPHIC SPACE
        ("%C2%A0", '\u{A0}'),      // NO-BREAK SPACE
        ("%E2%80%8B", '\u{200B}'), // ZERO WIDTH SPACE
        ("%EF%BB%BF", '\u{FEFF}'), // ZERO WIDTH NO-BREAK SPACE
        ("%EF%BD%81", '\u{FF41}'), // FULLWIDTH LATIN SMALL LETTER A
        ("%EF%BC%A1", '\u{FF21}'), // FULLWIDTH LATIN CAPITAL LETTER A
        ("%E2%81%A6", '\u{2066}'), // LRI
        ("%E2%81%A7", '\u{2067}'), // RLI
        ("%E2%81%A8", '\u{2068}'), // FSI
        ("%E2%81%A9", '\u{2069}'), // PDI
        ("%D8%9C", '\u{61C}'),     // ARABIC LETTER MARK
    ] {
        let uri = format!("http://example.org/a{encoded}b/%C3%A9");
        ok(&["to-iri", &uri], &format!("http://example.org/a{encoded}b/é"));
        ok(
            &["to-iri", "--literal", &uri],
            &format!("http://example.org/a{c}b/é"),
        );
    }
    // §4.1's characters stay encoded either way.
    ok(&["to-iri", "--literal", "/%E2%80%AE"], "/%E2%80%AE");
}

#[test]
fn to_iri_unicode_labels() {
    // RFC 3987 §3.2.1: "xn--99zt52a" may be shown as "納豆".
    let uri = "http://xn--99zt52a.example.org/%e2%80%ae";
    ok(&["to-iri", uri], "http://xn--99zt52a.example.org/%E2%80%AE");
    ok(
        &["to-iri", "--unicode-labels", uri],
        "http://納豆.example.org/%E2%80%AE",
    );
    // Not a valid ACE label: kept as written.
    ok(
        &["to-iri", "--unicode-labels", "http://xn--zz.example/"],
        "http://xn--zz.example/",
    );
    // Not a scheme with DNS names: kept.
    ok(
        &["to-iri", "--unicode-labels", "foo://xn--99zt52a/"],
        "foo://xn--99zt52a/",
    );
}

// ---------------------------------------------------------------------------
// iri lint
// ---------------------------------------------------------------------------

#[test]
fn lint_findings() {
    let lint = |input: &str| {
        let o = iri(&["lint", input]);
        (o.status.code(), stdout(&o))
    };
    assert_eq!(
        lint("http://example.org/résumé"),
        (Some(0), "ok\thttp://example.org/résumé\n".into())
    );
    // §4.1 (MUST NOT), reported where it is.
    let (code, out) = lint("http://exa\u{200E}mple.org/");
    assert_eq!(code, Some(1));
    assert!(
        out.starts_with("bidi-formatting\thttp://exa\u{200E}mple.org/\t10\t"),
        "{out}"
    );
    // §4.2: a label mixing directions breaks both rules.
    let (code, out) = lint("http://abגד.ij/");
    assert_eq!(code, Some(1));
    let kinds: Vec<&str> = out.lines().map(|l| l.split('\t').next().unwrap()).collect();
    assert_eq!(kinds, ["bidi-mixed", "bidi-edges"]);
    // §4.4 Example 1 (legal): no finding.
    assert_eq!(lint("http://ab.גדהוזח.ij/kl/mn/op.html").0, Some(0));
    // §6.1, §8: a look-alike of "/".
    let (_, out) = lint("http://example.org/a\u{2215}b");
    assert!(
        out.starts_with("look-alike\thttp://example.org/a\u{2215}b\t20\t"),
        "{out}"
    );
    // RFC 3986 §3.2.2: percent-encoding in host that is not UTF-8.
    let (_, out) = lint("http://a%FFb/");
    assert!(out.starts_with("host-not-utf8\thttp://a%FFb/\t8\t"), "{out}");
    // §5.3.2.2: not NFC.
    let (_, out) = lint("/re\u{301}sume");
    assert!(out.starts_with("not-nfc\t"), "{out}");
    // Not an IRI reference at all.
    let (code, out) = lint("a b");
    assert_eq!(code, Some(1));
    assert!(out.starts_with("invalid\ta b\t1\t"), "{out}");
}

#[test]
fn lint_json() {
    let o = iri(&["lint", "--json", "/a\u{2215}b\u{202E}"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["valid"], false, "RFC 3987 §4.1: not an IRI");
    let f = v["findings"].as_array().unwrap();
    assert_eq!(f.len(), 2);
    assert_eq!(
        (f[0]["kind"].as_str(), f[0]["start"].as_u64()),
        (Some("look-alike"), Some(2))
    );
    assert_eq!(f[0]["text"], "\u{2215}");
    assert_eq!(
        (f[1]["kind"].as_str(), f[1]["start"].as_u64()),
        (Some("bidi-formatting"), Some(6))
    );
    let o = iri(&["lint", "--json", "http://a/"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "{\"input\":\"http://a/\",\"valid\":true,\"findings\":[]}\n"
    );
}

#[test]
fn help_lists_every_verb_and_the_exit_codes() {
    let o = iri(&["--help"]);
    let out = stdout(&o);
    for sub in [
        "check",
        "parse",
        "resolve",
        "relativize",
        "to-uri",
        "to-iri",
        "normalize",
        "compare",
        "lint",
    ] {
        assert!(out.contains(&format!("  {sub} ")), "{sub} missing from:\n{out}");
    }
    assert!(out.contains("Exit codes:"), "{out}");
}
