//! The everyday types: validated IRIs and URIs, borrowed and owned, with
//! their components, built on the generated parse trees.

use alloc::string::String;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::str::FromStr;

use crate::{rfc3986, rfc3987, MatchError, Recognizer};
use crate::{ByteSet, Span};

/// What kind of host an authority names (RFC 3986 §3.2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Host<'a> {
    /// `[IPv6address]`; the text without the brackets.
    Ipv6(&'a str),
    /// `[vX.future]`; the text without the brackets.
    IpvFuture(&'a str),
    /// A dotted-decimal IPv4 address (the grammar's `IPv4address`, so
    /// `256.1.1.1` is a registered name).
    Ipv4(&'a str),
    /// A registered name (possibly empty, possibly with non-ASCII
    /// characters in an IRI).
    RegName(&'a str),
}

impl<'a> Host<'a> {
    /// The address or name (IP literals without their brackets; see
    /// `host_str` on the IRI types for the text as written).
    #[inline]
    pub fn as_str(&self) -> &'a str {
        match *self {
            Host::Ipv6(s) | Host::IpvFuture(s) | Host::Ipv4(s) | Host::RegName(s) => s,
        }
    }

    /// The IPv4 address of an [`Host::Ipv4`] host.
    ///
    /// ```
    /// use core::net::Ipv4Addr;
    /// use iri_grammar::Iri;
    ///
    /// let iri = Iri::parse("http://192.0.2.1:8080/")?;
    /// assert_eq!(iri.host().and_then(|h| h.ipv4()), Some(Ipv4Addr::new(192, 0, 2, 1)));
    /// // 256 is not a dec-octet: a registered name, not an address.
    /// assert_eq!(Iri::parse("http://192.0.2.256/")?.host().and_then(|h| h.ipv4()), None);
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    pub fn ipv4(&self) -> Option<core::net::Ipv4Addr> {
        match *self {
            // RFC 3986's IPv4address (dec-octets without leading zeros) is
            // a subset of what `core` parses.
            Host::Ipv4(s) => s.parse().ok(),
            _ => None,
        }
    }

    /// The IPv6 address of an [`Host::Ipv6`] host (the text between the
    /// brackets, in any of RFC 4291's forms, is parsed; [`Host::as_str`]
    /// keeps it as written).
    ///
    /// ```
    /// use core::net::Ipv6Addr;
    /// use iri_grammar::{Host, IriRef};
    ///
    /// let r = IriRef::parse("//[0:0::1]/")?;
    /// assert_eq!(r.host(), Some(Host::Ipv6("0:0::1")));
    /// assert_eq!(r.host().and_then(|h| h.ipv6()), Some(Ipv6Addr::LOCALHOST));
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    pub fn ipv6(&self) -> Option<core::net::Ipv6Addr> {
        match *self {
            Host::Ipv6(s) => s.parse().ok(),
            _ => None,
        }
    }

    /// The IP address of an IPv4 or IPv6 host; `None` for a registered
    /// name or an IPvFuture literal.
    ///
    /// ```
    /// use core::net::IpAddr;
    /// use iri_grammar::Iri;
    ///
    /// let ip = |s| Iri::parse(s).unwrap().host().and_then(|h| h.ip());
    /// assert_eq!(ip("http://[::1]/"), Some("::1".parse::<IpAddr>().unwrap()));
    /// assert_eq!(ip("http://10.0.0.1/"), Some("10.0.0.1".parse::<IpAddr>().unwrap()));
    /// assert_eq!(ip("http://[v1.x]/"), None);
    /// assert_eq!(ip("http://example.org/"), None);
    /// ```
    pub fn ip(&self) -> Option<core::net::IpAddr> {
        match self {
            Host::Ipv4(_) => self.ipv4().map(core::net::IpAddr::V4),
            Host::Ipv6(_) => self.ipv6().map(core::net::IpAddr::V6),
            _ => None,
        }
    }

    /// `"ipv6"`, `"ipvfuture"`, `"ipv4"` or `"reg-name"`.
    pub fn kind(&self) -> &'static str {
        match self {
            Host::Ipv6(_) => "ipv6",
            Host::IpvFuture(_) => "ipvfuture",
            Host::Ipv4(_) => "ipv4",
            Host::RegName(_) => "reg-name",
        }
    }
}

/// A port: its text, and its value when it fits in 16 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Port<'a>(&'a str);

impl<'a> Port<'a> {
    /// The digits as written (possibly empty: `http://a:/` has an empty port).
    #[inline]
    pub fn as_str(&self) -> &'a str {
        self.0
    }

    /// The port number, if the digits are not empty and fit in a `u16`.
    pub fn as_u16(&self) -> Option<u16> {
        self.0.parse().ok()
    }
}

/// Where each component is, in byte offsets into the text. Every span is
/// whole aligned words (a [`Slot`] has no discriminant byte): a struct of
/// `Option`s packs its discriminants into padding at odd offsets, and the
/// narrow loads that read them back from a wide copy stalled store
/// forwarding (measured: about 3 ns of a short `IriRef::parse`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Parts {
    scheme: Slot,
    authority: Slot,
    userinfo: Slot,
    host: Slot,
    port: Slot,
    path: Span,
    query: Slot,
    fragment: Slot,
    host_tag: HostTag,
}

