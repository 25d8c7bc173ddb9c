//! An independent reference matcher: it interprets the grammar IR directly,
//! with no regular expression, NFA or DFA in between, so tests can check the
//! generated automata against something they did not produce.
//!
//! - [`Oracle::matches`] decides membership by computing, for each rule and
//!   start position, the set of positions where a match can end (memoized,
//!   iterated to a fixpoint so that recursive rules, left-recursive ones
//!   included, come out right). Polynomial in the input's length.
//! - [`Oracle::priority_parse`] finds the parse that "first-match-wins"
//!   picks (earlier alternatives first, longer repetitions first, as a
//!   Perl-style backtracking matcher would) by backtracking over the IR, and
//!   reports where each sub-expression of the rule's body matched, so that
//!   extraction spans can be checked against it. Backtracking can take
//!   exponential time: it stops after a step budget and says so.
//!
//! Terminals are Unicode code points; positions in results are byte offsets.

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::grammar::{Expr, Grammar, RuleId};

/// The reference matcher for one grammar.
pub struct Oracle<'g> {
    g: &'g Grammar,
}

/// Where sub-expressions of a rule's body matched in the priority parse:
/// path (as in [`crate::typed::Field::path`]) → byte span. A sub-expression
/// inside a repetition reports its last iteration, as capture groups do.
pub type Spans = HashMap<Vec<usize>, (usize, usize)>;

struct Input {
    chars: Vec<char>,
    offsets: Vec<usize>,
}

impl Input {
    fn new(s: &str) -> Input {
        let mut offsets: Vec<usize> = s.char_indices().map(|(i, _)| i).collect();
        offsets.push(s.len());
        Input {
            chars: s.chars().collect(),
            offsets,
        }
    }

    /// Matches a quoted string at `pos` (ASCII letters in either case unless
    /// case-sensitive); the end position.
    fn string(&self, pos: usize, text: &str, case_sensitive: bool) -> Option<usize> {
        let mut p = pos;
        for c in text.chars() {
            let d = *self.chars.get(p)?;
            let same = if case_sensitive {
                c == d
            } else {
                c.eq_ignore_ascii_case(&d)
            };
            if !same {
                return None;
            }
            p += 1;
        }
        Some(p)
    }
}

#[derive(Default)]
struct Memo {
    ends: HashMap<(RuleId, usize), BTreeSet<usize>>,
    visiting: HashSet<(RuleId, usize)>,
    done: HashSet<(RuleId, usize)>,
    grew: bool,
}

