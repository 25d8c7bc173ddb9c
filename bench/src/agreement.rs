//! Where the peers and `iri-grammar` disagree on a corpus: validity per
//! rule, and the components of inputs that both parse.
//!
//! Not timed; `bench-table` prints a summary after its table so that a speed
//! comparison never hides a difference in what is accepted.

use std::collections::BTreeMap;

use iri_grammar::{rfc3986, rfc3987, IriRef};
use iri_string::types::{IriReferenceStr, UriReferenceStr};

use crate::contenders::Corpus;

/// One input on which a peer answers differently from `iri-grammar`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Disagreement {
    /// The peer.
    pub peer: &'static str,
    /// The rule (`IRI-reference`, `URI-reference`) or the component.
    pub what: &'static str,
    /// `iri-grammar`'s answer.
    pub ours: String,
    /// The peer's answer.
    pub theirs: String,
    /// The input.
    pub input: String,
}

/// A validity check by name.
pub type Validator = (&'static str, fn(&str) -> bool);

/// The peers' (and `url`'s) validity checks for the rule a corpus is
/// checked against.
pub fn validators(corpus: Corpus) -> Vec<Validator> {
    match corpus {
        Corpus::Iri | Corpus::LongIri => vec![
            ("oxiri", |s| oxiri::IriRef::parse(s).is_ok()),
            ("iri-string", |s| IriReferenceStr::new(s).is_ok()),
            ("fluent-uri", |s| fluent_uri::IriRef::parse(s).is_ok()),
            ("url", |s| url::Url::parse(s).is_ok()),
        ],
        Corpus::Uri | Corpus::LongUri => vec![
            ("oxiri", |s| oxiri::IriRef::parse(s).is_ok()),
            ("iri-string", |s| UriReferenceStr::new(s).is_ok()),
            ("fluent-uri", |s| fluent_uri::UriRef::parse(s).is_ok()),
        ],
    }
}

fn verdict(valid: bool) -> String {
    if valid { "valid" } else { "invalid" }.to_string()
}

/// Every input of `corpus` whose validity a peer judges differently from
/// `iri-grammar` (`IRI-reference` on [`Corpus::Iri`], `URI-reference` on
/// [`Corpus::Uri`]).
pub fn validity(corpus: &[String], kind: Corpus) -> Vec<Disagreement> {
    let (what, ours): (&'static str, fn(&str) -> bool) = match kind {
        Corpus::Iri | Corpus::LongIri => ("IRI-reference", |s| rfc3987::IRI_REFERENCE.is_match(s)),
        Corpus::Uri | Corpus::LongUri => ("URI-reference", |s| rfc3986::URI_REFERENCE.is_match(s)),
    };
    let validators = validators(kind);
    let mut out = Vec::new();
    for input in corpus {
        let a = ours(input);
        for &(peer, check) in &validators {
            let b = check(input);
            if a != b {
                out.push(Disagreement {
                    peer,
                    what,
                    ours: verdict(a),
                    theirs: verdict(b),
                    input: input.clone(),
                });
            }
        }
    }
    out
}

type Comps = Vec<(&'static str, Option<String>)>;

fn owned(s: Option<&str>) -> Option<String> {
    s.map(str::to_string)
}

/// The components of the inputs of `corpus` that `iri-grammar` and a peer
/// both parse as IRI references, where they differ.
pub fn components(corpus: &[String]) -> Vec<Disagreement> {
    let mut out = Vec::new();
    for input in corpus {
        let Ok(r) = IriRef::parse(input) else { continue };
        let ours: Comps = vec![
            ("scheme", owned(r.scheme())),
            ("authority", owned(r.authority())),
            ("userinfo", owned(r.userinfo())),
            ("host", owned(r.host_str())),
            ("port", owned(r.port().map(|p| p.as_str()))),
            ("path", Some(r.path().to_string())),
            ("query", owned(r.query())),
            ("fragment", owned(r.fragment())),
        ];
        let mut peers: Vec<(&'static str, Comps)> = Vec::new();
        if let Ok(x) = oxiri::IriRef::parse(input.as_str()) {
            peers.push((
                "oxiri",
                vec![
                    ("scheme", owned(x.scheme())),
                    ("authority", owned(x.authority())),
                    ("path", Some(x.path().to_string())),
                    ("query", owned(x.query())),
                    ("fragment", owned(x.fragment())),
                ],
            ));
        }
        if let Ok(x) = IriReferenceStr::new(input) {
            let a = x.authority_components();
            peers.push((
                "iri-string",
                vec![
                    ("scheme", owned(x.scheme_str())),
                    ("authority", owned(x.authority_str())),
                    ("userinfo", owned(a.as_ref().and_then(|a| a.userinfo()))),
                    ("host", owned(a.as_ref().map(|a| a.host()))),
                    ("port", owned(a.as_ref().and_then(|a| a.port()))),
                    ("path", Some(x.path_str().to_string())),
                    ("query", owned(x.query_str())),
                    ("fragment", owned(x.fragment_str())),
                ],
            ));
        }
        if let Ok(x) = fluent_uri::IriRef::parse(input.as_str()) {
            let a = x.authority();
            peers.push((
                "fluent-uri",
                vec![
                    ("scheme", owned(x.scheme().map(|s| s.as_str()))),
                    ("authority", owned(a.as_ref().map(|a| a.as_str()))),
                    (
                        "userinfo",
                        owned(a.as_ref().and_then(|a| a.userinfo()).map(|s| s.as_str())),
                    ),
                    ("host", owned(a.as_ref().map(|a| a.host()))),
                    (
                        "port",
                        owned(a.as_ref().and_then(|a| a.port()).map(|s| s.as_str())),
                    ),
                    ("path", Some(x.path().as_str().to_string())),
                    ("query", owned(x.query().map(|s| s.as_str()))),
                    ("fragment", owned(x.fragment().map(|s| s.as_str()))),
                ],
            ));
        }
        for (peer, theirs) in peers {
            for (what, b) in theirs {
                let a = &ours.iter().find(|(w, _)| *w == what).expect("same names").1;
                if *a != b {
                    out.push(Disagreement {
                        peer,
                        what,
                        ours: format!("{a:?}"),
                        theirs: format!("{b:?}"),
                        input: input.clone(),
                    });
                }
            }
        }
    }
    out
}

/// Peer, what, and for validity our and their verdicts.
type GroupKey<'a> = (&'a str, &'a str, &'a str, &'a str);

/// Disagreements grouped by peer, what, and (for validity) the two
/// verdicts, with how many and the first few of each group.
pub fn summarize(ds: &[Disagreement], examples: usize) -> Vec<String> {
    let mut groups: BTreeMap<GroupKey, (usize, Vec<&Disagreement>)> = BTreeMap::new();
    for d in ds {
        let validity = d.ours.ends_with("valid") && d.theirs.ends_with("valid");
        let key = if validity {
            (d.peer, d.what, d.ours.as_str(), d.theirs.as_str())
        } else {
            (d.peer, d.what, "", "")
        };
        let g = groups.entry(key).or_default();
        g.0 += 1;
        if g.1.len() < examples {
            g.1.push(d);
        }
    }
    groups
        .into_iter()
        .map(|((peer, what, ours, theirs), (n, ds))| {
            let (mut line, shown): (String, Vec<String>) = if ours.is_empty() {
                (
                    format!("{peer}: {what} differs on {n} inputs"),
                    ds.iter()
                        .map(|d| format!("{:?} (ours {}, theirs {})", d.input, d.ours, d.theirs))
                        .collect(),
                )
            } else {
                (
                    format!("{peer}: {what}: {n} inputs {ours} for iri-grammar, {theirs} for {peer}"),
                    ds.iter().map(|d| format!("{:?}", d.input)).collect(),
                )
            };
            if !shown.is_empty() {
                line.push_str(&format!("; e.g. {}", shown.join(", ")));
            }
            line
        })
        .collect()
}