/// A part's span, or none (`start == usize::MAX`, which no span of a
/// `&str` reaches).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slot {
    start: usize,
    end: usize,
}

impl Slot {
    const NONE: Slot = Slot {
        start: usize::MAX,
        end: usize::MAX,
    };

    #[inline(always)]
    fn get(self) -> Option<Span> {
        (self.start != usize::MAX).then_some(Span {
            start: self.start,
            end: self.end,
        })
    }

    #[inline(always)]
    fn of(span: Option<Span>) -> Slot {
        span.map_or(Slot::NONE, |s| Slot {
            start: s.start,
            end: s.end,
        })
    }
}

impl Default for Slot {
    fn default() -> Slot {
        Slot::NONE
    }
}

/// The kind of host (what a [`Parts`] without a host holds does not
/// matter: its host slot is empty). A byte, not an enum: the enum's unused
/// values held the discriminant of `Result<IriRef, ParseError>`, and the
/// parts were then copied around that one byte with loads that spanned
/// two stores and stalled (a quarter of the extraction's time outside the
/// walks, in `perf`; 87.8 to 84.0 ns per short IRI, medians of five A/B
/// runs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct HostTag(u8);

impl HostTag {
    const IPV6: HostTag = HostTag(0);
    const IPV_FUTURE: HostTag = HostTag(1);
    const IPV4: HostTag = HostTag(2);
    const REG_NAME: HostTag = HostTag(3);
}

impl Default for HostTag {
    fn default() -> HostTag {
        HostTag::REG_NAME
    }
}

/// Validates `input` with `recognizer` and finds its [`Parts`] with the
/// splitting grammar of `specs/rfc3986_appendix_b.abnf`
/// (`Reference::parse_checked`: the recognizer, then the splitter's
/// generated exit walk where the CPU has AVX-512 VBMI, else both in one
/// pass, in step; RFC 3986 Appendix B finds the
/// components of any valid URI or IRI reference by their delimiters; the
/// tests check it against the `@components` extractions of the full
/// grammars). The kind of host follows from its text: an IP literal is in
/// brackets (`[v` for IPvFuture), and an IPv4 address is what RFC 3986's
/// `IPv4address` matches (in IRIs too: RFC 3987 takes the rule from RFC
/// 3986); anything else is a registered name.
///
/// This, the checks and the types' `parse` are inlined into the caller: the
/// parts (about 140 bytes) are then written where they end up instead of
/// being moved through three frames (15 ns less per IRI in `cargo xtask
/// bench`'s extraction, about a tenth). For the same reason the parts come
/// from the extraction's tags here, not from a `Reference` returned by a
/// call.
#[inline(always)]
fn parts(recognizer: &'static Recognizer, input: &str) -> Result<Parts, MatchError> {
    use crate::rfc3986_appendix_b::components::Reference;
    use abnf_runtime::__private::inconsistent;
    // The tags, then the parts from them here: returned from a call, the
    // 200-byte struct was copied and read back at once (a stalled load).
    let mut tags = [usize::MAX; 18];
    Reference::__parse_checked_tags(recognizer, input, &mut tags)?;
    let c = Reference::__from_tags(&tags);
    let host_tag = c.host.map_or(HostTag::default(), |h| {
        let text = &input.as_bytes()[h.range()];
        match text {
            [b'[', b'v' | b'V', ..] => HostTag::IPV_FUTURE,
            [b'[', ..] => HostTag::IPV6,
            [b'0'..=b'9', ..] if rfc3986::IPV4ADDRESS.is_match_bytes(text) => HostTag::IPV4,
            _ => HostTag::REG_NAME,
        }
    });
    Ok(Parts {
        scheme: Slot::of(c.scheme),
        authority: Slot::of(c.authority),
        userinfo: Slot::of(c.userinfo),
        host: Slot::of(c.host),
        port: Slot::of(c.port),
        // The splitting grammar always has a path (perhaps empty).
        path: c
            .path
            .unwrap_or_else(|| inconsistent("rfc3986_appendix_b", "path", 0)),
        query: Slot::of(c.query),
        fragment: Slot::of(c.fragment),
        host_tag,
    })
}

/// Why a string is not a valid IRI or URI (reference): where it stopped
/// matching, which rule, and what would have been accepted there.
#[derive(Clone, Copy, Debug)]
pub struct ParseError {
    what: &'static str,
    kind: ParseErrorKind,
    /// The recognizer the input was checked with (its grammar and rule).
    recognizer: &'static Recognizer,
    offset: usize,
    found: Option<char>,
    /// The recognizer's state at the offset, for a syntax error: what was
    /// expected is worked out from it only when asked (building it costs
    /// nothing).
    state: Option<usize>,
}

impl PartialEq for ParseError {
    fn eq(&self, other: &Self) -> bool {
        self.what == other.what
            && self.kind == other.kind
            && core::ptr::eq(self.recognizer, other.recognizer)
            && self.offset == other.offset
            && self.found == other.found
            && self.state == other.state
    }
}

