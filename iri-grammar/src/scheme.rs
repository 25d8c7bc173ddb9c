//! Scheme-aware checks: an IRI's scheme-specific syntax, checked with the
//! grammar of its scheme when `specs/` has one (`; @scheme NAME RULE`).

use crate::{Iri, MatchError, ParseError, Recognizer, SCHEMES};

/// The outcome of [`check_scheme`].
#[derive(Clone, Copy, Debug)]
pub enum SchemeCheck {
    /// The scheme has a grammar and the IRI (mapped to a URI) follows it.
    Valid(&'static Recognizer),
    /// The scheme has a grammar and the mapped URI does not follow it; the
    /// error's offset is in the mapped URI.
    Invalid(&'static Recognizer, MatchError),
    /// No grammar in `specs/` covers the scheme: only the generic syntax
    /// was checked.
    Unknown,
}

/// The rule that URIs of `scheme` follow (scheme names are
/// case-insensitive).
///
/// ```
/// let r = iri_grammar::scheme_grammar("MAILTO").unwrap();
/// assert_eq!((r.grammar(), r.rule()), ("mailto", "mailtoURI"));
/// assert!(iri_grammar::scheme_grammar("gopher").is_none());
/// ```
pub fn scheme_grammar(scheme: &str) -> Option<&'static Recognizer> {
    SCHEMES
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(scheme))
        .map(|&(_, r)| r)
}

/// Checks `iri` with the generic syntax (a strict [`Iri`]) and then, when
/// its scheme has a grammar, its scheme-specific syntax. As RFC 3987 §2
/// says, scheme restrictions apply to the URI an IRI maps to (§3.1), so the
/// scheme's grammar sees the mapped URI.
///
/// ```
/// use iri_grammar::{check_scheme, SchemeCheck};
///
/// assert!(matches!(check_scheme("mailto:infobot@example.com?subject=current-issue")?, SchemeCheck::Valid(_)));
/// assert!(matches!(check_scheme("tag:example.com,2024:résumé")?, SchemeCheck::Valid(_)));
/// assert!(matches!(check_scheme("tel:not a number").is_err(), true)); // not even an IRI
/// assert!(matches!(check_scheme("tel:phone")?, SchemeCheck::Invalid(..)));
/// assert!(matches!(check_scheme("foo:bar")?, SchemeCheck::Unknown));
/// # Ok::<(), iri_grammar::ParseError>(())
/// ```
pub fn check_scheme(iri: &str) -> Result<SchemeCheck, ParseError> {
    let parsed = Iri::parse(iri)?;
    let Some(recognizer) = scheme_grammar(parsed.scheme()) else {
        return Ok(SchemeCheck::Unknown);
    };
    let uri = crate::ops::iri_to_uri(parsed.into()).into_string();
    Ok(match recognizer.validate(&uri) {
        Ok(()) => SchemeCheck::Valid(recognizer),
        Err(e) => SchemeCheck::Invalid(recognizer, e),
    })
}
