//! The RFC 3987 / RFC 3986 operations of `iri_grammar::ops`: the RFCs' own
//! examples, the vector files in `tests/data/vectors/` (see `SOURCES.md`
//! there), the peers (oxiri, iri-string, fluent-uri) where they have the
//! same operation, and property tests.
//!
//! The RFCs decide, not the peers: every difference from a peer is listed
//! (in `*_DIFFERENCES` below) with the RFC text that settles it, and the
//! tests check that the differences found are exactly the listed ones.

use std::collections::BTreeSet;

use iri_grammar::ops::{
    self, bidi_lint, equivalent, iri_to_uri_idna, percent_encode, relativize, remove_dot_segments, resolve,
    resolve_uri, BidiComponent, BidiRule, IriBuilder, Normalizer, Part, Rung,
};
use iri_grammar::{rfc3986, rfc3987, Iri, IriRef, IriRefBuf, ParseErrorKind, Uri, UriRef, UriRefBuf};
use proptest::prelude::*;

/// Syntax-based normalization (RFC 3987 §5.3.2, RFC 3986 §6.2.2): what the
/// peers' normalization vectors hold. (`ops::normalize` and the types'
/// `normalize` methods are scheme-based, §5.3.3; tested below.)
fn normalize(r: IriRef<'_>) -> IriRefBuf {
    Normalizer::syntax_based().normalize(r)
}

/// [`normalize`] for URI references.
fn normalize_uri(r: UriRef<'_>) -> UriRefBuf {
    Normalizer::syntax_based().normalize_uri(r)
}

const RESOLVE: &str = include_str!("../data/vectors/resolve.tsv");
const RESOLVE_NONSTANDARD: &str = include_str!("../data/vectors/resolve-nonstandard.tsv");
const REMOVE_DOT_SEGMENTS: &str = include_str!("../data/vectors/remove-dot-segments.tsv");
const RELATIVIZE: &str = include_str!("../data/vectors/relativize.tsv");
const NORMALIZE: &str = include_str!("../data/vectors/normalize.tsv");
const NORMALIZE_IRI: &str = include_str!("../data/vectors/normalize-iri.tsv");
const NORMALIZE_NONSTANDARD: &str = include_str!("../data/vectors/normalize-nonstandard.tsv");
const IRI_TO_URI: &str = include_str!("../data/vectors/iri-to-uri.tsv");
const IRI_TO_URI_IDNA: &str = include_str!("../data/vectors/iri-to-uri-idna.tsv");
const VALID_IRI: &str = include_str!("../data/vectors/valid-iri.txt");
const VALID_URI: &str = include_str!("../data/vectors/valid-uri.txt");

// ---------------------------------------------------------------------------
// Reading the vector files
// ---------------------------------------------------------------------------

/// The lines of a file; only "\n" separates them (data lines may start
/// with "#" or "?", and are taken verbatim).
fn lines(file: &str) -> Vec<&str> {
    file.strip_suffix('\n').unwrap_or(file).split('\n').collect()
}

/// The rows of a headerless TSV file, each with `n` columns.
fn rows(file: &str, n: usize) -> Vec<Vec<&str>> {
    let rows: Vec<Vec<&str>> = lines(file).into_iter().map(|l| l.split('\t').collect()).collect();
    for r in &rows {
        assert_eq!(r.len(), n, "{r:?}");
    }
    rows
}

/// The rows of a TSV file with a header row (dropped).
fn rows_after_header(file: &str, n: usize) -> Vec<Vec<&str>> {
    let mut all = rows(file, n);
    all.remove(0);
    all
}

fn iri(s: &str) -> Iri<'_> {
    Iri::parse(s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
}

fn iri_ref(s: &str) -> IriRef<'_> {
    IriRef::parse(s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
}

/// Collects mismatches and fails with all of them at once.
#[derive(Default)]
struct Mismatches(Vec<String>);

impl Mismatches {
    fn check(&mut self, what: impl std::fmt::Display, got: &str, want: &str) {
        if got != want {
            self.0.push(format!("{what}: got {got:?}, want {want:?}"));
        }
    }

    fn assert_none(self, what: &str) {
        assert!(
            self.0.is_empty(),
            "{what}: {} mismatches:\n{}",
            self.0.len(),
            self.0.join("\n")
        );
    }
}

// ---------------------------------------------------------------------------
// RFC 3987 §3.1: IRI → URI
// ---------------------------------------------------------------------------

#[test]
fn rfc3987_3_1_examples() {
    // "http://r&#xE9;sum&#xE9;.example.org" → "http://r%C3%A9sum%C3%A9.example.org",
    // or with ToASCII "http://xn--rsum-bpad.example.org".
    let r = iri_ref("http://résumé.example.org");
    assert_eq!(r.to_uri().as_str(), "http://r%C3%A9sum%C3%A9.example.org");
    assert_eq!(
        iri_to_uri_idna(r).unwrap().as_str(),
        "http://xn--rsum-bpad.example.org"
    );
    // "http://www.example.org/red%09ros&#xE9;#red" → ".../red%09ros%C3%A9#red".
    assert_eq!(
        iri_ref("http://www.example.org/red%09rosé#red").to_uri().as_str(),
        "http://www.example.org/red%09ros%C3%A9#red"
    );
    // Old Italic, outside the BMP.
    assert_eq!(
        iri_ref("http://example.com/\u{10300}\u{10301}\u{10302}")
            .to_uri()
            .as_str(),
        "http://example.com/%F0%90%8C%80%F0%90%8C%81%F0%90%8C%82"
    );
    // The validator example of §3.1's notes.
    assert_eq!(
        iri_ref("http://validator.w3.org/check?uri=http%3A%2F%2Frésumé.example.org")
            .to_uri()
            .as_str(),
        "http://validator.w3.org/check?uri=http%3A%2F%2Fr%C3%A9sum%C3%A9.example.org"
    );
    // Private-use characters (iprivate) are encoded too; "#", "%", "[" and "]"
    // never are.
    assert_eq!(
        iri_ref("//[::1]/a%20b?\u{E000}\u{10FFFD}#x").to_uri().as_str(),
        "//[::1]/a%20b?%EE%80%80%F4%8F%BF%BD#x"
    );
}

#[test]
fn iri_to_uri_vectors() {
    let mut m = Mismatches::default();
    for row in rows(IRI_TO_URI, 2) {
        let (input, want) = (row[0], row[1]);
        let uri = iri_ref(input).to_uri();
        m.check(input, uri.as_str(), want);
        // Identity on URIs, idempotent.
        m.check(
            format_args!("{want} again"),
            IriRef::from(UriRef::parse(want).unwrap()).to_uri().as_str(),
            want,
        );
        m.check(
            format_args!("{input} as str"),
            &ops::iri_to_uri_str(input).unwrap(),
            want,
        );
    }
    m.assert_none("iri-to-uri.tsv");
}

#[test]
fn iri_to_uri_idna_vectors() {
    let mut m = Mismatches::default();
    for row in rows_after_header(IRI_TO_URI_IDNA, 3) {
        let (input, want) = (row[0], row[1]);
        let got = iri_to_uri_idna(iri_ref(input)).map(|u| u.into_string());
        m.check(input, &got.unwrap_or_else(|e| format!("error: {e}")), want);
    }
    m.assert_none("iri-to-uri-idna.tsv");
    // Hosts ToASCII rejects; schemes without domain names; relative references.
    for bad in ["http://a_b.ü/", "http://-ü.de/", "https://%FF%C3%BC.de/"] {
        let e = iri_to_uri_idna(iri_ref(bad)).unwrap_err();
        assert!(e.to_string().contains("RFC 3987 §3.1"), "{e}");
    }
    assert_eq!(
        iri_to_uri_idna(iri_ref("mailto://ü.de")).unwrap().as_str(),
        "mailto://%C3%BC.de"
    );
    assert_eq!(
        iri_to_uri_idna(iri_ref("//ü.de/ü")).unwrap().as_str(),
        "//%C3%BC.de/%C3%BC"
    );
    // Percent-encoded UTF-8 in the host is decoded first.
    assert_eq!(
        iri_to_uri_idna(iri_ref("http://B%C3%BCcher.de"))
            .unwrap()
            .as_str(),
        "http://xn--bcher-kva.de"
    );
    // IP literals are left alone.
    assert_eq!(
        iri_to_uri_idna(iri_ref("http://[::1]/ü")).unwrap().as_str(),
        "http://[::1]/%C3%BC"
    );
}

// ---------------------------------------------------------------------------
// RFC 3987 §3.2: URI → IRI
// ---------------------------------------------------------------------------

#[test]
fn rfc3987_3_2_1_examples() {
    let to_iri = |u: &str| UriRef::parse(u).unwrap().to_iri().into_string();
    // 1: "%C3%BC" is strictly legal UTF-8: U+00FC.
    assert_eq!(
        to_iri("http://www.example.org/D%C3%BCrst"),
        "http://www.example.org/D\u{FC}rst"
    );
    // 2: "%FC" is not UTF-8: re-encoded in step 3.
    assert_eq!(
        to_iri("http://www.example.org/D%FCrst"),
        "http://www.example.org/D%FCrst"
    );
    // 3: U+202E is forbidden by §4.1: re-encoded in step 4, in upper case;
    // the punycode label is not converted.
    assert_eq!(
        to_iri("http://xn--99zt52a.example.org/%e2%80%ae"),
        "http://xn--99zt52a.example.org/%E2%80%AE"
    );
    // The absolute form gives the same.
    assert_eq!(
        Uri::parse("http://www.example.org/D%C3%BCrst")
            .unwrap()
            .to_iri()
            .as_str(),
        "http://www.example.org/D\u{FC}rst"
    );
}

#[test]
fn rfc3987_3_2_steps() {
    let to_iri = |u: &str| UriRef::parse(u).unwrap().to_iri().into_string();
    // Step 2: "%", reserved characters and ASCII not allowed in URIs stay
    // encoded (as written); unreserved ones are decoded.
    assert_eq!(to_iri("/%25%2f%3A%5b%20%7B%41%7e%2E"), "/%25%2f%3A%5b%20%7BA~.");
    // Step 3: overlong, surrogate, out of range, truncated: stay encoded.
    assert_eq!(
        to_iri("/%C0%AE%ED%A0%80%F4%90%80%80%E2%82"),
        "/%C0%AE%ED%A0%80%F4%90%80%80%E2%82"
    );
    // ... while the valid sequences around them are decoded.
    assert_eq!(to_iri("/%ce%ce%b1%b1"), "/%CEα%B1");
    // Step 4: all seven bidi formatting characters stay encoded.
    for c in ops::BIDI_FORMATTING_CHARACTERS {
        let enc = percent_encode(&c.to_string(), &rfc3986::UNRESERVED);
        assert_eq!(
            to_iri(&format!("/x{enc}")),
            format!("/x{enc}"),
            "U+{:04X}",
            c as u32
        );
    }
    // Step 4 (§2.2): private use only in the query; not ucschar (noncharacters,
    // C1 controls) never.
    assert_eq!(
        to_iri("/%EE%80%80?%EE%80%80#%EE%80%80"),
        "/%EE%80%80?\u{E000}#%EE%80%80"
    );
    assert_eq!(to_iri("/%EF%BF%BF%C2%80%EF%B7%90"), "/%EF%BF%BF%C2%80%EF%B7%90");
    // In the host and the user information too.
    assert_eq!(to_iri("//%C3%A9@%C3%A9.example/"), "//é@é.example/");
    // Maps back with §3.1, up to hex case and decoded unreserved characters.
    for u in [
        "http://www.example.org/D%C3%BCrst",
        "http://www.example.org/D%FCrst",
        "/%e2%80%ae?%EE%80%80",
    ] {
        let back = iri_ref(&to_iri(u)).to_uri().into_string();
        assert_eq!(back.to_ascii_uppercase(), u.to_ascii_uppercase(), "{u}");
    }
}

// ---------------------------------------------------------------------------
// RFC 3987 §4: bidi
// ---------------------------------------------------------------------------

