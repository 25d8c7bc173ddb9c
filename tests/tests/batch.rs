//! The batch API and the one-pass component extractions against the plain
//! recognizers, on random strings built from the characters that matter to
//! URI and IRI syntax (so that many are valid and many fail late).
//!
//! - the rules the specs mark `@bidirectional` match long inputs from both
//!   ends at once: exactly what the forward walk says, for inputs of every
//!   length (odd and even, around the length where the two walks start);
//! - `is_match_many` gives, for every input, what `is_match` gives, for
//!   batches of every size (fewer inputs than lanes, lanes refilled, the
//!   last lanes finished one at a time);
//! - `components::*::parse` accepts exactly what the rule's recognizer
//!   accepts, fails at the same offset, and returns spans that lie inside
//!   the input, in order, with the delimiters the grammar puts around them;
//! - the bit-parallel walk (runs of a self-looping state skipped a vector
//!   block at a time, at every vector width this CPU has and with the
//!   scalar twin) gives the plain table walk's verdict and error offset,
//!   for every rule of every spec, on valid and invalid inputs, non-ASCII
//!   and invalid UTF-8, of every length up to 200 bytes (across the 16-
//!   and 32-byte block boundaries) and long ones;
//! - the shuffle automata of the `@bidirectional` rules (their common
//!   states as vector lanes) give the table walk's verdict or escape to
//!   it, with the AVX-512 VBMI walk and its scalar twin in agreement.

use iri_grammar::abnf_runtime::simd::Level;
use iri_grammar::{rfc3986, rfc3987, Recognizer, Span};
use proptest::prelude::*;

/// Strings of URI/IRI characters: delimiters, letters, digits, `%`, a few
/// non-ASCII characters and a space (never valid).
fn reference_like() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{1,6}:(//([a-z0-9.:@\\[\\]]{0,12}))?(/[a-zé0-9%.]{0,6}){0,4}(\\?[a-z=&/?]{0,8})?(#[a-z/?#]{0,6})?",
        "(//[a-z0-9.:@]{0,10})?(/?[a-z0-9%.:]{0,5}){0,4}(\\?[a-z=]{0,6})?(#[a-z]{0,4})?",
        "[ -~é\u{202E}\u{FFFF}]{0,40}",
    ]
}

fn check_batch(r: &Recognizer, inputs: &[String]) {
    let mut out = vec![false; inputs.len()];
    r.is_match_many(inputs, &mut out);
    for (input, got) in inputs.iter().zip(&out) {
        assert_eq!(*got, r.is_match(input), "{r:?} on {input:?}");
    }
}

/// A span of `input` that starts at or after `after`.
fn inside(input: &str, span: Option<Span>, after: usize) -> usize {
    match span {
        Some(s) => {
            assert!(
                after <= s.start && s.start <= s.end && s.end <= input.len(),
                "{s:?} in {input:?}"
            );
            s.end
        }
        None => after,
    }
}

