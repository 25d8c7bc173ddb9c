//! Arbitrary UTF-8 through the validated types (`IriRef`, `Iri`, `UriRef`,
//! `Uri` and their owned forms) and through the generated parse trees of
//! `rfc3987::ast` and `rfc3986::ast`, one parse function per tree type.
//!
//! - Validity is the matching recognizer's `is_match`, except that the
//!   strict IRI types (`IriRef`, `Iri`) also reject the bidi formatting
//!   characters of RFC 3987 §4.1 (U+200E, U+200F, U+202A–U+202E), which the
//!   grammar allows; a tree parse agrees with its rule's recognizer.
//! - Errors: the kind (syntax or bidi) is the earliest problem; the offset
//!   is the recognizer's, moved back to the start of the character it falls
//!   in; `found` is that character; the byte that stopped the match is not
//!   "expected"; `Display` names the offset; a tree's error is the
//!   recognizer's `MatchError`.
//! - Components: each is the very slice of the input where it belongs; put
//!   back together (`scheme ":" "//" authority path "?" query "#" fragment`,
//!   `userinfo "@" host ":" port`, the path's segments, every tree node from
//!   its children) they give the input back; each matches its own rule; the
//!   facade and the tree agree; a URI (reference) has the same components
//!   as an IRI (reference), an IRI as an IRI reference.
//! - The splitter's generated exit walk (vector and scalar twin) finds the
//!   parts its table walk finds, on any string.
#![no_main]

use libfuzzer_sys::fuzz_target;

use iri_grammar::{
    rfc3986, rfc3987, Host, Iri, IriBuf, IriRef, IriRefBuf, ParseError, ParseErrorKind, Recognizer, Span,
    Uri, UriBuf, UriRef, UriRefBuf,
};
use iri_grammar_fuzz::{comps_of_iri_ref, comps_of_tree, comps_of_uri_ref, first_bidi, offset_in, Cursor};

/// The recognizers of one grammar's rules, under the RFC 3986 names (for
/// RFC 3987, `host` is `ihost`, `uri` is `IRI`, ...). Plain statics: looking
/// rules up by name in the target would teach the fuzzer the rule names.
struct Rules {
    uri_reference: &'static Recognizer,
    uri: &'static Recognizer,
    absolute_uri: &'static Recognizer,
    relative_ref: &'static Recognizer,
    relative_part: &'static Recognizer,
    hier_part: &'static Recognizer,
    authority: &'static Recognizer,
    userinfo: &'static Recognizer,
    host: &'static Recognizer,
    port: &'static Recognizer,
    reg_name: &'static Recognizer,
    ip_literal: &'static Recognizer,
    ipv4: &'static Recognizer,
    ipv6: &'static Recognizer,
    ipvfuture: &'static Recognizer,
    path: &'static Recognizer,
    path_abempty: &'static Recognizer,
    path_absolute: &'static Recognizer,
    path_noscheme: &'static Recognizer,
    path_rootless: &'static Recognizer,
    path_empty: &'static Recognizer,
    segment: &'static Recognizer,
    segment_nz: &'static Recognizer,
    segment_nz_nc: &'static Recognizer,
    scheme: &'static Recognizer,
    query: &'static Recognizer,
    fragment: &'static Recognizer,
}

static RFC3986: Rules = Rules {
    uri_reference: &rfc3986::URI_REFERENCE,
    uri: &rfc3986::URI,
    absolute_uri: &rfc3986::ABSOLUTE_URI,
    relative_ref: &rfc3986::RELATIVE_REF,
    relative_part: &rfc3986::RELATIVE_PART,
    hier_part: &rfc3986::HIER_PART,
    authority: &rfc3986::AUTHORITY,
    userinfo: &rfc3986::USERINFO,
    host: &rfc3986::HOST,
    port: &rfc3986::PORT,
    reg_name: &rfc3986::REG_NAME,
    ip_literal: &rfc3986::IP_LITERAL,
    ipv4: &rfc3986::IPV4ADDRESS,
    ipv6: &rfc3986::IPV6ADDRESS,
    ipvfuture: &rfc3986::IPV_FUTURE,
    path: &rfc3986::PATH,
    path_abempty: &rfc3986::PATH_ABEMPTY,
    path_absolute: &rfc3986::PATH_ABSOLUTE,
    path_noscheme: &rfc3986::PATH_NOSCHEME,
    path_rootless: &rfc3986::PATH_ROOTLESS,
    path_empty: &rfc3986::PATH_EMPTY,
    segment: &rfc3986::SEGMENT,
    segment_nz: &rfc3986::SEGMENT_NZ,
    segment_nz_nc: &rfc3986::SEGMENT_NZ_NC,
    scheme: &rfc3986::SCHEME,
    query: &rfc3986::QUERY,
    fragment: &rfc3986::FRAGMENT,
};

