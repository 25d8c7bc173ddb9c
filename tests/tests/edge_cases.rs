//! Edge cases of the RFC 3986 / RFC 3987 grammars: case-insensitive
//! literals, IPv6 / IPvFuture / IPv4 hosts, empty components, the exact
//! boundaries of `ucschar` and `iprivate`, characters that are never
//! allowed, error offsets, and octet strings that are not UTF-8.

use iri_grammar::{rfc3986, rfc3987, Recognizer};

/// Checks that every input has the expected verdict for `rule`, and reports
/// all the inputs that do not (with the offset `validate` gives).
fn check(rule: &Recognizer, expected: bool, inputs: &[&str]) {
    let mut wrong = Vec::new();
    for input in inputs {
        let result = rule.validate(input);
        if result.is_ok() != expected {
            wrong.push(format!("{input:?}: {result:?}"));
        }
        assert_eq!(
            rule.is_match(input),
            result.is_ok(),
            "is_match/validate disagree on {input:?}"
        );
        assert_eq!(
            rule.is_match_bytes(input.as_bytes()),
            result.is_ok(),
            "is_match_bytes/validate disagree on {input:?}"
        );
    }
    assert!(
        wrong.is_empty(),
        "{} {}:{} on {} of {} inputs:\n{}",
        if expected {
            "expected a match of"
        } else {
            "expected no match of"
        },
        rule.grammar(),
        rule.rule(),
        wrong.len(),
        inputs.len(),
        wrong.join("\n")
    );
}

fn valid(rule: &Recognizer, inputs: &[&str]) {
    check(rule, true, inputs);
}