impl Eq for ParseError {}

/// What kind of problem a [`ParseError`] reports.
///
/// ```
/// use iri_grammar::{IriRef, ParseErrorKind};
///
/// assert_eq!(IriRef::parse("a b").unwrap_err().kind(), ParseErrorKind::Syntax);
/// let e = IriRef::parse("/\u{202E}txt.exe").unwrap_err();
/// assert_eq!(e.kind(), ParseErrorKind::BidiFormatting);
/// assert_eq!((e.offset(), e.found()), (1, Some('\u{202E}')));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The input does not match the grammar rule.
    Syntax,
    /// The input matches the grammar, but contains one of the bidirectional
    /// formatting characters that RFC 3987 §4.1 forbids in IRIs ("IRIs MUST
    /// NOT contain bidirectional formatting characters (LRM, RLM, LRE, RLE,
    /// LRO, RLO, and PDF)"): U+200E, U+200F, U+202A–U+202E. The grammar of
    /// §2.2 allows them (they are `ucschar`s), so only the strict types
    /// ([`IriRef`], [`Iri`] and their owned forms) reject them; the
    /// recognizers stay faithful to the ABNF.
    BidiFormatting,
}

impl ParseError {
    #[cold]
    #[inline(never)]
    fn new(
        what: &'static str,
        recognizer: &'static Recognizer,
        input: &str,
        error: MatchError,
    ) -> ParseError {
        // The automaton works on bytes and may stop inside a character (a
        // noncharacter such as U+FFFF shares its first bytes with allowed
        // ones): report the character it stopped in.
        let mut offset = error.offset().min(input.len());
        while !input.is_char_boundary(offset) {
            offset -= 1;
        }
        ParseError {
            what,
            kind: ParseErrorKind::Syntax,
            recognizer,
            offset,
            found: input.get(offset..).and_then(|s| s.chars().next()),
            // The walk that found the error knows the state there, unless
            // the offset moved back to a character's start.
            state: Some(match error.__state() {
                Some(state) if offset == error.offset() => state,
                _ => recognizer.state_after(&input.as_bytes()[..offset]),
            }),
        }
    }

    /// A forbidden bidi formatting character `c` at byte `offset`.
    #[cold]
    #[inline(never)]
    fn bidi(what: &'static str, recognizer: &'static Recognizer, offset: usize, c: char) -> ParseError {
        ParseError {
            what,
            kind: ParseErrorKind::BidiFormatting,
            recognizer,
            offset,
            found: Some(c),
            state: None,
        }
    }

    /// What kind of problem this is.
    ///
    /// ```
    /// use iri_grammar::{Iri, ParseErrorKind};
    ///
    /// assert_eq!(Iri::parse("//no-scheme").unwrap_err().kind(), ParseErrorKind::Syntax);
    /// assert_eq!(Iri::parse("s:\u{200F}").unwrap_err().kind(), ParseErrorKind::BidiFormatting);
    /// ```
    pub fn kind(&self) -> ParseErrorKind {
        self.kind
    }

    /// The byte offset where the input stopped matching.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The rule that was matched against, such as `IRI-reference`.
    pub fn rule(&self) -> &'static str {
        self.recognizer.rule()
    }

    /// The grammar of the rule, such as `rfc3987`.
    pub fn grammar(&self) -> &'static str {
        self.recognizer.grammar()
    }

    /// The character at the offset, or `None` at the end of the input.
    pub fn found(&self) -> Option<char> {
        self.found
    }

    /// Whether byte `b` would have continued a match at the offset.
    pub fn expects(&self, b: u8) -> bool {
        self.state.is_some_and(|s| self.recognizer.continues(s, b))
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid {}: ", self.what)?;
        if self.kind == ParseErrorKind::BidiFormatting {
            let c = self.found.unwrap_or('\u{FFFD}');
            return write!(
                f,
                "bidirectional formatting character U+{:04X} ({}) at byte {}; RFC 3987 §4.1 forbids it in IRIs \
                 (percent-encode it as {})",
                u32::from(c),
                crate::ops::bidi_formatting_name(c).unwrap_or("?"),
                self.offset(),
                crate::ops::percent_encode(c.encode_utf8(&mut [0; 4]), &rfc3986::UNRESERVED),
            );
        }
        match self.found {
            Some(c) => write!(f, "unexpected {c:?} at byte {}", self.offset())?,
            None => write!(f, "unexpected end of input at byte {}", self.offset())?,
        }
        let mut expected = ByteSet::default();
        for b in 0..=255u8 {
            if self.expects(b) {
                expected.insert(b);
            }
        }
        if !expected.is_empty() {
            write!(f, "; expected {}", expected.named(self.recognizer.classes()))?;
        } else {
            f.write_str("; expected the end of the input")?;
        }
        write!(f, " ({}:{})", self.grammar(), self.rule())
    }
}

impl core::error::Error for ParseError {}

