//! Networks against the oracle: every string up to a length over a small
//! alphabet, both engines where the network is deterministic.

use crate::oracle::Oracle;
use crate::Config;

use super::Determinism;

fn compiled(spec: &str) -> crate::Compiled {
    Config::new()
        .spec_source("t.abnf", spec)
        .unused_warnings(false)
        .build()
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Every string over `alphabet` up to `max` characters.
fn strings(alphabet: &[char], max: usize) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut level = vec![String::new()];
    for _ in 0..max {
        let mut next = Vec::new();
        for s in &level {
            for &c in alphabet {
                let mut t = s.clone();
                t.push(c);
                next.push(t);
            }
        }
        out.extend(next.iter().cloned());
        level = next;
    }
    out
}

/// Checks `rule` against the oracle on every string, and returns whether
/// the network was deterministic. Where it is, the general walk is checked
/// too.
fn agrees(spec: &str, rule: &str, alphabet: &[char], max: usize) -> bool {
    let c = compiled(spec);
    let r = c
        .recognizer("t", rule)
        .unwrap_or_else(|| panic!("`{rule}` compiles"));
    let (net, index) = r
        .network()
        .unwrap_or_else(|| panic!("`{rule}` is a network rule"));
    let id = c.grammar.modules[1].get(rule).unwrap();
    let oracle = Oracle::new(&c.grammar);
    let bytes = net.to_bytes(crate::wire::NATIVE_BIG_ENDIAN);
    let wire = crate::wire::WireBytes::new(&bytes);
    let runtime = wire.network();
    let limits = abnf_runtime::network::Limits::DEFAULT;
    let mut matched = 0;
    for s in strings(alphabet, max) {
        let want = oracle.matches(id, &s);
        matched += usize::from(want);
        assert_eq!(r.is_match(s.as_bytes()), want, "`{rule}` on {s:?}");
        assert_eq!(
            runtime.walk_general(index, s.as_bytes(), limits).is_ok(),
            want,
            "the general walk of `{rule}` on {s:?}"
        );
        if want {
            derivation_holds(net, &runtime, index, s.as_bytes());
        }
        if runtime.is_deterministic() {
            assert_eq!(
                runtime.walk_deterministic(index, s.as_bytes(), limits).is_ok(),
                want,
                "the deterministic walk of `{rule}` on {s:?}"
            );
        }
    }
    assert!(matched > 0, "`{rule}` matched nothing: the test checks nothing");
    matches!(net.determinism, Determinism::Deterministic(_))
}

/// `Network::derive` on an input that `rule` matches gives calls that are
/// a derivation: in order and inside the input, each callee matching its
/// span (and its own calls a derivation in turn, down to the leaves, with
/// an explicit stack), and the rule's automaton (the generator's model,
/// not the runtime's table) accepting the input with each call's span
/// read as the call.
fn derivation_holds(
    net: &super::Network,
    runtime: &abnf_runtime::network::Network<'_>,
    rule: usize,
    input: &[u8],
) {
    let limits = abnf_runtime::network::Limits::DEFAULT;
    let mut todo = vec![(rule, 0, input.len())];
    // A grammar with unit cycles (`s` deriving `s` over the same text) may
    // have a derivation that calls a rule over its caller's own span: each
    // (rule, span) is expanded once.
    let mut seen = std::collections::HashSet::new();
    while let Some((rule, from, to)) = todo.pop() {
        if !seen.insert((rule, from, to)) {
            continue;
        }
        let text = &input[from..to];
        let calls = runtime
            .derive(rule, text, limits)
            .unwrap_or_else(|f| panic!("derive rule {rule} on {text:?}: {f:?}"));
        let mut state = net.starts[rule] as usize;
        let mut pos = 0;
        let feed = |state: usize, bytes: &[u8]| {
            bytes.iter().try_fold(state, |q, &b| {
                let next = net.trans[q * net.alphabet + net.classes[b as usize] as usize] as usize;
                (next != 0).then_some(next)
            })
        };
        for c in &calls {
            assert!(
                pos <= c.start && c.start <= c.end && c.end <= text.len(),
                "{calls:?} on {text:?}"
            );
            state = feed(state, &text[pos..c.start]).unwrap_or_else(|| panic!("{calls:?} on {text:?}"));
            let Some(&(_, ret)) = net.calls[state].iter().find(|&&(callee, _)| callee == c.rule) else {
                panic!(
                    "no call of rule {} from state {state}: {calls:?} on {text:?}",
                    c.rule
                )
            };
            state = ret as usize;
            pos = c.end;
            todo.push((c.rule as usize, from + c.start, from + c.end));
        }
        let last = feed(state, &text[pos..]).unwrap_or_else(|| panic!("{calls:?} on {text:?}"));
        assert!(
            net.accept[last],
            "derivation {calls:?} of rule {rule} does not end on {text:?}"
        );
    }
}

