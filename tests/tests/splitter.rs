//! RFC 3986 Appendix B's splitting grammar (`specs/rfc3986_appendix_b.abnf`)
//! against the full grammars. `IriRef`, `Iri`, `UriRef` and `Uri` find their
//! components with it, walked in step with the rule's recognizer
//! (`parse_checked`), so it must find exactly the parts that the
//! `@components` extractions of `rfc3987.abnf` and `rfc3986.abnf` find, on
//! every valid input:
//!
//! - on the vector files (every line and every tab-separated field) and on
//!   strings sampled from the grammars (`abnf_codegen::sample`);
//! - on random strings of URI/IRI characters (proptest), valid or not: on
//!   invalid ones, the error is the recognizer's own;
//! - with a recognizer that walks forwards only (no `@bidirectional`): the
//!   one-byte fused walk gives the same parts;
//! - by the generated exit walk (`Reference::__parse_by_exits`, at every
//!   vector level and with the scalar twin): the same parts as the table
//!   walk on any string; and `IriRef::parse` with each level capped;
//! - on bytes that are not UTF-8 (the splitter reads non-ASCII characters
//!   whole, trusting `&str`): its byte entry point fails where the UTF-8
//!   stops, and never panics.

use abnf_codegen::sample::Sampler;
use iri_grammar::rfc3986_appendix_b::components::Reference;
use iri_grammar::{rfc2396, rfc3986, rfc3987, Host, IriRef, Recognizer, Span, UriRef};
use proptest::prelude::*;

const VECTORS: &[&str] = &[
    include_str!("../data/vectors/valid-iri.txt"),
    include_str!("../data/vectors/invalid-iri.txt"),
    include_str!("../data/vectors/valid-uri.txt"),
    include_str!("../data/vectors/invalid-uri.txt"),
    include_str!("../data/vectors/classification.tsv"),
    include_str!("../data/vectors/components.tsv"),
    include_str!("../data/vectors/disputed-validity.tsv"),
    include_str!("../data/vectors/error-positions.tsv"),
    include_str!("../data/vectors/resolve.tsv"),
];

/// Every line of the vector files, and every tab-separated field.
fn vector_inputs() -> Vec<String> {
    let mut out = Vec::new();
    for file in VECTORS {
        for line in file.lines().filter(|l| !l.starts_with('#')) {
            out.push(line.to_string());
            out.extend(line.split('\t').map(String::from));
        }
    }
    out
}

/// Strings sampled from the four rules whose parts the types read.
fn sampled_inputs(per_rule: usize) -> Vec<String> {
    let mut config = abnf_codegen::Config::new();
    config.specs_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../specs"));
    let (grammar, _) = config.load().expect("the specs load");
    let mut out = Vec::new();
    for (module, rule) in [
        ("rfc3987", "IRI-reference"),
        ("rfc3987", "IRI"),
        ("rfc3986", "URI-reference"),
        ("rfc3986", "URI"),
    ] {
        let m = grammar.module_by_name(module).expect("module");
        let id = grammar.module(m).get(rule).expect("rule");
        let mut sampler = Sampler::new(&grammar, 0x5eed ^ per_rule as u64);
        out.extend((0..per_rule).map(|_| sampler.sample(id)));
    }
    out
}

/// The parts the full grammar's extractions find, as the types report them.
#[derive(Debug, PartialEq, Eq)]
struct Parts {
    scheme: Option<Span>,
    authority: Option<Span>,
    userinfo: Option<Span>,
    host: Option<(Span, &'static str)>,
    port: Option<Span>,
    path: Option<Span>,
    query: Option<Span>,
    fragment: Option<Span>,
}

fn kind(a: Option<Span>, b: Option<Span>, c: Option<Span>) -> &'static str {
    match (a, b, c) {
        (Some(_), _, _) => "ipv6",
        (_, Some(_), _) => "ipvfuture",
        (_, _, Some(_)) => "ipv4",
        _ => "reg-name",
    }
}

/// What the full grammar's two `@components` extractions find: the
/// reference's parts, then the authority's.
macro_rules! full {
    ($name:ident, $m:ident, $Reference:ident, $Authority:ident) => {
        fn $name(input: &str) -> Parts {
            let c = $m::components::$Reference::parse(input).expect("valid");
            let a = c.authority.map(|s| {
                $m::components::$Authority::parse_span(input.as_bytes(), s.start, s.end)
                    .expect("its authority")
            });
            Parts {
                scheme: c.scheme,
                authority: c.authority,
                userinfo: a.and_then(|a| a.userinfo),
                host: a.and_then(|a| Some((a.host?, kind(a.ipv6, a.ipvfuture, a.ipv4)))),
                port: a.and_then(|a| a.port),
                path: c.path,
                query: c.query,
                fragment: c.fragment,
            }
        }
    };
}

full!(full_3987, rfc3987, IriReference, Iauthority);
full!(full_3986, rfc3986, UriReference, Authority);

