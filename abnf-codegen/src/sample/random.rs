//! Random grammars, for the property tests and fuzz targets that compare
//! the generated recognizers with the oracle.

use super::Rng;

/// The characters [`grammar`]'s rules are written over.
pub const ALPHABET: [char; 4] = ['(', ')', 'a', 'b'];

/// A random grammar of `rules` rules `r0`, `r1`, ... over [`ALPHABET`],
/// whose bodies reference any rule: recursion of every kind (left, right,
/// nested, mutual), ambiguity and empty matches all occur.
pub fn grammar(rng: &mut Rng, rules: usize) -> String {
    let rules = rules.max(1);
    let mut out = String::new();
    for i in 0..rules {
        out.push_str(&format!("r{i} = {}\n", expr(rng, rules, 3)));
    }
    out
}

/// A random grammar whose rules nest in brackets: each rule is
/// `"(" body ")" / "a"` with a random body over `"b"` and the rules. Most
/// such grammars are decided by the next byte (the deterministic walk).
pub fn bracketed(rng: &mut Rng, rules: usize) -> String {
    let rules = rules.max(1);
    let mut out = String::new();
    for i in 0..rules {
        out.push_str(&format!(
            "r{i} = \"(\" {} \")\" / \"a\"\n",
            inner(rng, rules, 2, true)
        ));
    }
    out
}

fn expr(rng: &mut Rng, rules: usize, depth: u32) -> String {
    inner(rng, rules, depth, false)
}

fn inner(rng: &mut Rng, rules: usize, depth: u32, bracketed: bool) -> String {
    let leaf = depth == 0 || rng.below(3) == 0;
    if leaf && bracketed {
        return match rng.below(3) {
            0 => "\"b\"".into(),
            _ => format!("r{}", rng.below(rules as u64)),
        };
    }
    if leaf {
        return match rng.below(7) {
            0 => "\"(\"".into(),
            1 => "\")\"".into(),
            2 => "\"a\"".into(),
            3 => "\"b\"".into(),
            4 => "\"\"".into(),
            _ => format!("r{}", rng.below(rules as u64)),
        };
    }
    match rng.below(5) {
        0 | 1 => {
            let n = 2 + rng.below(2);
            let parts: Vec<String> = (0..n).map(|_| inner(rng, rules, depth - 1, bracketed)).collect();
            format!("( {} )", parts.join(" "))
        }
        2 => {
            let n = 2 + rng.below(2);
            let parts: Vec<String> = (0..n).map(|_| inner(rng, rules, depth - 1, bracketed)).collect();
            format!("( {} )", parts.join(" / "))
        }
        3 => format!("[ {} ]", inner(rng, rules, depth - 1, bracketed)),
        _ => {
            let op = ["*", "1*", "0*2"][rng.below(3) as usize];
            format!("{op}( {} )", inner(rng, rules, depth - 1, bracketed))
        }
    }
}
