//! The generated validators of `iri_bench::rfc` agree with the crates they
//! are timed against on the benchmark corpora, except where a crate accepts
//! another language; each such difference is listed here with its reason,
//! and any other difference fails the test.
//!
//! The differences (seed `DEFAULT_SEED`, the default corpus sizes):
//!
//! - RFC 3339: every crate rejects the 1% of well-formed timestamps with a
//!   field out of range (month 13, 30 February, hour 24, minute 60), which
//!   the ABNF accepts; the typed tree with the range checks
//!   (`timestamp::ours_fields`) rejects them too. speedate also rejects more
//!   than 6 fraction digits (it keeps microseconds). jiff, chrono and
//!   speedate take a space between date and time (RFC 3339 §5.6 allows one
//!   in prose, "for the sake of readability", not in its ABNF), speedate
//!   also `_`, and `time` any byte (`2030-08-29,12:59:23Z`).
//! - RFC 5646: language-tags accepts empty subtags in a private-use tag
//!   (`x--private-use`, `x-a1-`).
//! - RFC 9112: httparse takes a bare LF as a line end, and bytes RFC 3986
//!   forbids (`"`, `<`, `|`, `` ` ``, ...) in the request target.
//! - RFC 9562, RFC 8259: none.

use iri_bench::rfc::timestamp::ours_fields;
use iri_bench::rfc::{disagreements, operations, Grammar};
use iri_bench::DEFAULT_SEED;

/// Why a contender may differ from the grammar on `input`, if it may.
fn reason(grammar: Grammar, contender: &str, input: &str, ours: bool) -> Option<&'static str> {
    let at = grammar.error_offset(input);
    let byte = at.and_then(|i| input.as_bytes().get(i).copied());
    match grammar {
        Grammar::Timestamp if ours && ours_fields(input).is_none() => Some("a field out of range"),
        Grammar::Timestamp if ours && contender.starts_with("speedate") => {
            let frac = input
                .split('.')
                .nth(1)
                .map_or(0, |f| f.bytes().take_while(u8::is_ascii_digit).count());
            (frac > 6).then_some("speedate: more than 6 fraction digits")
        }
        Grammar::Timestamp if !ours && at == Some(10) => {
            Some("a separator other than T between date and time")
        }
        Grammar::HttpHead if !ours && byte == Some(b'\n') => Some("httparse: a bare LF ends a line"),
        Grammar::HttpHead
            if !ours
                && matches!(
                    byte,
                    Some(b'"' | b'<' | b'>' | b'|' | b'`' | b'{' | b'}' | b'^' | b'\\')
                ) =>
        {
            let target_end = input.find(" HTTP/").unwrap_or(0);
            (at.unwrap_or(usize::MAX) < target_end)
                .then_some("httparse: any visible byte in the request target")
        }
        Grammar::LanguageTag
            if !ours && contender.starts_with("language-tags") && input.starts_with("x-") =>
        {
            Some("language-tags: an empty private-use subtag")
        }
        _ => None,
    }
}

#[test]
fn validators_agree_with_the_crates_but_for_the_listed_differences() {
    let mut unexplained = Vec::new();
    let mut explained = std::collections::BTreeMap::new();
    for op in operations() {
        if !op.contenders.iter().any(|c| c.accepts.is_some()) {
            continue;
        }
        let corpus = op.grammar.corpus(op.grammar.default_n(), DEFAULT_SEED);
        for d in disagreements(&op, &corpus) {
            let (contender, input, ours) = (d.contender, d.input, d.ours);
            match reason(op.grammar, contender, &input, ours) {
                Some(r) => *explained.entry((contender, r)).or_insert(0usize) += 1,
                None => unexplained.push(format!(
                    "{} / {contender}: ours {} {input:?}",
                    op.grammar.name(),
                    if ours { "accepts" } else { "rejects" }
                )),
            }
        }
    }
    for ((contender, r), n) in &explained {
        eprintln!("{contender}: {n} x {r}");
    }
    assert!(
        unexplained.is_empty(),
        "{} unexplained:\n{}",
        unexplained.len(),
        unexplained.join("\n")
    );
    // The differences the crates are known for show up.
    assert!(explained.keys().any(|(_, r)| *r == "a field out of range"));
    assert!(explained
        .keys()
        .any(|(_, r)| *r == "httparse: a bare LF ends a line"));
}