#[test]
fn rfc3987_4_1_forbidden_characters_strict_types_only() {
    for c in ops::BIDI_FORMATTING_CHARACTERS {
        let s = format!("http://example.org/a{c}b");
        // The grammar allows them (they are ucschar) ...
        assert!(rfc3987::IRI_REFERENCE.is_match(&s));
        assert!(rfc3987::IRI.is_match(&s));
        assert!(rfc3987::UCSCHAR.is_match(&c.to_string()));
        // ... the strict types do not.
        for e in [IriRef::parse(&s).unwrap_err(), Iri::parse(&s).unwrap_err()] {
            assert_eq!(e.kind(), ParseErrorKind::BidiFormatting);
            assert_eq!((e.offset(), e.found()), (20, Some(c)));
            let msg = e.to_string();
            assert!(
                msg.contains("RFC 3987 §4.1") && msg.contains(&format!("U+{:04X}", c as u32)),
                "{msg}"
            );
        }
        assert!(iri_grammar::IriRefBuf::parse(s.clone()).is_err());
        assert!(s.parse::<iri_grammar::IriBuf>().is_err());
    }
    let e = IriRef::parse("/\u{202E}fdp.exe").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid IRI reference: bidirectional formatting character U+202E (RIGHT-TO-LEFT OVERRIDE, RLO) \
         at byte 1; RFC 3987 §4.1 forbids it in IRIs (percent-encode it as %E2%80%AE)"
    );
    // The earliest problem is reported: a syntax error before the character.
    let e = IriRef::parse("/a b\u{200E}").unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ParseErrorKind::Syntax, 2));
    let e = IriRef::parse("/\u{200E}a b").unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ParseErrorKind::BidiFormatting, 1));
    // Later bidi controls (Unicode 6.3) are not in §4.1's list.
    assert!(IriRef::parse("/\u{2066}x\u{2069}").is_ok());
    // Percent-encoded, they are fine.
    assert!(IriRef::parse("/%E2%80%AE").is_ok());
}

/// §4.4's examples in Bidi Notation, with Hebrew letters for the upper-case
/// (right-to-left) ones.
fn hebrew(bidi_notation: &str) -> String {
    bidi_notation
        .chars()
        .map(|c| {
            if c.is_ascii_uppercase() {
                char::from_u32(0x05D0 + (c as u32 - 'A' as u32)).unwrap()
            } else {
                c
            }
        })
        .collect()
}

#[test]
fn rfc3987_4_4_examples_lint() {
    // (example, logical representation, legal)
    let examples = [
        (1, "http://ab.CDEFGH.ij/kl/mn/op.html", true),
        (2, "http://ab.CDE.FGH/ij/kl/mn/op.html", true),
        (3, "http://AB.CD.EF/GH/IJ/KL?MN=OP;QR=ST#UV", true),
        (4, "http://AB.CD.ef/gh/IJ/KL.html", true),
        (5, "http://ab.cd.EF/GH/ij/kl.html", true),
        (6, "http://ab.CD.EF/GH/IJ/kl.html", true),
        (7, "http://ab.CDE123FGH.ij/kl/mn/op.html", true),
        (8, "http://ab.cd.ef/GH1/2IJ/KL.html", false),
        (9, "http://ab.cd.ef/GH%31/%32IJ/KL.html", false),
        (10, "http://ab.CDEFGH.123/kl/mn/op.html", true),
    ];
    for (n, notation, legal) in examples {
        let text = hebrew(notation);
        let warnings = bidi_lint(iri_ref(&text));
        assert_eq!(warnings.is_empty(), legal, "example {n}: {text} {warnings:?}");
        for w in &warnings {
            assert_eq!(
                (w.component, w.rule),
                (BidiComponent::PathSegment, BidiRule::RtlEdges),
                "{n}"
            );
        }
    }
    // Rule 1 and the other kinds of components.
    let text = hebrew("http://uA:B@xY.ab/c?Q=r&S#tU");
    let found: Vec<(BidiComponent, BidiRule, &str)> = bidi_lint(iri_ref(&text))
        .iter()
        .map(|w| (w.component, w.rule, w.text(&text)))
        .collect();
    let he = |s: &str| hebrew(s);
    let (ua, xy, tu) = (he("uA"), he("xY"), he("tU"));
    assert_eq!(
        found,
        [
            (BidiComponent::Userinfo, BidiRule::Mixed, ua.as_str()),
            (BidiComponent::Userinfo, BidiRule::RtlEdges, ua.as_str()),
            (BidiComponent::HostLabel, BidiRule::Mixed, xy.as_str()),
            (BidiComponent::HostLabel, BidiRule::RtlEdges, xy.as_str()),
            (BidiComponent::Fragment, BidiRule::Mixed, tu.as_str()),
            (BidiComponent::Fragment, BidiRule::RtlEdges, tu.as_str()),
        ]
    );
    // Arabic letters (bidi class AL) count as right-to-left.
    assert!(bidi_lint(iri_ref("http://example.com/مثال")).is_empty());
    assert_eq!(bidi_lint(iri_ref("http://example.com/مثالa")).len(), 2);
}

// ---------------------------------------------------------------------------
// RFC 3986 §5: resolution
// ---------------------------------------------------------------------------

