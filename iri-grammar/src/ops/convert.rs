//! The mappings between IRIs and URIs: RFC 3987 §3.1 (IRI → URI) and §3.2
//! (URI → IRI).

use alloc::borrow::Cow;
use alloc::string::String;

use super::pct::{push_pct, recode, KeptAscii};
use super::{char_matches, is_bidi_formatting, offset_in};
use crate::{rfc3986, rfc3987, Iri, IriBuf, IriRef, IriRefBuf, Uri, UriBuf, UriRef, UriRefBuf};

/// Whether §3.1 step 2 encodes `c`: it is a `ucschar` or an `iprivate`,
/// as the generated recognizers say.
fn encoded_in_uri(c: char) -> bool {
    !c.is_ascii() && (char_matches(&rfc3987::UCSCHAR, c) || char_matches(&rfc3987::IPRIVATE, c))
}

/// RFC 3987 §3.1 step 2 on any text (an IRI, a reference or a component,
/// as §3.1 allows): every `ucschar` and `iprivate` character becomes its
/// UTF-8 octets as `%HH` triplets with uppercase hex; everything else,
/// existing percent-encodings included, is left as it is. An identity on
/// URIs, and idempotent.
///
/// Step 1 (NFC for IRIs that come from paper or a non-Unicode encoding)
/// is the caller's: text that is already Unicode is not normalized (§3.1
/// 1c).
///
/// ```
/// use iri_grammar::ops::iri_to_uri_str;
///
/// // The examples of §3.1.
/// assert_eq!(iri_to_uri_str("http://www.example.org/red%09rosé#red"), "http://www.example.org/red%09ros%C3%A9#red");
/// assert_eq!(iri_to_uri_str("http://example.com/\u{10300}\u{10301}\u{10302}"),
///            "http://example.com/%F0%90%8C%80%F0%90%8C%81%F0%90%8C%82");
/// assert!(matches!(iri_to_uri_str("http://a/b"), std::borrow::Cow::Borrowed(_)));
/// ```
pub fn iri_to_uri_str(text: &str) -> Cow<'_, str> {
    if text.is_ascii() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() * 2);
    for c in text.chars() {
        if encoded_in_uri(c) {
            for &b in c.encode_utf8(&mut [0; 4]).as_bytes() {
                push_pct(&mut out, b);
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Maps an IRI reference to a URI reference (RFC 3987 §3.1): see
/// [`iri_to_uri_str`]. The result is always a valid URI reference, since
/// `ucschar` and `iprivate` are all that the IRI grammar adds to the URI
/// grammar.
///
/// ```
/// use iri_grammar::{ops::iri_to_uri, IriRef};
///
/// let uri = iri_to_uri(IriRef::parse("?katakana-letter-i=イ")?);
/// assert_eq!(uri.as_str(), "?katakana-letter-i=%E3%82%A4");
/// # Ok::<(), iri_grammar::ParseError>(())
/// ```
pub fn iri_to_uri(iri: IriRef<'_>) -> UriRefBuf {
    super::uri_ref_buf("iri_to_uri", iri_to_uri_str(iri.as_str()).into_owned())
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
    out.push_str(&iri_to_uri_str(&text[..start]));
    out.push_str(&ascii);
    out.push_str(&iri_to_uri_str(&text[start + host.len()..]));
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
        super::uri_buf("Iri::to_uri", iri_to_uri_str(self.as_str()).into_owned())
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
