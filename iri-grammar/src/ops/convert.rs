//! The mappings between IRIs and URIs: RFC 3987 §3.1 (IRI → URI) and §3.2
//! (URI → IRI).

use alloc::borrow::Cow;
use alloc::string::String;

use super::pct::{push_pct, recode, triplet_at, KeptAscii};
use super::{char_matches, is_bidi_formatting, offset_in};
use crate::{rfc3986, rfc3987, Iri, IriBuf, IriRef, IriRefBuf, Uri, UriBuf, UriRef, UriRefBuf};

/// Whether §3.1 step 2 encodes `c`: it is a `ucschar` or an `iprivate`,
/// as the generated recognizers say.
fn encoded_in_uri(c: char) -> bool {
    !c.is_ascii() && (char_matches(&rfc3987::UCSCHAR, c) || char_matches(&rfc3987::IPRIVATE, c))
}

/// Text that [`iri_to_uri_str`] cannot map to a URI: a character that is
/// neither allowed in URIs nor converted by RFC 3987 §3.1 step 2 ("If
/// these characters are found but are not converted, then the conversion
/// SHOULD fail"), or a `%` that does not start a `%HH` triplet.
///
/// ```
/// use iri_grammar::ops::iri_to_uri_str;
///
/// let e = iri_to_uri_str("http://example.org/a b").unwrap_err();
/// assert_eq!((e.offset(), e.found()), (20, ' '));
/// assert!(e.to_string().contains("U+0020"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ToUriError {
    offset: usize,
    found: char,
}

impl ToUriError {
    /// The byte offset of the character in the text.
    ///
    /// ```
    /// let e = iri_grammar::ops::iri_to_uri_str("/é<").unwrap_err();
    /// assert_eq!((e.offset(), e.found()), (3, '<'));
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The character (`%` for a `%` that starts no triplet).
    pub fn found(&self) -> char {
        self.found
    }
}

impl core::fmt::Display for ToUriError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.found == '%' {
            return write!(
                f,
                "'%' at byte {} does not start a percent-encoding (%HH); write it as %25",
                self.offset
            );
        }
        write!(
            f,
            "U+{:04X} ({:?}) at byte {} is not allowed in a URI and RFC 3987 §3.1 does not convert it \
             (the conversion fails, as §3.1 says it SHOULD)",
            u32::from(self.found),
            self.found,
            self.offset
        )
    }
}

impl core::error::Error for ToUriError {}

/// Whether `c` may appear in a URI as itself (RFC 3986 §2: `unreserved`,
/// `reserved` or the `%` of a percent-encoding).
fn uri_char(c: char) -> bool {
    c.is_ascii() && (c == '%' || char_matches(&rfc3986::UNRESERVED, c) || char_matches(&rfc3986::RESERVED, c))
}

