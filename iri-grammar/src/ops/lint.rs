//! A lint for IRIs: what the RFCs say an IRI MUST NOT or SHOULD NOT hold,
//! beyond its grammar.

use alloc::vec::Vec;
use core::fmt;

use super::{find_display_unsafe, is_bidi_formatting, is_display_unsafe};
use crate::{rfc3987, IriRef, ParseError, ParseErrorKind, Span};

/// What a [`Lint`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LintKind {
    /// A bidi formatting character (LRM, RLM, LRE, RLE, PDF, LRO, RLO):
    /// RFC 3987 §4.1, "IRIs MUST NOT contain bidirectional formatting
    /// characters". The text is then not an IRI (the strict types reject
    /// it); the lint still reports where.
    BidiFormatting(char),
    /// A component breaks one of RFC 3987 §4.2's rules (SHOULD NOT mix
    /// directions; SHOULD start and end with right-to-left characters
    /// when it uses them): see [`bidi_lint`](super::bidi_lint). Feature
    /// `bidi`.
    #[cfg(feature = "bidi")]
    Bidi(super::BidiComponent, super::BidiRule),
    /// A character written as itself that is easily mistaken for another
    /// or invisible (RFC 3987 §6.1, §8): see
    /// [`is_display_unsafe`](super::is_display_unsafe).
    LookAlike(char),
    /// Percent-encoded octets in a registered name that are not UTF-8:
    /// RFC 3986 §3.2.2, "URI producing applications must not use
    /// percent-encoding in host unless it is used to represent a UTF-8
    /// character sequence" (RFC 3987 §3.1 needs UTF-8 there too).
    HostNotUtf8,
    /// A component is not in Unicode Normalization Form C: RFC 3987
    /// §5.3.2.2, "IRIs SHOULD be created by using NFC". Feature `nfc`.
    #[cfg(feature = "nfc")]
    NotNfc,
}

impl LintKind {
    /// A short name for tools: `bidi-formatting`, `bidi-mixed`,
    /// `bidi-edges`, `look-alike`, `host-not-utf8` or `not-nfc`.
    ///
    /// ```
    /// use iri_grammar::ops::LintKind;
    ///
    /// assert_eq!(LintKind::LookAlike('\u{2215}').name(), "look-alike");
    /// ```
    pub fn name(&self) -> &'static str {
        match self {
            LintKind::BidiFormatting(_) => "bidi-formatting",
            #[cfg(feature = "bidi")]
            LintKind::Bidi(_, super::BidiRule::Mixed) => "bidi-mixed",
            #[cfg(feature = "bidi")]
            LintKind::Bidi(_, super::BidiRule::RtlEdges) => "bidi-edges",
            LintKind::LookAlike(_) => "look-alike",
            LintKind::HostNotUtf8 => "host-not-utf8",
            #[cfg(feature = "nfc")]
            LintKind::NotNfc => "not-nfc",
        }
    }

    /// Whether an RFC says MUST (NOT) here (only
    /// [`LintKind::BidiFormatting`] and [`LintKind::HostNotUtf8`]); the
    /// others are SHOULDs and advice.
    ///
    /// ```
    /// use iri_grammar::ops::LintKind;
    ///
    /// assert!(LintKind::BidiFormatting('\u{202E}').is_error());
    /// assert!(!LintKind::LookAlike('\u{3000}').is_error());
    /// ```
    pub fn is_error(&self) -> bool {
        matches!(self, LintKind::BidiFormatting(_) | LintKind::HostNotUtf8)
    }
}

/// One finding of [`lint`]: what, and where in the text (byte offsets).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lint {
    /// What the finding is.
    pub kind: LintKind,
    /// Where it is.
    pub span: Span,
}

impl Lint {
    /// The text the finding is about, given the linted text.
    ///
    /// ```
    /// use iri_grammar::ops::lint;
    ///
    /// let text = "http://example.org/a\u{FF0F}b";
    /// assert_eq!(lint(text)?[0].text(text), "\u{FF0F}");
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    pub fn text<'a>(&self, linted: &'a str) -> &'a str {
        &linted[self.span.range()]
    }
}

impl fmt::Display for Lint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = self.span.start;
        match self.kind {
            LintKind::BidiFormatting(c) => write!(
                f,
                "bidi formatting character U+{:04X} ({}) at byte {at}: RFC 3987 §4.1 says IRIs MUST NOT \
                 contain it",
                u32::from(c),
                super::bidi_formatting_name(c).unwrap_or("?")
            ),
            #[cfg(feature = "bidi")]
            LintKind::Bidi(component, rule) => {
                let what = match component {
                    super::BidiComponent::Userinfo => "user information part",
                    super::BidiComponent::HostLabel => "host label",
                    super::BidiComponent::PathSegment => "path segment part",
                    super::BidiComponent::Query => "query name or value",
                    super::BidiComponent::Fragment => "fragment",
                };
                match rule {
                    super::BidiRule::Mixed => write!(
                        f,
                        "{what} at bytes {}..{} mixes right-to-left and left-to-right characters \
                         (RFC 3987 §4.2: SHOULD NOT)",
                        self.span.start, self.span.end
                    ),
                    super::BidiRule::RtlEdges => write!(
                        f,
                        "{what} at bytes {}..{} uses right-to-left characters but does not start and \
                         end with one (RFC 3987 §4.2: SHOULD)",
                        self.span.start, self.span.end
                    ),
                }
            }
            LintKind::LookAlike(c) => write!(
                f,
                "U+{:04X} at byte {at} is invisible or easily mistaken for another character \
                 (RFC 3987 §6.1, §8); percent-encode it",
                u32::from(c)
            ),
            LintKind::HostNotUtf8 => write!(
                f,
                "percent-encoded octets at byte {at} in the host are not UTF-8 (RFC 3986 §3.2.2: must not)"
            ),
            #[cfg(feature = "nfc")]
            LintKind::NotNfc => write!(
                f,
                "bytes {}..{} are not in Unicode Normalization Form C (RFC 3987 §5.3.2.2: IRIs SHOULD \
                 be created by using NFC)",
                self.span.start, self.span.end
            ),
        }
    }
}

