//! A builder that puts an IRI reference together from its parts, checking
//! each with its grammar rule.

use alloc::string::String;
use core::fmt;

use super::{find_bidi_formatting, percent_encode};
use crate::{rfc3986, rfc3987, IriBuf, IriRefBuf, MatchError, Recognizer};

/// A part of an IRI reference, as [`IriBuilder`] sets it.
///
/// ```
/// use iri_grammar::ops::{IriBuilder, Part};
///
/// let e = IriBuilder::new().port_str("80a").build().unwrap_err();
/// assert_eq!(e.part(), Part::Port);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Part {
    /// `scheme`.
    Scheme,
    /// `iuserinfo`.
    Userinfo,
    /// `ihost`.
    Host,
    /// `port`.
    Port,
    /// `ipath` (or one `isegment`).
    Path,
    /// `iquery`.
    Query,
    /// `ifragment`.
    Fragment,
}

impl Part {
    fn name(self) -> &'static str {
        match self {
            Part::Scheme => "scheme",
            Part::Userinfo => "user information",
            Part::Host => "host",
            Part::Port => "port",
            Part::Path => "path",
            Part::Query => "query",
            Part::Fragment => "fragment",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Problem {
    Rule(MatchError),
    Bidi(usize, char),
    Structure(&'static str),
    /// Percent-encoded octets in a registered name that are not UTF-8,
    /// from the byte offset of the first triplet of the bad sequence.
    HostNotUtf8(usize),
}

/// Why [`IriBuilder`] could not build: which part, and what is wrong with it
/// (it does not match its rule, it holds a bidi formatting character, or
/// it does not fit with the other parts).
///
/// ```
/// use iri_grammar::ops::{IriBuilder, Part};
///
/// let e = IriBuilder::new().host("example.org").path("a/b").build().unwrap_err();
/// assert_eq!(e.part(), Part::Path);
/// assert!(e.to_string().contains("with an authority"));
/// let e = IriBuilder::new().push_segment("a/b").build().unwrap_err();
/// assert_eq!(e.match_error().map(|m| (m.rule(), m.offset())), Some(("isegment", 1)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildError {
    part: Part,
    problem: Problem,
}

impl BuildError {
    /// The part that is wrong.
    ///
    /// ```
    /// use iri_grammar::ops::{IriBuilder, Part};
    ///
    /// assert_eq!(IriBuilder::new().query("a#b").build().unwrap_err().part(), Part::Query);
    /// ```
    pub fn part(&self) -> Part {
        self.part
    }

    /// Where the part stopped matching its rule, if that is the problem.
    ///
    /// ```
    /// use iri_grammar::ops::IriBuilder;
    ///
    /// let e = IriBuilder::new().scheme("ht tp").build().unwrap_err();
    /// assert_eq!(e.match_error().map(|m| m.offset()), Some(2));
    /// // Parts that do not fit together are not a rule's failure.
    /// assert_eq!(IriBuilder::new().port(80).build().unwrap_err().match_error(), None);
    /// ```
    pub fn match_error(&self) -> Option<MatchError> {
        match self.problem {
            Problem::Rule(e) => Some(e),
            _ => None,
        }
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid {}: ", self.part.name())?;
        match self.problem {
            Problem::Rule(e) => write!(
                f,
                "does not match {}:{} (stops at byte {})",
                e.grammar(),
                e.rule(),
                e.offset()
            ),
            Problem::Bidi(at, c) => write!(
                f,
                "bidirectional formatting character U+{:04X} at byte {at} (RFC 3987 §4.1)",
                u32::from(c)
            ),
            Problem::Structure(why) => f.write_str(why),
            Problem::HostNotUtf8(at) => write!(
                f,
                "the percent-encoded octets at byte {at} are not UTF-8; RFC 3986 §3.2.2: URI producing \
                 applications must not use percent-encoding in host unless it is used to represent a \
                 UTF-8 character sequence"
            ),
        }
    }
}

impl core::error::Error for BuildError {}

/// The byte offset of the first percent-encoded octet of `host` that is not
/// part of a valid UTF-8 sequence (RFC 3986 §3.2.2), if any.
pub(crate) fn non_utf8_triplet(host: &str) -> Option<usize> {
    let b = host.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if super::pct::triplet_at(b, i).is_none() {
            i += 1;
            continue;
        }
        let start = i;
        let mut octets = alloc::vec::Vec::new();
        while let Some(o) = super::pct::triplet_at(b, i) {
            octets.push(o);
            i += 3;
        }
        if let Err(e) = core::str::from_utf8(&octets) {
            return Some(start + 3 * e.valid_up_to());
        }
    }
    None
}

/// Builds an IRI reference from its parts. Each setter checks its part with
/// the part's generated recognizer (`scheme`, `iuserinfo`, `ihost`, `port`,
/// `ipath`, `isegment`, `iquery`, `ifragment`) and rejects the bidi
/// formatting characters of RFC 3987 §4.1; the `*_encoded` setters take
/// any text and percent-encode what the part cannot hold as it is (with
/// [`percent_encode`], so `%` too). [`IriBuilder::build`] also checks that
/// the parts fit together (RFC 3986 §3: a path after an authority is empty
/// or starts with `/`; without an authority it does not start with `//`;
/// without a scheme its first segment has no `:`). The first problem is
/// the one reported.
///
/// ```
/// use iri_grammar::ops::IriBuilder;
///
/// let iri = IriBuilder::new()
///     .scheme("https")
///     .host("例え.jp")
///     .port(8443)
///     .push_segment("引き出し")
///     .push_segment_encoded("a/b c")
///     .query_encoded("q=1#2")
///     .fragment("top")
///     .build_iri()?;
/// assert_eq!(iri.as_str(), "https://例え.jp:8443/引き出し/a%2Fb%20c?q=1%232#top");
/// # Ok::<(), iri_grammar::ops::BuildError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct IriBuilder {
    scheme: Option<String>,
    userinfo: Option<String>,
    host: Option<String>,
    port: Option<String>,
    path: String,
    query: Option<String>,
    fragment: Option<String>,
    error: Option<BuildError>,
}

