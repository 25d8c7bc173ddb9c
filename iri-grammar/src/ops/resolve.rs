//! Reference resolution (RFC 3986 §5.2, applied to IRIs as RFC 3987 §6.5
//! says) and its inverse, making a relative reference.

use alloc::string::String;

use super::{comps, recompose, Comps};
use crate::{AbsoluteIri, Iri, IriBuf, IriRef, IriRefBuf, ParseError, Uri, UriBuf, UriRef, UriRefBuf};

/// RFC 3986 §5.2.4 `remove_dot_segments`, exactly as the RFC gives it
/// (its two-buffer loop, rules A to E), so it also applies to paths that
/// do not start with `/`: `a/../b` gives `/b`, `../a` gives `a`.
///
/// ```
/// use iri_grammar::ops::remove_dot_segments;
///
/// // The two examples of §5.2.4.
/// assert_eq!(remove_dot_segments("/a/b/c/./../../g"), "/a/g");
/// assert_eq!(remove_dot_segments("mid/content=5/../6"), "mid/6");
/// assert_eq!(remove_dot_segments("/../a/./b/.."), "/a/");
/// ```
pub fn remove_dot_segments(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut input = path;
    // The input buffer is always a suffix of `path` or "/": replacing a
    // prefix "/./" or "/../" with "/" keeps the prefix's last "/".
    while !input.is_empty() {
        if let Some(rest) = input.strip_prefix("../").or_else(|| input.strip_prefix("./")) {
            // A.
            input = rest;
        } else if input.starts_with("/./") {
            // B.
            input = &input[2..];
        } else if input == "/." {
            // B, at the end.
            input = "/";
        } else if input.starts_with("/../") {
            // C.
            input = &input[3..];
            pop_segment(&mut out);
        } else if input == "/.." {
            // C, at the end.
            input = "/";
            pop_segment(&mut out);
        } else if input == "." || input == ".." {
            // D.
            input = "";
        } else {
            // E: the first segment, with its leading "/" if any.
            let from = usize::from(input.starts_with('/'));
            let end = input[from..].find('/').map_or(input.len(), |i| i + from);
            out.push_str(&input[..end]);
            input = &input[end..];
        }
    }
    out
}

/// "remove the last segment and its preceding "/" (if any) from the output
/// buffer".
fn pop_segment(out: &mut String) {
    let keep = out.rfind('/').unwrap_or(0);
    out.truncate(keep);
}

/// §5.2.3 Merge Paths.
fn merge(base: &Comps<'_>, reference_path: &str) -> String {
    let mut out = String::with_capacity(base.path.len() + reference_path.len() + 1);
    if base.authority.is_some() && base.path.is_empty() {
        out.push('/');
    } else if let Some(i) = base.path.rfind('/') {
        out.push_str(&base.path[..=i]);
    }
    out.push_str(reference_path);
    out
}

/// §5.2.2 Transform References (strict: a scheme in the reference is never
/// ignored), then §5.3 recomposition.
fn transform(base: &Comps<'_>, r: &Comps<'_>) -> String {
    let (scheme, authority, path, query);
    if r.scheme.is_some() {
        scheme = r.scheme;
        authority = r.authority;
        path = remove_dot_segments(r.path);
        query = r.query;
    } else {
        if r.authority.is_some() {
            authority = r.authority;
            path = remove_dot_segments(r.path);
            query = r.query;
        } else {
            if r.path.is_empty() {
                path = String::from(base.path);
                query = r.query.or(base.query);
            } else {
                path = if r.path.starts_with('/') {
                    remove_dot_segments(r.path)
                } else {
                    remove_dot_segments(&merge(base, r.path))
                };
                query = r.query;
            }
            authority = base.authority;
        }
        scheme = base.scheme;
    }
    let mut out = String::with_capacity(base.path.len() + r.path.len() + 32);
    recompose(&mut out, scheme, authority, &path, query, r.fragment);
    out
}

