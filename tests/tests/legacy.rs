//! The older grammars, RFC 2396 and RFC 1738, read in their own notation
//! (`specs/rfc2396.bnf`, `specs/rfc1738.bnf`), and how the generations
//! differ.

use iri_grammar::{lookup, rfc1738, rfc2396, rfc3986};

fn is(grammar: &str, rule: &str, input: &str) -> bool {
    lookup(grammar, rule)
        .unwrap_or_else(|| panic!("{grammar}:{rule} is generated"))
        .is_match(input)
}

#[test]
fn every_required_rule_is_generated() {
    for rule in [
        "URI-reference",
        "absoluteURI",
        "relativeURI",
        "hostname",
        "IPv4address",
    ] {
        assert!(lookup("rfc2396", rule).is_some(), "rfc2396:{rule}");
    }
    for rule in [
        "url",
        "genericurl",
        "httpurl",
        "ftpurl",
        "fileurl",
        "mailtourl",
        "newsurl",
        "nntpurl",
        "telneturl",
        "gopherurl",
        "waisurl",
        "prosperourl",
        "hostname",
        "hostnumber",
        "gopher+_string",
        "hier_part",
    ] {
        assert!(
            lookup("rfc1738", rule).is_some() || lookup("rfc2396", rule).is_some(),
            "{rule}"
        );
    }
    // Names that are not Rust identifiers map to readable ones; the original
    // name stays the key.
    assert_eq!(rfc1738::GOPHER_STRING.rule(), "gopher+_string");
    assert_eq!(rfc2396::HIER_PART.rule(), "hier_part");
}

#[test]
fn what_rfc_3986_allows_and_rfc_2396_does_not() {
    for input in ["a:", "?q", "http://[::1]/", "http://[v1.x]/", "?#foo"] {
        assert!(
            is("rfc3986", "URI-reference", input),
            "{input} is an RFC 3986 reference"
        );
        assert!(
            !is("rfc2396", "URI-reference", input),
            "{input} is not an RFC 2396 reference"
        );
    }
    // An empty path after a scheme: RFC 2396's opaque_part needs a character.
    assert!(rfc3986::URI.is_match("a:"));
    assert!(!rfc2396::ABSOLUTE_URI.is_match("a:"));
}

#[test]
fn rfc_2396_examples() {
    // RFC 2396 §1.3.
    for uri in [
        "ftp://ftp.is.co.za/rfc/rfc1808.txt",
        "gopher://spinaltap.micro.umn.edu/00/Weather/California/Los%20Angeles",
        "http://www.math.uio.no/faq/compression-faq/part1.html",
        "mailto:mduerst@ifi.unizh.ch",
        "news:comp.infosystems.www.servers.unix",
        "telnet://melvyl.ucop.edu/",
    ] {
        assert!(rfc2396::ABSOLUTE_URI.is_match(uri), "{uri}");
        assert!(rfc2396::URI_REFERENCE.is_match(uri), "{uri}");
    }
    // Appendix C: the base and the references. Two kinds that its text
    // uses are not in its own BNF (RFC 3986 fixed both): a reference that
    // starts with `?` (relativeURI needs a path first), and `http:` (an
    // absoluteURI needs a hier_part or a non-empty opaque_part).
    let data = include_str!("../data/vectors/resolve-rfc2396.tsv");
    let mut checked = 0;
    for line in data.lines() {
        let cols: Vec<&str> = line.split('\t').collect();
        let (base, reference) = (cols[0], cols[1]);
        assert!(rfc2396::ABSOLUTE_URI.is_match(base), "{base}");
        if reference.starts_with('?') || reference == "http:" {
            assert!(!rfc2396::URI_REFERENCE.is_match(reference), "{reference}");
        } else {
            assert!(rfc2396::URI_REFERENCE.is_match(reference), "{reference}");
        }
        checked += 1;
    }
    assert!(checked >= 20, "{checked} rows");
}

