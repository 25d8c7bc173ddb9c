//! Normalization and comparison: RFC 3987 §5.3 (the comparison ladder) and
//! RFC 3986 §6.2 for URIs.

use alloc::string::{String, ToString};

use super::pct::{recode, triplet_at, KeptAscii};
use super::{char_matches, comps, is_bidi_formatting, recompose, remove_dot_segments, Comps};
use crate::{rfc3986, rfc3987, Host, Iri, IriBuf, IriRef, IriRefBuf, Uri, UriBuf, UriRef, UriRefBuf};

/// The rungs of the comparison ladder (RFC 3987 §5.3, RFC 3986 §6.2), from
/// the cheapest to the one with the fewest false negatives. Protocol-based
/// normalization (§5.3.4) needs the network and is not here.
///
/// ```
/// use iri_grammar::ops::{equivalent, Rung};
/// use iri_grammar::IriRef;
///
/// let a = IriRef::parse("http://example.com")?;
/// let b = IriRef::parse("HTTP://example.com:80/")?;
/// assert!(!equivalent(a, b, Rung::SimpleString));
/// assert!(!equivalent(a, b, Rung::SyntaxBased));
/// assert!(equivalent(a, b, Rung::SchemeBased));
/// assert!(Rung::SimpleString < Rung::SchemeBased);
/// # Ok::<(), iri_grammar::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rung {
    /// §5.3.1 Simple String Comparison: the same characters. What
    /// applications that use IRIs as identity tokens MUST use (§5.1).
    SimpleString,
    /// §5.3.2 Syntax-Based Normalization, then string comparison (see
    /// [`Normalizer::syntax_based`]).
    SyntaxBased,
    /// §5.3.3 Scheme-Based Normalization on top of syntax-based, then string
    /// comparison (see [`Normalizer::scheme_based`]).
    SchemeBased,
}

impl Rung {
    /// The normalizer of this rung (none for simple string comparison).
    ///
    /// ```
    /// use iri_grammar::ops::{Normalizer, Rung};
    ///
    /// assert_eq!(Rung::SimpleString.normalizer(), None);
    /// assert_eq!(Rung::SchemeBased.normalizer(), Some(Normalizer::scheme_based()));
    /// ```
    pub fn normalizer(self) -> Option<Normalizer> {
        match self {
            Rung::SimpleString => None,
            Rung::SyntaxBased => Some(Normalizer::syntax_based()),
            Rung::SchemeBased => Some(Normalizer::scheme_based()),
        }
    }
}

/// Whether `a` and `b` are equivalent at `rung` of the comparison ladder:
/// equal after that rung's normalization. Fragments take part (§5.3.3:
/// "The fragment component is not subject to any scheme-based
/// normalization"); relative references are compared as they are, though
/// §5.1 advises resolving them first.
///
/// ```
/// use iri_grammar::ops::{equivalent, Rung};
/// use iri_grammar::IriRef;
///
/// // §5.3.2's example.
/// let a = IriRef::parse("example://a/b/c/%7Bfoo%7D/ros\u{E9}")?;
/// let b = IriRef::parse("eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9")?;
/// assert!(equivalent(a, b, Rung::SyntaxBased));
/// assert!(!equivalent(a, b, Rung::SimpleString));
/// # Ok::<(), iri_grammar::ParseError>(())
/// ```
pub fn equivalent(a: IriRef<'_>, b: IriRef<'_>, rung: Rung) -> bool {
    match rung.normalizer() {
        None => a.as_str() == b.as_str(),
        Some(n) => n.normalize(a) == n.normalize(b),
    }
}

