//! Arbitrary bytes through the generator's front end and automata: the bytes
//! as a spec file (`syntax` → `grammar`, UTF-8 checks included), then, when
//! they are UTF-8, the whole of `Config::build` (lowering, recursion checks,
//! DFAs and tagged DFAs) with small limits.
//!
//! - No panic, no hang (libFuzzer's `-timeout`), no unbounded memory
//!   (`-rss_limit_mb`): every input ends in a grammar or in diagnostics.
//! - Every diagnostic renders, and the rendering is bounded and safe for a
//!   terminal or a build log: no control character but the line feed, no
//!   bidirectional-formatting character, at most 16 KiB per diagnostic.
#![no_main]

use abnf_codegen::limits::Limits;
use abnf_codegen::grammar::{self, SpecInput};
use abnf_codegen::{Config, Diagnostics, Error};
use libfuzzer_sys::fuzz_target;

fn check_render(d: &Diagnostics) {
    for item in &d.items {
        let one = Diagnostics {
            sources: d.sources.clone(),
            items: vec![item.clone()],
        };
        let text = one.render(false);
        assert!(text.len() <= 16 << 10, "{} bytes for one diagnostic:\n{text}", text.len());
        if let Some(c) = text.chars().find(|&c| {
            (c.is_control() && c != '\n')
                || matches!(c, '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{2069}')
        }) {
            panic!("raw {c:?} in a rendered diagnostic:\n{text}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let input = SpecInput {
        name: "fuzz.abnf".into(),
        path: None,
        bytes: data.to_vec(),
    };
    let mut no_imports = |_: &SpecInput, name: &str| Err(format!("imports are off while fuzzing ({name})"));
    let (_, diags) = grammar::load(vec![input], &mut no_imports);
    check_render(&diags);

    let Ok(text) = std::str::from_utf8(data) else { return };
    // Imports are left out: a fuzzed `@import` must not read this machine's
    // files (the front end's import checks are the `grammar::load` above).
    if text.contains("@import") {
        return;
    }
    let mut config = Config::new();
    config.spec_source("fuzz.abnf", text).limits(Limits {
        nfa_bytes: 1 << 20,
        dfa_bytes: 1 << 20,
        determinize_bytes: 4 << 20,
        rule_output_bytes: 1 << 20,
        output_bytes: 4 << 20,
        ..Limits::default()
    });
    match config.build() {
        Ok(compiled) => check_render(&compiled.warnings),
        Err(Error::Grammar(d)) => check_render(&d),
        Err(e) => panic!("not a grammar error: {e}"),
    }
});
