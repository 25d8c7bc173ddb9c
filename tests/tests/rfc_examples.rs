//! The example URIs and IRIs given in the text of RFC 3986 and RFC 3987
//! (`specs/rfc-text/`), hard-coded here with the section they come from.
//!
//! RFC 3987 writes non-ASCII characters in "XML Notation" (`&#xE9;`, §1.4)
//! and raw octets as `<c3>`; they are transcribed below as Rust `\u{..}`
//! escapes and byte strings. Its bidi examples (§4.4) use "Bidi Notation",
//! where upper-case letters stand for right-to-left (Arabic or Hebrew)
//! letters; they are checked both as written and with Hebrew letters.

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
        // `is_match` and `validate` must agree.
        assert_eq!(
            rule.is_match(input),
            result.is_ok(),
            "is_match/validate disagree on {input:?}"
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

// ---------------------------------------------------------------------------
// RFC 3986
// ---------------------------------------------------------------------------

/// RFC 3986 §1.1.2 "Examples".
const RFC3986_1_1_2: &[&str] = &[
    "ftp://ftp.is.co.za/rfc/rfc1808.txt",
    "http://www.ietf.org/rfc/rfc2396.txt",
    "ldap://[2001:db8::7]/c=GB?objectClass?one",
    "mailto:John.Doe@example.com",
    "news:comp.infosystems.www.servers.unix",
    "tel:+1-816-555-1212",
    "telnet://192.0.2.16:80/",
    "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
];

#[test]
fn rfc3986_1_1_2_examples_are_uris() {
    valid(&rfc3986::URI, RFC3986_1_1_2);
    valid(&rfc3986::URI_REFERENCE, RFC3986_1_1_2);
    valid(&rfc3986::ABSOLUTE_URI, RFC3986_1_1_2);
    // They are absolute, so not relative references.
    invalid(&rfc3986::RELATIVE_REF, RFC3986_1_1_2);
    // Every URI is an IRI (RFC 3987 §3.1).
    valid(&rfc3987::IRI, RFC3986_1_1_2);
    valid(&rfc3987::IRI_REFERENCE, RFC3986_1_1_2);
    valid(&rfc3987::ABSOLUTE_IRI, RFC3986_1_1_2);
    invalid(&rfc3987::IRELATIVE_REF, RFC3986_1_1_2);
}

#[test]
fn rfc3986_1_1_2_example_components() {
    // §1.1.2: the ldap example's host is an IPv6 literal, the telnet one's an
    // IPv4 address with a port.
    valid(&rfc3986::IP_LITERAL, &["[2001:db8::7]"]);
    valid(&rfc3986::IPV6ADDRESS, &["2001:db8::7"]);
    valid(&rfc3986::AUTHORITY, &["[2001:db8::7]", "192.0.2.16:80"]);
    valid(&rfc3986::IPV4ADDRESS, &["192.0.2.16"]);
    valid(&rfc3986::PORT, &["80"]);
    valid(
        &rfc3986::SCHEME,
        &["ftp", "http", "ldap", "mailto", "news", "tel", "telnet", "urn"],
    );
    // The query of the ldap example contains "?" and the urn example's path
    // is rootless with colons.
    valid(&rfc3986::QUERY, &["objectClass?one"]);
    valid(
        &rfc3986::PATH_ROOTLESS,
        &[
            "oasis:names:specification:docbook:dtd:xml:4.1.2",
            "John.Doe@example.com",
            "+1-816-555-1212",
        ],
    );
}

/// RFC 3986 §3 "Syntax Components": the two example URIs of the figure.
#[test]
fn rfc3986_3_component_examples() {
    let uris = &[
        "foo://example.com:8042/over/there?name=ferret#nose",
        "urn:example:animal:ferret:nose",
    ];
    valid(&rfc3986::URI, uris);
    valid(&rfc3987::IRI, uris);
    // `#nose` makes the first one not an absolute-URI.
    invalid(
        &rfc3986::ABSOLUTE_URI,
        &["foo://example.com:8042/over/there?name=ferret#nose"],
    );
    valid(&rfc3986::ABSOLUTE_URI, &["urn:example:animal:ferret:nose"]);
}

/// RFC 3986 §5.4: the base URI of all the resolution examples.
const RFC3986_5_4_BASE: &str = "http://a/b/c/d;p?q";

/// RFC 3986 §5.4.1 "Normal Examples": (reference, target URI).
const RFC3986_5_4_1: &[(&str, &str)] = &[
    ("g:h", "g:h"),
    ("g", "http://a/b/c/g"),
    ("./g", "http://a/b/c/g"),
    ("g/", "http://a/b/c/g/"),
    ("/g", "http://a/g"),
    ("//g", "http://g"),
    ("?y", "http://a/b/c/d;p?y"),
    ("g?y", "http://a/b/c/g?y"),
    ("#s", "http://a/b/c/d;p?q#s"),
    ("g#s", "http://a/b/c/g#s"),
    ("g?y#s", "http://a/b/c/g?y#s"),
    (";x", "http://a/b/c/;x"),
    ("g;x", "http://a/b/c/g;x"),
    ("g;x?y#s", "http://a/b/c/g;x?y#s"),
    ("", "http://a/b/c/d;p?q"),
    (".", "http://a/b/c/"),
    ("./", "http://a/b/c/"),
    ("..", "http://a/b/"),
    ("../", "http://a/b/"),
    ("../g", "http://a/b/g"),
    ("../..", "http://a/"),
    ("../../", "http://a/"),
    ("../../g", "http://a/g"),
];

/// RFC 3986 §5.4.2 "Abnormal Examples": (reference, target URI). For
/// "http:g" the target is the strict parsers' one.
const RFC3986_5_4_2: &[(&str, &str)] = &[
    ("../../../g", "http://a/g"),
    ("../../../../g", "http://a/g"),
    ("/./g", "http://a/g"),
    ("/../g", "http://a/g"),
    ("g.", "http://a/b/c/g."),
    (".g", "http://a/b/c/.g"),
    ("g..", "http://a/b/c/g.."),
    ("..g", "http://a/b/c/..g"),
    ("./../g", "http://a/b/g"),
    ("./g/.", "http://a/b/c/g/"),
    ("g/./h", "http://a/b/c/g/h"),
    ("g/../h", "http://a/b/c/h"),
    ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
    ("g;x=1/../y", "http://a/b/c/y"),
    ("g?y/./x", "http://a/b/c/g?y/./x"),
    ("g?y/../x", "http://a/b/c/g?y/../x"),
    ("g#s/./x", "http://a/b/c/g#s/./x"),
    ("g#s/../x", "http://a/b/c/g#s/../x"),
    ("http:g", "http:g"),
];

#[test]
fn rfc3986_5_4_base_uri() {
    // §5.4: the base is an absolute URI (no fragment).
    for rule in [
        &rfc3986::URI,
        &rfc3986::ABSOLUTE_URI,
        &rfc3986::URI_REFERENCE,
        &rfc3987::IRI,
        &rfc3987::ABSOLUTE_IRI,
        &rfc3987::IRI_REFERENCE,
    ] {
        valid(rule, &[RFC3986_5_4_BASE]);
    }
    invalid(&rfc3986::RELATIVE_REF, &[RFC3986_5_4_BASE]);
    invalid(&rfc3987::IRELATIVE_REF, &[RFC3986_5_4_BASE]);
}

fn references(table: &[(&'static str, &'static str)]) -> Vec<&'static str> {
    table.iter().map(|&(r, _)| r).collect()
}

