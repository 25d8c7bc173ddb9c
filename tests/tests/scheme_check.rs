//! Scheme-aware checks: the schemes come from `; @scheme` directives in
//! `specs/`, and the scheme's grammar sees the IRI mapped to a URI (RFC 3987
//! §2: scheme restrictions apply to the mapped URI).

use iri_grammar::{check_scheme, scheme_grammar, SchemeCheck, SCHEMES};

#[test]
fn every_scheme_grammar_is_listed() {
    let mut names: Vec<&str> = SCHEMES.iter().map(|(s, _)| *s).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        ["data", "file", "http", "https", "mailto", "tag", "tel", "urn"]
    );
    assert_eq!(scheme_grammar("HTTPS").unwrap().rule(), "https-URI");
}

#[test]
fn valid_invalid_unknown() {
    let valid = [
        "mailto:chris@example.com",
        "urn:isbn:0451450523",
        "data:,A%20brief%20note",
        "file:///etc/hosts",
        "tel:+1-201-555-0123",
        "tag:timothy@hpl.hp.com,2001:web/externalHome",
        "http://example.org/résumé",
        "https://例え.jp/引き出し",
    ];
    for iri in valid {
        assert!(matches!(check_scheme(iri), Ok(SchemeCheck::Valid(_))), "{iri}");
    }
    // Valid IRIs, but not in their scheme's syntax.
    for iri in [
        "mailto:a@b@c",
        "urn:x",
        "data:no-comma",
        "tel:phone",
        "tag:example.com:x",
        "http:no-slashes",
    ] {
        match check_scheme(iri) {
            Ok(SchemeCheck::Invalid(r, e)) => {
                let uri = iri_grammar::ops::iri_to_uri_str(iri).unwrap();
                assert_eq!(r.validate(&uri), Err(e), "{iri}");
            }
            other => panic!("{iri}: {other:?}"),
        }
    }
    assert!(matches!(check_scheme("foo:bar"), Ok(SchemeCheck::Unknown)));
    assert!(check_scheme("not an iri").is_err());
}