fn invalid(rule: &Recognizer, inputs: &[&str]) {
    check(rule, false, inputs);
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// `template` with `{}` replaced by each input.
fn embed(template: &str, inputs: &[&str]) -> Vec<String> {
    inputs.iter().map(|s| template.replace("{}", s)).collect()
}

fn ch(cp: u32) -> char {
    char::from_u32(cp).unwrap_or_else(|| panic!("U+{cp:04X} is not a char"))
}

// ---------------------------------------------------------------------------
// Case-insensitive literals (RFC 5234 §2.3: quoted strings are
// case-insensitive; HEXDIG includes "a"-"f" through that rule).
// ---------------------------------------------------------------------------

#[test]
fn scheme_and_host_letters_any_case() {
    let inputs = &["HTTP://A", "HtTp://a", "http://A/B", "Ftp://EXAMPLE.ORG:21/"];
    valid(&rfc3986::URI, inputs);
    valid(&rfc3987::IRI, inputs);
    valid(&rfc3986::SCHEME, &["HTTP", "hTtP", "A+B-C.D", "Z9"]);
}

#[test]
fn ipvfuture_v_and_hexdig_are_case_insensitive() {
    // "v" and HEXDIG "A"-"F" are case-insensitive literals.
    let refs = &["//[V1F.x]", "//[v1f.x]", "//[vAbC.x]", "//[VaBc.X]"];
    valid(&rfc3986::URI_REFERENCE, refs);
    valid(&rfc3986::RELATIVE_REF, refs);
    valid(&rfc3987::IRI_REFERENCE, refs);
    valid(&rfc3987::IRELATIVE_REF, refs);
    valid(&rfc3986::IPV_FUTURE, &["V1F.x", "v1f.x", "VABCDEF0123456789.x"]);
}

#[test]
fn percent_encoding_hex_is_case_insensitive() {
    valid(&rfc3986::PCT_ENCODED, &["%c3", "%a9", "%C3", "%A9", "%aF", "%Fa"]);
    invalid(&rfc3986::PCT_ENCODED, &["%c3%a9", "%g0", "%0g", "%", "%a", "c3"]);
    let encoded = &["%c3%a9", "%C3%A9", "%c3%A9"];
    valid(&rfc3986::SEGMENT, encoded);
    valid(&rfc3986::QUERY, encoded);
    valid(&rfc3986::FRAGMENT, encoded);
    valid(&rfc3987::ISEGMENT, encoded);
    let uris = embed("http://%c3%a9@r%c3%a9sum%c3%a9/{}?{}#{}", &["%c3%a9"]);
    valid(&rfc3986::URI, &strs(&uris));
    valid(&rfc3987::IRI, &strs(&uris));
}

#[test]
fn ipv6_hex_digits_any_case() {
    valid(
        &rfc3986::IPV6ADDRESS,
        &[
            "ABCD:EF01::",
            "abcd:ef01::",
            "AbCd::eF01",
            "FFFF::FFFF:255.255.255.255",
        ],
    );
    valid(&rfc3986::H16, &["a", "A", "fFfF", "0000"]);
}

// ---------------------------------------------------------------------------
// IPv6address (RFC 3986 §3.2.2)
// ---------------------------------------------------------------------------

/// Each of the nine alternatives of IPv6address, with the embedded IPv4
/// ls32 wherever the alternative ends in ls32.
const IPV6_VALID: &[&[&str]] = &[
    // 1:                            6( h16 ":" ) ls32
    &[
        "1:2:3:4:5:6:7:8",
        "1:2:3:4:5:6:1.2.3.4",
        "ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255",
        "0:0:0:0:0:0:0:0",
        "2001:db8:0:0:1:0:0:1",
    ],
    // 2:                       "::" 5( h16 ":" ) ls32
    &["::2:3:4:5:6:7:8", "::2:3:4:5:6:1.2.3.4"],
    // 3: [               h16 ] "::" 4( h16 ":" ) ls32
    &[
        "::3:4:5:6:7:8",
        "1::3:4:5:6:7:8",
        "::3:4:5:6:1.2.3.4",
        "1::3:4:5:6:1.2.3.4",
    ],
    // 4: [ *1( h16 ":" ) h16 ] "::" 3( h16 ":" ) ls32
    &[
        "::4:5:6:7:8",
        "1::4:5:6:7:8",
        "1:2::4:5:6:7:8",
        "1:2::4:5:6:9.9.9.9",
        "::4:5:6:9.9.9.9",
    ],
    // 5: [ *2( h16 ":" ) h16 ] "::" 2( h16 ":" ) ls32
    &[
        "::5:6:7:8",
        "1:2:3::5:6:7:8",
        "1:2:3::5:6:1.2.3.4",
        "1::5:6:1.2.3.4",
    ],
    // 6: [ *3( h16 ":" ) h16 ] "::"    h16 ":"   ls32
    &["::6:7:8", "1:2:3:4::6:7:8", "1:2:3:4::6:1.2.3.4", "::6:1.2.3.4"],
    // 7: [ *4( h16 ":" ) h16 ] "::"              ls32
    &[
        "::7:8",
        "1:2:3:4:5::7:8",
        "1:2:3:4:5::1.2.3.4",
        "::1.2.3.4",
        "::ffff:192.0.2.1",
        "::0.0.0.0",
    ],
    // 8: [ *5( h16 ":" ) h16 ] "::"              h16
    &["::8", "::1", "1::8", "1:2:3:4:5:6::8", "2001:db8::7"],
    // 9: [ *6( h16 ":" ) h16 ] "::"
    &["::", "1::", "fe80::", "1:2:3:4:5:6:7::", "abcd:ef01:2345::"],
];

/// Near misses: not IPv6address.
const IPV6_INVALID: &[&str] = &[
    // Empty, a single colon, three colons.
    "",
    ":",
    ":::",
    // Nine groups; seven groups without "::"; a leading or trailing colon.
    "1:2:3:4:5:6:7:8:9",
    "1:2:3:4:5:6:7",
    ":1:2:3:4:5:6:7",
    "1:2:3:4:5:6:7:",
    ":1::",
    "1::2:",
    // "::" plus eight groups (it must stand for at least one group).
    "1:2:3:4:5:6:7::8",
    "1:2:3:4:5:6:7:8::",
    "::1:2:3:4:5:6:7:8",
    // Two "::".
    "1::2::3",
    "::1::",
    "::1:2::",
    // Five-digit groups; a non-hex digit.
    "12345::",
    "1:2:3:4:5:6:7:12345",
    "::10000",
    "g::1",
    "1::2:3:x",
    // Bad embedded IPv4: out of range, three parts, five parts, leading zero.
    "::256.1.1.1",
    "1:2:3:4:5:6:256.1.1.1",
    "::1.2.3",
    "1:2:3:4:5:6:1.2.3",
    "::1.2.3.4.5",
    "::01.2.3.4",
    "::1.2.3.04",
    // Embedded IPv4 not at the end, or too many groups before it.
    "::1.2.3.4:5",
    "1.2.3.4::",
    "1.2.3.4::1",
    "1:2:3:4:5:1.2.3.4:8",
    "1:2:3:4:5:6:7:1.2.3.4",
    "::2:3:4:5:6:7:1.2.3.4",
    // A bare IPv4 address.
    "1.2.3.4",
    // Zone identifiers (RFC 6874) are not part of RFC 3986.
    "fe80::1%25eth0",
    "fe80::1%eth0",
    // Brackets belong to IP-literal, not IPv6address.
    "[::1]",
];

#[test]
fn ipv6_all_nine_forms_are_valid() {
    assert_eq!(IPV6_VALID.len(), 9);
    for forms in IPV6_VALID {
        valid(&rfc3986::IPV6ADDRESS, forms);
        // Re-exported, the same recognizer.
        valid(&rfc3987::IPV6ADDRESS, forms);
        let literals = embed("[{}]", forms);
        valid(&rfc3986::IP_LITERAL, &strs(&literals));
        valid(&rfc3986::HOST, &strs(&literals));
        valid(&rfc3987::IHOST, &strs(&literals));
        let uris = embed("http://[{}]/", forms);
        valid(&rfc3986::URI, &strs(&uris));
        valid(&rfc3987::IRI, &strs(&uris));
        let with_port = embed("//user@[{}]:8080/p?q#f", forms);
        valid(&rfc3986::RELATIVE_REF, &strs(&with_port));
        valid(&rfc3987::IRELATIVE_REF, &strs(&with_port));
    }
}

#[test]
fn ipv6_near_misses_are_invalid() {
    invalid(&rfc3986::IPV6ADDRESS, IPV6_INVALID);
    let uris = embed("http://[{}]/", IPV6_INVALID);
    invalid(&rfc3986::URI, &strs(&uris));
    invalid(&rfc3986::URI_REFERENCE, &strs(&uris));
    invalid(&rfc3987::IRI, &strs(&uris));
    invalid(&rfc3987::IRI_REFERENCE, &strs(&uris));
    let refs = embed("//[{}]", IPV6_INVALID);
    invalid(&rfc3986::URI_REFERENCE, &strs(&refs));
    invalid(&rfc3987::IRI_REFERENCE, &strs(&refs));
}

#[test]
fn ipv6_literal_needs_brackets() {
    // Without brackets the colons would start a port: not a URI.
    invalid(&rfc3986::URI, &["http://::1/", "http://1:2:3:4:5:6:7:8/"]);
    invalid(&rfc3986::HOST, &["::1", "[::1", "::1]", "[[::1]]"]);
    valid(&rfc3986::HOST, &["[::1]"]);
}

#[test]
fn ipv6_zone_id_offset() {
    // RFC 6874 zone IDs: no "%" is allowed anywhere in an IP-literal, so
    // matching stops at the "%".
    let s = "http://[fe80::1%25eth0]/";
    let err = rfc3986::URI.validate(s).unwrap_err();
    assert_eq!(err.offset(), s.find('%').unwrap());
    assert_eq!(err.rule(), "URI");
    assert_eq!(err.grammar(), "rfc3986");
}

#[test]
fn ipv6_h16_and_ls32() {
    valid(&rfc3986::H16, &["0", "12", "abc", "ffff"]);
    invalid(&rfc3986::H16, &["", "12345", "g", ":"]);
    valid(&rfc3986::LS32, &["1:2", "ffff:0", "1.2.3.4", "255.255.255.255"]);
    invalid(&rfc3986::LS32, &["1", "1:2:3", "256.0.0.0", "1.2.3", "1:1.2.3.4"]);
}

// ---------------------------------------------------------------------------
// IPvFuture
// ---------------------------------------------------------------------------

#[test]
fn ipvfuture_forms() {
    let ok = &[
        "v1.x",
        "V7.a:b",
        "vF.a",
        "v0.0",
        "v123abc.:",
        "v1.!$&'()*+,;=",
        "v1.-._~",
        "v1.a:b:c:d",
    ];
    valid(&rfc3986::IPV_FUTURE, ok);
    let literals = embed("[{}]", ok);
    valid(&rfc3986::IP_LITERAL, &strs(&literals));
    let uris = embed("http://[{}]/", ok);
    valid(&rfc3986::URI, &strs(&uris));
    valid(&rfc3987::IRI, &strs(&uris));

    let bad = &[
        "v.x",    // no version
        "v1.",    // empty address
        "vg.x",   // non-hex version
        "v1x",    // no "."
        "v1",     // nothing after the version
        "1.x",    // no "v"
        "w1.x",   // not "v"
        "v1.x/",  // "/" is not allowed
        "v1.x@",  // "@" is not allowed
        "v1.%41", // pct-encoded is not allowed
        "v1.[x]",
        "v1.x y",
        "v1.\u{E9}", // not even in IRIs: IPvFuture is ASCII only
        "v1.\u{56B}",
    ];
    invalid(&rfc3986::IPV_FUTURE, bad);
    let literals = embed("[{}]", bad);
    invalid(&rfc3986::IP_LITERAL, &strs(&literals));
    let uris = embed("http://[{}]/", bad);
    invalid(&rfc3986::URI, &strs(&uris));
    invalid(&rfc3987::IRI, &strs(&uris));
    let refs = embed("//[{}]", bad);
    invalid(&rfc3986::URI_REFERENCE, &strs(&refs));
    invalid(&rfc3987::IRI_REFERENCE, &strs(&refs));
}

// ---------------------------------------------------------------------------
// IPv4address vs reg-name
// ---------------------------------------------------------------------------

#[test]
fn dec_octet_range() {
    valid(
        &rfc3986::DEC_OCTET,
        &["0", "9", "10", "99", "100", "199", "200", "249", "250", "255"],
    );
    invalid(
        &rfc3986::DEC_OCTET,
        &[
            "", "00", "01", "09", "010", "256", "260", "300", "999", "1000", "-1", "a",
        ],
    );
}

#[test]
fn ipv4address_vs_reg_name() {
    let ipv4 = &["1.2.3.4", "0.0.0.0", "255.255.255.255", "192.0.2.16", "10.0.0.1"];
    valid(&rfc3986::IPV4ADDRESS, ipv4);
    valid(&rfc3986::HOST, ipv4);
    valid(&rfc3987::IHOST, ipv4);
    // Digits and dots are unreserved, so these are reg-names as well.
    valid(&rfc3986::REG_NAME, ipv4);

    let not_ipv4 = &[
        "256.1.1.1",
        "1.256.1.1",
        "1.1.1.256",
        "256.256.256.256",
        "01.2.3.4",
        "1.2.3.04",
        "1.2.3",
        "1.2.3.4.5",
        "1..2.3",
        "1.2.3.",
        "a.b.c.d",
    ];
    invalid(&rfc3986::IPV4ADDRESS, not_ipv4);
    // ... but they are valid hosts, as reg-names.
    valid(&rfc3986::REG_NAME, not_ipv4);
    valid(&rfc3986::HOST, not_ipv4);
    valid(&rfc3987::IREG_NAME, not_ipv4);
    valid(&rfc3987::IHOST, not_ipv4);
    let uris = embed("http://{}/", not_ipv4);
    valid(&rfc3986::URI, &strs(&uris));
    valid(&rfc3987::IRI, &strs(&uris));
    let uris = embed("http://{}:80/", not_ipv4);
    valid(&rfc3986::URI, &strs(&uris));
}

// ---------------------------------------------------------------------------
// Empty components
// ---------------------------------------------------------------------------

#[test]
fn empty_port_and_userinfo() {
    let ok = &[
        "http://a:/",
        "http://@a/",
        "http://@a:/",
        "http://@:/",
        "http://:/",
        "http://@/",
        "http://",
        "http:",
        "http://a:?#",
        "http://:@a/",
    ];
    valid(&rfc3986::URI, ok);
    valid(&rfc3987::IRI, ok);
    valid(&rfc3986::PORT, &[""]);
    valid(&rfc3986::USERINFO, &[""]);
    valid(&rfc3987::IUSERINFO, &[""]);
    valid(&rfc3986::REG_NAME, &[""]);
    valid(&rfc3987::IREG_NAME, &[""]);
    valid(&rfc3986::AUTHORITY, &["", ":", "@", "@:", "a:", "@a"]);
    valid(&rfc3987::IAUTHORITY, &["", ":", "@", "@:", "a:", "@a"]);

    // The port is digits only and there is at most one of it.
    let bad = &["http://a:b/", "http://a:80:80/", "http://a:8a/", "http://a@b@c/"];
    invalid(&rfc3986::URI, bad);
    invalid(&rfc3987::IRI, bad);
    // An empty scheme is not allowed.
    invalid(&rfc3986::URI, &["://a/", ":"]);
    invalid(&rfc3986::URI_REFERENCE, &["://a/", ":"]);
    invalid(&rfc3987::IRI_REFERENCE, &["://a/", ":"]);
}

// ---------------------------------------------------------------------------
// ucschar and iprivate (RFC 3987 §2.2)
// ---------------------------------------------------------------------------

/// The ranges of `ucschar`, transcribed from RFC 3987 §2.2.
const UCSCHAR_RANGES: &[(u32, u32)] = &[
    (0xA0, 0xD7FF),
    (0xF900, 0xFDCF),
    (0xFDF0, 0xFFEF),
    (0x10000, 0x1FFFD),
    (0x20000, 0x2FFFD),
    (0x30000, 0x3FFFD),
    (0x40000, 0x4FFFD),
    (0x50000, 0x5FFFD),
    (0x60000, 0x6FFFD),
    (0x70000, 0x7FFFD),
    (0x80000, 0x8FFFD),
    (0x90000, 0x9FFFD),
    (0xA0000, 0xAFFFD),
    (0xB0000, 0xBFFFD),
    (0xC0000, 0xCFFFD),
    (0xD0000, 0xDFFFD),
    (0xE1000, 0xEFFFD),
];

/// The ranges of `iprivate`, transcribed from RFC 3987 §2.2.
const IPRIVATE_RANGES: &[(u32, u32)] = &[(0xE000, 0xF8FF), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD)];

