//! Components and validity compared with three peer crates: `oxiri`,
//! `iri-string` and `fluent-uri`, on the peer vectors
//! (`tests/data/vectors/valid-iri.txt`, `valid-uri.txt`, `components.tsv`)
//! and on a seeded, generated corpus.
//!
//! The RFC grammar decides, not the peers: where a peer disagrees with it,
//! the disagreement must be listed in [`KNOWN_DEVIATIONS`] with the RFC text
//! that settles it, and the test asserts that the disagreements found are
//! exactly the listed ones (a new disagreement, or a listed one that no
//! longer happens, fails).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use fluent_uri::component::Host as FluentHost;
use iri_grammar::{rfc3986, rfc3987, Host, Iri, IriRef, Uri, UriRef};
use iri_string::types::{
    IriAbsoluteStr, IriReferenceStr, IriRelativeStr, IriStr, UriAbsoluteStr, UriReferenceStr, UriRelativeStr,
    UriStr,
};

// ---------------------------------------------------------------------------
// One view per implementation
// ---------------------------------------------------------------------------

/// What one implementation says about one input. `None` in a validity field
/// means the implementation does not implement that rule; `None` in a
/// component field of `parts` means it does not expose that component.
#[derive(Clone, Debug, Default)]
struct View {
    iri_reference: Option<bool>,
    iri: Option<bool>,
    uri_reference: Option<bool>,
    uri: Option<bool>,
    /// `absolute-IRI`, `irelative-ref`, `absolute-URI`, `relative-ref`.
    others: [Option<bool>; 4],
    /// The components of the input read as an IRI reference, if valid.
    parts: Option<Comps>,
}

/// Components; the outer `Option` is "this implementation does not say", the
/// inner one "absent".
#[derive(Clone, Debug, Default)]
struct Comps {
    scheme: Option<Option<String>>,
    authority: Option<Option<String>>,
    userinfo: Option<Option<String>>,
    host: Option<Option<String>>,
    host_kind: Option<Option<String>>,
    port: Option<Option<String>>,
    path: Option<String>,
    query: Option<Option<String>>,
    fragment: Option<Option<String>>,
}

fn s(x: Option<&str>) -> Option<String> {
    x.map(str::to_string)
}

fn ours(input: &str) -> View {
    let parts = IriRef::parse(input).ok().map(|r| Comps {
        scheme: Some(s(r.scheme())),
        authority: Some(s(r.authority())),
        userinfo: Some(s(r.userinfo())),
        host: Some(s(r.host_str())),
        host_kind: Some(r.host().map(|h| h.kind().to_string())),
        port: Some(r.port().map(|p| p.as_str().to_string())),
        path: Some(r.path().to_string()),
        query: Some(s(r.query())),
        fragment: Some(s(r.fragment())),
    });
    // The facade types agree with the recognizers, which are the RFC
    // grammar, except that the IRI types also apply RFC 3987 §4.1 (checked at
    // length in extraction.rs).
    let bidi = input.contains([
        '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}',
    ]);
    assert_eq!(parts.is_some(), rfc3987::IRI_REFERENCE.is_match(input) && !bidi);
    View {
        iri_reference: Some(parts.is_some()),
        iri: Some(Iri::parse(input).is_ok()),
        uri_reference: Some(UriRef::parse(input).is_ok()),
        uri: Some(Uri::parse(input).is_ok()),
        others: [
            Some(rfc3987::ABSOLUTE_IRI.is_match(input)),
            Some(rfc3987::IRELATIVE_REF.is_match(input)),
            Some(rfc3986::ABSOLUTE_URI.is_match(input)),
            Some(rfc3986::RELATIVE_REF.is_match(input)),
        ],
        parts,
    }
}

fn oxiri(input: &str) -> View {
    let parts = oxiri::IriRef::parse(input).ok().map(|r| Comps {
        scheme: Some(s(r.scheme())),
        authority: Some(s(r.authority())),
        path: Some(r.path().to_string()),
        query: Some(s(r.query())),
        fragment: Some(s(r.fragment())),
        ..Comps::default()
    });
    View {
        iri_reference: Some(parts.is_some()),
        iri: Some(oxiri::Iri::parse(input).is_ok()),
        uri_reference: None,
        uri: None,
        others: [None; 4],
        parts,
    }
}