/// A normalizer: syntax-based (RFC 3987 §5.3.2, RFC 3986 §6.2.2), maybe
/// with NFC, maybe with scheme-based normalization on top (§5.3.3).
///
/// Syntax-based normalization, in order:
///
/// - Percent-encodings (§5.3.2.3, RFC 3986 §6.2.2.2): octets that are UTF-8
///   for an `iunreserved` character are decoded (for URIs: the ASCII
///   `unreserved` ones only); the others get uppercase hex digits
///   (§5.3.2.1). Octets that are not strictly valid UTF-8 stay encoded. Not
///   decoded either: the bidi formatting characters §4.1 forbids, and
///   private-use characters, which are not `iunreserved` (they are allowed,
///   as themselves, only in the query).
/// - Character normalization (§5.3.2.2): off by default, as §5.3.2.2
///   wants for comparison ("Equivalence of IRIs MUST rely on the
///   assumption that IRIs are appropriately pre-character-normalized rather
///   than apply character normalization when comparing two IRIs"); see
///   `Normalizer::nfc` (feature `nfc`).
/// - Case (§5.3.2.1): the scheme is lowercased, and so is the host if it is
///   a "US-ASCII only host" (an IRI host with non-ASCII characters, as
///   written or percent-encoded, is an IDN whose case is a matter for
///   scheme-based normalization). A URI's host is lowercased in any case
///   (RFC 3986 §6.2.2.1), outside its percent-encodings. An IPv6 address is
///   written in its RFC 5952 canonical form (the same address; e.g.
///   `[0:0::1]` → `[::1]`), an IPvFuture literal in lowercase.
/// - An empty port is removed with its `:` (RFC 3986 §3.2.3: "URI producers
///   and normalizers should omit the port component and its ":" delimiter
///   if port is empty").
/// - Dot segments (§5.3.2.4): removed with `remove_dot_segments` when there
///   is a scheme, after decoding (so `%2E%2E` counts); relative references
///   keep theirs, which only resolution against a base can settle. A path
///   that would then start with `//` without an authority gets a `/.` in
///   front (see [`resolve`](super::resolve)).
///
/// Scheme-based normalization (§5.3.3, RFC 3986 §6.2.3) adds, for the
/// schemes it knows:
///
/// | scheme | default port removed | empty path → `/` | other |
/// |---|---|---|---|
/// | `http`, `ws` | 80 | yes | |
/// | `https`, `wss` | 443 | yes | |
/// | `ftp` | 21 | no (RFC 1738 does not make them equal) | |
/// | `file` | — | — | host `localhost` (any case) → empty host (RFC 8089 §2, RFC 3986 §3.2.2: "no authority, an empty host, and "localhost" all mean the end-user's machine") |
/// | `mailto` | — | — | the domain of each address in the path (after its last `@`) in lowercase (RFC 6068 §6: domains are case-insensitive; local parts are not touched) |
///
/// The empty path is made `/` for http (RFC 9110 §4.2.3) and ws/wss
/// (RFC 6455 §3); `file:` without an authority is left alone (it is not
/// made `file:///`). Other schemes get syntax-based normalization only.
///
/// Every normalization here is idempotent.
///
/// ```
/// use iri_grammar::{ops::Normalizer, IriRef};
///
/// let r = IriRef::parse("HTTP://www.Example.com:80")?;
/// assert_eq!(Normalizer::syntax_based().normalize(r).as_str(), "http://www.example.com:80");
/// assert_eq!(Normalizer::scheme_based().normalize(r).as_str(), "http://www.example.com/");
/// # Ok::<(), iri_grammar::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Normalizer {
    scheme_based: bool,
    nfc: bool,
}

/// The default is [`Normalizer::scheme_based`], as for the types'
/// `normalize` methods and [`normalize`].
impl Default for Normalizer {
    fn default() -> Self {
        Normalizer::scheme_based()
    }
}

/// The schemes that scheme-based normalization knows, with their default
/// ports, and whether an empty path with an authority is the same as `/`.
const SCHEME_DEFAULT_PORTS: [(&str, u16, bool); 5] = [
    ("http", 80, true),
    ("https", 443, true),
    ("ws", 80, true),
    ("wss", 443, true),
    ("ftp", 21, false),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Uri,
    Iri,
}

/// Whether normalization decodes a percent-encoded `c`.
fn unreserved(c: char, mode: Mode) -> bool {
    if c.is_ascii() {
        char_matches(&rfc3986::UNRESERVED, c)
    } else {
        mode == Mode::Iri && !is_bidi_formatting(c) && char_matches(&rfc3987::IUNRESERVED, c)
    }
}

impl Normalizer {
    /// Syntax-based normalization (RFC 3987 §5.3.2), without NFC.
    ///
    /// ```
    /// use iri_grammar::{ops::Normalizer, IriRef};
    ///
    /// let r = IriRef::parse("http://example.com/%7E%41%73%63%69%69%21")?;
    /// assert_eq!(Normalizer::syntax_based().normalize(r).as_str(), "http://example.com/~Ascii%21");
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    pub const fn syntax_based() -> Normalizer {
        Normalizer {
            scheme_based: false,
            nfc: false,
        }
    }