/// RFC 3986 §5.4: the base, and (reference, target) for §5.4.1 and §5.4.2
/// (strict: "http:g" → "http:g").
const RFC3986_5_4_BASE: &str = "http://a/b/c/d;p?q";
const RFC3986_5_4: &[(&str, &str)] = &[
    // 5.4.1 Normal Examples
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
    // 5.4.2 Abnormal Examples
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
fn rfc3986_5_4_examples() {
    assert_eq!(RFC3986_5_4.len(), 23 + 19);
    let mut m = Mismatches::default();
    let base = iri(RFC3986_5_4_BASE);
    let ubase = Uri::parse(RFC3986_5_4_BASE).unwrap();
    for &(r, want) in RFC3986_5_4 {
        m.check(
            format_args!("IRI {r:?}"),
            resolve(base, iri_ref(r)).as_str(),
            want,
        );
        m.check(
            format_args!("URI {r:?}"),
            resolve_uri(ubase, UriRef::parse(r).unwrap()).as_str(),
            want,
        );
        m.check(
            format_args!("method {r:?}"),
            base.resolve(iri_ref(r)).as_str(),
            want,
        );
    }
    m.assert_none("RFC 3986 §5.4");
}

#[test]
fn rfc3986_5_2_4_examples() {
    assert_eq!(remove_dot_segments("/a/b/c/./../../g"), "/a/g");
    assert_eq!(remove_dot_segments("mid/content=5/../6"), "mid/6");
}

#[test]
fn rfc3987_6_5_iri_references_resolve_like_uri_references() {
    // "treating the characters additionally allowed in IRI references in the
    // same way that unreserved characters are in URI references": resolving
    // an IRI and mapping to a URI commute.
    let base = iri("http://例え.jp/δ/ε;p?q");
    for r in ["ζ", "../η?θ#ι", "//κ.λ/μ", "./ν/../ξ", "?ο", "#π"] {
        let via_iri = resolve(base, iri_ref(r)).as_ref().to_uri();
        let ubase = base.to_uri();
        let uref = iri_ref(r).to_uri();
        let via_uri = resolve_uri(ubase.as_ref(), uref.as_ref());
        assert_eq!(via_iri.as_str(), via_uri.as_str(), "{r}");
    }
}

#[test]
fn resolve_vectors() {
    let rows = rows(RESOLVE, 3);
    assert_eq!(rows.len(), 658);
    let mut m = Mismatches::default();
    for row in &rows {
        let (base, r, want) = (row[0], row[1], row[2]);
        m.check(
            format_args!("{base} + {r}"),
            resolve(iri(base), iri_ref(r)).as_str(),
            want,
        );
        if let (Ok(b), Ok(rr)) = (Uri::parse(base), UriRef::parse(r)) {
            m.check(
                format_args!("URI {base} + {r}"),
                resolve_uri(b, rr).as_str(),
                want,
            );
        }
    }
    m.assert_none("resolve.tsv");
}

#[test]
fn remove_dot_segments_vectors() {
    let mut m = Mismatches::default();
    for row in rows(REMOVE_DOT_SEGMENTS, 2) {
        m.check(row[0], &remove_dot_segments(row[0]), row[1]);
    }
    m.assert_none("remove-dot-segments.tsv");
}

/// resolve-nonstandard.tsv: vectors whose expectations are not strict
/// RFC 3986 §5.2, with what we give and why.
#[test]
fn resolve_nonstandard_vectors() {
    let rows = rows_after_header(RESOLVE_NONSTANDARD, 9);
    let mut ours = Vec::new();
    for row in &rows {
        let (base, r) = (row[0], row[1]);
        let got = match (Iri::parse(base), IriRef::parse(r)) {
            (Ok(b), Ok(r)) => resolve(b, r).into_string(),
            (Err(_), _) => "invalid base".to_string(),
            (_, Err(_)) => "invalid reference".to_string(),
        };
        ours.push(format!("{base}\t{r}\t{got}"));
    }
    // The two rows whose expectation is the "/." form: we give it too (see
    // `ops::resolve`: §3.3 forbids a path starting with "//" without an
    // authority, and the literal §5.3 recomposition "f://g" would make "g"
    // the authority).
    assert!(ours.contains(&"f:/a\t.//g\tf:/.//g".to_string()), "{ours:#?}");
    assert!(
        ours.contains(&"foo:/\t.//@@\tfoo:/.//@@".to_string()),
        "{ours:#?}"
    );
    // Non-strict scheme inheritance (§5.2.2 "if (!strict)") is not done.
    assert!(
        ours.contains(&"http://a/b/c/d;p?q\thttp:g\thttp:g".to_string()),
        "{ours:#?}"
    );
    // `%2E` is not a dot segment for resolution (§5.2.4 removes the complete
    // segments "." and ".." only; normalization decodes first).
    let base = iri("http://a/b/c/d");
    assert_eq!(
        resolve(base, iri_ref("%2E%2E/g")).as_str(),
        "http://a/b/c/%2E%2E/g"
    );
}

// ---------------------------------------------------------------------------
// Relativization (the inverse of resolution)
// ---------------------------------------------------------------------------

/// relativize.tsv rows whose expected reference does not resolve back to
/// the target (none: all 74 do), and rows where our reference differs from
/// the expected one but also resolves back (none).
const RELATIVIZE_NOT_ROUND_TRIP: &[&str] = &[];

#[test]
fn relativize_vectors() {
    let rows = rows_after_header(RELATIVIZE, 4);
    let mut m = Mismatches::default();
    let mut not_round_trip = Vec::new();
    for row in &rows {
        let (target, base, want) = (row[0], row[1], row[2]);
        let got = relativize(iri(target), iri(base));
        m.check(format_args!("{target} from {base}"), got.as_str(), want);
        let back = resolve(iri(base), iri_ref(want));
        if back.as_str() != target {
            not_round_trip.push(format!("{target} from {base}: {want} → {back}"));
        }
        // Ours always does (no target here has dot segments).
        assert_eq!(
            resolve(iri(base), got.as_ref()).as_str(),
            target,
            "{target} from {base}"
        );
    }
    m.assert_none("relativize.tsv");
    assert_eq!(not_round_trip, RELATIVIZE_NOT_ROUND_TRIP, "{not_round_trip:#?}");
}

#[test]
fn relativize_targets_with_dot_segments() {
    // No reference resolves to a path with dot segments (resolution removes
    // them), so these cannot round-trip; we give the target whole, or a
    // network-path reference.
    let base = iri("http://a/b/c");
    assert_eq!(relativize(iri("http://a/b/../c"), base).as_str(), "//a/b/../c");
    assert_eq!(relativize(iri("s:a/./b"), iri("s:a/c")).as_str(), "s:a/./b");
    // Unless the target is the base (the empty reference keeps its path).
    assert_eq!(
        relativize(iri("http://a/./c#f"), iri("http://a/./c")).as_str(),
        "#f"
    );
}

// ---------------------------------------------------------------------------
// RFC 3987 §5.3: normalization and comparison
// ---------------------------------------------------------------------------

#[test]
fn rfc3987_5_3_2_example() {
    let a = iri_ref("example://a/b/c/%7Bfoo%7D/ros\u{E9}");
    let b = iri_ref("eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9");
    assert_eq!(normalize(b).as_str(), a.as_str());
    assert!(equivalent(a, b, Rung::SyntaxBased));
    assert!(!equivalent(a, b, Rung::SimpleString));
}

#[test]
fn rfc3987_5_3_3_example() {
    let all = [
        "http://example.com",
        "http://example.com/",
        "http://example.com:/",
        "http://example.com:80/",
    ];
    for x in all {
        for y in all {
            assert!(equivalent(iri_ref(x), iri_ref(y), Rung::SchemeBased), "{x} {y}");
        }
        // "the second IRI above is the normal form for the "http" scheme".
        assert_eq!(Normalizer::scheme_based().normalize(iri_ref(x)).as_str(), all[1]);
    }
    // "http://example.com/?" cannot be assumed to be equivalent; "#" matters.
    assert!(!equivalent(
        iri_ref("http://example.com/?"),
        iri_ref(all[1]),
        Rung::SchemeBased
    ));
    assert!(!equivalent(
        iri_ref("http://example.com/#"),
        iri_ref(all[1]),
        Rung::SchemeBased
    ));
    // https too; other schemes only as the table in `Normalizer` says.
    assert_eq!(
        Normalizer::scheme_based()
            .normalize(iri_ref("HTTPS://h:443?q"))
            .as_str(),
        "https://h/?q"
    );
    assert_eq!(
        Normalizer::scheme_based()
            .normalize(iri_ref("https://h:80"))
            .as_str(),
        "https://h:80/"
    );
    // ftp's default port too (RFC 1738 §3.2), but its empty path stays.
    assert_eq!(
        Normalizer::scheme_based()
            .normalize(iri_ref("ftp://h:21"))
            .as_str(),
        "ftp://h"
    );
    assert_eq!(
        Normalizer::scheme_based()
            .normalize(iri_ref("gopher://h:70"))
            .as_str(),
        "gopher://h:70"
    );
}

#[test]
fn rfc3987_5_3_2_1_case() {
    // "%3a" → "%3A"; scheme and US-ASCII-only host lowercased; other
    // components keep their case.
    assert_eq!(
        normalize(iri_ref("HTTP://www.EXAMPLE.com/%3a/A?B#C")).as_str(),
        "http://www.example.com/%3A/A?B#C"
    );
    // A host with non-ASCII characters is an IDN (§5.3.3): not lowercased.
    assert_eq!(
        normalize(iri_ref("http://Bücher.DE/")).as_str(),
        "http://Bücher.DE/"
    );
    // For URIs, RFC 3986 §6.2.2.1 lowercases the host, outside percent-encodings.
    assert_eq!(
        normalize_uri(UriRef::parse("http://B%c3%bcCHER.DE/").unwrap()).as_str(),
        "http://b%C3%BCcher.de/"
    );
}

#[test]
fn rfc3987_5_3_2_2_nfc_is_opt_in() {
    let decomposed = iri_ref("http://www.example.org/re\u{301}sume\u{301}.html");
    let composed = iri_ref("http://www.example.org/r\u{E9}sum\u{E9}.html");
    // "Equivalence of IRIs MUST rely on the assumption that IRIs are
    // appropriately pre-character-normalized rather than apply character
    // normalization when comparing two IRIs."
    assert!(!equivalent(decomposed, composed, Rung::SyntaxBased));
    let nfc = Normalizer::syntax_based().nfc(true);
    assert_eq!(nfc.normalize(decomposed).as_str(), composed.as_str());
    // Percent-encoded decomposed characters are decoded first.
    assert_eq!(nfc.normalize(iri_ref("/e%CC%81")).as_str(), "/\u{E9}");
    // Structure is kept: a delimiter does not combine, singletons that
    // decompose to ASCII delimiters are percent-encoded, hex digits stay.
    assert_eq!(
        nfc.normalize(iri_ref("?a=\u{338}&b\u{37E}c")).as_str(),
        "?a=\u{338}&b%3Bc"
    );
    assert_eq!(nfc.normalize(iri_ref("/%3A\u{30A}")).as_str(), "/%3A\u{30A}");
    assert_eq!(nfc.normalize(iri_ref("/\u{1FEF}\u{212A}")).as_str(), "/%60K");
    // Hosts: NFC, then the US-ASCII-only rule.
    assert_eq!(
        nfc.normalize(iri_ref("http://\u{212A}.COM/")).as_str(),
        "http://k.com/"
    );
}

#[test]
fn normalize_vectors() {
    // URI normalization (RFC 3986 §6.2.2 + empty port), on URI references.
    let mut m = Mismatches::default();
    for row in rows(NORMALIZE, 2) {
        let (input, want) = (row[0], row[1]);
        let r = UriRef::parse(input).unwrap();
        m.check(input, normalize_uri(r).as_str(), want);
        m.check(
            format_args!("{input} twice"),
            normalize_uri(normalize_uri(r).as_ref()).as_str(),
            want,
        );
        // The methods are scheme-based (§6.2.3 on top of §6.2.2).
        let scheme_based = Normalizer::scheme_based().normalize_uri(r);
        m.check(
            format_args!("{input} method"),
            r.normalize().as_str(),
            scheme_based.as_str(),
        );
        if let Ok(u) = Uri::parse(input) {
            m.check(
                format_args!("{input} Uri"),
                u.normalize().as_str(),
                scheme_based.as_str(),
            );
        }
        // IRI normalization decodes more (UTF-8 for iunreserved characters);
        // mapped back to a URI and URI-normalized, it gives the same.
        let via_iri = normalize(iri_ref(input)).as_ref().to_uri();
        m.check(
            format_args!("{input} as IRI"),
            normalize_uri(via_iri.as_ref()).as_str(),
            want,
        );
    }
    m.assert_none("normalize.tsv");
}

#[test]
fn normalize_iri_vectors() {
    let mut m = Mismatches::default();
    for row in rows(NORMALIZE_IRI, 2) {
        let (input, want) = (row[0], row[1]);
        let r = iri_ref(input);
        m.check(input, normalize(r).as_str(), want);
        m.check(
            format_args!("{input} twice"),
            normalize(normalize(r).as_ref()).as_str(),
            want,
        );
        if let Ok(i) = Iri::parse(input) {
            let scheme_based = Normalizer::scheme_based().normalize(r);
            m.check(
                format_args!("{input} Iri"),
                i.normalize().as_str(),
                scheme_based.as_str(),
            );
        }
        // Syntax-based equivalence holds between input and result.
        assert!(equivalent(r, iri_ref(want), Rung::SyntaxBased), "{input}");
    }
    m.assert_none("normalize-iri.tsv");
}

/// normalize-nonstandard.tsv: where libraries legitimately differ. For
/// each row, what we give (IRI rows with [`normalize`], URI rows with
/// [`normalize_uri`], after the §3.1 mapping for the non-ASCII one, the
/// Jena rows with scheme-based normalization), and, where that is not the
/// row's expectation, the RFC text that decides.
#[test]
fn normalize_nonstandard_vectors() {
    let rows = rows_after_header(NORMALIZE_NONSTANDARD, 6);
    assert_eq!(rows.len(), NORMALIZE_NONSTANDARD_OURS.len());
    let mut m = Mismatches::default();
    for (row, &(input, ours, why)) in rows.iter().zip(NORMALIZE_NONSTANDARD_OURS) {
        let (flavour, expected) = (row[3], row[1]);
        assert_eq!(row[0], input);
        let got = if flavour.starts_with("URI-normalization") && !input.is_ascii() {
            normalize_uri(iri_ref(input).to_uri().as_ref()).into_string()
        } else if flavour.starts_with("URI-normalization") || flavour.starts_with("whatwg") {
            normalize_uri(UriRef::parse(input).unwrap()).into_string()
        } else if flavour.starts_with("jena") {
            Normalizer::scheme_based().normalize(iri_ref(input)).into_string()
        } else {
            normalize(iri_ref(input)).into_string()
        };
        m.check(format_args!("{input} ({flavour})"), &got, ours);
        assert_eq!(
            why.is_some(),
            got != expected,
            "{input} ({flavour}): {got} vs {expected}; {why:?}"
        );
    }
    m.assert_none("normalize-nonstandard.tsv");
}

const LOWERCASE_HOST: &str =
    "RFC 3986 §6.2.2.1: \"the scheme and host are case-insensitive and therefore should be \
     normalized to lowercase\" (for a URI; RFC 3987 §5.3.2.1 limits this to a \"US-ASCII only host\" for \
     IRIs, which the source applies to URIs too)";
const DOTS_WITH_SCHEME: &str = "RFC 3987 §5.3.2.4 / RFC 3986 §6.2.2.3: normalizers \"should remove dot-segments \
     by applying the remove_dot_segments algorithm to the path\"; it turns a rootless path absolute (\"foo/..\" \
     gives \"/\"), as resolving the IRI itself does (§5.2.2: T.path = remove_dot_segments(R.path))";
const DOTS_IN_RELATIVE: &str = "RFC 3986 §6.2.2.3: dot-segments \"are intended only for use within relative \
     references\" and are removed by resolution (§5.2), against a base; removed beforehand they change what \
     the reference means (\"abc/..\" resolves to the base's directory, \"\" to the base itself)";

/// (input, ours, why ours differs from the row's expectation).
const NORMALIZE_NONSTANDARD_OURS: &[(&str, &str, Option<&str>)] = &[
    // RFC 3987 §5.3.2.1: only a "US-ASCII only host" is lowercased.
    ("http://usER:passWORD@α.CoM/", "http://usER:passWORD@α.CoM/", None),
    (
        "http://usER:passWORD@α.CoM/",
        "http://usER:passWORD@%CE%B1.com/",
        Some(LOWERCASE_HOST),
    ),
    // A default port is scheme-based (§5.3.3), not syntax-based.
    (
        "http://user:password@example.com:80/path/to/somewhere?query#fragment",
        "http://user:password@example.com:80/path/to/somewhere?query#fragment",
        None,
    ),
    (
        "http://user:password@example.com:80/path/to/somewhere?query#fragment",
        "http://user:password@example.com:80/path/to/somewhere?query#fragment",
        None,
    ),
    ("scheme:..///not-a-host", "scheme:/.//not-a-host", None),
    ("scheme:..///not-a-host", "scheme:/.//not-a-host", None),
    (
        "scheme:..///not-a-host",
        "scheme:/.//not-a-host",
        Some(DOTS_WITH_SCHEME),
    ),
    ("scheme:foo/../p%61th", "scheme:/path", None),
    ("scheme:foo/../p%61th", "scheme:/path", None),
    ("scheme:foo/../p%61th", "scheme:/path", Some(DOTS_WITH_SCHEME)),
    ("SCHEME://Alpha%ce%b1/", "scheme://Alphaα/", None),
    (
        "SCHEME://Alpha%ce%b1/",
        "scheme://alpha%CE%B1/",
        Some(LOWERCASE_HOST),
    ),
    ("http://example.com:80/", "http://example.com:80/", None),
    ("foo:bar/../baz", "foo:/baz", Some(DOTS_WITH_SCHEME)),
    // iprivate is not iunreserved: §5.3.2.3 decodes "unreserved" only.
    ("?%EE%80%80", "?%EE%80%80", None),
    (
        "https://[2041:0000:140F::875B:131B]",
        "https://[2041:0:140f::875b:131b]",
        Some(
            "RFC 5952 §4 canonical text form (the same address, so the same host under RFC 3986 §3.2.2), \
             which normalize.tsv's IPv6 rows (fluent-uri) require; the source only lowercases",
        ),
    ),
    ("../../abc/..", "../../abc/..", Some(DOTS_IN_RELATIVE)),
    ("../../abc/../def", "../../abc/../def", Some(DOTS_IN_RELATIVE)),
    ("abc/..", "abc/..", Some(DOTS_IN_RELATIVE)),
    ("abc/../", "abc/../", Some(DOTS_IN_RELATIVE)),
    ("../../abc/./def", "../../abc/./def", Some(DOTS_IN_RELATIVE)),
    ("./def", "./def", Some(DOTS_IN_RELATIVE)),
    ("def/.", "def/.", Some(DOTS_IN_RELATIVE)),
    ("/a/b/../../c", "/a/b/../../c", Some(DOTS_IN_RELATIVE)),
    ("a/b/../../c", "a/b/../../c", Some(DOTS_IN_RELATIVE)),
    ("/a/b/././c", "/a/b/././c", Some(DOTS_IN_RELATIVE)),
    ("a/b/././c", "a/b/././c", Some(DOTS_IN_RELATIVE)),
    ("/a/b/../c/././d", "/a/b/../c/././d", Some(DOTS_IN_RELATIVE)),
    ("a/b/../c/././d", "a/b/../c/././d", Some(DOTS_IN_RELATIVE)),
    // Scheme-based normalization for http and https (§5.3.3).
    ("HTTP://HOST:80/a/b/c?q=1#2", "http://host/a/b/c?q=1#2", None),
    ("HTTPs://HOST:443/a/b/c?q=1#2", "https://host/a/b/c?q=1#2", None),
    ("http://host", "http://host/", None),
    ("http://host#frag", "http://host/#frag", None),
    ("http://host?q=s", "http://host/?q=s", None),
    (
        "http://host/foobar///",
        "http://host/foobar///",
        Some(
            "RFC 3986 §3.3: a path is a sequence of segments, empty ones included; no rule of §6.2 or \
             RFC 3987 §5.3 removes empty segments (that is protocol-based, §5.3.4, if anything)",
        ),
    ),
];

// ---------------------------------------------------------------------------
// Peers
// ---------------------------------------------------------------------------

/// Why a peer's result differs from ours, and the RFC text that decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Why {
    /// fluent-uri refuses a base with a fragment.
    BaseFragment,
    /// fluent-uri refuses a base with a rootless path and no authority
    /// (unless the reference has a scheme or is empty or a fragment).
    RootlessBase,
    /// oxiri refuses a result whose path starts with "//" without an
    /// authority; we write it with "/." in front, as iri-string and
    /// fluent-uri do.
    DoubleSlashPath,
    /// iri-string and fluent-uri take "%2E" for "." in dot segments.
    PercentEncodedDots,
    /// fluent-uri removes dot segments from the base's path before using it
    /// (as the target path of an empty reference, or before merging).
    BaseDotSegments,
    /// fluent-uri leaves the dot segments of a reference with a scheme and
    /// a rootless path (and of such an IRI when normalizing).
    RootlessPathDots,
    /// fluent-uri removes a default port in syntax-based normalization (and
    /// knows ftp's).
    DefaultPort,
    /// iri-string leaves IPv6 addresses as written (lowercased).
    Ipv6Text,
    /// fluent-uri lowercases the ASCII letters of a host that has non-ASCII
    /// characters too.
    NonAsciiHostCase,
    /// iri-string does not lowercase a URI host that has percent-encoded
    /// non-ASCII octets.
    UriHostCase,
    /// oxiri never climbs with "../": it gives an absolute path instead.
    NoDotDot,
    /// oxiri refuses a target whose path has dot segments.
    DotSegmentTarget,
}