fn iri_string(input: &str) -> View {
    let parts = IriReferenceStr::new(input).ok().map(|r| {
        let auth = r.authority_components();
        Comps {
            scheme: Some(s(r.scheme_str())),
            authority: Some(s(r.authority_str())),
            userinfo: Some(auth.as_ref().and_then(|a| s(a.userinfo()))),
            host: Some(auth.as_ref().map(|a| a.host().to_string())),
            port: Some(auth.as_ref().and_then(|a| s(a.port()))),
            path: Some(r.path_str().to_string()),
            query: Some(s(r.query_str())),
            fragment: Some(s(r.fragment_str())),
            ..Comps::default()
        }
    });
    View {
        iri_reference: Some(parts.is_some()),
        iri: Some(IriStr::new(input).is_ok()),
        uri_reference: Some(UriReferenceStr::new(input).is_ok()),
        uri: Some(UriStr::new(input).is_ok()),
        others: [
            Some(IriAbsoluteStr::new(input).is_ok()),
            Some(IriRelativeStr::new(input).is_ok()),
            Some(UriAbsoluteStr::new(input).is_ok()),
            Some(UriRelativeStr::new(input).is_ok()),
        ],
        parts,
    }
}

fn fluent(input: &str) -> View {
    let parts = fluent_uri::IriRef::parse(input).ok().map(|r| {
        let auth = r.authority();
        Comps {
            scheme: Some(r.scheme().map(|x| x.as_str().to_string())),
            authority: Some(auth.as_ref().map(|a| a.as_str().to_string())),
            userinfo: Some(
                auth.as_ref()
                    .and_then(|a| a.userinfo())
                    .map(|x| x.as_str().to_string()),
            ),
            host: Some(auth.as_ref().map(|a| a.host().to_string())),
            host_kind: Some(auth.as_ref().map(|a| {
                match a.host_parsed() {
                    FluentHost::Ipv4 { .. } => "ipv4",
                    FluentHost::Ipv6 { .. } => "ipv6",
                    FluentHost::IpvFuture { .. } => "ipvfuture",
                    FluentHost::RegName(_) => "reg-name",
                }
                .to_string()
            })),
            port: Some(
                auth.as_ref()
                    .and_then(|a| a.port())
                    .map(|x| x.as_str().to_string()),
            ),
            path: Some(r.path().as_str().to_string()),
            query: Some(r.query().map(|x| x.as_str().to_string())),
            fragment: Some(r.fragment().map(|x| x.as_str().to_string())),
        }
    });
    View {
        iri_reference: Some(parts.is_some()),
        iri: Some(fluent_uri::Iri::parse(input).is_ok()),
        uri_reference: Some(fluent_uri::UriRef::parse(input).is_ok()),
        uri: Some(fluent_uri::Uri::parse(input).is_ok()),
        others: [None; 4],
        parts,
    }
}

/// One disagreement: input, peer, what (a rule or a component), and the two
/// answers.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Disagreement {
    input: String,
    peer: &'static str,
    what: &'static str,
    ours: String,
    theirs: String,
}

/// Compares a peer's view with ours, field by field, where the peer says
/// something.
fn compare(input: &str, peer: &'static str, ours: &View, theirs: &View, out: &mut Vec<Disagreement>) {
    let mut differ = |what: &'static str, a: String, b: String| {
        if a != b {
            out.push(Disagreement {
                input: input.to_string(),
                peer,
                what,
                ours: a,
                theirs: b,
            });
        }
    };
    let validity = [
        ("IRI-reference", ours.iri_reference, theirs.iri_reference),
        ("IRI", ours.iri, theirs.iri),
        ("URI-reference", ours.uri_reference, theirs.uri_reference),
        ("URI", ours.uri, theirs.uri),
        ("absolute-IRI", ours.others[0], theirs.others[0]),
        ("irelative-ref", ours.others[1], theirs.others[1]),
        ("absolute-URI", ours.others[2], theirs.others[2]),
        ("relative-ref", ours.others[3], theirs.others[3]),
    ];
    for (rule, a, b) in validity {
        if let (Some(a), Some(b)) = (a, b) {
            differ(rule, verdict(a), verdict(b));
        }
    }
    let (Some(a), Some(b)) = (&ours.parts, &theirs.parts) else {
        return;
    };
    macro_rules! field {
        ($f:ident, $name:literal) => {
            if let (Some(x), Some(y)) = (&a.$f, &b.$f) {
                differ($name, format!("{x:?}"), format!("{y:?}"));
            }
        };
    }
    field!(scheme, "scheme");
    field!(authority, "authority");
    field!(userinfo, "userinfo");
    field!(host, "host");
    field!(host_kind, "host_kind");
    field!(port, "port");
    field!(path, "path");
    field!(query, "query");
    field!(fragment, "fragment");
}