fn targets(table: &[(&'static str, &'static str)]) -> Vec<&'static str> {
    table.iter().map(|&(_, t)| t).collect()
}

#[test]
fn rfc3986_5_4_1_normal_references_are_uri_and_iri_references() {
    assert_eq!(RFC3986_5_4_1.len(), 23);
    let refs = references(RFC3986_5_4_1);
    valid(&rfc3986::URI_REFERENCE, &refs);
    valid(&rfc3987::IRI_REFERENCE, &refs);
}

#[test]
fn rfc3986_5_4_2_abnormal_references_are_uri_and_iri_references() {
    assert_eq!(RFC3986_5_4_2.len(), 19);
    let refs = references(RFC3986_5_4_2);
    valid(&rfc3986::URI_REFERENCE, &refs);
    valid(&rfc3987::IRI_REFERENCE, &refs);
}

#[test]
fn rfc3986_5_4_references_split_into_uris_and_relative_refs() {
    // Only "g:h" and "http:g" have a scheme; all the others are relative.
    let all: Vec<&str> = references(RFC3986_5_4_1)
        .into_iter()
        .chain(references(RFC3986_5_4_2))
        .collect();
    let (absolute, relative): (Vec<&str>, Vec<&str>) =
        all.iter().partition(|r| ["g:h", "http:g"].contains(r));
    assert_eq!(absolute.len(), 2);
    valid(&rfc3986::URI, &absolute);
    valid(&rfc3987::IRI, &absolute);
    invalid(&rfc3986::RELATIVE_REF, &absolute);
    invalid(&rfc3987::IRELATIVE_REF, &absolute);
    valid(&rfc3986::RELATIVE_REF, &relative);
    valid(&rfc3987::IRELATIVE_REF, &relative);
    invalid(&rfc3986::URI, &relative);
    invalid(&rfc3987::IRI, &relative);
}

