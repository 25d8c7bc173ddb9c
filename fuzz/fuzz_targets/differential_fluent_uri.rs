//! RFC 3986 validity and components against `fluent-uri` (0.4): the
//! recognizers and the `UriRef` type generated from the RFC 3986 grammar on
//! one side, `fluent_uri::UriRef` / `fluent_uri::Uri` on the other; and, as
//! a bonus, RFC 3987 `IRI-reference` / `IRI` against `fluent_uri::IriRef` /
//! `fluent_uri::Iri` (grammar level: RFC 3987 §4.1's bidi ban is not in the
//! ABNF, and fluent-uri implements the ABNF).
//!
//! Compared, where both accept: scheme, authority, userinfo, host (as
//! written), host kind (IPv4 / IPv6 / IPvFuture / reg-name), port, path,
//! query and fragment.
//!
//! The RFC decides, not the peer: a disagreement where `fluent-uri`
//! deviates from RFC 3986/3987 is listed in [`is_known_peer_deviation`] with
//! the RFC text that decides it; any other disagreement fails the target.
#![no_main]

use fluent_uri::component::Host as FluentHost;
use libfuzzer_sys::fuzz_target;

use iri_grammar::rfc3987::ast::IriReference;
use iri_grammar::{rfc3986, rfc3987, UriRef};
use iri_grammar_fuzz::{comps_of_tree, comps_of_uri_ref, show, Comps};

/// Inputs on which `fluent-uri` is known to deviate from RFC 3986/3987.
///
/// None found so far (see fuzz/README.md for the runs).
fn is_known_peer_deviation(_input: &str) -> bool {
    false
}

/// The components fluent-uri gives, for its URI and IRI reference types
/// alike.
macro_rules! peer_comps {
    ($r:expr) => {{
        let r = &$r;
        let auth = r.authority();
        Comps {
            scheme: r.scheme().map(|x| x.as_str().to_string()),
            authority: auth.as_ref().map(|a| a.as_str().to_string()),
            userinfo: auth
                .as_ref()
                .and_then(|a| a.userinfo())
                .map(|x| x.as_str().to_string()),
            host: auth.as_ref().map(|a| a.host().to_string()),
            host_kind: auth.as_ref().map(|a| match a.host_parsed() {
                FluentHost::Ipv4 { .. } => "ipv4",
                FluentHost::Ipv6 { .. } => "ipv6",
                FluentHost::IpvFuture { .. } => "ipvfuture",
                FluentHost::RegName(_) => "reg-name",
            }),
            port: auth
                .as_ref()
                .and_then(|a| a.port())
                .map(|x| x.as_str().to_string()),
            path: r.path().as_str().to_string(),
            query: r.query().map(|x| x.as_str().to_string()),
            fragment: r.fragment().map(|x| x.as_str().to_string()),
        }
    }};
}

fn compare(problems: &mut Vec<String>, kind: &str, a: &Comps, b: &Comps) {
    let fields = [
        ("scheme", show(&a.scheme), show(&b.scheme)),
        ("authority", show(&a.authority), show(&b.authority)),
        ("userinfo", show(&a.userinfo), show(&b.userinfo)),
        ("host", show(&a.host), show(&b.host)),
        (
            "host kind",
            format!("{:?}", a.host_kind),
            format!("{:?}", b.host_kind),
        ),
        ("port", show(&a.port), show(&b.port)),
        ("path", format!("{:?}", a.path), format!("{:?}", b.path)),
        ("query", show(&a.query), show(&b.query)),
        ("fragment", show(&a.fragment), show(&b.fragment)),
    ];
    for (what, x, y) in fields {
        if x != y {
            problems.push(format!("{kind} {what}: ours {x}, fluent-uri {y}"));
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else {
        return;
    };
    let their_uri_ref = fluent_uri::UriRef::parse(input);
    let their_iri_ref = fluent_uri::IriRef::parse(input);
    let verdicts = [
        (
            "URI-reference",
            rfc3986::URI_REFERENCE.is_match(input),
            their_uri_ref.is_ok(),
        ),
        (
            "URI",
            rfc3986::URI.is_match(input),
            fluent_uri::Uri::parse(input).is_ok(),
        ),
        (
            "IRI-reference",
            rfc3987::IRI_REFERENCE.is_match(input),
            their_iri_ref.is_ok(),
        ),
        (
            "IRI",
            rfc3987::IRI.is_match(input),
            fluent_uri::Iri::parse(input).is_ok(),
        ),
    ];
    let mut problems = Vec::new();
    for (rule, ours, theirs) in verdicts {
        if ours != theirs {
            problems.push(format!("{rule}: grammar says {ours}, fluent-uri says {theirs}"));
        }
    }
    if let (Ok(ours), Ok(theirs)) = (UriRef::parse(input), &their_uri_ref) {
        compare(
            &mut problems,
            "URI reference",
            &comps_of_uri_ref(&ours),
            &peer_comps!(theirs),
        );
    }
    if let (Ok(tree), Ok(theirs)) = (IriReference::parse(input), &their_iri_ref) {
        compare(
            &mut problems,
            "IRI reference",
            &comps_of_tree(&tree),
            &peer_comps!(theirs),
        );
    }
    if !problems.is_empty() && !is_known_peer_deviation(input) {
        panic!("fluent-uri disagrees on {input:?}:\n  {}", problems.join("\n  "));
    }
});