fn in_ranges(ranges: &[(u32, u32)], cp: u32) -> bool {
    ranges.iter().any(|&(lo, hi)| (lo..=hi).contains(&cp))
}

/// The first and last code point of every range and one past each end,
/// as chars, with whether they are inside. The neighbours that are not chars
/// (the surrogates U+D800 and U+DFFF, and U+110000) are tested as bytes in
/// `invalid_utf8_is_rejected` (ED A0 80, ED BF BF, F4 90 80 80).
fn boundaries(ranges: &[(u32, u32)]) -> Vec<(char, bool)> {
    let mut out = Vec::new();
    for &(lo, hi) in ranges {
        out.push((ch(lo), true));
        out.push((ch(hi), true));
        for cp in [lo - 1, hi + 1] {
            if let Some(c) = char::from_u32(cp) {
                out.push((c, in_ranges(ranges, cp)));
            }
        }
    }
    out
}

#[test]
fn boundaries_cover_every_range() {
    // 17 ucschar ranges: 34 inside; outside: every neighbour except the
    // surrogate U+D800 after U+D7FF.
    let u = boundaries(UCSCHAR_RANGES);
    assert_eq!(u.iter().filter(|(_, inside)| *inside).count(), 34);
    assert_eq!(u.iter().filter(|(_, inside)| !*inside).count(), 33);
    // 3 iprivate ranges: U+DFFF before U+E000 is a surrogate, U+110000 is
    // no code point.
    let p = boundaries(IPRIVATE_RANGES);
    assert_eq!(p.iter().filter(|(_, inside)| *inside).count(), 6);
    assert_eq!(p.iter().filter(|(_, inside)| !*inside).count(), 5);
}