#[test]
fn rfc3986_5_4_targets_are_uris() {
    // The resolved targets of §5.4.1 and §5.4.2 are all URIs.
    let all: Vec<&str> = targets(RFC3986_5_4_1)
        .into_iter()
        .chain(targets(RFC3986_5_4_2))
        .collect();
    valid(&rfc3986::URI, &all);
    valid(&rfc3987::IRI, &all);
    // §5.4.2: "http:g" resolves to "http://a/b/c/g" for backward
    // compatibility.
    valid(&rfc3986::URI, &["http://a/b/c/g"]);
}

// ---------------------------------------------------------------------------
// RFC 3987
// ---------------------------------------------------------------------------

/// RFC 3987 example IRIs that contain non-ASCII characters: valid IRIs, not
/// URIs.
const RFC3987_IRIS: &[&str] = &[
    // §3.1, IDN example: "http://r&#xE9;sum&#xE9;.example.org".
    "http://r\u{E9}sum\u{E9}.example.org",
    // §3.1, note on IDNs in iquery.
    "http://validator.w3.org/check?uri=http%3A%2F%2Fr\u{E9}sum\u{E9}.example.org",
    // §3.1, note on step 2.3: "http://www.example.org/red%09ros&#xE9;#red".
    "http://www.example.org/red%09ros\u{E9}#red",
    // §3.1, note on non-BMP characters (Old Italic letters).
    "http://example.com/\u{10300}\u{10301}\u{10302}",
    // §3.2.1, first example, step 5: "http://www.example.org/D&#xFC;rst".
    "http://www.example.org/D\u{FC}rst",
    // §3.2.1, third example, ToUnicode of xn--99zt52a.
    "http://\u{7D0D}\u{8C46}.example.org/%E2%80%AE",
    // §5.2: the HTML/XML forms all resolve to "http://example.org/ros&#xE9;".
    "http://example.org/ros\u{E9}",
    // §5.3.2: syntax-based normalization example.
    "example://a/b/c/%7Bfoo%7D/ros\u{E9}",
    // §5.3.2.2: NFC and non-NFC (combining acute accents, U+0301).
    "http://www.example.org/r\u{E9}sum\u{E9}.html",
    "http://www.example.org/re\u{301}sume\u{301}.html",
    // §5.3.3: IDN equivalence example.
    "http://r\u{E9}sum\u{E9}.example.org",
    // §6.4: IRI corresponding to the UTF-8 URI, and the mixed-encoding one.
    "http://www.example.org/r\u{E9}sum\u{E9}.html",
    "http://www.example.org/r%E9sum%E9.xml#r\u{E9}sum\u{E9}",
    // Authors' Addresses: the IRI whose percent-encoded form is given.
    "http://www.w3.org/People/D\u{FC}rst/",
];

