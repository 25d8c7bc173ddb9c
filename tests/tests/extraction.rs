//! Typed extraction: the components that the facade types (`IriRef`, `Iri`,
//! `UriRef`, `Uri` and their owned forms) and the generated parse trees
//! (`rfc3987::ast`, `rfc3986::ast`) give back.
//!
//! Every valid input is checked twice, independently: once through the
//! facade accessors and once by walking the generated tree (checking on the
//! way that every node's `text` is `&input[span]` and that each node's text
//! is exactly its parts put back together). The two must agree, and the
//! components must reassemble into the input (RFC 3986 §5.3).

use std::collections::hash_map::RandomState;
use std::collections::HashSet;
use std::hash::BuildHasher;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use iri_grammar::rfc3986::ast as u;
use iri_grammar::rfc3987::ast as i;
use iri_grammar::{
    rfc3986, rfc3987, Host, Iri, IriBuf, IriRef, IriRefBuf, List, ParseError, ParseErrorKind, Recognizer,
    Span, Uri, UriBuf, UriRef, UriRefBuf,
};

// ---------------------------------------------------------------------------
// Components as plain data
// ---------------------------------------------------------------------------

/// The components of a reference, as the tests expect them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    userinfo: Option<&'a str>,
    host: Option<Host<'a>>,
    /// The host as written (IP literals with their brackets).
    host_str: Option<&'a str>,
    port: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

/// The components of any facade type, read through its accessors.
macro_rules! facade_parts {
    ($v:expr) => {{
        let v = &$v;
        Parts {
            // `Option<&str>` for references, `&str` for absolute types.
            scheme: v.scheme().into(),
            authority: v.authority(),
            userinfo: v.userinfo(),
            host: v.host(),
            host_str: v.host_str(),
            port: v.port().map(|p| p.as_str()),
            path: v.path(),
            query: v.query(),
            fragment: v.fragment(),
        }
    }};
}

/// Checks what holds for the components of every valid reference: each is a
/// slice of the input, they are in order and put back together they give the
/// input (RFC 3986 §5.3); the authority is `[userinfo "@"] host [":" port]`;
/// the host's kind agrees with the host text; `is_absolute` means a scheme.
fn check_invariants(input: &str, p: &Parts<'_>, is_absolute: bool, segments: &[&str]) {
    let mut rebuilt = String::new();
    if let Some(s) = p.scheme {
        rebuilt += s;
        rebuilt += ":";
    }
    if let Some(a) = p.authority {
        rebuilt += "//";
        rebuilt += a;
        let mut auth = String::new();
        if let Some(u) = p.userinfo {
            auth += u;
            auth += "@";
        }
        auth += p.host_str.expect("an authority has a host");
        if let Some(port) = p.port {
            auth += ":";
            auth += port;
        }
        assert_eq!(auth, a, "authority of {input:?}");
        assert!(
            p.path.is_empty() || p.path.starts_with('/'),
            "path after an authority is abempty: {input:?}"
        );
    } else {
        assert_eq!(
            (p.userinfo, p.host_str, p.port),
            (None, None, None),
            "no authority: {input:?}"
        );
        assert!(p.host.is_none(), "no authority, no host: {input:?}");
        assert!(
            !p.path.starts_with("//"),
            "a path without authority cannot start with //: {input:?}"
        );
    }
    rebuilt += p.path;
    if let Some(q) = p.query {
        rebuilt += "?";
        rebuilt += q;
    }
    if let Some(f) = p.fragment {
        rebuilt += "#";
        rebuilt += f;
    }
    assert_eq!(rebuilt, input, "components do not reassemble into the input");
    // Each component is a slice of the input, not a copy.
    let mut last = 0;
    for part in [
        p.scheme,
        p.authority,
        p.userinfo,
        p.host_str,
        p.port,
        Some(p.path),
        p.query,
        p.fragment,
    ]
    .into_iter()
    .flatten()
    {
        let span = span_in(input, part);
        assert!(span.start >= last, "components out of order in {input:?}");
        last = span.start;
    }
    assert_eq!(is_absolute, p.scheme.is_some(), "is_absolute of {input:?}");
    match (p.host, p.host_str) {
        (None, None) => {}
        (Some(Host::Ipv6(h)), Some(s)) | (Some(Host::IpvFuture(h)), Some(s)) => {
            assert_eq!(s, format!("[{h}]"), "IP literal of {input:?}");
            assert_eq!(
                matches!(p.host, Some(Host::IpvFuture(_))),
                h.starts_with(['v', 'V']),
                "IPv6 vs IPvFuture: {input:?}"
            );
            assert!(rfc3986::IP_LITERAL.is_match(s), "{s:?} in {input:?}");
        }
        (Some(Host::Ipv4(h)), Some(s)) => {
            assert_eq!(h, s);
            assert!(rfc3986::IPV4ADDRESS.is_match(h), "{h:?} in {input:?}");
        }
        (Some(Host::RegName(h)), Some(s)) => {
            assert_eq!(h, s);
            assert!(
                !rfc3986::IPV4ADDRESS.is_match(h),
                "IPv4address {h:?} taken as a reg-name in {input:?}"
            );
            assert!(!h.starts_with('['), "{h:?} in {input:?}");
        }
        other => panic!("host and host_str disagree for {input:?}: {other:?}"),
    }
    // Segments: the path split on "/" after its leading "/".
    let expected: Vec<&str> = if p.path.is_empty() {
        Vec::new()
    } else {
        p.path.strip_prefix('/').unwrap_or(p.path).split('/').collect()
    };
    assert_eq!(segments, expected, "path_segments of {input:?}");
}

/// Where `part` (which must be a slice of `input`) is in `input`.
fn span_in(input: &str, part: &str) -> Span {
    let start = (part.as_ptr() as usize).wrapping_sub(input.as_ptr() as usize);
    assert!(
        start <= input.len() && start + part.len() <= input.len(),
        "{part:?} is not a slice of {input:?}"
    );
    assert_eq!(&input[start..start + part.len()], part);
    Span {
        start,
        end: start + part.len(),
    }
}

/// A node's `text` is `&input[span]`, and the very same bytes.
fn node(input: &str, span: Span, text: &str, what: &str) {
    assert!(
        span.start <= span.end && span.end <= input.len(),
        "{what}: span {span:?} in {input:?}"
    );
    assert_eq!(
        &input[span.range()],
        text,
        "{what}: text != &input[span] in {input:?}"
    );
    assert_eq!(
        span_in(input, text),
        span,
        "{what}: text is not the input at span in {input:?}"
    );
    assert_eq!(span.len(), text.len());
    assert_eq!(span.is_empty(), text.is_empty());
}

/// The items of a `"/" segment` repetition; checks that they are slices of
/// the input and that "/" + each, concatenated, is the repetition's text.
fn list_items<'a>(input: &'a str, list: List<'a, &'a str>, text: &str, what: &str) -> Vec<&'a str> {
    assert_eq!(list.as_str(), text, "{what}: list text in {input:?}");
    let items: Vec<&'a str> = list.collect();
    let mut joined = String::new();
    for item in &items {
        span_in(input, item);
        joined += "/";
        joined += item;
    }
    assert_eq!(joined, text, "{what}: items do not make up the list in {input:?}");
    // A list is fused and can be read again from a copy.
    let mut again = list;
    assert_eq!(again.by_ref().count(), items.len());
    assert_eq!(again.next(), None);
    assert_eq!(again.as_str(), "", "{what}: an exhausted list has no text left");
    items
}

// ---------------------------------------------------------------------------
// Walking the RFC 3987 tree
// ---------------------------------------------------------------------------

/// Parts and path segments (when the tree lists them) read from the tree.
type TreeParts<'a> = (Parts<'a>, Option<Vec<&'a str>>);

fn walk_iri_reference<'a>(input: &'a str, t: &i::IriReference<'a>) -> TreeParts<'a> {
    node(input, t.span, t.text, "IRI-reference");
    assert_eq!(
        t.span,
        Span {
            start: 0,
            end: input.len()
        }
    );
    match &t.kind {
        i::IriReferenceKind::Iri(iri) => {
            assert_eq!(iri.span, t.span, "IRI fills IRI-reference");
            walk_iri(input, iri)
        }
        i::IriReferenceKind::IrelativeRef(r) => {
            assert_eq!(r.span, t.span, "irelative-ref fills IRI-reference");
            walk_irelative_ref(input, r)
        }
    }
}

fn walk_iri<'a>(input: &'a str, t: &i::Iri<'a>) -> TreeParts<'a> {
    node(input, t.span, t.text, "IRI");
    span_in(input, t.scheme);
    assert!(rfc3986::SCHEME.is_match(t.scheme));
    let (mut p, segs) = walk_ihier_part(input, &t.ihier_part);
    p.scheme = Some(t.scheme);
    p.query = t.iquery;
    p.fragment = t.ifragment;
    assert_eq!(
        rebuild(Some(t.scheme), t.ihier_part.text, t.iquery, t.ifragment),
        t.text,
        "IRI parts in {input:?}"
    );
    (p, segs)
}

fn walk_absolute_iri<'a>(input: &'a str, t: &i::AbsoluteIri<'a>) -> TreeParts<'a> {
    node(input, t.span, t.text, "absolute-IRI");
    let (mut p, segs) = walk_ihier_part(input, &t.ihier_part);
    p.scheme = Some(t.scheme);
    p.query = t.iquery;
    assert_eq!(rebuild(Some(t.scheme), t.ihier_part.text, t.iquery, None), t.text);
    (p, segs)
}