/// Runs `rule` on `input(c)` for each boundary char and reports all the
/// verdicts that differ from `expected(c)`.
fn check_chars(
    rule: &Recognizer,
    chars: &[char],
    input: impl Fn(char) -> String,
    expected: impl Fn(char) -> bool,
) {
    let mut wrong = Vec::new();
    for &c in chars {
        let s = input(c);
        let got = rule.is_match(&s);
        if got != expected(c) {
            wrong.push(format!(
                "U+{:04X} in {s:?}: expected {}, got {got}",
                c as u32,
                expected(c)
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{}:{}: {} wrong verdicts:\n{}",
        rule.grammar(),
        rule.rule(),
        wrong.len(),
        wrong.join("\n")
    );
}

fn all_boundary_chars() -> Vec<char> {
    let mut v: Vec<char> = boundaries(UCSCHAR_RANGES)
        .into_iter()
        .chain(boundaries(IPRIVATE_RANGES))
        .map(|(c, _)| c)
        .collect();
    v.sort();
    v.dedup();
    v
}

fn is_ucschar(c: char) -> bool {
    in_ranges(UCSCHAR_RANGES, c as u32)
}

fn is_iprivate(c: char) -> bool {
    in_ranges(IPRIVATE_RANGES, c as u32)
}

#[test]
fn ucschar_boundaries_single_char_rule() {
    let chars = all_boundary_chars();
    check_chars(&rfc3987::UCSCHAR, &chars, |c| c.to_string(), is_ucschar);
    check_chars(&rfc3987::IUNRESERVED, &chars, |c| c.to_string(), is_ucschar);
    check_chars(&rfc3987::IPCHAR, &chars, |c| c.to_string(), is_ucschar);
    // Exactly one character: not two, not none.
    invalid(&rfc3987::UCSCHAR, &["", "\u{A0}\u{A0}", "a", "%C2%A0"]);
}

#[test]
fn iprivate_boundaries_single_char_rule() {
    let chars = all_boundary_chars();
    check_chars(&rfc3987::IPRIVATE, &chars, |c| c.to_string(), is_iprivate);
    invalid(&rfc3987::IPRIVATE, &["", "\u{E000}\u{E000}", "a"]);
}

#[test]
fn every_code_point_single_char_rules() {
    // Exhaustively, for every Unicode scalar value: membership of the
    // single-character rules against the ranges transcribed from the spec.
    fn ascii_unreserved(c: char) -> bool {
        c.is_ascii_alphanumeric() || "-._~".contains(c)
    }
    fn ipchar(c: char) -> bool {
        ascii_unreserved(c) || is_ucschar(c) || "!$&'()*+,;=:@".contains(c)
    }
    let mut wrong = Vec::new();
    let mut buf = [0; 4];
    for c in (0..=0x10FFFF).filter_map(char::from_u32) {
        let s = &*c.encode_utf8(&mut buf);
        let checks: [(&Recognizer, bool); 6] = [
            (&rfc3987::UCSCHAR, is_ucschar(c)),
            (&rfc3987::IPRIVATE, is_iprivate(c)),
            (&rfc3987::IUNRESERVED, ascii_unreserved(c) || is_ucschar(c)),
            (&rfc3987::IPCHAR, ipchar(c)),
            (&rfc3987::IQUERY, ipchar(c) || is_iprivate(c) || "/?".contains(c)),
            (&rfc3987::IFRAGMENT, ipchar(c) || "/?".contains(c)),
        ];
        for (rule, expected) in checks {
            if rule.is_match(s) != expected {
                wrong.push(format!("U+{:04X} {}: expected {expected}", c as u32, rule.rule()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong verdicts, the first 100:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(100)].join("\n")
    );
}

#[test]
fn ucschar_boundaries_in_every_component() {
    let chars = all_boundary_chars();
    // ucschar is allowed wherever iunreserved is: userinfo, host, path,
    // query and fragment.
    let templates = [
        "http://u{}u@example.org/",
        "http://exa{}mple.org/",
        "http://example.org/a{}b",
        "http://example.org/?a{}b",
        "http://example.org/#a{}b",
        "mailto:a{}b",
        "a{}b/c",
        "/a{}b",
        "//a{}b",
    ];
    for t in templates {
        let make = |c: char| t.replace("{}", &c.to_string());
        check_chars(&rfc3987::IRI_REFERENCE, &chars, make, |c| {
            is_ucschar(c) || (t.contains('?') && is_iprivate(c))
        });
        // Never a URI: only ASCII is allowed there.
        check_chars(&rfc3986::URI_REFERENCE, &chars, make, |_| false);
    }
    // The component rules themselves.
    let in_segment = |c: char| format!("a{c}b");
    check_chars(&rfc3987::ISEGMENT, &chars, in_segment, is_ucschar);
    check_chars(&rfc3987::ISEGMENT_NZ_NC, &chars, in_segment, is_ucschar);
    check_chars(&rfc3987::IREG_NAME, &chars, in_segment, is_ucschar);
    check_chars(&rfc3987::IUSERINFO, &chars, in_segment, is_ucschar);
    check_chars(&rfc3987::IFRAGMENT, &chars, in_segment, is_ucschar);
    check_chars(&rfc3987::IQUERY, &chars, in_segment, |c| {
        is_ucschar(c) || is_iprivate(c)
    });
    check_chars(&rfc3986::SEGMENT, &chars, in_segment, |_| false);
}

#[test]
fn ucschar_in_path_segment_is_iri_not_uri() {
    // The first and last of every ucschar range in a path segment.
    let inside: Vec<String> = UCSCHAR_RANGES
        .iter()
        .flat_map(|&(lo, hi)| [lo, hi])
        .map(|cp| format!("http://example.org/seg{}ment", ch(cp)))
        .collect();
    assert_eq!(inside.len(), 34);
    valid(&rfc3987::IRI, &strs(&inside));
    invalid(&rfc3986::URI, &strs(&inside));
    // The neighbours outside the ranges are not allowed in a path.
    let outside: Vec<String> = boundaries(UCSCHAR_RANGES)
        .into_iter()
        .filter(|(_, inside)| !inside)
        .map(|(c, _)| format!("http://example.org/seg{c}ment"))
        .collect();
    invalid(&rfc3987::IRI, &strs(&outside));
    invalid(&rfc3987::IRI_REFERENCE, &strs(&outside));
}

#[test]
fn ucschar_is_not_allowed_in_scheme_port_or_ip_literal() {
    let c = "\u{E9}";
    let bad = embed("h{}ttp://a/", &[c])
        .into_iter()
        .chain(embed("http://a:8{}0/", &[c]))
        .chain(embed("http://[::{}1]/", &[c]))
        .chain(embed("http://[v1.{}]/", &[c]))
        .collect::<Vec<_>>();
    invalid(&rfc3987::IRI, &strs(&bad));
    invalid(&rfc3987::IRI_REFERENCE, &strs(&bad));
    invalid(&rfc3986::SCHEME, &["h\u{E9}ttp"]);
    invalid(&rfc3986::PORT, &["8\u{E9}"]);
}

#[test]
fn private_use_only_in_query() {
    let private = &[
        "\u{E000}",
        "\u{F8FF}",
        "\u{F0000}",
        "\u{FFFFD}",
        "\u{100000}",
        "\u{10FFFD}",
    ];
    let in_query = embed("http://example.org/path?q={}x", private);
    valid(&rfc3987::IRI, &strs(&in_query));
    valid(&rfc3987::ABSOLUTE_IRI, &strs(&in_query));
    valid(&rfc3987::IRI_REFERENCE, &strs(&in_query));
    invalid(&rfc3986::URI, &strs(&in_query));
    let rel_query = embed("?{}", private);
    valid(&rfc3987::IRELATIVE_REF, &strs(&rel_query));
    let rel_query = embed("a/b?x{}y#frag", private);
    valid(&rfc3987::IRELATIVE_REF, &strs(&rel_query));
    valid(&rfc3987::IQUERY, private);

    for template in [
        "http://example.org/a{}b",    // path-abempty
        "http:/a{}b",                 // path-absolute
        "http:a{}b",                  // path-rootless
        "a{}b",                       // path-noscheme
        "http://example.org/#a{}b",   // fragment
        "http://example.org/?q#a{}b", // fragment after a query
        "http://a{}b.example.org/",   // host
        "http://u{}@example.org/",    // userinfo
        "//a{}b/",                    // host of a relative ref
    ] {
        let inputs = embed(template, private);
        invalid(&rfc3987::IRI_REFERENCE, &strs(&inputs));
        invalid(&rfc3986::URI_REFERENCE, &strs(&inputs));
    }
    invalid(&rfc3987::IFRAGMENT, private);
    invalid(&rfc3987::ISEGMENT, private);
    invalid(&rfc3987::IREG_NAME, private);
    invalid(&rfc3987::IUSERINFO, private);
    invalid(&rfc3987::IUNRESERVED, private);
    invalid(&rfc3987::UCSCHAR, private);
}

#[test]
fn private_use_in_fragment_offset() {
    // The query may hold U+E000 but the fragment after it may not.
    let s = "http://a/?\u{E000}#\u{E000}";
    let err = rfc3987::IRI.validate(s).unwrap_err();
    let at = s.rfind('\u{E000}').unwrap();
    // U+E000 is EE 80 80. Every sequence with lead byte EE (U+E000-U+EFFF)
    // is private use, so matching stops at the lead byte.
    assert_eq!(err.offset(), at);
}

// ---------------------------------------------------------------------------
// Characters that are never allowed
// ---------------------------------------------------------------------------

/// Space, the ASCII characters excluded from URIs (RFC 3987 §3.1 lists
/// `<>"{}|\^` and backtick), C0 controls, DEL and C1 controls.
fn never_allowed() -> Vec<char> {
    let mut v: Vec<char> = " <>\"{}|\\^`".chars().collect();
    v.extend((0x00..=0x1F).map(ch));
    v.push('\u{7F}');
    v.extend((0x80..=0x9F).map(ch));
    v
}

/// Templates placing a character in each component, with "{}" where it
/// goes, and whether a `ucschar` would be allowed there in an IRI (that
/// decides where a multi-byte character stops matching). Each is valid with
/// "0" in place of "{}".
const COMPONENT_TEMPLATES: &[(&str, bool)] = &[
    // scheme (the prefix "ht" could still begin a relative path)
    ("ht{}tp://user@example.org:80/path?query#fragment", true),
    ("http://us{}er@example.org:80/path?query#fragment", true), // userinfo
    ("http://user@exa{}mple.org:80/path?query#fragment", true), // reg-name
    // IPv4 host (the prefix "1.2" could still be a reg-name)
    ("http://user@1.2{}.3.4:80/path?query#fragment", true),
    ("http://user@[::{}1]:80/path?query#fragment", false), // IPv6
    ("http://user@[v1.{}x]:80/path?query#fragment", false), // IPvFuture
    ("http://user@example.org:8{}0/path?query#fragment", false), // port
    ("http://user@example.org:80/pa{}th?query#fragment", true), // path-abempty
    ("http://user@example.org:80/path?que{}ry#fragment", true), // query
    ("http://user@example.org:80/path?query#frag{}ment", true), // fragment
    ("mailto:jo{}e@example.org", true),                    // path-rootless
    ("urn:/a{}b", true),                                   // path-absolute
    ("pa{}th/x?query#fragment", true),                     // path-noscheme
    ("/pa{}th", true),                                     // relative path-absolute
    ("//exa{}mple.org/", true),                            // relative authority
    ("?que{}ry", true),                                    // relative query
    ("#frag{}ment", true),                                 // relative fragment
    ("{}", true),                                          // alone
];

#[test]
fn never_allowed_characters_are_rejected_everywhere() {
    let chars = never_allowed();
    assert_eq!(chars.len(), 10 + 32 + 1 + 32);
    let rules: [&Recognizer; 8] = [
        &rfc3987::IRI_REFERENCE,
        &rfc3987::IRI,
        &rfc3987::ABSOLUTE_IRI,
        &rfc3987::IRELATIVE_REF,
        &rfc3986::URI_REFERENCE,
        &rfc3986::URI,
        &rfc3986::ABSOLUTE_URI,
        &rfc3986::RELATIVE_REF,
    ];
    let mut wrong = Vec::new();
    for &(template, _) in COMPONENT_TEMPLATES {
        // Sanity: with an ordinary character instead, the template is valid.
        let ok = template.replace("{}", "0");
        assert!(
            rfc3987::IRI_REFERENCE.is_match(&ok) && rfc3986::URI_REFERENCE.is_match(&ok),
            "template {template:?} is not valid with \"0\""
        );
        for &c in &chars {
            let s = template.replace("{}", &c.to_string());
            for rule in rules {
                if rule.is_match(&s) {
                    wrong.push(format!("{}:{} accepts {s:?}", rule.grammar(), rule.rule()));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} accepted:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn never_allowed_characters_are_rejected_by_component_rules() {
    let chars = never_allowed();
    let rules: &[&Recognizer] = &[
        &rfc3986::SCHEME,
        &rfc3986::USERINFO,
        &rfc3986::HOST,
        &rfc3986::REG_NAME,
        &rfc3986::PORT,
        &rfc3986::PATH,
        &rfc3986::SEGMENT,
        &rfc3986::QUERY,
        &rfc3986::FRAGMENT,
        &rfc3986::IPV_FUTURE,
        &rfc3987::IUSERINFO,
        &rfc3987::IHOST,
        &rfc3987::IREG_NAME,
        &rfc3987::IPATH,
        &rfc3987::ISEGMENT,
        &rfc3987::IQUERY,
        &rfc3987::IFRAGMENT,
        &rfc3987::UCSCHAR,
        &rfc3987::IPRIVATE,
        &rfc3987::IUNRESERVED,
        &rfc3987::IPCHAR,
    ];
    let mut wrong = Vec::new();
    for rule in rules {
        for &c in &chars {
            for s in [c.to_string(), format!("v1.{c}"), format!("{c}1")] {
                if rule.is_match(&s) {
                    wrong.push(format!("{}:{} accepts {s:?}", rule.grammar(), rule.rule()));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} accepted:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn never_allowed_characters_error_offset() {
    // `validate` reports the offset of the byte at which the input stopped
    // matching: the bad character itself. An ASCII character is one byte. A
    // C1 control (C2 80 - C2 9F) in an IRI fails at its second byte where a
    // ucschar is allowed, since the lead byte C2 also starts U+00A0-U+00BF;
    // in a URI, or where only ASCII is allowed, it fails at the lead byte.
    let chars = never_allowed();
    let mut wrong = Vec::new();
    for &(template, ucschar_ok) in COMPONENT_TEMPLATES {
        let at = template.find("{}").unwrap();
        for &c in &chars {
            let s = template.replace("{}", &c.to_string());
            for (rule, ascii_only) in [
                (&rfc3987::IRI_REFERENCE, !ucschar_ok),
                (&rfc3986::URI_REFERENCE, true),
            ] {
                let expected = if c.is_ascii() || ascii_only { at } else { at + 1 };
                match rule.validate(&s) {
                    Ok(()) => wrong.push(format!("{}: {s:?} accepted", rule.rule())),
                    Err(e) => {
                        if e.offset() != expected {
                            wrong.push(format!(
                                "{}: {s:?}: offset {}, expected {expected}",
                                rule.rule(),
                                e.offset()
                            ));
                        }
                        if e.rule() != rule.rule() || e.grammar() != rule.grammar() {
                            wrong.push(format!("{}: {s:?}: error names {e:?}", rule.rule()));
                        }
                    }
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong offsets:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn error_offsets_of_specific_inputs() {
    let cases: &[(&Recognizer, &str, usize)] = &[
        (&rfc3987::IRI_REFERENCE, "http://exa mple.org", 10),
        (&rfc3987::IRI, "http://example.org/a b", 20),
        (&rfc3987::IRI, "http://example.org/a<b>", 20),
        (&rfc3986::URI, "http://example.org/r\u{E9}sum\u{E9}", 20),
        (&rfc3987::IRI, "http://example.org/?a\"b", 21),
        (&rfc3987::IRI, "http://example.org/#a{b}", 21),
        (&rfc3987::IRI, "http://example.org/#a#b", 21),
        (&rfc3987::IRI, "http://example.org/a%2", 22), // ends too early
        (&rfc3987::IRI, "http://example.org/a%zz", 21),
        (&rfc3987::IRI, "http://example.org/\u{7F}", 19),
        (&rfc3987::IRI, "http://example.org/\u{0}", 19),
        (&rfc3987::IRI, "http://example.org/\u{9F}", 20),
        (&rfc3986::URI, "http://example.org/\u{9F}", 19),
        (&rfc3986::URI, "http://[::1]x/", 12),
        // "a:8a" could still be a userinfo (followed by "@"): it fails at "/".
        (&rfc3986::URI, "http://a:8a/", 11),
        (&rfc3986::URI, "http://u@a:8a/", 12),
        (&rfc3986::URI, "", 0),
        (&rfc3986::URI, "http", 4),
        (&rfc3986::SCHEME, "1http", 0),
        (&rfc3987::IRI_REFERENCE, "a:b\\c", 3),
        (&rfc3987::IRI_REFERENCE, "^", 0),
        (&rfc3986::IPV6ADDRESS, "1:2:3:4:5:6:7:8:9", 15),
        (&rfc3986::IPV6ADDRESS, "1::2::3", 5),
    ];
    let mut wrong = Vec::new();
    for &(rule, input, offset) in cases {
        match rule.validate(input) {
            Ok(()) => wrong.push(format!("{}: {input:?} accepted", rule.rule())),
            Err(e) if e.offset() != offset => wrong.push(format!(
                "{}: {input:?}: offset {}, expected {offset}",
                rule.rule(),
                e.offset()
            )),
            Err(_) => {}
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

// ---------------------------------------------------------------------------
// Octet strings that are not UTF-8
// ---------------------------------------------------------------------------

/// Invalid UTF-8 sequences, with the offset (from the start of the
/// sequence) of the first byte that makes it invalid when it is followed by
/// "b" in an IRI query (where every well-formed lead byte can start an
/// allowed character: ucschar or iprivate).
const BAD_UTF8: &[(&[u8], usize)] = &[
    (b"\x80", 0),             // lone continuation byte
    (b"\xBF", 0),             // lone continuation byte
    (b"\xC0\xAF", 0),         // overlong "/" (C0 is never valid)
    (b"\xC1\xBF", 0),         // overlong (C1 is never valid)
    (b"\xE0\x80\xAF", 1),     // overlong "/" in three bytes
    (b"\xE0\x82\xA0", 1),     // overlong U+00A0
    (b"\xED\xA0\x80", 1),     // surrogate U+D800
    (b"\xED\xBF\xBF", 1),     // surrogate U+DFFF
    (b"\xF0\x80\x80\xAF", 1), // overlong in four bytes
    (b"\xF4\x90\x80\x80", 1), // U+110000, beyond Unicode
    (b"\xF5\x80\x80\x80", 0), // F5 is never valid
    (b"\xFE", 0),             // never valid
    (b"\xFF", 0),             // never valid
    (b"\xC3\x28", 1),         // lead byte followed by ASCII
    (b"\xE2\x82", 2),         // truncated: "b" is no continuation byte
    (b"\xF0\x9F\x98", 3),     // truncated four-byte sequence
    (b"\xC3\xA9\xA9", 2),     // extra continuation byte
];

#[test]
fn invalid_utf8_is_rejected() {
    let rules: [&Recognizer; 6] = [
        &rfc3987::IRI_REFERENCE,
        &rfc3987::IRI,
        &rfc3987::IQUERY,
        &rfc3987::UCSCHAR,
        &rfc3987::IPRIVATE,
        &rfc3986::URI_REFERENCE,
    ];
    let mut wrong = Vec::new();
    for &(bad, _) in BAD_UTF8 {
        for (prefix, suffix) in [
            (&b"http://example.org/"[..], &b"b"[..]),
            (b"http://example.org/?", b"b"),
            (b"http://example.org/#", b"b"),
            (b"http://exa", b"mple.org/"),
            (b"", b""),
        ] {
            let input = [prefix, bad, suffix].concat();
            for rule in rules {
                if rule.is_match_bytes(&input) {
                    wrong.push(format!("{}:{} accepts {input:x?}", rule.grammar(), rule.rule()));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} accepted:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn invalid_utf8_error_offsets() {
    let prefix = b"http://example.org/?";
    let mut wrong = Vec::new();
    for &(bad, at) in BAD_UTF8 {
        let input = [&prefix[..], bad, b"b"].concat();
        match rfc3987::IRI.validate_bytes(&input) {
            Ok(()) => wrong.push(format!("{input:x?} accepted")),
            Err(e) if e.offset() != prefix.len() + at => wrong.push(format!(
                "{input:x?}: offset {}, expected {}",
                e.offset(),
                prefix.len() + at
            )),
            Err(_) => {}
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn valid_utf8_bytes_are_accepted() {
    // The same positions with well-formed UTF-8 (so the tests above fail
    // for the right reason).
    for good in [
        &b"\xC2\xA0"[..],    // U+00A0
        b"\xC3\xA9",         // U+00E9
        b"\xED\x9F\xBF",     // U+D7FF
        b"\xEF\xA4\x80",     // U+F900
        b"\xF0\x90\x80\x80", // U+10000
        b"\xF3\xAF\xBF\xBD", // U+EFFFD
    ] {
        let input = [&b"http://example.org/"[..], good, b"b"].concat();
        assert!(rfc3987::IRI.is_match_bytes(&input), "{input:x?}");
        assert!(rfc3987::UCSCHAR.is_match_bytes(good), "{good:x?}");
        assert!(!rfc3986::URI.is_match_bytes(&input), "{input:x?}");
    }
    for good in [&b"\xEE\x80\x80"[..], b"\xF3\xB0\x80\x80", b"\xF4\x8F\xBF\xBD"] {
        assert!(rfc3987::IPRIVATE.is_match_bytes(good), "{good:x?}");
        let input = [&b"http://example.org/?"[..], good].concat();
        assert!(rfc3987::IRI.is_match_bytes(&input), "{input:x?}");
    }
}

#[test]
fn truncated_utf8_at_end_reports_input_length() {
    for input in [
        &b"http://example.org/\xC3"[..],
        b"http://example.org/\xE2\x82",
        b"http://example.org/?\xF0\x9F\x98",
    ] {
        let err = rfc3987::IRI.validate_bytes(input).unwrap_err();
        assert_eq!(err.offset(), input.len(), "{input:x?}");
    }
}

// ---------------------------------------------------------------------------
// Re-exports and lookup
// ---------------------------------------------------------------------------

#[test]
fn rfc3987_reexports_rfc3986_rules() {
    assert!(std::ptr::eq(&rfc3987::IPV6ADDRESS, &rfc3986::IPV6ADDRESS));
    assert!(std::ptr::eq(&rfc3987::PCT_ENCODED, &rfc3986::PCT_ENCODED));
    assert_eq!(rfc3987::IP_LITERAL.grammar(), "rfc3986");
    assert_eq!(rfc3987::IP_LITERAL.rule(), "IP-literal");
    assert_eq!(rfc3987::IRI_REFERENCE.rule(), "IRI-reference");
    assert_eq!(rfc3987::IRI_REFERENCE.grammar(), "rfc3987");
    for name in ["IPv6address", "ipv6address", "IP-literal", "scheme", "iprivate"] {
        let r = iri_grammar::lookup("rfc3987", name).unwrap_or_else(|| panic!("rfc3987:{name} not found"));
        assert!(r.rule().eq_ignore_ascii_case(name));
    }
    assert!(iri_grammar::lookup("rfc3986", "iprivate").is_none());
    assert!(iri_grammar::lookup("rfc3986", "ucschar").is_none());
    assert!(iri_grammar::lookup("rfc9999", "URI").is_none());
}