/// RFC 3987 example URIs (ASCII): valid URIs and therefore IRIs.
const RFC3987_URIS: &[&str] = &[
    // §3.1: the two possible URIs for "http://r&#xE9;sum&#xE9;.example.org".
    "http://xn--rsum-bpad.example.org",
    "http://r%C3%A9sum%C3%A9.example.org",
    // §3.1, note on IDNs in iquery: the converted URI.
    "http://validator.w3.org/check?uri=http%3A%2F%2Fr%C3%A9sum%C3%A9.example.org",
    // §3.1, note on step 2.3: the correct conversion.
    "http://www.example.org/red%09ros%C3%A9#red",
    // §3.1, note on non-BMP characters: the correct conversion.
    "http://example.com/%F0%90%8C%80%F0%90%8C%81%F0%90%8C%82",
    // §3.2: iso-8859-1 vs UTF-8 percent-encoding.
    "http://www.example.org/r%E9sum%E9.html",
    "http://www.example.org/r%C3%A9sum%C3%A9.html",
    // §3.2.1, step 1 of the three examples and the final results.
    "http://www.example.org/D%C3%BCrst",
    "http://www.example.org/D%FCrst",
    "http://xn--99zt52a.example.org/%e2%80%ae",
    "http://xn--99zt52a.example.org/%E2%80%AE",
    // §5.3.2: the other side of the normalization example.
    "eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9",
    // §5.3.2.1: case normalization.
    "HTTP://www.EXAMPLE.com/",
    "http://www.example.com/",
    // §5.3.2.3: percent-encoding normalization.
    "http://example.org/~user",
    "http://example.org/%7euser",
    "http://example.org/%7Euser",
    // §5.3.3: four equivalent http IRIs, and one that is not equivalent.
    "http://example.com",
    "http://example.com/",
    "http://example.com:/",
    "http://example.com:80/",
    "http://example.com/?",
    // §5.3.4: protocol-based normalization.
    "http://example.com/data",
    "http://example.com/data/",
    // §6.4: UTF-8 and iso-8859-1 parts in one URI reference.
    "http://www.example.org/r%E9sum%E9.xml#r%C3%A9sum%C3%A9",
    // §8: spoofing example.
    "http://big.example.com/PopularPage.html",
    "http://big.example.com/popularpage.html",
    // Authors' Addresses.
    "http://www.w3.org/People/D%C3%BCrst/",
    "http://www.suignard.com",
];

#[test]
fn rfc3987_example_iris_are_iris() {
    valid(&rfc3987::IRI, RFC3987_IRIS);
    valid(&rfc3987::IRI_REFERENCE, RFC3987_IRIS);
}

#[test]
fn rfc3987_example_iris_with_non_ascii_are_not_uris() {
    invalid(&rfc3986::URI, RFC3987_IRIS);
    invalid(&rfc3986::URI_REFERENCE, RFC3987_IRIS);
}

#[test]
fn rfc3987_example_uris_are_uris_and_iris() {
    valid(&rfc3986::URI, RFC3987_URIS);
    valid(&rfc3986::URI_REFERENCE, RFC3987_URIS);
    valid(&rfc3987::IRI, RFC3987_URIS);
    valid(&rfc3987::IRI_REFERENCE, RFC3987_URIS);
}