/// The strict IRI types' check beyond the grammar: no bidi formatting
/// characters (RFC 3987 §4.1). Earliest problem first: a syntax error
/// before the first such character is reported as a syntax error.
#[inline(always)]
fn strict_iri(
    what: &'static str,
    recognizer: &'static Recognizer,
    input: &str,
    parsed: Result<Parts, MatchError>,
) -> Result<Parts, ParseError> {
    // The earlier problem wins: a syntax error before the first bidi
    // formatting character, else that character.
    match parsed {
        Ok(parts) => match crate::ops::find_bidi_formatting(input) {
            None => Ok(parts),
            Some((at, c)) => Err(ParseError::bidi(what, recognizer, at, c)),
        },
        Err(e) => Err(match crate::ops::find_bidi_formatting(input) {
            Some((at, c)) if at <= e.offset() => ParseError::bidi(what, recognizer, at, c),
            _ => ParseError::new(what, recognizer, input, e),
        }),
    }
}

/// The URI types' check: the grammar alone (URIs are ASCII, so they cannot
/// contain the characters [`strict_iri`] looks for).
#[inline(always)]
fn grammar_only(
    what: &'static str,
    recognizer: &'static Recognizer,
    input: &str,
    parsed: Result<Parts, MatchError>,
) -> Result<Parts, ParseError> {
    parsed.map_err(|e| ParseError::new(what, recognizer, input, e))
}