impl IriBuilder {
    /// An empty builder (which builds the empty relative reference).
    ///
    /// ```
    /// assert_eq!(iri_grammar::ops::IriBuilder::new().build().unwrap().as_str(), "");
    /// ```
    pub fn new() -> IriBuilder {
        IriBuilder::default()
    }

    /// Checks `text` against `rule`; on failure records the first error.
    fn checked(&mut self, part: Part, rule: &Recognizer, text: &str) -> Option<String> {
        let problem = match (rule.validate(text), find_bidi_formatting(text)) {
            (Err(e), Some((at, _))) if e.offset() < at => Problem::Rule(e),
            (_, Some((at, c))) => Problem::Bidi(at, c),
            (Err(e), None) => Problem::Rule(e),
            (Ok(()), None) => return Some(String::from(text)),
        };
        self.error.get_or_insert(BuildError { part, problem });
        None
    }

    /// Sets the scheme (rule `scheme`).
    ///
    /// ```
    /// use iri_grammar::ops::IriBuilder;
    ///
    /// assert_eq!(IriBuilder::new().scheme("urn").path("isbn:0451450523").build()?.as_str(), "urn:isbn:0451450523");
    /// assert!(IriBuilder::new().scheme("1http").build().is_err());
    /// # Ok::<(), iri_grammar::ops::BuildError>(())
    /// ```
    pub fn scheme(mut self, scheme: &str) -> IriBuilder {
        self.scheme = self.checked(Part::Scheme, &rfc3987::SCHEME, scheme);
        self
    }