/// RFC 3987 §3.1 step 2 on any text (an IRI, a reference or a component,
/// as §3.1 allows): every `ucschar` and `iprivate` character becomes its
/// UTF-8 octets as `%HH` triplets with uppercase hex; the characters URIs
/// allow, existing percent-encodings included, are left as they are. An
/// identity on URIs, and idempotent.
///
/// Anything else fails, as §3.1 says the conversion SHOULD: the ASCII
/// characters URIs do not allow (space, `<`, `>`, `"`, `{`, `}`, `|`, `\`,
/// `^`, `` ` ``, controls: §3.1 lets a system convert the printable ones,
/// and this one chooses not to, so that text that is not an IRI is not
/// silently made into a URI; [`percent_encode`](super::percent_encode)
/// encodes any text on purpose), non-ASCII characters that are neither
/// `ucschar` nor `iprivate` (noncharacters such as U+FFFE, specials such
/// as U+FFF9), and a `%` that does not start a `%HH` triplet.
///
/// Step 1 (NFC for IRIs that come from paper or a non-Unicode encoding)
/// is the caller's: text that is already Unicode is not normalized (§3.1
/// 1c). The bidi formatting characters of §4.1 are `ucschar`s and are
/// encoded (an IRI cannot hold them; a URI may, encoded).
///
/// ```
/// use iri_grammar::ops::iri_to_uri_str;
///
/// // The examples of §3.1.
/// assert_eq!(iri_to_uri_str("http://www.example.org/red%09rosé#red")?, "http://www.example.org/red%09ros%C3%A9#red");
/// assert_eq!(iri_to_uri_str("http://example.com/\u{10300}\u{10301}\u{10302}")?,
///            "http://example.com/%F0%90%8C%80%F0%90%8C%81%F0%90%8C%82");
/// assert!(matches!(iri_to_uri_str("http://a/b")?, std::borrow::Cow::Borrowed(_)));
/// // Characters that are not converted make it fail.
/// assert_eq!(iri_to_uri_str("/a b").unwrap_err().offset(), 2);
/// assert_eq!(iri_to_uri_str("/a<b>").unwrap_err().found(), '<');
/// assert_eq!(iri_to_uri_str("/\u{FFFE}").unwrap_err().offset(), 1);
/// assert_eq!(iri_to_uri_str("/100%").unwrap_err().found(), '%');
/// # Ok::<(), iri_grammar::ops::ToUriError>(())
/// ```
///
/// # Errors
///
/// At the first character that is neither allowed in URIs nor converted.
pub fn iri_to_uri_str(text: &str) -> Result<Cow<'_, str>, ToUriError> {
    let b = text.as_bytes();
    let mut out: Option<String> = None;
    for (i, c) in text.char_indices() {
        let fail = || ToUriError { offset: i, found: c };
        if c == '%' && triplet_at(b, i).is_none() {
            return Err(fail());
        }
        if uri_char(c) {
            if let Some(o) = &mut out {
                o.push(c);
            }
        } else if encoded_in_uri(c) {
            let o = out.get_or_insert_with(|| {
                let mut o = String::with_capacity(text.len() * 2);
                o.push_str(&text[..i]);
                o
            });
            for &byte in c.encode_utf8(&mut [0; 4]).as_bytes() {
                push_pct(o, byte);
            }
        } else {
            return Err(fail());
        }
    }
    Ok(out.map_or(Cow::Borrowed(text), Cow::Owned))
}

/// §3.1 step 2 on text that is known to be an IRI (reference): it cannot
/// fail there, since `ucschar` and `iprivate` are all that the IRI grammar
/// adds to the URI grammar.
pub(crate) fn encode_iri_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 2);
    for c in text.chars() {
        if !c.is_ascii() && encoded_in_uri(c) {
            for &b in c.encode_utf8(&mut [0; 4]).as_bytes() {
                push_pct(&mut out, b);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Maps an IRI reference to a URI reference (RFC 3987 §3.1): see
/// [`iri_to_uri_str`]. It cannot fail: the result is always a valid URI
/// reference, since `ucschar` and `iprivate` are all that the IRI grammar
/// adds to the URI grammar.
///
/// ```
/// use iri_grammar::{ops::iri_to_uri, IriRef};
///
/// let uri = iri_to_uri(IriRef::parse("?katakana-letter-i=イ")?);
/// assert_eq!(uri.as_str(), "?katakana-letter-i=%E3%82%A4");
/// # Ok::<(), iri_grammar::ParseError>(())
/// ```
pub fn iri_to_uri(iri: IriRef<'_>) -> UriRefBuf {
    super::uri_ref_buf("iri_to_uri", encode_iri_text(iri.as_str()))
}

/// The schemes that `iri_to_uri_idna` (feature `idna`) treats as using domain names in
/// `ireg-name` without allowing percent-encoding there (RFC 3987 §3.1):
/// `http`, `https`, `ws`, `wss` and `ftp` (case-insensitive).
///
/// ```
/// use iri_grammar::ops::uses_domain_names;
///
/// assert!(uses_domain_names("HTTPS"));
/// assert!(!uses_domain_names("urn"));
/// assert!(!uses_domain_names("http+unix"));
/// ```
pub fn uses_domain_names(scheme: &str) -> bool {
    const SCHEMES: [&str; 5] = ["http", "https", "ws", "wss", "ftp"];
    SCHEMES.iter().any(|s| s.eq_ignore_ascii_case(scheme))
}

/// A host that IDNA ToASCII rejects (RFC 3987 §3.1: "The ToASCII operation
/// may fail, but this would mean that the IRI cannot be resolved").
///
/// ```
/// use iri_grammar::{ops::iri_to_uri_idna, IriRef};
///
/// let e = iri_to_uri_idna(IriRef::parse("http://ex_ample.ß/")?).unwrap_err();
/// assert_eq!(e.host(), "ex_ample.ß");
/// # Ok::<(), iri_grammar::ParseError>(())
/// ```
#[cfg(feature = "idna")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdnaError {
    host: String,
}

#[cfg(feature = "idna")]
impl IdnaError {
    /// The host as it was in the IRI.
    ///
    /// ```
    /// use iri_grammar::{ops::iri_to_uri_idna, IriRef};
    ///
    /// let e = iri_to_uri_idna(IriRef::parse("https://-ü.de/")?).unwrap_err();
    /// assert_eq!(e.host(), "-ü.de");
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    pub fn host(&self) -> &str {
        &self.host
    }
}

#[cfg(feature = "idna")]
impl core::fmt::Display for IdnaError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "IDNA ToASCII fails on host {:?}, so the IRI cannot be resolved (RFC 3987 §3.1)",
            self.host
        )
    }
}