#[test]
fn nesting_is_deterministic() {
    assert!(agrees("b = \"(\" b \")\" / \"x\"\n", "b", &['(', ')', 'x'], 9));
    assert!(agrees(
        "list = \"[\" [ item *( \",\" item ) ] \"]\"\nitem = list / 1*DIGIT\n",
        "list",
        &['[', ']', ',', '1'],
        8
    ));
    assert!(agrees(
        "comment = \"(\" *( ctext / comment ) \")\"\nctext = %x61-62\n",
        "comment",
        &['(', ')', 'a', 'b'],
        8
    ));
}

#[test]
fn left_recursion_and_ambiguity_take_the_general_walk() {
    // Left recursion.
    assert!(!agrees(
        "e = e \"+\" t / t\nt = \"(\" e \")\" / \"x\"\n",
        "e",
        &['(', ')', 'x', '+'],
        8
    ));
    // Whether the repetition takes an `a` or leaves it for the end is
    // regular lookahead, which the rule's own DFA absorbs: deterministic.
    assert!(agrees(
        "s = \"(\" *( \"a\" / s ) \"a\" \")\"\n",
        "s",
        &['(', ')', 'a'],
        9
    ));
    // Ambiguous: `a a` of nested `a`s.
    assert!(!agrees(
        "a = a a / \"(\" a \")\" / \"x\"\n",
        "a",
        &['(', ')', 'x'],
        8
    ));
}

#[test]
fn nullable_rules_and_calls() {
    agrees(
        "s = [ \"(\" s \")\" ] s / \"x\" s / \"\"\n",
        "s",
        &['(', ')', 'x'],
        8,
    );
    agrees(
        "a = b \"x\" b\nb = *( \"(\" a \")\" )\n",
        "a",
        &['(', ')', 'x'],
        8,
    );
    agrees(
        "p = \"(\" q \")\" / \"y\"\nq = [ p ] [ p ]\n",
        "p",
        &['(', ')', 'y'],
        8,
    );
}

#[test]
fn recursion_through_prose_and_mutual_recursion() {
    // RFC 3986 writes references as prose (`<pchar>`); once nested, they
    // need a stack like any reference.
    assert!(agrees("a = \"x\" <a> \"y\" / \"z\"\n", "a", &['x', 'y', 'z'], 7));
    assert!(agrees(
        "a = \"x\" b \"y\" / \"z\"\nb = a\n",
        "b",
        &['x', 'y', 'z'],
        7
    ));
}

#[test]
fn a_rule_that_uses_a_recursive_rule_calls_it() {
    // `doc` is not recursive itself, but it uses `b`, which is.
    assert!(agrees(
        "doc = \"<\" b \">\" b\nb = \"(\" b \")\" / \"x\"\n",
        "doc",
        &['<', '>', '(', ')', 'x'],
        7
    ));
}

#[test]
fn deep_nesting_ends_in_too_deep_at_the_limit() {
    for spec in [
        "b = \"(\" b \")\" / \"x\"\n",
        // Ambiguous, so walked by the general engine.
        "b = \"(\" b \")\" / \"x\" / b b\n",
    ] {
        let c = Config::new()
            .spec_source("t.abnf", spec)
            .nesting_limit(100)
            .build()
            .unwrap();
        let r = c.recognizer("t", "b").unwrap();
        let input = vec![b'('; 1_000_000];
        let f = r.validate(&input).unwrap_err();
        assert_eq!(f.kind, abnf_runtime::ErrorKind::TooDeep, "{spec}");
        assert!(f.offset <= 101, "{spec}: {}", f.offset);
        let ok = format!("{}x{}", "(".repeat(100), ")".repeat(100));
        assert!(r.is_match(ok.as_bytes()), "{spec}");
        let deep = format!("{}x{}", "(".repeat(101), ")".repeat(101));
        assert_eq!(
            r.validate(deep.as_bytes()).unwrap_err().kind,
            abnf_runtime::ErrorKind::TooDeep
        );
    }
}