fn span_of(input: &str, part: &str) -> Span {
    let start = part.as_ptr() as usize - input.as_ptr() as usize;
    Span {
        start,
        end: start + part.len(),
    }
}

fn host_kind(h: Host<'_>) -> &'static str {
    match h {
        Host::Ipv6(_) => "ipv6",
        Host::IpvFuture(_) => "ipvfuture",
        Host::Ipv4(_) => "ipv4",
        Host::RegName(_) => "reg-name",
    }
}

/// What `IriRef` (or `UriRef`) reports, in spans.
fn facade(input: &str, r: IriRef<'_>) -> Parts {
    let span = |s: Option<&str>| s.map(|s| span_of(input, s));
    Parts {
        scheme: span(r.scheme()),
        authority: span(r.authority()),
        userinfo: span(r.userinfo()),
        host: r
            .host_str()
            .map(|h| (span_of(input, h), host_kind(r.host().expect("a host")))),
        port: span(r.port().map(|p| p.as_str())),
        path: Some(span_of(input, r.path())),
        query: span(r.query()),
        fragment: span(r.fragment()),
    }
}

/// Checks one input against both grammars; returns how many it was valid for.
fn check(input: &str) -> usize {
    let mut valid = 0;
    for (rule, full) in [
        (&rfc3987::IRI_REFERENCE, full_3987 as fn(&str) -> Parts),
        (&rfc3986::URI_REFERENCE, full_3986),
    ] {
        let split = Reference::parse_checked(rule, input);
        match rule.validate(input) {
            Ok(()) => {
                valid += 1;
                let s = split.unwrap_or_else(|e| panic!("{input:?}: {e}"));
                let want = full(input);
                assert_eq!(
                    (
                        s.scheme,
                        s.authority,
                        s.userinfo,
                        s.port,
                        s.path,
                        s.query,
                        s.fragment
                    ),
                    (
                        want.scheme,
                        want.authority,
                        want.userinfo,
                        want.port,
                        want.path,
                        want.query,
                        want.fragment
                    ),
                    "{input:?}"
                );
                assert_eq!(s.host, want.host.map(|h| h.0), "{input:?}");
                // The types read the host's kind from its text.
                let facade = if std::ptr::eq(rule, &rfc3987::IRI_REFERENCE) {
                    IriRef::parse(input).ok().map(|r| facade(input, r))
                } else {
                    UriRef::parse(input).ok().map(|r| facade(input, r.into()))
                };
                // (IriRef also rejects bidi formatting characters.)
                if let Some(f) = facade {
                    assert_eq!(f, want, "{input:?}");
                }
            }
            Err(e) => assert_eq!(split, Err(e), "{input:?}"),
        }
    }
    valid
}

#[test]
fn vectors_split_as_the_grammars_do() {
    let inputs = vector_inputs();
    let valid: usize = inputs.iter().map(|s| check(s)).sum();
    // The files hold hundreds of valid references of each kind.
    assert!(valid > 1000, "{valid} of {}", inputs.len());
}

#[test]
fn samples_split_as_the_grammars_do() {
    for s in sampled_inputs(500) {
        check(&s);
    }
}

/// Strings of URI/IRI characters, long enough to take several chunks of
/// the fused walk.
fn reference_like() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{1,6}:(//([a-z0-9.:@\\[\\]vV]{0,12}))?(/[a-zé0-9%.:@]{0,6}){0,4}(\\?[a-z=&/?é]{0,8})?(#[a-z/?#]{0,6})?",
        "(//[a-z0-9.:@]{0,10})?(/?[a-z0-9%.:]{0,5}){0,4}(\\?[a-z=]{0,6})?(#[a-z]{0,4})?",
        "[a-z]{1,4}://[a-z.]{1,8}(/[a-z0-9]{20,40}){2,8}(\\?[a-z=&]{10,60})?",
        // Long, with a byte that does not belong somewhere: the error is
        // found from where the fused walk left off.
        "[a-z]{1,4}://[a-z.]{1,8}(/[a-z0-9 <>]{20,40}){2,8}(\\?[a-z=&> ]{10,60})?",
        "[ -~é\u{202E}\u{FFFF}]{0,40}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn random_references_split_as_the_grammars_do(input in reference_like()) {
        check(&input);
    }

    #[test]
    fn a_forward_only_recognizer_gives_the_same_parts(input in reference_like()) {
        // RFC 2396's URI-reference is not `@bidirectional`: the one-byte
        // fused walk. The splitter matches every string, so when the
        // recognizer does, the parts are the splitter's own.
        let r: &Recognizer = &rfc2396::URI_REFERENCE;
        prop_assert!(!r.is_bidirectional());
        match r.validate(&input) {
            Ok(()) => prop_assert_eq!(Reference::parse_checked(r, &input), Reference::parse(&input)),
            Err(e) => prop_assert_eq!(Reference::parse_checked(r, &input), Err(e)),
        }
    }
}