#[cfg(feature = "idna")]
impl core::error::Error for IdnaError {}

/// Maps an IRI reference to a URI reference, converting a registered name
/// with IDNA ToASCII first for schemes that [`uses_domain_names`] (the
/// optional step of RFC 3987 §3.1), then as [`iri_to_uri`].
///
/// The host is converted only if it holds non-ASCII characters (as
/// written or percent-encoded as UTF-8, which are decoded first: such
/// schemes do not allow percent-encoding there); an ASCII host is left as
/// written. ToASCII is the `idna` crate's UTS #46 processing
/// (non-transitional, STD3 rules as §3.1's UseSTD3ASCIIRules asks, leading
/// and trailing hyphens rejected, DNS lengths checked), which is how
/// RFC 3490's ToASCII is done today: it maps `ß` to itself (`xn--zca`)
/// where RFC 3490 mapped it to `ss`. Relative references have no scheme,
/// so they are never converted.
///
/// ```
/// use iri_grammar::{ops::iri_to_uri_idna, IriRef};
///
/// let uri = iri_to_uri_idna(IriRef::parse("http://résumé.example.org/ré")?).unwrap();
/// // §3.1's example.
/// assert_eq!(uri.as_str(), "http://xn--rsum-bpad.example.org/r%C3%A9");
/// let uri = iri_to_uri_idna(IriRef::parse("urn://résumé")?).unwrap();
/// assert_eq!(uri.as_str(), "urn://r%C3%A9sum%C3%A9");
/// # Ok::<(), iri_grammar::ParseError>(())
/// ```
///
/// # Errors
///
/// If ToASCII fails on the host, or its percent-encodings are not UTF-8.
#[cfg(feature = "idna")]
pub fn iri_to_uri_idna(iri: IriRef<'_>) -> Result<UriRefBuf, IdnaError> {
    use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};
    let text = iri.as_str();
    let (Some(scheme), Some(crate::Host::RegName(host))) = (iri.scheme(), iri.host()) else {
        return Ok(iri_to_uri(iri));
    };
    let decoded = super::percent_decode(host);
    if !uses_domain_names(scheme) || decoded.is_ascii() {
        return Ok(iri_to_uri(iri));
    }
    let error = || IdnaError {
        host: String::from(host),
    };
    let name = core::str::from_utf8(&decoded).map_err(|_| error())?;
    let ascii = Uts46::new()
        .to_ascii(
            name.as_bytes(),
            AsciiDenyList::STD3,
            Hyphens::CheckFirstLast,
            DnsLength::VerifyAllowRootDot,
        )
        .map_err(|_| error())?;
    let start = offset_in(text, host);
    let mut out = String::with_capacity(text.len() + ascii.len());
    out.push_str(&encode_iri_text(&text[..start]));
    out.push_str(&ascii);
    out.push_str(&encode_iri_text(&text[start + host.len()..]));
    Ok(super::uri_ref_buf("iri_to_uri_idna", out))
}

impl IriRef<'_> {
    /// Maps this IRI reference to a URI reference (RFC 3987 §3.1):
    /// [`iri_to_uri`].
    ///
    /// ```
    /// let r = iri_grammar::IriRef::parse("/résumé?λ")?;
    /// assert_eq!(r.to_uri().as_str(), "/r%C3%A9sum%C3%A9?%CE%BB");
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    pub fn to_uri(&self) -> UriRefBuf {
        iri_to_uri(*self)
    }
}