/// The recognizers the specs mark `@bidirectional`.
fn bidirectional() -> Vec<&'static Recognizer> {
    let mut marked: Vec<&'static Recognizer> = Vec::new();
    for r in iri_grammar::GRAMMARS.iter().flat_map(|g| g.rules()) {
        if r.is_bidirectional() && !marked.iter().any(|m| std::ptr::eq(*m, *r)) {
            marked.push(r);
        }
    }
    marked
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn both_ends_agree_with_the_forward_walk(input in reference_like()) {
        for r in bidirectional() {
            let bytes = input.as_bytes();
            // Every prefix: lengths on both sides of where both walks start.
            for end in 0..=bytes.len() {
                prop_assert_eq!(
                    r.is_match_bytes(&bytes[..end]),
                    r.is_match_forward(&bytes[..end]),
                    "{:?} on {:?}", r, String::from_utf8_lossy(&bytes[..end])
                );
                // The walk from both ends itself (which the shuffle
                // automaton replaces on CPUs with AVX-512 VBMI).
                prop_assert_eq!(
                    r.is_match_both_ends(&bytes[..end]),
                    r.is_match_forward(&bytes[..end]),
                    "{:?} on {:?}", r, String::from_utf8_lossy(&bytes[..end])
                );
            }
            prop_assert_eq!(r.validate(&input).is_ok(), r.is_match_forward(bytes));
        }
    }

    #[test]
    fn batch_agrees_with_is_match(inputs in prop::collection::vec(reference_like(), 0..40)) {
        check_batch(&rfc3987::IRI_REFERENCE, &inputs);
        check_batch(&rfc3986::URI_REFERENCE, &inputs);
        check_batch(&rfc3987::IHOST, &inputs);
    }

    #[test]
    fn iri_components_agree_with_the_recognizer(input in reference_like()) {
        let c = rfc3987::components::IriReference::parse(&input);
        match rfc3987::IRI_REFERENCE.validate(&input) {
            Ok(()) => {
                let c = c.expect("the recognizer accepts it");
                let mut at = inside(&input, c.scheme, 0);
                if c.scheme.is_some() {
                    prop_assert_eq!(&input[at..at + 1], ":");
                }
                if let Some(a) = c.authority {
                    prop_assert_eq!(&input[a.start - 2..a.start], "//");
                    at = inside(&input, c.authority, at);
                }
                at = inside(&input, c.path, at);
                if let Some(q) = c.query {
                    prop_assert_eq!(&input[q.start - 1..q.start], "?");
                    at = inside(&input, c.query, at);
                }
                if let Some(f) = c.fragment {
                    prop_assert_eq!(&input[f.start - 1..f.start], "#");
                    at = inside(&input, c.fragment, at);
                }
                prop_assert_eq!(at, input.len());
            }
            Err(e) => prop_assert_eq!(c.map(|_| ()).unwrap_err().offset(), e.offset()),
        }
    }

    #[test]
    fn uri_components_agree_with_the_recognizer(input in reference_like()) {
        let c = rfc3986::components::UriReference::parse(&input);
        match rfc3986::URI_REFERENCE.validate(&input) {
            Ok(()) => {
                let c = c.expect("the recognizer accepts it");
                let end = [c.scheme, c.authority, c.path, c.query, c.fragment]
                    .into_iter()
                    .fold(0, |at, s| inside(&input, s, at));
                prop_assert_eq!(end, input.len());
                if let Some(a) = c.authority {
                    let parts = rfc3986::components::Authority::parse_span(input.as_bytes(), a.start, a.end)
                        .expect("the first pass matched it as an authority");
                    let end = [parts.userinfo, parts.host, parts.port]
                        .into_iter()
                        .fold(a.start, |at, s| inside(&input, s, at));
                    prop_assert_eq!(end, a.end);
                    prop_assert!(parts.host.is_some());
                }
            }
            Err(e) => prop_assert_eq!(c.map(|_| ()).unwrap_err().offset(), e.offset()),
        }
    }
}

#[test]
fn only_the_marked_rules_are_bidirectional() {
    // `; @bidirectional` in specs/rfc3987.abnf and specs/rfc3986.abnf.
    let names: Vec<String> = bidirectional()
        .iter()
        .map(|r| format!("{}:{}", r.grammar(), r.rule()))
        .collect();
    assert_eq!(
        names,
        [
            "rfc3986:URI",
            "rfc3986:URI-reference",
            "rfc3986:absolute-URI",
            "rfc3986:relative-ref",
            "rfc3987:IRI",
            "rfc3987:IRI-reference",
            "rfc3987:absolute-IRI",
            "rfc3987:irelative-ref",
        ]
    );
    assert!(!rfc3987::IHOST.is_bidirectional());
    assert!(!rfc3986::SCHEME.is_bidirectional());
    // The same rules, and only they, have a shuffle automaton.
    for r in all_rules() {
        assert_eq!(r.table().shuffle().is_some(), r.is_bidirectional(), "{r:?}");
    }
    let long = "http://example.org/a/long/path/to/some/resource?with=query#and-fragment";
    for r in bidirectional() {
        assert_eq!(r.is_match(long), r.is_match_forward(long.as_bytes()));
        let broken = long.replace("some", "so me");
        assert!(!r.is_match(&broken));
        if r.is_match(long) {
            // Only the forward walk says where: at the space.
            assert_eq!(
                r.validate(&broken).unwrap_err().offset(),
                long.find("some").unwrap() + 2
            );
        }
    }
}