macro_rules! validated {
    ($(#[$doc:meta])* $Borrowed:ident, $Owned:ident, $what:literal, $recognizer:path, $check:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy)]
        pub struct $Borrowed<'a> {
            text: &'a str,
            parts: Parts,
        }

        impl<'a> $Borrowed<'a> {
            /// Validates and parses `input`.
            #[inline]
            pub fn parse(input: &'a str) -> Result<Self, ParseError> {
                let parts = $check($what, &$recognizer, input, parts(&$recognizer, input))?;
                Ok($Borrowed { text: input, parts })
            }

            /// The whole text.
            #[inline]
            pub fn as_str(&self) -> &'a str {
                self.text
            }

            /// An owned copy.
            pub fn to_owned(&self) -> $Owned {
                $Owned {
                    text: String::from(self.text),
                    parts: self.parts,
                }
            }

            #[inline]
            fn get(&self, span: Option<Span>) -> Option<&'a str> {
                span.map(|s| &self.text[s.range()])
            }

            /// The scheme, if any (the absolute types always have one and
            /// give it as `&str`).
            #[inline]
            pub(crate) fn scheme_opt(&self) -> Option<&'a str> {
                self.get(self.parts.scheme.get())
            }

            /// The authority (after `//`, up to the path), if present.
            #[inline]
            pub fn authority(&self) -> Option<&'a str> {
                self.get(self.parts.authority.get())
            }

            /// The user information, without its `@`.
            #[inline]
            pub fn userinfo(&self) -> Option<&'a str> {
                self.get(self.parts.userinfo.get())
            }

            /// The host, with its kind.
            #[inline]
            pub fn host(&self) -> Option<Host<'a>> {
                let (span, tag) = (self.parts.host.get()?, self.parts.host_tag);
                let text = &self.text[span.range()];
                Some(match tag {
                    HostTag::IPV6 => Host::Ipv6(&text[1..text.len() - 1]),
                    HostTag::IPV_FUTURE => Host::IpvFuture(&text[1..text.len() - 1]),
                    HostTag::IPV4 => Host::Ipv4(text),
                    _ => Host::RegName(text),
                })
            }

            /// The host's text as written (IP literals keep their brackets).
            #[inline]
            pub fn host_str(&self) -> Option<&'a str> {
                self.get(self.parts.host.get())
            }

            /// The port, without its `:` (possibly empty).
            #[inline]
            pub fn port(&self) -> Option<Port<'a>> {
                self.get(self.parts.port.get()).map(Port)
            }

            /// The path (possibly empty; never absent).
            #[inline]
            pub fn path(&self) -> &'a str {
                &self.text[self.parts.path.range()]
            }

            /// The path's segments: the path split on `/`, after its leading
            /// `/` if it has one (`/a//b` gives `a`, ``, `b`; an empty path
            /// gives no segment).
            pub fn path_segments(&self) -> impl Iterator<Item = &'a str> + 'a {
                let path = self.path();
                let rest = path.strip_prefix('/').unwrap_or(path);
                let none = path.is_empty();
                rest.split('/').filter(move |_| !none)
            }

            /// The query, without its `?`.
            #[inline]
            pub fn query(&self) -> Option<&'a str> {
                self.get(self.parts.query.get())
            }

            /// Whether there is a scheme.
            #[inline]
            pub fn is_absolute(&self) -> bool {
                self.parts.scheme.get().is_some()
            }
        }

        impl<'a> PartialEq<str> for $Borrowed<'a> {
            fn eq(&self, other: &str) -> bool {
                self.text == other
            }
        }

        impl<'a> PartialEq<&str> for $Borrowed<'a> {
            fn eq(&self, other: &&str) -> bool {
                self.text == *other
            }
        }

        impl<'a> PartialEq<$Borrowed<'a>> for str {
            fn eq(&self, other: &$Borrowed<'a>) -> bool {
                self == other.text
            }
        }

        impl<'a> PartialEq<$Borrowed<'a>> for &str {
            fn eq(&self, other: &$Borrowed<'a>) -> bool {
                *self == other.text
            }
        }

        impl<'a> PartialEq<$Owned> for $Borrowed<'a> {
            fn eq(&self, other: &$Owned) -> bool {
                self.text == other.text
            }
        }

        impl<'a> PartialEq<$Borrowed<'a>> for $Owned {
            fn eq(&self, other: &$Borrowed<'a>) -> bool {
                self.text == other.text
            }
        }

        impl PartialEq<str> for $Owned {
            fn eq(&self, other: &str) -> bool {
                self.text == other
            }
        }

        impl PartialEq<&str> for $Owned {
            fn eq(&self, other: &&str) -> bool {
                self.text == *other
            }
        }

        impl PartialEq<$Owned> for str {
            fn eq(&self, other: &$Owned) -> bool {
                self == other.text
            }
        }

        impl PartialEq<$Owned> for &str {
            fn eq(&self, other: &$Owned) -> bool {
                *self == other.text
            }
        }

        impl PartialOrd for $Borrowed<'_> {
            fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
                Some(self.cmp(other))
            }
        }

        /// By text (simple string comparison, RFC 3987 §5.3.1).
        impl Ord for $Borrowed<'_> {
            fn cmp(&self, other: &Self) -> core::cmp::Ordering {
                self.text.cmp(other.text)
            }
        }

        impl PartialOrd for $Owned {
            fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
                Some(self.cmp(other))
            }
        }

        /// By text (simple string comparison, RFC 3987 §5.3.1).
        impl Ord for $Owned {
            fn cmp(&self, other: &Self) -> core::cmp::Ordering {
                self.text.cmp(&other.text)
            }
        }

        impl core::borrow::Borrow<str> for $Borrowed<'_> {
            fn borrow(&self) -> &str {
                self.text
            }
        }

        /// Equality, order and hash are the text's, so an owned IRI can be
        /// looked up by `&str` in a `HashMap` or `BTreeMap`.
        impl core::borrow::Borrow<str> for $Owned {
            fn borrow(&self) -> &str {
                &self.text
            }
        }


        impl fmt::Debug for $Borrowed<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({:?})", stringify!($Borrowed), self.text)
            }
        }

        impl fmt::Display for $Borrowed<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.text)
            }
        }

        impl AsRef<str> for $Borrowed<'_> {
            fn as_ref(&self) -> &str {
                self.text
            }
        }

        impl PartialEq for $Borrowed<'_> {
            fn eq(&self, other: &Self) -> bool {
                self.text == other.text
            }
        }

        impl Eq for $Borrowed<'_> {}

        impl Hash for $Borrowed<'_> {
            fn hash<H: Hasher>(&self, state: &mut H) {
                self.text.hash(state)
            }
        }

        impl<'a> TryFrom<&'a str> for $Borrowed<'a> {
            type Error = ParseError;
            fn try_from(s: &'a str) -> Result<Self, ParseError> {
                Self::parse(s)
            }
        }

        #[doc = concat!("An owned [`", stringify!($Borrowed), "`].")]
        #[derive(Clone)]
        pub struct $Owned {
            text: String,
            parts: Parts,
        }

        impl $Owned {
            /// Validates and parses `input`, keeping it.
            pub fn parse(input: String) -> Result<Self, ParseError> {
                let parts = $Borrowed::parse(&input)?.parts;
                Ok($Owned { text: input, parts })
            }

            /// The borrowed form, with all the accessors.
            pub fn as_ref(&self) -> $Borrowed<'_> {
                $Borrowed {
                    text: &self.text,
                    parts: self.parts,
                }
            }

            /// The whole text.
            #[inline]
            pub fn as_str(&self) -> &str {
                &self.text
            }

            /// The text, given back.
            pub fn into_string(self) -> String {
                self.text
            }
        }

        impl fmt::Debug for $Owned {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({:?})", stringify!($Owned), self.text)
            }
        }

        impl fmt::Display for $Owned {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.text)
            }
        }

        impl AsRef<str> for $Owned {
            fn as_ref(&self) -> &str {
                &self.text
            }
        }

        impl PartialEq for $Owned {
            fn eq(&self, other: &Self) -> bool {
                self.text == other.text
            }
        }

        impl Eq for $Owned {}

        impl Hash for $Owned {
            fn hash<H: Hasher>(&self, state: &mut H) {
                self.text.hash(state)
            }
        }

        impl FromStr for $Owned {
            type Err = ParseError;
            fn from_str(s: &str) -> Result<Self, ParseError> {
                Self::parse(String::from(s))
            }
        }

        impl TryFrom<String> for $Owned {
            type Error = ParseError;
            fn try_from(s: String) -> Result<Self, ParseError> {
                Self::parse(s)
            }
        }

        impl TryFrom<&str> for $Owned {
            type Error = ParseError;
            fn try_from(s: &str) -> Result<Self, ParseError> {
                Self::parse(String::from(s))
            }
        }

        impl From<$Borrowed<'_>> for $Owned {
            fn from(b: $Borrowed<'_>) -> $Owned {
                b.to_owned()
            }
        }

        impl From<$Owned> for String {
            fn from(o: $Owned) -> String {
                o.text
            }
        }

        #[cfg(feature = "serde")]
        impl serde::Serialize for $Borrowed<'_> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.text)
            }
        }

        #[cfg(feature = "serde")]
        impl<'de: 'a, 'a> serde::Deserialize<'de> for $Borrowed<'a> {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s: &'de str = serde::Deserialize::deserialize(d)?;
                Self::parse(s).map_err(serde::de::Error::custom)
            }
        }

        #[cfg(feature = "serde")]
        impl serde::Serialize for $Owned {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.text)
            }
        }

        #[cfg(feature = "serde")]
        impl<'de> serde::Deserialize<'de> for $Owned {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                Self::parse(s).map_err(serde::de::Error::custom)
            }
        }
    };
}