static RFC3987: Rules = Rules {
    uri_reference: &rfc3987::IRI_REFERENCE,
    uri: &rfc3987::IRI,
    absolute_uri: &rfc3987::ABSOLUTE_IRI,
    relative_ref: &rfc3987::IRELATIVE_REF,
    relative_part: &rfc3987::IRELATIVE_PART,
    hier_part: &rfc3987::IHIER_PART,
    authority: &rfc3987::IAUTHORITY,
    userinfo: &rfc3987::IUSERINFO,
    host: &rfc3987::IHOST,
    port: &rfc3987::PORT,
    reg_name: &rfc3987::IREG_NAME,
    ip_literal: &rfc3987::IP_LITERAL,
    ipv4: &rfc3987::IPV4ADDRESS,
    ipv6: &rfc3987::IPV6ADDRESS,
    ipvfuture: &rfc3987::IPV_FUTURE,
    path: &rfc3987::IPATH,
    path_abempty: &rfc3987::IPATH_ABEMPTY,
    path_absolute: &rfc3987::IPATH_ABSOLUTE,
    path_noscheme: &rfc3987::IPATH_NOSCHEME,
    path_rootless: &rfc3987::IPATH_ROOTLESS,
    path_empty: &rfc3987::IPATH_EMPTY,
    segment: &rfc3987::ISEGMENT,
    segment_nz: &rfc3987::ISEGMENT_NZ,
    segment_nz_nc: &rfc3987::ISEGMENT_NZ_NC,
    scheme: &rfc3987::SCHEME,
    query: &rfc3987::IQUERY,
    fragment: &rfc3987::IFRAGMENT,
};

/// `part` matches `rule`.
fn matches_rule(rule: &Recognizer, part: &str, input: &str) {
    assert!(
        rule.is_match(part),
        "{input:?}: {part:?} does not match {rule:?}, yet was extracted as one"
    );
}

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

