//! Strings generated from a rule (like `abnfgen`): matching ones, and near
//! misses, seeded and bounded.
//!
//! A matching sample is a random walk over the rule: a random alternative, a
//! random number of repetitions (a few more than the minimum), a random code
//! point of each range (its ends more often than not), letters of quoted
//! strings in random case. Past a depth limit the walk takes the shortest
//! way out, so recursion ends.
//!
//! A near miss is a matching sample with one mutation that crosses a
//! boundary of the grammar: a character deleted or duplicated, or a
//! character inserted or replaced by one just outside a range the grammar
//! uses (`%x30-39` offers `/` and `:`), a delimiter, or a character no rule
//! allows. Near misses are not always invalid; [`Sampler::invalid`] keeps
//! only those the [`crate::oracle::Oracle`] rejects.

pub mod random;

use std::collections::{BTreeSet, HashMap};

use crate::grammar::{Expr, Grammar, RuleId};
use crate::oracle::Oracle;

/// A small seeded generator (SplitMix64): reproducible samples from a seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// A random ABNF grammar, for property tests and fuzzing of the
/// generator: 2 to 6 rules `r0`, `r1`, ..., each a random expression of
/// literals (`"COUNT"`, `";"`), ranges, core rules, groups, alternations,
/// options and repetitions, referring only to rules after it (so it is
/// regular, and never recursive). With `octets` the spec says
/// `; @terminals octets` and some ranges are in `%x80-FF`.
pub fn random_grammar(rng: &mut Rng, octets: bool) -> String {
    let n = 2 + rng.below(5) as usize;
    let mut out = String::new();
    if octets {
        out.push_str("; @terminals octets\n");
    }
    for i in 0..n {
        let body = random_expr(rng, i, n, 3, octets);
        out.push_str(&format!("r{i} = {body}\n"));
    }
    out
}

fn random_expr(rng: &mut Rng, rule: usize, rules: usize, depth: u32, octets: bool) -> String {
    const LITERALS: [&str; 10] = ["a", "b", "ab", "-", ";", "=", "COUNT", "NAME", "x", "\\"];
    const CORE: [&str; 5] = ["DIGIT", "ALPHA", "SP", "DQUOTE", "HEXDIG"];
    let atom = |rng: &mut Rng| -> String {
        match rng.below(6) {
            0 | 1 if rule + 1 < rules => {
                format!("r{}", rule + 1 + rng.below((rules - rule - 1) as u64) as usize)
            }
            0..=2 => format!("\"{}\"", LITERALS[rng.below(LITERALS.len() as u64) as usize]),
            3 => CORE[rng.below(CORE.len() as u64) as usize].to_string(),
            4 if octets && rng.below(2) == 0 => "%x80-FF".to_string(),
            _ => ["%x61-63", "%x30-39", "%x41"][rng.below(3) as usize].to_string(),
        }
    };
    if depth == 0 {
        return atom(rng);
    }
    let sub = |rng: &mut Rng| random_expr(rng, rule, rules, depth - 1, octets);
    match rng.below(8) {
        0 | 1 => {
            let k = 2 + rng.below(3) as usize;
            (0..k).map(|_| sub(rng)).collect::<Vec<_>>().join(" ")
        }
        2 | 3 => {
            let k = 2 + rng.below(2) as usize;
            format!("( {} )", (0..k).map(|_| sub(rng)).collect::<Vec<_>>().join(" / "))
        }
        4 => format!("[ {} ]", sub(rng)),
        5 | 6 => {
            let prefix = ["*", "1*", "2", "1*3", "*2"][rng.below(5) as usize];
            format!("{prefix}( {} )", sub(rng))
        }
        _ => atom(rng),
    }
}

/// Generates strings from the rules of one grammar.
pub struct Sampler<'g> {
    g: &'g Grammar,
    rng: Rng,
    shortest: HashMap<RuleId, u64>,
    /// Past this depth of rule references, take the shortest way out.
    pub max_depth: usize,
    /// Extra repetitions beyond the minimum, at most.
    pub max_extra: u32,
}