impl Why {
    fn rfc(self) -> &'static str {
        match self {
            Why::BaseFragment => {
                "RFC 3986 §5.1: a base from a reference \"must be converted to absolute form and stripped of any \
                 fragment component prior to its use as a base URI\"; §5.2.2 never reads Base.fragment"
            }
            Why::RootlessBase => {
                "RFC 3986 §5.2.1: \"only the scheme component is required to be present in a base URI\"; §5.2.3 \
                 merges with any base path (\"excluding any characters after the right-most '/' in the base URI \
                 path, or excluding the entire base URI path if it does not have any '/' characters\")"
            }
            Why::DoubleSlashPath => {
                "RFC 3986 §3.3: \"If a URI does not contain an authority component, then the path cannot begin \
                 with two slash characters\"; the §5.2.2 components are kept and \"/.\" (removed again by \
                 remove_dot_segments) keeps the path from reading as an authority"
            }
            Why::PercentEncodedDots => {
                "RFC 3986 §5.2.4 removes \"the special '.' and '..' complete path segments\"; \"%2E\" is another \
                 string (equivalent only after §6.2.2.2 normalization, which resolution does not do)"
            }
            Why::BaseDotSegments => {
                "RFC 3986 §5.2.2: \"if (R.path == \"\") then T.path = Base.path\", and §5.2.3 merges the base path \
                 as it is; §5.2.1: \"Normalization of the base URI ... is optional\""
            }
            Why::RootlessPathDots => {
                "RFC 3986 §5.2.2: \"if defined(R.scheme) then ... T.path = remove_dot_segments(R.path)\", for \
                 every path; RFC 3987 §5.3.2.4: \"IRI normalizers should remove dot-segments by applying the \
                 remove_dot_segments algorithm to the path\""
            }
            Why::DefaultPort => {
                "RFC 3986 §6.2.3 / RFC 3987 §5.3.3: a port \"for which the port is empty or the default for the \
                 scheme ... should be removed by scheme-based normalization\" (ours: Normalizer::scheme_based, \
                 for http and https)"
            }
            Why::Ipv6Text => {
                "not decided by RFC 3986 §6.2.2; we write RFC 5952 §4's canonical text (the same address), as \
                 normalize.tsv's IPv6 rows require"
            }
            Why::NonAsciiHostCase => {
                "RFC 3987 §5.3.2.1: \"the scheme and US-ASCII only host are case insensitive and therefore \
                 should be normalized to lowercase\"; a non-ASCII host is an IDN, for §5.3.3"
            }
            Why::UriHostCase => {
                "RFC 3986 §6.2.2.1: \"the scheme and host are case-insensitive and therefore should be \
                 normalized to lowercase\" (for URIs, with no ASCII-only condition)"
            }
            Why::NoDotDot => {
                "no RFC defines relativization; both references resolve to the target (§5.2), and ours are \
                 relativize.tsv's (uriparser FourSuite) ones"
            }
            Why::DotSegmentTarget => {
                "RFC 3986 §5.2.2 applies remove_dot_segments to every reference path, so no reference resolves \
                 to such a target: oxiri says so with an error, we give the target (or a network-path \
                 reference) as the closest"
            }
        }
    }
}

/// Differences found, by (peer, reason).
#[derive(Default)]
struct PeerDiffs {
    found: std::collections::BTreeMap<(&'static str, Why), usize>,
    unexplained: Vec<String>,
}

impl PeerDiffs {
    fn add(&mut self, peer: &'static str, why: Option<Why>, what: String) {
        match why {
            Some(w) => *self.found.entry((peer, w)).or_default() += 1,
            None => self.unexplained.push(format!("{peer}: {what}")),
        }
    }

    fn assert_exactly(self, expected: &[(&str, Why, usize)]) {
        assert!(
            self.unexplained.is_empty(),
            "{} unexplained differences:\n{}",
            self.unexplained.len(),
            self.unexplained.join("\n")
        );
        let found: Vec<(&str, Why, usize)> = self.found.iter().map(|(&(p, w), &n)| (p, w, n)).collect();
        assert_eq!(found, expected, "differences by peer and reason");
        for (_, why, _) in expected {
            assert!(why.rfc().contains("RFC") || why.rfc().contains("no RFC"));
        }
    }
}

/// `iri` with its path replaced.
fn with_path(r: IriRef<'_>, path: &str) -> String {
    let mut s = String::new();
    if let Some(sc) = r.scheme() {
        s += sc;
        s.push(':');
    }
    if let Some(a) = r.authority() {
        s += "//";
        s += a;
    }
    s += path;
    if let Some(q) = r.query() {
        s.push('?');
        s += q;
    }
    if let Some(f) = r.fragment() {
        s.push('#');
        s += f;
    }
    s
}

/// "%2E"/"%2e" as "." in the path.
fn decode_dots(r: IriRef<'_>) -> String {
    with_path(r, &r.path().replace("%2E", ".").replace("%2e", "."))
}

/// Our resolution with a peer's variations: percent-encoded dots decoded,
/// and/or the base's path stripped of dot segments first.
fn resolve_variant(base: &str, r: &str, pct_dots: bool, base_dots: bool) -> String {
    let (mut b, mut rr) = (base.to_string(), r.to_string());
    if pct_dots {
        b = decode_dots(iri_ref(&b));
        rr = decode_dots(iri_ref(&rr));
    }
    if base_dots {
        let bi = iri_ref(&b);
        b = with_path(bi, &remove_dot_segments(bi.path()));
    }
    match (Iri::parse(&b), IriRef::parse(&rr)) {
        (Ok(b), Ok(r)) => resolve(b, r).into_string(),
        _ => String::new(),
    }
}

/// Bases × references: resolve.tsv, resolve-nonstandard.tsv, and a few
/// bases of every shape with every reference of valid-iri.txt.
fn resolution_corpus() -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = rows(RESOLVE, 3)
        .into_iter()
        .map(|r| (r[0].to_string(), r[1].to_string()))
        .collect();
    for r in rows_after_header(RESOLVE_NONSTANDARD, 9) {
        if Iri::parse(r[0]).is_ok() && IriRef::parse(r[1]).is_ok() {
            pairs.push((r[0].to_string(), r[1].to_string()));
        }
    }
    let refs: Vec<&str> = lines(VALID_IRI)
        .into_iter()
        .filter(|l| IriRef::parse(l).is_ok())
        .collect();
    for b in [
        "http://a/b/c/d;p?q",
        "s:",
        "s:a/b",
        "s:/a/b/..",
        "s://h",
        "s:/a/.%2E/b#f",
        "s:/",
        "s:/.",
    ] {
        pairs.extend(refs.iter().map(|r| (b.to_string(), r.to_string())));
    }
    pairs
}

/// Resolution: the differences from oxiri 0.3.1, iri-string 0.7.14 and
/// fluent-uri 0.4.1 on the corpus, all explained.
const RESOLVE_DIFFERENCES: &[(&str, Why, usize)] = &[
    ("fluent-uri", Why::BaseFragment, 551),
    ("fluent-uri", Why::RootlessBase, 461),
    ("fluent-uri", Why::PercentEncodedDots, 38),
    ("fluent-uri", Why::BaseDotSegments, 105),
    ("fluent-uri", Why::RootlessPathDots, 24),
    ("iri-string", Why::PercentEncodedDots, 70),
    ("oxiri", Why::DoubleSlashPath, 34),
];

#[test]
fn resolve_against_peers() {
    use iri_string::types::{IriAbsoluteStr, IriReferenceStr};
    let mut diffs = PeerDiffs::default();
    for (base, r) in resolution_corpus() {
        let ours = resolve(iri(&base), iri_ref(&r)).into_string();
        let ours_ref = iri_ref(&ours);
        let no_fragment = base.split('#').next().unwrap();
        let oxiri = oxiri::Iri::parse(base.as_str())
            .unwrap()
            .resolve(&oxiri::IriRef::parse(r.as_str()).unwrap())
            .map(|t| t.into_inner());
        let iri_string = IriReferenceStr::new(r.as_str())
            .unwrap()
            .resolve_against(IriAbsoluteStr::new(no_fragment).unwrap())
            .to_string();
        let fluent = fluent_uri::IriRef::parse(r.as_str())
            .unwrap()
            .resolve_against(&fluent_uri::Iri::parse(base.as_str()).unwrap())
            .map(|t| t.into_string())
            .map_err(|e| e.to_string());
        let rootless_base = {
            let b = iri_ref(&base);
            b.authority().is_none() && !b.path().starts_with('/')
        };
        let variants = |theirs: &str| {
            if theirs == resolve_variant(&base, &r, true, false) {
                Some(Why::PercentEncodedDots)
            } else if theirs == resolve_variant(&base, &r, false, true)
                || theirs == resolve_variant(&base, &r, true, true)
            {
                Some(Why::BaseDotSegments)
            } else if theirs == r && iri_ref(&r).scheme().is_some() {
                Some(Why::RootlessPathDots)
            } else {
                None
            }
        };
        match oxiri {
            Ok(t) if t != ours => diffs.add("oxiri", variants(&t), format!("{base} + {r}: {ours} vs {t}")),
            Ok(_) => {}
            Err(e) => {
                let why = (ours_ref.authority().is_none() && ours_ref.path().starts_with("/.//"))
                    .then_some(Why::DoubleSlashPath);
                diffs.add("oxiri", why, format!("{base} + {r}: {ours} vs error {e}"));
            }
        }
        if iri_string != ours {
            diffs.add(
                "iri-string",
                variants(&iri_string),
                format!("{base} + {r}: {ours} vs {iri_string}"),
            );
        }
        match fluent {
            Ok(t) if t != ours => {
                diffs.add("fluent-uri", variants(&t), format!("{base} + {r}: {ours} vs {t}"))
            }
            Ok(_) => {}
            Err(e) => {
                let why = if base.contains('#') {
                    Some(Why::BaseFragment)
                } else if rootless_base {
                    Some(Why::RootlessBase)
                } else {
                    None
                };
                diffs.add("fluent-uri", why, format!("{base} + {r}: {ours} vs error {e}"));
            }
        }
    }
    diffs.assert_exactly(RESOLVE_DIFFERENCES);
}