fn walk_irelative_ref<'a>(input: &'a str, t: &i::IrelativeRef<'a>) -> TreeParts<'a> {
    node(input, t.span, t.text, "irelative-ref");
    let (mut p, segs) = walk_irelative_part(input, &t.irelative_part);
    p.query = t.iquery;
    p.fragment = t.ifragment;
    assert_eq!(
        rebuild(None, t.irelative_part.text, t.iquery, t.ifragment),
        t.text
    );
    (p, segs)
}

fn rebuild(scheme: Option<&str>, middle: &str, query: Option<&str>, fragment: Option<&str>) -> String {
    let mut s = String::new();
    if let Some(x) = scheme {
        s = format!("{x}:");
    }
    s += middle;
    if let Some(q) = query {
        s += "?";
        s += q;
    }
    if let Some(f) = fragment {
        s += "#";
        s += f;
    }
    s
}

fn walk_ihier_part<'a>(input: &'a str, t: &i::IhierPart<'a>) -> TreeParts<'a> {
    node(input, t.span, t.text, "ihier-part");
    match &t.kind {
        i::IhierPartKind::Iauthority {
            iauthority,
            ipath_abempty,
        } => {
            assert_eq!(t.text, format!("//{}{}", iauthority.text, ipath_abempty.text));
            let mut p = walk_iauthority(input, iauthority);
            let segs = walk_ipath_abempty(input, ipath_abempty);
            p.path = ipath_abempty.text;
            (p, Some(segs))
        }
        i::IhierPartKind::IpathAbsolute(s) => {
            assert_eq!(*s, t.text);
            assert!(s.starts_with('/') && !s.starts_with("//"));
            (path_only(input, s), None)
        }
        i::IhierPartKind::IpathRootless(r) => {
            assert_eq!(r.text, t.text);
            node(input, r.span, r.text, "ipath-rootless");
            assert!(!r.isegment_nz.is_empty());
            span_in(input, r.isegment_nz);
            let rest = &r.text[r.isegment_nz.len()..];
            let mut segs = vec![r.isegment_nz];
            segs.extend(list_items(input, r.isegments, rest, "ipath-rootless"));
            (path_only(input, r.text), Some(segs))
        }
        i::IhierPartKind::IpathEmpty(s) => {
            assert_eq!((*s, t.text), ("", ""));
            (path_only(input, s), Some(Vec::new()))
        }
    }
}

fn walk_irelative_part<'a>(input: &'a str, t: &i::IrelativePart<'a>) -> TreeParts<'a> {
    node(input, t.span, t.text, "irelative-part");
    match &t.kind {
        i::IrelativePartKind::Iauthority {
            iauthority,
            ipath_abempty,
        } => {
            assert_eq!(t.text, format!("//{}{}", iauthority.text, ipath_abempty.text));
            let mut p = walk_iauthority(input, iauthority);
            let segs = walk_ipath_abempty(input, ipath_abempty);
            p.path = ipath_abempty.text;
            (p, Some(segs))
        }
        i::IrelativePartKind::IpathAbsolute(s) => {
            assert_eq!(*s, t.text);
            assert!(s.starts_with('/') && !s.starts_with("//"));
            (path_only(input, s), None)
        }
        i::IrelativePartKind::IpathNoscheme(n) => {
            assert_eq!(n.text, t.text);
            node(input, n.span, n.text, "ipath-noscheme");
            assert!(!n.isegment_nz_nc.is_empty() && !n.isegment_nz_nc.contains(':'));
            span_in(input, n.isegment_nz_nc);
            let rest = &n.text[n.isegment_nz_nc.len()..];
            let mut segs = vec![n.isegment_nz_nc];
            segs.extend(list_items(input, n.isegments, rest, "ipath-noscheme"));
            (path_only(input, n.text), Some(segs))
        }
        i::IrelativePartKind::IpathEmpty(s) => {
            assert_eq!((*s, t.text), ("", ""));
            (path_only(input, s), Some(Vec::new()))
        }
    }
}

fn path_only<'a>(input: &'a str, path: &'a str) -> Parts<'a> {
    span_in(input, path);
    Parts {
        path,
        ..Parts::default()
    }
}

fn walk_ipath_abempty<'a>(input: &'a str, t: &i::IpathAbempty<'a>) -> Vec<&'a str> {
    node(input, t.span, t.text, "ipath-abempty");
    list_items(input, t.isegments, t.text, "ipath-abempty")
}

fn walk_iauthority<'a>(input: &'a str, t: &i::Iauthority<'a>) -> Parts<'a> {
    node(input, t.span, t.text, "iauthority");
    let host = walk_ihost(input, &t.ihost);
    let mut rebuilt = String::new();
    if let Some(u) = t.iuserinfo {
        span_in(input, u);
        rebuilt = format!("{u}@");
    }
    rebuilt += t.ihost.text;
    if let Some(port) = t.port {
        span_in(input, port);
        assert!(port.bytes().all(|b| b.is_ascii_digit()), "port {port:?}");
        rebuilt += ":";
        rebuilt += port;
    }
    assert_eq!(rebuilt, t.text, "iauthority parts in {input:?}");
    Parts {
        authority: Some(t.text),
        userinfo: t.iuserinfo,
        host: Some(host),
        host_str: Some(t.ihost.text),
        port: t.port,
        ..Parts::default()
    }
}

fn walk_ihost<'a>(input: &'a str, t: &i::Ihost<'a>) -> Host<'a> {
    node(input, t.span, t.text, "ihost");
    match t.kind {
        i::IhostKind::IpLiteral(lit) => {
            assert_eq!(lit.text, t.text);
            walk_ip_literal(input, &lit)
        }
        i::IhostKind::Ipv4address(s) => {
            assert_eq!(s, t.text);
            span_in(input, s);
            Host::Ipv4(s)
        }
        i::IhostKind::IregName(s) => {
            assert_eq!(s, t.text);
            span_in(input, s);
            Host::RegName(s)
        }
    }
}

fn walk_ip_literal<'a>(input: &'a str, lit: &u::IpLiteral<'a>) -> Host<'a> {
    node(input, lit.span, lit.text, "IP-literal");
    let inner = &lit.text[1..lit.text.len() - 1];
    let host = match lit.kind {
        u::IpLiteralKind::Ipv6address(s) => {
            assert!(rfc3986::IPV6ADDRESS.is_match(s));
            Host::Ipv6(s)
        }
        u::IpLiteralKind::IpvFuture(s) => {
            assert!(rfc3986::IPV_FUTURE.is_match(s));
            Host::IpvFuture(s)
        }
    };
    assert_eq!(host.as_str(), inner, "IP literal without brackets in {input:?}");
    span_in(input, host.as_str());
    host
}

// ---------------------------------------------------------------------------
// Walking the RFC 3986 tree
// ---------------------------------------------------------------------------

fn walk_uri_reference<'a>(input: &'a str, t: &u::UriReference<'a>) -> TreeParts<'a> {
    node(input, t.span, t.text, "URI-reference");
    assert_eq!(
        t.span,
        Span {
            start: 0,
            end: input.len()
        }
    );
    match &t.kind {
        u::UriReferenceKind::Uri(uri) => {
            assert_eq!(uri.span, t.span);
            walk_uri(input, uri)
        }
        u::UriReferenceKind::RelativeRef(r) => {
            assert_eq!(r.span, t.span);
            walk_relative_ref(input, r)
        }
    }
}

fn walk_uri<'a>(input: &'a str, t: &u::Uri<'a>) -> TreeParts<'a> {
    node(input, t.span, t.text, "URI");
    span_in(input, t.scheme);
    let (mut p, segs) = walk_hier_part(input, &t.hier_part);
    p.scheme = Some(t.scheme);
    p.query = t.query;
    p.fragment = t.fragment;
    assert_eq!(
        rebuild(Some(t.scheme), t.hier_part.text, t.query, t.fragment),
        t.text
    );
    (p, segs)
}

fn walk_relative_ref<'a>(input: &'a str, t: &u::RelativeRef<'a>) -> TreeParts<'a> {
    node(input, t.span, t.text, "relative-ref");
    let (mut p, segs) = walk_relative_part(input, &t.relative_part);
    p.query = t.query;
    p.fragment = t.fragment;
    assert_eq!(rebuild(None, t.relative_part.text, t.query, t.fragment), t.text);
    (p, segs)
}

fn walk_hier_part<'a>(input: &'a str, t: &u::HierPart<'a>) -> TreeParts<'a> {
    node(input, t.span, t.text, "hier-part");
    match &t.kind {
        u::HierPartKind::Authority {
            authority,
            path_abempty,
        } => {
            assert_eq!(t.text, format!("//{}{}", authority.text, path_abempty.text));
            let mut p = walk_authority(input, authority);
            node(input, path_abempty.span, path_abempty.text, "path-abempty");
            let segs = list_items(input, path_abempty.segments, path_abempty.text, "path-abempty");
            p.path = path_abempty.text;
            (p, Some(segs))
        }
        u::HierPartKind::PathAbsolute(s) => {
            assert_eq!(*s, t.text);
            (path_only(input, s), None)
        }
        u::HierPartKind::PathRootless(r) => {
            assert_eq!(r.text, t.text);
            node(input, r.span, r.text, "path-rootless");
            let rest = &r.text[r.segment_nz.len()..];
            let mut segs = vec![r.segment_nz];
            segs.extend(list_items(input, r.segments, rest, "path-rootless"));
            (path_only(input, r.text), Some(segs))
        }
        u::HierPartKind::PathEmpty(s) => {
            assert_eq!((*s, t.text), ("", ""));
            (path_only(input, s), Some(Vec::new()))
        }
    }
}