#[test]
fn json_as_published_compiles_and_agrees_with_the_oracle() {
    let spec = include_str!("../../../tests/data/rfc-grammars/rfc8259.abnf");
    let c = Config::new().spec_source("rfc8259.abnf", spec).build().unwrap();
    assert!(c.left_out().is_empty(), "{:?}", c.left_out());
    let r = c.recognizer("rfc8259", "JSON-text").unwrap();
    let (net, _) = r.network().expect("JSON-text needs a stack");
    eprintln!(
        "JSON: {} rules, {} states, {:?}",
        net.rules.len(),
        net.states(),
        match &net.determinism {
            Determinism::Deterministic(_) => "deterministic".to_string(),
            Determinism::General(why) => why.clone(),
        }
    );
    let id = c.grammar.modules[1].get("JSON-text").unwrap();
    let oracle = Oracle::new(&c.grammar);
    let mut sampler = crate::sample::Sampler::new(&c.grammar, 7);
    let (net, index) = r.network().unwrap();
    let wire = crate::wire::WireBytes::new(&net.to_bytes(crate::wire::NATIVE_BIG_ENDIAN));
    let walk = wire.network();
    let limits = abnf_runtime::network::Limits::DEFAULT;
    let mut rng = crate::sample::Rng::new(3);
    let bytes = b" \t\n{}[]:,\"\\/ue0-.9aftrnlsE+\xc3\xa9";
    for _ in 0..300 {
        let s = sampler.sample(id);
        assert!(r.is_match(s.as_bytes()), "rejects sampled {s:?}");
        // Near misses: the deterministic walk (with its skips of string
        // contents) against the general walk.
        for _ in 0..8 {
            let mut m = s.clone().into_bytes();
            let at = rng.below(m.len() as u64 + 1) as usize;
            let b = bytes[rng.below(bytes.len() as u64) as usize];
            match rng.below(3) {
                0 if at < m.len() => {
                    m.remove(at);
                }
                1 if at < m.len() => m[at] = b,
                _ => m.insert(at, b),
            }
            assert_eq!(
                walk.walk_deterministic(index, &m, limits).is_ok(),
                walk.walk_general(index, &m, limits).is_ok(),
                "{:?}",
                String::from_utf8_lossy(&m)
            );
        }
    }
    for (s, ok) in [
        ("[1, {\"a\": [true, null]}, \"x\\u00e9\"]", true),
        (" { } ", true),
        ("[1,]", false),
        ("{\"a\" 1}", false),
    ] {
        assert_eq!(r.is_match(s.as_bytes()), ok, "{s:?}");
        assert_eq!(oracle.matches(id, s), ok, "oracle on {s:?}");
    }
    let deep = format!("{}1{}", "[".repeat(30), "]".repeat(30));
    assert!(r.is_match(deep.as_bytes()));
    assert!(!r.is_match(&deep.as_bytes()[1..]));
}

#[test]
fn random_grammars_agree_with_the_oracle() {
    use crate::sample::{random, Rng};
    let (mut networks, mut deterministic) = (0, 0);
    for seed in 0..60u64 {
        let mut rng = Rng::new(seed);
        let rules = 1 + (seed % 3) as usize;
        let spec = if seed % 2 == 0 {
            random::grammar(&mut rng, rules)
        } else {
            random::bracketed(&mut rng, rules)
        };
        // A grammar whose recursion never ends is refused, rightly.
        let Ok(c) = Config::new()
            .spec_source("t.abnf", spec.as_str())
            .unused_warnings(false)
            .build()
        else {
            continue;
        };
        let oracle = Oracle::new(&c.grammar);
        let sampler = crate::sample::Sampler::new(&c.grammar, 0);
        for (i, &id) in c.grammar.modules[1].defined.iter().enumerate() {
            // Only a rule that matches no string is left out.
            let Some(r) = c.recognizer("t", &format!("r{i}")) else {
                assert!(
                    sampler.shortest(id).is_none(),
                    "{spec}: r{i} left out: {:?}",
                    c.left_out()
                );
                continue;
            };
            let walks = r.network().map(|(net, index)| {
                networks += 1;
                deterministic += usize::from(matches!(net.determinism, Determinism::Deterministic(_)));
                (
                    crate::wire::WireBytes::new(&net.to_bytes(crate::wire::NATIVE_BIG_ENDIAN)),
                    index,
                    net,
                )
            });
            for s in strings(&random::ALPHABET, 5) {
                let want = oracle.matches(id, &s);
                assert_eq!(r.is_match(s.as_bytes()), want, "{spec}r{i} on {s:?}");
                if let Some((wire, index, net)) = &walks {
                    let limits = abnf_runtime::network::Limits::DEFAULT;
                    let got = wire.network().walk_general(*index, s.as_bytes(), limits).is_ok();
                    assert_eq!(got, want, "{spec}general walk of r{i} on {s:?}");
                    if want {
                        derivation_holds(net, &wire.network(), *index, s.as_bytes());
                    }
                    if wire.network().is_deterministic() {
                        let got = wire
                            .network()
                            .walk_deterministic(*index, s.as_bytes(), limits)
                            .is_ok();
                        assert_eq!(got, want, "{spec}deterministic walk of r{i} on {s:?}");
                    }
                }
            }
        }
    }
    // The grammars exercise both walks.
    assert!(
        networks > 10 && deterministic > 0 && deterministic < networks,
        "{networks} {deterministic}"
    );
}