/// The fragment accessors of the types whose rule has a fragment.
macro_rules! fragment_ops {
    ($Borrowed:ident, $Owned:ident, $check:ident, $frag:path) => {
        impl<'a> $Borrowed<'a> {
            /// The fragment, without its `#`.
            #[inline]
            pub fn fragment(&self) -> Option<&'a str> {
                self.get(self.parts.fragment.get())
            }

            /// This without its fragment (and its `#`), borrowing the same
            /// text: what RFC 3986 §5.1 / RFC 3987 §6.5 use as a base, and
            /// what is sent in a request.
            ///
            /// ```
            #[doc = concat!("use iri_grammar::", stringify!($Borrowed), ";")]
            ///
            #[doc = concat!("let v = ", stringify!($Borrowed), "::parse(\"http://a/b?q#frag\")?;")]
            /// assert_eq!(v.without_fragment(), "http://a/b?q");
            /// assert_eq!(v.without_fragment().fragment(), None);
            /// # Ok::<(), iri_grammar::ParseError>(())
            /// ```
            pub fn without_fragment(&self) -> $Borrowed<'a> {
                match self.parts.fragment.get() {
                    None => *self,
                    Some(f) => $Borrowed {
                        // The `#` is the byte before the fragment.
                        text: &self.text[..f.start - 1],
                        parts: Parts {
                            fragment: Slot::NONE,
                            ..self.parts
                        },
                    },
                }
            }

            /// A copy with `fragment` as its fragment (`None` removes it).
            /// The fragment is checked with its grammar rule (`ifragment`
            /// for IRIs, `fragment` for URIs) and, for IRIs, against the
            /// bidi formatting characters RFC 3987 §4.1 forbids; nothing is
            /// percent-encoded for you (see
            /// [`percent_encode`](crate::ops::percent_encode)).
            ///
            /// ```
            #[doc = concat!("use iri_grammar::", stringify!($Borrowed), ";")]
            ///
            #[doc = concat!("let v = ", stringify!($Borrowed), "::parse(\"http://a/b#old\")?;")]
            /// assert_eq!(v.with_fragment(Some("new"))?, "http://a/b#new");
            /// assert_eq!(v.with_fragment(Some(""))?, "http://a/b#");
            /// assert_eq!(v.with_fragment(None)?, "http://a/b");
            /// assert!(v.with_fragment(Some("a#b")).is_err());
            /// # Ok::<(), iri_grammar::ParseError>(())
            /// ```
            ///
            /// # Errors
            ///
            /// If `fragment` does not match the fragment rule.
            pub fn with_fragment(&self, fragment: Option<&str>) -> Result<$Owned, ParseError> {
                let base = self.without_fragment();
                let mut text = String::with_capacity(base.text.len() + fragment.map_or(0, |f| f.len() + 1));
                text.push_str(base.text);
                let mut parts = base.parts;
                if let Some(f) = fragment {
                    $check(
                        "fragment",
                        &$frag,
                        f,
                        $frag.validate(f).map(|()| Parts::default()),
                    )?;
                    text.push('#');
                    parts.fragment = Slot {
                        start: text.len(),
                        end: text.len() + f.len(),
                    };
                    text.push_str(f);
                }
                Ok($Owned { text, parts })
            }
        }

        impl $Owned {
            /// Sets (or with `None` removes) the fragment: see
            #[doc = concat!("[`", stringify!($Borrowed), "::with_fragment`].")]
            ///
            /// ```
            #[doc = concat!("let mut v: iri_grammar::", stringify!($Owned), " = \"s:/p#f\".parse()?;")]
            /// v.set_fragment(Some("g"))?;
            /// assert_eq!(v, "s:/p#g");
            /// v.set_fragment(None)?;
            /// assert_eq!(v, "s:/p");
            /// assert!(v.set_fragment(Some("x y")).is_err());
            /// assert_eq!(v, "s:/p"); // unchanged on error
            /// # Ok::<(), iri_grammar::ParseError>(())
            /// ```
            ///
            /// # Errors
            ///
            /// If `fragment` does not match the fragment rule; `self` is
            /// then unchanged.
            pub fn set_fragment(&mut self, fragment: Option<&str>) -> Result<(), ParseError> {
                *self = $Owned::as_ref(self).with_fragment(fragment)?;
                Ok(())
            }
        }
    };
}

