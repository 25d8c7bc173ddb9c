//! Operations on IRIs and URIs: the mappings between them (RFC 3987 §3),
//! the bidi rules (§4), normalization and comparison (§5, RFC 3986 §6),
//! reference resolution (RFC 3986 §5, RFC 3987 §6.5) and its inverse, and a
//! checked builder.
//!
//! Every operation decides character classes with the generated recognizers
//! (`rfc3987::UCSCHAR`, `rfc3987::IPRIVATE`, `rfc3987::ISEGMENT`, ...), never
//! with hand-written ranges, and every operation that returns an IRI or URI
//! type returns one that the strict parser accepts.
//!
//! ```
//! use iri_grammar::{Iri, IriRef, UriRef};
//!
//! let base = Iri::parse("http://example.org/a/b?q")?;
//! let target = base.resolve(IriRef::parse("../résumé#top")?);
//! assert_eq!(target.as_str(), "http://example.org/résumé#top");
//! assert_eq!(target.as_ref().to_uri().as_str(), "http://example.org/r%C3%A9sum%C3%A9#top");
//!
//! let uri = UriRef::parse("http://example.org/D%C3%BCrst")?;
//! assert_eq!(uri.to_iri().as_str(), "http://example.org/Dürst");
//!
//! let messy = IriRef::parse("HTTP://Example.ORG/a/./b/../%63?%7e")?;
//! assert_eq!(messy.normalize().as_str(), "http://example.org/a/c?~");
//! # Ok::<(), iri_grammar::ParseError>(())
//! ```
//!
//! Features: `idna` adds `iri_to_uri_idna` (RFC 3987 §3.1's optional
//! ToASCII of the host) and `idna_labels_to_unicode` (§3.2.1), `bidi` adds
//! `bidi_lint` (the §4.2 component rules, also in [`lint`]), `nfc` adds
//! `Normalizer::nfc` (§5.3.2.2, and [`lint`]'s NFC check). All are
//! `no_std` + `alloc`.
//!
//! | operation | RFC | here |
//! |---|---|---|
//! | IRI → URI | 3987 §3.1 | [`iri_to_uri`], [`iri_to_uri_str`] (fails on what it cannot convert), `IriRef::to_uri`, `iri_to_uri_idna` |
//! | URI → IRI | 3987 §3.2 | [`uri_to_iri`], `UriRef::to_iri` (literal: decodes all it may) |
//! | URI → IRI for display | 3987 §3.2, §6.1, §8 | [`uri_to_display_iri`], `UriRef::to_display_iri` (look-alikes stay encoded, see [`is_display_unsafe`]) |
//! | IDNA labels shown as Unicode | 3987 §3.2.1 | `idna_labels_to_unicode` |
//! | lint: §4.1, §4.2, look-alikes, host encoding | 3987 §4, §6.1, 3986 §3.2.2 | [`lint`] |
//! | forbidden bidi characters | 3987 §4.1 | [`find_bidi_formatting`]; `IriRef::parse` rejects them |
//! | bidi component rules | 3987 §4.2 | `bidi_lint` |
//! | comparison ladder | 3987 §5.3, 3986 §6.2 | [`Rung`], [`equivalent`], [`Normalizer`], [`normalize`], [`normalize_uri`] (scheme-based; `Normalizer::syntax_based` for §5.3.2 alone) |
//! | resolution | 3986 §5.2, 3987 §6.5 | [`resolve`], [`resolve_uri`], [`remove_dot_segments`], `Iri::resolve` |
//! | relative reference from two IRIs | — | [`relativize`], [`relativize_uri`], `Iri::relative_to` |
//! | building from parts | 3987 §2.2 rules | [`IriBuilder`] |
//! | percent-encoding | 3986 §2.1 | [`percent_encode`], [`percent_decode`] |

mod bidi;
mod builder;
mod convert;
mod lint;
mod normalize;
mod pct;
mod resolve;

