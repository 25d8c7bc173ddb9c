//! Recognizers come from the spec text: change the text and the language
//! changes. Also the ABNF semantics the generator must follow (RFC 5234 and
//! RFC 7405): case rules of strings and names, prose references, `=/`, and
//! core rules.

use std::path::PathBuf;

use abnf_codegen::{Compiled, Config};

fn specs_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../specs")
}

fn read_spec(name: &str) -> String {
    let path = specs_dir().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn build_one(file: &str, text: &str, grammar: &str, rules: &[&str]) -> Compiled {
    let mut config = Config::new();
    config.spec_source(file, text).export(grammar, rules);
    config
        .build()
        .unwrap_or_else(|e| panic!("{file} does not build:\n{e}"))
}

fn compile(text: &str) -> Compiled {
    let mut config = Config::new();
    config.spec_source("t.abnf", text);
    config
        .build()
        .unwrap_or_else(|e| panic!("{text:?} does not build:\n{e}"))
}

fn matches(c: &Compiled, rule: &str, input: &str) -> bool {
    c.recognizer("t", rule)
        .unwrap_or_else(|| panic!("no recognizer for {rule}"))
        .is_match(input.as_bytes())
}

#[test]
fn uri_recognizer_follows_the_spec_text() {
    let original = read_spec("rfc3986.abnf");
    let c = build_one("rfc3986.abnf", &original, "rfc3986", &["URI"]);
    let uri = c.recognizer("rfc3986", "URI").unwrap();
    assert_eq!(uri.rule, "URI");
    assert_eq!(uri.grammar, "rfc3986");
    assert!(uri.is_match(b"http://a/~x"));
    assert!(uri.is_match(b"http://a/x"));
    assert!(!uri.is_match(b"http://a/ x"));

    // Take `~` out of `unreserved`.
    let line = "unreserved    = ALPHA / DIGIT / \"-\" / \".\" / \"_\" / \"~\"";
    assert!(original.contains(line), "rfc3986.abnf changed; update this test");
    let modified = original.replace(line, "unreserved    = ALPHA / DIGIT / \"-\" / \".\" / \"_\"");
    assert_ne!(modified, original);
    let c = build_one("rfc3986.abnf", &modified, "rfc3986", &["URI"]);
    let uri = c.recognizer("rfc3986", "URI").unwrap();
    assert!(!uri.is_match(b"http://a/~x"), "`~` is no longer unreserved");
    assert_eq!(uri.full_match(b"http://a/~x"), Err(9), "rejected at the `~`");
    assert!(uri.is_match(b"http://a/x"));
    assert!(
        uri.is_match(b"http://a/%7Ex"),
        "percent-encoded `~` is still fine"
    );
}

#[test]
fn iri_recognizer_from_spec_sources_agrees_with_the_generated_crate() {
    let mut config = Config::new();
    config
        .spec_source("rfc3987.abnf", read_spec("rfc3987.abnf"))
        .spec_source("rfc3986.abnf", read_spec("rfc3986.abnf"))
        .export("rfc3987", &["IRI-reference"])
        .export("rfc3986", &["URI-reference"]);
    let c = config.build().unwrap_or_else(|e| panic!("{e}"));
    let iri = c.recognizer("rfc3987", "iri-REFERENCE").unwrap();
    let uri = c.recognizer("rfc3986", "URI-reference").unwrap();
    let inputs: &[&str] = &[
        "",
        "http://例え.jp/引き出し?q=1#frag",
        "http://a/~x",
        "../a/b?c",
        "//[2001:db8::7]:80/",
        "http://[::1",
        "a b",
        "%zz",
        "http://a/%E2%82%AC",
        "mailto:user@例.jp",
        "http://a/\u{E000}",
        "http://a/?\u{E000}",
        "#\u{FFFD}",
    ];
    for input in inputs {
        assert_eq!(
            iri.full_match(input.as_bytes()),
            iri_grammar::rfc3987::IRI_REFERENCE
                .validate(input)
                .map_err(|e| e.offset()),
            "IRI-reference on {input:?}"
        );
        assert_eq!(
            uri.full_match(input.as_bytes()),
            iri_grammar::rfc3986::URI_REFERENCE
                .validate(input)
                .map_err(|e| e.offset()),
            "URI-reference on {input:?}"
        );
    }
    assert!(iri.is_match("http://例え.jp/".as_bytes()));
    assert!(!uri.is_match("http://例え.jp/".as_bytes()));
}

#[test]
fn iri_recognizer_follows_the_imported_spec_text() {
    // rfc3987.abnf imports `pct-encoded` from rfc3986.abnf: changing the
    // imported file changes the IRI recognizer.
    let iri_text = read_spec("rfc3987.abnf");
    let uri_text = read_spec("rfc3986.abnf");
    let line = "pct-encoded   = \"%\" HEXDIG HEXDIG";
    assert!(uri_text.contains(line), "rfc3986.abnf changed; update this test");
    let build = |uri_text: String| {
        let mut config = Config::new();
        config
            .spec_source("rfc3987.abnf", iri_text.clone())
            .spec_source("rfc3986.abnf", uri_text)
            .export("rfc3987", &["IRI"]);
        config.build().unwrap_or_else(|e| panic!("{e}"))
    };
    let c = build(uri_text.clone());
    assert!(c.recognizer("rfc3987", "IRI").unwrap().is_match(b"http://a/%41"));
    assert!(!c.recognizer("rfc3987", "IRI").unwrap().is_match(b"http://a/%Z1"));
    let c = build(uri_text.replace(line, "pct-encoded   = \"%\" ALPHA HEXDIG"));
    let iri = c.recognizer("rfc3987", "IRI").unwrap();
    assert!(!iri.is_match(b"http://a/%41"));
    assert!(iri.is_match(b"http://a/%Z1"));
}

#[test]
fn quoted_strings_are_case_insensitive() {
    let c = compile("a = \"abc\"\nb = \"A-1\"\n");
    for yes in ["abc", "ABC", "aBc", "AbC"] {
        assert!(matches(&c, "a", yes), "{yes}");
    }
    assert!(!matches(&c, "a", "abd"));
    assert!(!matches(&c, "a", "ab"));
    assert!(matches(&c, "b", "a-1"));
    assert!(matches(&c, "b", "A-1"));
    assert!(!matches(&c, "b", "A_1"), "non-letters match only themselves");
}

#[test]
fn percent_s_strings_are_case_sensitive() {
    let c = compile("s = %s\"aBc\"\nupper = %S\"aBc\"\ni = %i\"aBc\"\nupper-i = %I\"aBc\"\n");
    assert!(matches(&c, "s", "aBc"));
    for no in ["abc", "ABC", "Abc", "aBC"] {
        assert!(!matches(&c, "s", no), "%s\"aBc\" must not match {no}");
        assert!(!matches(&c, "upper", no), "%S\"aBc\" must not match {no}");
    }
    assert!(matches(&c, "upper", "aBc"));
    for yes in ["aBc", "abc", "ABC", "AbC"] {
        assert!(matches(&c, "i", yes), "%i\"aBc\" must match {yes}");
        assert!(matches(&c, "upper-i", yes), "%I\"aBc\" must match {yes}");
    }
    assert!(!matches(&c, "i", "abd"));
}

#[test]
fn percent_s_mixed_with_case_insensitive_parts() {
    let c = compile("m = %s\"GET\" \" \" \"http\"\n");
    assert!(matches(&c, "m", "GET http"));
    assert!(matches(&c, "m", "GET HTTP"));
    assert!(!matches(&c, "m", "get http"));
    assert_eq!(c.recognizer("t", "m").unwrap().full_match(b"GEt http"), Err(2));
}

#[test]
fn prose_naming_a_rule_is_a_reference() {
    let c = compile("a = \"x\" <b>\nb = \"y\" / \"z\"\nempty = 0<b>\nsome = 1*<b>\n");
    assert!(matches(&c, "a", "xy"));
    assert!(matches(&c, "a", "xz"));
    assert!(!matches(&c, "a", "x"));
    assert!(!matches(&c, "a", "x<b>"));
    assert!(
        matches(&c, "empty", ""),
        "0<b> is the empty string (RFC 3986's path-empty)"
    );
    assert!(!matches(&c, "empty", "y"));
    assert!(matches(&c, "some", "yzzy"));
    // Prose with spaces around the name, and a name written in another case.
    let c = compile("a = < b > \"!\"\nB = \"y\"\n");
    assert!(matches(&c, "a", "y!"));
}

#[test]
fn rule_names_are_case_insensitive() {
    let c = compile("Foo = \"f\"\nbar = FOO \"b\" foo fOo\n");
    assert!(matches(&c, "bar", "fbff"));
    assert!(!matches(&c, "bar", "fb"));
    let foo = c.recognizer("t", "FOO").expect("lookup is case-insensitive");
    assert_eq!(foo.rule, "Foo", "the name as defined");
    assert!(foo.is_match(b"F"));
    assert!(c.recognizer("t", "BAR").is_some());
}

#[test]
fn incremental_alternatives_merge() {
    let c = compile("a = \"x\"\nb = \"1\"\na =/ \"y\"\nA =/ \"z\" / \"w\"\n");
    for yes in ["x", "y", "z", "w"] {
        assert!(matches(&c, "a", yes), "{yes}");
    }
    assert!(!matches(&c, "a", "v"));
    assert!(!matches(&c, "a", "xy"));
    assert!(matches(&c, "b", "1"));
    // A rule using the merged one sees every alternative.
    let c = compile("r = 1*a\na = \"x\"\na =/ \"y\"\n");
    assert!(matches(&c, "r", "xyyx"));
}

#[test]
fn core_rules_are_available() {
    let c = compile(
        "h = 1*HEXDIG\nd = 1*DIGIT\nw = ALPHA *(ALPHA / DIGIT)\nq = DQUOTE *VCHAR DQUOTE\nl = \"a\" CRLF \"b\" SP\n",
    );
    assert!(matches(&c, "h", "0aF9"));
    assert!(!matches(&c, "h", "0g"));
    assert!(matches(&c, "d", "0123456789"));
    assert!(!matches(&c, "d", "1a"));
    assert!(matches(&c, "w", "a1b2"));
    assert!(!matches(&c, "w", "1a"));
    assert!(matches(&c, "q", "\"hi!\""));
    assert!(!matches(&c, "q", "\"a b\""));
    assert!(matches(&c, "l", "a\r\nb "));
    assert!(!matches(&c, "l", "a\nb "));
}

#[test]
fn core_rules_can_be_overridden_locally() {
    // RFC 1738 style: a grammar defines its own `digit`.
    let mut config = Config::new();
    config
        .spec_source("bin.abnf", "DIGIT = \"0\" / \"1\"\nn = 1*digit\n")
        .spec_source("dec.abnf", "n = 1*DIGIT\n");
    let c = config.build().unwrap_or_else(|e| panic!("{e}"));
    let bin = c.recognizer("bin", "n").unwrap();
    assert!(bin.is_match(b"0110"));
    assert!(!bin.is_match(b"012"), "the local DIGIT wins");
    assert!(c.recognizer("bin", "digit").unwrap().is_match(b"1"));
    assert!(!c.recognizer("bin", "digit").unwrap().is_match(b"2"));
    // Another file still sees the core DIGIT.
    let dec = c.recognizer("dec", "n").unwrap();
    assert!(dec.is_match(b"0123456789"));
}

#[test]
fn numeric_values_match_code_points_as_utf8() {
    let c = compile("a = %x41-5A\nb = %d97.98\nc = %b1100001\nu = %xE9 %x1F600\nr = %x80-10FFFF\n");
    assert!(matches(&c, "a", "Q"));
    assert!(!matches(&c, "a", "q"), "numeric values are case-sensitive");
    assert!(matches(&c, "b", "ab"));
    assert!(matches(&c, "c", "a"));
    assert!(matches(&c, "u", "é😀"));
    assert!(
        !c.recognizer("t", "u")
            .unwrap()
            .is_match(&[0xE9, 0xF0, 0x9F, 0x98, 0x80]),
        "Latin-1 byte"
    );
    assert!(matches(&c, "r", "€"));
    assert!(!matches(&c, "r", "a"));
    assert!(
        !c.recognizer("t", "r").unwrap().is_match(&[0xED, 0xA0, 0x80]),
        "no surrogates"
    );
}
