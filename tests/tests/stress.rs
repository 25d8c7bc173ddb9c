//! The runtime under stress: huge inputs in linear time without recursion,
//! bytes that are not UTF-8, and every Unicode scalar value.

use iri_grammar::{rfc3986, rfc3987, IriRef};

const MB: usize = 1 << 20;

/// A 100 MB IRI: validation walks it once (no allocation, no recursion);
/// an error at its very end is found with its offset.
#[test]
fn hundred_megabytes() {
    let mut s = String::with_capacity(100 * MB + 32);
    s.push_str("http://example.org/");
    while s.len() < 100 * MB {
        s.push_str("segment/é/%41/");
    }
    s.push_str("?q#f");
    assert!(rfc3987::IRI_REFERENCE.is_match(&s));
    assert!(!rfc3986::URI_REFERENCE.is_match(&s), "é is not a URI character");
    s.push(' ');
    let err = rfc3987::IRI_REFERENCE.validate(&s).unwrap_err();
    assert_eq!(err.offset(), s.len() - 1);
}

/// A huge input that fails early reports the first offending byte (the
/// walk checks for the dead state once per 64-byte chunk, then finds the
/// byte within the chunk).
#[test]
fn early_failure_offset() {
    for at in [0, 5, 63, 64, 65, 1000] {
        let mut s = "a".repeat(at);
        s.push(' ');
        s.push_str(&"a".repeat(10 * MB));
        let err = rfc3987::IRI_REFERENCE.validate(&s).unwrap_err();
        assert_eq!(err.offset(), at);
    }
}

/// Extraction of a 10 MB IRI: the typed tree and the components.
#[test]
fn ten_megabyte_extraction() {
    let path = "/a".repeat(5 * MB);
    let s = format!("http://user@host:8080{path}?{}#frag", "q=1&".repeat(MB / 4));
    let r = IriRef::parse(&s).unwrap();
    assert_eq!(r.host().unwrap().as_str(), "host");
    assert_eq!(r.port().unwrap().as_u16(), Some(8080));
    assert_eq!(r.path().len(), path.len());
    assert_eq!(r.path_segments().count(), 5 * MB);
    assert_eq!(r.fragment(), Some("frag"));
}

/// Bytes that are not UTF-8 are rejected at the offending byte.
#[test]
fn invalid_utf8_offsets() {
    let cases: &[(&[u8], usize)] = &[
        (b"http://a/\xFF", 9),
        (b"http://a/\xC3", 10),
        (b"http://a/\xC3\x28", 10),
        (b"http://a/\xED\xA0\x80", 10), // an encoded surrogate
        (b"\x80", 0),
    ];
    for &(input, offset) in cases {
        let err = rfc3987::IRI_REFERENCE.validate_bytes(input).unwrap_err();
        assert_eq!(err.offset(), offset, "{input:?}");
        assert!(!rfc3987::IRI_REFERENCE.is_match_bytes(input));
    }
}

/// Every Unicode scalar value, through `ucschar` and `iprivate`, against
/// the ranges read from the spec file itself.
#[test]
fn every_scalar_value_against_the_spec_ranges() {
    let spec = include_str!("../../specs/rfc3987.abnf");
    let ranges = |rule: &str| -> Vec<(u32, u32)> {
        let start = spec.find(&format!("\n{rule} ")).expect("rule in spec");
        let body: String = spec[start + 1..]
            .lines()
            .enumerate()
            .take_while(|(i, l)| *i == 0 || l.starts_with(' '))
            .map(|(_, l)| l.split(';').next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join(" ");
        body.split('=')
            .nth(1)
            .unwrap()
            .split('/')
            .map(|r| {
                let r = r.trim().trim_start_matches("%x");
                let (a, b) = r.split_once('-').unwrap();
                (
                    u32::from_str_radix(a, 16).unwrap(),
                    u32::from_str_radix(b, 16).unwrap(),
                )
            })
            .collect()
    };
    let ucs = ranges("ucschar");
    let private = ranges("iprivate");
    assert_eq!(ucs.len(), 17);
    assert_eq!(private.len(), 3);
    let mut buf = [0u8; 4];
    for c in (0..=0x10FFFF).filter_map(char::from_u32) {
        let s = c.encode_utf8(&mut buf);
        let v = c as u32;
        let in_ucs = ucs.iter().any(|&(a, b)| (a..=b).contains(&v));
        let in_private = private.iter().any(|&(a, b)| (a..=b).contains(&v));
        assert_eq!(rfc3987::UCSCHAR.is_match(s), in_ucs, "U+{v:04X}");
        assert_eq!(rfc3987::IPRIVATE.is_match(s), in_private, "U+{v:04X}");
    }
}