#[cfg(feature = "bidi")]
pub use bidi::{bidi_lint, BidiComponent, BidiRule, BidiWarning};
pub use bidi::{find_bidi_formatting, is_bidi_formatting, BIDI_FORMATTING_CHARACTERS};
pub use builder::{BuildError, IriBuilder, Part};
pub use convert::{
    find_display_unsafe, iri_to_uri, iri_to_uri_str, is_display_unsafe, uri_to_display_iri, uri_to_iri,
    uses_domain_names, ToUriError,
};
#[cfg(feature = "idna")]
pub use convert::{idna_labels_to_unicode, iri_to_uri_idna, IdnaError};
pub use lint::{lint, Lint, LintKind};
pub use normalize::{equivalent, normalize, normalize_uri, Normalizer, Rung};
pub use pct::{percent_decode, percent_encode};
pub use resolve::{relativize, relativize_uri, remove_dot_segments, resolve, resolve_uri};

pub(crate) use bidi::bidi_formatting_name;

use alloc::string::String;

use crate::{Host, IriBuf, IriRefBuf, UriBuf, UriRefBuf};

/// The components of any of the four validated types, borrowed, for the
/// operations that take them apart and put them back together.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Comps<'a> {
    pub scheme: Option<&'a str>,
    pub authority: Option<&'a str>,
    pub userinfo: Option<&'a str>,
    pub host: Option<Host<'a>>,
    pub port: Option<&'a str>,
    pub path: &'a str,
    pub query: Option<&'a str>,
    pub fragment: Option<&'a str>,
}

/// [`Comps`] of an `Iri`, `IriRef`, `Uri` or `UriRef` (they have the same
/// accessors).
macro_rules! comps {
    ($v:expr) => {{
        let v = $v;
        $crate::ops::Comps {
            scheme: v.scheme_opt(),
            authority: v.authority(),
            userinfo: v.userinfo(),
            host: v.host(),
            port: v.port().map(|p| p.as_str()),
            path: v.path(),
            query: v.query(),
            fragment: v.fragment(),
        }
    }};
}
pub(crate) use comps;

/// RFC 3986 §5.3 "Component Recomposition", with one addition: a path that
/// starts with `//` when there is no authority gets the prefix `/.`.
///
/// §3.3: "If a URI does not contain an authority component, then the path
/// cannot begin with two slash characters". Resolution (§5.2.2, through
/// `remove_dot_segments`) and dot-segment normalization can produce such a
/// path (`.//g` against `f:/a` gives the path `//g`); written out as is, the
/// result would read back with `g` as its authority. `/.` keeps the path a
/// path, and `remove_dot_segments` takes it away again, so the meaning does
/// not change. (iri-string, oxiri and fluent-uri do the same, as does the
/// WHATWG URL serializer.)
pub(crate) fn recompose(
    out: &mut String,
    scheme: Option<&str>,
    authority: Option<&str>,
    path: &str,
    query: Option<&str>,
    fragment: Option<&str>,
) {
    if let Some(s) = scheme {
        out.push_str(s);
        out.push(':');
    }
    if let Some(a) = authority {
        out.push_str("//");
        out.push_str(a);
    } else if path.starts_with("//") {
        out.push_str("/.");
    }
    out.push_str(path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    if let Some(f) = fragment {
        out.push('#');
        out.push_str(f);
    }
}

/// An operation produced text that its output type rejects: a bug here.
#[cold]
fn bug(op: &str, e: crate::ParseError) -> ! {
    panic!("iri-grammar bug: {op} produced an invalid result ({e}); please report it with the input")
}

pub(crate) fn iri_ref_buf(op: &str, s: String) -> IriRefBuf {
    IriRefBuf::parse(s).unwrap_or_else(|e| bug(op, e))
}

pub(crate) fn iri_buf(op: &str, s: String) -> IriBuf {
    IriBuf::parse(s).unwrap_or_else(|e| bug(op, e))
}

pub(crate) fn uri_ref_buf(op: &str, s: String) -> UriRefBuf {
    UriRefBuf::parse(s).unwrap_or_else(|e| bug(op, e))
}

pub(crate) fn uri_buf(op: &str, s: String) -> UriBuf {
    UriBuf::parse(s).unwrap_or_else(|e| bug(op, e))
}

/// The byte offset of `part` (a slice of `whole`) in `whole`.
pub(crate) fn offset_in(whole: &str, part: &str) -> usize {
    part.as_ptr() as usize - whole.as_ptr() as usize
}

/// Whether `c` matches `rule` as a one-character string.
pub(crate) fn char_matches(rule: &crate::Recognizer, c: char) -> bool {
    rule.is_match(c.encode_utf8(&mut [0; 4]))
}