/// Normalization: the differences from iri-string 0.7.14 (absolute IRIs
/// and URIs only) and fluent-uri 0.4.1 on every valid IRI and URI of the
/// vector files, all explained.
const NORMALIZE_DIFFERENCES: &[(&str, Why, usize)] = &[
    ("fluent-uri", Why::RootlessPathDots, 3),
    ("fluent-uri", Why::DefaultPort, 13),
    ("fluent-uri", Why::NonAsciiHostCase, 3),
    ("fluent-uri (URI)", Why::RootlessPathDots, 3),
    ("fluent-uri (URI)", Why::DefaultPort, 13),
    ("iri-string", Why::Ipv6Text, 12),
    ("iri-string (URI)", Why::Ipv6Text, 12),
    ("iri-string (URI)", Why::UriHostCase, 1),
];

#[test]
fn normalize_against_peers() {
    use iri_string::types::{IriStr, UriStr};
    let inputs: BTreeSet<&str> = lines(VALID_IRI)
        .into_iter()
        .chain(lines(VALID_URI))
        .chain(rows(NORMALIZE, 2).into_iter().map(|r| r[0]))
        .chain(rows(NORMALIZE_IRI, 2).into_iter().map(|r| r[0]))
        .filter(|s| IriRef::parse(s).is_ok())
        .collect();
    let mut diffs = PeerDiffs::default();
    for &input in &inputs {
        let r = iri_ref(input);
        let explain = |ours: &str, theirs: &str, uri: bool| -> Option<Why> {
            let (o, t) = (iri_ref(ours), IriRef::parse(theirs).ok()?);
            // Everything but the host, and everything but the port.
            let but_host = |x: IriRef<'_>| {
                format!(
                    "{:?}",
                    (
                        x.scheme(),
                        x.userinfo(),
                        x.port().map(|p| p.as_str()),
                        x.path(),
                        x.query(),
                        x.fragment()
                    )
                )
            };
            let but_port = |x: IriRef<'_>| {
                format!(
                    "{:?}",
                    (
                        x.scheme(),
                        x.userinfo(),
                        x.host_str(),
                        x.path(),
                        x.query(),
                        x.fragment()
                    )
                )
            };
            let (oh, th) = (o.host_str().unwrap_or(""), t.host_str().unwrap_or(""));
            if o.port().is_some() && t.port().is_none() && but_port(o) == but_port(t) {
                Some(Why::DefaultPort)
            } else if but_host(o) != but_host(t) {
                let dots = remove_dot_segments(t.path());
                let rootless = o.scheme().is_some() && !r.path().starts_with('/');
                (rootless && (dots == o.path() || o.path().strip_prefix("/.") == Some(&dots)))
                    .then_some(Why::RootlessPathDots)
            } else if matches!(r.host(), Some(iri_grammar::Host::Ipv6(_))) {
                Some(Why::Ipv6Text)
            } else if oh.eq_ignore_ascii_case(th) && !uri && !oh.is_ascii() {
                Some(Why::NonAsciiHostCase)
            } else if oh.eq_ignore_ascii_case(th) && uri && oh.contains('%') {
                Some(Why::UriHostCase)
            } else {
                None
            }
        };
        let ours = normalize(r).into_string();
        let fluent = fluent_uri::IriRef::parse(input)
            .unwrap()
            .normalize()
            .into_string();
        if fluent != ours {
            diffs.add(
                "fluent-uri",
                explain(&ours, &fluent, false),
                format!("{input}: {ours} vs {fluent}"),
            );
        }
        if let Ok(i) = IriStr::new(input) {
            let theirs = i.normalize().to_string();
            if theirs != ours {
                diffs.add(
                    "iri-string",
                    explain(&ours, &theirs, false),
                    format!("{input}: {ours} vs {theirs}"),
                );
            }
        }
        let Ok(u) = UriRef::parse(input) else { continue };
        let ours = normalize_uri(u).into_string();
        let fluent = fluent_uri::UriRef::parse(input)
            .unwrap()
            .normalize()
            .into_string();
        if fluent != ours {
            diffs.add(
                "fluent-uri (URI)",
                explain(&ours, &fluent, true),
                format!("{input}: {ours} vs {fluent}"),
            );
        }
        if let Ok(i) = UriStr::new(input) {
            let theirs = i.normalize().to_string();
            if theirs != ours {
                diffs.add(
                    "iri-string (URI)",
                    explain(&ours, &theirs, true),
                    format!("{input}: {ours} vs {theirs}"),
                );
            }
        }
    }
    diffs.assert_exactly(NORMALIZE_DIFFERENCES);
}

/// IRI → URI: iri-string's `encode_to_uri` and fluent-uri's `to_uri_ref`
/// agree with ours on every valid IRI reference of the vector files (for a
/// valid IRI, "every non-ASCII character" and "every ucschar and iprivate"
/// are the same characters).
#[test]
fn to_uri_against_peers() {
    use iri_string::types::IriReferenceStr;
    let mut n = 0;
    for line in lines(VALID_IRI)
        .into_iter()
        .chain(rows(IRI_TO_URI, 2).into_iter().map(|r| r[0]))
    {
        let Ok(r) = IriRef::parse(line) else { continue };
        let ours = r.to_uri().into_string();
        assert_eq!(
            IriReferenceStr::new(line).unwrap().encode_to_uri().to_string(),
            ours,
            "{line}"
        );
        assert_eq!(
            fluent_uri::IriRef::parse(line).unwrap().to_uri_ref().as_str(),
            ours,
            "{line}"
        );
        n += 1;
    }
    assert!(n > 500, "{n}");
}

/// Relativization: the differences from oxiri 0.3.1 (the only peer that
/// has it) on relativize.tsv and on every absolute IRI of valid-iri.txt
/// against four bases, all explained.
const RELATIVIZE_DIFFERENCES: &[(&str, Why, usize)] =
    &[("oxiri", Why::NoDotDot, 8), ("oxiri", Why::DotSegmentTarget, 52)];

#[test]
fn relativize_against_peers() {
    let mut pairs: Vec<(String, String)> = rows_after_header(RELATIVIZE, 4)
        .into_iter()
        .map(|r| (r[0].to_string(), r[1].to_string()))
        .collect();
    let targets: Vec<&str> = lines(VALID_IRI)
        .into_iter()
        .filter(|l| Iri::parse(l).is_ok())
        .collect();
    for b in ["http://a/b/c/d;p?q", "http://example.com/", "s:a/b", "s:/a/b/"] {
        pairs.extend(targets.iter().map(|t| (t.to_string(), b.to_string())));
    }
    let mut diffs = PeerDiffs::default();
    for (target, base) in pairs {
        let ours = relativize(iri(&target), iri(&base)).into_string();
        let theirs = oxiri::Iri::parse(base.as_str())
            .unwrap()
            .relativize(&oxiri::Iri::parse(target.as_str()).unwrap())
            .map(|r| r.into_inner());
        let t = iri(&target);
        let dotted = remove_dot_segments(t.path()) != t.path();
        match theirs {
            Ok(x) if x != ours => {
                // Both resolve back to the target.
                assert_eq!(resolve(iri(&base), iri_ref(&x)).as_str(), target);
                assert_eq!(resolve(iri(&base), iri_ref(&ours)).as_str(), target);
                let why = (ours.starts_with("..") || ours.starts_with("./")).then_some(Why::NoDotDot);
                diffs.add("oxiri", why, format!("{target} from {base}: {ours} vs {x}"));
            }
            Ok(_) => {}
            Err(_) => diffs.add(
                "oxiri",
                dotted.then_some(Why::DotSegmentTarget),
                format!("{target} from {base}: {ours}"),
            ),
        }
    }
    diffs.assert_exactly(RELATIVIZE_DIFFERENCES);
}

// ---------------------------------------------------------------------------
// Builder
// ---------------------------------------------------------------------------

#[test]
fn builder_checks_each_part_with_its_rule() {
    let cases: &[(IriBuilder, Part, &str)] = &[
        (IriBuilder::new().scheme("h ttp"), Part::Scheme, "scheme"),
        (
            IriBuilder::new().userinfo("a@b").host("h"),
            Part::Userinfo,
            "iuserinfo",
        ),
        (IriBuilder::new().host("a/b"), Part::Host, "ihost"),
        (IriBuilder::new().host("h").port_str("-1"), Part::Port, "port"),
        (IriBuilder::new().path("a?b"), Part::Path, "ipath"),
        (IriBuilder::new().push_segment("a/b"), Part::Path, "isegment"),
        (IriBuilder::new().query("a#b"), Part::Query, "iquery"),
        (IriBuilder::new().fragment("a#b"), Part::Fragment, "ifragment"),
        // iprivate is allowed in the query only.
        (
            IriBuilder::new().fragment("\u{E000}"),
            Part::Fragment,
            "ifragment",
        ),
    ];
    for (b, part, rule) in cases {
        let e = b.clone().build().unwrap_err();
        assert_eq!(e.part(), *part, "{e}");
        assert_eq!(e.match_error().map(|m| m.rule()), Some(*rule), "{e}");
    }
    assert!(IriBuilder::new().query("\u{E000}").build().is_ok());
    // Bidi formatting characters are rejected as they are, encoded when asked.
    let e = IriBuilder::new().push_segment("a\u{202E}").build().unwrap_err();
    assert!(e.to_string().contains("U+202E"), "{e}");
    assert_eq!(
        IriBuilder::new()
            .push_segment_encoded("a\u{202E}")
            .build()
            .unwrap()
            .as_str(),
        "/a%E2%80%AE"
    );
    // The first error wins.
    let e = IriBuilder::new().scheme("1").host("a b").build().unwrap_err();
    assert_eq!(e.part(), Part::Scheme);
}

#[test]
fn builder_structure() {
    // Authority with a rootless path; "//" without authority; ":" in the
    // first segment of a relative path; userinfo or port without host.
    let bad = [
        IriBuilder::new().host("h").path("x"),
        IriBuilder::new().scheme("s").path("//x"),
        IriBuilder::new().path("a:b/c"),
        IriBuilder::new().userinfo("u"),
        IriBuilder::new().port(1),
    ];
    for b in bad {
        assert!(b.build().is_err());
    }
    assert_eq!(
        IriBuilder::new()
            .scheme("s")
            .path("a:b/c")
            .build()
            .unwrap()
            .as_str(),
        "s:a:b/c"
    );
    assert_eq!(
        IriBuilder::new()
            .scheme("s")
            .host("")
            .path("//x")
            .build()
            .unwrap()
            .as_str(),
        "s:////x"
    );
}

#[test]
fn builder_round_trips_components() {
    let mut refused = 0;
    for line in lines(VALID_IRI) {
        let Ok(r) = IriRef::parse(line) else { continue };
        let mut b = IriBuilder::new();
        if let Some(s) = r.scheme() {
            b = b.scheme(s);
        }
        if let Some(u) = r.userinfo() {
            b = b.userinfo(u);
        }
        if let Some(h) = r.host_str() {
            b = b.host(h);
        }
        if let Some(p) = r.port() {
            b = b.port_str(p.as_str());
        }
        b = b.path(r.path());
        if let Some(q) = r.query() {
            b = b.query(q);
        }
        if let Some(f) = r.fragment() {
            b = b.fragment(f);
        }
        // RFC 3986 §3.2.2: "URI producing applications must not use
        // percent-encoding in host unless it is used to represent a UTF-8
        // character sequence"; the builder produces, so it refuses them.
        let host_not_utf8 = match r.host() {
            Some(iri_grammar::Host::RegName(h)) => std::str::from_utf8(&ops::percent_decode(h)).is_err(),
            _ => false,
        };
        if host_not_utf8 {
            assert_eq!(b.build().map_err(|e| e.part()), Err(Part::Host), "{line}");
            refused += 1;
            continue;
        }
        assert_eq!(b.build().unwrap_or_else(|e| panic!("{line}: {e}")).as_str(), line);
    }
    assert!(
        refused > 0,
        "the corpus has hosts with non-UTF-8 percent-encodings"
    );
}

