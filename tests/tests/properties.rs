//! The generated recognizers and extractors against the reference matcher
//! (`abnf_codegen::oracle`, which interprets the grammar IR directly), on
//! strings generated from every grammar in `specs/` (`abnf_codegen::sample`).
//!
//! - every sampled string is accepted by the generated recognizer;
//! - on sampled near misses, the recognizer and the oracle agree;
//! - extraction spans (the tagged DFA of each typed rule) agree with the
//!   oracle's priority parse.
//!
//! CI runs a bounded number of cases; `cargo xtask props N` runs N (the
//! `PROPTEST_CASES` variable).

use std::path::Path;
use std::sync::OnceLock;

use abnf_codegen::grammar::{Expr, RuleId};
use abnf_codegen::oracle::Oracle;
use abnf_codegen::sample::Sampler;
use abnf_codegen::typed::expr_at;
use abnf_codegen::{Compiled, Config};
use proptest::prelude::*;

/// Every spec of `specs/`, built in memory with its tagged DFAs.
fn compiled() -> &'static Compiled {
    static C: OnceLock<Compiled> = OnceLock::new();
    C.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../specs");
        Config::new().specs_dir(dir).build().expect("the specs are valid")
    })
}

/// (module, rule id, rule name) for every rule of every spec file.
fn rules() -> Vec<(String, RuleId, String)> {
    let g = &compiled().grammar;
    g.modules
        .iter()
        .filter(|m| m.root)
        .flat_map(|m| {
            m.defined
                .iter()
                .map(move |&id| (m.name.clone(), id, g.rule(id).name.clone()))
        })
        .collect()
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// Samples match, both by the oracle and by the generated runtime.
    #[test]
    fn samples_are_accepted(seed in any::<u64>()) {
        let g = &compiled().grammar;
        let oracle = Oracle::new(g);
        let mut sampler = Sampler::new(g, seed);
        for (module, id, name) in rules() {
            let s = sampler.sample(id);
            prop_assert!(oracle.matches(id, &s), "oracle rejects a sample of {module}:{name}: {s:?}");
            let r = iri_grammar::lookup(&module, &name).expect("every rule is exported");
            prop_assert!(r.is_match(&s), "{module}:{name} rejects its own sample {s:?}");
        }
    }

    /// On near misses the generated recognizer agrees with the oracle.
    #[test]
    fn near_misses_agree(seed in any::<u64>()) {
        let g = &compiled().grammar;
        let oracle = Oracle::new(g);
        let mut sampler = Sampler::new(g, seed);
        for (module, id, name) in rules() {
            let boundary = sampler.boundary_chars(id);
            let s = sampler.near_miss(id, &boundary);
            let r = iri_grammar::lookup(&module, &name).expect("every rule is exported");
            prop_assert_eq!(r.is_match(&s), oracle.matches(id, &s), "{}:{} on {:?}", module, name, s);
        }
    }

    /// The tagged DFA of every typed rule reports the spans of the oracle's
    /// priority parse.
    #[test]
    fn extraction_spans_agree(seed in any::<u64>()) {
        let c = compiled();
        let g = &c.grammar;
        let oracle = Oracle::new(g);
        let mut sampler = Sampler::new(g, seed);
        for (module, id, name) in rules() {
            let Some((_, groups, dfa)) = c.tagged(&module, &name) else { continue };
            let s = sampler.sample(id);
            let Some(spans) = oracle.priority_parse(id, &s, 2_000_000) else {
                // Over the search budget: nothing to compare.
                continue;
            };
            let tags = dfa.run(s.as_bytes()).expect("a sample matches");
            for (g, path) in groups.paths() {
                // A group of a part's rule read in the same walk: checked
                // against that rule's own automaton below.
                let Some(path) = path else { continue };
                let got = tags[2 * g].zip(tags[2 * g + 1]);
                prop_assert_eq!(got, spans.get(path).copied(), "{}:{} group {} ({:?}) on {:?}", module, name, g, path, s);
            }
            // A part whose rule's groups follow its group gets the tags
            // that rule's own automaton gives its span.
            for &(field, count) in groups.nested() {
                let path = groups.paths().find(|&(g, _)| g == field).and_then(|(_, p)| p).expect("a field group");
                let Some(Expr::Ref(part, _)) = expr_at(&g.rule(id).expr, path) else {
                    prop_assert!(false, "{}:{} nested group {} is not a rule", module, name, field);
                    unreachable!()
                };
                let Some((_, part_dfa)) = c.tagged_rule(*part) else {
                    prop_assert!(false, "{}:{} nested group {}: no automaton", module, name, field);
                    unreachable!()
                };
                let Some((start, end)) = tags[2 * field].zip(tags[2 * field + 1]) else { continue };
                let own = part_dfa.run(&s.as_bytes()[start..end]).expect("the part matches alone");
                let shifted: Vec<Option<usize>> = own.iter().map(|t| t.map(|t| t + start)).collect();
                // (Group 0 is the field's own group, checked above.)
                prop_assert_eq!(&tags[2 * field + 2..2 * (field + count)], &shifted[2..], "{}:{} nested group {} on {:?}", module, name, field, s);
            }
        }
    }
}