/// The deterministic walk's skips (with vectors: over stage 1's structural
/// index; without: self-loops scanned with the table, loop sets with the
/// bitmasks of 64-byte blocks kept across runs, characters and escapes
/// handed to the vector search) against the general walk, on runs that
/// cross blocks and end at every place in them; and the walk over the
/// index against the table's walk, failure for failure (offset, kind,
/// expected bytes, open call).
#[test]
fn json_skips_across_blocks_agree_with_the_general_walk() {
    let spec = include_str!("../../../tests/data/rfc-grammars/rfc8259.abnf");
    let c = Config::new().spec_source("rfc8259.abnf", spec).build().unwrap();
    let r = c.recognizer("rfc8259", "JSON-text").unwrap();
    let (net, index) = r.network().unwrap();
    let wire = crate::wire::WireBytes::new(&net.to_bytes(crate::wire::NATIVE_BIG_ENDIAN));
    let walk = wire.network();
    assert!(walk.is_deterministic());
    let plan = walk.plan();
    assert!(plan.is_indexed(), "JSON's strings are a quoted loop set");
    assert!(
        plan.skips_four_byte_characters(),
        "JSON's strings hold any character"
    );
    let pairs = walk.loop_pairs();
    let limits = abnf_runtime::network::Limits::DEFAULT;
    // Valid string contents, then (the last two) invalid ones.
    let pieces: [&str; 14] = [
        "a",
        "é",
        "😀",
        "\\n",
        "\\u00e9",
        " ",
        "日",
        "\\\"",
        "\\\\",
        "\u{10000}",
        "\u{50000}",
        "\u{10FFFF}",
        "x\u{1}",
        "\\",
    ];
    use abnf_runtime::simd::{cap_level, Level};
    let top = Level::detected();
    let mut rng = crate::sample::Rng::new(11);
    for round in 0..200 {
        let mut doc = String::from("[");
        for v in 0..1 + rng.below(6) {
            if v > 0 {
                doc.push_str(if round % 2 == 0 { "," } else { ",\n      " });
            }
            match rng.below(3) {
                0 => doc.push_str(&"1234567890"[..1 + rng.below(10) as usize]),
                _ => {
                    doc.push('"');
                    for _ in 0..rng.below(80) {
                        doc.push_str(pieces[rng.below(if round % 3 == 0 { 14 } else { 12 }) as usize]);
                    }
                    doc.push('"');
                }
            }
        }
        doc.push(']');
        let bytes = doc.as_bytes();
        // The whole document, every prefix, and one byte dropped; at
        // every vector level (the walk's answers do not depend on it, so
        // capping it does not disturb the tests that run meanwhile).
        for cut in (0..=bytes.len()).rev() {
            let mut m = bytes[..cut].to_vec();
            if cut < bytes.len() && round % 4 == 1 {
                m.extend_from_slice(&bytes[cut + 1..]);
            }
            let want = walk.walk_general(index, &m, limits).is_ok();
            let table = walk.walk_table(index, &m, limits, &pairs);
            assert_eq!(table.is_ok(), want, "{:?}", String::from_utf8_lossy(&m));
            for level in Level::available() {
                cap_level(level);
                assert_eq!(
                    walk.walk_planned(index, &m, limits, &plan),
                    table,
                    "{level:?}: {:?}",
                    String::from_utf8_lossy(&m)
                );
            }
            cap_level(top);
        }
    }
}