#[test]
fn builder_refuses_non_utf8_percent_encoding_in_host() {
    // RFC 3986 §3.2.2, the example.
    let e = IriBuilder::new()
        .scheme("http")
        .host("a%FFb")
        .path("/")
        .build()
        .unwrap_err();
    assert_eq!(e.part(), Part::Host);
    assert!(e.to_string().contains("§3.2.2"), "{e}");
    assert!(e.to_string().contains("byte 1"), "{e}");
    // Truncated, overlong and surrogate sequences are not UTF-8 either.
    for host in ["a%C3", "%C0%AF", "%ED%A0%80", "x%E2%80y"] {
        assert_eq!(
            IriBuilder::new().host(host).build().map_err(|e| e.part()),
            Err(Part::Host),
            "{host}"
        );
    }
    // UTF-8 is fine, as are ASCII octets and IP literals.
    for host in ["a%C3%BCb", "%41", "%E2%82%AC.example", "[::1]", "192.0.2.1"] {
        assert!(IriBuilder::new().host(host).build().is_ok(), "{host}");
    }
}

#[test]
fn builder_encodes_when_asked() {
    let r = IriBuilder::new()
        .scheme("http")
        .userinfo_encoded("us er:p@ss")
        .host_encoded("ex ample.org")
        .push_segment_encoded("a/b")
        .push_segment_encoded("%41")
        .push_segment_encoded("ü")
        .query_encoded("q=a b&c=#")
        .fragment_encoded("f g")
        .build_iri()
        .unwrap();
    assert_eq!(
        r.as_str(),
        "http://us%20er:p%40ss@ex%20ample.org/a%2Fb/%2541/ü?q=a%20b&c=%23#f%20g"
    );
    // Percent-decoding the parts gives back what was given.
    let r = r.as_ref();
    assert_eq!(&*ops::percent_decode(r.userinfo().unwrap()), b"us er:p@ss");
    let segs: Vec<_> = r
        .path_segments()
        .map(|s| String::from_utf8(ops::percent_decode(s).into_owned()).unwrap())
        .collect();
    assert_eq!(segs, ["a/b", "%41", "ü"]);
}

// ---------------------------------------------------------------------------
// Property tests
// ---------------------------------------------------------------------------

/// Pieces of path segments, queries and fragments: ASCII of every class,
/// percent-encodings (valid UTF-8, invalid, reserved, unreserved, bidi),
/// non-ASCII letters (LTR, RTL, outside the BMP, decomposed, singletons),
/// dot segments.
const PIECES: &[&str] = &[
    "a",
    "Z",
    "0",
    "-",
    ".",
    "..",
    "_",
    "~",
    "!",
    "$",
    "&",
    "'",
    "(",
    ")",
    "*",
    "+",
    ",",
    ";",
    "=",
    ":",
    "@",
    "%41",
    "%7e",
    "%2F",
    "%2f",
    "%25",
    "%c3%a9",
    "%C3%A9",
    "%E2%80%AE",
    "%FF",
    "%CE",
    "%2E",
    "%2e%2E",
    "é",
    "ß",
    "ẞ",
    "例",
    "א",
    "ب",
    "\u{10300}",
    "e\u{301}",
    "\u{37E}",
    "\u{212A}",
    "\u{FDF0}",
    "\u{E1000}",
];

fn pieces(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..max).prop_map(|v| v.concat())
}

fn path(max_segments: usize) -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(pieces(4), 0..max_segments)
}

fn host() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(
            prop::sample::select(&["a", "B", "0", "-", ".", "%41", "%c3%bc", "ü", "ẞ", "例", "!", "%FF"][..]),
            0..6
        )
        .prop_map(|v| v.concat()),
        Just("192.0.2.1".to_string()),
        Just("[0:0:0:0:0:0:0:1]".to_string()),
        Just("[::FFFF:192.0.2.1]".to_string()),
        Just("[V7.Ab]".to_string()),
    ]
}

prop_compose! {
    /// IRI references of every shape (not all valid: see `valid_iri_ref`).
    fn iri_ref_text()(
        scheme in prop::option::of(prop::sample::select(&["http", "HTTPS", "s", "urn", "Foo+1"][..])),
        authority in prop::option::of((prop::option::of(pieces(3)), host(), prop::option::of(prop::sample::select(&["", "80", "443", "8080"][..])))),
        absolute in any::<bool>(),
        segments in path(5),
        query in prop::option::of(prop::collection::vec(prop::sample::select(&["a", "=", "&", "/", "?", "\u{E000}", "%EE%80%80", "é", "%20", "b"][..]), 0..5).prop_map(|v| v.concat())),
        fragment in prop::option::of(pieces(3)),
    ) -> String {
        let mut s = String::new();
        if let Some(sc) = scheme {
            s.push_str(sc);
            s.push(':');
        }
        let has_authority = authority.is_some();
        if let Some((user, host, port)) = authority {
            s.push_str("//");
            if let Some(u) = user {
                s.push_str(&u);
                s.push('@');
            }
            s.push_str(&host);
            if let Some(p) = port {
                s.push(':');
                s.push_str(p);
            }
        }
        let mut p = segments.join("/");
        if (absolute || has_authority) && !segments.is_empty() {
            p.insert(0, '/');
        }
        s.push_str(&p);
        if let Some(q) = query {
            s.push('?');
            s.push_str(&q);
        }
        if let Some(f) = fragment {
            s.push('#');
            s.push_str(&f);
        }
        s
    }
}

fn valid_iri_ref() -> impl Strategy<Value = String> {
    iri_ref_text().prop_filter("a valid IRI reference", |s| IriRef::parse(s).is_ok())
}

/// `s` without its percent-encodings (`%` always starts one in a valid
/// IRI reference).
fn without_pct(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('%') {
        out.push_str(&rest[..i]);
        rest = &rest[i + 3..];
    }
    out.push_str(rest);
    out
}

fn valid_iri_ref_without_pct() -> impl Strategy<Value = String> {
    iri_ref_text()
        .prop_map(|s| without_pct(&s))
        .prop_filter("a valid IRI reference", |s| IriRef::parse(s).is_ok())
}

fn valid_iri() -> impl Strategy<Value = String> {
    iri_ref_text().prop_filter("a valid IRI", |s| Iri::parse(s).is_ok())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// §3.1: the result is a URI reference; the mapping is idempotent and an
    /// identity on URIs.
    #[test]
    fn to_uri_gives_uris_and_is_idempotent(s in valid_iri_ref()) {
        let uri = iri_ref(&s).to_uri();
        prop_assert!(rfc3986::URI_REFERENCE.is_match(uri.as_str()));
        let again = IriRef::from(uri.as_ref()).to_uri();
        prop_assert_eq!(again.as_str(), uri.as_str());
        if s.is_ascii() {
            prop_assert_eq!(uri.as_str(), s.as_str());
        }
    }

    /// §3.2 undoes §3.1 for IRIs without percent-encodings (and without
    /// the forbidden characters, which the strict type has none of).
    #[test]
    fn to_iri_undoes_to_uri(s in valid_iri_ref_without_pct()) {
        let r = iri_ref(&s);
        let uri = r.to_uri();
        let back = uri.as_ref().to_iri();
        prop_assert_eq!(back.as_str(), s.as_str());
    }

    /// §3.2 then §3.1 gives the URI back, up to hex case and decoded
    /// unreserved characters: equal after URI normalization.
    #[test]
    fn to_uri_undoes_to_iri(s in valid_iri_ref()) {
        let uri = iri_ref(&s).to_uri();
        let iri = uri.as_ref().to_iri();
        let back = iri.as_ref().to_uri();
        let (a, b) = (normalize_uri(back.as_ref()), normalize_uri(uri.as_ref()));
        prop_assert_eq!(a.as_str(), b.as_str());
    }

    /// Resolution gives valid IRIs, the same as oxiri's (which passes all of
    /// resolve.tsv), and mapping to URIs commutes with it (§6.5).
    #[test]
    fn resolved_references_are_valid_iris(base in valid_iri(), r in valid_iri_ref()) {
        let target = resolve(iri(&base), iri_ref(&r));
        prop_assert!(rfc3987::IRI.is_match(target.as_str()));
        prop_assert!(ops::find_bidi_formatting(target.as_str()).is_none());
        let theirs = oxiri::Iri::parse(base.as_str())
            .unwrap()
            .resolve(&oxiri::IriRef::parse(r.as_str()).unwrap());
        match theirs {
            Ok(t) => prop_assert_eq!(target.as_str(), t.as_str()),
            // oxiri refuses a result whose path starts with "//" without an
            // authority; we write it with "/." (see `Why::DoubleSlashPath`).
            Err(_) => prop_assert!(target.as_ref().authority().is_none() && target.as_ref().path().starts_with("/.//")),
        }
        let (ubase, uref) = (iri(&base).to_uri(), iri_ref(&r).to_uri());
        let via_uri = resolve_uri(ubase.as_ref(), uref.as_ref());
        let target_uri = target.as_ref().to_uri();
        prop_assert_eq!(via_uri.as_str(), target_uri.as_str());
    }

    /// Relativizing and resolving again gives the target, when the target's
    /// path has no dot segments.
    #[test]
    fn relativize_round_trips(target in valid_iri(), base in valid_iri()) {
        // Resolution removes dot segments: a target without them (resolving
        // an IRI against anything does that).
        let target = resolve(iri(&target), iri_ref(&target)).into_string();
        let t = iri(&target);
        prop_assume!(remove_dot_segments(t.path()) == t.path());
        let rel = relativize(t, iri(&base));
        let back = resolve(iri(&base), rel.as_ref());
        prop_assert_eq!(back.as_str(), target.as_str());
        // And against a base that shares its scheme and authority.
        let shared = resolve(t, iri_ref("x/y?z"));
        let rel = relativize(t, shared.as_ref());
        let back = resolve(shared.as_ref(), rel.as_ref());
        prop_assert_eq!(back.as_str(), target.as_str());
    }

    /// Normalizing twice changes nothing, at every rung and with NFC; the
    /// normal form is equivalent to the input.
    #[test]
    fn normalizing_twice_changes_nothing(s in valid_iri_ref()) {
        let r = iri_ref(&s);
        for n in [Normalizer::syntax_based(), Normalizer::scheme_based(), Normalizer::syntax_based().nfc(true), Normalizer::scheme_based().nfc(true)] {
            let once = n.normalize(r);
            let twice = n.normalize(once.as_ref());
            prop_assert_eq!(once.as_str(), twice.as_str(), "{:?}", n);
        }
        let uri = r.to_uri();
        let once = normalize_uri(uri.as_ref());
        let twice = normalize_uri(once.as_ref());
        prop_assert_eq!(twice.as_str(), once.as_str());
        let n = normalize(r);
        prop_assert!(equivalent(r, n.as_ref(), Rung::SyntaxBased));
        // Normalizing the IRI and mapping to a URI, or the other way round,
        // agree once both are URI-normalized, except for host case, which the
        // two RFCs treat differently (see `Normalizer`).
        if r.host().is_none() {
            let a = n.as_ref().to_uri();
            let a = normalize_uri(a.as_ref());
            prop_assert_eq!(a.as_str(), once.as_str());
        }
    }
}

// ---------------------------------------------------------------------------
// Issue #18: RFC requirements at the edges, and the API a peer's user
// reaches for.
// ---------------------------------------------------------------------------