fn verdict(valid: bool) -> String {
    if valid { "valid" } else { "invalid" }.to_string()
}

/// Every disagreement of every peer on `inputs`.
fn disagreements<'a>(inputs: impl IntoIterator<Item = &'a str>) -> Vec<Disagreement> {
    let mut out = Vec::new();
    for input in inputs {
        let ours = ours(input);
        compare(input, "oxiri", &ours, &oxiri(input), &mut out);
        compare(input, "iri-string", &ours, &iri_string(input), &mut out);
        compare(input, "fluent-uri", &ours, &fluent(input), &mut out);
    }
    out.sort();
    out.dedup();
    out
}

// ---------------------------------------------------------------------------
// Known deviations of the peers from the RFC grammar
// ---------------------------------------------------------------------------

/// A known disagreement between a peer and this crate on `input`: each of
/// `peers` answers differently about each of `what` (rules or components);
/// `why` quotes the RFC text that decides for this crate.
struct Deviation {
    input: &'static str,
    peers: &'static [&'static str],
    what: &'static [&'static str],
    why: &'static str,
}

const ALL_PEERS: &[&str] = &["oxiri", "iri-string", "fluent-uri"];

/// RFC 3987 §4.1 (bidi formatting characters).
const BIDI: &str = "RFC 3987 §4.1: \"IRIs MUST NOT contain bidirectional formatting characters (LRM, RLM, LRE, \
     RLE, LRO, RLO, and PDF).\" The §2.2 ABNF allows them (they are in ucschar %xA0-D7FF), which is what the \
     peers implement; the IRI types here also apply §4.1 (the recognizers and trees, being the grammar, accept \
     them, so the absolute-IRI / irelative-ref verdicts agree).";

/// Every disagreement with a peer that the tests below find.
///
/// On the vectors, the generated corpus and the authority fuzz the three
/// peers agree with the RFC 3986 / RFC 3987 grammar on every input, rule and
/// component compared; what is left is the IRI types' §4.1 check, which the
/// peers do not make. They are exercised by [`BIDI_INPUTS`].
const KNOWN_DEVIATIONS: &[Deviation] = &[
    Deviation {
        input: "http://example.org/\u{202E}gpj.exe",
        peers: ALL_PEERS,
        what: &["IRI-reference", "IRI"],
        why: BIDI,
    },
    Deviation {
        input: "/\u{200F}x",
        peers: ALL_PEERS,
        what: &["IRI-reference"],
        why: BIDI,
    },
    Deviation {
        input: "s:?\u{202A}q\u{202C}",
        peers: ALL_PEERS,
        what: &["IRI-reference", "IRI"],
        why: BIDI,
    },
    Deviation {
        input: "//\u{200E}",
        peers: ALL_PEERS,
        what: &["IRI-reference"],
        why: BIDI,
    },
];

/// Inputs with bidi formatting characters (see [`KNOWN_DEVIATIONS`]).
const BIDI_INPUTS: &[&str] = &[
    "http://example.org/\u{202E}gpj.exe",
    "/\u{200F}x",
    "s:?\u{202A}q\u{202C}",
    "//\u{200E}",
];

/// The known deviations as (input, peer, what) triples.
fn known() -> BTreeSet<(&'static str, &'static str, &'static str)> {
    let mut out = BTreeSet::new();
    for d in KNOWN_DEVIATIONS {
        for &peer in d.peers {
            for &what in d.what {
                assert!(
                    out.insert((d.input, peer, what)),
                    "listed twice: {:?}",
                    (d.input, peer, what)
                );
            }
        }
    }
    out
}