#[test]
fn long_inputs_from_both_ends() {
    // Long enough for the chunked walk, which stops at a dead state.
    for len in [127, 128, 129, 130, 1000, 100_001] {
        let mut s = String::from("http://example.org/");
        while s.len() < len {
            s.push_str("ab/");
        }
        s.truncate(len);
        for r in bidirectional() {
            assert_eq!(
                r.is_match(&s),
                r.is_match_forward(s.as_bytes()),
                "{r:?}, {len} bytes"
            );
            assert_eq!(
                r.is_match_both_ends(s.as_bytes()),
                r.is_match_forward(s.as_bytes())
            );
            for at in [0, 7, len / 2, len - 1] {
                let mut bad = s.clone().into_bytes();
                bad[at] = b' ';
                assert!(!r.is_match_bytes(&bad), "{r:?}, space at {at} of {len}");
                assert!(!r.is_match_both_ends(&bad), "{r:?}, space at {at} of {len}");
                assert_eq!(r.is_match_bytes(&bad), r.is_match_forward(&bad));
            }
        }
    }
}

#[test]
fn batch_sizes_around_the_lane_count() {
    let pool = [
        "http://a/",
        "",
        "a b",
        "//x",
        "s:\u{FFFF}",
        "../b?c#d",
        "mailto:x@y",
        "%zz",
    ];
    for n in 0..=3 * pool.len() {
        let inputs: Vec<String> = (0..n)
            .map(|i| pool[(i * 5 + n) % pool.len()].repeat(1 + i % 3))
            .collect();
        check_batch(&rfc3987::IRI_REFERENCE, &inputs);
    }
}

/// Every recognizer of every grammar, each once.
fn all_rules() -> Vec<&'static Recognizer> {
    let mut all: Vec<&'static Recognizer> = Vec::new();
    for r in iri_grammar::GRAMMARS.iter().flat_map(|g| g.rules()) {
        if !all.iter().any(|m| std::ptr::eq(*m, *r)) {
            all.push(r);
        }
    }
    all
}

/// xorshift64: deterministic inputs, no proptest shrinking needed to read a
/// failure (the input is printed).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Pieces of URI/IRI-like text: scheme and authority openings of the specs'
/// grammars, delimiters, escapes (good and bad), non-ASCII characters and
/// bytes that are not UTF-8.
const PIECES: &[&[u8]] = &[
    b"http:",
    b"https://",
    b"//",
    b"example.org",
    b"user@",
    b":8080",
    b"[2001:db8::7]",
    b"[v1.x]",
    b"/",
    b"a",
    b"Zz09",
    b"-._~",
    b"!$&'()*+,;=",
    b"?",
    b"q=1&r=2",
    b"#",
    b"%41",
    b"%zz",
    b"%",
    b":",
    b"@",
    b"mailto:",
    b"urn:isbn:",
    b"data:text/plain;base64,",
    b"tel:+1-",
    b"tag:a.b,2001:",
    b"file:///",
    b";type=",
    b" ",
    b"<",
    b"\t",
    "é".as_bytes(),
    "例え".as_bytes(),
    "😀".as_bytes(),
    "\u{E000}".as_bytes(),
    "\u{FFFF}".as_bytes(),
    b"\xff",
    b"\xc3",
    b"\xed\xa0\x80",
    // Characters the loop sets skip whole (two and three bytes), and cut,
    // overlong or stray pieces of them.
    "Zürich".as_bytes(),
    "東京".as_bytes(),
    "€".as_bytes(),
    "\u{FFFD}".as_bytes(),
    b"\xe4\xbe",
    b"\xc3\xa9\xa9",
    b"\xc1\xbf",
    b"\xa9",
];