fn walk_relative_part<'a>(input: &'a str, t: &u::RelativePart<'a>) -> TreeParts<'a> {
    node(input, t.span, t.text, "relative-part");
    match &t.kind {
        u::RelativePartKind::Authority {
            authority,
            path_abempty,
        } => {
            assert_eq!(t.text, format!("//{}{}", authority.text, path_abempty.text));
            let mut p = walk_authority(input, authority);
            node(input, path_abempty.span, path_abempty.text, "path-abempty");
            let segs = list_items(input, path_abempty.segments, path_abempty.text, "path-abempty");
            p.path = path_abempty.text;
            (p, Some(segs))
        }
        u::RelativePartKind::PathAbsolute(s) => {
            assert_eq!(*s, t.text);
            (path_only(input, s), None)
        }
        u::RelativePartKind::PathNoscheme(n) => {
            assert_eq!(n.text, t.text);
            node(input, n.span, n.text, "path-noscheme");
            assert!(!n.segment_nz_nc.contains(':'));
            let rest = &n.text[n.segment_nz_nc.len()..];
            let mut segs = vec![n.segment_nz_nc];
            segs.extend(list_items(input, n.segments, rest, "path-noscheme"));
            (path_only(input, n.text), Some(segs))
        }
        u::RelativePartKind::PathEmpty(s) => {
            assert_eq!((*s, t.text), ("", ""));
            (path_only(input, s), Some(Vec::new()))
        }
    }
}

fn walk_authority<'a>(input: &'a str, t: &u::Authority<'a>) -> Parts<'a> {
    node(input, t.span, t.text, "authority");
    node(input, t.host.span, t.host.text, "host");
    let host = match t.host.kind {
        u::HostKind::IpLiteral(lit) => walk_ip_literal(input, &lit),
        u::HostKind::Ipv4address(s) => Host::Ipv4(s),
        u::HostKind::RegName(s) => Host::RegName(s),
    };
    let mut rebuilt = String::new();
    if let Some(u) = t.userinfo {
        rebuilt = format!("{u}@");
    }
    rebuilt += t.host.text;
    if let Some(port) = t.port {
        rebuilt += ":";
        rebuilt += port;
    }
    assert_eq!(rebuilt, t.text, "authority parts in {input:?}");
    Parts {
        authority: Some(t.text),
        userinfo: t.userinfo,
        host: Some(host),
        host_str: Some(t.host.text),
        port: t.port,
        ..Parts::default()
    }
}

// ---------------------------------------------------------------------------
// Checking one input all the ways it can be parsed
// ---------------------------------------------------------------------------

/// Parses `input` as IRI reference, IRI, URI reference and URI, through the
/// facade and the trees; checks that they agree with the recognizers and with
/// each other, and that valid parses satisfy the invariants. Returns the
/// IRI-reference parts when the input is one.
fn check_all(input: &str) -> Option<Parts<'_>> {
    // RFC 3987 §4.1 forbids bidi formatting characters in IRIs although the
    // §2.2 grammar allows them: the IRI types reject them, the recognizers
    // and trees (the grammar) accept them.
    let bidi = first_bidi(input);

    // IRI-reference.
    let facade = IriRef::parse(input);
    let tree = i::IriReference::parse(input);
    let grammar = rfc3987::IRI_REFERENCE.is_match(input);
    assert_eq!(
        facade.is_ok(),
        grammar && bidi.is_none(),
        "IriRef vs recognizer: {input:?}"
    );
    assert_eq!(
        tree.is_ok(),
        grammar,
        "ast::IriReference vs recognizer: {input:?}"
    );
    let tree_parts = tree.as_ref().ok().map(|t| walk_iri_reference(input, t));
    let result = match (&facade, &tree_parts) {
        (Ok(r), Some((tp, tsegs))) => {
            let p = facade_parts!(r);
            let segments: Vec<&str> = r.path_segments().collect();
            check_invariants(input, &p, r.is_absolute(), &segments);
            assert_eq!(&p, tp, "IriRef vs ast::IriReference: {input:?}");
            if let Some(tsegs) = tsegs {
                assert_eq!(
                    &segments, tsegs,
                    "path_segments vs the tree's segment list: {input:?}"
                );
            }
            assert_eq!(r.as_str(), input);
            Some(p)
        }
        (Err(e), _) => {
            check_strict_error(input, e, &rfc3987::IRI_REFERENCE, bidi);
            if let (Err(te), ParseErrorKind::Syntax) = (&tree, e.kind()) {
                same_position(input, e.offset(), te.offset());
            }
            None
        }
        (Ok(_), None) => unreachable!(),
    };
    let tree_parts = tree_parts.map(|(p, _)| p);

    // IRI.
    let facade = Iri::parse(input);
    let tree = i::Iri::parse(input);
    let grammar = rfc3987::IRI.is_match(input);
    assert_eq!(
        facade.is_ok(),
        grammar && bidi.is_none(),
        "Iri vs recognizer: {input:?}"
    );
    assert_eq!(tree.is_ok(), grammar, "ast::Iri vs recognizer: {input:?}");
    if let Ok(t) = &tree {
        assert_eq!(
            Some(&walk_iri(input, t).0),
            tree_parts.as_ref(),
            "ast::Iri vs ast::IriReference: {input:?}"
        );
    } else if let Some(p) = &tree_parts {
        assert!(
            p.scheme.is_none(),
            "an IRI reference with a scheme is an IRI: {input:?}"
        );
    }
    match &facade {
        Ok(r) => {
            let p = facade_parts!(r);
            assert_eq!(Some(&p), result.as_ref(), "Iri vs IriRef: {input:?}");
            assert_eq!(IriRef::from(*r), facade_ok(IriRef::parse(input)));
        }
        Err(e) => check_strict_error(input, e, &rfc3987::IRI, bidi),
    }
    // absolute-IRI (tree only).
    match i::AbsoluteIri::parse(input) {
        Ok(t) => {
            assert!(rfc3987::ABSOLUTE_IRI.is_match(input));
            let (p, _) = walk_absolute_iri(input, &t);
            assert_eq!(
                Some(&p),
                tree_parts.as_ref(),
                "ast::AbsoluteIri vs ast::IriReference: {input:?}"
            );
        }
        Err(e) => assert_eq!(rfc3987::ABSOLUTE_IRI.validate(input), Err(e)),
    }

    // URI-reference.
    let facade = UriRef::parse(input);
    let tree = u::UriReference::parse(input);
    assert_eq!(
        facade.is_ok(),
        rfc3986::URI_REFERENCE.is_match(input),
        "UriRef vs recognizer: {input:?}"
    );
    assert_eq!(
        tree.is_ok(),
        facade.is_ok(),
        "ast::UriReference vs UriRef: {input:?}"
    );
    match (&facade, &tree) {
        (Ok(r), Ok(t)) => {
            let p = facade_parts!(r);
            assert!(input.is_ascii());
            // Every URI reference is an IRI reference with the same components.
            assert_eq!(Some(&p), result.as_ref(), "UriRef vs IriRef: {input:?}");
            let (tp, tsegs) = walk_uri_reference(input, t);
            assert_eq!(tp, p, "UriRef vs ast::UriReference: {input:?}");
            let segments: Vec<&str> = r.path_segments().collect();
            if let Some(tsegs) = tsegs {
                assert_eq!(segments, tsegs);
            }
            assert_eq!(
                facade_parts!(IriRef::from(*r)),
                p,
                "IriRef::from(UriRef): {input:?}"
            );
        }
        (Err(e), Err(_)) => {
            check_error(input, e, &rfc3986::URI_REFERENCE);
            if result.is_some() {
                assert!(
                    !input.is_ascii(),
                    "an ASCII IRI reference is a URI reference: {input:?}"
                );
            }
        }
        _ => unreachable!(),
    }

    // URI.
    let facade = Uri::parse(input);
    let tree = u::Uri::parse(input);
    assert_eq!(
        facade.is_ok(),
        rfc3986::URI.is_match(input),
        "Uri vs recognizer: {input:?}"
    );
    assert_eq!(tree.is_ok(), facade.is_ok(), "ast::Uri vs Uri: {input:?}");
    match (&facade, &tree) {
        (Ok(r), Ok(t)) => {
            let p = facade_parts!(r);
            assert_eq!(Some(&p), result.as_ref(), "Uri vs IriRef: {input:?}");
            assert_eq!(walk_uri(input, t).0, p, "Uri vs ast::Uri: {input:?}");
            assert_eq!(facade_parts!(Iri::from(*r)), p, "Iri::from(Uri): {input:?}");
            assert_eq!(facade_parts!(UriRef::from(*r)), p, "UriRef::from(Uri): {input:?}");
        }
        (Err(e), Err(_)) => check_error(input, e, &rfc3986::URI),
        _ => unreachable!(),
    }
    result
}

fn facade_ok<T>(r: Result<T, ParseError>) -> T {
    r.unwrap_or_else(|e| panic!("{e}"))
}

/// The first bidirectional formatting character (RFC 3987 §4.1: LRM, RLM,
/// LRE, RLE, PDF, LRO, RLO) and its byte offset.
fn first_bidi(input: &str) -> Option<(usize, char)> {
    input
        .char_indices()
        .find(|&(_, c)| matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}'))
}