/// The walk over stage 1's structural index against the table's walk,
/// failure for failure, on JSON documents from the sampler and their
/// mutations (bytes dropped, replaced, inserted, from a pool of JSON's
/// structural bytes, escapes, digits, white space and UTF-8), with the
/// nesting limit low enough to be passed, at every vector level.
#[test]
fn json_index_walk_fails_where_the_table_walk_fails() {
    let spec = include_str!("../../../tests/data/rfc-grammars/rfc8259.abnf");
    let c = Config::new().spec_source("rfc8259.abnf", spec).build().unwrap();
    let r = c.recognizer("rfc8259", "JSON-text").unwrap();
    let id = c.grammar.modules[1].get("JSON-text").unwrap();
    let mut sampler = crate::sample::Sampler::new(&c.grammar, 5);
    let (net, index) = r.network().unwrap();
    let wire = crate::wire::WireBytes::new(&net.to_bytes(crate::wire::NATIVE_BIG_ENDIAN));
    let walk = wire.network();
    let plan = walk.plan();
    let pairs = walk.loop_pairs();
    use abnf_runtime::simd::{cap_level, Level};
    let top = Level::detected();
    let mut rng = crate::sample::Rng::new(17);
    let pool: &[&[u8]] = &[
        b" ",
        b"\t",
        b"\r\n",
        b"\n    ",
        b"{",
        b"}",
        b"[",
        b"]",
        b":",
        b",",
        b"\"",
        b"\\",
        b"\\\\",
        b"\\u",
        b"\\u00e9",
        b"\\uD83D",
        b"0",
        b"-1.5e+3",
        b"9",
        b"e",
        b"true",
        b"nul",
        b"x",
        b"\x01",
        b"\xc3\xa9",
        b"\xe6\x97\xa5",
        b"\xf0\x9f\x98\x80",
        b"\xc3",
        b"\x80",
        b"\xff",
    ];
    // The walk over the index at every vector level against the table's
    // walk, failure for failure; the table's answer.
    let agree = |doc: &[u8], limits: abnf_runtime::network::Limits| {
        let table = walk.walk_table(index, doc, limits, &pairs);
        for level in Level::available() {
            cap_level(level);
            assert_eq!(
                walk.walk_planned(index, doc, limits, &plan),
                table,
                "{level:?}, depth {}: {:?}",
                limits.depth,
                String::from_utf8_lossy(doc)
            );
        }
        cap_level(top);
        table
    };
    // How often the walks accepted, failed on a byte, and passed the
    // nesting limit: the mutations must reach all three.
    let mut outcomes = [0usize; 3];
    for round in 0..400 {
        // Documents long enough to cross blocks: several samples in an array.
        let mut doc = b"[".to_vec();
        for v in 0..1 + rng.below(4) {
            if v > 0 {
                doc.extend_from_slice(if round % 2 == 0 { b"," } else { b",\n  " });
            }
            doc.extend_from_slice(sampler.sample(id).trim().as_bytes());
        }
        doc.push(b']');
        for _ in 0..6 {
            let mut m = doc.clone();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(m.len() as u64 + 1) as usize;
                let piece = pool[rng.below(pool.len() as u64) as usize];
                match rng.below(3) {
                    0 if at < m.len() => {
                        m.remove(at);
                    }
                    1 if at < m.len() => {
                        m.splice(at..at + 1, piece.iter().copied());
                    }
                    _ => {
                        m.splice(at..at, piece.iter().copied());
                    }
                }
            }
            for limits in [
                abnf_runtime::network::Limits::DEFAULT,
                abnf_runtime::network::Limits {
                    depth: 3,
                    ..abnf_runtime::network::Limits::DEFAULT
                },
            ] {
                outcomes[match agree(&m, limits) {
                    Ok(()) => 0,
                    Err(f) if f.kind == abnf_runtime::ErrorKind::TooDeep => 2,
                    Err(_) => 1,
                }] += 1;
            }
        }
    }
    assert!(outcomes.iter().all(|&n| n > 0), "{outcomes:?}");
    // Nesting around where the walk's stack leaves its inline words for
    // the heap (31 calls) and around the limit, valid and with a flaw at
    // the deepest point, every level against the table's walk.
    for depth in [29, 30, 31, 32, 33, 62, 63, 64, 65, 200] {
        for limit in [depth - 1, depth, depth + 1, 1024] {
            let limits = abnf_runtime::network::Limits {
                depth: limit,
                ..abnf_runtime::network::Limits::DEFAULT
            };
            let open: Vec<u8> = (0..depth)
                .flat_map(|k| if k % 2 == 0 { &b"[ "[..] } else { b"{\"k\":" })
                .copied()
                .collect();
            let close: Vec<u8> = (0..depth)
                .rev()
                .flat_map(|k| if k % 2 == 0 { &b" ]"[..] } else { b"} " })
                .copied()
                .collect();
            for middle in [&b"1"[..], b"\"s\"", b"tru", b"1,", b""] {
                let got = agree(&[&open[..], middle, &close[..]].concat(), limits);
                // Valid JSON within the default limit; never within one
                // below the brackets' depth.
                if middle == b"1" && limit == 1024 {
                    assert_eq!(got, Ok(()), "depth {depth}");
                }
                if limit < depth {
                    assert_eq!(
                        got.map_err(|f| f.kind),
                        Err(abnf_runtime::ErrorKind::TooDeep),
                        "depth {depth}"
                    );
                }
            }
        }
    }
}
