//! Random grammars and strings through the typed trees: the bytes seed a
//! random grammar (`abnf_codegen::sample::random_grammar`, text or octets,
//! with every rule typed or only the default ones), which is built with
//! small limits; then strings sampled from every typed rule are parsed into
//! the in-memory typed tree (`abnf_codegen::tree`, the walk the generated
//! code does, over the same automata) and the whole tree is checked: no
//! panic, every span inside the input and its parent, the parts of a
//! concatenation in order, a list's elements tiling its span, each part's
//! text matching its rule. The same bytes, as input, go through every typed
//! rule too: a tree is built exactly when the rule's recognizer matches.
#![no_main]

use abnf_codegen::limits::Limits;
use abnf_codegen::sample::{random_grammar, Rng};
use abnf_codegen::tree::{check, check_samples, TreeError};
use abnf_codegen::Config;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut seed = [0u8; 8];
    for (i, b) in data.iter().take(8).enumerate() {
        seed[i] = *b;
    }
    let seed = u64::from_le_bytes(seed);
    let input = data.get(8..).unwrap_or_default();
    let mut rng = Rng::new(seed);
    let octets = seed & 1 == 1;
    let spec = random_grammar(&mut rng, octets);
    let mut config = Config::new();
    config.spec_source("t.abnf", spec.clone()).limits(Limits {
        nfa_bytes: 1 << 20,
        dfa_bytes: 1 << 20,
        determinize_bytes: 4 << 20,
        rule_output_bytes: 1 << 20,
        output_bytes: 4 << 20,
        ..Limits::default()
    });
    if seed & 2 == 2 {
        let names: Vec<&str> = spec
            .lines()
            .filter_map(|l| l.split(' ').next())
            .filter(|n| n.starts_with('r'))
            .collect();
        config.ast_rules("t", &names);
    }
    let Ok(compiled) = config.build() else { return };
    if let Err(e) = check_samples(&compiled, seed, 3) {
        panic!("{spec}\n{e}");
    }
    let Some(trees) = compiled.trees("t") else { return };
    for (rule, _) in trees.typed_rules() {
        let name = &compiled.grammar.rule(rule).name;
        let matches = compiled
            .recognizer("t", name)
            .map(|r| r.is_match(input));
        match trees.parse(rule, input) {
            Ok(tree) => {
                assert_ne!(matches, Some(false), "{spec}\n{name}: a tree of an input its recognizer rejects");
                if let Err(e) = check(&compiled.grammar, &tree, input) {
                    panic!("{spec}\n{name} on {input:?}: {e}");
                }
            }
            Err(TreeError::NoMatch(_)) => {
                assert_ne!(matches, Some(true), "{spec}\n{name}: no tree of an input its recognizer matches")
            }
            Err(e) => panic!("{spec}\n{name} on {input:?}: {e}"),
        }
    }
});