/// An error of a strict IRI type: the earliest problem, a syntax error
/// (see `check_error`) or the first bidi formatting character.
fn check_strict_error(input: &str, e: &ParseError, rule: &Recognizer, bidi: Option<(usize, char)>) {
    let syntax_at = rule.validate(input).err().map(|m| m.offset());
    match bidi {
        Some((at, c)) if syntax_at.is_none_or(|s| s >= at) => {
            assert_eq!(e.kind(), ParseErrorKind::BidiFormatting, "{input:?}: {e}");
            assert_eq!((e.offset(), e.found()), (at, Some(c)), "{input:?}: {e}");
            assert_eq!((e.grammar(), e.rule()), (rule.grammar(), rule.rule()));
            let shown = e.to_string();
            assert!(shown.contains(&format!("byte {at}")), "{shown}");
            assert!(shown.contains(&format!("U+{:04X}", u32::from(c))), "{shown}");
        }
        _ => {
            assert_eq!(e.kind(), ParseErrorKind::Syntax, "{input:?}: {e}");
            check_error(input, e, rule);
        }
    }
}

/// What holds for every parse error: it names the recognizer's rule and
/// offset, `found` is the character there, that character's first byte is not
/// among the expected bytes, and Display mentions the offset and the rule.
fn check_error(input: &str, e: &ParseError, rule: &Recognizer) {
    let m = rule.validate(input).expect_err("the recognizer rejects it too");
    assert_eq!(e.kind(), ParseErrorKind::Syntax, "{input:?}: {e}");
    same_position(input, e.offset(), m.offset());
    assert_eq!(e.rule(), rule.rule());
    assert_eq!(e.grammar(), rule.grammar());
    if input.is_char_boundary(e.offset()) {
        assert_eq!(
            e.found(),
            input[e.offset()..].chars().next(),
            "found in {input:?}"
        );
        // When the automaton stopped on the first byte of the character, that
        // byte is not among the expected ones (inside a character, the
        // error reports the character's start, whose first byte may be).
        if let Some(&b) = input
            .as_bytes()
            .get(e.offset())
            .filter(|_| e.offset() == m.offset())
        {
            assert!(
                !e.expects(b),
                "{input:?}: the byte that stopped the match is reported as expected"
            );
        }
    }
    // What it expected is what `validate` (which walks to the offset
    // again) says was expected there (on a sample of bytes: `expects`
    // works the whole set out on each call).
    if e.offset() == m.offset() {
        for b in (0..=255u8).step_by(16).chain(*b":/?#[]@%.-0aZ~ ") {
            assert_eq!(e.expects(b), m.expected().contains(b), "{input:?}: byte {b:#x}");
        }
    }
    // (An offset inside a character is `parse_error_inside_a_character`.)
    let shown = e.to_string();
    assert!(shown.contains(&format!("byte {}", e.offset())), "{shown}");
    assert!(
        shown.contains(&format!("{}:{}", rule.grammar(), rule.rule())),
        "{shown}"
    );
}

/// A `ParseError` offset is the recognizer's (`MatchError`) offset, or the
/// start of the character that contains it.
fn same_position(input: &str, parse_error: usize, match_error: usize) {
    let mut start = match_error.min(input.len());
    while !input.is_char_boundary(start) {
        start -= 1;
    }
    assert!(
        parse_error == match_error || parse_error == start,
        "{input:?}: ParseError at {parse_error}, MatchError at {match_error}"
    );
}

// ---------------------------------------------------------------------------
// The disambiguation examples and component tables
// ---------------------------------------------------------------------------

/// `(input, expected parts)` for inputs where the choice between two readings
/// is the point. `P` is a builder to keep the table short.
#[derive(Clone, Copy, Default)]
struct P {
    scheme: Option<&'static str>,
    userinfo: Option<&'static str>,
    host: Option<Host<'static>>,
    port: Option<&'static str>,
    path: &'static str,
    query: Option<&'static str>,
    fragment: Option<&'static str>,
}

fn expect(input: &str, want: P) {
    let r = IriRef::parse(input).unwrap_or_else(|e| panic!("{input:?}: {e}"));
    let got = facade_parts!(r);
    let want_host_str = want.host.map(|h| match h {
        Host::Ipv6(s) | Host::IpvFuture(s) => format!("[{s}]"),
        Host::Ipv4(s) | Host::RegName(s) => s.to_string(),
    });
    assert_eq!(got.scheme, want.scheme, "scheme of {input:?}");
    assert_eq!(got.userinfo, want.userinfo, "userinfo of {input:?}");
    assert_eq!(got.host, want.host, "host of {input:?}");
    assert_eq!(
        got.host_str.map(str::to_string),
        want_host_str,
        "host_str of {input:?}"
    );
    assert_eq!(got.port, want.port, "port of {input:?}");
    assert_eq!(got.path, want.path, "path of {input:?}");
    assert_eq!(got.query, want.query, "query of {input:?}");
    assert_eq!(got.fragment, want.fragment, "fragment of {input:?}");
    assert_eq!(r.is_absolute(), want.scheme.is_some());
    // The same through the tree and the other types.
    assert_eq!(check_all(input), Some(got));
}

#[test]
fn ipv4_only_when_the_grammar_says_so() {
    let http = Some("http");
    expect(
        "http://1.2.3.4/",
        P {
            scheme: http,
            host: Some(Host::Ipv4("1.2.3.4")),
            path: "/",
            ..P::default()
        },
    );
    // Not a dotted quad of dec-octets: a registered name (RFC 3986 §3.2.2,
    // "first-match-wins" for the host alternatives).
    for host in [
        "1.2.3.4.5",
        "256.1.1.1",
        "1.2.3",
        "01.2.3.4",
        "1.2.3.04",
        "1.2.3.4.",
        "1.2.3.255a",
        "0x7f.0.0.1",
        "256.256.256.256",
        "",
    ] {
        let input = format!("http://{host}/");
        expect(
            &input,
            P {
                scheme: http,
                host: Some(Host::RegName(host)),
                path: "/",
                ..P::default()
            },
        );
    }
    for host in ["0.0.0.0", "255.255.255.255", "249.250.199.100", "10.0.0.9"] {
        let input = format!("//{host}:8");
        expect(
            &input,
            P {
                host: Some(Host::Ipv4(host)),
                port: Some("8"),
                ..P::default()
            },
        );
    }
}

#[test]
fn userinfo_host_port_split() {
    expect(
        "//a:b@c:1",
        P {
            userinfo: Some("a:b"),
            host: Some(Host::RegName("c")),
            port: Some("1"),
            ..P::default()
        },
    );
    let r = IriRef::parse("//a:b@c:1").unwrap();
    assert_eq!(r.authority(), Some("a:b@c:1"));
    assert_eq!(r.port().unwrap().as_u16(), Some(1));
    // Without "@" the colon separates the port.
    expect(
        "//a:1",
        P {
            host: Some(Host::RegName("a")),
            port: Some("1"),
            ..P::default()
        },
    );
    // Userinfo may hold several colons; the port is after the host.
    expect(
        "s://u:v:w@h:99/p",
        P {
            scheme: Some("s"),
            userinfo: Some("u:v:w"),
            host: Some(Host::RegName("h")),
            port: Some("99"),
            path: "/p",
            ..P::default()
        },
    );
    // "@" in a path is just a path character.
    expect(
        "mailto:a@example.org",
        P {
            scheme: Some("mailto"),
            path: "a@example.org",
            ..P::default()
        },
    );
    expect(
        "//h/@x:1",
        P {
            host: Some(Host::RegName("h")),
            path: "/@x:1",
            ..P::default()
        },
    );
}

#[test]
fn relative_paths_with_colons() {
    // RFC 3986 §4.2: a first segment with ":" would be a scheme, so `a/b:c`
    // (colon in a later segment) is a relative reference.
    expect(
        "a/b:c",
        P {
            path: "a/b:c",
            ..P::default()
        },
    );
    let r = IriRef::parse("a/b:c").unwrap();
    assert!(!r.is_absolute());
    assert_eq!(r.path_segments().collect::<Vec<_>>(), ["a", "b:c"]);
    assert!(matches!(
        i::IriReference::parse("a/b:c").unwrap().kind,
        i::IriReferenceKind::IrelativeRef(_)
    ));
    // With the colon first it is a scheme.
    expect(
        "a:b/c",
        P {
            scheme: Some("a"),
            path: "b/c",
            ..P::default()
        },
    );
    expect(
        "./a:b",
        P {
            path: "./a:b",
            ..P::default()
        },
    );
    // A scheme must start with a letter; a relative first segment cannot
    // hold a colon, so these are not references at all.
    for bad in ["1a:b", "-:x", ":x", "+a:b"] {
        assert!(IriRef::parse(bad).is_err(), "{bad:?}");
        assert!(check_all(bad).is_none());
    }
}