/// Lints `text` as an IRI reference: the findings, in the order of their
/// offsets, or the syntax error if `text` is not an IRI reference even
/// when bidi formatting characters are allowed.
///
/// Checked: the bidi formatting characters of §4.1 (each one is a
/// finding; the text is then not a valid IRI, and for the checks by
/// component each counts as a neutral character), the §4.2 component rules
/// (feature `bidi`), look-alike and invisible characters written as
/// themselves (§6.1, §8), percent-encoded host octets that are not UTF-8
/// (RFC 3986 §3.2.2), and components that are not in NFC (§5.3.2.2,
/// feature `nfc`).
///
/// ```
/// use iri_grammar::ops::{lint, LintKind};
///
/// assert!(lint("http://example.org/résumé")?.is_empty());
/// let found = lint("http://exa\u{200E}mple.org/a\u{2215}b")?;
/// let kinds: Vec<_> = found.iter().map(|l| l.kind).collect();
/// assert_eq!(kinds, [LintKind::BidiFormatting('\u{200E}'), LintKind::LookAlike('\u{2215}')]);
/// assert_eq!(found[0].span.start, 10);
/// assert!(lint("a b").is_err());
/// # Ok::<(), iri_grammar::ParseError>(())
/// ```
///
/// # Errors
///
/// If `text` does not match `IRI-reference` (RFC 3987 §2.2).
pub fn lint(text: &str) -> Result<Vec<Lint>, ParseError> {
    let mut out = Vec::new();
    let one = |at: usize, c: char| Span {
        start: at,
        end: at + c.len_utf8(),
    };
    let parsed = match IriRef::parse(text) {
        Ok(r) => Some(r),
        Err(e) if e.kind() == ParseErrorKind::BidiFormatting && rfc3987::IRI_REFERENCE.is_match(text) => None,
        Err(e) => return Err(e),
    };
    // With bidi formatting characters, the checks by component run on a
    // copy where each is U+2010 HYPHEN: also three bytes in UTF-8 (so every
    // offset stays), a `ucschar` (so the copy parses wherever the original
    // matched the grammar), of a neutral bidi class, and NFC-inert.
    let masked;
    let parsed = match parsed {
        Some(r) => Some(r),
        None => {
            for (at, c) in text.char_indices().filter(|&(_, c)| is_bidi_formatting(c)) {
                out.push(Lint {
                    kind: LintKind::BidiFormatting(c),
                    span: one(at, c),
                });
            }
            masked = text.replace(is_bidi_formatting, "\u{2010}");
            IriRef::parse(&masked).ok()
        }
    };
    if find_display_unsafe(text).is_some() {
        for (at, c) in text
            .char_indices()
            .filter(|&(_, c)| is_display_unsafe(c) && !is_bidi_formatting(c))
        {
            out.push(Lint {
                kind: LintKind::LookAlike(c),
                span: one(at, c),
            });
        }
    }
    if let Some(r) = parsed {
        if let Some(crate::Host::RegName(h)) = r.host() {
            if let Some(i) = super::builder::non_utf8_triplet(h) {
                let start = super::offset_in(r.as_str(), h) + i;
                out.push(Lint {
                    kind: LintKind::HostNotUtf8,
                    span: Span {
                        start,
                        end: start + 3,
                    },
                });
            }
        }
        #[cfg(feature = "bidi")]
        for w in super::bidi_lint(r) {
            out.push(Lint {
                kind: LintKind::Bidi(w.component, w.rule),
                span: w.span,
            });
        }
        #[cfg(feature = "nfc")]
        not_nfc(r, &mut out);
    }
    out.sort_by_key(|l| (l.span.start, l.span.end));
    Ok(out)
}

/// A finding for each component (userinfo, host, path, query, fragment)
/// that is not in NFC.
#[cfg(feature = "nfc")]
fn not_nfc(r: IriRef<'_>, out: &mut Vec<Lint>) {
    use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};
    let text = r.as_str();
    let parts = [
        r.userinfo(),
        r.host_str(),
        Some(r.path()),
        r.query(),
        r.fragment(),
    ];
    for part in parts.into_iter().flatten() {
        if part.is_ascii() {
            continue;
        }
        let is_nfc = match is_nfc_quick(part.chars()) {
            IsNormalized::Yes => true,
            IsNormalized::No => false,
            IsNormalized::Maybe => part.chars().eq(part.nfc()),
        };
        if !is_nfc {
            let start = super::offset_in(text, part);
            out.push(Lint {
                kind: LintKind::NotNfc,
                span: Span {
                    start,
                    end: start + part.len(),
                },
            });
        }
    }
}
