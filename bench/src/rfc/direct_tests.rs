//! The walks as code (`Config::direct_walks`, on by default, for each
//! grammar's top rule) against the tables' walks: the same four grammars
//! generated both ways ([`super::generated`] and [`super::tables`]) give
//! the same verdicts, error offsets and typed trees (compared whole, lists'
//! items included, through `Debug`) on the corpora, on every input with a
//! byte changed, and on prefixes; the recognizers' walks as code give the
//! table walk's result at every vector level.

use abnf_runtime::simd::Level;
use abnf_runtime::Recognizer;

use super::{generated as code, tables, Grammar};

/// The corpus of `g`, each input again with one byte changed (at a place
/// and to a byte that vary), and the prefixes of a few.
fn inputs(g: Grammar, n: usize) -> Vec<Vec<u8>> {
    const BYTES: &[u8] = b" \t\r\n:-.TZ+/0aZ%\x7f\x80";
    let corpus: Vec<Vec<u8>> = g.corpus(n, 11).into_iter().map(String::into_bytes).collect();
    let mut out = corpus.clone();
    for (k, s) in corpus.iter().enumerate().filter(|(_, s)| !s.is_empty()) {
        let mut t = s.clone();
        t[(k * 7919) % s.len()] = BYTES[k % BYTES.len()];
        out.push(t);
    }
    for s in corpus.iter().take(6) {
        out.extend((0..s.len()).map(|i| s[..i].to_vec()));
    }
    out
}

/// The recognizer's walk as code (where it has one) against its table
/// walk at every level, and the public verdict and error against the
/// tables-only build's.
fn check_recognizer(with_code: &Recognizer, tables_only: &Recognizer, input: &[u8]) {
    let plain = with_code.table().full_match(input);
    for level in Level::available() {
        if let Some(direct) = with_code.__direct_match(input, level) {
            assert_eq!(
                direct,
                plain,
                "{with_code:?}, {level:?} on {:?}",
                String::from_utf8_lossy(input)
            );
        }
    }
    assert_eq!(tables_only.__direct_match(input, Level::Scalar), None);
    assert_eq!(with_code.is_match_bytes(input), tables_only.is_match_bytes(input));
    assert_eq!(
        with_code.validate_bytes(input).map_err(|e| e.to_string()),
        tables_only.validate_bytes(input).map_err(|e| e.to_string()),
    );
}

/// The two builds' typed trees of `input` (or errors), as text.
macro_rules! same_trees {
    ($module:ident :: $ty:ident, $input:expr) => {{
        let a = format!("{:?}", code::$module::ast::$ty::parse($input));
        let b = format!("{:?}", tables::$module::ast::$ty::parse($input));
        assert_eq!(a, b, "{}", stringify!($ty));
    }};
}

#[test]
fn walks_as_code_agree_with_the_tables() {
    for input in inputs(Grammar::HttpHead, 300) {
        check_recognizer(
            &code::rfc9112::REQUEST_HEAD,
            &tables::rfc9112::REQUEST_HEAD,
            &input,
        );
        same_trees!(rfc9112::RequestHead, &input[..]);
    }
    for (g, n) in [
        (Grammar::Timestamp, 2_000),
        (Grammar::LanguageTag, 2_000),
        (Grammar::Uuid, 1_000),
    ] {
        for input in inputs(g, n) {
            let Ok(text) = std::str::from_utf8(&input) else {
                continue;
            };
            match g {
                Grammar::Timestamp => {
                    check_recognizer(&code::rfc3339::DATE_TIME, &tables::rfc3339::DATE_TIME, &input);
                    same_trees!(rfc3339::DateTime, text);
                }
                Grammar::LanguageTag => {
                    check_recognizer(
                        &code::rfc5646::LANGUAGE_TAG,
                        &tables::rfc5646::LANGUAGE_TAG,
                        &input,
                    );
                    same_trees!(rfc5646::LanguageTag, text);
                }
                _ => {
                    same_trees!(rfc9562::Uuid, text);
                }
            }
        }
    }
}

#[test]
fn walks_as_code_are_written_for_the_top_rules_only() {
    // Recognizers have them where some state loops on many bytes (the
    // request head's field values and names); UUIDs and timestamps have
    // no such state.
    assert!(code::rfc9112::REQUEST_HEAD
        .__direct_match(b"", Level::Scalar)
        .is_some());
    assert!(code::rfc9562::UUID.__direct_match(b"", Level::Scalar).is_none());
    assert!(tables::rfc9112::REQUEST_HEAD
        .__direct_match(b"", Level::Scalar)
        .is_none());
}