impl Iri<'_> {
    /// Maps this IRI to a URI (RFC 3987 §3.1).
    ///
    /// ```
    /// let iri = iri_grammar::Iri::parse("http://résumé.example.org")?;
    /// assert_eq!(iri.to_uri().as_str(), "http://r%C3%A9sum%C3%A9.example.org");
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    pub fn to_uri(&self) -> UriBuf {
        super::uri_buf("Iri::to_uri", encode_iri_text(self.as_str()))
    }
}

/// Whether URI → IRI conversion writes `c` as itself (RFC 3987 §3.2 steps
/// 2 and 4): an ASCII character if it is `unreserved` (step 2 leaves `%`,
/// `reserved` and the characters not allowed in URIs encoded, and those are
/// all the other ASCII characters); otherwise a `ucschar` (§2.2), or an
/// `iprivate` in the query (§2.2 allows them nowhere else), and not one of
/// the bidi formatting characters §4.1 forbids. §6.1's further advice
/// (avoid look-alikes) is a policy this conversion does not apply.
fn decodable(c: char, in_query: bool) -> bool {
    if c.is_ascii() {
        return char_matches(&rfc3986::UNRESERVED, c);
    }
    !is_bidi_formatting(c)
        && (char_matches(&rfc3987::UCSCHAR, c) || (in_query && char_matches(&rfc3987::IPRIVATE, c)))
}

/// Converts a URI reference to an IRI reference (RFC 3987 §3.2): decodes
/// the percent-encoded octets that are UTF-8 for characters an IRI can hold
/// as themselves, and keeps the rest encoded.
///
/// Percent-encodings of `%`, of `reserved` characters and of ASCII
/// characters not allowed in URIs are not touched (step 2); octets that are
/// not part of a strictly valid UTF-8 sequence stay encoded (step 3), as do
/// characters not appropriate in an IRI (step 4, see [`is_bidi_formatting`]
/// and §2.2: private-use characters are decoded only in the query). Octets
/// that were decoded and are encoded again come out with uppercase hex
/// digits (§3.2.1's third example); the others keep their case. The result
/// maps back to the input with [`iri_to_uri`], up to the case of those hex
/// digits and the percent-encoded unreserved characters that were decoded.
///
/// ```
/// use iri_grammar::{ops::uri_to_iri, UriRef};
///
/// let iri = |u| uri_to_iri(UriRef::parse(u).unwrap()).into_string();
/// // The three examples of §3.2.1.
/// assert_eq!(iri("http://www.example.org/D%C3%BCrst"), "http://www.example.org/Dürst");
/// assert_eq!(iri("http://www.example.org/D%FCrst"), "http://www.example.org/D%FCrst");
/// assert_eq!(iri("http://xn--99zt52a.example.org/%e2%80%ae"), "http://xn--99zt52a.example.org/%E2%80%AE");
/// // Reserved characters and `%` stay encoded, as written.
/// assert_eq!(iri("/a%2fb%25%41"), "/a%2fb%25A");
/// ```
pub fn uri_to_iri(uri: UriRef<'_>) -> IriRefBuf {
    super::iri_ref_buf("uri_to_iri", decode_to_iri(uri.as_str(), uri.query()))
}

/// §3.2 over the whole text, with the query (a slice of it, if any) told
/// apart.
fn decode_to_iri(text: &str, query: Option<&str>) -> String {
    let mut out = String::with_capacity(text.len());
    let outside = |c| decodable(c, false);
    let inside = |c| decodable(c, true);
    match query {
        Some(q) => {
            let start = offset_in(text, q);
            let end = start + q.len();
            recode(&text[..start], &mut out, KeptAscii::AsWritten, &outside);
            recode(q, &mut out, KeptAscii::AsWritten, &inside);
            recode(&text[end..], &mut out, KeptAscii::AsWritten, &outside);
        }
        None => recode(text, &mut out, KeptAscii::AsWritten, &outside),
    }
    out
}

impl UriRef<'_> {
    /// Converts this URI reference to an IRI reference (RFC 3987 §3.2):
    /// [`uri_to_iri`].
    ///
    /// ```
    /// let u = iri_grammar::UriRef::parse("?q=%E2%82%AC&p=%EE%80%80#%EE%80%80")?;
    /// // U+E000 is private use: decoded in the query only.
    /// assert_eq!(u.to_iri().as_str(), "?q=€&p=\u{E000}#%EE%80%80");
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    pub fn to_iri(&self) -> IriRefBuf {
        uri_to_iri(*self)
    }
}