/// Asserts that `found` is exactly the known deviations restricted to
/// `inputs`.
fn assert_only_known(found: &[Disagreement], inputs: &BTreeSet<&str>) {
    let found_keys: BTreeSet<(&str, &str, &str)> =
        found.iter().map(|d| (d.input.as_str(), d.peer, d.what)).collect();
    let known_keys: BTreeSet<(&str, &str, &str)> = known()
        .into_iter()
        .filter(|(input, _, _)| inputs.contains(input))
        .collect();
    let mut report = String::new();
    for d in found {
        if !known_keys.contains(&(d.input.as_str(), d.peer, d.what)) {
            writeln!(
                report,
                "new: {:?} {} {}: ours {} / theirs {}",
                d.input, d.peer, d.what, d.ours, d.theirs
            )
            .unwrap();
        }
    }
    for k in known_keys.difference(&found_keys) {
        writeln!(report, "listed but not found (any more): {k:?}").unwrap();
    }
    assert!(
        report.is_empty(),
        "peer disagreements differ from KNOWN_DEVIATIONS:\n{report}"
    );
}

#[test]
fn known_deviations_are_documented() {
    let triples = known();
    assert!(!triples.is_empty());
    for d in KNOWN_DEVIATIONS {
        assert!(d.peers.iter().all(|p| ALL_PEERS.contains(p)), "{:?}", d.input);
        assert!(!d.what.is_empty() && !d.peers.is_empty());
        assert!(
            d.why.contains("RFC 3986") || d.why.contains("RFC 3987"),
            "{:?}: cite the RFC text",
            d.input
        );
    }
}

/// The deviations themselves: on these inputs the IRI types reject what the
/// grammar and the peers accept, and nothing else differs.
#[test]
fn bidi_formatting_deviations() {
    for input in BIDI_INPUTS {
        assert!(rfc3987::IRI_REFERENCE.is_match(input), "{input:?}");
        assert!(IriRef::parse(input).is_err(), "{input:?}");
        for view in [oxiri(input), iri_string(input), fluent(input)] {
            assert_eq!(view.iri_reference, Some(true), "{input:?}");
        }
    }
    let found = disagreements(BIDI_INPUTS.iter().copied());
    for d in &found {
        assert_eq!(
            (d.ours.as_str(), d.theirs.as_str()),
            ("invalid", "valid"),
            "{d:?}"
        );
    }
    assert_only_known(&found, &BIDI_INPUTS.iter().copied().collect());
    // Every listed input is exercised.
    let listed: BTreeSet<&str> = KNOWN_DEVIATIONS.iter().map(|d| d.input).collect();
    assert_eq!(listed, BIDI_INPUTS.iter().copied().collect());
}

// ---------------------------------------------------------------------------
// The vectors
// ---------------------------------------------------------------------------

/// The lines of a vector file (split on "\n" only: lines are verbatim and may
/// start with "#").
fn lines(file: &str) -> Vec<&str> {
    file.strip_suffix('\n').unwrap_or(file).split('\n').collect()
}

#[test]
fn valid_iri_vectors() {
    let inputs = lines(include_str!("../data/vectors/valid-iri.txt"));
    assert!(inputs.len() > 500);
    for i in &inputs {
        assert!(IriRef::parse(i).is_ok(), "valid-iri.txt: {i:?}");
    }
    let found = disagreements(inputs.iter().copied());
    assert_only_known(&found, &inputs.into_iter().collect());
}

#[test]
fn valid_uri_vectors() {
    let inputs = lines(include_str!("../data/vectors/valid-uri.txt"));
    assert!(inputs.len() > 500);
    for i in &inputs {
        assert!(UriRef::parse(i).is_ok(), "valid-uri.txt: {i:?}");
    }
    let found = disagreements(inputs.iter().copied());
    assert_only_known(&found, &inputs.into_iter().collect());
}

#[test]
fn invalid_vectors() {
    let mut inputs = lines(include_str!("../data/vectors/invalid-iri.txt"));
    inputs.extend(lines(include_str!("../data/vectors/invalid-uri.txt")));
    inputs.sort();
    inputs.dedup();
    let found = disagreements(inputs.iter().copied());
    assert_only_known(&found, &inputs.into_iter().collect());
}

