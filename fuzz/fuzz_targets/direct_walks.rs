//! The walks as code against the tables' walks: RFC 9112's request head,
//! RFC 3339's `date-time`, RFC 5646's `Language-Tag` and RFC 9562's
//! `UUID`, generated with walks as code for their top rules and without
//! (`build.rs`), on arbitrary bytes and on long inputs made from them. The
//! recognizer's walk as code gives the table walk's verdict and offset at
//! every vector level this CPU has; the public verdict, error and typed
//! tree (compared whole, through `Debug`) are the tables-only build's.
#![no_main]

use abnf_runtime::simd::Level;
use abnf_runtime::Recognizer;
use iri_grammar_fuzz::{code, tables};
use libfuzzer_sys::fuzz_target;

fn check_recognizer(with_code: &Recognizer, tables_only: &Recognizer, input: &[u8]) {
    let plain = with_code.table().full_match(input);
    for level in Level::available() {
        if let Some(direct) = with_code.__direct_match(input, level) {
            assert_eq!(direct, plain, "{with_code:?}, {level:?} on {input:?}");
        }
    }
    assert_eq!(with_code.is_match_bytes(input), tables_only.is_match_bytes(input));
    assert_eq!(
        with_code.validate_bytes(input).map_err(|e| e.to_string()),
        tables_only.validate_bytes(input).map_err(|e| e.to_string()),
    );
}

macro_rules! same_trees {
    ($module:ident :: $ty:ident, $input:expr) => {{
        let a = format!("{:?}", code::$module::ast::$ty::parse($input));
        let b = format!("{:?}", tables::$module::ast::$ty::parse($input));
        assert_eq!(a, b, "{} on {:?}", stringify!($ty), $input);
    }};
}

fuzz_target!(|data: &[u8]| {
    // Also as a long input: a request head's field lines repeated.
    let mut long = Vec::new();
    if !data.is_empty() {
        while long.len() < 300 {
            long.extend_from_slice(data);
            long.extend_from_slice(b"\r\n");
        }
        long.extend_from_slice(b"\r\n");
    }
    for input in [data, &long[..]] {
        check_recognizer(&code::rfc9112::REQUEST_HEAD, &tables::rfc9112::REQUEST_HEAD, input);
        same_trees!(rfc9112::RequestHead, input);
        check_recognizer(&code::rfc3339::DATE_TIME, &tables::rfc3339::DATE_TIME, input);
        check_recognizer(&code::rfc5646::LANGUAGE_TAG, &tables::rfc5646::LANGUAGE_TAG, input);
        if let Ok(text) = std::str::from_utf8(input) {
            same_trees!(rfc3339::DateTime, text);
            same_trees!(rfc5646::LanguageTag, text);
            same_trees!(rfc9562::Uuid, text);
        }
    }
});