validated!(
    /// An IRI reference (RFC 3987 `IRI-reference`): an IRI or a relative
    /// reference, validated, with its components.
    ///
    /// Strict: besides the grammar, parsing rejects the bidi formatting
    /// characters that RFC 3987 §4.1 forbids (LRM, RLM, LRE, RLE, PDF, LRO,
    /// RLO), with [`ParseErrorKind::BidiFormatting`]. The recognizer
    /// [`rfc3987::IRI_REFERENCE`] follows the ABNF alone and accepts them.
    ///
    /// ```
    /// use iri_grammar::{Host, IriRef};
    ///
    /// let r = IriRef::parse("//a:b@[::1]:8080/résumé/x?q#f")?;
    /// assert_eq!(r.scheme(), None);
    /// assert_eq!(r.userinfo(), Some("a:b"));
    /// assert_eq!(r.host(), Some(Host::Ipv6("::1")));
    /// assert_eq!(r.port().and_then(|p| p.as_u16()), Some(8080));
    /// assert_eq!(r.path_segments().collect::<Vec<_>>(), ["résumé", "x"]);
    /// assert_eq!((r.query(), r.fragment()), (Some("q"), Some("f")));
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    IriRef, IriRefBuf, "IRI reference", rfc3987::IRI_REFERENCE, strict_iri
);

validated!(
    /// An IRI (RFC 3987 `IRI`): absolute, with a scheme, maybe a fragment.
    /// Strict as [`IriRef`] is: no bidi formatting characters (§4.1).
    ///
    /// ```
    /// let iri = iri_grammar::Iri::parse("http://例え.jp/引き出し")?;
    /// assert_eq!(iri.scheme(), "http");
    /// assert_eq!(iri.host().unwrap().as_str(), "例え.jp");
    /// assert!(iri_grammar::Iri::parse("//no-scheme").is_err());
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    Iri, IriBuf, "IRI", rfc3987::IRI, strict_iri
);

validated!(
    /// A URI reference (RFC 3986 `URI-reference`), ASCII only.
    ///
    /// ```
    /// let r = iri_grammar::UriRef::parse("../a?b")?;
    /// assert_eq!(r.path(), "../a");
    /// assert!(iri_grammar::UriRef::parse("/résumé").is_err());
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    UriRef, UriRefBuf, "URI reference", rfc3986::URI_REFERENCE, grammar_only
);

validated!(
    /// A URI (RFC 3986 `URI`): absolute, with a scheme, maybe a fragment.
    ///
    /// ```
    /// let uri = iri_grammar::Uri::parse("mailto:a@example.org")?;
    /// assert_eq!(uri.path(), "a@example.org");
    /// let iri: iri_grammar::Iri = uri.into();
    /// assert_eq!(iri.scheme(), "mailto");
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    Uri, UriBuf, "URI", rfc3986::URI, grammar_only
);

validated!(
    /// An absolute IRI (RFC 3987 `absolute-IRI`): a scheme and no
    /// fragment. What RFC 3986 §4.3 asks of a base ("a base URI ... must
    /// be an absolute URI", whose fragment §5.2.1 ignores) and of a
    /// namespace or identifier that must not carry a fragment. Strict as
    /// [`Iri`] is (RFC 3987 §4.1).
    ///
    /// ```
    /// use iri_grammar::{AbsoluteIri, Iri};
    ///
    /// let a = AbsoluteIri::parse("http://例え.jp/a?q")?;
    /// assert_eq!(a.scheme(), "http");
    /// assert!(AbsoluteIri::parse("http://例え.jp/a#f").is_err());
    /// // From an IRI, by dropping the fragment; back to an IRI for free.
    /// let iri = Iri::parse("http://a/b#f")?;
    /// assert_eq!(iri.to_absolute(), "http://a/b");
    /// let back: Iri = iri.to_absolute().into();
    /// assert_eq!(back.fragment(), None);
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    AbsoluteIri, AbsoluteIriBuf, "absolute IRI", rfc3987::ABSOLUTE_IRI, strict_iri
);

validated!(
    /// An absolute URI (RFC 3986 `absolute-URI`): a scheme and no fragment.
    ///
    /// ```
    /// let a = iri_grammar::AbsoluteUri::parse("urn:isbn:0451450523")?;
    /// assert_eq!((a.scheme(), a.path()), ("urn", "isbn:0451450523"));
    /// assert!(iri_grammar::AbsoluteUri::parse("urn:x#f").is_err());
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    AbsoluteUri, AbsoluteUriBuf, "absolute URI", rfc3986::ABSOLUTE_URI, grammar_only
);