#[test]
fn rfc3987_example_absolute_forms() {
    // Those without a fragment are absolute-IRIs; those with one are not.
    let (with_fragment, without): (Vec<&str>, Vec<&str>) = RFC3987_IRIS
        .iter()
        .chain(RFC3987_URIS)
        .partition(|s| s.contains('#'));
    assert!(!with_fragment.is_empty() && !without.is_empty());
    valid(&rfc3987::ABSOLUTE_IRI, &without);
    invalid(&rfc3987::ABSOLUTE_IRI, &with_fragment);
}

#[test]
fn rfc3987_3_1_not_this_uri() {
    // §3.1, note on step 2.3: the wrong conversion, with the whole IRI
    // percent-encoded, has no scheme; it is only a relative reference.
    let s = "http%3A%2F%2Fwww.example.org%2Fred%2509ros%C3%A9%23red";
    invalid(&rfc3986::URI, &[s]);
    invalid(&rfc3987::IRI, &[s]);
    valid(&rfc3986::RELATIVE_REF, &[s]);
    valid(&rfc3987::IRELATIVE_REF, &[s]);
}

#[test]
fn rfc3987_3_2_1_octet_sequences() {
    // §3.2.1, first example, steps 2-4: "http://www.example.org/D<c3><bc>rst"
    // is the UTF-8 encoding of U+00FC, a valid IRI but not a URI.
    let utf8 = b"http://www.example.org/D\xc3\xbcrst";
    assert!(rfc3987::IRI.is_match_bytes(utf8));
    assert!(rfc3987::IRI_REFERENCE.is_match_bytes(utf8));
    assert!(!rfc3986::URI.is_match_bytes(utf8));
    assert_eq!(
        rfc3986::URI.validate_bytes(utf8).unwrap_err().offset(),
        24,
        "the URI stops matching at the first non-ASCII octet"
    );
    // §3.2.1, second example, step 2: "http://www.example.org/D<fc>rst";
    // <fc> is not a legal UTF-8 sequence, so this octet string is no IRI.
    let latin1 = b"http://www.example.org/D\xfcrst";
    assert!(!rfc3987::IRI.is_match_bytes(latin1));
    assert!(!rfc3987::IRI_REFERENCE.is_match_bytes(latin1));
    assert_eq!(rfc3987::IRI.validate_bytes(latin1).unwrap_err().offset(), 24);
    // §3.2.1, third example, steps 2-3: <e2><80><ae> is U+202E. §4.1 forbids
    // it in IRIs, but that restriction is not in the ABNF (it is in
    // ucschar %xA0-D7FF), so the octets are syntactically a valid IRI.
    let rlo = b"http://xn--99zt52a.example.org/\xe2\x80\xae";
    assert!(rfc3987::IRI.is_match_bytes(rlo));
    assert!(!rfc3986::URI.is_match_bytes(rlo));
}

#[test]
fn rfc3987_2_1_cent_sign_is_iunreserved() {
    // §2.1: U+00A2 CENT SIGN is in the 'iunreserved' category.
    valid(&rfc3987::IUNRESERVED, &["\u{A2}"]);
    valid(&rfc3987::UCSCHAR, &["\u{A2}"]);
    valid(&rfc3987::IRI, &["http://example.org/a\u{A2}b\u{A2}c"]);
    invalid(&rfc3986::UNRESERVED, &["\u{A2}"]);
}

