//! The bit-parallel walk against the plain table walk, on arbitrary bytes
//! and on long inputs made from them: for every recognizer of every grammar
//! (`iri_grammar::GRAMMARS`), at every vector width this CPU has and with
//! the scalar twin, the verdict and the error offset are the plain walk's;
//! the shuffle automata of the `@bidirectional` rules give the same verdict
//! or escape to the table, at every level;
//! and extraction with RFC 3986 Appendix B's splitter (bit-parallel from
//! 96 bytes on) gives the splitter's own parts or the recognizer's error.
//!
//! The input is used as is, and also repeated to a few hundred bytes with
//! its first byte moved to the end (so that runs cross the vector blocks
//! and the 64-byte windows at every offset).
#![no_main]

use iri_grammar::rfc3986_appendix_b::components::Reference;
use iri_grammar::abnf_runtime::simd::Level;
use iri_grammar::{rfc3986, rfc3987, Recognizer, GRAMMARS};
use libfuzzer_sys::fuzz_target;

fn check(r: &Recognizer, input: &[u8]) {
    let plain = r.table().full_match(input);
    for level in Level::available() {
        assert_eq!(r.table().full_match_skipping(input, level), plain, "{r:?}, {level:?} on {input:?}");
    }
    assert_eq!(r.validate_bytes(input).map_err(|e| e.offset()), plain, "{r:?} on {input:?}");
    assert_eq!(r.is_match_bytes(input), plain.is_ok(), "{r:?} on {input:?}");
    // The shuffle automaton (`@bidirectional` rules): the table's verdict
    // or an escape, the same from the VBMI walk and its scalar twin.
    if let Some(sh) = r.table().shuffle() {
        let scalar = sh.full_match(input, Level::Scalar);
        assert!(scalar.is_none() || scalar == Some(plain.is_ok()), "{r:?} on {input:?}");
        assert_eq!(sh.full_match(input, Level::detected()), scalar, "{r:?} on {input:?}");
    }
}

fn check_split(r: &Recognizer, input: &str) {
    let got = Reference::parse_checked(r, input);
    match r.validate(input) {
        Err(e) => assert_eq!(got.unwrap_err().offset(), e.offset(), "{r:?} on {input:?}"),
        Ok(()) => assert_eq!(got.ok(), Reference::parse(input).ok(), "{r:?} on {input:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut long = Vec::new();
    if !data.is_empty() {
        while long.len() < 300 {
            long.extend_from_slice(&data[1..]);
            long.push(data[0]);
        }
    }
    for input in [data, &long[..]] {
        for g in GRAMMARS {
            for r in g.rules() {
                check(r, input);
            }
        }
        let text = String::from_utf8_lossy(input);
        for r in [&rfc3987::IRI_REFERENCE, &rfc3986::URI_REFERENCE, &rfc3987::IRI, &rfc3986::URI] {
            check_split(r, &text);
        }
    }
});