/// What holds for a `ParseError` of a type checked against `rule`; `strict`
/// for the IRI types (RFC 3987 §4.1).
fn check_error(input: &str, e: &ParseError, rule: &Recognizer, strict: bool) {
    assert_eq!(
        (e.grammar(), e.rule()),
        (rule.grammar(), rule.rule()),
        "{input:?}: {e:?}"
    );
    let syntax_at = rule.validate(input).err().map(|m| m.offset());
    match first_bidi(input).filter(|_| strict) {
        // The earliest problem; at the same offset, the bidi one.
        Some((at, c)) if syntax_at.is_none_or(|s| s >= at) => {
            assert_eq!(e.kind(), ParseErrorKind::BidiFormatting, "{input:?}: {e}");
            assert_eq!((e.offset(), e.found()), (at, Some(c)), "{input:?}: {e}");
            assert!(e.to_string().contains(&format!("byte {at}")), "{input:?}: {e}");
        }
        _ => {
            let m = syntax_at.unwrap_or_else(|| panic!("{input:?}: {e} but {rule:?} matches"));
            assert_eq!(e.kind(), ParseErrorKind::Syntax, "{input:?}: {e}");
            // The automaton works on bytes and may stop inside a character (a
            // noncharacter such as U+FDEF shares its first bytes with allowed
            // characters): the error reports the character it stopped in.
            let mut start = m;
            while !input.is_char_boundary(start) {
                start -= 1;
            }
            assert_eq!(
                e.offset(),
                start,
                "{input:?}: ParseError at {}, the recognizer stops at {m}",
                e.offset()
            );
            assert_eq!(e.found(), input[start..].chars().next(), "{input:?}: {e}");
            // When the automaton stopped on the character's first byte, that
            // byte is not among the expected ones (inside a character, the
            // character's first byte may well be).
            if let Some(&b) = input.as_bytes().get(m).filter(|_| start == m) {
                assert!(
                    !e.expects(b),
                    "{input:?}: the byte that stopped the match is 'expected': {e}"
                );
            }
            let shown = e.to_string();
            assert!(shown.contains(&format!("byte {start}")), "{input:?}: {shown}");
            assert_eq!(
                shown.contains("end of input"),
                start == input.len(),
                "{input:?}: {shown}"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// The validated types
// ---------------------------------------------------------------------------

/// Checks the components of a parsed value of any of the four types.
macro_rules! check_components {
    ($v:expr, $input:expr, $rules:expr) => {{
        let v = &$v;
        let input: &str = $input;
        let g: &Rules = $rules;
        assert_eq!(v.as_str(), input);
        assert_eq!(v.to_string(), input);
        let mut c = Cursor::new(input, 0, "components");
        // `Option<&str>` for references, `&str` for IRIs and URIs.
        let scheme: Option<&str> = v.scheme().into();
        if let Some(s) = scheme {
            c.part("scheme", s).lit(":");
            matches_rule(g.scheme, s, input);
        }
        assert_eq!(v.is_absolute(), scheme.is_some());
        if let Some(a) = v.authority() {
            c.lit("//").part("authority", a);
            matches_rule(g.authority, a, input);
            // authority = [ userinfo "@" ] host [ ":" port ]
            let at = offset_in(input, a).unwrap();
            let mut ac = Cursor::new(input, at, "authority");
            if let Some(u) = v.userinfo() {
                ac.part("userinfo", u).lit("@");
                matches_rule(g.userinfo, u, input);
            }
            let host = v.host_str().expect("an authority has a host");
            ac.part("host", host);
            matches_rule(g.host, host, input);
            if let Some(p) = v.port() {
                ac.lit(":").part("port", p.as_str());
                matches_rule(g.port, p.as_str(), input);
                assert_eq!(
                    p.as_u16(),
                    p.as_str().parse::<u16>().ok(),
                    "{input:?}: port value"
                );
            }
            ac.end_at(at + a.len());
            let h = v.host().expect("a host has a kind");
            let hs = offset_in(input, host).unwrap();
            match h {
                Host::Ipv6(x) | Host::IpvFuture(x) => {
                    Cursor::new(input, hs, "IP-literal")
                        .lit("[")
                        .part("address", x)
                        .lit("]")
                        .end_at(hs + host.len());
                    let rule = if matches!(h, Host::Ipv6(_)) {
                        g.ipv6
                    } else {
                        g.ipvfuture
                    };
                    matches_rule(rule, x, input);
                }
                Host::Ipv4(x) => {
                    Cursor::new(input, hs, "IPv4")
                        .part("address", x)
                        .end_at(hs + host.len());
                    matches_rule(g.ipv4, x, input);
                }
                Host::RegName(x) => {
                    Cursor::new(input, hs, "reg-name")
                        .part("name", x)
                        .end_at(hs + host.len());
                    matches_rule(g.reg_name, x, input);
                    // host = IP-literal / IPv4address / reg-name: the first
                    // alternative that matches is the reading.
                    assert!(
                        !g.ipv4.is_match(x),
                        "{input:?}: host {x:?} is an IPv4address, read as a reg-name"
                    );
                }
            }
            assert_eq!(
                h.as_str().len()
                    + if matches!(h, Host::Ipv6(_) | Host::IpvFuture(_)) {
                        2
                    } else {
                        0
                    },
                host.len()
            );
        } else {
            assert!(
                v.userinfo().is_none() && v.host().is_none() && v.host_str().is_none() && v.port().is_none()
            );
        }
        let path = v.path();
        c.part("path", path);
        let path_rules: &[&Recognizer] = if v.authority().is_some() {
            &[g.path_abempty]
        } else if scheme.is_some() {
            &[g.path_absolute, g.path_rootless, g.path_empty]
        } else {
            &[g.path_absolute, g.path_noscheme, g.path_empty]
        };
        assert!(
            path_rules.iter().any(|r| r.is_match(path)),
            "{input:?}: path {path:?} matches none of {path_rules:?}"
        );
        // The segments, joined with "/" after the path's leading "/".
        let segs: Vec<&str> = v.path_segments().collect();
        let rejoined = segs.join("/");
        let rest = path.strip_prefix('/').unwrap_or(path);
        if path.is_empty() {
            assert!(segs.is_empty(), "{input:?}: segments of an empty path: {segs:?}");
        } else {
            assert_eq!(rejoined, rest, "{input:?}: segments {segs:?}");
        }
        if let Some(q) = v.query() {
            c.lit("?").part("query", q);
            matches_rule(g.query, q, input);
        }
        if let Some(f) = v.fragment() {
            c.lit("#").part("fragment", f);
            matches_rule(g.fragment, f, input);
        }
        c.end_at(input.len());
    }};
}

// ---------------------------------------------------------------------------
// The generated trees
// ---------------------------------------------------------------------------

/// A tree node: its `text` is `input[span]`, as a slice.
fn node(input: &str, span: Span, text: &str, what: &str) {
    assert_eq!(
        &input[span.range()],
        text,
        "{input:?}: {what}.text is not input[span]"
    );
    assert_eq!(
        offset_in(input, text),
        Some(span.start),
        "{input:?}: {what}.text is not the slice at span"
    );
}

/// One walker per grammar: the RFC 3986 and RFC 3987 trees have the same
/// shape under different names.
macro_rules! trees {
    ($walk:ident, $rules:ident, $ast:path;
     $Ref:ident, $RefKind:ident, $Abs:ident, $AbsNoFrag:ident, $Rel:ident;
     $hier:ident, $Hier:ident, $HierKind:ident; $rel_part:ident, $RelPart:ident, $RelKind:ident;
     $Auth:ident, $auth:ident, $userinfo:ident, $host:ident, $Host:ident, $HostKind:ident, $RegName:ident;
     $query:ident, $fragment:ident;
     $Path:ident, $PathKind:ident, $Abempty:ident, $path_abempty:ident, $PathAbsolute:ident,
     $Noscheme:ident, $Rootless:ident, $PathEmpty:ident;
     $segments:ident, $nznc:ident, $nz:ident) => {
        mod $walk {
            use super::*;
            use t::{IpLiteral, IpLiteralKind};
            use $ast as t;

            static G: &Rules = &super::$rules;

            fn segments(input: &str, c: &mut Cursor<'_>, list: iri_grammar::List<'_, &str>) {
                let text = list.as_str();
                let at = c.pos();
                for seg in list {
                    c.lit("/").part("segment", seg);
                    matches_rule(G.segment, seg, input);
                }
                c.end_at(at + text.len());
            }

            pub fn abempty(input: &str, n: &t::$Abempty<'_>) {
                node(input, n.span, n.text, "path-abempty");
                let mut c = Cursor::new(input, n.span.start, "path-abempty");
                segments(input, &mut c, n.$segments);
                c.end_at(n.span.end);
            }

            pub fn noscheme(input: &str, n: &t::$Noscheme<'_>) {
                node(input, n.span, n.text, "path-noscheme");
                let mut c = Cursor::new(input, n.span.start, "path-noscheme");
                c.part("segment-nz-nc", n.$nznc);
                matches_rule(G.segment_nz_nc, n.$nznc, input);
                segments(input, &mut c, n.$segments);
                c.end_at(n.span.end);
            }

            pub fn rootless(input: &str, n: &t::$Rootless<'_>) {
                node(input, n.span, n.text, "path-rootless");
                let mut c = Cursor::new(input, n.span.start, "path-rootless");
                c.part("segment-nz", n.$nz);
                matches_rule(G.segment_nz, n.$nz, input);
                segments(input, &mut c, n.$segments);
                c.end_at(n.span.end);
            }

            fn absolute_path(input: &str, p: &str) {
                matches_rule(G.path_absolute, p, input);
            }

            fn empty_path(input: &str, p: &str) {
                assert!(p.is_empty(), "{input:?}: path-empty {p:?}");
                offset_in(input, p).expect("path-empty is a slice of the input");
            }

            pub fn path(input: &str, n: &t::$Path<'_>) {
                node(input, n.span, n.text, "path");
                let mut c = Cursor::new(input, n.span.start, "path");
                match &n.kind {
                    t::$PathKind::$Abempty(p) => {
                        abempty(input, p);
                        c.part("path-abempty", p.text);
                    }
                    t::$PathKind::$PathAbsolute(p) => {
                        absolute_path(input, p);
                        c.part("path-absolute", p);
                    }
                    t::$PathKind::$Noscheme(p) => {
                        noscheme(input, p);
                        c.part("path-noscheme", p.text);
                    }
                    t::$PathKind::$Rootless(p) => {
                        rootless(input, p);
                        c.part("path-rootless", p.text);
                    }
                    t::$PathKind::$PathEmpty(p) => {
                        empty_path(input, p);
                        c.part("path-empty", p);
                    }
                }
                c.end_at(n.span.end);
            }

            pub fn ip_literal(input: &str, n: &IpLiteral<'_>) {
                node(input, n.span, n.text, "IP-literal");
                let mut c = Cursor::new(input, n.span.start, "IP-literal");
                c.lit("[");
                match n.kind {
                    IpLiteralKind::Ipv6address(a) => {
                        c.part("IPv6address", a);
                        matches_rule(G.ipv6, a, input);
                    }
                    IpLiteralKind::IpvFuture(a) => {
                        c.part("IPvFuture", a);
                        matches_rule(G.ipvfuture, a, input);
                    }
                }
                c.lit("]").end_at(n.span.end);
            }

            pub fn host(input: &str, n: &t::$Host<'_>) {
                node(input, n.span, n.text, "host");
                let mut c = Cursor::new(input, n.span.start, "host");
                match &n.kind {
                    t::$HostKind::IpLiteral(l) => {
                        ip_literal(input, l);
                        c.part("IP-literal", l.text);
                    }
                    t::$HostKind::Ipv4address(a) => {
                        c.part("IPv4address", a);
                        matches_rule(G.ipv4, a, input);
                    }
                    t::$HostKind::$RegName(a) => {
                        c.part("reg-name", a);
                        matches_rule(G.reg_name, a, input);
                        assert!(
                            !G.ipv4.is_match(a),
                            "{input:?}: tree reads IPv4address {a:?} as a reg-name"
                        );
                    }
                }
                c.end_at(n.span.end);
            }

            pub fn authority(input: &str, n: &t::$Auth<'_>) {
                node(input, n.span, n.text, "authority");
                let mut c = Cursor::new(input, n.span.start, "authority");
                if let Some(u) = n.$userinfo {
                    c.part("userinfo", u).lit("@");
                    matches_rule(G.userinfo, u, input);
                }
                host(input, &n.$host);
                c.part("host", n.$host.text);
                if let Some(p) = n.port {
                    c.lit(":").part("port", p);
                    matches_rule(G.port, p, input);
                }
                c.end_at(n.span.end);
            }

            pub fn hier_part(input: &str, n: &t::$Hier<'_>) {
                node(input, n.span, n.text, "hier-part");
                let mut c = Cursor::new(input, n.span.start, "hier-part");
                match &n.kind {
                    t::$HierKind::$Auth {
                        $auth: a,
                        $path_abempty: p,
                    } => {
                        authority(input, a);
                        abempty(input, p);
                        c.lit("//")
                            .part("authority", a.text)
                            .part("path-abempty", p.text);
                    }
                    t::$HierKind::$PathAbsolute(p) => {
                        absolute_path(input, p);
                        c.part("path-absolute", p);
                    }
                    t::$HierKind::$Rootless(p) => {
                        rootless(input, p);
                        c.part("path-rootless", p.text);
                    }
                    t::$HierKind::$PathEmpty(p) => {
                        empty_path(input, p);
                        c.part("path-empty", p);
                    }
                }
                c.end_at(n.span.end);
            }

            pub fn relative_part(input: &str, n: &t::$RelPart<'_>) {
                node(input, n.span, n.text, "relative-part");
                let mut c = Cursor::new(input, n.span.start, "relative-part");
                match &n.kind {
                    t::$RelKind::$Auth {
                        $auth: a,
                        $path_abempty: p,
                    } => {
                        authority(input, a);
                        abempty(input, p);
                        c.lit("//")
                            .part("authority", a.text)
                            .part("path-abempty", p.text);
                    }
                    t::$RelKind::$PathAbsolute(p) => {
                        absolute_path(input, p);
                        c.part("path-absolute", p);
                    }
                    t::$RelKind::$Noscheme(p) => {
                        noscheme(input, p);
                        c.part("path-noscheme", p.text);
                    }
                    t::$RelKind::$PathEmpty(p) => {
                        empty_path(input, p);
                        c.part("path-empty", p);
                    }
                }
                c.end_at(n.span.end);
            }

            fn query_fragment(input: &str, c: &mut Cursor<'_>, q: Option<&str>, f: Option<&str>) {
                if let Some(q) = q {
                    c.lit("?").part("query", q);
                    matches_rule(G.query, q, input);
                }
                if let Some(f) = f {
                    c.lit("#").part("fragment", f);
                    matches_rule(G.fragment, f, input);
                }
            }

            pub fn absolute(input: &str, n: &t::$Abs<'_>) {
                node(input, n.span, n.text, "URI");
                let mut c = Cursor::new(input, n.span.start, "URI");
                c.part("scheme", n.scheme).lit(":");
                matches_rule(G.scheme, n.scheme, input);
                hier_part(input, &n.$hier);
                c.part("hier-part", n.$hier.text);
                query_fragment(input, &mut c, n.$query, n.$fragment);
                c.end_at(n.span.end);
            }

            pub fn absolute_no_fragment(input: &str, n: &t::$AbsNoFrag<'_>) {
                node(input, n.span, n.text, "absolute-URI");
                let mut c = Cursor::new(input, n.span.start, "absolute-URI");
                c.part("scheme", n.scheme).lit(":");
                matches_rule(G.scheme, n.scheme, input);
                hier_part(input, &n.$hier);
                c.part("hier-part", n.$hier.text);
                query_fragment(input, &mut c, n.$query, None);
                c.end_at(n.span.end);
            }

            pub fn relative(input: &str, n: &t::$Rel<'_>) {
                node(input, n.span, n.text, "relative-ref");
                let mut c = Cursor::new(input, n.span.start, "relative-ref");
                relative_part(input, &n.$rel_part);
                c.part("relative-part", n.$rel_part.text);
                query_fragment(input, &mut c, n.$query, n.$fragment);
                c.end_at(n.span.end);
            }

            pub fn reference(input: &str, n: &t::$Ref<'_>) {
                node(input, n.span, n.text, "URI-reference");
                // URI-reference = URI / relative-ref: the first alternative
                // that matches is the reading (they are disjoint anyway).
                let is_abs = G.uri.is_match(input);
                match &n.kind {
                    t::$RefKind::$Abs(a) => {
                        assert!(is_abs, "{input:?}: read as URI, which does not match");
                        absolute(input, a);
                        assert_eq!(a.span, n.span);
                    }
                    t::$RefKind::$Rel(r) => {
                        assert!(!is_abs, "{input:?}: read as relative-ref, but it is a URI");
                        relative(input, r);
                        assert_eq!(r.span, n.span);
                    }
                }
            }

            /// Every tree type's `parse` on the whole input: it succeeds
            /// exactly when the rule's recognizer matches, fails at the
            /// recognizer's offset, and a tree it gives is consistent.
            pub fn all(input: &str) {
                macro_rules! one {
                    ($T:ident, $rule:ident, $check:expr) => {{
                        let r = G.$rule;
                        match t::$T::parse(input) {
                            Ok(tree) => {
                                assert!(
                                    r.is_match(input),
                                    "{input:?}: tree {} parses, {r:?} does not match",
                                    stringify!($T)
                                );
                                assert_eq!(
                                    tree.span,
                                    Span {
                                        start: 0,
                                        end: input.len()
                                    }
                                );
                                #[allow(clippy::redundant_closure_call)]
                                ($check)(input, &tree);
                            }
                            Err(e) => {
                                let m = r.validate(input).expect_err(concat!(
                                    "tree ",
                                    stringify!($T),
                                    " fails, recognizer matches"
                                ));
                                assert_eq!(
                                    e,
                                    m,
                                    "{input:?}: tree {} and {r:?} stop at different offsets",
                                    stringify!($T)
                                );
                            }
                        }
                    }};
                }
                one!($Ref, uri_reference, reference);
                one!($Abs, uri, absolute);
                one!($AbsNoFrag, absolute_uri, absolute_no_fragment);
                one!($Rel, relative_ref, relative);
                one!($RelPart, relative_part, relative_part);
                one!($Hier, hier_part, hier_part);
                one!($Auth, authority, authority);
                one!($Host, host, host);
                one!(IpLiteral, ip_literal, ip_literal);
                one!($Path, path, path);
                one!($Abempty, path_abempty, abempty);
                one!($Noscheme, path_noscheme, noscheme);
                one!($Rootless, path_rootless, rootless);
            }
        }
    };
}

trees!(walk3987, RFC3987, iri_grammar::rfc3987::ast;
    IriReference, IriReferenceKind, Iri, AbsoluteIri, IrelativeRef;
    ihier_part, IhierPart, IhierPartKind; irelative_part, IrelativePart, IrelativePartKind;
    Iauthority, iauthority, iuserinfo, ihost, Ihost, IhostKind, IregName;
    iquery, ifragment;
    Ipath, IpathKind, IpathAbempty, ipath_abempty, IpathAbsolute, IpathNoscheme, IpathRootless, IpathEmpty;
    isegments, isegment_nz_nc, isegment_nz);

trees!(walk3986, RFC3986, iri_grammar::rfc3986::ast;
    UriReference, UriReferenceKind, Uri, AbsoluteUri, RelativeRef;
    hier_part, HierPart, HierPartKind; relative_part, RelativePart, RelativePartKind;
    Authority, authority, userinfo, host, Host, HostKind, RegName;
    query, fragment;
    Path, PathKind, PathAbempty, path_abempty, PathAbsolute, PathNoscheme, PathRootless, PathEmpty;
    segments, segment_nz_nc, segment_nz);

// ---------------------------------------------------------------------------
// The target
// ---------------------------------------------------------------------------

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else {
        return;
    };
    let bidi = first_bidi(input).is_some();
    let iri_ref_rec = RFC3987.uri_reference;
    let iri_rec = RFC3987.uri;
    let uri_ref_rec = RFC3986.uri_reference;
    let uri_rec = RFC3986.uri;

    // The exit walk against the table walk (the splitter matches anything).
    {
        use iri_grammar::abnf_runtime::simd::Level;
        use iri_grammar::rfc3986_appendix_b::components::Reference;
        let want = Reference::__parse_by_table(input).ok();
        assert_eq!(Reference::parse(input).ok(), want, "{input:?}");
        for level in Level::available() {
            assert_eq!(Reference::__parse_by_exits(input, level), want, "{input:?} at {level:?}");
        }
    }

    // Validity, errors, components, owned forms.
    let iri_ref = IriRef::parse(input);
    let iri = Iri::parse(input);
    let uri_ref = UriRef::parse(input);
    let uri = Uri::parse(input);
    assert_eq!(
        iri_ref.is_ok(),
        iri_ref_rec.is_match(input) && !bidi,
        "{input:?}: IriRef {iri_ref:?}"
    );
    assert_eq!(
        iri.is_ok(),
        iri_rec.is_match(input) && !bidi,
        "{input:?}: Iri {iri:?}"
    );
    assert_eq!(
        uri_ref.is_ok(),
        uri_ref_rec.is_match(input),
        "{input:?}: UriRef {uri_ref:?}"
    );
    assert_eq!(uri.is_ok(), uri_rec.is_match(input), "{input:?}: Uri {uri:?}");
    // Every vector level the CPU has (the recognizer's dispatch, the
    // shuffle walk or the table, the exit walk at each width or the
    // one-pass walk) gives the same answers: the level is capped for this
    // process, which runs one input at a time.
    {
        use iri_grammar::abnf_runtime::simd::{cap_level, Level};
        let top = Level::detected();
        for level in Level::ALL.into_iter().filter(|&l| l < top) {
            cap_level(level);
            assert_eq!(format!("{:?}", IriRef::parse(input)), format!("{iri_ref:?}"), "{input:?} at {level:?}");
            assert_eq!(format!("{:?}", Iri::parse(input)), format!("{iri:?}"), "{input:?} at {level:?}");
            assert_eq!(format!("{:?}", UriRef::parse(input)), format!("{uri_ref:?}"), "{input:?} at {level:?}");
            assert_eq!(format!("{:?}", Uri::parse(input)), format!("{uri:?}"), "{input:?} at {level:?}");
            assert_eq!(iri_ref_rec.is_match(input), iri_ref_rec.is_match_both_ends(input.as_bytes()), "{input:?} at {level:?}");
        }
        cap_level(top);
    }
    match &iri_ref {
        Ok(v) => check_components!(v, input, &RFC3987),
        Err(e) => check_error(input, e, iri_ref_rec, true),
    }
    match &iri {
        Ok(v) => {
            check_components!(v, input, &RFC3987);
            assert!(!v.scheme().is_empty(), "{input:?}: an IRI without a scheme");
        }
        Err(e) => check_error(input, e, iri_rec, true),
    }
    match &uri_ref {
        Ok(v) => check_components!(v, input, &RFC3986),
        Err(e) => check_error(input, e, uri_ref_rec, false),
    }
    match &uri {
        Ok(v) => {
            check_components!(v, input, &RFC3986);
            assert!(!v.scheme().is_empty(), "{input:?}: a URI without a scheme");
        }
        Err(e) => check_error(input, e, uri_rec, false),
    }

    // The owned forms parse the same.
    assert_eq!(
        IriRefBuf::parse(input.to_string()).map(|b| comps_of_iri_ref(&b.as_ref())),
        iri_ref.map(|v| comps_of_iri_ref(&v))
    );
    assert_eq!(
        IriBuf::parse(input.to_string()).map(|b| comps_of_iri_ref(&b.as_ref().into())),
        iri.map(|v| comps_of_iri_ref(&v.into()))
    );
    assert_eq!(
        UriRefBuf::parse(input.to_string()).map(|b| comps_of_uri_ref(&b.as_ref())),
        uri_ref.map(|v| comps_of_uri_ref(&v))
    );
    assert_eq!(
        UriBuf::parse(input.to_string()).map(|b| comps_of_uri_ref(&b.as_ref().into())),
        uri.map(|v| comps_of_uri_ref(&v.into()))
    );

    // The same components whichever type reads them: every URI reference is
    // an IRI reference (RFC 3987 §2), every IRI an IRI reference, ...
    let iri_ref_comps = iri_ref.as_ref().ok().map(comps_of_iri_ref);
    if let Ok(v) = iri {
        assert_eq!(
            Some(comps_of_iri_ref(&v.into())),
            iri_ref_comps,
            "{input:?}: Iri vs IriRef"
        );
    }
    if let Ok(v) = uri_ref {
        assert_eq!(
            Some(comps_of_uri_ref(&v)),
            iri_ref_comps,
            "{input:?}: UriRef vs IriRef"
        );
        assert_eq!(comps_of_iri_ref(&v.into()), comps_of_uri_ref(&v));
    }
    if let Ok(v) = uri {
        assert_eq!(
            Some(comps_of_uri_ref(&v.into())),
            uri_ref.as_ref().ok().map(comps_of_uri_ref),
            "{input:?}: Uri vs UriRef"
        );
        assert!(iri.is_ok(), "{input:?}: a URI that is not an IRI");
    }

    // The facade agrees with the tree it is built on (where §4.1 lets it).
    if let Ok(tree) = iri_grammar::rfc3987::ast::IriReference::parse(input) {
        let from_tree = comps_of_tree(&tree);
        if let Some(c) = &iri_ref_comps {
            assert_eq!(&from_tree, c, "{input:?}: tree vs IriRef");
        }
    }

    // Every tree type of both grammars.
    walk3987::all(input);
    walk3986::all(input);
});
