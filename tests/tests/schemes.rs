//! The URI scheme grammars of `specs/`: `mailto` (RFC 6068 §2), `urn`
//! (RFC 8141 §2), `data` (RFC 2397 §3), `file` (RFC 8089 §2), `tel`
//! (RFC 3966 §3), `tag` (RFC 4151 §2.1) and `http`/`https` (RFC 9110
//! §4.2.1, §4.2.2).
//!
//! Each RFC's own examples, hard-coded here with the section they come from,
//! must match the scheme's top rule, and, being URIs, RFC 3986's `URI`. A few
//! near misses per scheme must not match, each with the reason. Where an RFC
//! prints an example that its own grammar rejects, or its grammar accepts
//! what its prose forbids, a test says so.
//!
//! Examples that the RFCs print over two lines (RFC 6068 §6.1, RFC 8141
//! §2.3.2, RFC 2397 §4) are joined: "Extra whitespace and line breaks are
//! added to present long URIs -- they are not part of the actual URI"
//! (RFC 6068 §1).

use iri_grammar::{lookup, rfc3986, Recognizer};

/// The recognizer of `grammar:name`, which must exist.
fn rule(grammar: &str, name: &str) -> &'static Recognizer {
    lookup(grammar, name).unwrap_or_else(|| panic!("no rule {grammar}:{name}"))
}

/// Checks that every input has the expected verdict for `rule`, and reports
/// all the inputs that do not (with the offset `validate` gives and, for
/// inputs that must not match, the reason they must not).
fn check(rule: &Recognizer, expected: bool, cases: &[(&str, &str)]) {
    let mut wrong = Vec::new();
    for (input, why) in cases {
        let result = rule.validate(input);
        if result.is_ok() != expected {
            wrong.push(format!("{input:?} ({why}): {result:?}"));
        }
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
        cases.len(),
        wrong.join("\n")
    );
}

/// Every input matches `rule`.
fn valid(rule: &Recognizer, inputs: &[&str]) {
    let cases: Vec<(&str, &str)> = inputs.iter().map(|i| (*i, "")).collect();
    check(rule, true, &cases);
}

/// No input matches `rule`; each comes with the reason.
fn invalid(rule: &Recognizer, cases: &[(&str, &str)]) {
    check(rule, false, cases);
}

