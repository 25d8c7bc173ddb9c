//! Bounded recursion: `; @depth RULE N` (or [`crate::Config::depth`]).
//!
//! A rule that nests (`comment = "(" *(ctext / comment) ")"`) describes a
//! language no DFA recognizes. Bounded to a depth, it is regular: the
//! grammar is rewritten so that the rule's cycle is copied once per level,
//! level 1 being the rules as written, and a reference to the bounded rule
//! at level `N` matching nothing. `comment` bounded to 3 accepts
//! `(a(b(c)))` and rejects `(a(b(c(d))))`.
//!
//! The rewrite happens on the grammar IR, before anything reads it, so the
//! recognizers, typed trees, the sampler and the oracle all see the same
//! bounded language. Copies are named `RULE-nestedK` (K = 2..N); they are
//! never exported.

use std::collections::HashMap;

use crate::diagnostic::{Code, Diagnostic, Span};
use crate::grammar::{Expr, Grammar, RuleId};

pub use crate::limits::MAX_BOUNDED_DEPTH as MAX_DEPTH;

/// A bound to apply: rule, depth, and where it was asked for (a directive's
/// span; `None` for [`crate::Config::depth`]).
pub(crate) type Bound = (RuleId, u32, Option<Span>);

/// The `; @depth RULE N` lines of the root spec files.
pub(crate) fn directives(g: &Grammar, diags: &mut Vec<Diagnostic>) -> Vec<Bound> {
    let mut out = Vec::new();
    for (mi, m) in g.modules.iter().enumerate() {
        if !m.root {
            continue;
        }
        let text = &g.sources.get(m.file).text;
        for (line_span, words) in crate::syntax::directive_words(m.file, text, "@depth") {
            let [(name, name_span), (n, n_span)] = words[..] else {
                diags.push(
                    Diagnostic::error(
                        Code::Directive,
                        "`@depth` takes a rule and a depth",
                        Some(line_span),
                    )
                    .with_label("here")
                    .with_note("write `; @depth comment 8`"),
                );
                continue;
            };
            let depth = match n.parse::<u32>() {
                Ok(d) if (1..=MAX_DEPTH).contains(&d) => d,
                _ => {
                    diags.push(
                        Diagnostic::error(
                            Code::Directive,
                            format!("`@depth` needs a depth from 1 to {MAX_DEPTH}, not `{n}`"),
                            Some(n_span),
                        )
                        .with_label("not a depth"),
                    );
                    continue;
                }
            };
            match g.resolve(crate::grammar::ModuleId(mi as u32), name) {
                Some(id) => out.push((id, depth, Some(name_span))),
                None => diags.push(
                    Diagnostic::error(
                        Code::Directive,
                        format!(
                            "`@depth` names `{name}`, which `{}` neither defines nor imports",
                            m.name
                        ),
                        Some(name_span),
                    )
                    .with_label("no such rule"),
                ),
            }
        }
    }
    out
}

/// Unrolls each bounded rule's cycle. A bound on a rule that is not
/// recursive is a warning and changes nothing.
pub(crate) fn apply(g: &mut Grammar, bounds: &[Bound], diags: &mut Vec<Diagnostic>) {
    for &(rule, depth, span) in bounds {
        if g.depths.iter().any(|(r, _)| *r == rule) {
            continue;
        }
        let members = cycle_members(g, rule);
        if members.is_empty() {
            let r = g.rule(rule);
            diags.push(
                Diagnostic::warning(
                    Code::NoEffect,
                    format!("`@depth` bounds rule `{}`, which is not recursive", r.name),
                    Some(span.unwrap_or(r.name_span)),
                )
                .with_label("nothing to bound"),
            );
            continue;
        }
        unroll(g, rule, depth, &members);
        g.depths.push((rule, depth));
    }
}