/// `components.tsv` (iri-string's decomposition table): our components are
/// the table's, and the peers agree on these inputs too.
#[test]
fn components_table() {
    let file = lines(include_str!("../data/vectors/components.tsv"));
    assert_eq!(
        file[0],
        "input\tscheme\tuser\tpassword\thost\tport\tpath\tquery\tfragment"
    );
    let cell = |c: &'static str| match c {
        "" => None,
        "\"\"" => Some(""),
        c => Some(c),
    };
    let mut wrong = Vec::new();
    let mut inputs = BTreeSet::new();
    for line in &file[1..] {
        let row: Vec<&'static str> = line.split('\t').collect();
        assert_eq!(row.len(), 9, "{line:?}");
        let input = row[0];
        inputs.insert(input);
        let [scheme, user, password, host, port, path, query, fragment] =
            [1, 2, 3, 4, 5, 6, 7, 8].map(|i| cell(row[i]));
        let r = IriRef::parse(input).unwrap_or_else(|e| panic!("{input:?}: {e}"));
        let userinfo = match (user, password) {
            (None, None) => None,
            (Some(u), None) => Some(u.to_string()),
            (u, Some(p)) => Some(format!("{}:{p}", u.unwrap_or(""))),
        };
        let got = (
            r.scheme(),
            r.userinfo().map(str::to_string),
            r.host_str(),
            r.port().map(|p| p.as_str()),
            Some(r.path()),
            r.query(),
            r.fragment(),
        );
        let want = (
            scheme,
            userinfo,
            host,
            port,
            Some(path.unwrap_or("")),
            query,
            fragment,
        );
        if got != want {
            wrong.push(format!("{input:?}: got {got:?}, table {want:?}"));
        }
        // Userinfo holds the user, then ":" and the password.
        if let Some(u) = r.userinfo() {
            let (a, b) = u.split_once(':').map_or((u, None), |(a, b)| (a, Some(b)));
            assert_eq!((Some(a), b), (user.or(Some("")), password), "{input:?}");
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    let found = disagreements(inputs.iter().copied());
    assert_only_known(&found, &inputs);
}

// ---------------------------------------------------------------------------
// The generated corpus
// ---------------------------------------------------------------------------

/// SplitMix64: small, seeded, the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// True with probability `percent`%.
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const SCHEMES: &[&str] = &[
    "http", "HTTPS", "a", "a+b-c.d", "urn", "x1", "mailto", "file", "z.9",
];
const USERINFOS: &[&str] = &[
    "",
    "user",
    "u:p",
    "u:",
    ":p",
    "::",
    "%41%3a",
    "a;b=c!$&'()*+,",
    "ü:ß",
    "用户",
    "-._~",
];
const BAD_USERINFOS: &[&str] = &["u@v", "u p", "%4", "[u]", "u/v"];
const REG_NAMES: &[&str] = &[
    "",
    "example.com",
    "EXAMPLE.org",
    "a-b_c~d",
    "%65x",
    "例え.jp",
    "xn--bcher-kva.ch",
    "a!$&'()*+,;=b",
    "localhost",
    "256.1.1.1",
    "1.2.3",
    "01.2.3.4",
    "1.2.3.4.5",
    "1.2.3.4.",
    "0x7f.1",
    "1.2.3.256",
    "ü.%C3%BC",
];
const BAD_HOSTS: &[&str] = &[
    "[::1",
    "::1]",
    "[1:2:3:4:5:6:7:8:9]",
    "a b",
    "[v1.]",
    "[::1%25eth0]",
    "[1.2.3.4]",
    "[::ffff:1.2.3.256]",
    "[:::1]",
    "a^b",
    "\u{E000}",
    "[]",
];
const PORTS: &[&str] = &["", "0", "80", "8080", "65535", "65536", "0080", "99999999"];
const SEGMENTS: &[&str] = &[
    "",
    "a",
    "b.c",
    ".",
    "..",
    "%7E",
    "%7e%20",
    "é",
    "résumé",
    "引き出し",
    "a:b",
    "@",
    "!$&'()*+,;=",
    "~-._",
    "\u{E0001}",
    "\u{10FFFD}x",
    "x\u{FFFD}",
];
const BAD_SEGMENTS: &[&str] = &[
    "%zz", " ", "\u{E000}", "[", "]", "\u{FFFF}", "a b", "%", "<", "\\", "^", "`", "{", "|", "\"",
];
const QUERY_PARTS: &[&str] = &[
    "a=b",
    "&",
    "c",
    "/",
    "?",
    ":@",
    "%20",
    "é",
    "\u{E000}",
    "\u{F0000}",
    "\u{10FFFD}",
    "!$'()*+,;=",
    "",
];
const FRAGMENT_PARTS: &[&str] = &["f", "/", "?", ":@", "%2F", "é", "section-1.2", "!$'()*+,;="];
const BAD_QUERY_PARTS: &[&str] = &["[", "]", " ", "%g", "#", "\u{FFFE}"];

fn ipv4(rng: &mut Rng) -> String {
    let octet = |rng: &mut Rng| -> String {
        match rng.below(4) {
            0 => rng.below(10).to_string(),
            1 => (10 + rng.below(90)).to_string(),
            2 => (100 + rng.below(100)).to_string(),
            _ => (200 + rng.below(56)).to_string(),
        }
    };
    (0..4).map(|_| octet(rng)).collect::<Vec<_>>().join(".")
}

fn ipv6(rng: &mut Rng) -> String {
    let h16 = |rng: &mut Rng| -> String {
        let v = rng.next() as u16;
        match rng.below(4) {
            0 => format!("{v:x}"),
            1 => format!("{v:X}"),
            2 => format!("{:x}", v & 0xF),
            _ => format!("{v:04x}"),
        }
    };
    // Pieces: 8 h16, or 6 h16 and an IPv4 tail; maybe elide a run with "::".
    let tail4 = rng.chance(25);
    let n = if tail4 { 6 } else { 8 };
    let mut pieces: Vec<String> = (0..n).map(|_| h16(rng)).collect();
    let mut out = if rng.chance(60) {
        let start = rng.below(n + 1);
        let len = rng.below(n - start + 1).max(1).min(n - start);
        let head = pieces[..start].join(":");
        let rest = pieces.split_off(start + len).join(":");
        format!("{head}::{rest}")
    } else {
        pieces.join(":")
    };
    if tail4 {
        if !out.ends_with(':') {
            out.push(':');
        }
        out += &ipv4(rng);
    }
    out
}

fn host(rng: &mut Rng) -> String {
    match rng.below(10) {
        0..=2 => ipv4(rng),
        3..=5 => rng.pick(REG_NAMES).to_string(),
        6 | 7 => format!("[{}]", ipv6(rng)),
        8 => rng
            .pick(&["[v1.x]", "[V7.a:b]", "[vFF.!$&'()*+,;=-._~]", "[v0A.1]"])
            .to_string(),
        _ => {
            if rng.chance(50) {
                rng.pick(BAD_HOSTS).to_string()
            } else {
                ipv4(rng).replacen('.', "..", 1)
            }
        }
    }
}

fn segments(rng: &mut Rng, n: usize, bad: usize) -> Vec<String> {
    (0..n)
        .map(|_| {
            if rng.chance(bad) {
                rng.pick(BAD_SEGMENTS).to_string()
            } else {
                let mut s = rng.pick(SEGMENTS).to_string();
                if rng.chance(30) {
                    s += rng.pick(SEGMENTS);
                }
                s
            }
        })
        .collect()
}

/// One corpus entry: mostly valid references of every shape, with a few
/// invalid parts mixed in.
fn generate(rng: &mut Rng) -> String {
    let bad = if rng.chance(20) { 15 } else { 0 };
    let mut out = String::new();
    let scheme = rng.chance(65);
    if scheme {
        out += rng.pick(SCHEMES);
        out.push(':');
    }
    let authority = rng.chance(60);
    if authority {
        out += "//";
        if rng.chance(30) {
            out += if rng.chance(bad) {
                rng.pick(BAD_USERINFOS)
            } else {
                rng.pick(USERINFOS)
            };
            out.push('@');
        }
        out += &host(rng);
        if rng.chance(35) {
            out.push(':');
            out += rng.pick(PORTS);
        }
    }
    let n = rng.below(4);
    let segs = segments(rng, n, bad);
    match rng.below(3) {
        // Absolute path (or abempty after an authority).
        0 => {
            for s in &segs {
                out.push('/');
                out += s;
            }
        }
        // Rootless / noscheme (invalid after an authority unless empty, and
        // invalid without a scheme when the first segment has a colon).
        1 if !authority || segs.is_empty() => out += &segs.join("/"),
        _ => {
            if !segs.is_empty() {
                out.push('/');
                out += &segs.join("/");
            }
        }
    }
    if rng.chance(40) {
        out.push('?');
        for _ in 0..rng.below(4) {
            out += if rng.chance(bad) {
                rng.pick(BAD_QUERY_PARTS)
            } else {
                rng.pick(QUERY_PARTS)
            };
        }
    }
    if rng.chance(35) {
        out.push('#');
        for _ in 0..rng.below(4) {
            out += if rng.chance(bad) {
                rng.pick(&["#", "\u{E000}", " ", "%"])
            } else {
                rng.pick(FRAGMENT_PARTS)
            };
        }
    }
    out
}

fn corpus() -> Vec<String> {
    let mut rng = Rng(0x1AB5_EED5_0F3A_3987);
    let mut out: Vec<String> = (0..6000).map(|_| generate(&mut rng)).collect();
    out.sort();
    out.dedup();
    out
}

#[test]
fn generated_corpus_is_varied() {
    let corpus = corpus();
    let count = |f: &dyn Fn(&str) -> bool| corpus.iter().filter(|s| f(s)).count();
    let valid = count(&|s| rfc3987::IRI_REFERENCE.is_match(s));
    let ascii_valid = count(&|s| rfc3986::URI_REFERENCE.is_match(s));
    let host_kind = |k: &'static str| {
        move |s: &str| {
            IriRef::parse(s)
                .ok()
                .and_then(|r| r.host())
                .is_some_and(|h| h.kind() == k)
        }
    };
    let stats = [
        ("total", corpus.len()),
        ("valid IRI-reference", valid),
        ("invalid", corpus.len() - valid),
        ("valid URI-reference", ascii_valid),
        ("ipv4", count(&host_kind("ipv4"))),
        ("ipv6", count(&host_kind("ipv6"))),
        ("ipvfuture", count(&host_kind("ipvfuture"))),
        ("reg-name", count(&host_kind("reg-name"))),
        (
            "userinfo",
            count(&|s| IriRef::parse(s).is_ok_and(|r| r.userinfo().is_some())),
        ),
        (
            "port",
            count(&|s| IriRef::parse(s).is_ok_and(|r| r.port().is_some())),
        ),
        (
            "query",
            count(&|s| IriRef::parse(s).is_ok_and(|r| r.query().is_some())),
        ),
        (
            "fragment",
            count(&|s| IriRef::parse(s).is_ok_and(|r| r.fragment().is_some())),
        ),
        ("non-ASCII valid", valid - ascii_valid),
        (
            "percent",
            count(&|s| s.contains('%') && rfc3987::IRI_REFERENCE.is_match(s)),
        ),
    ];
    for (what, n) in stats {
        assert!(n >= 100, "too few {what} in the corpus: {stats:?}");
    }
}