impl<'g> Oracle<'g> {
    /// An oracle for `g`.
    pub fn new(g: &'g Grammar) -> Oracle<'g> {
        Oracle { g }
    }

    /// Whether all of `input` matches `rule`.
    pub fn matches(&self, rule: RuleId, input: &str) -> bool {
        self.matches_input(rule, Input::new(input))
    }

    /// Whether all of `input` matches `rule`, each byte one terminal value:
    /// for grammars whose terminals are octets (`@terminals octets`).
    pub fn matches_bytes(&self, rule: RuleId, input: &[u8]) -> bool {
        let inp = Input {
            chars: input.iter().map(|&b| char::from(b)).collect(),
            offsets: (0..=input.len()).collect(),
        };
        self.matches_input(rule, inp)
    }

    fn matches_input(&self, rule: RuleId, inp: Input) -> bool {
        let mut memo = Memo::default();
        // Sets only grow, so repeating until nothing grows terminates; a
        // grammar without recursion needs one round.
        loop {
            memo.grew = false;
            memo.done.clear();
            let ends = self.rule_ends(rule, 0, &inp, &mut memo);
            if ends.contains(&inp.chars.len()) {
                return true;
            }
            if !memo.grew {
                return false;
            }
        }
    }

    fn rule_ends(&self, rule: RuleId, pos: usize, inp: &Input, memo: &mut Memo) -> BTreeSet<usize> {
        let key = (rule, pos);
        if memo.visiting.contains(&key) || memo.done.contains(&key) {
            return memo.ends.get(&key).cloned().unwrap_or_default();
        }
        memo.visiting.insert(key);
        let found = self.ends(&self.g.rule(rule).expr, pos, inp, memo);
        memo.visiting.remove(&key);
        memo.done.insert(key);
        let entry = memo.ends.entry(key).or_default();
        let before = entry.len();
        entry.extend(found);
        if entry.len() != before {
            memo.grew = true;
        }
        entry.clone()
    }

    fn ends(&self, e: &Expr, pos: usize, inp: &Input, memo: &mut Memo) -> BTreeSet<usize> {
        match e {
            Expr::Str { text, case_sensitive } => {
                inp.string(pos, text, *case_sensitive).into_iter().collect()
            }
            Expr::Range(lo, hi, _) => inp
                .chars
                .get(pos)
                .filter(|c| (*lo..=*hi).contains(&(**c as u32)))
                .map(|_| pos + 1)
                .into_iter()
                .collect(),
            Expr::Ref(id, _) => self.rule_ends(*id, pos, inp, memo),
            Expr::Alt(es) => {
                let mut out = BTreeSet::new();
                for e in es {
                    out.extend(self.ends(e, pos, inp, memo));
                }
                out
            }
            Expr::Concat(es) => {
                let mut cur = BTreeSet::from([pos]);
                for e in es {
                    let mut next = BTreeSet::new();
                    for &p in &cur {
                        next.extend(self.ends(e, p, inp, memo));
                    }
                    cur = next;
                    if cur.is_empty() {
                        break;
                    }
                }
                cur
            }
            Expr::Repeat { min, max, expr } => {
                let mut out = BTreeSet::new();
                if *min == 0 {
                    out.insert(pos);
                }
                let mut cur = BTreeSet::from([pos]);
                let mut seen = BTreeSet::from([pos]);
                let mut count = 0u32;
                while !cur.is_empty() && max.is_none_or(|m| count < m) {
                    count += 1;
                    let mut next = BTreeSet::new();
                    for &p in &cur {
                        next.extend(self.ends(expr, p, inp, memo));
                    }
                    if count >= *min {
                        out.extend(next.iter().copied());
                    }
                    // Past the minimum, a position already reached adds
                    // nothing new (and empty iterations would loop).
                    if count >= *min {
                        next.retain(|p| seen.insert(*p));
                    }
                    cur = next;
                }
                out
            }
        }
    }

    /// The highest-priority complete parse of `input` as `rule`: the byte
    /// span of every sub-expression of the rule's body that took part (by
    /// path). `None` when the input does not match, or when the search needed
    /// more than `budget` steps.
    pub fn priority_parse(&self, rule: RuleId, input: &str, budget: usize) -> Option<Spans> {
        let inp = Input::new(input);
        let mut search = Search {
            oracle: self,
            inp: &inp,
            steps: 0,
            budget,
            active: HashSet::new(),
            spans: Vec::new(),
        };
        let n = inp.chars.len();
        let body = &self.g.rule(rule).expr;
        let found = search.walk(body, &[], true, 0, &mut |_, end| end == n);
        if !found {
            return None;
        }
        let mut out = Spans::new();
        for (path, (s, e)) in search.spans {
            out.insert(path, (inp.offsets[s], inp.offsets[e]));
        }
        Some(out)
    }
}

struct Search<'a, 'g> {
    oracle: &'a Oracle<'g>,
    inp: &'a Input,
    steps: usize,
    budget: usize,
    active: HashSet<(RuleId, usize)>,
    /// Spans recorded on the current path of the search (undone on
    /// backtracking); the last one for a path wins.
    spans: Vec<(Vec<usize>, (usize, usize))>,
}

/// A continuation: called with the search state and an end position,
/// says whether the rest of the parse succeeded from there.
type Cont<'c> = dyn FnMut(&mut Search<'_, '_>, usize) -> bool + 'c;

impl Search<'_, '_> {
    /// Matches `e` at `pos` and calls `k` with each end position, in
    /// priority order, until `k` accepts. `record` is whether `e` is in the
    /// top rule's body (its span is reported, by `path`).
    fn walk(&mut self, e: &Expr, path: &[usize], record: bool, pos: usize, k: &mut Cont<'_>) -> bool {
        self.steps += 1;
        if self.steps > self.budget {
            return false;
        }
        let mut k_rec = |s: &mut Search<'_, '_>, end: usize| {
            if record {
                s.spans.push((path.to_vec(), (pos, end)));
            }
            let ok = k(s, end);
            if record && !ok {
                s.spans.pop();
            }
            ok
        };
        let sub = |i: usize| -> Vec<usize> {
            let mut p = path.to_vec();
            p.push(i);
            p
        };
        match e {
            Expr::Str { text, case_sensitive } => match self.inp.string(pos, text, *case_sensitive) {
                Some(end) => k_rec(self, end),
                None => false,
            },
            Expr::Range(lo, hi, _) => match self.inp.chars.get(pos) {
                Some(c) if (*lo..=*hi).contains(&(*c as u32)) => k_rec(self, pos + 1),
                _ => false,
            },
            Expr::Ref(id, _) => {
                let key = (*id, pos);
                // Left recursion at the same position cannot lead anywhere new.
                if !self.active.insert(key) {
                    return false;
                }
                let body = &self.oracle.g.rule(*id).expr;
                let ok = self.walk(body, &[], false, pos, &mut |s, end| {
                    s.active.remove(&key);
                    let ok = k_rec(s, end);
                    s.active.insert(key);
                    ok
                });
                self.active.remove(&key);
                ok
            }
            Expr::Alt(es) => es
                .iter()
                .enumerate()
                .any(|(i, alt)| self.walk(alt, &sub(i), record, pos, &mut k_rec)),
            Expr::Concat(es) => self.concat(es, 0, path, record, pos, &mut k_rec),
            Expr::Repeat { min, max, expr } => {
                self.repeat(expr, (*min, *max), 0, &sub(0), record, pos, &mut k_rec)
            }
        }
    }

    fn concat(
        &mut self,
        es: &[Expr],
        i: usize,
        path: &[usize],
        record: bool,
        pos: usize,
        k: &mut Cont<'_>,
    ) -> bool {
        let Some(e) = es.get(i) else {
            return k(self, pos);
        };
        let mut child = path.to_vec();
        child.push(i);
        self.walk(e, &child, record, pos, &mut |s, end| {
            s.concat(es, i + 1, path, record, end, k)
        })
    }

    /// Greedy repetition: one more iteration first, then stop.
    #[allow(clippy::too_many_arguments)]
    fn repeat(
        &mut self,
        e: &Expr,
        (min, max): (u32, Option<u32>),
        count: u32,
        path: &[usize],
        record: bool,
        pos: usize,
        k: &mut Cont<'_>,
    ) -> bool {
        if max.is_none_or(|m| count < m) {
            let more = self.walk(e, path, record, pos, &mut |s, end| {
                // As in the Thompson NFA the automata come from: an unbounded
                // repetition loops back to where it started, and an empty
                // iteration there ends the thread (a PikeVM never visits a
                // state twice at one position); bounded repetitions are
                // unrolled into optional copies, where an empty iteration
                // is an ordinary match.
                if end == pos && count >= min && max.is_none() {
                    return false;
                }
                s.repeat(e, (min, max), count + 1, path, record, end, k)
            });
            if more {
                return true;
            }
        }
        count >= min && k(self, pos)
    }
}