impl Uri<'_> {
    /// Converts this URI to an IRI (RFC 3987 §3.2).
    ///
    /// ```
    /// let u = iri_grammar::Uri::parse("http://example.org/r%C3%A9sum%C3%A9.html")?;
    /// assert_eq!(u.to_iri().as_str(), "http://example.org/résumé.html");
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    pub fn to_iri(&self) -> IriBuf {
        super::iri_buf("Uri::to_iri", decode_to_iri(self.as_str(), self.query()))
    }
}

/// Whether `c` is a character that a display-safe conversion keeps
/// percent-encoded (RFC 3987 §6.1: "avoid ... characters that are easily
/// confused"; §8: spoofing with look-alikes and with bidi controls).
/// Besides the bidi formatting characters that §4.1 forbids (see
/// [`is_bidi_formatting`]), these are:
///
/// - bidi controls that postdate RFC 3987: the isolates LRI, RLI, FSI,
///   PDI (U+2066–U+2069), ARABIC LETTER MARK (U+061C) and the deprecated
///   format characters U+206A–U+206F;
/// - invisible characters: SOFT HYPHEN U+00AD, COMBINING GRAPHEME JOINER
///   U+034F, the Hangul fillers U+115F, U+1160, U+3164, U+FFA0, U+17B4,
///   U+17B5, the Mongolian variation selectors and vowel separator
///   U+180B–U+180F, ZERO WIDTH SPACE, NON-JOINER and JOINER U+200B–U+200D
///   (the joiners have legitimate uses in some scripts and emoji; safety
///   wins here), WORD JOINER and the invisible operators U+2060–U+2064,
///   the variation selectors U+FE00–U+FE0F and U+E0100–U+E01EF, ZERO WIDTH
///   NO-BREAK SPACE (BOM) U+FEFF, the shorthand format controls
///   U+1BCA0–U+1BCA3, the musical format controls U+1D173–U+1D17A, and the
///   tags U+E0000–U+E007F;
/// - spaces other than the ASCII space: NO-BREAK SPACE U+00A0, OGHAM SPACE
///   MARK U+1680, U+2000–U+200A, LINE and PARAGRAPH SEPARATOR U+2028,
///   U+2029, NARROW NO-BREAK SPACE U+202F, MEDIUM MATHEMATICAL SPACE
///   U+205F, IDEOGRAPHIC SPACE U+3000;
/// - look-alikes of the delimiters `/`, `\`, `.`, `:`, `?`, `#`, `@`, `%`:
///   FRACTION SLASH U+2044, DIVISION SLASH U+2215, SET MINUS U+2216,
///   RATIO U+2236, U+2571, U+2572, U+29F5, U+29F8, U+29F9, ONE DOT LEADER
///   U+2024, IDEOGRAPHIC FULL STOP U+3002 (IDNA maps it to `.`),
///   HALFWIDTH IDEOGRAPHIC FULL STOP U+FF61, U+A789 MODIFIER LETTER COLON,
///   U+0589 ARMENIAN FULL STOP, U+05C3 HEBREW PUNCTUATION SOF PASUQ, U+0703,
///   U+0704 (Syriac colons), and the small forms U+FE13, U+FE52, U+FE55,
///   U+FE56, U+FE5F, U+FE68, U+FE6A, U+FE6B;
/// - the full-width forms of ASCII U+FF01–U+FF5E (`／`, `：`, `Ａ`, ...)
///   and the mathematical alphanumeric symbols U+1D400–U+1D7FF (`𝐚`,
///   `𝟏`, ...), which read as ASCII letters, digits and delimiters.
///
/// The list is this crate's choice (RFC 3987 gives no list); it errs on the
/// side of keeping characters encoded, which never changes what an IRI
/// identifies.
///
/// ```
/// use iri_grammar::ops::is_display_unsafe;
///
/// for c in ['\u{2215}', '\u{FF0F}', '\u{3000}', '\u{A0}', '\u{200B}', '\u{FEFF}', 'Ａ', '\u{2066}', '\u{61C}', '\u{202E}'] {
///     assert!(is_display_unsafe(c), "{c:?}");
/// }
/// for c in ['a', '/', 'é', 'ß', 'א', '例', '\u{1F600}'] {
///     assert!(!is_display_unsafe(c), "{c:?}");
/// }
/// ```
pub fn is_display_unsafe(c: char) -> bool {
    is_bidi_formatting(c)
        || matches!(c,
            '\u{061C}' | '\u{2066}'..='\u{2069}' | '\u{206A}'..='\u{206F}'
            // Invisible.
            | '\u{00AD}' | '\u{034F}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
            | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200D}' | '\u{2060}'..='\u{2064}'
            | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}'
            | '\u{1BCA0}'..='\u{1BCA3}' | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E007F}' | '\u{E0100}'..='\u{E01EF}'
            // Spaces.
            | '\u{00A0}' | '\u{1680}' | '\u{2000}'..='\u{200A}' | '\u{2028}' | '\u{2029}'
            | '\u{202F}' | '\u{205F}' | '\u{3000}'
            // Delimiter look-alikes.
            | '\u{2044}' | '\u{2215}' | '\u{2216}' | '\u{2236}' | '\u{2571}' | '\u{2572}'
            | '\u{29F5}' | '\u{29F8}' | '\u{29F9}' | '\u{2024}' | '\u{3002}' | '\u{FF61}'
            | '\u{A789}' | '\u{0589}' | '\u{05C3}' | '\u{0703}' | '\u{0704}'
            | '\u{FE13}' | '\u{FE52}' | '\u{FE55}' | '\u{FE56}' | '\u{FE5F}' | '\u{FE68}'
            | '\u{FE6A}' | '\u{FE6B}'
            // Full-width ASCII, mathematical alphanumerics.
            | '\u{FF01}'..='\u{FF5E}' | '\u{1D400}'..='\u{1D7FF}'
        )
}