/// Bytes the loops of the grammars run on: inserted as long runs, so that
/// the walk spends whole blocks in one state.
const RUNS: &[u8] = b"aZ09-._~!$&'()*+,;=:@/?";

/// A random input: pieces, some with a long run of one loop byte inside.
fn bit_parallel_input(rng: &mut Rng, max_pieces: usize) -> Vec<u8> {
    let mut s = Vec::new();
    for _ in 0..rng.below(max_pieces + 1) {
        s.extend_from_slice(PIECES[rng.below(PIECES.len())]);
        if rng.below(4) == 0 {
            let b = RUNS[rng.below(RUNS.len())];
            s.extend(std::iter::repeat_n(b, 1 + rng.below(80)));
        }
    }
    s
}

/// The bit-parallel walk at every level against the plain walk, and what
/// the public API reports, on `input`.
fn check_bit_parallel(r: &Recognizer, input: &[u8]) {
    let plain = r.table().full_match(input);
    for level in Level::available() {
        assert_eq!(
            r.table().full_match_skipping(input, level),
            plain,
            "{r:?}, {level:?} on {:?}",
            String::from_utf8_lossy(input)
        );
    }
    assert_eq!(
        r.validate_bytes(input).map_err(|e| e.offset()),
        plain,
        "{r:?} on {:?}",
        String::from_utf8_lossy(input)
    );
    assert_eq!(r.is_match_bytes(input), plain.is_ok());
    if let Some(sh) = r.table().shuffle() {
        // The lanes walk: the same verdict, or an escape to the table, and
        // the same answer from the vector walk and its scalar twin.
        let scalar = sh.full_match(input, Level::Scalar);
        assert!(
            scalar.is_none() || scalar == Some(plain.is_ok()),
            "{r:?} on {:?}",
            String::from_utf8_lossy(input)
        );
        assert_eq!(sh.full_match(input, Level::detected()), scalar);
    }
}

#[test]
fn shuffle_automata_hold_the_common_states() {
    // IRI-reference has 278 states, 63 of them get lanes: the ones a
    // reference with a registered name, a port, a path, a query and a
    // fragment passes through, and not an IPv6 literal's.
    for r in [&rfc3987::IRI_REFERENCE, &rfc3986::URI_REFERENCE] {
        let sh = r.table().shuffle().expect("@bidirectional");
        for input in [
            "http://user@example.org:8080/a/b%20c?q=1&r#frag",
            "/relative/path?x",
            "urn:isbn:0451450523",
            "mailto:a@b.c",
            "a b",
        ] {
            assert_eq!(
                sh.full_match(input.as_bytes(), Level::Scalar),
                Some(r.is_match_forward(input.as_bytes())),
                "{r:?} on {input:?}"
            );
        }
        let v6 = b"http://[2001:db8:85a3:8d3:1319:8a2e:370:7348]/";
        assert_eq!(sh.full_match(v6, Level::Scalar), None, "{r:?}");
        assert!(r.is_match_bytes(v6));
    }
    // Non-ASCII text in paths, queries and fragments stays in lanes too.
    let sh = rfc3987::IRI_REFERENCE.table().shuffle().unwrap();
    for input in ["http://a.jp/résumé/例え", "/é?q=é#é"] {
        assert_eq!(
            sh.full_match(input.as_bytes(), Level::Scalar),
            Some(true),
            "{input:?}"
        );
    }
}