/// The oracle and the recognizers agree on the peer vectors, for the rules
/// the vectors classify.
#[test]
fn oracle_agrees_on_the_vectors() {
    let g = &compiled().grammar;
    let oracle = Oracle::new(g);
    let m = g.module_by_name("rfc3987").unwrap();
    let id = g.module(m).get("IRI-reference").unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/vectors");
    for (file, valid) in [("valid-iri.txt", true), ("invalid-iri.txt", false)] {
        for line in std::fs::read_to_string(dir.join(file)).unwrap().lines() {
            assert_eq!(oracle.matches(id, line), valid, "{file}: {line:?}");
        }
    }
}

/// Recursive grammars: the oracle handles right- and left-linear recursion.
#[test]
fn oracle_handles_recursion() {
    let mut config = Config::new();
    config.spec_source(
        "t.abnf",
        "list = item [\",\" list]\nitem = 1*DIGIT\nl = l \"a\" / \"b\"\n",
    );
    let c = config.build().unwrap();
    let g = &c.grammar;
    let oracle = Oracle::new(g);
    let m = g.module_by_name("t").unwrap();
    let list = g.module(m).get("list").unwrap();
    let l = g.module(m).get("l").unwrap();
    for s in ["1", "1,22,333", "1,", ",1", ""] {
        assert_eq!(
            oracle.matches(list, s),
            c.recognizer("t", "list").unwrap().is_match(s.as_bytes()),
            "{s:?}"
        );
    }
    for s in ["b", "baaa", "ab", ""] {
        assert_eq!(
            oracle.matches(l, s),
            c.recognizer("t", "l").unwrap().is_match(s.as_bytes()),
            "{s:?}"
        );
    }
}

// ---- typed trees, visited whole (issue 26) ---------------------------------
//
// For every typed rule of every grammar, sampled strings give trees that
// `abnf_codegen::tree` builds with the generated code's own runtime walks,
// over the same automata the generated code embeds (iri-grammar's are
// generated from these specs by the same generator), and checks node by
// node: no panic, spans inside the input and their parent, the parts of a
// concatenation in order, every list item read and the items tiling the
// list, each part matching its rule. Random grammars are in
// `abnf_codegen::tree`'s unit tests and in the `typed_trees` fuzz target.

/// Every typed rule of every spec of `specs/`.
#[test]
fn typed_trees_of_the_specs_are_whole() {
    let mut total = 0;
    for seed in 0..cases() as u64 {
        total += abnf_codegen::tree::check_samples(compiled(), seed, 2).unwrap_or_else(|e| panic!("{e}"));
    }
    assert!(total > 500, "only {total} trees");
}

/// The RFC grammars whose typed trees take long to build in a debug build
/// (RFC 3261 over a minute in release): checked by the ignored test below.
const SLOW_TYPED_CORPUS: [&str; 3] = ["rfc3261.abnf", "rfc9051.abnf", "rfc9116.abnf"];

/// Every typed rule of every RFC grammar of `data/rfc-grammars/` but the
/// slow ones, built with its typed trees (rules whose automata exceed the
/// limits fall back to text, as in a build script).
#[test]
fn typed_trees_of_the_rfc_corpus_are_whole() {
    check_typed_corpus(|name| !SLOW_TYPED_CORPUS.contains(&name));
}

/// The slow rest of the corpus: run it with
/// `cargo test -p tests --test integration -- --ignored typed_trees_of_the_slow`.
#[test]
#[ignore = "slow: builds the typed trees of RFC 3261, 9051 and 9116; run with --ignored"]
fn typed_trees_of_the_slow_rfc_grammars_are_whole() {
    check_typed_corpus(|name| SLOW_TYPED_CORPUS.contains(&name));
}

fn check_typed_corpus(take: impl Fn(&str) -> bool) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/rfc-grammars");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "abnf"))
        .filter(|p| take(p.file_name().unwrap().to_str().unwrap()))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let mut report = Vec::new();
    for file in files {
        let t0 = std::time::Instant::now();
        let mut config = Config::new();
        config.spec(&file);
        let compiled = config
            .build()
            .unwrap_or_else(|e| panic!("{} does not build:\n{e}", file.display()));
        let built = t0.elapsed();
        let trees = abnf_codegen::tree::check_samples(&compiled, 26, 3).unwrap_or_else(|e| panic!("{e}"));
        report.push(format!(
            "{}: {trees} trees (build {built:.1?}, total {:.1?})",
            file.display(),
            t0.elapsed()
        ));
        assert!(trees > 0, "{}: no typed rule", file.display());
    }
    eprintln!("{}", report.join("\n"));
}