#[test]
fn rfc3987_3_1_iri_to_uri_str_fails_on_what_it_does_not_convert() {
    // §3.1: "If these characters are found but are not converted, then the
    // conversion SHOULD fail." (The issue's example, and the printable
    // ASCII characters §3.1 lists.)
    let e = ops::iri_to_uri_str("http://example.org/a b").unwrap_err();
    assert_eq!((e.offset(), e.found()), (20, ' '));
    assert!(e.to_string().contains("§3.1"), "{e}");
    for c in [
        '<', '>', '"', ' ', '{', '}', '|', '\\', '^', '`', '\t', '\u{7F}', '\0',
    ] {
        let text = format!("/a{c}b");
        let e = ops::iri_to_uri_str(&text).unwrap_err();
        assert_eq!((e.offset(), e.found()), (2, c), "{text:?}");
    }
    // Non-ASCII characters that are neither ucschar nor iprivate (§2.2).
    for c in [
        '\u{FFFE}',
        '\u{FFFF}',
        '\u{FDD0}',
        '\u{1FFFE}',
        '\u{FFF9}',
        '\u{80}',
    ] {
        let text = format!("/é{c}");
        assert_eq!(
            ops::iri_to_uri_str(&text).unwrap_err().offset(),
            3,
            "U+{:04X}",
            c as u32
        );
    }
    // A "%" that starts no triplet: the result would not be a URI.
    for text in ["/100%", "/%4", "/%zz", "%"] {
        assert_eq!(ops::iri_to_uri_str(text).unwrap_err().found(), '%', "{text}");
    }
    // What it converts, it converts as iri_to_uri does; URIs are left alone.
    for line in lines(VALID_IRI) {
        let Ok(r) = IriRef::parse(line) else { continue };
        assert_eq!(ops::iri_to_uri_str(line).unwrap(), r.to_uri().as_str(), "{line}");
    }
    for line in lines(VALID_URI) {
        assert_eq!(ops::iri_to_uri_str(line).unwrap(), line);
        assert!(matches!(
            ops::iri_to_uri_str(line),
            Ok(std::borrow::Cow::Borrowed(_))
        ));
    }
    // The bidi formatting characters are ucschars: encoded (a URI may hold
    // them so; §4.1 is about IRIs).
    assert_eq!(ops::iri_to_uri_str("/\u{202E}").unwrap(), "/%E2%80%AE");
}

#[test]
fn absolute_types_give_the_scheme_as_str() {
    let i = iri("http://example.org/a");
    let scheme: &str = i.scheme();
    assert_eq!(scheme, "http");
    let u = Uri::parse("URN:isbn:0451450523").unwrap();
    let scheme: &str = u.scheme();
    assert_eq!(scheme, "URN");
    // The references keep Option.
    assert_eq!(iri_ref("//a/b").scheme(), None);
    assert_eq!(iri_ref("s:x").scheme(), Some("s"));
}

#[test]
fn resolve_takes_text() {
    // RFC 3986 §5.4.1 and §5.4.2, with the reference given as text.
    let base = iri(RFC3986_5_4_BASE);
    for &(r, want) in RFC3986_5_4 {
        assert_eq!(base.resolve_str(r).unwrap(), want, "{r}");
        assert_eq!(base.resolve_str(r).unwrap(), base.resolve(iri_ref(r)), "{r}");
    }
    let e = base.resolve_str("a b").unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ParseErrorKind::Syntax, 1));
    // Strict: §4.1 applies to the reference too.
    assert_eq!(
        base.resolve_str("/\u{202E}").unwrap_err().kind(),
        ParseErrorKind::BidiFormatting
    );
    let ubase = Uri::parse(RFC3986_5_4_BASE).unwrap();
    assert_eq!(ubase.resolve_str("../g").unwrap(), "http://a/b/g");
    assert!(ubase.resolve_str("/é").is_err(), "not a URI reference");
    let abase = iri_grammar::AbsoluteIri::parse(RFC3986_5_4_BASE).unwrap();
    assert_eq!(abase.resolve_str("#s").unwrap(), "http://a/b/c/d;p?q#s");
}

#[test]
fn types_compare_with_str_both_ways() {
    use iri_grammar::{IriBuf, UriBuf};
    let owned: IriBuf = "http://a/b".parse().unwrap();
    assert!(owned == *"http://a/b");
    assert!(owned == "http://a/b");
    assert!(*"http://a/b" == owned);
    assert!("http://a/b" == owned);
    assert!(owned != "http://a/c");
    let borrowed = iri("http://a/b");
    assert!(borrowed == *"http://a/b" && borrowed == "http://a/b");
    assert!("http://a/b" == borrowed && *"http://a/b" == borrowed);
    assert!(borrowed == owned);
    assert!(owned == borrowed);
    // The other types too (one macro makes them; these keep it honest).
    let u: UriBuf = UriBuf::try_from("s:x").unwrap();
    assert!(u == "s:x" && u.as_ref() == "s:x" && u != "s:y");
    assert!(iri_ref("../x") == "../x" && UriRef::parse("?q").unwrap() == "?q");
    // Comparison is by text (RFC 3987 §5.3.1), not equivalence.
    assert!(iri("HTTP://a/b") != "http://a/b");
}

#[test]
fn owned_types_are_looked_up_by_str() {
    use iri_grammar::IriBuf;
    use std::collections::{BTreeMap, HashMap, HashSet};
    let a: IriBuf = "http://a/".parse().unwrap();
    let b: IriBuf = "http://b/".parse().unwrap();
    let mut hash = HashMap::new();
    hash.insert(a.clone(), 1);
    hash.insert(b.clone(), 2);
    assert_eq!(hash.get("http://b/"), Some(&2));
    assert_eq!(hash.get("http://c/"), None);
    let tree: BTreeMap<IriBuf, i32> = [(b, 2), (a, 1)].into_iter().collect();
    assert_eq!(tree.get("http://a/"), Some(&1));
    assert_eq!(
        tree.keys().map(|k| k.as_str()).collect::<Vec<_>>(),
        ["http://a/", "http://b/"]
    );
    let set: HashSet<IriRef<'_>> = [iri_ref("x"), iri_ref("y")].into_iter().collect();
    assert!(set.contains("y"));
}

#[test]
fn conversions_follow_the_conventions() {
    use iri_grammar::{IriBuf, IriRefBuf};
    use std::str::FromStr;
    let text = "http://例え.jp/a?b#c";
    let borrowed: Iri<'_> = Iri::try_from(text).unwrap();
    let owned: IriBuf = IriBuf::from_str(text).unwrap();
    let from_string: IriBuf = IriBuf::try_from(String::from(text)).unwrap();
    assert_eq!(owned, from_string);
    assert_eq!(borrowed.to_string(), text);
    assert_eq!(owned.to_string(), text);
    assert_eq!(AsRef::<str>::as_ref(&owned), text);
    assert_eq!(std::borrow::Borrow::<str>::borrow(&owned), text);
    assert_eq!(String::from(owned.clone()), text);
    assert_eq!(IriBuf::from(borrowed), owned);
    assert!(IriRefBuf::from_str("a b").is_err());
    assert!(Iri::try_from("//no-scheme").is_err());
}

#[test]
fn hosts_give_ip_addresses() {
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
    let host = |s| iri(s).host().unwrap();
    assert_eq!(
        host("http://192.0.2.1/").ipv4(),
        Some(Ipv4Addr::new(192, 0, 2, 1))
    );
    assert_eq!(
        host("http://192.0.2.1/").ip(),
        Some(IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1)))
    );
    assert_eq!(host("http://[::1]/").ipv6(), Some(Ipv6Addr::LOCALHOST));
    assert_eq!(
        host("http://[2001:DB8:0:0:0:0:0:7]/").ipv6(),
        Some(Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 7))
    );
    // RFC 3986 §3.2.2: an IPv4 address in the IPv6 form's last 32 bits.
    assert_eq!(
        host("http://[::ffff:192.0.2.1]/").ipv6(),
        Some(Ipv4Addr::new(192, 0, 2, 1).to_ipv6_mapped())
    );
    // The text stays as written.
    assert_eq!(host("http://[0:0::1]/").as_str(), "0:0::1");
    assert_eq!(host("http://[0:0::1]/").ipv4(), None);
    // Not addresses: names (also ones that look like addresses but are
    // not IPv4address, §3.2.2) and IPvFuture.
    for s in [
        "http://example.org/",
        "http://192.0.2.256/",
        "http://1.2.3/",
        "http://[v7.x]/",
    ] {
        assert_eq!(host(s).ip(), None, "{s}");
    }
    // Every IPv6address and IPv4address the grammar accepts gives one.
    for line in lines(VALID_IRI) {
        let Some(h) = IriRef::parse(line).ok().and_then(|r| r.host()) else {
            continue;
        };
        match h {
            iri_grammar::Host::Ipv4(t) => assert_eq!(h.ipv4().map(|a| a.to_string()).as_deref(), Some(t)),
            iri_grammar::Host::Ipv6(_) => assert!(h.ipv6().is_some(), "{line}"),
            _ => assert_eq!(h.ip(), None),
        }
    }
}

#[test]
fn fragments_are_set_and_stripped() {
    use iri_grammar::UriBuf;
    let i = iri("http://a/b?q#f");
    assert_eq!(i.without_fragment(), "http://a/b?q");
    assert_eq!(i.without_fragment().fragment(), None);
    assert_eq!(i.without_fragment().query(), Some("q"));
    assert_eq!(iri("http://a/b#").without_fragment(), "http://a/b");
    assert_eq!(iri("http://a/b").without_fragment(), "http://a/b");
    let g = i.with_fragment(Some("g")).unwrap();
    assert_eq!(g, "http://a/b?q#g");
    assert_eq!(g.as_ref().fragment(), Some("g"));
    assert_eq!(g.as_ref().path(), "/b");
    assert_eq!(i.with_fragment(None).unwrap(), "http://a/b?q");
    // The fragment is checked (ifragment, §2.2, and §4.1), not encoded.
    let e = i.with_fragment(Some("a#b")).unwrap_err();
    assert_eq!((e.offset(), e.rule()), (1, "ifragment"));
    let e = i.with_fragment(Some("x\u{200F}")).unwrap_err();
    assert_eq!(e.kind(), ParseErrorKind::BidiFormatting);
    assert_eq!(i.with_fragment(Some("é")).unwrap(), "http://a/b?q#é");
    // URIs: the URI rule, so no non-ASCII.
    let u = Uri::parse("http://a/b#f").unwrap();
    assert!(u.with_fragment(Some("é")).is_err());
    assert_eq!(u.with_fragment(Some("%C3%A9")).unwrap(), "http://a/b#%C3%A9");
    // Owned, in place; unchanged on error.
    let mut owned: UriBuf = "s:/p#f".parse().unwrap();
    owned.set_fragment(Some("g")).unwrap();
    assert_eq!(owned, "s:/p#g");
    assert!(owned.set_fragment(Some("a b")).is_err());
    assert_eq!(owned, "s:/p#g");
    owned.set_fragment(None).unwrap();
    assert_eq!(owned, "s:/p");
    // Every IRI: stripping and setting back gives the IRI.
    for line in lines(VALID_IRI) {
        let Ok(r) = IriRef::parse(line) else { continue };
        assert_eq!(r.without_fragment().with_fragment(r.fragment()).unwrap(), line);
        let reparsed = IriRef::parse(r.without_fragment().as_str()).unwrap();
        assert_eq!(reparsed.path(), r.path(), "{line}");
        assert_eq!(reparsed.query(), r.query(), "{line}");
    }
}

#[test]
fn absolute_iri_has_no_fragment() {
    use iri_grammar::{AbsoluteIri, AbsoluteUri};
    // RFC 3987 absolute-IRI = scheme ":" ihier-part [ "?" iquery ].
    let a = AbsoluteIri::parse("http://例え.jp/a?q").unwrap();
    assert_eq!((a.scheme(), a.path(), a.query()), ("http", "/a", Some("q")));
    let e = AbsoluteIri::parse("http://a/b#f").unwrap_err();
    assert_eq!(e.offset(), 10);
    assert!(AbsoluteIri::parse("/relative").is_err());
    assert!(AbsoluteIri::parse("s:\u{202E}").is_err(), "§4.1");
    assert!(AbsoluteUri::parse("http://例え.jp/").is_err());
    // From an IRI: dropping the fragment, or checking there is none.
    let i = iri("http://a/b?q#f");
    assert_eq!(i.to_absolute(), "http://a/b?q");
    assert!(AbsoluteIri::try_from(i).is_err());
    assert_eq!(AbsoluteIri::try_from(iri("http://a/b")).unwrap(), "http://a/b");
    // Widening is free and keeps the components.
    let back: Iri<'_> = a.into();
    assert_eq!(back.query(), Some("q"));
    let r: IriRef<'_> = a.into();
    assert_eq!(r.host_str(), Some("例え.jp"));
    let u = AbsoluteUri::parse("urn:x:y").unwrap();
    assert_eq!(AbsoluteIri::from(u).path(), "x:y");
    // The recognizer agrees on every corpus line.
    for line in lines(VALID_IRI) {
        assert_eq!(
            AbsoluteIri::parse(line).is_ok(),
            rfc3987::ABSOLUTE_IRI.is_match(line) && ops::find_bidi_formatting(line).is_none(),
            "{line}"
        );
    }
}