/// The first character of `s` that [`is_display_unsafe`], with its byte
/// offset.
///
/// ```
/// use iri_grammar::ops::find_display_unsafe;
///
/// assert_eq!(find_display_unsafe("http://a.example/b\u{2215}c"), Some((18, '\u{2215}')));
/// assert_eq!(find_display_unsafe("http://例え.jp/"), None);
/// ```
pub fn find_display_unsafe(s: &str) -> Option<(usize, char)> {
    if s.is_ascii() {
        return None;
    }
    s.char_indices().find(|&(_, c)| is_display_unsafe(c))
}

/// Converts a URI reference to an IRI reference for display: RFC 3987
/// §3.2 as [`uri_to_iri`] does it, except that the characters that
/// [`is_display_unsafe`] (look-alikes, invisible characters, spaces, bidi
/// controls) stay percent-encoded, as §6.1 and §8 advise for presentation.
///
/// Which to use: [`uri_to_iri`] is the literal §3.2 conversion (it decodes
/// every character an IRI may hold, for processing and round trips);
/// this one is for showing an IRI to a person, where `%E2%88%95` decoded
/// as `∕` would read as `/`. Both results identify the same resource, and
/// both map back to the input with [`iri_to_uri`].
///
/// ```
/// use iri_grammar::{ops::{uri_to_display_iri, uri_to_iri}, UriRef};
///
/// let u = UriRef::parse("http://example.org/a%E2%88%95b/%C3%A9t%C3%A9%E3%80%80x")?;
/// assert_eq!(uri_to_iri(u).as_str(), "http://example.org/a\u{2215}b/été\u{3000}x");
/// assert_eq!(uri_to_display_iri(u).as_str(), "http://example.org/a%E2%88%95b/été%E3%80%80x");
/// # Ok::<(), iri_grammar::ParseError>(())
/// ```
pub fn uri_to_display_iri(uri: UriRef<'_>) -> IriRefBuf {
    super::iri_ref_buf(
        "uri_to_display_iri",
        decode_for_display(uri.as_str(), uri.query()),
    )
}

fn decode_for_display(text: &str, query: Option<&str>) -> String {
    let mut out = String::with_capacity(text.len());
    let outside = |c| decodable(c, false) && !is_display_unsafe(c);
    let inside = |c| decodable(c, true) && !is_display_unsafe(c);
    match query {
        Some(q) => {
            let start = offset_in(text, q);
            let end = start + q.len();
            recode(&text[..start], &mut out, KeptAscii::AsWritten, &outside);
            recode(q, &mut out, KeptAscii::AsWritten, &inside);
            recode(&text[end..], &mut out, KeptAscii::AsWritten, &outside);
        }
        None => recode(text, &mut out, KeptAscii::AsWritten, &outside),
    }
    out
}

