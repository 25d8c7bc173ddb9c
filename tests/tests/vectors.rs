//! Conformance against the peer test vectors in `tests/data/vectors/` (see
//! `SOURCES.md` there for their provenance and formats).
//!
//! Every test collects all the mismatches and reports them together.

use iri_grammar::{rfc3986, rfc3987, Recognizer};

const VALID_IRI: &str = include_str!("../data/vectors/valid-iri.txt");
const INVALID_IRI: &str = include_str!("../data/vectors/invalid-iri.txt");
const VALID_URI: &str = include_str!("../data/vectors/valid-uri.txt");
const INVALID_URI: &str = include_str!("../data/vectors/invalid-uri.txt");
const CLASSIFICATION: &str = include_str!("../data/vectors/classification.tsv");
const DISPUTED: &str = include_str!("../data/vectors/disputed-validity.tsv");
const COMPONENTS: &str = include_str!("../data/vectors/components.tsv");

/// The lines of a one-string-per-line file. Only "\n" separates lines: a
/// data line is taken verbatim (it has no header, no comments, and may start
/// with "#").
fn lines(file: &str) -> Vec<&str> {
    file.strip_suffix('\n')
        .expect("vector files end with a newline")
        .split('\n')
        .collect()
}

/// Rows of a TSV file with one header row: (header, rows).
fn tsv(file: &str) -> (Vec<&str>, Vec<Vec<&str>>) {
    let mut rows = lines(file).into_iter().map(|l| l.split('\t').collect::<Vec<_>>());
    let header = rows.next().expect("a header row");
    let rows: Vec<Vec<&str>> = rows.collect();
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(
            row.len(),
            header.len(),
            "row {} has {} columns, the header {}: {row:?}",
            i + 2,
            row.len(),
            header.len()
        );
    }
    (header, rows)
}

/// Decodes one JSON string literal (with its quotes).
fn json_string(literal: &str) -> String {
    let inner = literal
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or_else(|| panic!("not a JSON string: {literal:?}"));
    let mut out = String::new();
    let mut chars = inner.chars();
    let hex4 = |chars: &mut std::str::Chars| -> u32 {
        let digits: String = chars.by_ref().take(4).collect();
        assert_eq!(digits.len(), 4, "short \\u escape in {literal:?}");
        u32::from_str_radix(&digits, 16).unwrap_or_else(|_| panic!("bad \\u escape in {literal:?}"))
    };
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('"') => out.push('"'),
                Some('\\') => out.push('\\'),
                Some('/') => out.push('/'),
                Some('b') => out.push('\u{8}'),
                Some('f') => out.push('\u{C}'),
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some('t') => out.push('\t'),
                Some('u') => {
                    let unit = hex4(&mut chars);
                    let cp = if (0xD800..0xDC00).contains(&unit) {
                        assert!(
                            chars.next() == Some('\\') && chars.next() == Some('u'),
                            "lone high surrogate in {literal:?}"
                        );
                        let low = hex4(&mut chars);
                        assert!(
                            (0xDC00..0xE000).contains(&low),
                            "bad low surrogate in {literal:?}"
                        );
                        0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        unit
                    };
                    out.push(char::from_u32(cp).unwrap_or_else(|| panic!("lone surrogate in {literal:?}")));
                }
                other => panic!("bad escape {other:?} in {literal:?}"),
            },
            '"' => panic!("unescaped quote in {literal:?}"),
            c if (c as u32) < 0x20 => panic!("unescaped control character in {literal:?}"),
            c => out.push(c),
        }
    }
    out
}

