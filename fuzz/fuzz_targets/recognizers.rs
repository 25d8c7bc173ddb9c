//! Arbitrary bytes through every recognizer of every grammar
//! (`iri_grammar::GRAMMARS`): nothing panics, and the answers agree with
//! each other:
//!
//! - `is_match_bytes(x) == validate_bytes(x).is_ok()`, and for UTF-8 input
//!   the `&str` methods give the same answers;
//! - an error's offset is at most the input's length, and names the rule;
//! - bytes that are not UTF-8 never match (the grammars are over Unicode
//!   characters, matched as UTF-8);
//! - `is_match_many` (the interleaved walk) agrees with one walk per input;
//! - the compact table agrees with the serialized sparse `regex-automata`
//!   DFA of the same rule (`Recognizer::dfa()`), on the verdict and on the
//!   offset: the offset is where the sparse DFA dies, or the length if it
//!   never does.
#![no_main]

use libfuzzer_sys::fuzz_target;
use regex_automata::dfa::Automaton;
use regex_automata::util::start;
use regex_automata::Anchored;

use iri_grammar::{Recognizer, GRAMMARS};

/// What the sparse DFA says: whether `input` matches, and the offset of the
/// byte on which it dies (`None` if it never does).
fn sparse_verdict(r: &Recognizer, input: &[u8]) -> (bool, Option<usize>) {
    let dfa = r.dfa();
    let mut s = dfa
        .start_state(&start::Config::new().anchored(Anchored::Yes))
        .expect("an anchored start state exists");
    for (i, &b) in input.iter().enumerate() {
        s = dfa.next_state(s, b);
        if dfa.is_dead_state(s) {
            return (false, Some(i));
        }
        assert!(!dfa.is_quit_state(s), "{r:?}: quit state on byte {i}");
    }
    let eoi = dfa.next_eoi_state(s);
    (dfa.is_match_state(eoi), None)
}

fn check(r: &'static Recognizer, grammar: &str, data: &[u8], text: Option<&str>) {
    // A rule a grammar imports is the recognizer of the grammar that defines it.
    if r.grammar() != grammar {
        let home = iri_grammar::lookup(r.grammar(), r.rule());
        assert!(
            home.is_some_and(|h| std::ptr::eq(h, r)),
            "{r:?} (imported into {grammar}) is not its grammar's"
        );
    }
    let matched = r.is_match_bytes(data);
    // `@bidirectional` rules walk short inputs as shuffle automata (with
    // AVX-512 VBMI) and from both ends: the same answer.
    assert_eq!(
        matched,
        r.is_match_forward(data),
        "{r:?}: is_match_bytes and the forward walk disagree on {data:?}"
    );
    assert_eq!(
        r.is_match_both_ends(data),
        matched,
        "{r:?}: the walk from both ends and the forward walk disagree on {data:?}"
    );
    let validated = r.validate_bytes(data);
    assert_eq!(
        matched,
        validated.is_ok(),
        "{r:?}: is_match_bytes and validate_bytes disagree on {data:?}"
    );
    if let Err(e) = validated {
        assert!(
            e.offset() <= data.len(),
            "{r:?}: offset {} > length {} for {data:?}",
            e.offset(),
            data.len()
        );
        assert_eq!(
            (e.grammar(), e.rule()),
            (r.grammar(), r.rule()),
            "{r:?}: error names another rule"
        );
    }
    if matched {
        assert!(
            text.is_some(),
            "{r:?}: matches bytes that are not UTF-8: {data:?}"
        );
    }
    if let Some(s) = text {
        assert_eq!(
            r.is_match(s),
            matched,
            "{r:?}: is_match and is_match_bytes disagree on {s:?}"
        );
        assert_eq!(
            r.validate(s),
            validated,
            "{r:?}: validate and validate_bytes disagree on {s:?}"
        );
    }
    let (sparse_match, dies_at) = sparse_verdict(r, data);
    assert_eq!(
        sparse_match, matched,
        "{r:?}: table and sparse DFA disagree on {data:?}"
    );
    if let Err(e) = validated {
        assert_eq!(
            e.offset(),
            dies_at.unwrap_or(data.len()),
            "{r:?}: error offset differs from where the sparse DFA dies, on {data:?}"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let text = std::str::from_utf8(data).ok();
    // `is_match_many` walks four inputs in step, then the rest one by one:
    // five inputs of different lengths (the input, its halves) exercise both.
    let half = data.len() / 2;
    let many: [&[u8]; 5] = [data, &data[..half], data, &data[half..], data];
    let mut out = [false; 5];
    for g in GRAMMARS {
        for &r in g.rules() {
            check(r, g.name(), data, text);
            let whole = r.is_match_bytes(data);
            r.is_match_many(&many, &mut out);
            let expected = [
                whole,
                r.is_match_bytes(many[1]),
                whole,
                r.is_match_bytes(many[3]),
                whole,
            ];
            assert_eq!(out, expected, "{r:?}: is_match_many disagrees on {many:?}");
        }
    }
});