    /// Sets the user information (rule `iuserinfo`); it needs a host.
    ///
    /// ```
    /// use iri_grammar::ops::IriBuilder;
    ///
    /// let r = IriBuilder::new().userinfo("me:pw").host("h").build()?;
    /// assert_eq!(r.as_str(), "//me:pw@h");
    /// # Ok::<(), iri_grammar::ops::BuildError>(())
    /// ```
    pub fn userinfo(mut self, userinfo: &str) -> IriBuilder {
        self.userinfo = self.checked(Part::Userinfo, &rfc3987::IUSERINFO, userinfo);
        self
    }

    /// Sets the user information from any text, percent-encoding what
    /// `iuserinfo` cannot hold.
    ///
    /// ```
    /// use iri_grammar::ops::IriBuilder;
    ///
    /// let r = IriBuilder::new().userinfo_encoded("a@b").host("h").build()?;
    /// assert_eq!(r.as_str(), "//a%40b@h");
    /// # Ok::<(), iri_grammar::ops::BuildError>(())
    /// ```
    pub fn userinfo_encoded(self, userinfo: &str) -> IriBuilder {
        self.userinfo(&percent_encode(userinfo, &rfc3987::IUSERINFO))
    }

    /// Sets the host (rule `ihost`: an IP literal in brackets, an IPv4
    /// address or a registered name). An IPv6 or IPvFuture address without
    /// its brackets gets them.
    ///
    /// ```
    /// use iri_grammar::ops::IriBuilder;
    ///
    /// assert_eq!(IriBuilder::new().host("::1").build()?.as_str(), "//[::1]");
    /// assert_eq!(IriBuilder::new().host("[v7.x]").build()?.as_str(), "//[v7.x]");
    /// assert!(IriBuilder::new().host("a b").build().is_err());
    /// // Percent-encoding in a host must be UTF-8 (RFC 3986 §3.2.2).
    /// assert_eq!(IriBuilder::new().host("a%C3%BCb").build()?.as_str(), "//a%C3%BCb");
    /// assert!(IriBuilder::new().scheme("http").host("a%FFb").path("/").build().is_err());
    /// # Ok::<(), iri_grammar::ops::BuildError>(())
    /// ```
    pub fn host(mut self, host: &str) -> IriBuilder {
        self.host = if rfc3987::IPV6ADDRESS.is_match(host) || rfc3987::IPV_FUTURE.is_match(host) {
            Some(alloc::format!("[{host}]"))
        } else {
            self.checked(Part::Host, &rfc3987::IHOST, host)
        };
        if let Some(at) = self.host.as_deref().and_then(non_utf8_triplet) {
            self.host = None;
            self.error.get_or_insert(BuildError {
                part: Part::Host,
                problem: Problem::HostNotUtf8(at),
            });
        }
        self
    }

    /// Sets the host to a registered name made of any text,
    /// percent-encoding what `ireg-name` cannot hold.
    ///
    /// ```
    /// use iri_grammar::ops::IriBuilder;
    ///
    /// assert_eq!(IriBuilder::new().host_encoded("a b/c").build()?.as_str(), "//a%20b%2Fc");
    /// # Ok::<(), iri_grammar::ops::BuildError>(())
    /// ```
    pub fn host_encoded(self, name: &str) -> IriBuilder {
        self.host(&percent_encode(name, &rfc3987::IREG_NAME))
    }

    /// Sets the port.
    ///
    /// ```
    /// use iri_grammar::ops::IriBuilder;
    ///
    /// assert_eq!(IriBuilder::new().host("h").port(8080).build()?.as_str(), "//h:8080");
    /// # Ok::<(), iri_grammar::ops::BuildError>(())
    /// ```
    pub fn port(self, port: u16) -> IriBuilder {
        self.port_str(&alloc::format!("{port}"))
    }

    /// Sets the port as text (rule `port`: digits, possibly none); it needs
    /// a host.
    ///
    /// ```
    /// use iri_grammar::ops::IriBuilder;
    ///
    /// assert_eq!(IriBuilder::new().host("h").port_str("").build()?.as_str(), "//h:");
    /// assert!(IriBuilder::new().port_str("80").build().is_err()); // no host
    /// # Ok::<(), iri_grammar::ops::BuildError>(())
    /// ```
    pub fn port_str(mut self, port: &str) -> IriBuilder {
        self.port = self.checked(Part::Port, &rfc3986::PORT, port);
        self
    }