/// Random strings where the authority is: characters that IP literals,
/// ports and userinfo are made of, in any order, so that near misses of
/// every kind occur (mostly invalid; about one in eight is valid).
fn authority_fuzz() -> Vec<String> {
    let mut rng = Rng(0x3986);
    let any: Vec<char> = "[]:.v1fF09a@%/?#é\u{E000}\u{FFFE}-".chars().collect();
    let ip: Vec<char> = "::::.1234567890abcdef".chars().collect();
    let mut out = Vec::new();
    for _ in 0..4000 {
        let mut x = String::from(if rng.chance(50) { "//" } else { "s://[" });
        for _ in 0..rng.below(16) {
            x.push(any[rng.below(any.len())]);
        }
        out.push(x);
    }
    for _ in 0..2000 {
        let mut x = String::from("//[");
        for _ in 0..rng.below(40) {
            x.push(ip[rng.below(ip.len())]);
        }
        x.push(']');
        out.push(x);
    }
    out.sort();
    out.dedup();
    out
}

#[test]
fn generated_corpus() {
    let mut corpus = corpus();
    let fuzz = authority_fuzz();
    let valid = fuzz.iter().filter(|s| rfc3987::IRI_REFERENCE.is_match(s)).count();
    assert!(
        valid > 100 && fuzz.len() - valid > 1000,
        "{valid} of {}",
        fuzz.len()
    );
    corpus.extend(fuzz);
    let found = disagreements(corpus.iter().map(String::as_str));
    assert_only_known(&found, &corpus.iter().map(String::as_str).collect());
}