    /// Syntax-based and then scheme-based normalization (RFC 3987 §5.3.3):
    /// see the table in [`Normalizer`]. Also [`Normalizer::default`].
    ///
    /// ```
    /// use iri_grammar::{ops::Normalizer, IriRef};
    ///
    /// let n = Normalizer::scheme_based();
    /// for s in ["http://example.com", "http://example.com/", "http://example.com:/", "http://example.com:80/"] {
    ///     assert_eq!(n.normalize(IriRef::parse(s)?).as_str(), "http://example.com/");
    /// }
    /// // Not for other schemes, and never the fragment or an empty query.
    /// assert_eq!(n.normalize(IriRef::parse("foo://example.com:80")?).as_str(), "foo://example.com:80");
    /// assert_eq!(n.normalize(IriRef::parse("http://example.com?#")?).as_str(), "http://example.com/?#");
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    pub const fn scheme_based() -> Normalizer {
        Normalizer {
            scheme_based: true,
            nfc: false,
        }
    }

    /// Whether to apply Unicode Normalization Form C too (RFC 3987
    /// §5.3.2.2; for IRIs only, URIs are ASCII).
    ///
    /// NFC is applied to each component after decoding, to every run of
    /// non-ASCII characters together with the ASCII letter or digit just
    /// before it (so `e` + U+0301 becomes `é`). It is kept from changing an
    /// IRI's structure: a delimiter never combines with a following mark
    /// (`=` + U+0338 stays, where NFC alone would make `≠`), and an ASCII
    /// character other than a letter or digit that NFC makes out of a
    /// non-ASCII one is percent-encoded (U+037E GREEK QUESTION MARK is
    /// canonically `;`, and becomes `%3B`).
    ///
    /// ```
    /// use iri_grammar::{ops::Normalizer, IriRef};
    ///
    /// let n = Normalizer::syntax_based().nfc(true);
    /// let r = IriRef::parse("http://www.example.org/re\u{301}sume\u{301}.html")?;
    /// assert_eq!(n.normalize(r).as_str(), "http://www.example.org/r\u{E9}sum\u{E9}.html");
    /// assert_eq!(n.normalize(IriRef::parse("?a=\u{338}b\u{37E}")?).as_str(), "?a=\u{338}b%3B");
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    #[cfg(feature = "nfc")]
    pub const fn nfc(mut self, on: bool) -> Normalizer {
        self.nfc = on;
        self
    }

    /// Normalizes an IRI reference.
    ///
    /// ```
    /// use iri_grammar::{ops::Normalizer, IriRef};
    ///
    /// let r = IriRef::parse("eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9")?;
    /// assert_eq!(Normalizer::syntax_based().normalize(r).as_str(), "example://a/b/c/%7Bfoo%7D/ros\u{E9}");
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    pub fn normalize(&self, r: IriRef<'_>) -> IriRefBuf {
        super::iri_ref_buf("normalize", self.run(&comps!(r), Mode::Iri))
    }

    /// Normalizes a URI reference (RFC 3986 §6.2.2, §6.2.3): as
    /// [`Normalizer::normalize`], but only unreserved ASCII characters are
    /// decoded, and the host is lowercased even if it has percent-encoded
    /// non-ASCII octets.
    ///
    /// ```
    /// use iri_grammar::{ops::Normalizer, UriRef};
    ///
    /// let r = UriRef::parse("HTTP://%45XAMPLE.%43Om/%CE%B1")?;
    /// assert_eq!(Normalizer::syntax_based().normalize_uri(r).as_str(), "http://example.com/%CE%B1");
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    pub fn normalize_uri(&self, r: UriRef<'_>) -> UriRefBuf {
        super::uri_ref_buf("normalize_uri", self.run(&comps!(r), Mode::Uri))
    }

    fn component(&self, text: &str, mode: Mode) -> String {
        let mut out = String::with_capacity(text.len());
        recode(text, &mut out, KeptAscii::Uppercase, &|c| unreserved(c, mode));
        #[cfg(feature = "nfc")]
        if self.nfc && mode == Mode::Iri && !out.is_ascii() {
            out = nfc(&out);
        }
        out
    }