#[test]
fn json_string_decoder() {
    assert_eq!(json_string(r#""""#), "");
    assert_eq!(json_string(r#""a\"b\\c\/d""#), "a\"b\\c/d");
    assert_eq!(json_string(r#""\b\f\n\r\t""#), "\u{8}\u{C}\n\r\t");
    assert_eq!(json_string(r#""\u0000\u00e9\u00E9""#), "\u{0}\u{E9}\u{E9}");
    assert_eq!(json_string(r#""\ud83d\ude00""#), "\u{1F600}");
    assert_eq!(json_string("\"r\u{E9}sum\u{E9}\""), "r\u{E9}sum\u{E9}");
}

/// The verdict of `rule` on `input`, with the offset of the error.
fn verdict(rule: &Recognizer, input: &str) -> String {
    match rule.validate(input) {
        Ok(()) => "valid".to_owned(),
        Err(e) => format!("invalid at byte {}", e.offset()),
    }
}

/// Checks every input of `inputs` against `rule`; panics with the list of
/// all mismatches.
fn conform(file: &str, rule: &Recognizer, expected: bool, inputs: &[&str]) {
    let mut wrong = Vec::new();
    for (i, input) in inputs.iter().enumerate() {
        if rule.is_match(input) != expected {
            wrong.push(format!(
                "  {file}:{}: {input:?}: expected {}, got {}",
                i + 1,
                if expected { "valid" } else { "invalid" },
                verdict(rule, input)
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} vectors of {file} mismatch {}:{}:\n{}",
        wrong.len(),
        inputs.len(),
        rule.grammar(),
        rule.rule(),
        wrong.join("\n")
    );
}

#[test]
fn valid_iri_vectors() {
    let inputs = lines(VALID_IRI);
    assert_eq!(inputs.len(), 546, "SOURCES.md: 546 lines");
    conform("valid-iri.txt", &rfc3987::IRI_REFERENCE, true, &inputs);
}

#[test]
fn valid_iri_vectors_absolute_or_relative() {
    // SOURCES.md: 338 are absolute `IRI` (scheme present), 208 relative.
    let inputs = lines(VALID_IRI);
    let absolute = inputs.iter().filter(|s| rfc3987::IRI.is_match(s)).count();
    let relative = inputs
        .iter()
        .filter(|s| rfc3987::IRELATIVE_REF.is_match(s))
        .count();
    assert_eq!((absolute, relative), (338, 208));
}

#[test]
fn invalid_iri_vectors() {
    let inputs = lines(INVALID_IRI);
    assert!(inputs.len() > 100);
    conform("invalid-iri.txt", &rfc3987::IRI_REFERENCE, false, &inputs);
    // Invalid as IRI-reference, so also as everything narrower.
    conform("invalid-iri.txt", &rfc3987::IRI, false, &inputs);
    conform("invalid-iri.txt", &rfc3987::ABSOLUTE_IRI, false, &inputs);
    conform("invalid-iri.txt", &rfc3986::URI_REFERENCE, false, &inputs);
}

#[test]
fn valid_uri_vectors() {
    let inputs = lines(VALID_URI);
    assert!(inputs.len() > 500);
    assert!(inputs.iter().all(|s| s.is_ascii()), "valid-uri.txt is ASCII");
    conform("valid-uri.txt", &rfc3986::URI_REFERENCE, true, &inputs);
    // Every URI reference is an IRI reference (RFC 3987 §3.1).
    conform("valid-uri.txt", &rfc3987::IRI_REFERENCE, true, &inputs);
}

#[test]
fn invalid_uri_vectors() {
    let inputs = lines(INVALID_URI);
    assert!(inputs.len() > 200);
    conform("invalid-uri.txt", &rfc3986::URI_REFERENCE, false, &inputs);
    conform("invalid-uri.txt", &rfc3986::URI, false, &inputs);
    conform("invalid-uri.txt", &rfc3986::ABSOLUTE_URI, false, &inputs);
    conform("invalid-uri.txt", &rfc3986::RELATIVE_REF, false, &inputs);
}

#[test]
fn invalid_uri_vectors_contain_invalid_iris() {
    // SOURCES.md: invalid-uri.txt includes every invalid-iri entry.
    let invalid_uri = lines(INVALID_URI);
    let missing: Vec<&str> = lines(INVALID_IRI)
        .into_iter()
        .filter(|s| !invalid_uri.contains(s))
        .collect();
    assert!(missing.is_empty(), "not in invalid-uri.txt: {missing:?}");
}

/// The eight rule columns of classification.tsv and where each rule is.
const CLASSIFIED_RULES: [(&str, &str); 8] = [
    ("IRI-reference", "rfc3987"),
    ("IRI", "rfc3987"),
    ("absolute-IRI", "rfc3987"),
    ("irelative-ref", "rfc3987"),
    ("URI-reference", "rfc3986"),
    ("URI", "rfc3986"),
    ("absolute-URI", "rfc3986"),
    ("relative-ref", "rfc3986"),
];

#[test]
fn classification_vectors() {
    let (header, rows) = tsv(CLASSIFICATION);
    let mut expected_header = vec!["input_json"];
    expected_header.extend(CLASSIFIED_RULES.iter().map(|&(rule, _)| rule));
    expected_header.push("sources");
    assert_eq!(header, expected_header);
    assert_eq!(rows.len(), 868);

    let rules: Vec<&Recognizer> = CLASSIFIED_RULES
        .iter()
        .map(|&(rule, grammar)| {
            let r = iri_grammar::lookup(grammar, rule).unwrap_or_else(|| panic!("no rule {grammar}:{rule}"));
            assert_eq!((r.grammar(), r.rule()), (grammar, rule));
            r
        })
        .collect();

    let mut wrong = Vec::new();
    let mut checked = 0;
    for (i, row) in rows.iter().enumerate() {
        let input = json_string(row[0]);
        for (col, rule) in rules.iter().enumerate() {
            let expected = match row[col + 1] {
                "1" => true,
                "0" => false,
                other => panic!("line {}: bad verdict {other:?}", i + 2),
            };
            checked += 1;
            if rule.is_match(&input) != expected {
                wrong.push(format!(
                    "  classification.tsv:{}: {input:?} {}:{}: expected {}, got {} (sources: {})",
                    i + 2,
                    rule.grammar(),
                    rule.rule(),
                    if expected { "valid" } else { "invalid" },
                    verdict(rule, &input),
                    row[9]
                ));
            }
        }
    }
    assert_eq!(checked, 868 * 8);
    assert!(
        wrong.is_empty(),
        "{} of {checked} verdicts mismatch:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn classification_is_consistent_with_the_one_per_line_files() {
    // Each string of valid-iri.txt is classified as a valid IRI-reference,
    // each of invalid-iri.txt as an invalid one, and likewise for URIs.
    let (_, rows) = tsv(CLASSIFICATION);
    let verdicts: std::collections::HashMap<String, (bool, bool)> = rows
        .iter()
        .map(|row| (json_string(row[0]), (row[1] == "1", row[5] == "1")))
        .collect();
    let mut wrong = Vec::new();
    for (file, text, iri, expected) in [
        ("valid-iri.txt", VALID_IRI, true, true),
        ("invalid-iri.txt", INVALID_IRI, true, false),
        ("valid-uri.txt", VALID_URI, false, true),
        ("invalid-uri.txt", INVALID_URI, false, false),
    ] {
        for s in lines(text) {
            match verdicts.get(s) {
                None => wrong.push(format!("{file}: {s:?} not classified")),
                Some(&(i, u)) if (if iri { i } else { u }) != expected => {
                    wrong.push(format!("{file}: {s:?} classified otherwise"))
                }
                Some(_) => {}
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn classification_implications() {
    // Grammar facts the verdicts must respect, checked on the recognizers'
    // own answers: IRI-reference = IRI | irelative-ref (disjoint),
    // absolute-IRI implies IRI, URI-reference = URI | relative-ref,
    // absolute-URI implies URI, and each URI rule implies its IRI rule.
    let (_, rows) = tsv(CLASSIFICATION);
    let mut wrong = Vec::new();
    for row in &rows {
        let input = json_string(row[0]);
        let v: Vec<bool> = CLASSIFIED_RULES
            .iter()
            .map(|&(rule, grammar)| iri_grammar::lookup(grammar, rule).unwrap().is_match(&input))
            .collect();
        let [iri_ref, iri, abs_iri, irel, uri_ref, uri, abs_uri, rel] = v[..] else {
            unreachable!()
        };
        let facts = [
            ("IRI-reference = IRI | irelative-ref", iri_ref == (iri || irel)),
            ("IRI and irelative-ref are disjoint", !(iri && irel)),
            ("absolute-IRI implies IRI", !abs_iri || iri),
            ("URI-reference = URI | relative-ref", uri_ref == (uri || rel)),
            ("URI and relative-ref are disjoint", !(uri && rel)),
            ("absolute-URI implies URI", !abs_uri || uri),
            ("URI implies IRI", !uri || iri),
            ("absolute-URI implies absolute-IRI", !abs_uri || abs_iri),
            ("relative-ref implies irelative-ref", !rel || irel),
            ("URI-reference implies IRI-reference", !uri_ref || iri_ref),
            (
                "an ASCII IRI-reference is a URI-reference",
                !input.is_ascii() || iri_ref == uri_ref,
            ),
        ];
        for (fact, holds) in facts {
            if !holds {
                wrong.push(format!("{input:?}: {fact} violated ({v:?})"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn disputed_vectors_follow_the_rfc_grammar() {
    // SOURCES.md: these are source claims that contradict the RFC grammar
    // (RFC 6874 zone IDs, a reg-name that looks like a bad IPv4 address);
    // the recognizers must give the RFC's verdict, the opposite of the claim.
    let (header, rows) = tsv(DISPUTED);
    assert_eq!(
        header,
        ["input_json", "rule", "source_claims_valid", "source", "note"]
    );
    assert!(!rows.is_empty());
    let mut wrong = Vec::new();
    for row in &rows {
        let input = json_string(row[0]);
        let rule = iri_grammar::lookup("rfc3987", row[1])
            .or_else(|| iri_grammar::lookup("rfc3986", row[1]))
            .unwrap_or_else(|| panic!("no rule {}", row[1]));
        let claim = match row[2] {
            "1" => true,
            "0" => false,
            other => panic!("bad claim {other:?}"),
        };
        if rule.is_match(&input) == claim {
            wrong.push(format!(
                "{input:?} {}: {} agrees with the disputed claim of {}",
                row[1],
                verdict(rule, &input),
                row[3]
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn component_vectors_match_component_rules() {
    // components.tsv: an empty cell is an undefined component, `""` a
    // defined but empty one. Each defined component must match its rule,
    // and the components must put the input back together.
    let (header, rows) = tsv(COMPONENTS);
    assert_eq!(
        header,
        ["input", "scheme", "user", "password", "host", "port", "path", "query", "fragment"]
    );
    let cell = |s: &'static str| -> Option<&'static str> {
        match s {
            "" => None,
            "\"\"" => Some(""),
            s => Some(s),
        }
    };
    let mut wrong = Vec::new();
    let mut check = |input: &str, rule: &Recognizer, part: &str| {
        if !rule.is_match(part) {
            wrong.push(format!(
                "{input:?}: component {part:?} is not {}:{} ({})",
                rule.grammar(),
                rule.rule(),
                verdict(rule, part)
            ));
        }
    };
    let mut rebuilt_wrong = Vec::new();
    for row in &rows {
        let input = row[0];
        let [scheme, user, password, host, port, path, query, fragment] =
            [1, 2, 3, 4, 5, 6, 7, 8].map(|i| cell(row[i]));
        check(input, &rfc3987::IRI_REFERENCE, input);
        let userinfo = match (user, password) {
            (Some(u), Some(p)) => Some(format!("{u}:{p}")),
            (Some(u), None) => Some(u.to_owned()),
            (None, Some(p)) => Some(format!(":{p}")),
            (None, None) => None,
        };
        let path = path.expect("the path is always defined");
        let mut rebuilt = String::new();
        if let Some(scheme) = scheme {
            check(input, &rfc3986::SCHEME, scheme);
            rebuilt += scheme;
            rebuilt += ":";
        }
        if let Some(host) = host {
            rebuilt += "//";
            if let Some(userinfo) = &userinfo {
                check(input, &rfc3987::IUSERINFO, userinfo);
                rebuilt += userinfo;
                rebuilt += "@";
            }
            check(input, &rfc3987::IHOST, host);
            rebuilt += host;
            if let Some(port) = port {
                check(input, &rfc3986::PORT, port);
                rebuilt += ":";
                rebuilt += port;
            }
            check(input, &rfc3987::IPATH_ABEMPTY, path);
        } else {
            assert!(userinfo.is_none() && port.is_none(), "{input:?}");
            check(input, &rfc3987::IPATH, path);
            // Without an authority the path cannot start with "//".
            if path.starts_with("//") {
                rebuilt_wrong.push(format!("{input:?}: path {path:?} without authority"));
            }
        }
        rebuilt += path;
        if let Some(query) = query {
            check(input, &rfc3987::IQUERY, query);
            rebuilt += "?";
            rebuilt += query;
        }
        if let Some(fragment) = fragment {
            check(input, &rfc3987::IFRAGMENT, fragment);
            rebuilt += "#";
            rebuilt += fragment;
        }
        if rebuilt != input {
            rebuilt_wrong.push(format!("{input:?}: components rebuild {rebuilt:?}"));
        }
    }
    wrong.extend(rebuilt_wrong);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