#[test]
fn normalize_is_scheme_based_by_default() {
    // The issue: `.normalize()` kept ":80" for http.
    assert_eq!(iri("http://example.com:80").normalize(), "http://example.com/");
    assert_eq!(
        iri_ref("HTTP://example.com:80/a").normalize(),
        "http://example.com/a"
    );
    assert_eq!(
        Uri::parse("http://example.com:80").unwrap().normalize(),
        "http://example.com/"
    );
    assert_eq!(UriRef::parse("https://h:443").unwrap().normalize(), "https://h/");
    assert_eq!(ops::normalize(iri_ref("wss://h:443")), "wss://h/");
    assert_eq!(ops::normalize_uri(UriRef::parse("ws://h:80").unwrap()), "ws://h/");
    assert_eq!(Normalizer::default(), Normalizer::scheme_based());
    // Syntax-based is still there.
    assert_eq!(
        Normalizer::syntax_based().normalize(iri_ref("http://h:80")),
        "http://h:80"
    );
    assert_eq!(Rung::SyntaxBased.normalizer(), Some(Normalizer::syntax_based()));
}

#[test]
fn rfc3986_6_2_3_scheme_based_rules() {
    fn n(s: &str) -> String {
        Normalizer::scheme_based().normalize(iri_ref(s)).into_string()
    }
    // Default ports (http/ws RFC 9110 §4.2.1 and RFC 6455 §3: 80;
    // https/wss: 443; ftp RFC 1738 §3.2: 21); other ports stay.
    for (input, want) in [
        ("ws://h:80/chat", "ws://h/chat"),
        ("wss://h:443/chat", "wss://h/chat"),
        ("ws://h:443/", "ws://h:443/"),
        ("wss://h:80/", "wss://h:80/"),
        ("ftp://h:21/f.txt", "ftp://h/f.txt"),
        ("ftp://h:2121/f.txt", "ftp://h:2121/f.txt"),
        ("FTP://H:021/", "ftp://h/"),
    ] {
        assert_eq!(n(input), want, "{input}");
    }
    // The empty path is "/" for http(s) and ws(s), not for ftp.
    assert_eq!(n("ws://h"), "ws://h/");
    assert_eq!(n("ftp://h"), "ftp://h");
    // file: "localhost" is the empty host (RFC 3986 §3.2.2; RFC 8089 §2).
    assert_eq!(n("file://localhost/etc/hosts"), "file:///etc/hosts");
    assert_eq!(n("FILE://LocalHost/C:/x"), "file:///C:/x");
    assert_eq!(n("file:///etc/hosts"), "file:///etc/hosts");
    assert_eq!(n("file://host/etc/hosts"), "file://host/etc/hosts");
    assert_eq!(n("file:/etc/hosts"), "file:/etc/hosts");
    assert_eq!(n("http://localhost/"), "http://localhost/", "only for file");
    // mailto: domains are case-insensitive (RFC 6068 §6), local parts not.
    assert_eq!(n("mailto:Joe@Example.ORG"), "mailto:Joe@example.org");
    assert_eq!(
        n("MAILTO:A@X.Y,B@Z.W?subject=Hi"),
        "mailto:A@x.y,B@z.w?subject=Hi"
    );
    assert_eq!(n("mailto:%22A@B%22@X.Y"), "mailto:%22A@B%22@x.y");
    // Equivalence follows.
    assert!(equivalent(
        iri_ref("file://localhost/a"),
        iri_ref("file:///a"),
        Rung::SchemeBased
    ));
    assert!(!equivalent(
        iri_ref("file://localhost/a"),
        iri_ref("file:///a"),
        Rung::SyntaxBased
    ));
    assert!(equivalent(
        iri_ref("mailto:a@B.C"),
        iri_ref("mailto:a@b.c"),
        Rung::SchemeBased
    ));
    assert!(!equivalent(
        iri_ref("mailto:A@b.c"),
        iri_ref("mailto:a@b.c"),
        Rung::SchemeBased
    ));
    // Still idempotent.
    for s in ["file://localhost/x", "mailto:A@B.C", "ws://h:80", "ftp://h:21"] {
        assert_eq!(n(&n(s)), n(s), "{s}");
    }
}

#[test]
fn rfc3987_6_1_display_safe_conversion() {
    // Look-alikes, invisible characters and bidi controls (also those newer
    // than RFC 3987) stay percent-encoded for display; the literal §3.2
    // conversion decodes them.
    let cases = [
        '\u{2215}',
        '\u{FF0F}',
        '\u{3000}',
        '\u{A0}',
        '\u{200B}',
        '\u{FEFF}',
        '\u{FF21}',
        '\u{FF41}',
        '\u{2066}',
        '\u{2067}',
        '\u{2068}',
        '\u{2069}',
        '\u{61C}',
        '\u{2044}',
        '\u{3002}',
        '\u{1D41A}',
    ];
    for c in cases {
        let enc = percent_encode(c.encode_utf8(&mut [0; 4]), &rfc3986::UNRESERVED);
        let uri = format!("http://example.org/a{enc}b?x={enc}#{enc}");
        let u = UriRef::parse(&uri).unwrap();
        let literal = ops::uri_to_iri(u);
        assert_eq!(
            literal,
            format!("http://example.org/a{c}b?x={c}#{c}").as_str(),
            "U+{:04X}",
            c as u32
        );
        let display = ops::uri_to_display_iri(u);
        assert_eq!(display, uri.as_str(), "U+{:04X}", c as u32);
        assert_eq!(Uri::parse(&uri).unwrap().to_display_iri(), uri.as_str());
        assert!(ops::is_display_unsafe(c), "U+{:04X}", c as u32);
    }
    // Ordinary non-ASCII is decoded by both.
    let u = UriRef::parse("/D%C3%BCrst/%E4%BE%8B%E3%81%88?%D7%A9").unwrap();
    assert_eq!(ops::uri_to_display_iri(u), "/Dürst/例え?ש");
    assert_eq!(ops::uri_to_display_iri(u), ops::uri_to_iri(u));
    // On every corpus URI: the display form has no display-unsafe
    // character, and maps back to the same URI as the literal one.
    for line in lines(VALID_URI).into_iter().chain(lines(VALID_IRI)) {
        let Ok(r) = IriRef::parse(line) else { continue };
        let uri = r.to_uri();
        let display = uri.as_ref().to_display_iri();
        assert_eq!(ops::find_display_unsafe(display.as_str()), None, "{line}");
        assert_eq!(
            normalize_uri(display.as_ref().to_uri().as_ref()),
            normalize_uri(uri.as_ref().to_iri().as_ref().to_uri().as_ref()),
            "{line}"
        );
    }
}

#[test]
fn rfc3987_3_2_1_idna_labels_to_unicode() {
    fn show(s: &str) -> String {
        ops::idna_labels_to_unicode(iri_ref(s)).into_string()
    }
    // §3.2.1's example.
    assert_eq!(
        show("http://xn--99zt52a.example.org/%e2%80%ae"),
        "http://納豆.example.org/%e2%80%ae"
    );
    assert_eq!(
        show("https://xn--rsum-bpad.example.org/"),
        "https://résumé.example.org/"
    );
    // Case of the prefix does not matter; other labels are left as written.
    assert_eq!(
        show("http://WWW.XN--RSUM-BPAD.Example/"),
        "http://WWW.résumé.Example/"
    );
    // Invalid ACE labels, and schemes without DNS names, are kept.
    assert_eq!(show("http://xn--zz.example/"), "http://xn--zz.example/");
    assert_eq!(show("foo://xn--99zt52a/"), "foo://xn--99zt52a/");
    assert_eq!(show("/relative"), "/relative");
    // A label whose Unicode form would be unsafe to show stays ACE: the
    // round trip through ToASCII is what a browser would display.
    let zwj = iri_to_uri_idna(iri_ref("http://a\u{200D}b.example/"));
    if let Ok(uri) = zwj {
        let shown = show(uri.as_str());
        assert!(ops::find_display_unsafe(&shown).is_none(), "{shown}");
    }
    // Inverse of --idna on §3.1's example.
    let uri = iri_to_uri_idna(iri_ref("http://résumé.example.org/")).unwrap();
    assert_eq!(show(uri.as_str()), "http://résumé.example.org/");
}

#[test]
fn lint_reports_each_kind() {
    use iri_grammar::ops::{lint, LintKind};
    let kinds = |s: &str| {
        lint(s)
            .unwrap()
            .iter()
            .map(|l| (l.kind, l.span.start))
            .collect::<Vec<_>>()
    };
    assert_eq!(kinds("http://example.org/résumé?q=ש"), []);
    // §4.1: every forbidden character, where it is.
    assert_eq!(
        kinds("http://exa\u{200E}mple.org/a\u{202E}b"),
        [
            (LintKind::BidiFormatting('\u{200E}'), 10),
            (LintKind::BidiFormatting('\u{202E}'), 23)
        ]
    );
    // §4.2 (the §4.4 examples are in rfc3987_4_4_examples_lint).
    assert_eq!(
        kinds("http://abגד.ij/"),
        [
            (LintKind::Bidi(BidiComponent::HostLabel, BidiRule::Mixed), 7),
            (LintKind::Bidi(BidiComponent::HostLabel, BidiRule::RtlEdges), 7)
        ]
    );
    // §6.1, §8.
    assert_eq!(
        kinds("/a\u{2215}b\u{3000}"),
        [
            (LintKind::LookAlike('\u{2215}'), 2),
            (LintKind::LookAlike('\u{3000}'), 6)
        ]
    );
    assert_eq!(kinds("/\u{2066}x\u{2069}").len(), 2);
    // RFC 3986 §3.2.2.
    assert_eq!(kinds("http://a%FFb/"), [(LintKind::HostNotUtf8, 8)]);
    assert_eq!(kinds("http://a%C3%BCb/"), []);
    // §5.3.2.2.
    assert_eq!(kinds("/re\u{301}sume"), [(LintKind::NotNfc, 0)]);
    assert_eq!(kinds("/r\u{E9}sume"), []);
    // Not an IRI reference at all: an error, not a finding.
    assert_eq!(lint("a b").unwrap_err().offset(), 1);
    // Messages cite the RFC.
    for s in [
        "/\u{200E}",
        "/a\u{2215}",
        "http://a%FF/",
        "/e\u{301}",
        "http://abגד/",
    ] {
        for l in lint(s).unwrap() {
            assert!(l.to_string().contains("RFC"), "{s}: {l}");
            assert!(
                l.kind.is_error() == matches!(l.kind, LintKind::BidiFormatting(_) | LintKind::HostNotUtf8)
            );
        }
    }
}

#[test]
fn lint_with_bidi_formatting_characters_checks_the_rest() {
    use iri_grammar::ops::lint;
    // The text is not an IRI (§4.1), but the other checks still run, with
    // the offsets of the original text.
    let text = "http://a%FFb/abגד\u{202E}/x\u{3000}";
    let found = lint(text).unwrap();
    let kinds: Vec<_> = found.iter().map(|l| (l.kind.name(), l.span.start)).collect();
    assert_eq!(
        kinds,
        [
            ("host-not-utf8", 8),
            ("bidi-mixed", 13),
            ("bidi-edges", 13),
            ("bidi-formatting", text.find('\u{202E}').unwrap()),
            ("look-alike", text.find('\u{3000}').unwrap())
        ]
    );
    assert_eq!(text.find('\u{202E}'), Some(19));
    assert_eq!(found[1].text(text), "abגד\u{202E}");
    assert_eq!(found[3].text(text), "\u{202E}");
}