impl UriRef<'_> {
    /// Converts this URI reference to an IRI reference for display:
    /// [`uri_to_display_iri`] (look-alikes and invisible characters stay
    /// encoded). [`UriRef::to_iri`] is the literal RFC 3987 §3.2
    /// conversion.
    ///
    /// ```
    /// let u = iri_grammar::UriRef::parse("/%EF%BC%8Fetc%EF%BC%8Fpasswd/%C3%A9")?;
    /// assert_eq!(u.to_display_iri().as_str(), "/%EF%BC%8Fetc%EF%BC%8Fpasswd/é");
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    pub fn to_display_iri(&self) -> IriRefBuf {
        uri_to_display_iri(*self)
    }
}

impl Uri<'_> {
    /// Converts this URI to an IRI for display: see [`uri_to_display_iri`].
    ///
    /// ```
    /// let u = iri_grammar::Uri::parse("http://example.org/%E2%81%A7x%E2%81%A9")?;
    /// assert_eq!(u.to_display_iri().as_str(), "http://example.org/%E2%81%A7x%E2%81%A9");
    /// assert_eq!(u.to_iri().as_str(), "http://example.org/\u{2067}x\u{2069}");
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    pub fn to_display_iri(&self) -> IriBuf {
        super::iri_buf(
            "Uri::to_display_iri",
            decode_for_display(self.as_str(), self.query()),
        )
    }
}

/// Shows the IDNA labels (`xn--...`, RFC 3490 ACE labels) of an IRI's
/// registered name as Unicode, as RFC 3987 §3.2.1 allows ("MAY ... convert
/// ... to the corresponding Unicode labels"), for the schemes that
/// [`uses_domain_names`]; everything else is kept as it is.
///
/// Each `xn--` label is converted with UTS #46 ToUnicode (STD3 rules,
/// hyphens checked) on its own; a label is kept in its ACE form if that
/// fails, if the result is not a valid `ireg-name` label, or if the result
/// holds a character that [`is_display_unsafe`] (a label that decodes to
/// `／` or to invisible characters is shown as the ACE form, as browsers
/// do with suspicious labels).
///
/// ```
/// use iri_grammar::{ops::idna_labels_to_unicode, IriRef};
///
/// let r = IriRef::parse("http://xn--99zt52a.example.org/%E2%80%AE")?;
/// assert_eq!(idna_labels_to_unicode(r).as_str(), "http://納豆.example.org/%E2%80%AE");
/// // Not for schemes that do not use DNS names.
/// let r = IriRef::parse("urn://xn--99zt52a/")?;
/// assert_eq!(idna_labels_to_unicode(r).as_str(), "urn://xn--99zt52a/");
/// # Ok::<(), iri_grammar::ParseError>(())
/// ```
#[cfg(feature = "idna")]
pub fn idna_labels_to_unicode(iri: IriRef<'_>) -> IriRefBuf {
    use idna::uts46::{AsciiDenyList, Hyphens, Uts46};
    let text = iri.as_str();
    let (Some(scheme), Some(crate::Host::RegName(host))) = (iri.scheme(), iri.host()) else {
        return iri.to_owned();
    };
    if !uses_domain_names(scheme) || !host.is_ascii() {
        return iri.to_owned();
    }
    let mut new_host = String::with_capacity(host.len() * 2);
    let mut changed = false;
    for (i, label) in host.split('.').enumerate() {
        if i > 0 {
            new_host.push('.');
        }
        let ace = label.len() > 4 && label[..4].eq_ignore_ascii_case("xn--");
        let unicode = ace
            .then(|| Uts46::new().to_unicode(label.as_bytes(), AsciiDenyList::STD3, Hyphens::CheckFirstLast))
            .and_then(|(u, result)| result.is_ok().then_some(u))
            .filter(|u| {
                !u.is_empty()
                    && !u.contains('.')
                    && rfc3987::IREG_NAME.is_match(u)
                    && find_display_unsafe(u).is_none()
                    && super::find_bidi_formatting(u).is_none()
            });
        match unicode {
            Some(u) => {
                new_host.push_str(&u);
                changed = true;
            }
            None => new_host.push_str(label),
        }
    }
    if !changed {
        return iri.to_owned();
    }
    let start = offset_in(text, host);
    let mut out = String::with_capacity(text.len() + new_host.len());
    out.push_str(&text[..start]);
    out.push_str(&new_host);
    out.push_str(&text[start + host.len()..]);
    super::iri_ref_buf("idna_labels_to_unicode", out)
}
