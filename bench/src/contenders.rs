//! What the benchmarks time: for each operation, one function per
//! implementation, each running over a whole corpus.
//!
//! A contender's function takes the corpus and an output buffer (as long as
//! the corpus; only the batch operation writes it) and returns a checksum:
//! the number of inputs accepted, or for extraction the total length of the
//! components read (plus one per parsed input). Equal checksums across
//! contenders mean they agree; [`crate`]'s users print the differences.
//!
//! The criterion benchmark (`benches/compare.rs`) and the `bench-table`
//! binary both time exactly these functions.

use iri_grammar::{rfc3986, rfc3987, IriRef};
use iri_string::types::{IriReferenceStr, UriReferenceStr};

/// One implementation's way of doing an operation over a whole corpus.
pub type Run = fn(&[String], &mut [bool]) -> u64;

/// What a contender is to the comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// `iri-grammar`.
    Ours,
    /// A peer implementing the same RFC rule: `oxiri`, `iri-string` or
    /// `fluent-uri`. The fastest peer of an operation is what the others are
    /// compared with.
    Peer,
    /// Shown for reference only, not a peer: `url` (WHATWG URL Standard, not
    /// RFC 3986/3987), or `oxiri` on URIs (it implements IRIs only, so it
    /// accepts what a URI validator must reject).
    Reference,
}

/// One contender.
#[derive(Clone, Copy, Debug)]
pub struct Contender {
    /// Crate and API, as the table shows it.
    pub name: &'static str,
    /// Ours, a peer, or for reference.
    pub role: Role,
    /// The timed function.
    pub run: Run,
}

/// Which corpus an operation runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corpus {
    /// [`crate::iri_corpus`].
    Iri,
    /// [`crate::uri_corpus`] (ASCII).
    Uri,
    /// [`crate::long::long_iri_corpus`] (about 1.7 KB per IRI).
    LongIri,
    /// [`crate::long::long_uri_corpus`].
    LongUri,
}

/// One operation and its contenders.
#[derive(Clone, Debug)]
pub struct Operation {
    /// A short name (also the criterion group name).
    pub name: &'static str,
    /// The corpus it runs on.
    pub corpus: Corpus,
    /// Ours first.
    pub contenders: Vec<Contender>,
}

impl Operation {
    /// The fastest peer's index in `times` (one time per contender, in
    /// order), if the operation has a peer.
    pub fn fastest_peer(&self, times: &[f64]) -> Option<usize> {
        self.contenders
            .iter()
            .zip(times)
            .enumerate()
            .filter(|(_, (c, _))| c.role == Role::Peer)
            .min_by(|(_, (_, a)), (_, (_, b))| a.total_cmp(b))
            .map(|(i, _)| i)
    }
}

fn c(name: &'static str, role: Role, run: Run) -> Contender {
    Contender { name, role, run }
}

/// Every operation, in the order the table prints them: validation and
/// extraction on the short corpus, the batch API, then the same validation
/// and extraction on the long corpus.
pub fn operations() -> Vec<Operation> {
    use Role::*;
    vec![
        iri_validate("IRI-reference validate", Corpus::Iri),
        uri_validate("URI-reference validate", Corpus::Uri),
        Operation {
            name: "IRI-reference batch",
            corpus: Corpus::Iri,
            contenders: vec![
                c("iri-grammar IRI_REFERENCE.is_match_many", Ours, batch::ours_many),
                c("iri-grammar IRI_REFERENCE.is_match loop", Ours, batch::ours_loop),
                c("oxiri IriRef::parse loop", Peer, batch::oxiri),
                c("iri-string IriReferenceStr::new loop", Peer, batch::iri_string),
                c("fluent-uri IriRef::parse loop", Peer, batch::fluent),
            ],
        },
        iri_extract("IRI-reference extract", Corpus::Iri),
        iri_validate("IRI-reference validate, long", Corpus::LongIri),
        uri_validate("URI-reference validate, long", Corpus::LongUri),
        iri_extract("IRI-reference extract, long", Corpus::LongIri),
    ]
}

fn iri_validate(name: &'static str, corpus: Corpus) -> Operation {
    use Role::*;
    Operation {
        name,
        corpus,
        contenders: vec![
            c("iri-grammar IRI_REFERENCE.is_match", Ours, iri::ours),
            c("oxiri IriRef::parse", Peer, iri::oxiri),
            c("iri-string IriReferenceStr::new", Peer, iri::iri_string),
            c("fluent-uri IriRef::parse", Peer, iri::fluent),
            c("url Url::parse (WHATWG)", Reference, iri::url),
            c("ada-url Url::can_parse (WHATWG)", Reference, iri::ada),
        ],
    }
}

fn uri_validate(name: &'static str, corpus: Corpus) -> Operation {
    use Role::*;
    Operation {
        name,
        corpus,
        contenders: vec![
            c("iri-grammar URI_REFERENCE.is_match", Ours, uri::ours),
            c("iri-string UriReferenceStr::new", Peer, uri::iri_string),
            c("fluent-uri UriRef::parse", Peer, uri::fluent),
            c("oxiri IriRef::parse (IRI)", Reference, uri::oxiri),
        ],
    }
}