/// Resolves `reference` against `base` (RFC 3986 §5.2, strict; RFC 3987
/// §6.5: "the algorithms of \[RFC3986\] can be applied directly, treating
/// the characters additionally allowed in IRI references in the same way
/// that unreserved characters are in URI references").
///
/// The base's fragment is ignored (§5.2.1). The base is used as it is, not
/// normalized (§5.2.1 makes that optional). The one departure from §5.3's
/// recomposition: a result path that starts with `//` when there is no
/// authority is written with a `/.` in front (`f:/a` and `.//g` give
/// `f:/.//g`, not `f://g`, which would name the authority `g`; §3.3 forbids
/// such a path without an authority).
///
/// ```
/// use iri_grammar::{ops::resolve, Iri, IriRef};
///
/// let base = Iri::parse("http://a/b/c/d;p?q")?;
/// let target = |r| resolve(base, IriRef::parse(r).unwrap());
/// // RFC 3986 §5.4.1 and §5.4.2.
/// assert_eq!(target("../g").as_str(), "http://a/b/g");
/// assert_eq!(target("?y").as_str(), "http://a/b/c/d;p?y");
/// assert_eq!(target("../../../g").as_str(), "http://a/g");
/// assert_eq!(target("http:g").as_str(), "http:g");
/// // RFC 3987 §6.5: IRI characters resolve like unreserved ones.
/// assert_eq!(target("./דוגמה/../ö").as_str(), "http://a/b/c/ö");
/// # Ok::<(), iri_grammar::ParseError>(())
/// ```
pub fn resolve(base: Iri<'_>, reference: IriRef<'_>) -> IriBuf {
    super::iri_buf("resolve", transform(&comps!(base), &comps!(reference)))
}

/// [`resolve`] for URIs: the same algorithm, with URI types.
///
/// ```
/// use iri_grammar::{ops::resolve_uri, Uri, UriRef};
///
/// let base = Uri::parse("http://a/b/c/d;p?q")?;
/// assert_eq!(resolve_uri(base, UriRef::parse("g;x=1/../y")?).as_str(), "http://a/b/c/y");
/// # Ok::<(), iri_grammar::ParseError>(())
/// ```
pub fn resolve_uri(base: Uri<'_>, reference: UriRef<'_>) -> UriBuf {
    super::uri_buf("resolve_uri", transform(&comps!(base), &comps!(reference)))
}

impl Iri<'_> {
    /// Resolves `reference` against this IRI: [`resolve`]`(self, reference)`.
    ///
    /// ```
    /// use iri_grammar::{Iri, IriRef};
    ///
    /// let base = Iri::parse("http://例え.jp/a/b")?;
    /// assert_eq!(base.resolve(IriRef::parse("c?d")?).as_str(), "http://例え.jp/a/c?d");
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    pub fn resolve(&self, reference: IriRef<'_>) -> IriBuf {
        resolve(*self, reference)
    }

    /// Parses `reference` as an IRI reference (strict, as
    /// [`IriRef::parse`]) and resolves it against this IRI.
    ///
    /// ```
    /// use iri_grammar::Iri;
    ///
    /// let base = Iri::parse("http://a/b/c/d;p?q")?;
    /// assert_eq!(base.resolve_str("../g")?, "http://a/b/g");
    /// assert!(base.resolve_str("a b").is_err());
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// If `reference` is not an IRI reference.
    pub fn resolve_str(&self, reference: &str) -> Result<IriBuf, ParseError> {
        Ok(resolve(*self, IriRef::parse(reference)?))
    }

    /// A reference that resolves against `base` to this IRI:
    /// [`relativize`]`(self, base)`.
    ///
    /// ```
    /// use iri_grammar::Iri;
    ///
    /// let target = Iri::parse("http://a/b/c/g?y")?;
    /// assert_eq!(target.relative_to(Iri::parse("http://a/b/c/d;p?q")?).as_str(), "g?y");
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    pub fn relative_to(&self, base: Iri<'_>) -> IriRefBuf {
        relativize(*self, base)
    }
}

impl AbsoluteIri<'_> {
    /// Resolves `reference` against this absolute IRI (a base has no
    /// fragment to ignore).
    ///
    /// ```
    /// use iri_grammar::{AbsoluteIri, IriRef};
    ///
    /// let base = AbsoluteIri::parse("http://例え.jp/a/b")?;
    /// assert_eq!(base.resolve(IriRef::parse("c#d")?), "http://例え.jp/a/c#d");
    /// assert_eq!(base.resolve_str("/x")?, "http://例え.jp/x");
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    pub fn resolve(&self, reference: IriRef<'_>) -> IriBuf {
        resolve(Iri::from(*self), reference)
    }

    /// Parses `reference` (strict, as [`IriRef::parse`]) and resolves it
    /// against this absolute IRI.
    ///
    /// # Errors
    ///
    /// If `reference` is not an IRI reference.
    pub fn resolve_str(&self, reference: &str) -> Result<IriBuf, ParseError> {
        Ok(self.resolve(IriRef::parse(reference)?))
    }
}

