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