#[test]
fn bit_parallel_walk_agrees_with_the_table_walk_on_every_rule() {
    let rules = all_rules();
    let skipping = rules.iter().filter(|r| r.table().skip_states() > 0).count();
    assert!(skipping >= 20, "only {skipping} of {} rules skip", rules.len());
    assert!(rfc3987::IRI_REFERENCE.table().skip_states() > 0);
    let mut rng = Rng(0x0001_7b17_ba5e_1234);
    for r in rules {
        for _ in 0..if r.table().skip_states() > 0 { 60 } else { 8 } {
            let input = bit_parallel_input(&mut rng, 12);
            check_bit_parallel(r, &input);
        }
    }
}

#[test]
fn bit_parallel_walk_agrees_across_block_boundaries() {
    // Every length from 0 to 200 of long valid and invalid inputs: the
    // skip ends in every position of a 16- and a 32-byte block, and in the
    // overlapping last block.
    let bases: [&[u8]; 7] = [
        b"http://example.org/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/b?q=1&r=22222222222222222222222222222222222222222222222222222222222222222#ffffffffffffffffffffffffffffffffffffffffffffffffffff",
        b"data:text/plain;base64,QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0NTY3ODkrLw==QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0NTY3ODkrLw==",
        b"http://a/%41%42%43bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb%zzcccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc",
        "https://例え.jp/résumééééééééééééééééééééééééééééééé/😀😀😀xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx?\u{E000}yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy#zzzzzzzzzzzzzzzzzzz"
            .as_bytes(),
        "http://a/東京東京東京東京東京東京東京東京東京東京東京/é?q=€€€€€€€€€€€€€€€€€€€€€€€€€€€€#ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ"
            .as_bytes(),
        b"//user:pass@host.example.org:80/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p/p?aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa aaaaaaaaaaaaaaaaaaaa",
        b"mailto:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.org?subject=ccccccccccccccccccccccccccccc\xff",
    ];
    let rules: Vec<&Recognizer> = all_rules()
        .into_iter()
        .filter(|r| r.table().skip_states() > 0)
        .collect();
    for base in bases {
        for end in 0..=base.len().min(200) {
            for r in &rules {
                check_bit_parallel(r, &base[..end]);
            }
        }
    }
    // A bad byte at every position of a long valid input.
    let good: Vec<u8> = bases[0].to_vec();
    assert!(rfc3987::IRI_REFERENCE.is_match_bytes(&good));
    for at in 0..good.len() {
        for bad in [b' ', 0xff, b'%'] {
            let mut input = good.clone();
            input[at] = bad;
            for r in [&rfc3987::IRI_REFERENCE, &rfc3986::URI_REFERENCE, &rfc3987::IRI] {
                check_bit_parallel(r, &input);
            }
        }
    }
}

#[test]
fn bit_parallel_walk_agrees_on_long_inputs() {
    let mut rng = Rng(0x10a6_1a9e);
    let rules: Vec<&Recognizer> = all_rules()
        .into_iter()
        .filter(|r| r.table().skip_states() > 0)
        .collect();
    for _ in 0..40 {
        let input = bit_parallel_input(&mut rng, 200);
        for r in &rules {
            check_bit_parallel(r, &input);
        }
    }
    // A 100 KB query, valid, then with a space near its end.
    let mut s = b"http://example.org/?".to_vec();
    while s.len() < 100_000 {
        s.extend_from_slice(b"key=value&");
    }
    assert!(rfc3987::IRI_REFERENCE.is_match_bytes(&s));
    check_bit_parallel(&rfc3987::IRI_REFERENCE, &s);
    let n = s.len();
    s[n - 3] = b' ';
    assert_eq!(
        rfc3987::IRI_REFERENCE.validate_bytes(&s).unwrap_err().offset(),
        n - 3
    );
    check_bit_parallel(&rfc3987::IRI_REFERENCE, &s);
}