fn iri_extract(name: &'static str, corpus: Corpus) -> Operation {
    use Role::*;
    Operation {
        name,
        corpus,
        contenders: vec![
            c("iri-grammar IriRef::parse + accessors", Ours, extract::ours),
            c("oxiri IriRef::parse + accessors", Peer, extract::oxiri),
            c(
                "iri-string IriReferenceStr + accessors",
                Peer,
                extract::iri_string,
            ),
            c("fluent-uri IriRef::parse + accessors", Peer, extract::fluent),
            c("ada-url Url::parse + accessors (WHATWG)", Reference, extract::ada),
        ],
    }
}

fn count(corpus: &[String], valid: impl Fn(&str) -> bool) -> u64 {
    corpus.iter().filter(|s| valid(s)).count() as u64
}

/// RFC 3987 `IRI-reference` validation.
pub mod iri {
    use super::*;

    /// `rfc3987::IRI_REFERENCE.is_match`.
    pub fn ours(corpus: &[String], _: &mut [bool]) -> u64 {
        count(corpus, |s| rfc3987::IRI_REFERENCE.is_match(s))
    }

    /// `oxiri::IriRef::parse(..).is_ok()`.
    pub fn oxiri(corpus: &[String], _: &mut [bool]) -> u64 {
        count(corpus, |s| oxiri::IriRef::parse(s).is_ok())
    }

    /// `iri_string::types::IriReferenceStr::new(..).is_ok()`.
    pub fn iri_string(corpus: &[String], _: &mut [bool]) -> u64 {
        count(corpus, |s| IriReferenceStr::new(s).is_ok())
    }

    /// `fluent_uri::IriRef::parse(..).is_ok()`.
    pub fn fluent(corpus: &[String], _: &mut [bool]) -> u64 {
        count(corpus, |s| fluent_uri::IriRef::parse(s).is_ok())
    }

    /// `url::Url::parse(..).is_ok()` (WHATWG: a different language, and no
    /// relative references without a base).
    pub fn url(corpus: &[String], _: &mut [bool]) -> u64 {
        count(corpus, |s| url::Url::parse(s).is_ok())
    }

    /// `ada_url::Url::can_parse(.., None)` (WHATWG, as `url`).
    pub fn ada(corpus: &[String], _: &mut [bool]) -> u64 {
        count(corpus, |s| ada_url::Url::can_parse(s, None))
    }
}

/// RFC 3986 `URI-reference` validation.
pub mod uri {
    use super::*;

    /// `rfc3986::URI_REFERENCE.is_match`.
    pub fn ours(corpus: &[String], _: &mut [bool]) -> u64 {
        count(corpus, |s| rfc3986::URI_REFERENCE.is_match(s))
    }

    /// `iri_string::types::UriReferenceStr::new(..).is_ok()`.
    pub fn iri_string(corpus: &[String], _: &mut [bool]) -> u64 {
        count(corpus, |s| UriReferenceStr::new(s).is_ok())
    }

    /// `fluent_uri::UriRef::parse(..).is_ok()`.
    pub fn fluent(corpus: &[String], _: &mut [bool]) -> u64 {
        count(corpus, |s| fluent_uri::UriRef::parse(s).is_ok())
    }

    /// `oxiri::IriRef::parse(..).is_ok()`: an IRI parser, so on an ASCII
    /// corpus the same language as a URI-reference validator.
    pub fn oxiri(corpus: &[String], _: &mut [bool]) -> u64 {
        count(corpus, |s| oxiri::IriRef::parse(s).is_ok())
    }
}

/// The batch API against loops writing the same output.
pub mod batch {
    use super::*;

    fn fill(corpus: &[String], out: &mut [bool], valid: impl Fn(&str) -> bool) -> u64 {
        for (s, o) in corpus.iter().zip(out.iter_mut()) {
            *o = valid(s);
        }
        out.iter().filter(|&&b| b).count() as u64
    }

    /// `rfc3987::IRI_REFERENCE.is_match_many(corpus, out)`.
    pub fn ours_many(corpus: &[String], out: &mut [bool]) -> u64 {
        rfc3987::IRI_REFERENCE.is_match_many(corpus, out);
        out.iter().filter(|&&b| b).count() as u64
    }

    /// `out[i] = rfc3987::IRI_REFERENCE.is_match(corpus[i])`.
    pub fn ours_loop(corpus: &[String], out: &mut [bool]) -> u64 {
        fill(corpus, out, |s| rfc3987::IRI_REFERENCE.is_match(s))
    }

    /// `out[i] = oxiri::IriRef::parse(corpus[i]).is_ok()`.
    pub fn oxiri(corpus: &[String], out: &mut [bool]) -> u64 {
        fill(corpus, out, |s| oxiri::IriRef::parse(s).is_ok())
    }

    /// `out[i] = IriReferenceStr::new(corpus[i]).is_ok()`.
    pub fn iri_string(corpus: &[String], out: &mut [bool]) -> u64 {
        fill(corpus, out, |s| IriReferenceStr::new(s).is_ok())
    }

