//! Helpers shared by the fuzz targets in `fuzz_targets/`.

use iri_grammar::rfc3987::ast as ast3987;
use iri_grammar::{Host, IriRef, UriRef};

/// The bidirectional formatting characters that RFC 3987 §4.1 forbids in
/// IRIs ("IRIs MUST NOT contain bidirectional formatting characters (LRM,
/// RLM, LRE, RLE, LRO, RLO, and PDF)"): the grammar of §2.2 allows them
/// (they are `ucschar`s), the strict `Iri`/`IriRef` types reject them.
pub const BIDI_FORMATTING: [char; 7] = [
    '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}',
];

/// The first bidi formatting character of `s` and its byte offset.
pub fn first_bidi(s: &str) -> Option<(usize, char)> {
    s.char_indices().find(|(_, c)| BIDI_FORMATTING.contains(c))
}

/// The byte offset of `part` in `input`, if `part` is a slice of `input`
/// (same allocation, inside its bounds).
pub fn offset_in(input: &str, part: &str) -> Option<usize> {
    let base = input.as_ptr() as usize;
    let p = part.as_ptr() as usize;
    (p >= base && p + part.len() <= base + input.len()).then(|| p - base)
}

/// Walks `input` from `start`, checking that the pieces given one after the
/// other are exactly the next bytes: literals by value, parts by value *and*
/// by position (a part must be the very slice of `input` at the cursor, not
/// an equal string from elsewhere).
pub struct Cursor<'a> {
    input: &'a str,
    pos: usize,
    what: &'static str,
}

impl<'a> Cursor<'a> {
    /// A cursor over `input[start..]`; `what` names the check in panics.
    pub fn new(input: &'a str, start: usize, what: &'static str) -> Self {
        Cursor {
            input,
            pos: start,
            what,
        }
    }

    /// The next bytes are the literal `lit`.
    pub fn lit(&mut self, lit: &str) -> &mut Self {
        assert!(
            self.input[self.pos..].starts_with(lit),
            "{}: expected {lit:?} at byte {} of {:?}",
            self.what,
            self.pos,
            self.input
        );
        self.pos += lit.len();
        self
    }

    /// The next bytes are `part`, which is the slice of the input there.
    pub fn part(&mut self, name: &str, part: &str) -> &mut Self {
        assert_eq!(
            offset_in(self.input, part),
            Some(self.pos),
            "{}: {name} {part:?} is not the slice at byte {} of {:?}",
            self.what,
            self.pos,
            self.input
        );
        self.pos += part.len();
        self
    }

    /// Where the cursor is.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The cursor is at byte `end`.
    pub fn end_at(&self, end: usize) {
        assert_eq!(
            self.pos, end,
            "{}: the pieces end at byte {}, not {end}, in {:?}",
            self.what, self.pos, self.input
        );
    }
}

/// The components of an IRI or URI reference; `None` is "absent".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comps {
    pub scheme: Option<String>,
    pub authority: Option<String>,
    pub userinfo: Option<String>,
    /// The host as written (IP literals with their brackets).
    pub host: Option<String>,
    /// `"ipv6"`, `"ipvfuture"`, `"ipv4"` or `"reg-name"`.
    pub host_kind: Option<&'static str>,
    pub port: Option<String>,
    pub path: String,
    pub query: Option<String>,
    pub fragment: Option<String>,
}

fn owned(s: Option<&str>) -> Option<String> {
    s.map(str::to_string)
}

macro_rules! comps_of_type {
    ($name:ident, $T:ident) => {
        /// The components the type's accessors give.
        pub fn $name(r: &$T<'_>) -> Comps {
            Comps {
                scheme: owned(r.scheme()),
                authority: owned(r.authority()),
                userinfo: owned(r.userinfo()),
                host: owned(r.host_str()),
                host_kind: r.host().map(|h: Host<'_>| h.kind()),
                port: owned(r.port().map(|p| p.as_str())),
                path: r.path().to_string(),
                query: owned(r.query()),
                fragment: owned(r.fragment()),
            }
        }
    };
}
comps_of_type!(comps_of_iri_ref, IriRef);
comps_of_type!(comps_of_uri_ref, UriRef);

/// The components read straight from the generated RFC 3987 parse tree (the
/// grammar alone: no §4.1 bidi check, so this works where `IriRef` refuses).
pub fn comps_of_tree(t: &ast3987::IriReference<'_>) -> Comps {
    use ast3987::{IhierPartKind, IhostKind, IpLiteralKind, IrelativePartKind, IriReferenceKind};
    let mut c = Comps::default();
    let auth = |c: &mut Comps, a: &ast3987::Iauthority<'_>| {
        c.authority = Some(a.text.to_string());
        c.userinfo = owned(a.iuserinfo);
        c.host = Some(a.ihost.text.to_string());
        c.host_kind = Some(match a.ihost.kind {
            IhostKind::IpLiteral(l) => match l.kind {
                IpLiteralKind::Ipv6address(_) => "ipv6",
                IpLiteralKind::IpvFuture(_) => "ipvfuture",
            },
            IhostKind::Ipv4address(_) => "ipv4",
            IhostKind::IregName(_) => "reg-name",
        });
        c.port = owned(a.port);
    };
    match &t.kind {
        IriReferenceKind::Iri(i) => {
            c.scheme = Some(i.scheme.to_string());
            c.query = owned(i.iquery);
            c.fragment = owned(i.ifragment);
            c.path = match &i.ihier_part.kind {
                IhierPartKind::Iauthority {
                    iauthority,
                    ipath_abempty,
                } => {
                    auth(&mut c, iauthority);
                    ipath_abempty.text.to_string()
                }
                IhierPartKind::IpathAbsolute(p) | IhierPartKind::IpathEmpty(p) => p.to_string(),
                IhierPartKind::IpathRootless(p) => p.text.to_string(),
            };
        }
        IriReferenceKind::IrelativeRef(r) => {
            c.query = owned(r.iquery);
            c.fragment = owned(r.ifragment);
            c.path = match &r.irelative_part.kind {
                IrelativePartKind::Iauthority {
                    iauthority,
                    ipath_abempty,
                } => {
                    auth(&mut c, iauthority);
                    ipath_abempty.text.to_string()
                }
                IrelativePartKind::IpathAbsolute(p) | IrelativePartKind::IpathEmpty(p) => p.to_string(),
                IrelativePartKind::IpathNoscheme(p) => p.text.to_string(),
            };
        }
    }
    c
}

/// The text of one component for a report: `None` prints as `-`.
pub fn show(x: &Option<String>) -> String {
    match x {
        Some(s) => format!("{s:?}"),
        None => "-".to_string(),
    }
}