impl Uri<'_> {
    /// Resolves `reference` against this URI: [`resolve_uri`]`(self, reference)`.
    ///
    /// ```
    /// use iri_grammar::{Uri, UriRef};
    ///
    /// let base = Uri::parse("http://a/b/c/d;p?q")?;
    /// assert_eq!(base.resolve(UriRef::parse("//g")?).as_str(), "http://g");
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    pub fn resolve(&self, reference: UriRef<'_>) -> UriBuf {
        resolve_uri(*self, reference)
    }

    /// Parses `reference` as a URI reference and resolves it against this
    /// URI.
    ///
    /// ```
    /// use iri_grammar::Uri;
    ///
    /// let base = Uri::parse("http://a/b/c/d;p?q")?;
    /// assert_eq!(base.resolve_str("g?y#s")?, "http://a/b/c/g?y#s");
    /// assert!(base.resolve_str("/é").is_err()); // not a URI reference
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// If `reference` is not a URI reference.
    pub fn resolve_str(&self, reference: &str) -> Result<UriBuf, ParseError> {
        Ok(resolve_uri(*self, UriRef::parse(reference)?))
    }

    /// A reference that resolves against `base` to this URI:
    /// [`relativize_uri`]`(self, base)`.
    ///
    /// ```
    /// use iri_grammar::Uri;
    ///
    /// let target = Uri::parse("http://a/x/y")?;
    /// assert_eq!(target.relative_to(Uri::parse("http://a/x/z/w")?).as_str(), "../y");
    /// # Ok::<(), iri_grammar::ParseError>(())
    /// ```
    pub fn relative_to(&self, base: Uri<'_>) -> UriRefBuf {
        relativize_uri(*self, base)
    }
}

/// Whether `path` comes out of [`remove_dot_segments`] unchanged, so that a
/// resolution can produce it.
fn dot_free(path: &str) -> bool {
    remove_dot_segments(path) == path
}

/// The relative reference (or the target itself) that gets from `base` to
/// `target`: the inverse of resolution, which the RFCs do not define.
///
/// The result is the shortest of these forms that works, in this order:
/// empty, `#fragment`, `?query#fragment`, a relative path (`../` as
/// needed), an absolute path, a network-path reference (`//authority...`),
/// the target as it is. Two choices follow the peers' vectors
/// (`tests/data/vectors/relativize.tsv`): a relative path is used only if
/// it shares more than the root with the base's directory (`/a` against
/// `/b/c` gives `/a`, not `../a`), and a target without a leading `/`
/// whose relative path would start with an empty segment or contain a
/// colon in its first segment is given whole (`t:o//` against `t:o/`).
///
/// The guarantee: `resolve(base, relativize(target, base)) == target`
/// whenever `target`'s path has no dot segments (`remove_dot_segments`
/// leaves it alone) — resolution removes dot segments, so no reference at
/// all gives a target that has them unless the target is the base. Scheme
/// and authority are compared exactly (no case folding: the result must
/// give back the target as written).
///
/// ```
/// use iri_grammar::{ops::relativize, Iri};
///
/// let base = Iri::parse("s://ex/a/d/c")?;
/// let rel = |t| relativize(Iri::parse(t).unwrap(), base).into_string();
/// assert_eq!(rel("s://ex/a/b/c"), "../b/c");
/// assert_eq!(rel("s://ex/a/d/c?q"), "?q");
/// assert_eq!(rel("s://ex/z"), "/z");
/// assert_eq!(rel("s://other/a"), "//other/a");
/// assert_eq!(rel("t://ex/a"), "t://ex/a");
/// # Ok::<(), iri_grammar::ParseError>(())
/// ```
pub fn relativize(target: Iri<'_>, base: Iri<'_>) -> IriRefBuf {
    super::iri_ref_buf("relativize", relative(&comps!(target), &comps!(base)))
}

/// [`relativize`] for URIs.
///
/// ```
/// use iri_grammar::{ops::relativize_uri, Uri};
///
/// let r = relativize_uri(Uri::parse("http://a/b/c#f")?, Uri::parse("http://a/b/c")?);
/// assert_eq!(r.as_str(), "#f");
/// # Ok::<(), iri_grammar::ParseError>(())
/// ```
pub fn relativize_uri(target: Uri<'_>, base: Uri<'_>) -> UriRefBuf {
    super::uri_ref_buf("relativize_uri", relative(&comps!(target), &comps!(base)))
}