/// The generated exit walk of the splitter gives the table walk's parts on
/// `input` (any string: the splitter matches them all), with 64-byte
/// vectors (where the CPU has VBMI), with 32-byte blocks classified by
/// nibble lookups (AVX2, SSSE3) and with the scalar twin: every level the
/// CPU has.
fn check_exit_walk(input: &str) {
    use iri_grammar::abnf_runtime::simd::Level;
    let want = Reference::__parse_by_table(input).expect("the splitter matches every string");
    assert_eq!(Reference::parse(input), Ok(want), "{input:?}");
    for level in Level::available() {
        assert_eq!(
            Reference::__parse_by_exits(input, level),
            Some(want),
            "{level:?} on {input:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    #[test]
    fn the_exit_walk_splits_as_the_table_walk(input in prop_oneof![
        reference_like(),
        "[:/?#@\\[\\]0-9a%é]{0,150}",
        "[ -~é\u{10348}]{0,300}",
    ]) {
        check_exit_walk(&input);
    }
}

#[test]
fn the_exit_walk_splits_vectors_and_samples_as_the_table_walk() {
    for s in vector_inputs().iter().chain(&sampled_inputs(200)) {
        check_exit_walk(s);
    }
    // A megabyte: a long query, then a long fragment, with the exits in
    // the last blocks.
    let mut huge = String::from("http://example.org/p?");
    while huge.len() < 1 << 20 {
        huge.push_str("key=value&");
    }
    huge.push('#');
    huge.push_str(&"f/?".repeat(100_000));
    check_exit_walk(&huge);
    let r = Reference::parse_checked(&rfc3987::IRI_REFERENCE, &huge).expect("valid");
    assert_eq!(r, Reference::__parse_by_table(&huge).unwrap());
    // Delimiters at every place around the 64-byte block boundaries.
    let long = "a".repeat(200);
    for at in 0..long.len() {
        for d in ["#", "?", "/", ":", "@", "//", "[", "]", "é"] {
            let mut s = long.clone();
            s.insert_str(at, d);
            check_exit_walk(&s);
            check_exit_walk(&format!("s://h{s}"));
        }
    }
}

#[test]
fn bytes_that_are_not_utf8_stop_where_utf8_stops() {
    for (input, at) in [
        (&b"http://a/\xFF"[..], 9),
        (b"ab\xC3", 2),
        (b"\x80", 0),
        (b"a\xED\xA0\x80b", 1),
    ] {
        let e = Reference::parse_bytes(input).unwrap_err();
        assert_eq!(e.offset(), at, "{input:?}");
    }
    assert!(Reference::parse_bytes("//é@例え/x?é#€".as_bytes()).is_ok());
}

#[test]
fn the_guides_example() {
    // docs/adding-a-grammar.md, "Validate with one grammar, split with another".
    use iri_grammar::rfc3987::IRI_REFERENCE;
    let input = "http://例え.jp/引き出し?q#f";
    let parts = Reference::parse_checked(&IRI_REFERENCE, input).unwrap();
    assert_eq!(parts.host.map(|h| &input[h.range()]), Some("例え.jp"));
    let e = Reference::parse_checked(&IRI_REFERENCE, "a b").unwrap_err();
    assert_eq!((e.rule(), e.offset()), ("IRI-reference", 1));
}

/// `IriRef::parse` and `UriRef::parse` give the same answers at every
/// vector level this CPU has (the level is capped for the whole process;
/// other tests running meanwhile only lose levels to compare, never get a
/// different answer, which is what this checks): the shuffle walk or the
/// table walk from both ends, the exit walk at each block width or the
/// one-pass walk, the bit-parallel walk or not.
#[test]
fn every_level_parses_alike() {
    use iri_grammar::abnf_runtime::simd::{cap_level, Level};
    let long_query = format!("http://example.com/a/b?{}#frag", "q=%41&x=y;".repeat(30));
    let long_path = format!("//host.example/{}", "seg/é/".repeat(40));
    let inputs = [
        "",
        "http://example.com/",
        "https://user@[::1]:8080/p/a/t/h?query=1#frag",
        "//host/path",
        "mailto:someone@example.org",
        "urn:isbn:0451450523",
        "/relative/path?q#f",
        "a:b:c:d",
        "http://exämple.org/ß?ü#ö",
        "http://a b",
        "http://[::1/",
        "%zz",
        "http://example.com/\u{202E}txt",
        "http://example.com:80x/",
        "?#",
        long_query.as_str(),
        long_path.as_str(),
        &long_query[..95],
        &long_query[..96],
        &long_query[..40],
        &long_path[..63],
        &long_path[..64],
    ];
    let top = Level::detected();
    let want: Vec<String> = inputs
        .iter()
        .map(|s| format!("{:?} {:?}", IriRef::parse(s), UriRef::parse(s)))
        .collect();
    for level in Level::ALL.into_iter().filter(|&l| l < top) {
        cap_level(level);
        for (s, want) in inputs.iter().zip(&want) {
            let got = format!("{:?} {:?}", IriRef::parse(s), UriRef::parse(s));
            assert_eq!(&got, want, "{s:?} at {level:?}");
        }
    }
    cap_level(top);
}
