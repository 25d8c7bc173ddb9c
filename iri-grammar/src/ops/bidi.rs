//! Bidirectional IRIs (RFC 3987 §4): the characters §4.1 forbids, and
//! (feature `bidi`) the §4.2 component rules as a lint.

#[cfg(feature = "bidi")]
use alloc::vec::Vec;

#[cfg(feature = "bidi")]
use crate::{IriRef, Span};

/// The bidirectional formatting characters that RFC 3987 §4.1 forbids in
/// IRIs: LRM U+200E, RLM U+200F, LRE U+202A, RLE U+202B, PDF U+202C, LRO
/// U+202D and RLO U+202E.
///
/// ```
/// use iri_grammar::ops::BIDI_FORMATTING_CHARACTERS;
///
/// assert_eq!(BIDI_FORMATTING_CHARACTERS.len(), 7);
/// assert!(BIDI_FORMATTING_CHARACTERS.contains(&'\u{202E}'));
/// ```
pub const BIDI_FORMATTING_CHARACTERS: [char; 7] = [
    '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}',
];

/// Whether `c` is one of [`BIDI_FORMATTING_CHARACTERS`].
///
/// ```
/// use iri_grammar::ops::is_bidi_formatting;
///
/// assert!(is_bidi_formatting('\u{200F}'));
/// assert!(!is_bidi_formatting('\u{2066}')); // LRI came later than RFC 3987
/// assert!(!is_bidi_formatting('א'));
/// ```
pub fn is_bidi_formatting(c: char) -> bool {
    matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}')
}

/// The first bidi formatting character of `s` (RFC 3987 §4.1), with its
/// byte offset. This is the check that [`IriRef::parse`](crate::IriRef::parse)
/// and [`Iri::parse`](crate::Iri::parse) add to the grammar.
///
/// ```
/// use iri_grammar::ops::find_bidi_formatting;
///
/// assert_eq!(find_bidi_formatting("/a\u{200E}b"), Some((2, '\u{200E}')));
/// assert_eq!(find_bidi_formatting("/שלום"), None);
/// ```
#[inline]
pub fn find_bidi_formatting(s: &str) -> Option<(usize, char)> {
    // All seven are E2 80 xx in UTF-8: look for the lead byte only. Most
    // IRIs have none: one vector search (no loop for short inputs), and
    // no registers to save here (the rest is another function).
    let first = abnf_runtime::simd::find_byte(s.as_bytes(), 0xE2)?;
    find_from(s, first)
}

/// [`find_bidi_formatting`] from the first `E2` byte, at `first`.
#[inline(never)]
fn find_from(s: &str, first: usize) -> Option<(usize, char)> {
    let b = s.as_bytes();
    let mut i = first;
    loop {
        if let [0xE2, 0x80, x, ..] = b[i..] {
            if matches!(x, 0x8E | 0x8F | 0xAA..=0xAE) {
                let c = s[i..].chars().next()?;
                return Some((i, c));
            }
        }
        i += 1 + abnf_runtime::simd::find_byte(&b[i + 1..], 0xE2)?;
    }
}

/// The name and abbreviation of a bidi formatting character.
pub(crate) fn bidi_formatting_name(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{200E}' => "LEFT-TO-RIGHT MARK, LRM",
        '\u{200F}' => "RIGHT-TO-LEFT MARK, RLM",
        '\u{202A}' => "LEFT-TO-RIGHT EMBEDDING, LRE",
        '\u{202B}' => "RIGHT-TO-LEFT EMBEDDING, RLE",
        '\u{202C}' => "POP DIRECTIONAL FORMATTING, PDF",
        '\u{202D}' => "LEFT-TO-RIGHT OVERRIDE, LRO",
        '\u{202E}' => "RIGHT-TO-LEFT OVERRIDE, RLO",
        _ => return None,
    })
}

/// Which kind of component a [`BidiWarning`] is about (RFC 3987 §4.2 lists
/// iuserinfo, ireg-name, isegment, iquery and ifragment).
///
/// ```
/// use iri_grammar::ops::{bidi_lint, BidiComponent};
/// use iri_grammar::IriRef;
///
/// let kinds: Vec<_> = bidi_lint(IriRef::parse("?q=abגד#גדx")?).iter().map(|w| w.component).collect();
/// assert_eq!(kinds, [BidiComponent::Query, BidiComponent::Query, BidiComponent::Fragment, BidiComponent::Fragment]);
/// # Ok::<(), iri_grammar::ParseError>(())
/// ```
#[cfg(feature = "bidi")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BidiComponent {
    /// A `:`-separated part of the user information.
    Userinfo,
    /// A label of a registered name (the `.`-separated parts, as RFC 3490
    /// treats them and as §4.4's examples read them).
    HostLabel,
    /// A `.`-separated part of a path segment (a name or an extension;
    /// §4.2: "the extensions in a resource name can be treated as separate
    /// components").
    PathSegment,
    /// A name or a value of the query, split at `&`, `;` and `=` (§4.2:
    /// "for the usual name/value syntax in query parts, it is convenient to
    /// treat each name and each value as a component").
    Query,
    /// The fragment.
    Fragment,
}