/// The rules on some cycle through `rule` (`rule` included), or nothing if
/// `rule` is not recursive.
fn cycle_members(g: &Grammar, rule: RuleId) -> Vec<RuleId> {
    let n = g.rules.len();
    let refs = |id: RuleId| {
        let mut v = Vec::new();
        g.rule(id).expr.for_each_ref(&mut |r, _| v.push(r));
        v
    };
    // Forward reach from `rule`'s references, and backward reach to `rule`.
    let mut fwd = vec![false; n];
    let mut stack = refs(rule);
    while let Some(id) = stack.pop() {
        if !std::mem::replace(&mut fwd[id.0 as usize], true) {
            stack.extend(refs(id));
        }
    }
    if !fwd[rule.0 as usize] {
        return Vec::new();
    }
    let mut back: Vec<Vec<RuleId>> = vec![Vec::new(); n];
    for i in 0..n {
        for r in refs(RuleId(i as u32)) {
            back[r.0 as usize].push(RuleId(i as u32));
        }
    }
    let mut bwd = vec![false; n];
    let mut stack = vec![rule];
    while let Some(id) = stack.pop() {
        if !std::mem::replace(&mut bwd[id.0 as usize], true) {
            stack.extend(back[id.0 as usize].iter().copied());
        }
    }
    (0..n)
        .filter(|&i| fwd[i] && bwd[i])
        .map(|i| RuleId(i as u32))
        .collect()
}

/// Level 1 is the rules as written; levels 2..=depth are copies. Inside
/// level k, a reference to `rule` goes to level k + 1 (nothing past
/// `depth`), a reference to another member stays at level k.
fn unroll(g: &mut Grammar, rule: RuleId, depth: u32, members: &[RuleId]) {
    let first_new = g.rules.len() as u32;
    // ids[k - 1][member index]
    let mut ids: Vec<Vec<RuleId>> = vec![members.to_vec()];
    for k in 2..=depth {
        let level: Vec<RuleId> = members
            .iter()
            .enumerate()
            .map(|(i, _)| RuleId(first_new + (k - 2) * members.len() as u32 + i as u32))
            .collect();
        ids.push(level);
    }
    let index: HashMap<RuleId, usize> = members.iter().enumerate().map(|(i, &m)| (m, i)).collect();
    let originals: Vec<Expr> = members.iter().map(|&m| g.rule(m).expr.clone()).collect();
    let target = |k: u32, r: RuleId| -> Option<Expr> {
        let i = *index.get(&r)?;
        Some(if r == rule {
            if k < depth {
                Expr::Ref(ids[k as usize][i], Span::new(g.rule(r).name_span.file, 0..0))
            } else {
                Expr::Alt(Vec::new())
            }
        } else {
            Expr::Ref(ids[k as usize - 1][i], Span::new(g.rule(r).name_span.file, 0..0))
        })
    };
    let mut new_rules = Vec::new();
    let mut level_one = Vec::new();
    for k in 1..=depth {
        for (i, &m) in members.iter().enumerate() {
            let expr = rewrite(&originals[i], &|r, span| {
                target(k, r).map(|e| match e {
                    Expr::Ref(id, _) => Expr::Ref(id, span),
                    other => other,
                })
            });
            if k == 1 {
                level_one.push((m, expr));
            } else {
                let mut copy = g.rule(m).clone();
                copy.name = format!("{}-nested{k}", copy.name);
                copy.expr = expr;
                new_rules.push(copy);
            }
        }
    }
    for (m, expr) in level_one {
        g.rules[m.0 as usize].expr = expr;
    }
    g.rules.extend(new_rules);
}

/// `e` with each reference for which `f` gives a replacement replaced.
fn rewrite(e: &Expr, f: &dyn Fn(RuleId, Span) -> Option<Expr>) -> Expr {
    match e {
        Expr::Alt(es) => Expr::Alt(es.iter().map(|e| rewrite(e, f)).collect()),
        Expr::Concat(es) => Expr::Concat(es.iter().map(|e| rewrite(e, f)).collect()),
        Expr::Repeat { min, max, expr } => Expr::Repeat {
            min: *min,
            max: *max,
            expr: Box::new(rewrite(expr, f)),
        },
        Expr::Ref(id, span) => f(*id, *span).unwrap_or_else(|| e.clone()),
        Expr::Str { .. } | Expr::Range(..) => e.clone(),
    }
}

/// The bounded rules `rule` reaches (itself included), for its docs.
pub(crate) fn bounds_reached(g: &Grammar, rule: RuleId) -> Vec<(RuleId, u32)> {
    if g.depths.is_empty() {
        return Vec::new();
    }
    let reach = crate::grammar::reachable(g, &[rule]);
    g.depths
        .iter()
        .copied()
        .filter(|(r, _)| reach[r.0 as usize])
        .collect()
}