    /// Sets the whole path (rule `ipath`).
    ///
    /// ```
    /// use iri_grammar::ops::IriBuilder;
    ///
    /// assert_eq!(IriBuilder::new().scheme("s").path("/a/b;c").build()?.as_str(), "s:/a/b;c");
    /// assert!(IriBuilder::new().path("a b").build().is_err());
    /// # Ok::<(), iri_grammar::ops::BuildError>(())
    /// ```
    pub fn path(mut self, path: &str) -> IriBuilder {
        self.path = self
            .checked(Part::Path, &rfc3987::IPATH, path)
            .unwrap_or_default();
        self
    }

    /// Appends `/` and a segment (rule `isegment`) to the path.
    ///
    /// ```
    /// use iri_grammar::ops::IriBuilder;
    ///
    /// let r = IriBuilder::new().push_segment("a").push_segment("").push_segment("ü").build()?;
    /// assert_eq!(r.as_str(), "/a//ü");
    /// # Ok::<(), iri_grammar::ops::BuildError>(())
    /// ```
    pub fn push_segment(mut self, segment: &str) -> IriBuilder {
        if let Some(s) = self.checked(Part::Path, &rfc3987::ISEGMENT, segment) {
            self.path.push('/');
            self.path.push_str(&s);
        }
        self
    }

    /// Appends `/` and a segment made of any text, percent-encoding what
    /// `isegment` cannot hold (`/`, `?`, `#`, `%`, spaces, ...).
    ///
    /// ```
    /// use iri_grammar::ops::IriBuilder;
    ///
    /// let r = IriBuilder::new().push_segment_encoded("50% of a/b?").build()?;
    /// assert_eq!(r.as_str(), "/50%25%20of%20a%2Fb%3F");
    /// # Ok::<(), iri_grammar::ops::BuildError>(())
    /// ```
    pub fn push_segment_encoded(self, segment: &str) -> IriBuilder {
        self.push_segment(&percent_encode(segment, &rfc3987::ISEGMENT))
    }

    /// Sets the query (rule `iquery`).
    ///
    /// ```
    /// use iri_grammar::ops::IriBuilder;
    ///
    /// assert_eq!(IriBuilder::new().query("a=1&b=/?").build()?.as_str(), "?a=1&b=/?");
    /// # Ok::<(), iri_grammar::ops::BuildError>(())
    /// ```
    pub fn query(mut self, query: &str) -> IriBuilder {
        self.query = self.checked(Part::Query, &rfc3987::IQUERY, query);
        self
    }

    /// Sets the query from any text, percent-encoding what `iquery` cannot
    /// hold (it can hold `&` and `=`: encode names and values yourself with
    /// [`percent_encode`] and a stricter rule if they may contain those).
    ///
    /// ```
    /// use iri_grammar::ops::IriBuilder;
    ///
    /// assert_eq!(IriBuilder::new().query_encoded("a b#c").build()?.as_str(), "?a%20b%23c");
    /// # Ok::<(), iri_grammar::ops::BuildError>(())
    /// ```
    pub fn query_encoded(self, query: &str) -> IriBuilder {
        self.query(&percent_encode(query, &rfc3987::IQUERY))
    }

    /// Sets the fragment (rule `ifragment`).
    ///
    /// ```
    /// use iri_grammar::ops::IriBuilder;
    ///
    /// assert_eq!(IriBuilder::new().fragment("sec-2").build()?.as_str(), "#sec-2");
    /// assert!(IriBuilder::new().fragment("a#b").build().is_err());
    /// # Ok::<(), iri_grammar::ops::BuildError>(())
    /// ```
    pub fn fragment(mut self, fragment: &str) -> IriBuilder {
        self.fragment = self.checked(Part::Fragment, &rfc3987::IFRAGMENT, fragment);
        self
    }