fn relative(t: &Comps<'_>, b: &Comps<'_>) -> String {
    let whole = || {
        let mut s = String::new();
        recompose(&mut s, t.scheme, t.authority, t.path, t.query, t.fragment);
        s
    };
    let network = || {
        let mut s = String::new();
        recompose(&mut s, None, t.authority, t.path, t.query, t.fragment);
        s
    };
    let with_tail = |mut s: String, query: Option<&str>| {
        recompose(&mut s, None, None, "", query, t.fragment);
        s
    };
    if t.scheme != b.scheme {
        return whole();
    }
    if t.authority != b.authority {
        return match t.authority {
            // A reference without authority inherits the base's.
            None => whole(),
            Some(_) if t.path.starts_with('/') || t.path.is_empty() => network(),
            Some(_) => whole(),
        };
    }
    // Same scheme and authority: what is left is path, query and fragment.
    // Resolution removes dot segments from every non-empty reference path.
    if t.path == b.path && (t.query == b.query || t.query.is_some()) {
        // The empty path keeps the base's path (and query, if the
        // reference has none).
        let q = if t.query == b.query { None } else { t.query };
        return with_tail(String::new(), q);
    }
    if !dot_free(t.path) {
        return whole_or_network(t, whole, network);
    }
    if t.path.is_empty() {
        // No non-empty reference path resolves to an empty path.
        return whole_or_network(t, whole, network);
    }
    match relative_path(t.path, b) {
        Some(p) => with_tail(p, t.query),
        None => whole_or_network(t, whole, network),
    }
}

fn whole_or_network(t: &Comps<'_>, whole: impl Fn() -> String, network: impl Fn() -> String) -> String {
    if t.authority.is_some() {
        network()
    } else {
        whole()
    }
}

/// A non-empty reference path that merges with the base's path (and goes
/// through `remove_dot_segments`) to `target`, if this function finds one.
fn relative_path(target: &str, base: &Comps<'_>) -> Option<String> {
    // The base's "directory": what §5.2.3 keeps of its path.
    let dir = if base.authority.is_some() && base.path.is_empty() {
        "/"
    } else {
        base.path.rfind('/').map_or("", |i| &base.path[..=i])
    };
    let absolute_ok = target.starts_with('/') && !target.starts_with("//");
    // Common directory prefix, in whole segments.
    let mut common = 0;
    for (i, (x, y)) in dir.bytes().zip(target.bytes()).enumerate() {
        if x != y {
            break;
        }
        if x == b'/' {
            common = i + 1;
        }
    }
    let ups = dir[common..].matches('/').count();
    if ups > 0 && common <= 1 && absolute_ok {
        // Only the root in common: an absolute path reads better than
        // climbing to the root with "../".
        return Some(String::from(target));
    }
    let rest = &target[common..];
    let mut p = String::with_capacity(3 * ups + rest.len() + 2);
    for _ in 0..ups {
        p.push_str("../");
    }
    p.push_str(rest);
    let first = p.split('/').next().unwrap_or("");
    if p.is_empty() {
        // The target is the base's directory itself.
        p.push('.');
    } else if ups == 0 && (first.is_empty() || first.contains(':')) {
        // An empty first segment would read as an absolute path or an
        // authority, a colon as a scheme: "./" avoids both (§4.2), but for
        // a rootless target the peers give the target whole.
        if !target.starts_with('/') {
            return None;
        }
        if common <= 1 {
            // At the root: an absolute path if it can be one (it cannot
            // start with "//"; the caller then uses the authority).
            return absolute_ok.then(|| String::from(target));
        }
        p.insert_str(0, "./");
    }
    // The path must actually resolve to the target.
    (remove_dot_segments(&merge(base, &p)) == target).then_some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_segments_edge_cases() {
        for (input, want) in [
            ("", ""),
            (".", ""),
            ("..", ""),
            ("/", "/"),
            ("/.", "/"),
            ("/..", "/"),
            ("//..", "/"),
            ("a/..", "/"),
            ("a/../b", "/b"),
            ("../a", "a"),
            ("./a:b", "a:b"),
            (".//g", "/g"),
            ("/.//g", "//g"),
            ("/./", "/"),
            ("/a/.", "/a/"),
            ("/a/..", "/"),
            ("/a/...", "/a/..."),
            ("/a/.b/", "/a/.b/"),
        ] {
            assert_eq!(remove_dot_segments(input), want, "{input:?}");
        }
    }
}