/// Which of the two rules of RFC 3987 §4.2 a component breaks.
///
/// ```
/// use iri_grammar::ops::{bidi_lint, BidiRule};
/// use iri_grammar::IriRef;
///
/// // Only right-to-left letters and digits, but a digit at the end.
/// let w = bidi_lint(IriRef::parse("/גד1")?);
/// assert_eq!(w.iter().map(|w| w.rule).collect::<Vec<_>>(), [BidiRule::RtlEdges]);
/// # Ok::<(), iri_grammar::ParseError>(())
/// ```
#[cfg(feature = "bidi")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BidiRule {
    /// Rule 1: "A component SHOULD NOT use both right-to-left and
    /// left-to-right characters."
    Mixed,
    /// Rule 2: "A component using right-to-left characters SHOULD start and
    /// end with right-to-left characters."
    RtlEdges,
}

/// A component of an IRI that breaks one of the RFC 3987 §4.2 rules (they
/// are "SHOULD"s: such an IRI is still valid, but may display confusingly).
///
/// ```
/// use iri_grammar::ops::{bidi_lint, BidiComponent, BidiRule};
/// use iri_grammar::IriRef;
///
/// // §4.4 Example 8 (not allowed), Hebrew for the upper-case letters.
/// let iri = IriRef::parse("http://ab.cd.ef/גה1/2יט/כל.html")?;
/// let warnings = bidi_lint(iri);
/// assert_eq!(warnings.len(), 2);
/// assert_eq!(warnings[0].component, BidiComponent::PathSegment);
/// assert_eq!(warnings[0].rule, BidiRule::RtlEdges);
/// assert_eq!(warnings[0].text(iri.as_str()), "גה1");
/// # Ok::<(), iri_grammar::ParseError>(())
/// ```
#[cfg(feature = "bidi")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BidiWarning {
    /// The kind of component.
    pub component: BidiComponent,
    /// Where it is in the IRI, in bytes.
    pub span: Span,
    /// The rule it breaks.
    pub rule: BidiRule,
}

#[cfg(feature = "bidi")]
impl BidiWarning {
    /// The component's text, given the IRI the warning is about.
    ///
    /// ```
    /// use iri_grammar::{ops::bidi_lint, IriRef};
    ///
    /// let iri = IriRef::parse("/abcשלום")?;
    /// assert_eq!(bidi_lint(iri)[0].text(iri.as_str()), "abcשלום");
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    pub fn text<'a>(&self, iri: &'a str) -> &'a str {
        &iri[self.span.range()]
    }
}

/// Checks the components of `iri` against the two rules of RFC 3987 §4.2
/// and returns the warnings, in the order the components appear (a
/// component that breaks both rules gives two).
///
/// A character is right-to-left if its bidi class (from `unicode-bidi`) is
/// R or AL, left-to-right if it is L; digits (EN, AN), punctuation and
/// percent signs are neither, so §4.4's Example 7 (`CDE123FGH`) and
/// Example 10 (a component of digits) pass, and Example 8 (`GH1`, `2IJ`)
/// and Example 9 (`GH%31`: the component is checked as written, and it ends
/// with `1`) do not. Components are split further as [`BidiComponent`]
/// says, which is how §4.4 reads its legal examples (`ab.CDEFGH.ij` mixes
/// directions only if the whole host is one component).
///
/// ```
/// use iri_grammar::{ops::bidi_lint, IriRef};
///
/// // §4.4 Example 1 (legal): one right-to-left label.
/// assert!(bidi_lint(IriRef::parse("http://ab.גדהוזח.ij/kl/mn/op.html")?).is_empty());
/// // A label that mixes directions breaks rule 1.
/// assert_eq!(bidi_lint(IriRef::parse("http://abגד.ij/")?).len(), 2);
/// # Ok::<(), iri_grammar::ParseError>(())
/// ```
#[cfg(feature = "bidi")]
pub fn bidi_lint(iri: IriRef<'_>) -> Vec<BidiWarning> {
    let text = iri.as_str();
    let mut out = Vec::new();
    let mut check = |part: &str, seps: &[char], component: BidiComponent| {
        let base = super::offset_in(text, part);
        let mut start = 0;
        for piece in part.split(seps) {
            lint_one(piece, base + start, component, &mut out);
            start += piece.len() + 1;
        }
    };
    if let Some(u) = iri.userinfo() {
        check(u, &[':'], BidiComponent::Userinfo);
    }
    if let Some(crate::Host::RegName(h)) = iri.host() {
        check(h, &['.'], BidiComponent::HostLabel);
    }
    let path = iri.path();
    let segments = path.strip_prefix('/').unwrap_or(path);
    check(segments, &['/', '.'], BidiComponent::PathSegment);
    if let Some(q) = iri.query() {
        check(q, &['&', ';', '='], BidiComponent::Query);
    }
    if let Some(f) = iri.fragment() {
        check(f, &[], BidiComponent::Fragment);
    }
    out
}

#[cfg(feature = "bidi")]
fn lint_one(piece: &str, at: usize, component: BidiComponent, out: &mut Vec<BidiWarning>) {
    use unicode_bidi::{bidi_class, BidiClass};
    let rtl = |c: char| matches!(bidi_class(c), BidiClass::R | BidiClass::AL);
    if !piece.chars().any(rtl) {
        return;
    }
    let span = Span {
        start: at,
        end: at + piece.len(),
    };
    if piece.chars().any(|c| bidi_class(c) == BidiClass::L) {
        out.push(BidiWarning {
            component,
            span,
            rule: BidiRule::Mixed,
        });
    }
    let first = piece.chars().next().is_some_and(rtl);
    let last = piece.chars().next_back().is_some_and(rtl);
    if !(first && last) {
        out.push(BidiWarning {
            component,
            span,
            rule: BidiRule::RtlEdges,
        });
    }
}
