//! The JSON benchmark: RFC 8259's ABNF compiled by `abnf-codegen` (in this
//! crate's build script, with the defaults) against `serde_json` reading
//! into `IgnoredAny` (a validation that builds nothing) and, as a reference
//! line, `simd-json`'s tape (which does more: it also finds every value).
//!
//! The corpus is generated from a seed: objects and arrays nested to depth
//! 20 and more, strings with escapes and non-ASCII text, integers, decimals
//! and exponents, compact and indented documents, some 5% of them invalid
//! with the flaw anywhere (a dropped or doubled byte).

use crate::Rng;

/// RFC 8259's `JSON-text`, generated.
#[allow(missing_docs, dead_code)]
pub mod rfc8259 {
    include!(concat!(env!("OUT_DIR"), "/rfc8259.rs"));
}

/// The seed `cargo xtask bench` and the criterion bench use.
pub const JSON_SEED: u64 = 0x4A53_4F4E;

/// How many documents the default corpus has.
pub const JSON_N: usize = 400;

const WORDS: &[&str] = &[
    "id",
    "name",
    "value",
    "items",
    "créé",
    "größe",
    "日本語",
    "emoji 😀",
    "path\\/to",
    "tab\\there",
    "quote \\\"x\\\"",
    "line\\nbreak",
    "\\u00e9t\\u00e9",
    "url",
    "count",
    "enabled",
    "tags",
    "nested",
];

fn string(rng: &mut Rng, out: &mut String) {
    out.push('"');
    for i in 0..rng.range(0, 5) {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(rng.pick(WORDS));
    }
    out.push('"');
}

fn number(rng: &mut Rng, out: &mut String) {
    if rng.chance(200) {
        out.push('-');
    }
    out.push_str(&rng.range(0, 100_000).to_string());
    if rng.chance(300) {
        out.push('.');
        out.push_str(&rng.range(0, 1_000_000).to_string());
    }
    if rng.chance(100) {
        out.push_str(rng.pick(&["e", "E", "e+", "e-"]));
        out.push_str(&rng.range(1, 300).to_string());
    }
}

/// A value at `depth`; the `spine` nests down to `max` (one child of each
/// level continues it), the other values nest rarely, so that documents
/// stay small while some are deep.
fn value(rng: &mut Rng, depth: usize, max: usize, spine: bool, indent: Option<usize>, out: &mut String) {
    let nl = |out: &mut String, d: usize| {
        if let Some(w) = indent {
            out.push('\n');
            out.push_str(&" ".repeat(w * d));
        }
    };
    let nest = if spine {
        depth < max
    } else {
        depth < 6 && rng.chance(180)
    };
    if !nest {
        match rng.below(10) {
            0..=3 => string(rng, out),
            4..=7 => number(rng, out),
            8 => out.push_str(rng.pick(&["true", "false"])),
            _ => out.push_str("null"),
        }
        return;
    }
    let n = rng.range(usize::from(spine), 6);
    let deeper = if spine { rng.below(n) } else { usize::MAX };
    if rng.chance(550) {
        out.push('{');
        for i in 0..n {
            if i > 0 {
                out.push(',');
            }
            nl(out, depth + 1);
            string(rng, out);
            out.push_str(if indent.is_some() { ": " } else { ":" });
            value(rng, depth + 1, max, i == deeper, indent, out);
        }
        if n > 0 {
            nl(out, depth);
        }
        out.push('}');
    } else {
        out.push('[');
        for i in 0..n {
            if i > 0 {
                out.push_str(if indent.is_some() { ", " } else { "," });
            }
            value(rng, depth + 1, max, i == deeper, indent, out);
        }
        out.push(']');
    }
}

/// `n` documents from `seed`: about 5% invalid.
pub fn json_corpus(n: usize, seed: u64) -> Vec<String> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let mut doc = String::new();
            let max = if rng.chance(150) {
                rng.range(20, 40)
            } else {
                rng.range(2, 8)
            };
            let indent = rng.chance(400).then(|| rng.range(1, 5));
            // Several values side by side at the top, each with its spine.
            doc.push('[');
            for i in 0..rng.range(1, 12) {
                if i > 0 {
                    doc.push(',');
                }
                value(&mut rng, 1, max, true, indent, &mut doc);
            }
            doc.push(']');
            if rng.chance(50) && !doc.is_empty() {
                // A flaw anywhere: a byte dropped or doubled (on a character
                // boundary, so that the document stays a `&str`).
                let mut at = rng.below(doc.len());
                while !doc.is_char_boundary(at) {
                    at -= 1;
                }
                let c = doc[at..].chars().next().unwrap_or(' ');
                if rng.chance(500) {
                    doc.remove(at);
                } else {
                    doc.insert(at, c);
                }
            }
            doc
        })
        .collect()
}