#[test]
fn ip_literals() {
    for (input, host, port) in [
        ("http://[::1]:80/", Host::Ipv6("::1"), Some("80")),
        ("http://[2001:db8::7]/", Host::Ipv6("2001:db8::7"), None),
        ("//[::ffff:192.0.2.1]", Host::Ipv6("::ffff:192.0.2.1"), None),
        ("//[1:2:3:4:5:6:7:8]:", Host::Ipv6("1:2:3:4:5:6:7:8"), Some("")),
        ("//[::]", Host::Ipv6("::"), None),
        ("//[FEDC:BA98::3210]", Host::Ipv6("FEDC:BA98::3210"), None),
        ("http://[v7.x:y]/", Host::IpvFuture("v7.x:y"), None),
        (
            "http://[V1F.a!$&'()*+,;=-._~:]:1/",
            Host::IpvFuture("V1F.a!$&'()*+,;=-._~:"),
            Some("1"),
        ),
        ("//u@[vA.1]", Host::IpvFuture("vA.1"), None),
    ] {
        let path = if input.starts_with("http") { "/" } else { "" };
        let userinfo = input.contains('@').then_some("u");
        expect(
            input,
            P {
                scheme: input.starts_with("http").then_some("http"),
                userinfo,
                host: Some(host),
                port,
                path,
                ..P::default()
            },
        );
        let r = IriRef::parse(input).unwrap();
        let shown = r.host_str().unwrap();
        assert!(shown.starts_with('[') && shown.ends_with(']'), "{shown}");
        assert_eq!(
            r.host().unwrap().kind(),
            if matches!(host, Host::Ipv6(_)) {
                "ipv6"
            } else {
                "ipvfuture"
            }
        );
    }
    // The tree says the same, with the literal's own node.
    let t = i::Ihost::parse("[::1]").unwrap();
    match t.kind {
        i::IhostKind::IpLiteral(lit) => {
            assert_eq!(lit.text, "[::1]");
            assert_eq!(lit.span, Span { start: 0, end: 5 });
            assert_eq!(lit.kind, u::IpLiteralKind::Ipv6address("::1"));
        }
        other => panic!("{other:?}"),
    }
    let t = u::Host::parse("[v1.x]").unwrap();
    assert!(matches!(
        t.kind,
        u::HostKind::IpLiteral(u::IpLiteral {
            kind: u::IpLiteralKind::IpvFuture("v1.x"),
            ..
        })
    ));
    // Near misses are not valid at all (no fallback to a reg-name: "[" is
    // not a reg-name character).
    for bad in [
        "http://[::1",
        "http://[1.2.3.4]/",
        "http://[v1.]/",
        "http://[v.x]/",
        "http://[1:2:3:4:5:6:7:8:9]/",
        "http://[::1%25eth0]/",
        "http://[::1]x/",
        "http://::1/",
        "http://[]/",
        "http://[g::1]/",
    ] {
        assert!(check_all(bad).is_none(), "{bad:?}");
    }
    assert_eq!(Host::Ipv4("1.2.3.4").kind(), "ipv4");
    assert_eq!(Host::RegName("a").kind(), "reg-name");
    assert_eq!(Host::Ipv6("::1").as_str(), "::1");
}

#[test]
fn empty_versus_absent() {
    let cases: [(&str, P); 14] = [
        (
            "http://a:/",
            P {
                scheme: Some("http"),
                host: Some(Host::RegName("a")),
                port: Some(""),
                path: "/",
                ..P::default()
            },
        ),
        (
            "http://@a/",
            P {
                scheme: Some("http"),
                userinfo: Some(""),
                host: Some(Host::RegName("a")),
                path: "/",
                ..P::default()
            },
        ),
        (
            "http://a/?",
            P {
                scheme: Some("http"),
                host: Some(Host::RegName("a")),
                path: "/",
                query: Some(""),
                ..P::default()
            },
        ),
        (
            "http://a/#",
            P {
                scheme: Some("http"),
                host: Some(Host::RegName("a")),
                path: "/",
                fragment: Some(""),
                ..P::default()
            },
        ),
        (
            "http://a?#",
            P {
                scheme: Some("http"),
                host: Some(Host::RegName("a")),
                query: Some(""),
                fragment: Some(""),
                ..P::default()
            },
        ),
        (
            "http://a",
            P {
                scheme: Some("http"),
                host: Some(Host::RegName("a")),
                ..P::default()
            },
        ),
        (
            "http:",
            P {
                scheme: Some("http"),
                ..P::default()
            },
        ),
        (
            "http://",
            P {
                scheme: Some("http"),
                host: Some(Host::RegName("")),
                ..P::default()
            },
        ),
        (
            "file:///etc",
            P {
                scheme: Some("file"),
                host: Some(Host::RegName("")),
                path: "/etc",
                ..P::default()
            },
        ),
        (
            "//@:",
            P {
                userinfo: Some(""),
                host: Some(Host::RegName("")),
                port: Some(""),
                ..P::default()
            },
        ),
        ("", P::default()),
        (
            "?",
            P {
                query: Some(""),
                ..P::default()
            },
        ),
        (
            "#",
            P {
                fragment: Some(""),
                ..P::default()
            },
        ),
        (
            "?#?",
            P {
                query: Some(""),
                fragment: Some("?"),
                ..P::default()
            },
        ),
    ];
    for (input, want) in cases {
        expect(input, want);
    }
    // Absent authority vs empty authority.
    assert_eq!(IriRef::parse("http:").unwrap().authority(), None);
    assert_eq!(IriRef::parse("http://").unwrap().authority(), Some(""));
    assert_eq!(IriRef::parse("//@:").unwrap().authority(), Some("@:"));
    // Port values.
    fn port(s: &str) -> Option<(&str, Option<u16>)> {
        IriRef::parse(s).unwrap().port().map(|p| (p.as_str(), p.as_u16()))
    }
    assert_eq!(port("//a:"), Some(("", None)));
    assert_eq!(port("//a:0"), Some(("0", Some(0))));
    assert_eq!(port("//a:0080"), Some(("0080", Some(80))));
    assert_eq!(port("//a:65535"), Some(("65535", Some(65535))));
    assert_eq!(port("//a:65536"), Some(("65536", None)));
    assert_eq!(
        port("//a:99999999999999999999"),
        Some(("99999999999999999999", None))
    );
    assert_eq!(port("//a"), None);
    assert!(IriRef::parse("//a:-1").is_err());
    assert!(IriRef::parse("//a:+1").is_err());
    assert!(IriRef::parse("//a:1a").is_err());
}

#[test]
fn iri_characters_and_private_use() {
    expect(
        "http://例え.jp/引き出し?q=値#片",
        P {
            scheme: Some("http"),
            host: Some(Host::RegName("例え.jp")),
            path: "/引き出し",
            query: Some("q=値"),
            fragment: Some("片"),
            ..P::default()
        },
    );
    expect(
        "//ü:ß@ñ.es:1/é",
        P {
            userinfo: Some("ü:ß"),
            host: Some(Host::RegName("ñ.es")),
            port: Some("1"),
            path: "/é",
            ..P::default()
        },
    );
    // iprivate is allowed in the query only (RFC 3987 §2.2).
    expect(
        "http://a/?\u{E000}\u{F0000}",
        P {
            scheme: Some("http"),
            host: Some(Host::RegName("a")),
            path: "/",
            query: Some("\u{E000}\u{F0000}"),
            ..P::default()
        },
    );
    for bad in [
        "http://a/\u{E000}",
        "http://a/#\u{E000}",
        "//\u{E000}",
        "http://a/\u{FFFF}",
        "a b",
    ] {
        assert!(check_all(bad).is_none(), "{bad:?}");
    }
    assert!(Uri::parse("http://例え.jp/").is_err());
    assert!(UriRef::parse("/é").is_err());
    // Percent-encoding: kept as written, must be two hex digits.
    expect(
        "/%C3%A9%2f?%20#%7e",
        P {
            path: "/%C3%A9%2f",
            query: Some("%20"),
            fragment: Some("%7e"),
            ..P::default()
        },
    );
    for bad in ["/%", "/%a", "/%zz", "%GG", "http://a%2/", "?%", "#%1"] {
        assert!(check_all(bad).is_none(), "{bad:?}");
    }
}