#[test]
fn rfc_2396_hostname_and_ipv4() {
    assert!(rfc2396::HOSTNAME.is_match("www.example.com"));
    assert!(rfc2396::HOSTNAME.is_match("example.com."));
    assert!(!rfc2396::HOSTNAME.is_match("-bad.example"));
    assert!(!rfc2396::HOSTNAME.is_match("a_b"));
    // RFC 2396's IPv4address is any four digit runs; RFC 3986 bounds them.
    assert!(rfc2396::IPV4ADDRESS.is_match("999.1.1.1"));
    assert!(!rfc3986::IPV4ADDRESS.is_match("999.1.1.1"));
}

#[test]
fn rfc_1738_urls() {
    for (rule, url) in [
        ("ftpurl", "ftp://ftp.example.org/pub/file.txt;type=i"),
        ("ftpurl", "ftp://user:pass@host:21/a/b"),
        ("fileurl", "file://vms.host.edu/disk$user/my/notes/note12345.txt"),
        ("httpurl", "http://www.example.com:8080/a/b?query"),
        ("gopherurl", "gopher://spinaltap.micro.umn.edu/00/Weather"),
        ("mailtourl", "mailto:someone@example.com"),
        ("newsurl", "news:comp.infosystems.www"),
        ("newsurl", "news:*"),
        ("nntpurl", "nntp://news.example.com/comp.lang/123"),
        ("telneturl", "telnet://user:password@host:23/"),
        ("waisurl", "wais://host:210/database?search"),
        ("prosperourl", "prospero://host:1525/a/b;field=value"),
    ] {
        assert!(is("rfc1738", rule, url), "{url} is an RFC 1738 {rule}");
        assert!(rfc1738::URL.is_match(url), "{url} is an RFC 1738 url");
    }
}

#[test]
fn what_separates_rfc_1738_from_rfc_3986() {
    // A fragment is not part of an RFC 1738 URL (section 2.2.5: it is not
    // part of the URL but of the reference).
    assert!(!rfc1738::URL.is_match("http://a/b#f"));
    assert!(rfc3986::URI.is_match("http://a/b#f"));
    // `_` is not allowed in a host name, so this is not an httpurl, but it
    // is a url through `otherurl` (the generic syntax).
    assert!(!rfc1738::HTTPURL.is_match("http://a_b/"));
    assert!(rfc1738::URL.is_match("http://a_b/"));
    assert!(rfc1738::OTHERURL.is_match("http://a_b/"));
    // The gopher erratum: the published BNF's bare `/` is a literal slash
    // before the gopher type and selector.
    assert!(rfc1738::GOPHERURL.is_match("gopher://host/1"));
    assert!(rfc1738::GOPHERURL.is_match("gopher://host/0sel%09search"));
    assert!(
        !rfc1738::GOPHERURL.is_match("gopher://host0sel%09search"),
        "the selector comes after the slash"
    );
}

#[test]
fn extraction_works_for_legacy_rules() {
    let tree = rfc2396::ast::UriReference::parse("http://a/b?c#d").expect("valid");
    assert_eq!(tree.fragment, Some("d"));
    assert!(tree.absolute_uri.is_some());
    assert!(tree.relative_uri.is_none());
    let tree = rfc2396::ast::UriReference::parse("../x").expect("valid");
    assert!(tree.relative_uri.is_some());
}

/// RFC 2396's `IPv4address = 1*digit "." 1*digit "." 1*digit "." 1*digit`:
/// each list's items are one byte (the generator cuts them by offset, with
/// no walk), and they are the digits, in order.
#[test]
fn fixed_width_list_items_are_cut_by_offset() {
    let tree = rfc2396::ast::Ipv4address::parse("192.168.0.10").expect("valid");
    let lists = [tree.digits, tree.digits_2, tree.digits_3, tree.digits_4];
    let digits: Vec<Vec<&str>> = lists.into_iter().map(|l| l.collect()).collect();
    assert_eq!(
        digits,
        [
            vec!["1", "9", "2"],
            vec!["1", "6", "8"],
            vec!["0"],
            vec!["1", "0"]
        ]
    );
    assert!(rfc2396::ast::Ipv4address::parse("192.168.0.").is_err());
}