/// The URI types read the same components as the IRI types, and the peers'
/// URI types agree with them on ASCII corpus entries.
#[test]
fn uri_components_match_peers() {
    let mut wrong = Vec::new();
    for input in corpus() {
        let Ok(ours) = UriRef::parse(&input) else {
            continue;
        };
        let mine = (
            ours.scheme().map(str::to_string),
            ours.authority().map(str::to_string),
            ours.userinfo().map(str::to_string),
            ours.host_str().map(str::to_string),
            ours.port().map(|p| p.as_str().to_string()),
            ours.path().to_string(),
            ours.query().map(str::to_string),
            ours.fragment().map(str::to_string),
        );
        if let Ok(f) = fluent_uri::UriRef::parse(input.as_str()) {
            let a = f.authority();
            let theirs = (
                f.scheme().map(|x| x.as_str().to_string()),
                a.as_ref().map(|a| a.as_str().to_string()),
                a.as_ref()
                    .and_then(|a| a.userinfo())
                    .map(|x| x.as_str().to_string()),
                a.as_ref().map(|a| a.host().to_string()),
                a.as_ref().and_then(|a| a.port()).map(|x| x.as_str().to_string()),
                f.path().as_str().to_string(),
                f.query().map(|x| x.as_str().to_string()),
                f.fragment().map(|x| x.as_str().to_string()),
            );
            if mine != theirs {
                wrong.push(format!("fluent-uri {input:?}: {mine:?} vs {theirs:?}"));
            }
        }
        if let Ok(r) = UriReferenceStr::new(&input) {
            let a = r.authority_components();
            let theirs = (
                r.scheme_str().map(str::to_string),
                r.authority_str().map(str::to_string),
                a.as_ref().and_then(|a| a.userinfo()).map(str::to_string),
                a.as_ref().map(|a| a.host().to_string()),
                a.as_ref().and_then(|a| a.port()).map(str::to_string),
                r.path_str().to_string(),
                r.query_str().map(str::to_string),
                r.fragment_str().map(str::to_string),
            );
            if mine != theirs {
                wrong.push(format!("iri-string {input:?}: {mine:?} vs {theirs:?}"));
            }
        }
        // Our own URI view agrees with our IRI view.
        let iri = IriRef::parse(&input).unwrap();
        assert_eq!(iri.host(), ours.host(), "{input:?}");
        assert_eq!(iri.path(), ours.path(), "{input:?}");
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Spot checks that the views read what they should (so that agreement is
/// not agreement on nothing).
#[test]
fn views_read_components() {
    let input = "http://u:p@[::1]:8/a/b?q#f";
    for (name, v) in [
        ("ours", ours(input)),
        ("oxiri", oxiri(input)),
        ("iri-string", iri_string(input)),
        ("fluent-uri", fluent(input)),
    ] {
        assert_eq!(v.iri_reference, Some(true), "{name}");
        let p = v.parts.unwrap();
        assert_eq!(p.scheme, Some(Some("http".into())), "{name}");
        assert_eq!(p.authority, Some(Some("u:p@[::1]:8".into())), "{name}");
        assert_eq!(p.path.as_deref(), Some("/a/b"), "{name}");
        assert_eq!(p.query, Some(Some("q".into())), "{name}");
        assert_eq!(p.fragment, Some(Some("f".into())), "{name}");
        if let Some(h) = p.host {
            assert_eq!(h.as_deref(), Some("[::1]"), "{name}");
        }
        if let Some(k) = p.host_kind {
            assert_eq!(k.as_deref(), Some("ipv6"), "{name}");
        }
        if let Some(u) = p.userinfo {
            assert_eq!(u.as_deref(), Some("u:p"), "{name}");
        }
        if let Some(port) = p.port {
            assert_eq!(port.as_deref(), Some("8"), "{name}");
        }
    }
    assert_eq!(IriRef::parse(input).unwrap().host(), Some(Host::Ipv6("::1")));
    for v in [ours("a b"), oxiri("a b"), iri_string("a b"), fluent("a b")] {
        assert_eq!(v.iri_reference, Some(false));
        assert!(v.parts.is_none());
    }
}