fragment_ops!(IriRef, IriRefBuf, strict_iri, rfc3987::IFRAGMENT);
fragment_ops!(Iri, IriBuf, strict_iri, rfc3987::IFRAGMENT);
fragment_ops!(UriRef, UriRefBuf, grammar_only, rfc3986::FRAGMENT);
fragment_ops!(Uri, UriBuf, grammar_only, rfc3986::FRAGMENT);

/// `scheme()` for the types that may lack one.
macro_rules! optional_scheme {
    ($($T:ident),*) => {$(
        impl<'a> $T<'a> {
            /// The scheme, without its `:` (`None` for a relative reference).
            #[inline]
            pub fn scheme(&self) -> Option<&'a str> {
                self.scheme_opt()
            }
        }
    )*};
}

/// `scheme()` for the types that always have one.
macro_rules! required_scheme {
    ($($T:ident),*) => {$(
        impl<'a> $T<'a> {
            /// The scheme, without its `:` (never empty: the grammar
            /// requires one).
            #[inline]
            pub fn scheme(&self) -> &'a str {
                // The rule requires a scheme, so the splitter always finds one.
                self.scheme_opt().unwrap_or_default()
            }
        }
    )*};
}

optional_scheme!(IriRef, UriRef);
required_scheme!(Iri, Uri, AbsoluteIri, AbsoluteUri);

/// The absolute form of the types that may have a fragment.
macro_rules! to_absolute {
    ($($T:ident, $TBuf:ident => $Abs:ident, $AbsBuf:ident, $Ref:ident);*) => {$(
        impl<'a> $T<'a> {
            #[doc = concat!("This without its fragment, as an [`", stringify!($Abs), "`] (borrowing the same text).")]
            ///
            /// ```
            #[doc = concat!("let v = iri_grammar::", stringify!($T), "::parse(\"s://h/p?q#f\")?;")]
            /// assert_eq!(v.to_absolute(), "s://h/p?q");
            /// # Ok::<(), iri_grammar::ParseError>(())
            /// ```
            pub fn to_absolute(&self) -> $Abs<'a> {
                let v = self.without_fragment();
                $Abs {
                    text: v.text,
                    parts: v.parts,
                }
            }
        }

        impl<'a> From<$Abs<'a>> for $T<'a> {
            fn from(a: $Abs<'a>) -> $T<'a> {
                $T {
                    text: a.text,
                    parts: a.parts,
                }
            }
        }

        impl<'a> From<$Abs<'a>> for $Ref<'a> {
            fn from(a: $Abs<'a>) -> $Ref<'a> {
                $Ref {
                    text: a.text,
                    parts: a.parts,
                }
            }
        }

        /// Fails if there is a fragment (`to_absolute` drops it).
        impl<'a> TryFrom<$T<'a>> for $Abs<'a> {
            type Error = ParseError;
            fn try_from(v: $T<'a>) -> Result<$Abs<'a>, ParseError> {
                if v.parts.fragment.get().is_none() {
                    Ok($Abs {
                        text: v.text,
                        parts: v.parts,
                    })
                } else {
                    // The error, at the `#`.
                    $Abs::parse(v.text)
                }
            }
        }

        impl From<$AbsBuf> for $TBuf {
            fn from(a: $AbsBuf) -> $TBuf {
                $TBuf {
                    text: a.text,
                    parts: a.parts,
                }
            }
        }
    )*};
}

to_absolute!(
    Iri, IriBuf => AbsoluteIri, AbsoluteIriBuf, IriRef;
    Uri, UriBuf => AbsoluteUri, AbsoluteUriBuf, UriRef
);

impl<'a> From<AbsoluteUri<'a>> for AbsoluteIri<'a> {
    fn from(u: AbsoluteUri<'a>) -> AbsoluteIri<'a> {
        AbsoluteIri {
            text: u.text,
            parts: u.parts,
        }
    }
}

// Every URI is an IRI and every URI reference an IRI reference (RFC 3987
// §2: the IRI grammar extends the URI grammar), with the same components.
impl<'a> From<Uri<'a>> for Iri<'a> {
    fn from(u: Uri<'a>) -> Iri<'a> {
        Iri {
            text: u.text,
            parts: u.parts,
        }
    }
}

impl<'a> From<UriRef<'a>> for IriRef<'a> {
    fn from(u: UriRef<'a>) -> IriRef<'a> {
        IriRef {
            text: u.text,
            parts: u.parts,
        }
    }
}

impl<'a> From<Iri<'a>> for IriRef<'a> {
    fn from(i: Iri<'a>) -> IriRef<'a> {
        IriRef {
            text: i.text,
            parts: i.parts,
        }
    }
}

impl<'a> From<Uri<'a>> for UriRef<'a> {
    fn from(u: Uri<'a>) -> UriRef<'a> {
        UriRef {
            text: u.text,
            parts: u.parts,
        }
    }
}

impl From<UriBuf> for IriBuf {
    fn from(u: UriBuf) -> IriBuf {
        IriBuf {
            text: u.text,
            parts: u.parts,
        }
    }
}

impl From<UriRefBuf> for IriRefBuf {
    fn from(u: UriRefBuf) -> IriRefBuf {
        IriRefBuf {
            text: u.text,
            parts: u.parts,
        }
    }
}