    /// `out[i] = fluent_uri::IriRef::parse(corpus[i]).is_ok()`.
    pub fn fluent(corpus: &[String], out: &mut [bool]) -> u64 {
        fill(corpus, out, |s| fluent_uri::IriRef::parse(s).is_ok())
    }
}

/// Parsing and reading the scheme, host, path, query and fragment.
pub mod extract {
    use super::*;

    fn len(s: Option<&str>) -> u64 {
        s.map_or(0, |s| s.len() as u64)
    }

    /// `IriRef::parse`, then `scheme`, `host_str` (IP literals with their
    /// brackets, as the peers give them), `path`, `query`, `fragment`.
    pub fn ours(corpus: &[String], _: &mut [bool]) -> u64 {
        let mut sum = 0;
        for s in corpus {
            if let Ok(r) = IriRef::parse(s) {
                sum += 1
                    + len(r.scheme())
                    + len(r.host_str())
                    + r.path().len() as u64
                    + len(r.query())
                    + len(r.fragment());
            }
        }
        sum
    }

    /// `oxiri::IriRef::parse`, then `scheme`, `authority` (oxiri has no host
    /// accessor), `path`, `query`, `fragment`.
    pub fn oxiri(corpus: &[String], _: &mut [bool]) -> u64 {
        let mut sum = 0;
        for s in corpus {
            if let Ok(r) = oxiri::IriRef::parse(s.as_str()) {
                sum += 1
                    + len(r.scheme())
                    + len(r.authority())
                    + r.path().len() as u64
                    + len(r.query())
                    + len(r.fragment());
            }
        }
        sum
    }

    /// `IriReferenceStr::new`, then `scheme_str`,
    /// `authority_components().host()`, `path_str`, `query_str`,
    /// `fragment_str`.
    pub fn iri_string(corpus: &[String], _: &mut [bool]) -> u64 {
        let mut sum = 0;
        for s in corpus {
            if let Ok(r) = IriReferenceStr::new(s) {
                sum += 1
                    + len(r.scheme_str())
                    + len(r.authority_components().map(|a| a.host()))
                    + r.path_str().len() as u64
                    + len(r.query_str())
                    + len(r.fragment_str());
            }
        }
        sum
    }

    /// `ada_url::Url::parse(.., None)`, then `protocol`, `hostname`,
    /// `pathname`, `search`, `hash` (WHATWG: absolute URLs only, the
    /// components normalized, with their delimiters).
    pub fn ada(corpus: &[String], _: &mut [bool]) -> u64 {
        let mut sum = 0;
        for s in corpus {
            if let Ok(u) = ada_url::Url::parse(s.as_str(), None) {
                sum += 1
                    + u.protocol().len() as u64
                    + u.hostname().len() as u64
                    + u.pathname().len() as u64
                    + u.search().len() as u64
                    + u.hash().len() as u64;
            }
        }
        sum
    }

    /// `fluent_uri::IriRef::parse`, then `scheme`, `authority().host()`,
    /// `path`, `query`, `fragment`.
    pub fn fluent(corpus: &[String], _: &mut [bool]) -> u64 {
        let mut sum = 0;
        for s in corpus {
            if let Ok(r) = fluent_uri::IriRef::parse(s.as_str()) {
                sum += 1
                    + len(r.scheme().map(|x| x.as_str()))
                    + len(r.authority().map(|a| a.host()))
                    + r.path().as_str().len() as u64
                    + len(r.query().map(|x| x.as_str()))
                    + len(r.fragment().map(|x| x.as_str()));
            }
        }
        sum
    }
}

/// RFC 3986 Appendix B's splitter alone (`rfc3986_appendix_b::components::
/// Reference`, which matches every string): its `parse`, which runs the
/// generated exit walk, against its table walk. For the `profile` example
/// (`split`), not the bench table: no peer has this operation.
pub mod split {
    use iri_grammar::rfc3986_appendix_b::components::Reference;

    fn sum(r: Option<Reference>) -> u64 {
        r.map_or(0, |r| {
            r.path.map_or(0, |p| p.end as u64) + r.fragment.map_or(0, |f| f.start as u64)
        })
    }

    /// `Reference::parse`: the exit walk.
    pub fn exits(corpus: &[String], _: &mut [bool]) -> u64 {
        corpus.iter().map(|s| sum(Reference::parse(s).ok())).sum()
    }

    /// The exit walk with the scalar search (what CPUs without SSSE3 take,
    /// and ARM ones today).
    pub fn exits_scalar(corpus: &[String], _: &mut [bool]) -> u64 {
        use iri_grammar::abnf_runtime::simd::Level;
        corpus
            .iter()
            .map(|s| sum(Reference::__parse_by_exits(s, Level::Scalar)))
            .sum()
    }

    /// The same tagged DFA walked by its table.
    pub fn table(corpus: &[String], _: &mut [bool]) -> u64 {
        corpus
            .iter()
            .map(|s| sum(Reference::__parse_by_table(s).ok()))
            .sum()
    }
}