    /// Sets the fragment from any text, percent-encoding what `ifragment`
    /// cannot hold.
    ///
    /// ```
    /// use iri_grammar::ops::IriBuilder;
    ///
    /// assert_eq!(IriBuilder::new().fragment_encoded("a#b").build()?.as_str(), "#a%23b");
    /// # Ok::<(), iri_grammar::ops::BuildError>(())
    /// ```
    pub fn fragment_encoded(self, fragment: &str) -> IriBuilder {
        self.fragment(&percent_encode(fragment, &rfc3987::IFRAGMENT))
    }

    /// Puts the parts together into an IRI reference.
    ///
    /// ```
    /// use iri_grammar::ops::{IriBuilder, Part};
    ///
    /// let r = IriBuilder::new().path("a:b").build();
    /// assert_eq!(r.unwrap_err().part(), Part::Path); // would read as a scheme
    /// let r = IriBuilder::new().path("./a:b").build()?;
    /// assert_eq!(r.as_str(), "./a:b");
    /// # Ok::<(), iri_grammar::ops::BuildError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The first part that did not match its rule, or that does not fit
    /// with the others.
    pub fn build(self) -> Result<IriRefBuf, BuildError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let structure = |part, why| {
            Err(BuildError {
                part,
                problem: Problem::Structure(why),
            })
        };
        if self.host.is_none() && (self.userinfo.is_some() || self.port.is_some()) {
            return structure(Part::Host, "user information and port need a host");
        }
        if self.host.is_some() && !(self.path.is_empty() || self.path.starts_with('/')) {
            return structure(
                Part::Path,
                "a path with an authority must be empty or start with \"/\"",
            );
        }
        if self.host.is_none() && self.path.starts_with("//") {
            return structure(
                Part::Path,
                "a path without an authority cannot start with \"//\" (it would read as one)",
            );
        }
        if self.scheme.is_none()
            && self.host.is_none()
            && self.path.split('/').next().is_some_and(|s| s.contains(':'))
        {
            return structure(
                Part::Path,
                "the first segment of a relative path cannot contain \":\" (it would read as a scheme; \
                 start the path with \"./\")",
            );
        }
        let mut out = String::new();
        if let Some(s) = &self.scheme {
            out.push_str(s);
            out.push(':');
        }
        if let Some(h) = &self.host {
            out.push_str("//");
            if let Some(u) = &self.userinfo {
                out.push_str(u);
                out.push('@');
            }
            out.push_str(h);
            if let Some(p) = &self.port {
                out.push(':');
                out.push_str(p);
            }
        }
        out.push_str(&self.path);
        if let Some(q) = &self.query {
            out.push('?');
            out.push_str(q);
        }
        if let Some(f) = &self.fragment {
            out.push('#');
            out.push_str(f);
        }
        Ok(super::iri_ref_buf("IriBuilder::build", out))
    }

    /// Like [`IriBuilder::build`], for an IRI: the scheme is required.
    ///
    /// ```
    /// use iri_grammar::ops::{IriBuilder, Part};
    ///
    /// assert_eq!(IriBuilder::new().path("/x").build_iri().unwrap_err().part(), Part::Scheme);
    /// assert_eq!(IriBuilder::new().scheme("s").build_iri()?.as_str(), "s:");
    /// # Ok::<(), iri_grammar::ops::BuildError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`IriBuilder::build`], and if there is no scheme.
    pub fn build_iri(self) -> Result<IriBuf, BuildError> {
        if self.error.is_none() && self.scheme.is_none() {
            return Err(BuildError {
                part: Part::Scheme,
                problem: Problem::Structure("an IRI needs a scheme"),
            });
        }
        let r = self.build()?;
        Ok(super::iri_buf("IriBuilder::build_iri", r.into_string()))
    }
}