    fn host(&self, host: Host<'_>, mode: Mode) -> String {
        match host {
            Host::Ipv4(a) => String::from(a),
            Host::Ipv6(a) => {
                let canonical = match a.parse::<core::net::Ipv6Addr>() {
                    Ok(addr) => addr.to_string(),
                    Err(_) => a.to_ascii_lowercase(),
                };
                alloc::format!("[{canonical}]")
            }
            Host::IpvFuture(a) => alloc::format!("[{}]", a.to_ascii_lowercase()),
            Host::RegName(name) => {
                let name = self.component(name, mode);
                let ascii_only = name.is_ascii() && !has_high_octet(&name);
                if mode == Mode::Uri || ascii_only {
                    lowercase_outside_triplets(&name)
                } else {
                    name
                }
            }
        }
    }

    fn run(&self, c: &Comps<'_>, mode: Mode) -> String {
        let scheme = c.scheme.map(str::to_ascii_lowercase);
        let known = scheme.as_deref().and_then(|s| {
            SCHEME_DEFAULT_PORTS
                .iter()
                .find(|(name, _, _)| *name == s && self.scheme_based)
        });
        let default_port = known.map(|&(_, port, _)| port);
        let slash_path = known.is_some_and(|&(_, _, slash)| slash);
        let scheme_is = |name: &str| self.scheme_based && scheme.as_deref() == Some(name);
        let authority = c.host.map(|host| {
            let mut a = String::new();
            if let Some(u) = c.userinfo {
                a.push_str(&self.component(u, mode));
                a.push('@');
            }
            let host = self.host(host, mode);
            let localhost = host.eq_ignore_ascii_case("localhost");
            if !(localhost && scheme_is("file") && c.userinfo.is_none() && c.port.is_none()) {
                a.push_str(&host);
            }
            if let Some(p) = c.port.filter(|p| !p.is_empty()) {
                if default_port.is_none() || p.parse::<u16>().ok() != default_port {
                    a.push(':');
                    a.push_str(p);
                }
            }
            a
        });
        let mut path = self.component(c.path, mode);
        if scheme.is_some() {
            path = remove_dot_segments(&path);
        }
        if slash_path && authority.is_some() && path.is_empty() {
            path.push('/');
        }
        if scheme_is("mailto") {
            path = mailto_domains_lowercase(&path);
        }
        let query = c.query.map(|q| self.component(q, mode));
        let fragment = c.fragment.map(|f| self.component(f, mode));
        let mut out = String::with_capacity(c.path.len() + 32);
        recompose(
            &mut out,
            scheme.as_deref(),
            authority.as_deref(),
            &path,
            query.as_deref(),
            fragment.as_deref(),
        );
        out
    }
}

/// A mailto path (`addr-spec *("," addr-spec)`, RFC 6068 §2) with the
/// domain of each address, after its last `@`, in lowercase (ASCII letters
/// outside percent-encodings).
fn mailto_domains_lowercase(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for (i, addr) in path.split(',').enumerate() {
        if i > 0 {
            out.push(',');
        }
        match addr.rfind('@') {
            Some(at) => {
                out.push_str(&addr[..=at]);
                out.push_str(&lowercase_outside_triplets(&addr[at + 1..]));
            }
            None => out.push_str(addr),
        }
    }
    out
}

/// Whether `s` has a `%HH` triplet for a non-ASCII octet.
fn has_high_octet(s: &str) -> bool {
    let b = s.as_bytes();
    (0..b.len()).any(|i| triplet_at(b, i).is_some_and(|o| o >= 0x80))
}

/// `s` with ASCII letters lowercased, except the hex digits of `%HH`
/// triplets (which stay uppercase).
fn lowercase_outside_triplets(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    for c in s.chars() {
        let in_triplet =
            (i >= 1 && triplet_at(b, i - 1).is_some()) || (i >= 2 && triplet_at(b, i - 2).is_some());
        out.push(if in_triplet { c } else { c.to_ascii_lowercase() });
        i += c.len_utf8();
    }
    out
}

/// NFC for one component, kept from changing the IRI's structure (see
/// [`Normalizer::nfc`]).
#[cfg(feature = "nfc")]
fn nfc(s: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while let Some(c) = s[i..].chars().next() {
        if triplet_at(b, i).is_some() {
            out.push_str(&s[i..i + 3]);
            i += 3;
            continue;
        }
        let after = i + c.len_utf8();
        let mark_follows = s[after..].chars().next().is_some_and(|n| !n.is_ascii());
        if c.is_ascii() && !(c.is_ascii_alphanumeric() && mark_follows) {
            out.push(c);
            i = after;
            continue;
        }
        let end = s[after..]
            .find(|n: char| n.is_ascii())
            .map_or(s.len(), |k| after + k);
        for n in s[i..end].nfc() {
            if n.is_ascii() && !n.is_ascii_alphanumeric() {
                super::pct::push_pct(&mut out, n as u8);
            } else {
                out.push(n);
            }
        }
        i = end;
    }
    out
}