#[test]
fn path_segments() {
    let segs = |s: &str| -> Vec<String> {
        IriRef::parse(s)
            .unwrap_or_else(|e| panic!("{s:?}: {e}"))
            .path_segments()
            .map(str::to_string)
            .collect()
    };
    let cases: &[(&str, &[&str])] = &[
        ("http://a/b//c/", &["b", "", "c", ""]),
        ("http://a", &[]),
        ("http://a/", &[""]),
        ("http://a?x/y", &[]),
        ("a/b:c", &["a", "b:c"]),
        ("/", &[""]),
        ("/a", &["a"]),
        ("", &[]),
        ("?q", &[]),
        ("mailto:x@y", &["x@y"]),
        ("urn:isbn:0451450523", &["isbn:0451450523"]),
        ("s:a/", &["a", ""]),
        ("s:/a/./../b", &["a", ".", "..", "b"]),
        ("//h///", &["", "", ""]),
        ("../x?y#z/w", &["..", "x"]),
        ("/résumé/x", &["résumé", "x"]),
    ];
    for (input, want) in cases {
        assert_eq!(segs(input), *want, "{input:?}");
        check_all(input).unwrap();
    }
    // The tree's lists: segments without their "/".
    let t = i::IpathAbempty::parse("/a//b/").unwrap();
    assert_eq!(t.isegments.collect::<Vec<_>>(), ["a", "", "b", ""]);
    assert_eq!(t.isegments.as_str(), "/a//b/");
    let t = i::IpathRootless::parse("x:y/z").unwrap();
    assert_eq!(
        (t.isegment_nz, t.isegments.collect::<Vec<_>>()),
        ("x:y", vec!["z"])
    );
    assert!(i::IpathNoscheme::parse("x:y/z").is_err());
    let t = u::PathNoscheme::parse("x/y:z/").unwrap();
    assert_eq!(
        (t.segment_nz_nc, t.segments.collect::<Vec<_>>()),
        ("x", vec!["y:z", ""])
    );
    let t = u::PathAbempty::parse("").unwrap();
    assert_eq!(t.segments.count(), 0);
    // Lists compare by their text and print as their items.
    let a = u::PathAbempty::parse("/p/q").unwrap();
    let b = i::IpathAbempty::parse("/p/q").unwrap();
    assert_eq!(format!("{:?}", a.segments), r#"["p", "q"]"#);
    assert_eq!(format!("{:?}", b.isegments), r#"["p", "q"]"#);
    assert_eq!(a.segments, u::PathAbempty::parse("/p/q").unwrap().segments);
    assert_ne!(a.segments, u::PathAbempty::parse("/p/r").unwrap().segments);
}

// ---------------------------------------------------------------------------
// The generated trees directly
// ---------------------------------------------------------------------------

#[test]
fn tree_alternatives() {
    let t = i::IriReference::parse("http://u@1.2.3.4:8/a/b?q#f").unwrap();
    let i::IriReferenceKind::Iri(iri) = t.kind else {
        panic!("{t:?}")
    };
    assert_eq!(
        (iri.scheme, iri.iquery, iri.ifragment),
        ("http", Some("q"), Some("f"))
    );
    let i::IhierPartKind::Iauthority {
        iauthority,
        ipath_abempty,
    } = iri.ihier_part.kind
    else {
        panic!("{iri:?}")
    };
    assert_eq!(iauthority.text, "u@1.2.3.4:8");
    assert_eq!(iauthority.span, Span { start: 7, end: 18 });
    assert_eq!((iauthority.iuserinfo, iauthority.port), (Some("u"), Some("8")));
    assert_eq!(iauthority.ihost.kind, i::IhostKind::Ipv4address("1.2.3.4"));
    assert_eq!(iauthority.ihost.span, Span { start: 9, end: 16 });
    assert_eq!(ipath_abempty.span, Span { start: 18, end: 22 });
    assert_eq!(ipath_abempty.isegments.collect::<Vec<_>>(), ["a", "b"]);

    assert_eq!(
        i::Ihost::parse("1.2.3.4.5").unwrap().kind,
        i::IhostKind::IregName("1.2.3.4.5")
    );
    assert_eq!(
        i::Ihost::parse("256.1.1.1").unwrap().kind,
        i::IhostKind::IregName("256.1.1.1")
    );
    assert_eq!(
        u::Host::parse("1.2.3.4").unwrap().kind,
        u::HostKind::Ipv4address("1.2.3.4")
    );
    assert_eq!(u::Host::parse("b.c").unwrap().kind, u::HostKind::RegName("b.c"));

    let a = i::Iauthority::parse("a:b@c:1").unwrap();
    assert_eq!((a.iuserinfo, a.ihost.text, a.port), (Some("a:b"), "c", Some("1")));
    let a = u::Authority::parse("c").unwrap();
    assert_eq!((a.userinfo, a.host.text, a.port), (None, "c", None));

    let t = i::IriReference::parse("a/b:c").unwrap();
    let i::IriReferenceKind::IrelativeRef(r) = t.kind else {
        panic!("{t:?}")
    };
    let i::IrelativePartKind::IpathNoscheme(n) = r.irelative_part.kind else {
        panic!("{r:?}")
    };
    assert_eq!(
        (n.isegment_nz_nc, n.isegments.collect::<Vec<_>>()),
        ("a", vec!["b:c"])
    );

    let h = i::IhierPart::parse("/x/y").unwrap();
    assert_eq!(h.kind, i::IhierPartKind::IpathAbsolute("/x/y"));
    let h = i::IhierPart::parse("").unwrap();
    assert_eq!(h.kind, i::IhierPartKind::IpathEmpty(""));
    let h = u::HierPart::parse("x:y").unwrap();
    assert!(matches!(h.kind, u::HierPartKind::PathRootless(r) if r.segment_nz == "x:y"));
    let r = u::RelativePart::parse("//h").unwrap();
    assert!(
        matches!(r.kind, u::RelativePartKind::Authority { authority, path_abempty }
        if authority.text == "h" && path_abempty.text.is_empty())
    );

    let p = i::Ipath::parse("a:b").unwrap();
    assert!(matches!(p.kind, i::IpathKind::IpathRootless(_)), "{p:?}");
    let p = i::Ipath::parse("ab").unwrap();
    // path = path-abempty / path-absolute / path-noscheme / path-rootless /
    // path-empty, first match wins: "ab" is path-noscheme.
    assert!(matches!(p.kind, i::IpathKind::IpathNoscheme(_)), "{p:?}");

    // Absolute IRIs have no fragment.
    assert!(i::AbsoluteIri::parse("s:x#f").is_err());
    assert_eq!(i::AbsoluteIri::parse("s:x?q").unwrap().iquery, Some("q"));
    assert!(u::AbsoluteUri::parse("s:x#f").is_err());

    // Errors from the trees: grammar, rule and offset.
    let e = i::IriReference::parse("http://a b").unwrap_err();
    assert_eq!(
        (e.grammar(), e.rule(), e.offset()),
        ("rfc3987", "IRI-reference", 8)
    );
    let e = u::Uri::parse("http://é").unwrap_err();
    assert_eq!((e.grammar(), e.rule(), e.offset()), ("rfc3986", "URI", 7));
    let e = i::Ihost::parse("[::1").unwrap_err();
    assert_eq!((e.rule(), e.offset()), ("ihost", 4));
}

#[test]
fn tree_nodes_are_plain_values() {
    // Copy, Eq and Debug: two parses of equal text give equal trees.
    let s1 = String::from("s://h/p?q");
    let s2 = s1.clone();
    let a = i::IriReference::parse(&s1).unwrap();
    let b = i::IriReference::parse(&s2).unwrap();
    let c = a;
    assert_eq!(a, b);
    assert_eq!(a, c);
    assert!(format!("{a:?}").contains("IriReference"));
    assert_ne!(a, i::IriReference::parse("s://h/p?r").unwrap());
}

// ---------------------------------------------------------------------------
// Conversions, owned types and the standard traits
// ---------------------------------------------------------------------------

const SAMPLES: &[&str] = &[
    "http://a:b@[::1]:8/p/q?x=1#f",
    "mailto:a@example.org",
    "urn:isbn:0451450523",
    "HTTP://EXAMPLE.COM:/%7Efoo",
    "s:",
    "s://",
    "file:///etc/hosts",
    "x://1.2.3.4.5/",
];

#[test]
fn uri_to_iri_keeps_components() {
    for &s in SAMPLES {
        let uri = Uri::parse(s).unwrap();
        let want = facade_parts!(uri);
        let iri: Iri<'_> = uri.into();
        assert_eq!(facade_parts!(iri), want, "{s:?}");
        assert_eq!(facade_parts!(Iri::from(uri)), want);
        // The same as parsing the text as an IRI.
        assert_eq!(iri, Iri::parse(s).unwrap());
        assert_eq!(facade_parts!(Iri::parse(s).unwrap()), want);
        assert_eq!(iri.as_str(), s);
        let iri_ref: IriRef<'_> = iri.into();
        assert_eq!(facade_parts!(iri_ref), want);
        let uri_ref: UriRef<'_> = uri.into();
        assert_eq!(facade_parts!(uri_ref), want);
        assert_eq!(facade_parts!(IriRef::from(uri_ref)), want);
        assert_eq!(
            IriRef::from(uri_ref).path_segments().collect::<Vec<_>>(),
            uri.path_segments().collect::<Vec<_>>()
        );
        // Owned.
        let owned: IriBuf = IriBuf::from(UriBuf::parse(s.to_string()).unwrap());
        assert_eq!(facade_parts!(owned.as_ref()), want);
        let owned: IriRefBuf = UriRefBuf::parse(s.to_string()).unwrap().into();
        assert_eq!(facade_parts!(owned.as_ref()), want);
    }
    for s in ["//h/p", "../x?y", "#f"] {
        let u = UriRef::parse(s).unwrap();
        assert_eq!(
            facade_parts!(IriRef::from(u)),
            facade_parts!(IriRef::parse(s).unwrap())
        );
    }
}

#[test]
fn owned_types_round_trip() {
    for &s in SAMPLES {
        let borrowed = IriRef::parse(s).unwrap();
        let want = facade_parts!(borrowed);
        let owned = IriRefBuf::parse(s.to_string()).unwrap();
        assert_eq!(facade_parts!(owned.as_ref()), want, "{s:?}");
        assert_eq!(owned.as_ref(), borrowed);
        assert_eq!(owned.as_str(), s);
        assert_eq!(borrowed.to_owned(), owned);
        assert_eq!(IriRefBuf::from(borrowed), owned);
        let cloned = owned.clone();
        assert_eq!(cloned, owned);
        assert_eq!(owned.clone().into_string(), s);
        assert_eq!(String::from(cloned), s);
        // Moving the owned value (its text to the heap of a new Box) keeps
        // its parts valid.
        let moved = Box::new(owned);
        assert_eq!(facade_parts!(IriRefBuf::as_ref(&moved)), want);

        let owned = IriBuf::parse(s.to_string()).unwrap();
        assert_eq!(
            facade_parts!(owned.as_ref()),
            facade_parts!(Iri::parse(s).unwrap())
        );
        assert_eq!(Iri::parse(s).unwrap().to_owned(), owned);
        let owned = UriRefBuf::parse(s.to_string()).unwrap();
        assert_eq!(facade_parts!(owned.as_ref()), want);
        let owned = UriBuf::parse(s.to_string()).unwrap();
        assert_eq!(facade_parts!(owned.as_ref()), want);
        assert_eq!(owned.into_string(), s);
    }
    // Errors are the same as the borrowed ones; the string is not kept.
    let e = IriRefBuf::parse("a b".to_string()).unwrap_err();
    assert_eq!(e, IriRef::parse("a b").unwrap_err());
    assert_eq!(
        UriBuf::parse("x".into()).unwrap_err(),
        Uri::parse("x").unwrap_err()
    );
}

#[test]
fn standard_traits() {
    // FromStr and TryFrom.
    let a: IriRefBuf = "http://a/b".parse().unwrap();
    let b = IriRefBuf::try_from("http://a/b").unwrap();
    let c = IriRefBuf::try_from(String::from("http://a/b")).unwrap();
    let d = IriRef::try_from("http://a/b").unwrap();
    assert_eq!(a, b);
    assert_eq!(b, c);
    assert_eq!(a.as_ref(), d);
    assert!("a b".parse::<IriRefBuf>().is_err());
    assert!("//x".parse::<IriBuf>().is_err());
    assert!("/é".parse::<UriRefBuf>().is_err());
    assert!(UriBuf::try_from("http://é").is_err());
    assert!(Iri::try_from("rel").is_err());
    assert_eq!("s:x".parse::<UriBuf>().unwrap().as_str(), "s:x");
    assert_eq!(
        "a b".parse::<IriRefBuf>().unwrap_err(),
        IriRef::try_from("a b").unwrap_err()
    );

    // Display and Debug.
    assert_eq!(d.to_string(), "http://a/b");
    assert_eq!(a.to_string(), "http://a/b");
    assert_eq!(format!("{:?}", d), r#"IriRef("http://a/b")"#);
    assert_eq!(format!("{:?}", a), r#"IriRefBuf("http://a/b")"#);
    assert_eq!(format!("{:?}", Uri::parse("s:é").ok()), "None");
    assert_eq!(format!("{:?}", Uri::parse("s:x").unwrap()), r#"Uri("s:x")"#);
    assert_eq!(format!("{}", UriBuf::parse("s:x".into()).unwrap()), "s:x");

    // AsRef<str>, for both (the owned types' inherent `as_ref` gives the
    // borrowed type).
    fn takes_str<S: AsRef<str>>(s: S) -> String {
        s.as_ref().to_string()
    }
    assert_eq!(takes_str(d), "http://a/b");
    assert_eq!(takes_str(&a), "http://a/b");
    assert_eq!(takes_str(Iri::parse("s:y").unwrap()), "s:y");
    assert_eq!(AsRef::<str>::as_ref(&a), "http://a/b");
    let borrowed: IriRef<'_> = a.as_ref();
    assert_eq!(borrowed.path(), "/b");

    // PartialEq and Hash: by text, exactly (no normalization).
    let x = IriRef::parse("http://a/").unwrap();
    let y_text = String::from("http://a/");
    let y = IriRef::parse(&y_text).unwrap();
    let z = IriRef::parse("HTTP://a/").unwrap();
    assert_eq!(x, y);
    assert_ne!(x, z);
    assert_ne!(
        IriRef::parse("http://a/%7e").unwrap(),
        IriRef::parse("http://a/~").unwrap()
    );
    let state = RandomState::new();
    assert_eq!(state.hash_one(x), state.hash_one(y));
    assert_eq!(state.hash_one(&a), state.hash_one(&b));
    let set: HashSet<IriRef<'_>> = [x, y, z].into_iter().collect();
    assert_eq!(set.len(), 2);
    assert!(set.contains(&IriRef::parse("http://a/").unwrap()));
    let set: HashSet<IriRefBuf> = [a.clone(), b.clone(), c, "http://a/c".parse().unwrap()]
        .into_iter()
        .collect();
    assert_eq!(set.len(), 2);
    let set: HashSet<UriBuf> = ["s:a", "s:a", "s:b"].iter().map(|s| s.parse().unwrap()).collect();
    assert_eq!(set.len(), 2);

    // Borrowed types are Copy.
    let e = d;
    assert_eq!(e, d);
}

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

#[test]
fn parse_error_reports_offset_and_rule() {
    let e = IriRef::parse("http://a b").unwrap_err();
    assert_eq!(e.offset(), 8);
    assert_eq!((e.grammar(), e.rule()), ("rfc3987", "IRI-reference"));
    assert_eq!(e.found(), Some(' '));
    assert!(e.expects(b'/') && e.expects(b'?') && e.expects(b'#') && e.expects(b':'));
    assert!(!e.expects(b' '));
    let shown = e.to_string();
    assert!(shown.contains("byte 8"), "{shown}");
    assert!(shown.contains("rfc3987:IRI-reference"), "{shown}");
    assert!(shown.contains("' '"), "{shown}");

    // At the end of the input.
    let e = IriRef::parse("http://[::1").unwrap_err();
    assert_eq!((e.offset(), e.found()), (11, None));
    assert!(e.expects(b']') && e.expects(b':') && !e.expects(b'/'));
    let shown = e.to_string();
    assert!(
        shown.contains("end of input") && shown.contains("byte 11"),
        "{shown}"
    );

    // The other types name their own rule.
    let e = Uri::parse("http://é/").unwrap_err();
    assert_eq!(
        (e.grammar(), e.rule(), e.offset(), e.found()),
        ("rfc3986", "URI", 7, Some('é'))
    );
    assert!(e.to_string().contains("rfc3986:URI"), "{e}");
    let e = Iri::parse("//a").unwrap_err();
    assert_eq!((e.rule(), e.offset()), ("IRI", 0));
    let e = UriRef::parse("a%").unwrap_err();
    assert_eq!((e.rule(), e.offset(), e.found()), ("URI-reference", 2, None));
    // A multi-byte character: offset is the byte offset, found the char.
    let e = Iri::parse("s:/é\u{E000}").unwrap_err();
    assert_eq!((e.offset(), e.found()), (5, Some('\u{E000}')));
    // Nothing could follow: the message says so.
    let e = IriRef::parse("a:#f#").unwrap_err();
    assert_eq!(e.offset(), 4);
    // It is a std error.
    let boxed: Box<dyn std::error::Error> = Box::new(e);
    assert!(boxed.to_string().contains("byte 4"));
}

/// RFC 3987 §4.1: "IRIs MUST NOT contain bidirectional formatting
/// characters (LRM, RLM, LRE, RLE, LRO, RLO, and PDF)". The §2.2 grammar
/// allows them (they are `ucschar`s): the recognizers and trees accept them,
/// the IRI types do not.
#[test]
fn bidi_formatting_characters() {
    for c in [
        '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}',
    ] {
        let input = format!("http://a/{c}x?{c}#{c}");
        assert!(rfc3987::IRI_REFERENCE.is_match(&input) && rfc3987::IRI.is_match(&input));
        assert!(i::IriReference::parse(&input).is_ok() && i::Iri::parse(&input).is_ok());
        for e in [
            IriRef::parse(&input).unwrap_err(),
            Iri::parse(&input).unwrap_err(),
            IriBuf::parse(input.clone()).unwrap_err(),
            input.parse::<IriRefBuf>().unwrap_err(),
        ] {
            assert_eq!(e.kind(), ParseErrorKind::BidiFormatting, "{input:?}");
            assert_eq!((e.offset(), e.found()), (9, Some(c)), "{input:?}");
            assert!(e.to_string().contains("byte 9"), "{e}");
        }
        assert!(check_all(&input).is_none());
        // In a host or a relative reference too.
        assert_eq!(IriRef::parse(&format!("//{c}")).unwrap_err().offset(), 2);
        assert_eq!(
            IriRef::parse(&format!("{c}")).unwrap_err().kind(),
            ParseErrorKind::BidiFormatting
        );
    }
    // Neighbouring characters (including the later isolates, which RFC 3987
    // does not name) are ordinary ucschars.
    for c in [
        '\u{200D}', '\u{2010}', '\u{2029}', '\u{202F}', '\u{2066}', '\u{2069}',
    ] {
        let input = format!("http://a/{c}");
        assert_eq!(IriRef::parse(&input).map(|r| r.path()), Ok(&input[8..]), "{c:?}");
        check_all(&input).unwrap();
    }
    // The earliest problem is reported.
    let e = IriRef::parse("a b\u{202E}").unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ParseErrorKind::Syntax, 1));
    let e = IriRef::parse("/\u{202E} x").unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ParseErrorKind::BidiFormatting, 1));
    // (At the same offset, either reading is right; it is the bidi one.)
    let e = Iri::parse("\u{202E}:x").unwrap_err();
    assert_eq!(
        (e.kind(), e.offset(), e.found()),
        (ParseErrorKind::BidiFormatting, 0, Some('\u{202E}'))
    );
}

/// A character that is not allowed where it stands (here noncharacters,
/// which `ucschar` leaves out) is reported as a character: the offset is
/// where it starts, `found` is that character, and the message does not
/// claim the input ended.
#[test]
fn parse_error_inside_a_character() {
    for (input, offset, c) in [
        ("/\u{FFFF}", 1, '\u{FFFF}'),
        ("/\u{FDD0}", 1, '\u{FDD0}'),
        ("s:\u{FDD0}", 2, '\u{FDD0}'),
        ("/\u{1FFFE}", 1, '\u{1FFFE}'),
        ("http://a/\u{10FFFF}", 9, '\u{10FFFF}'),
    ] {
        let e = IriRef::parse(input).unwrap_err();
        assert!(input.len() > offset);
        assert_eq!((e.offset(), e.found()), (offset, Some(c)), "{input:?}: {e}");
        assert!(!e.to_string().contains("end of input"), "{input:?}: {e}");
        assert!(
            e.to_string().contains(&format!("byte {offset}")),
            "{input:?}: {e}"
        );
    }
}

/// The lines of a vector file (split on "\n" only: lines are verbatim).
fn lines(file: &str) -> impl Iterator<Item = &str> {
    file.strip_suffix('\n').unwrap_or(file).split('\n')
}

#[test]
fn invalid_inputs_are_errors_never_panics() {
    let bad = [
        " ",
        "http://a b/",
        "http://a/ b",
        "http://a/\t",
        "http://a/\n",
        "http://a\\b/",
        "http://a:b@c:d@e/",
        "http://a@b@c/",
        "http://a:1:2/",
        "http://[::1]:x/",
        "http://a/<>",
        "http://a/%",
        "http://a/%g0",
        "http://a/^",
        "http://a/{}",
        "http://a/\"",
        "http://a/|",
        "http://a/`",
        "http://a/[",
        "http://a/]",
        "http://a?[",
        "http://a#[",
        "http://a##",
        "1http://a/",
        "ht tp://a/",
        ":",
        "://a",
        "\u{0}",
        "a\u{7F}",
        "\u{FEFF}a:b",
        "\u{FFFD}",
        "s:\u{FDD0}",
        "//[",
        "//]",
        "//[]",
        "//[:]",
        "//[::1]]",
        "//[v1.a]:p",
    ];
    for input in bad {
        let r = catch_unwind(|| check_all(input));
        match r {
            Ok(None) => {}
            Ok(Some(p)) => panic!("{input:?} parsed: {p:?}"),
            Err(_) => panic!("{input:?} panicked"),
        }
    }
    for line in lines(include_str!("../data/vectors/invalid-iri.txt")) {
        assert!(IriRef::parse(line).is_err(), "{line:?}");
        assert!(IriRefBuf::parse(line.to_string()).is_err(), "{line:?}");
        assert!(i::IriReference::parse(line).is_err(), "{line:?}");
    }
    for line in lines(include_str!("../data/vectors/invalid-uri.txt")) {
        assert!(UriRef::parse(line).is_err(), "{line:?}");
        assert!(u::UriReference::parse(line).is_err(), "{line:?}");
    }
}

#[test]
fn valid_vectors_extract_consistently() {
    for line in lines(include_str!("../data/vectors/valid-iri.txt")) {
        assert!(check_all(line).is_some(), "valid-iri.txt: {line:?}");
    }
    for line in lines(include_str!("../data/vectors/valid-uri.txt")) {
        assert!(UriRef::parse(line).is_ok(), "valid-uri.txt: {line:?}");
        check_all(line);
    }
}

/// Every string of length ≤ 4 over `a:/?#[]@%1.` (and of length ≤ 3 over a
/// wider alphabet with non-ASCII, private-use and forbidden characters):
/// parsing agrees with the recognizers, never panics, and valid parses are
/// consistent (see `check_all`).
#[test]
fn brute_force_short_strings() {
    fn all_strings(alphabet: &[char], max: usize) -> Vec<String> {
        let mut out = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..max {
            let next: Vec<String> = last
                .iter()
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            out.extend(next.iter().cloned());
            last = next;
        }
        out
    }
    let narrow: Vec<char> = "a:/?#[]@%1.".chars().collect();
    let wide: Vec<char> = "a:/?#[]@%1.Fv-é \u{E000}\u{FFFF}\u{200E}\u{202E}"
        .chars()
        .collect();
    let mut inputs = all_strings(&narrow, 4);
    inputs.extend(all_strings(&wide, 3));
    let mut valid = 0;
    let mut failures = Vec::new();
    for input in &inputs {
        match catch_unwind(AssertUnwindSafe(|| check_all(input))) {
            Ok(Some(_)) => valid += 1,
            Ok(None) => {}
            Err(e) => {
                let msg = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                failures.push(format!("{input:?}: {msg}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(10)]
    );
    // Sanity: both outcomes occur plenty.
    assert!(
        valid > 1000 && inputs.len() - valid > 1000,
        "{valid} of {}",
        inputs.len()
    );
}

// ---------------------------------------------------------------------------
// Large inputs: linear time
// ---------------------------------------------------------------------------

const MB: usize = 1 << 20;

/// The fastest of three runs of `f`.
fn fastest(mut f: impl FnMut()) -> Duration {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap()
}

#[test]
fn one_megabyte_path_and_query() {
    // One path segment of 1 MiB.
    let long_path = format!("http://a/{}", "b".repeat(MB));
    let t = Instant::now();
    let r = IriRef::parse(&long_path).unwrap();
    assert_eq!(r.host(), Some(Host::RegName("a")));
    assert_eq!(r.path().len(), MB + 1);
    assert_eq!(r.path_segments().count(), 1);
    assert_eq!(r.query(), None);

    // Many segments.
    let many = format!("http://a/{}", "x/".repeat(MB / 2));
    let r = IriRef::parse(&many).unwrap();
    assert_eq!(r.path().len(), MB + 1);
    assert_eq!(r.path_segments().count(), MB / 2 + 1);
    let t3 = i::IriReference::parse(&many).unwrap();
    let (p, segs) = walk_iri_reference(&many, &t3);
    assert_eq!(p.path.len(), MB + 1);
    assert_eq!(segs.unwrap().len(), MB / 2 + 1);

    // A long query and fragment, with non-ASCII.
    let query = "q=1&é=%20&".repeat(MB / 12);
    let long_query = format!("http://a/p?{query}#{}", "f/?".repeat(1000));
    let r = Iri::parse(&long_query).unwrap();
    assert_eq!(r.query(), Some(query.as_str()));
    assert_eq!(r.fragment().map(str::len), Some(3000));
    assert_eq!(r.path(), "/p");
    check_all(&long_query).unwrap();

    // A long host and userinfo.
    let host = "h.".repeat(MB / 2);
    let long_host = format!("//{}@{host}:1/", "u".repeat(1000));
    let r = UriRef::parse(&long_host).unwrap();
    assert_eq!(r.host(), Some(Host::RegName(host.as_str())));
    assert_eq!(r.port().unwrap().as_u16(), Some(1));

    // Invalid at the very end: found at once, right offset.
    let bad = format!("{long_path} ");
    let e = IriRef::parse(&bad).unwrap_err();
    assert_eq!(e.offset(), bad.len() - 1);
    assert!(t.elapsed() < Duration::from_secs(60), "took {:?}", t.elapsed());
}

#[test]
fn parse_time_is_linear() {
    let input = |n: usize| format!("http://u@a/{}?{}#x", "seg/".repeat(n / 8), "k=v&".repeat(n / 8));
    let small = input(MB / 8);
    let large = input(MB);
    let parse = |s: &str| {
        let r = IriRef::parse(s).unwrap();
        assert!(r.path_segments().count() > 1);
        let t = i::IriReference::parse(s).unwrap();
        let (p, segs) = walk_iri_reference(s, &t);
        assert_eq!(p.fragment, Some("x"));
        assert!(segs.unwrap().len() > 1);
    };
    parse(&small); // warm up (loads the automata)
    let t_small = fastest(|| parse(&small));
    let t_large = fastest(|| parse(&large));
    // 8x the input: linear is ~8x the time, quadratic ~64x.
    let ratio = t_large.as_secs_f64() / t_small.as_secs_f64().max(1e-6);
    assert!(
        ratio < 24.0,
        "8x input took {ratio:.1}x the time ({t_small:?} vs {t_large:?})"
    );
}

/// Every validated type, borrowed and owned, serializes as its text and
/// deserializes through its parser: a JSON string that is not valid for the
/// type is an error, not a value.
#[test]
fn serde_round_trips_and_validates() {
    use iri_grammar::{
        AbsoluteIri, AbsoluteIriBuf, AbsoluteUri, AbsoluteUriBuf, Iri, IriBuf, IriRef, IriRefBuf, Uri,
        UriBuf, UriRef, UriRefBuf,
    };
    macro_rules! round_trip {
        ($($Borrowed:ident $Owned:ident: $good:expr, $bad:expr;)*) => {$(
            let json = serde_json::to_string(&$Borrowed::parse($good).unwrap()).unwrap();
            assert_eq!(json, serde_json::to_string($good).unwrap());
            let back: $Borrowed<'_> = serde_json::from_str(&json).unwrap();
            assert_eq!(back.as_str(), $good);
            let owned: $Owned = serde_json::from_str(&json).unwrap();
            assert_eq!(serde_json::to_string(&owned).unwrap(), json);
            let bad = serde_json::to_string($bad).unwrap();
            assert!(serde_json::from_str::<$Borrowed<'_>>(&bad).is_err(), "{} {}", stringify!($Borrowed), $bad);
            assert!(serde_json::from_str::<$Owned>(&bad).is_err(), "{} {}", stringify!($Owned), $bad);
        )*};
    }
    round_trip! {
        IriRef IriRefBuf: "../b/ç?q#f", "a b";
        Iri IriBuf: "http://é.example/p?q#f", "/relative";
        UriRef UriRefBuf: "../b?q#f", "../ç";
        Uri UriBuf: "http://a/b?q#f", "http://a/ç";
        AbsoluteIri AbsoluteIriBuf: "http://é.example/p?q", "http://a/b#f";
        AbsoluteUri AbsoluteUriBuf: "http://a/b?q", "http://a/b#f";
    }
}