/// Extraction with the splitter (RFC 3986 Appendix B) in one pass with a
/// recognizer, which inputs of 96 bytes or more take bit-parallel: the
/// recognizer's error, or the splitter's own parts.
fn check_split(r: &Recognizer, input: &str) {
    use iri_grammar::rfc3986_appendix_b::components::Reference;
    let got = Reference::parse_checked(r, input);
    match r.validate(input) {
        Err(e) => assert_eq!(got.unwrap_err().offset(), e.offset(), "{r:?} on {input:?}"),
        Ok(()) => assert_eq!(
            got.expect("valid"),
            Reference::parse(input).expect("the splitter matches everything"),
            "{r:?} on {input:?}"
        ),
    }
}

#[test]
fn bit_parallel_extraction_agrees_with_the_splitter() {
    let mut rng = Rng(0x00e8_7ac7);
    let recognizers = [
        &rfc3987::IRI_REFERENCE,
        &rfc3986::URI_REFERENCE,
        &rfc3987::IRI,
        &rfc3986::URI,
    ];
    for round in 0..400 {
        let bytes = bit_parallel_input(&mut rng, if round % 4 == 0 { 120 } else { 25 });
        let input = String::from_utf8_lossy(&bytes);
        for r in recognizers {
            check_split(r, &input);
        }
    }
    // Every length of long valid inputs (and a bad byte at every place of
    // one), around the length where the bit-parallel walk starts.
    let long = "https://user@example.org:8080/a/bb/ccc%41/déjà/vu?q=1&rr=%7B%7D&s=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa#frag/ment?x";
    for end in (0..=long.len()).filter(|&e| long.is_char_boundary(e)) {
        for r in recognizers {
            check_split(r, &long[..end]);
        }
    }
    for at in 0..long.len() {
        if long.is_char_boundary(at) && long.is_char_boundary(at + 1) {
            let bad = format!("{} {}", &long[..at], &long[at + 1..]);
            check_split(&rfc3987::IRI_REFERENCE, &bad);
        }
    }
}

#[test]
fn errors_after_a_skipped_run_expect_what_the_table_walk_expects() {
    // The state an error reports (what could have come instead) is found by
    // the bit-parallel walk for long prefixes: the same state as after a
    // short prefix that ends in the same component.
    use iri_grammar::IriRef;
    for (short, long) in [
        ("http://a/b c", format!("http://a/{} c", "b%41".repeat(60))),
        ("http://a/?q c", format!("http://a/?{} c", "q=1&".repeat(60))),
        ("http://a/#f c", format!("http://a/#{} c", "f/?".repeat(80))),
        ("//a{", format!("//{}{{", "a.b".repeat(60))),
    ] {
        let (s, l) = (
            IriRef::parse(short).unwrap_err(),
            IriRef::parse(&long).unwrap_err(),
        );
        assert_eq!(Some(l.offset()), long.find([' ', '{']), "{long}");
        for b in 0..=255u8 {
            assert_eq!(s.expects(b), l.expects(b), "{short} / {long}: byte {b:#x}");
        }
    }
}

#[test]
fn bidi_formatting_is_found_in_long_inputs_as_in_short_ones() {
    // The search for the characters' lead byte (E2) runs on vectors from
    // 64 bytes on: every place in and around the windows, after other E2
    // characters (U+20AC) that are not bidi formatting.
    use iri_grammar::ops::find_bidi_formatting;
    for len in [10, 63, 64, 65, 100, 128, 200] {
        for at in 0..len {
            let mut s = "a".repeat(at);
            s.push('€');
            s.push('\u{202E}');
            s.push_str(&"b".repeat(len - at));
            let want = at + '€'.len_utf8();
            assert_eq!(find_bidi_formatting(&s), Some((want, '\u{202E}')), "{len} {at}");
            let clean = s.replace('\u{202E}', "é");
            assert_eq!(find_bidi_formatting(&clean), None, "{len} {at}");
        }
    }
}