/// RFC 3987 §4.4 "Examples": the logical representations, in Bidi Notation
/// (upper case = right-to-left letters). Examples 8 and 9 are "not allowed"
/// by the bidi rules of §4.2, which are not part of the ABNF; syntactically
/// they are IRIs too.
const RFC3987_4_4_LOGICAL: &[&str] = &[
    "http://ab.CDEFGH.ij/kl/mn/op.html",       // Example 1
    "http://ab.CDE.FGH/ij/kl/mn/op.html",      // Example 2
    "http://AB.CD.EF/GH/IJ/KL?MN=OP;QR=ST#UV", // Example 3
    "http://AB.CD.ef/gh/IJ/KL.html",           // Example 4
    "http://ab.cd.EF/GH/ij/kl.html",           // Example 5
    "http://ab.CD.EF/GH/IJ/kl.html",           // Example 6
    "http://ab.CDE123FGH.ij/kl/mn/op.html",    // Example 7
    "http://ab.cd.ef/GH1/2IJ/KL.html",         // Example 8
    "http://ab.cd.ef/GH%31/%32IJ/KL.html",     // Example 9
    "http://ab.CDEFGH.123/kl/mn/op.html",      // Example 10
];

/// Replaces the Bidi Notation's upper-case letters with Hebrew letters
/// (U+05D0 ALEF onwards); percent-encodings are left alone.
fn hebrew(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '%' {
            out.push(c);
            out.extend(chars.by_ref().take(2));
        } else if c.is_ascii_uppercase() {
            out.push(char::from_u32(0x05D0 + (c as u32 - 'A' as u32)).unwrap());
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn rfc3987_4_4_bidi_examples_are_iris() {
    valid(&rfc3987::IRI, RFC3987_4_4_LOGICAL);
    // As written they are ASCII, so URIs as well.
    valid(&rfc3986::URI, RFC3987_4_4_LOGICAL);
    let hebrew: Vec<String> = RFC3987_4_4_LOGICAL.iter().map(|s| hebrew(s)).collect();
    let hebrew: Vec<&str> = hebrew.iter().map(String::as_str).collect();
    assert_eq!(
        hebrew[0],
        "http://ab.\u{5D2}\u{5D3}\u{5D4}\u{5D5}\u{5D6}\u{5D7}.ij/kl/mn/op.html"
    );
    assert_eq!(
        hebrew[8],
        "http://ab.cd.ef/\u{5D6}\u{5D7}%31/%32\u{5D8}\u{5D9}/\u{5DA}\u{5DB}.html"
    );
    valid(&rfc3987::IRI, &hebrew);
    invalid(&rfc3986::URI, &hebrew);
}

#[test]
fn rfc3987_4_4_arabic_visual_representation_is_not_an_iri() {
    // §4.4, Example 9: the visual representation for Arabic moves the "%"
    // away from its hex digits; read as a string it is not an IRI ("%HG").
    let visual = "http://ab.cd.ef/31%HG/%LK/JI32.html";
    invalid(&rfc3987::IRI, &[visual]);
    invalid(&rfc3986::URI, &[visual]);
    assert_eq!(rfc3987::IRI.validate(visual).unwrap_err().offset(), 19);
}

#[test]
fn rfc3987_7_4_relative_references() {
    // §7.4: a file name exposed as a URI and usable in an IRI.
    valid(&rfc3986::RELATIVE_REF, &["r%C3%A9sum%C3%A9.html"]);
    valid(&rfc3987::IRELATIVE_REF, &["r%C3%A9sum%C3%A9.html"]);
    valid(&rfc3987::IRELATIVE_REF, &["r\u{E9}sum\u{E9}.html"]);
    invalid(&rfc3986::RELATIVE_REF, &["r\u{E9}sum\u{E9}.html"]);
}

#[test]
fn rfc3987_appendix_a_4_charset_label_is_not_an_iri() {
    // Appendix A.4: the rejected proposal of a charset label in square
    // brackets, "http://www.example.org/ros[iso-8859-1]&#xE9;", is not
    // IRI syntax: "[" is only allowed around an IP literal.
    let s = "http://www.example.org/ros[iso-8859-1]\u{E9}";
    invalid(&rfc3987::IRI, &[s]);
    invalid(&rfc3987::IRI_REFERENCE, &[s]);
    assert_eq!(rfc3987::IRI.validate(s).unwrap_err().offset(), 26);
}