impl<'g> Sampler<'g> {
    /// A sampler for `g`, seeded.
    pub fn new(g: &'g Grammar, seed: u64) -> Sampler<'g> {
        let mut s = Sampler {
            g,
            rng: Rng::new(seed),
            shortest: HashMap::new(),
            max_depth: 12,
            max_extra: 3,
        };
        s.compute_shortest();
        s
    }

    /// The length of each rule's shortest match, by fixpoint (recursive
    /// rules included); rules that match nothing stay at `u64::MAX`.
    fn compute_shortest(&mut self) {
        loop {
            let mut changed = false;
            for (i, r) in self.g.rules.iter().enumerate() {
                let v = self.min_len(&r.expr);
                let e = self.shortest.entry(RuleId(i as u32)).or_insert(u64::MAX);
                if v < *e {
                    *e = v;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    fn min_len(&self, e: &Expr) -> u64 {
        match e {
            Expr::Alt(es) => es.iter().map(|e| self.min_len(e)).min().unwrap_or(u64::MAX),
            Expr::Concat(es) => es.iter().fold(0u64, |a, e| a.saturating_add(self.min_len(e))),
            Expr::Repeat { min, expr, .. } => match min {
                0 => 0,
                n => self.min_len(expr).saturating_mul(u64::from(*n)),
            },
            Expr::Ref(id, _) => self.shortest.get(id).copied().unwrap_or(u64::MAX),
            Expr::Str { text, .. } => text.chars().count() as u64,
            // A range of surrogates alone has no UTF-8 form: it matches
            // nothing (the automata leave surrogates out too).
            Expr::Range(lo, hi, _) if scalar_in(*lo, *hi).is_none() => u64::MAX,
            Expr::Range(..) => 1,
        }
    }

    /// Bytes that match `rule` of a grammar whose terminals are octets
    /// (`@terminals octets`): each terminal value is one byte.
    pub fn sample_bytes(&mut self, rule: RuleId) -> Vec<u8> {
        self.sample(rule).chars().map(|c| c as u32 as u8).collect()
    }

    /// The length (in characters) of `rule`'s shortest match; `None` when the
    /// rule matches no string at all (`%xD800`, `a = "x" a`).
    pub fn shortest(&self, rule: RuleId) -> Option<u64> {
        self.shortest.get(&rule).copied().filter(|&n| n != u64::MAX)
    }

    /// A string that matches `rule`.
    pub fn sample(&mut self, rule: RuleId) -> String {
        let mut out = String::new();
        let expr = self.g.rule(rule).expr.clone();
        self.gen(&expr, 0, &mut out);
        out
    }

    fn gen(&mut self, e: &Expr, depth: usize, out: &mut String) {
        // Nothing to generate from what matches nothing; and past the depth
        // where only shortest choices are made, a hard stop keeps a cycle
        // of equally short choices off the stack.
        if self.min_len(e) == u64::MAX || depth > self.max_depth + MAX_EXTRA_DEPTH {
            return;
        }
        let deep = depth > self.max_depth;
        match e {
            Expr::Alt(es) => {
                let i = if deep {
                    (0..es.len()).min_by_key(|&i| self.min_len(&es[i])).unwrap_or(0)
                } else {
                    // Alternatives that can match something at all.
                    let live: Vec<usize> = (0..es.len())
                        .filter(|&i| self.min_len(&es[i]) != u64::MAX)
                        .collect();
                    if live.is_empty() {
                        return;
                    }
                    live[self.rng.below(live.len() as u64) as usize]
                };
                if let Some(e) = es.get(i) {
                    self.gen(e, depth, out);
                }
            }
            Expr::Concat(es) => es.iter().for_each(|e| self.gen(e, depth, out)),
            Expr::Repeat { min, max, expr } => {
                let extra = if deep {
                    0
                } else {
                    self.rng.below(u64::from(self.max_extra) + 1) as u32
                };
                // A repetition of something that matches nothing (the
                // innermost level of a bounded recursion) repeats 0 times.
                let extra = if self.min_len(expr) == u64::MAX { 0 } else { extra };
                let n = min.saturating_add(extra);
                let n = max.map_or(n, |m| n.min(m));
                for _ in 0..n {
                    self.gen(expr, depth, out);
                }
            }
            Expr::Ref(id, _) => {
                let body = self.g.rule(*id).expr.clone();
                self.gen(&body, depth + 1, out);
            }
            Expr::Str { text, case_sensitive } => {
                for c in text.chars() {
                    let flip = !case_sensitive && c.is_ascii_alphabetic() && self.rng.below(2) == 0;
                    out.push(if flip {
                        if c.is_ascii_lowercase() {
                            c.to_ascii_uppercase()
                        } else {
                            c.to_ascii_lowercase()
                        }
                    } else {
                        c
                    });
                }
            }
            Expr::Range(lo, hi, _) => {
                let pick = match self.rng.below(4) {
                    0 => *lo,
                    1 => *hi,
                    _ => lo + self.rng.below(u64::from(hi - lo) + 1) as u32,
                };
                // Surrogates have no UTF-8 form; the generated automata leave
                // them out too.
                out.extend(char::from_u32(pick).or_else(|| scalar_in(*lo, *hi)));
            }
        }
    }

    /// Characters at the boundaries of the grammar reachable from `rule`:
    /// each range's ends and the code points just outside them, the
    /// characters of quoted strings, and some no URI grammar allows.
    pub fn boundary_chars(&self, rule: RuleId) -> Vec<char> {
        let mut set = BTreeSet::new();
        let reach = crate::grammar::reachable(self.g, &[rule]);
        for (i, r) in self.g.rules.iter().enumerate() {
            if !reach[i] {
                continue;
            }
            collect(&r.expr, &mut set);
        }
        set.extend([
            ' ', '%', '"', '<', '>', '\\', '^', '`', '{', '|', '}', '\u{7F}', '\u{0}', '\u{200E}',
        ]);
        set.into_iter().collect()
    }

    /// A matching sample with one boundary-crossing mutation (which may or
    /// may not still match).
    pub fn near_miss(&mut self, rule: RuleId, boundary: &[char]) -> String {
        let s = self.sample(rule);
        let mut chars: Vec<char> = s.chars().collect();
        let pos = self.rng.below(chars.len() as u64 + 1) as usize;
        let b = boundary[self.rng.below(boundary.len().max(1) as u64) as usize % boundary.len().max(1)];
        match self.rng.below(4) {
            0 if pos < chars.len() => {
                chars.remove(pos);
            }
            1 if pos < chars.len() => chars[pos] = b,
            2 if pos < chars.len() => {
                let c = chars[pos];
                chars.insert(pos, c);
            }
            _ => chars.insert(pos, b),
        }
        chars.into_iter().collect()
    }

    /// A near miss that `oracle` rejects, if one turns up within `tries`.
    pub fn invalid(&mut self, rule: RuleId, oracle: &Oracle<'_>, tries: usize) -> Option<String> {
        self.invalid_by(rule, |s| oracle.matches(rule, s), tries)
    }

    /// A near miss that `accepts` rejects (for example the rule's compiled
    /// recognizer, which is exact and linear where the oracle may
    /// backtrack), if one turns up within `tries`.
    pub fn invalid_by(
        &mut self,
        rule: RuleId,
        accepts: impl Fn(&str) -> bool,
        tries: usize,
    ) -> Option<String> {
        let boundary = self.boundary_chars(rule);
        (0..tries)
            .map(|_| self.near_miss(rule, &boundary))
            .find(|s| !accepts(s))
    }
}

impl Sampler<'_> {
    /// For a grammar whose terminals are octets: a near miss of `rule`, as
    /// bytes, that `accepts` rejects, if one turns up within `tries`. The
    /// mutations use the bytes at the grammar's boundaries (RFC 3629's
    /// `%xC2`, `%xBF`, `%xC0`...), so the misses of a UTF-8 grammar include
    /// truncated characters, stray continuation bytes and overlong forms.
    pub fn invalid_bytes(
        &mut self,
        rule: RuleId,
        accepts: impl Fn(&[u8]) -> bool,
        tries: usize,
    ) -> Option<Vec<u8>> {
        // Characters stand for bytes here (U+0000-U+00FF, one per byte).
        let boundary: Vec<char> = self
            .boundary_chars(rule)
            .into_iter()
            .filter(|&c| (c as u32) <= 0xFF)
            .chain(['\u{80}', '\u{FF}'])
            .collect();
        (0..tries)
            .map(|_| {
                self.near_miss(rule, &boundary)
                    .chars()
                    .map(|c| c as u32 as u8)
                    .collect::<Vec<u8>>()
            })
            .find(|s| !accepts(s))
    }
}

/// How far past `max_depth` generation may go (only shortest choices are
/// made there) before it stops.
const MAX_EXTRA_DEPTH: usize = 1000;

/// A Unicode scalar value in `lo..=hi`: `lo`, or the first one after the
/// surrogates.
fn scalar_in(lo: u32, hi: u32) -> Option<char> {
    char::from_u32(lo).or_else(|| char::from_u32(lo.max(0xE000)).filter(|c| (*c as u32) <= hi))
}

fn collect(e: &Expr, set: &mut BTreeSet<char>) {
    match e {
        Expr::Alt(es) | Expr::Concat(es) => es.iter().for_each(|e| collect(e, set)),
        Expr::Repeat { expr, .. } => collect(expr, set),
        Expr::Ref(..) => {}
        Expr::Str { text, .. } => set.extend(text.chars()),
        Expr::Range(lo, hi, _) => {
            for v in [lo.wrapping_sub(1), *lo, *hi, hi.saturating_add(1)] {
                set.extend(char::from_u32(v));
            }
        }
    }
}
