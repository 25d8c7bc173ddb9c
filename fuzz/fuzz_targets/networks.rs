//! Rules that need a stack against the oracle: a random grammar (from the
//! first bytes, with `abnf_codegen::sample::random`) whose rules recurse in
//! every way, and an input over its alphabet (the other bytes). Every rule
//! that compiles as a network must agree with the oracle, by the walk the
//! generator chose and by the general walk; where the network is
//! deterministic, by the deterministic walk too (which fails exactly where
//! the table's walk fails). No walk may panic, hang or
//! recurse.
#![no_main]

use abnf_codegen::oracle::Oracle;
use abnf_codegen::sample::{random, Rng};
use abnf_codegen::Config;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 9 {
        return;
    }
    let seed = u64::from_le_bytes(data[..8].try_into().unwrap());
    let mut rng = Rng::new(seed);
    let rules = 1 + usize::from(data[8] % 3);
    let spec = if data[8] & 4 == 0 {
        random::grammar(&mut rng, rules)
    } else {
        random::bracketed(&mut rng, rules)
    };
    let input: String = data[9..]
        .iter()
        .take(24)
        .map(|b| random::ALPHABET[usize::from(b % 4)])
        .collect();
    // A grammar whose recursion never ends is refused: nothing to compare.
    let Ok(c) = Config::new()
        .spec_source("t.abnf", spec.as_str())
        .unused_warnings(false)
        .typed_ast(false)
        .build()
    else {
        return;
    };
    let oracle = Oracle::new(&c.grammar);
    let limits = abnf_runtime::network::Limits::DEFAULT;
    for i in 0..rules {
        let name = format!("r{i}");
        let Some(r) = c.recognizer("t", &name) else { continue };
        let id = c.grammar.modules[1].get(&name).unwrap();
        let want = oracle.matches(id, &input);
        assert_eq!(r.is_match(input.as_bytes()), want, "{spec}{name} on {input:?}");
        let Some((net, index)) = r.network() else { continue };
        let wire = abnf_codegen::wire::WireBytes::new(&net.to_bytes(abnf_codegen::wire::NATIVE_BIG_ENDIAN));
        let walk = wire.network();
        assert_eq!(
            walk.walk_general(index, input.as_bytes(), limits).is_ok(),
            want,
            "{spec}general walk of {name} on {input:?}"
        );
        if walk.is_deterministic() {
            let got = walk.walk_deterministic(index, input.as_bytes(), limits);
            assert_eq!(got.is_ok(), want, "{spec}deterministic walk of {name} on {input:?}");
            // Over a structural index (where the network has a quoted loop
            // set), the same failure as the table's walk.
            let table = walk.walk_table(index, input.as_bytes(), limits, &walk.loop_pairs());
            assert_eq!(got, table, "{spec}indexed and table walks of {name} on {input:?}");
        }
    }
});