/// Scheme-based normalization of an IRI reference (RFC 3987 §5.3.3, on
/// top of syntax-based, §5.3.2): [`Normalizer::scheme_based`]`().normalize(r)`.
/// See [`Normalizer`] for the steps; [`Normalizer::syntax_based`] leaves
/// default ports and the like alone.
///
/// ```
/// use iri_grammar::{ops::normalize, IriRef};
///
/// let r = IriRef::parse("HTTP://example.com:80?a=%CE%B1&b=%CE%CE%B1%B1")?;
/// assert_eq!(normalize(r).as_str(), "http://example.com/?a=α&b=%CEα%B1");
/// # Ok::<(), iri_grammar::ParseError>(())
/// ```
pub fn normalize(r: IriRef<'_>) -> IriRefBuf {
    Normalizer::scheme_based().normalize(r)
}

/// Scheme-based normalization of a URI reference (RFC 3986 §6.2.2 and
/// §6.2.3): [`Normalizer::scheme_based`]`().normalize_uri(r)`.
///
/// ```
/// use iri_grammar::{ops::normalize_uri, UriRef};
///
/// let r = UriRef::parse("HTTP://a:b@HOST:80/./1/2/../%41?abc#def")?;
/// assert_eq!(normalize_uri(r).as_str(), "http://a:b@host/1/A?abc#def");
/// # Ok::<(), iri_grammar::ParseError>(())
/// ```
pub fn normalize_uri(r: UriRef<'_>) -> UriRefBuf {
    Normalizer::scheme_based().normalize_uri(r)
}

impl IriRef<'_> {
    /// Scheme-based normalization (RFC 3987 §5.3.3, which includes the
    /// syntax-based steps of §5.3.2): [`normalize`]. For syntax-based
    /// normalization alone, use [`Normalizer::syntax_based`].
    ///
    /// ```
    /// let r = iri_grammar::IriRef::parse("HTTPs://EXaMPLE.COM:443/pA/Th?Query#Frag")?;
    /// assert_eq!(r.normalize().as_str(), "https://example.com/pA/Th?Query#Frag");
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    pub fn normalize(&self) -> IriRefBuf {
        normalize(*self)
    }
}

impl Iri<'_> {
    /// Scheme-based normalization (RFC 3987 §5.3.3 on top of §5.3.2); see
    /// [`Normalizer`].
    ///
    /// ```
    /// let iri = iri_grammar::Iri::parse("scheme:/a/b/../..//c")?;
    /// assert_eq!(iri.normalize().as_str(), "scheme:/.//c");
    /// let iri = iri_grammar::Iri::parse("WSS://Example.ORG:443")?;
    /// assert_eq!(iri.normalize().as_str(), "wss://example.org/");
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    pub fn normalize(&self) -> IriBuf {
        let n = Normalizer::scheme_based();
        super::iri_buf("Iri::normalize", n.run(&comps!(*self), Mode::Iri))
    }
}

impl UriRef<'_> {
    /// Scheme-based normalization (RFC 3986 §6.2.3 on top of §6.2.2):
    /// [`normalize_uri`].
    ///
    /// ```
    /// let r = iri_grammar::UriRef::parse("//[0:0:0:0:0:ffff:192.0.2.1]/%7e")?;
    /// assert_eq!(r.normalize().as_str(), "//[::ffff:192.0.2.1]/~");
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    pub fn normalize(&self) -> UriRefBuf {
        normalize_uri(*self)
    }
}

impl Uri<'_> {
    /// Scheme-based normalization (RFC 3986 §6.2.3 on top of §6.2.2).
    ///
    /// ```
    /// let uri = iri_grammar::Uri::parse("https://example.com:/a/b/c/.%2e/d")?;
    /// assert_eq!(uri.normalize().as_str(), "https://example.com/a/b/d");
    /// let uri = iri_grammar::Uri::parse("file://LocalHost/etc/hosts")?;
    /// assert_eq!(uri.normalize().as_str(), "file:///etc/hosts");
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    pub fn normalize(&self) -> UriBuf {
        let n = Normalizer::scheme_based();
        super::uri_buf("Uri::normalize", n.run(&comps!(*self), Mode::Uri))
    }
}