#[test]
fn every_scheme_is_a_module_with_its_top_rule() {
    use iri_grammar::{data, file, http, mailto, tag, tel, urn};
    let tops: [(&'static Recognizer, &str, &str); 8] = [
        (&mailto::MAILTO_URI, "mailto", "mailtoURI"),
        (&urn::NAMESTRING, "urn", "namestring"),
        (&data::DATAURL, "data", "dataurl"),
        (&file::FILE_URI, "file", "file-URI"),
        (&tel::TELEPHONE_URI, "tel", "telephone-uri"),
        (&tag::TAG_URI, "tag", "tagURI"),
        (&http::HTTP_URI, "http", "http-URI"),
        (&http::HTTPS_URI, "http", "https-URI"),
    ];
    for (static_rule, grammar, name) in tops {
        let found = rule(grammar, name);
        assert!(
            std::ptr::eq(static_rule, found),
            "{grammar}:{name} is not the generated static"
        );
        assert_eq!(found.grammar(), grammar);
        assert_eq!(found.rule(), name);
        // ABNF rule names are case-insensitive (RFC 5234 §2.1).
        let upper = name.to_ascii_uppercase();
        assert!(std::ptr::eq(rule(grammar, &upper), found));
    }
}

#[test]
fn imported_rules_are_rfc_3986_s() {
    // An imported rule is exported by the importing grammar too, and
    // matches what RFC 3986's does.
    for (grammar, name) in [
        ("mailto", "pct-encoded"),
        ("urn", "pchar"),
        ("file", "path-absolute"),
        ("tag", "fragment"),
        ("http", "authority"),
    ] {
        let here = rule(grammar, name);
        let there = rule("rfc3986", name);
        for input in ["%41", "a:b@c", "/a/b", "example.com:80", "/?", "%4", " "] {
            assert_eq!(
                here.is_match(input),
                there.is_match(input),
                "{grammar}:{name} and rfc3986:{name} disagree on {input:?}"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// mailto: RFC 6068
// ---------------------------------------------------------------------------

/// RFC 6068 §2 (the three equivalent forms), §6.1, §6.2 and §6.3.
const RFC6068: &[&str] = &[
    // §2
    "mailto:addr1@an.example,addr2@an.example",
    "mailto:?to=addr1@an.example,addr2@an.example",
    "mailto:addr1@an.example?to=addr2@an.example",
    // §6.1
    "mailto:chris@example.com",
    "mailto:infobot@example.com?subject=current-issue",
    "mailto:infobot@example.com?body=send%20current-issue",
    "mailto:infobot@example.com?body=send%20current-issue%0D%0Asend%20index",
    "mailto:list@example.org?In-Reply-To=%3C3469A91.D10AF4C@example.com%3E",
    "mailto:majordomo@example.com?body=subscribe%20bamboo-l",
    "mailto:joe@example.com?cc=bob@example.com&body=hello",
    "mailto:gorby%25kremvax@example.com",
    "mailto:unlikely%3Faddress@example.com?blat=foop",
    // §6.1 writes it in HTML as `...&amp;body=hello`; the URI is:
    "mailto:joe@an.example?cc=bob@an.example&body=hello",
    "mailto:Mike%26family@example.org",
    // §6.2
    "mailto:%22not%40me%22@example.org",
    "mailto:%22oh%5C%5Cno%22@example.org",
    "mailto:%22%5C%5C%5C%22it's%5C%20ugly%5C%5C%5C%22%22@example.org",
    // §6.3
    "mailto:user@example.org?subject=caf%C3%A9",
    "mailto:user@example.org?subject=%3D%3Futf-8%3FQ%3Fcaf%3DC3%3DA9%3F%3D",
    "mailto:user@example.org?subject=%3D%3Fiso-8859-1%3FQ%3Fcaf%3DE9%3F%3D",
    "mailto:user@example.org?subject=caf%C3%A9&body=caf%C3%A9",
    "mailto:user@%E7%B4%8D%E8%B1%86.example.org?subject=Test&body=NATTO",
];

#[test]
fn rfc6068_examples_are_mailto_uris() {
    valid(rule("mailto", "mailtoURI"), RFC6068);
    valid(&rfc3986::URI, RFC6068);
    // Also RFC 3986 §1.1.2's mailto example, and the scheme in upper case
    // (quoted strings are case-insensitive, RFC 5234 §2.3).
    valid(
        &iri_grammar::mailto::MAILTO_URI,
        &[
            "mailto:John.Doe@example.com",
            "MAILTO:chris@example.com",
            "mailto:",
        ],
    );
}

#[test]
fn not_mailto_uris() {
    invalid(
        rule("mailto", "mailtoURI"),
        &[
            (
                "mailto:joe@example.com?cc=bob@example.com?body=hello",
                "RFC 6068 §6.1 marks it WRONG!: a second \"?\" is not a qchar",
            ),
            ("mailto:joe", "an addr-spec needs \"@\" and a domain"),
            ("mailto:@example.org", "the local-part is empty"),
            ("mailto:a b@example.org", "a space must be percent-encoded"),
            // (After an addr-spec, "?subject" would be read as more of the
            // domain: see mailto_grammar_is_ambiguous.)
            ("mailto:?subject", "an hfield needs \"=\""),
            ("mailto:?subject=a=b", "\"=\" is not a qchar"),
            ("mailto:?body=%2", "a truncated percent-encoding"),
            ("mailto:?body=a#b", "\"#\" in an hfvalue MUST be escaped as %23"),
            (
                "mailto:a@example.org,",
                "a trailing comma leaves an empty addr-spec",
            ),
            ("mailo:joe@example.com", "another scheme"),
        ],
    );
}

#[test]
fn mailto_grammar_is_looser_than_its_prose() {
    // RFC 6068 §2 item 1: "/", "?", "#", "[" and "]" MUST be percent-encoded
    // in an addr-spec, but the ABNF (RFC 5322 dot-atom-text, the domain
    // literal) has them, and quoted-string brings characters that are not
    // URI characters at all.
    let mailto = rule("mailto", "mailtoURI");
    valid(
        mailto,
        &[
            "mailto:a/b@example.org",
            "mailto:joe@example.com#frag",
            "mailto:joe@[192.0.2.1]",
            "mailto:\"not@me\"@example.org",
        ],
    );
    assert!(!rfc3986::URI.is_match("mailto:\"not@me\"@example.org"));
}

#[test]
fn mailto_grammar_is_ambiguous() {
    // RFC 5322's atext has "?", "=", "&" and "%", so after an addr-spec the
    // header fields also read as more of the domain's dot-atom-text:
    // "example.com?subject=current-issue" is a domain by the ABNF. Both
    // readings match mailtoURI; the parse tree takes one of them (the
    // generated parser reads repetitions greedily: the domain).
    use iri_grammar::mailto::ast::{Domain, MailtoUri};
    let input = "mailto:infobot@example.com?subject=current-issue";
    assert!(Domain::parse("example.com?subject=current-issue").is_ok());
    let uri = MailtoUri::parse(input).unwrap();
    let domain = uri.to.unwrap().addr_spec.domain.text;
    match uri.hfields {
        Some(h) => assert_eq!((domain, h.text), ("example.com", "?subject=current-issue")),
        None => assert_eq!(domain, "example.com?subject=current-issue"),
    }
}

#[test]
fn mailto_parse_tree() {
    use iri_grammar::mailto::ast::MailtoUri;
    let uri = MailtoUri::parse("mailto:joe@example.com,bob@example.com?cc=x@an.example&body=hi")
        .expect("an RFC 6068 mailto URI");
    let to = uri.to.expect("a to part");
    assert_eq!(to.addr_spec.text, "joe@example.com");
    assert_eq!(to.addr_spec.local_part.text, "joe");
    assert_eq!(to.addr_spec.domain.text, "example.com");
    let more: Vec<&str> = to.addr_specs.map(|a| a.text).collect();
    assert_eq!(more, ["bob@example.com"]);
    let hfields = uri.hfields.expect("header fields");
    assert_eq!(
        (hfields.hfield.hfname, hfields.hfield.hfvalue),
        ("cc", "x@an.example")
    );
    let rest: Vec<(&str, &str)> = hfields.hfields.map(|h| (h.hfname, h.hfvalue)).collect();
    assert_eq!(rest, [("body", "hi")]);

    // "?to=addr1" is a dot-atom-text too (see mailto_grammar_is_ambiguous):
    // this reads as header fields, or as a to part with that local-part.
    let no_to = MailtoUri::parse("mailto:?to=addr1@an.example").unwrap();
    match (no_to.to, no_to.hfields) {
        (None, Some(h)) => assert_eq!(h.hfield.hfname, "to"),
        (Some(to), None) => assert_eq!(to.addr_spec.local_part.text, "?to=addr1"),
        other => panic!("neither reading: {other:?}"),
    }
}

// ---------------------------------------------------------------------------
// urn: RFC 8141
// ---------------------------------------------------------------------------

/// RFC 8141 §2.2, §2.3.1, §2.3.2, §2.3.3 and §3.2.
const RFC8141: &[&str] = &[
    // §2.2
    "urn:example:1/406/47452/2",
    // §2.3.1
    "urn:example:foo-bar-baz-qux?+CCResolve:cc=uk",
    // §2.3.2
    "urn:example:weather?=op=map&lat=39.56&lon=-104.85&datetime=1969-07-21T02:56:15Z",
    // §2.3.3
    "urn:example:foo-bar-baz-qux#somepart",
    // §3.2
    "urn:example:a123,z456",
    "URN:example:a123,z456",
    "urn:EXAMPLE:a123,z456",
    "urn:example:a123,z456?+abc",
    "urn:example:a123,z456?=xyz",
    "urn:example:a123,z456#789",
    "urn:example:a123,z456/foo",
    "urn:example:a123,z456/bar",
    "urn:example:a123,z456/baz",
    "urn:example:a123%2Cz456",
    "URN:EXAMPLE:a123%2cz456",
    "urn:example:A123,z456",
    "urn:example:a123,Z456",
    "urn:example:%D0%B0123,z456",
];

#[test]
fn rfc8141_examples_are_urns() {
    valid(rule("urn", "namestring"), RFC8141);
    valid(&rfc3986::URI, RFC8141);
    // RFC 3986 §1.1.2's URN, an NID of 32 characters (the most), and empty
    // f-components.
    valid(
        &iri_grammar::urn::NAMESTRING,
        &[
            "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
            "urn:abcdefghijklmnopqrstuvwxyz012345:x",
            "urn:example:foo-bar-baz-qux?+CCResolve:cc=uk#",
        ],
    );
}

#[test]
fn not_urns() {
    invalid(
        rule("urn", "namestring"),
        &[
            ("urn:a:b", "an NID has 2 to 32 characters"),
            (
                "urn:abcdefghijklmnopqrstuvwxyz0123456:x",
                "an NID of 33 characters",
            ),
            ("urn:-example:x", "an NID starts with a letter or digit"),
            ("urn:example-:x", "an NID ends with a letter or digit"),
            ("urn:ex_ample:x", "\"_\" is not ldh"),
            ("urn:example:", "the NSS is empty"),
            ("urn:example:/a", "an NSS starts with a pchar, not \"/\""),
            ("urn:example:a?+", "an r-component is not empty"),
            ("urn:example:a?=", "a q-component is not empty"),
            ("urn:example:a?q", "a bare \"?\" is neither \"?+\" nor \"?=\""),
            ("urn:example:a b", "a space is not a pchar"),
            ("urn:example:a%2", "a truncated percent-encoding"),
            ("urn:example", "no NSS"),
            ("urm:example:a", "another scheme"),
        ],
    );
}

#[test]
fn urn_parse_tree() {
    use iri_grammar::urn::ast::Namestring;
    let urn = Namestring::parse("urn:example:a123,z456?+abc#789").expect("an RFC 8141 URN");
    assert_eq!(urn.assigned_name, "urn:example:a123,z456");
    let rq = urn.rq_components.expect("rq-components");
    assert_eq!(rq.r_component, Some("abc"));
    assert_eq!(rq.q_component, None);
    assert_eq!(urn.f_component, Some("789"));

    let urn = Namestring::parse("urn:example:a123,z456?=xyz").unwrap();
    let rq = urn.rq_components.unwrap();
    assert_eq!((rq.r_component, rq.q_component), (None, Some("xyz")));
    assert_eq!(urn.f_component, None);

    // RFC 8141's grammar is ambiguous here: an r-component may contain "?"
    // and "=", so "abc?=xyz" is either an r-component alone or an
    // r-component "abc" and a q-component "xyz". Both parses are valid.
    let both = "urn:example:a123,z456?+abc?=xyz";
    assert!(iri_grammar::urn::NAMESTRING.is_match(both));
    let rq = Namestring::parse(both).unwrap().rq_components.unwrap();
    let direct = iri_grammar::urn::ast::RqComponents::parse("?+abc?=xyz").unwrap();
    assert_eq!(
        (rq.r_component, rq.q_component),
        (direct.r_component, direct.q_component),
        "the nested parse agrees with a direct parse"
    );
    // (The generated parser reads repetitions greedily: it gives the
    // r-component "abc?=xyz" and no q-component.)
    assert!(matches!(
        (rq.r_component, rq.q_component),
        (Some("abc"), Some("xyz")) | (Some("abc?=xyz"), None)
    ));
}

// ---------------------------------------------------------------------------
// data: RFC 2397
// ---------------------------------------------------------------------------

/// RFC 2397 §4, as corrected below for the one that has "%fg".
const RFC2397: &[&str] = &[
    "data:,A%20brief%20note",
    concat!(
        "data:image/gif;base64,R0lGODdhMAAwAPAAAAAAAP///ywAAAAAMAAw",
        "AAAC8IyPqcvt3wCcDkiLc7C0qwyGHhSWpjQu5yqmCYsapyuvUUlvONmOZtfzgFz",
        "ByTB10QgxOR0TqBQejhRNzOfkVJ+5YiUqrXF5Y5lKh/DeuNcP5yLWGsEbtLiOSp",
        "a/TPg7JpJHxyendzWTBfX0cxOnKPjgBzi4diinWGdkF8kjdfnycQZXZeYGejmJl",
        "ZeGl9i2icVqaNVailT6F5iJ90m6mvuTS4OK05M0vDk0Q4XUtwvKOzrcd3iq9uis",
        "F81M1OIcR7lEewwcLp7tuNNkM3uNna3F2JQFo97Vriy/Xl4/f1cf5VWzXyym7PH",
        "hhx4dbgYKAAA7"
    ),
    "data:application/vnd-xxx-query,select_vcount,fcol_from_fieldtable/local",
];

/// RFC 2397 §4 prints this example of a charset parameter, but "%fg" is not
/// an escape (RFC 2396 §2.4.1: "%" hex hex), so it is not a data URL, nor a
/// URI; with a hexadecimal middle octet it is both.
const RFC2397_FG: &str = "data:text/plain;charset=iso-8859-7,%be%fg%be";

#[test]
fn rfc2397_examples_are_data_urls() {
    valid(rule("data", "dataurl"), RFC2397);
    valid(&rfc3986::URI, RFC2397);
    let dataurl = &iri_grammar::data::DATAURL;
    let fixed = RFC2397_FG.replace("%fg", "%d3");
    valid(dataurl, &[&fixed]);
    invalid(dataurl, &[(RFC2397_FG, "\"%fg\" is not an escape")]);
    assert!(!rfc3986::URI.is_match(RFC2397_FG));
    // Omitted parts (§2: "If <mediatype> is omitted, it defaults to
    // text/plain;charset=US-ASCII"; the data may be empty), parameters
    // without a type, x-tokens, and tokens in URL escaped encoding.
    valid(
        dataurl,
        &[
            "data:,",
            "data:;base64,",
            "data:;charset=utf-8,abc",
            "DATA:TEXT/PLAIN;BASE64,SGk=",
            "data:x-foo/x-bar;a=b;c=d,hello",
            "data:text/plain;charset=%22utf-8%22,x",
            "data:text/x%7Bcurly%7D,x",
        ],
    );
}

#[test]
fn not_data_urls() {
    invalid(
        rule("data", "dataurl"),
        &[
            ("data:text/plain", "no \",\" before the data"),
            ("data:text/plain;base64", "no \",\" before the data"),
            ("data:text,x", "a type needs \"/\" subtype"),
            ("data:/plain,x", "an empty type is not a token"),
            (
                "data:text/plain;charset,x",
                "a parameter needs \"=\"; only \";base64\" stands alone",
            ),
            (
                "data:;base64;charset=x,y",
                "\";base64\" comes after the parameters",
            ),
            ("data:text/plain,a b", "a space is not a urlchar"),
            ("data:text/plain,#x", "\"#\" is not a urlchar"),
            (
                "data:text/x{curly},x",
                "\"{\" is a token character only as an escape",
            ),
            ("data:text/plain;charset=\"utf-8\",x", "a quote is not a urlchar"),
            ("date:,x", "another scheme"),
        ],
    );
}

#[test]
fn data_parse_tree() {
    use iri_grammar::data::ast::Dataurl;
    let url = Dataurl::parse("data:text/plain;charset=iso-8859-7,%be%d3%be").expect("a data URL");
    assert_eq!(url.data, "%be%d3%be");
    let mediatype = url.mediatype.expect("a media type");
    assert_eq!(mediatype.text, "text/plain;charset=iso-8859-7");

    // mediatype may match nothing, so `[ mediatype ]` is absent or empty.
    let url = Dataurl::parse("data:,A%20brief%20note").unwrap();
    assert_eq!(url.mediatype.map_or("", |m| m.text), "");
    assert_eq!(url.data, "A%20brief%20note");

    let url = Dataurl::parse("data:text/plain;base64,SGk=").unwrap();
    assert_eq!(url.mediatype.map(|m| m.text), Some("text/plain"));
    assert_eq!(url.data, "SGk=");
}

// ---------------------------------------------------------------------------
// file: RFC 8089
// ---------------------------------------------------------------------------

/// RFC 8089 Appendix B, and the forms §2's grammar also covers among those
/// of Appendix E.2 and E.3.1.
const RFC8089: &[&str] = &[
    // Appendix B
    "file:///path/to/file",
    "file:/path/to/file",
    "file://host.example.com/path/to/file",
    // Appendix E.2: "URIs of the form file:///c:/path/to/file are already
    // supported by the path-absolute rule."
    "file:///c:/path/to/file",
    // Appendix E.3.1
    "file://host.example.com/Share/path/to/file.txt",
];

/// RFC 8089 Appendix E's nonstandard forms, which the normative syntax of
/// §2 does not have.
const RFC8089_NONSTANDARD: &[(&str, &str)] = &[
    (
        "file:c:/path/to/file",
        "E.2: a drive letter without a leading \"/\"",
    ),
    ("file:///c|/path/to/file", "E.2.2: \"|\" in a drive letter"),
    ("file:/c|/path/to/file", "E.2.2: \"|\" in a drive letter"),
    ("file:c|/path/to/file", "E.2.2: \"|\" in a drive letter"),
    (
        "file:////host.example.com/path/to/file",
        "E.3.2: a UNC path after an empty authority",
    ),
    (
        "file://///host.example.com/path/to/file",
        "E.3.2: the same with an extra \"/\"",
    ),
];

#[test]
fn rfc8089_examples_are_file_uris() {
    valid(rule("file", "file-URI"), RFC8089);
    valid(&rfc3986::URI, RFC8089);
    // "localhost", an IP literal, and an IPv6 zone identifier (RFC 8089
    // imports host "as updated by [RFC6874]").
    valid(
        &iri_grammar::file::FILE_URI,
        &[
            "file://localhost/etc/hosts",
            "FILE:///etc/hosts",
            "file://[2001:db8::7]/path",
            "file://[fe80::a%25en1]/path",
            "file:///",
        ],
    );
    assert!(!rfc3986::URI.is_match("file://[fe80::a%25en1]/path"));
}

#[test]
fn rfc8089_nonstandard_forms_are_not_file_uris() {
    invalid(rule("file", "file-URI"), RFC8089_NONSTANDARD);
}

#[test]
fn not_file_uris() {
    invalid(
        rule("file", "file-URI"),
        &[
            ("file:", "no path"),
            ("file://", "an authority needs a path-absolute after it"),
            (
                "file://host.example.com",
                "an authority needs a path-absolute after it",
            ),
            ("file:path/to/file", "a local path is absolute"),
            ("file:///path?query", "a file URI has no query"),
            ("file:///path#fragment", "file-URI has no fragment"),
            ("file://host:8080/path", "file-auth has no port"),
            (
                "file://user@host.example.com/path/to/file",
                "user information is only in the nonstandard Appendix E.1",
            ),
            ("file:///a b", "a space is not a pchar"),
            ("files:///path", "another scheme"),
        ],
    );
}

#[test]
fn file_parse_tree() {
    use iri_grammar::file::ast::{FileHierPart, FileHierPartKind};
    let part = FileHierPart::parse("//host.example.com/path/to/file").expect("a file-hier-part");
    match part.kind {
        FileHierPartKind::AuthPath(auth_path) => {
            assert_eq!(auth_path.text, "host.example.com/path/to/file");
            let auth = auth_path.file_auth.expect("a file-auth");
            assert_eq!(auth, "host.example.com");
            assert_eq!(auth_path.path_absolute, "/path/to/file");
        }
        other => panic!("not an auth-path: {other:?}"),
    }
    let part = FileHierPart::parse("/path/to/file").unwrap();
    assert!(matches!(part.kind, FileHierPartKind::LocalPath(_)));
}

// ---------------------------------------------------------------------------
// tel: RFC 3966
// ---------------------------------------------------------------------------

/// RFC 3966 §6.
const RFC3966: &[&str] = &[
    "tel:+1-201-555-0123",
    "tel:7042;phone-context=example.com",
    "tel:863-1234;phone-context=+1-914-555",
];

#[test]
fn rfc3966_examples_are_tel_uris() {
    valid(rule("tel", "telephone-uri"), RFC3966);
    valid(&rfc3986::URI, RFC3966);
    valid(
        &iri_grammar::tel::TELEPHONE_URI,
        &[
            "tel:+1-816-555-1212",
            "TEL:+1",
            "tel:+1-201-555-0123;ext=1234",
            "tel:+1-201-555-0123;isub=1411",
            "tel:+12015550123;foo=bar;baz",
            "tel:7042;phone-context=example.com.",
            "tel:*23#;phone-context=+1",
            "tel:abc;phone-context=+1",
        ],
    );
}

#[test]
fn not_tel_uris() {
    invalid(
        rule("tel", "telephone-uri"),
        &[
            ("tel:7042", "a local number needs a phone-context"),
            ("tel:1-201-555-0123", "a local number needs a phone-context"),
            ("tel:+", "a global number has a digit"),
            ("tel:+-", "a global number has a digit"),
            ("tel:+1 201 555 0123", "a space is not a visual separator"),
            (
                "tel:+1-201-555-0123#",
                "\"#\" and \"*\" are only in local numbers",
            ),
            (
                "tel:7042;phone-context=-example.com",
                "a domain label starts with a letter or digit",
            ),
            (
                "tel:7042;phone-context=example.1",
                "a top label starts with a letter",
            ),
            ("tel:+1;=x", "a parameter has a name"),
            ("tel:+1;isub=", "an ISDN subaddress is not empty"),
            ("tel://+1", "\"/\" cannot start a number"),
            ("fax:+1", "another scheme"),
        ],
    );
}

#[test]
fn tel_grammar_quirks() {
    // phonedigit = DIGIT / [ visual-separator ] may match nothing, so
    // 1*phonedigit does too: an empty extension is valid by the ABNF.
    valid(&iri_grammar::tel::TELEPHONE_URI, &["tel:+1-201-555-0123;ext="]);
}

#[test]
fn tel_parse_tree() {
    use iri_grammar::tel::ast::{TelephoneSubscriber, TelephoneSubscriberKind};
    let global = TelephoneSubscriber::parse("+1-201-555-0123").expect("a global number");
    match global.kind {
        TelephoneSubscriberKind::GlobalNumber(n) => {
            assert_eq!(n.global_number_digits.text, "+1-201-555-0123")
        }
        other => panic!("not a global number: {other:?}"),
    }
    let local = TelephoneSubscriber::parse("7042;phone-context=example.com").unwrap();
    match local.kind {
        TelephoneSubscriberKind::LocalNumber(n) => {
            assert_eq!(n.local_number_digits.text, "7042");
            assert_eq!(n.context, ";phone-context=example.com");
        }
        other => panic!("not a local number: {other:?}"),
    }
}

// ---------------------------------------------------------------------------
// tag: RFC 4151
// ---------------------------------------------------------------------------

/// RFC 4151 §2.1.
const RFC4151: &[&str] = &[
    "tag:timothy@hpl.hp.com,2001:web/externalHome",
    "tag:sandro@w3.org,2004-05:Sandro",
    "tag:my-ids.com,2001-09-15:TimKindberg:presentations:UBath2004-05-19",
    "tag:blogger.com,1999:blog-555",
    "tag:yaml.org,2002:int",
];

#[test]
fn rfc4151_examples_are_tag_uris() {
    valid(rule("tag", "tagURI"), RFC4151);
    valid(&rfc3986::URI, RFC4151);
    // A fragment, and an empty specific part (specific = *( ... )).
    valid(
        &iri_grammar::tag::TAG_URI,
        &["tag:yaml.org,2002:int#section1", "tag:example.com,2000:"],
    );
}

/// `@components tagURI` (its states form cycles: a walk that loops around
/// a match on the state): the generated exit walk finds the table walk's
/// parts, or fails where it fails, on the RFC's examples, every prefix of
/// them and every one-byte change of them.
#[test]
fn tag_components_by_the_exit_walk_are_the_table_walk_s() {
    use iri_grammar::abnf_runtime::simd::Level;
    use iri_grammar::tag::components::TagUri;
    let mut inputs: Vec<String> = Vec::new();
    for s in RFC4151
        .iter()
        .chain(&["tag:yaml.org,2002:int#section1", "tag:a-b.c,2000-01-31:"])
    {
        for end in 0..=s.len() {
            inputs.push(s[..end].to_string());
        }
        for at in 0..s.len() {
            for c in [
                "a", "0", "-", ".", ",", ":", "@", "#", "/", "?", "_", " ", "é", "",
            ] {
                inputs.push(format!("{}{c}{}", &s[..at], &s[at + 1..]));
            }
        }
    }
    let mut valid = 0;
    for s in &inputs {
        let want = TagUri::__parse_by_table(s);
        assert_eq!(TagUri::parse(s), want, "{s:?}");
        for level in Level::available() {
            assert_eq!(
                TagUri::__parse_by_exits(s, level),
                want.ok(),
                "{s:?} at {level:?}"
            );
        }
        assert_eq!(want.is_ok(), iri_grammar::tag::TAG_URI.is_match(s), "{s:?}");
        valid += usize::from(want.is_ok());
    }
    assert!(valid > 500, "{valid} of {}", inputs.len());
    let text = "tag:sandro@w3.org,2004-05:Sandro#x";
    let c = TagUri::parse(text).unwrap();
    let part = |p: Option<iri_grammar::Span>| p.map(|p| &text[p.range()]);
    assert_eq!(
        (part(c.entity), part(c.specific), part(c.fragment)),
        (Some("sandro@w3.org,2004-05"), Some("Sandro"), Some("x"))
    );
}

#[test]
fn not_tag_uris() {
    invalid(
        rule("tag", "tagURI"),
        &[
            ("tag:example.com:x", "a tagging entity has a date"),
            ("tag:example.com,2000", "no \":\" and specific part"),
            ("tag:example.com,01:x", "a year has 4 digits"),
            ("tag:example.com,2000-1:x", "a month has 2 digits"),
            ("tag:example.com,2000-01-1:x", "a day has 2 digits"),
            ("tag:example.com,2000-01-01-01:x", "a date has at most 3 parts"),
            (
                "tag:-example.com,2000:x",
                "a DNS component starts with a letter or digit",
            ),
            (
                "tag:example-.com,2000:x",
                "a DNS component ends with a letter or digit",
            ),
            ("tag:a@b@example.com,2000:x", "an email address has one \"@\""),
            ("tag:@example.com,2000:x", "an email address has a local part"),
            ("tag:,2000:x", "no authority name"),
            ("tag:example.com,2000:a b", "a space is not a pchar"),
            ("tag:example.com,2000:a#b#c", "\"#\" is not a fragment character"),
        ],
    );
}

#[test]
fn tag_parse_tree() {
    use iri_grammar::tag::ast::TagUri;
    let tag = TagUri::parse("tag:sandro@w3.org,2004-05:Sandro").expect("an RFC 4151 tag");
    assert_eq!(tag.tagging_entity, "sandro@w3.org,2004-05");
    assert_eq!(tag.specific, "Sandro");
    assert_eq!(tag.fragment, None);
    let tag = TagUri::parse("tag:yaml.org,2002:int#section1").unwrap();
    assert_eq!((tag.specific, tag.fragment), ("int", Some("section1")));
}

// ---------------------------------------------------------------------------
// http, https: RFC 9110
// ---------------------------------------------------------------------------

/// RFC 9110 §4.2.3 (three equivalent http URIs).
const RFC9110_HTTP: &[&str] = &[
    "http://example.com:80/~smith/home.html",
    "http://EXAMPLE.com/%7Esmith/home.html",
    "http://EXAMPLE.com:/%7esmith/home.html",
];

/// RFC 9110 §4.3.1 (a URI and its origin as a URI prefix).
const RFC9110_HTTPS: &[&str] = &["https://Example.Com/happy.js", "https://example.com:443"];

#[test]
fn rfc9110_examples_are_http_uris() {
    let (http, https) = (rule("http", "http-URI"), rule("http", "https-URI"));
    valid(http, RFC9110_HTTP);
    valid(https, RFC9110_HTTPS);
    valid(&rfc3986::URI, RFC9110_HTTP);
    valid(&rfc3986::URI, RFC9110_HTTPS);
    // Each scheme is its own rule.
    let as_other = |inputs: &[&'static str]| -> Vec<(&'static str, &'static str)> {
        inputs.iter().map(|i| (*i, "the other scheme")).collect()
    };
    invalid(http, &as_other(RFC9110_HTTPS));
    invalid(https, &as_other(RFC9110_HTTP));
    valid(
        http,
        &[
            "HTTP://example.com",
            "http://www.example.org/where?q=now",
            "http://[2001:db8::7]:8080/a?b/c?d",
            "http://192.0.2.16",
        ],
    );
}

#[test]
fn not_http_uris() {
    invalid(
        rule("http", "http-URI"),
        &[
            ("http:/example.com", "\"://\" is required"),
            ("http:example.com", "\"://\" is required"),
            (
                "http://example.com/#top",
                "http-URI has no fragment (RFC 9110 §4.2.5: a URI reference may)",
            ),
            ("http://exa mple.com/", "a space is not in a reg-name"),
            ("http://[::1/", "an unclosed IP literal"),
            ("http://example.com:8o/", "a port is digits"),
            ("http://a/b c", "a space is not a pchar"),
        ],
    );
}

#[test]
fn http_grammar_allows_an_empty_host() {
    // RFC 9110 §4.2.1: "A sender MUST NOT generate an "http" URI with an
    // empty host identifier. A recipient that processes such a URI reference
    // MUST reject it as invalid." That is prose: the grammar's reg-name may
    // be empty.
    valid(
        rule("http", "http-URI"),
        &["http://", "http:///path", "http://:80/"],
    );
    valid(rule("http", "https-URI"), &["https://"]);
}

#[test]
fn http_parse_tree() {
    use iri_grammar::http::ast::{HttpUri, HttpsUri};
    let uri = HttpUri::parse("http://example.com:80/~smith/home.html").expect("an http URI");
    assert_eq!(uri.authority.host.text, "example.com");
    assert_eq!(uri.authority.port, Some("80"));
    let segments: Vec<&str> = uri.path_abempty.segments.collect();
    assert_eq!(segments, ["~smith", "home.html"]);
    assert_eq!(uri.query, None);

    // An empty port is still a port subcomponent.
    let uri = HttpUri::parse("http://EXAMPLE.com:/%7esmith/home.html").unwrap();
    assert_eq!(uri.authority.port, Some(""));

    let uri = HttpsUri::parse("https://Example.Com/happy.js?v=2").expect("an https URI");
    assert_eq!(uri.authority.host.text, "Example.Com");
    assert_eq!(uri.authority.port, None);
    assert_eq!(uri.query, Some("v=2"));
    // The parse trees of imported rules are RFC 3986's own types.
    let authority: iri_grammar::rfc3986::ast::Authority = uri.authority;
    assert_eq!(authority.userinfo, None);
}
