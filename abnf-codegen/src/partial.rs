//! Partial compilation: which rules cannot be one DFA, and why.
//!
//! A spec file is exported whole unless the configuration names its rules.
//! A rule that cannot become a DFA (its recursion is not regular, or it uses
//! such a rule, or its automaton exceeds a size limit) is set aside here
//! with a warning; [`crate::compile`] then compiles the rules set aside as a
//! network of rule automata ([`crate::network`]), and drops the warnings of
//! those that compile. What is left out in the end is what does not compile
//! even so. A rule that must be a DFA (named by a `@scheme`, `@components`
//! or `@bidirectional` directive) stays an error.
//!
//! Each non-regular cycle is reported once, with the chain from the rule
//! that reached it first and the list of rules left out with it.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::automata::{Automaton, Built, Composer, SizeError};
use crate::diagnostic::{Code, Diagnostic};
use crate::grammar::{Grammar, ModuleId, RuleId};
use crate::limits::Limits;
use crate::limits::MAX_HIR_NODES;
use crate::regular::{Chain, Lowerer};

/// How many names a "left out with it" note lists before it counts the rest.
const MAX_LISTED: usize = 12;

/// Why a rule is not in the output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LeftOutReason {
    /// Its recursion, or the recursion of a rule it uses, is not regular:
    /// the chain, as `a → b → c → b`.
    NonRegular(String),
    /// Its automaton exceeds a size limit (the limit's message).
    TooLarge(String),
}

/// A rule that partial compilation left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeftOut {
    /// Its module (spec file stem).
    pub grammar: String,
    /// The rule name as defined.
    pub rule: String,
    /// Why.
    pub reason: LeftOutReason,
}

/// The rules the user named: exported through the configuration, or named
/// by a directive of a root spec.
pub(crate) fn explicit_rules(
    g: &Grammar,
    exports: &[(ModuleId, Vec<RuleId>)],
    configured: &BTreeMap<String, Vec<String>>,
) -> HashSet<RuleId> {
    let mut out = HashSet::new();
    for (m, ids) in exports {
        let module = g.module(*m);
        if configured.contains_key(&module.name) {
            out.extend(ids.iter().copied());
        }
        out.extend(module.schemes.iter().map(|(_, id)| *id));
        out.extend(module.components.iter().map(|c| c.rule));
        out.extend(module.bidirectional.iter().copied());
    }
    out
}

/// The rules that must be DFAs: named by a root spec's `@scheme`,
/// `@components` or `@bidirectional` directive.
pub(crate) fn dfa_rules(g: &Grammar, exports: &[(ModuleId, Vec<RuleId>)]) -> HashSet<RuleId> {
    let mut out = HashSet::new();
    for (m, _) in exports {
        let module = g.module(*m);
        out.extend(module.schemes.iter().map(|(_, id)| *id));
        out.extend(module.components.iter().map(|c| c.rule));
        out.extend(module.bidirectional.iter().copied());
    }
    out
}

/// `rules` and every rule they use, callees before callers (iterative
/// depth-first post-order), so that a rule's parts are built before it.
fn callees_first(g: &Grammar, rules: &[RuleId]) -> Vec<RuleId> {
    let mut done = vec![false; g.rules.len()];
    let mut out = Vec::new();
    for &root in rules {
        let mut stack = vec![(root, false)];
        while let Some((id, expanded)) = stack.pop() {
            if expanded {
                out.push(id);
                continue;
            }
            if std::mem::replace(&mut done[id.0 as usize], true) {
                continue;
            }
            stack.push((id, true));
            let mut refs = Vec::new();
            g.rule(id).expr.for_each_ref(&mut |r, _| refs.push(r));
            stack.extend(refs.into_iter().rev().map(|r| (r, false)));
        }
    }
    out
}

/// The minimized DFA of each rule of `all` that can have one. Rules are
/// built callees first; in a whole-file export a rule that uses a rule whose
/// automaton was too large is left out without being tried (building it
/// would take as long again, and a rule that contains a too-large one is
/// almost always too large itself); a rule asked for by name is always
/// tried. Lowering failures go to `failed` for [`lowering_failures`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn build_automata(
    g: &Grammar,
    lowerer: &mut Lowerer<'_>,
    all: &[RuleId],
    explicit: &HashSet<RuleId>,
    limits: Limits,
    failed: &mut Vec<(RuleId, Diagnostic)>,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
    left_out: &mut Vec<(RuleId, LeftOut)>,
) -> HashMap<RuleId, Automaton> {
    let wanted: HashSet<RuleId> = all.iter().copied().collect();
    let mut automata = HashMap::new();
    // Rules share parts (after inlining, equal HIR subtrees): each is
    // determinized once per grammar.
    let mut composer = Composer::new(limits);
    let mut sizes = HashMap::new();
    // Too-large rules (left out) with their warning and the rules skipped
    // because they use them.
    let mut too_large: Vec<(RuleId, Diagnostic, Vec<RuleId>)> = Vec::new();
    for id in callees_first(g, all) {
        if !wanted.contains(&id) {
            continue;
        }
        let rule = g.rule(id);
        if !explicit.contains(&id) && !too_large.is_empty() {
            let reach = crate::grammar::reachable(g, &[id]);
            if let Some((big, _, skipped)) = too_large
                .iter_mut()
                .find(|(big, _, _)| *big != id && reach[big.0 as usize])
            {
                skipped.push(id);
                left_out.push((
                    id,
                    LeftOut {
                        grammar: g.module(rule.module).name.clone(),
                        rule: rule.name.clone(),
                        reason: LeftOutReason::TooLarge(format!(
                            "it uses `{}`, whose automaton exceeds its size limit (not tried)",
                            g.rule(*big).name
                        )),
                    },
                ));
                continue;
            }
        }
        // A rule whose inlined HIR would pass the node limit is left out
        // before it is built (RFC 5322's `fields` with a bounded `comment`
        // takes seconds to grow to the limit).
        if !explicit.contains(&id)
            && inlined_nodes(g, id, &mut sizes, &mut Vec::new()).is_some_and(|n| n > MAX_HIR_NODES)
        {
            too_large_rule(
                g,
                id,
                (
                    format!(
                        "rule `{}` expands to more than {MAX_HIR_NODES} regular-expression nodes once its references are inlined",
                        rule.name
                    ),
                    "this rule is too large to compile",
                ),
                "each reference copies the referenced rule; a chain of rules that each use the next several times \
                 grows exponentially"
                    .into(),
                explicit,
                errors,
                left_out,
                &mut too_large,
            );
            continue;
        }
        let hir = match lowerer.lower(id) {
            Ok(h) => h,
            // Too large once references are inlined (RFC 5322's `fields`,
            // once its parts compile): left out as an automaton over its
            // limit is, unless a cycle is why.
            Err(d)
                if d.message.ends_with("once its references are inlined")
                    && !explicit.contains(&id)
                    && lowerer.non_regular_chain(id).is_none() =>
            {
                let note = d.notes.first().cloned().unwrap_or_default();
                too_large_rule(
                    g,
                    id,
                    (d.message.clone(), "this rule is too large to compile"),
                    note,
                    explicit,
                    errors,
                    left_out,
                    &mut too_large,
                );
                continue;
            }
            Err(d) => {
                failed.push((id, d));
                continue;
            }
        };
        let e = match Automaton::build_to_write(&hir, limits, limits.rule_output_bytes, &mut composer) {
            Ok(built) => {
                let bytes = match built {
                    Built::Dfa(a) if a.table_bytes() <= limits.rule_output_bytes => {
                        automata.insert(id, *a);
                        continue;
                    }
                    Built::Dfa(a) => format!("{}", a.table_bytes()),
                    Built::TooLargeToWrite { at_least } => format!("at least {at_least}"),
                };
                let message = format!(
                    "the generated tables for rule `{}` would take {bytes} bytes, above the limit of {} bytes",
                    rule.name, limits.rule_output_bytes
                );
                let note =
                    "raise the limit with `Config::limits` (`Limits::rule_output_bytes`), or simplify \
                            the rule (a pattern such as `*(a / b) \"a\" 19(a / b)` must remember the last \
                            20 characters: 2^20 states)";
                too_large_rule(
                    g,
                    id,
                    (message, "this rule's recognizer is too large to write"),
                    note.into(),
                    explicit,
                    errors,
                    left_out,
                    &mut too_large,
                );
                continue;
            }
            Err(e) => e,
        };
        let (what, detail, knob, flag) = match e {
            SizeError::NfaTooBig(e) => ("NFA", e.to_string(), "nfa_bytes", "`--nfa-bytes`"),
            SizeError::DfaTooBig(m) => (
                "DFA",
                m,
                "dfa_bytes` or `Limits::determinize_bytes",
                "`--dfa-bytes` or `--determinize-bytes`",
            ),
        };
        let message = format!(
            "the {what} for rule `{}` exceeds its size limit: {detail}",
            rule.name
        );
        let note = format!(
            "raise the limit with `Config::limits` (`Limits::{knob}`; {flag} on the command line), or simplify \
             the rule (large counted repetitions and patterns that must remember many characters grow the automaton)"
        );
        too_large_rule(
            g,
            id,
            (message, "this rule's automaton is too large"),
            note,
            explicit,
            errors,
            left_out,
            &mut too_large,
        );
    }
    for (_, mut d, skipped) in too_large {
        if !skipped.is_empty() {
            d = d.with_note(format!(
                "left out with it, not tried, because they use it: {}",
                name_list(g, &skipped)
            ));
        }
        warnings.push(d);
    }
    automata
}

/// The number of HIR nodes the lowering counts for `rule` once its
/// references are inlined (as `regular::Lowerer` counts them), or `None`
/// when it reaches a recursive rule (solved otherwise).
fn inlined_nodes(
    g: &Grammar,
    rule: RuleId,
    memo: &mut HashMap<RuleId, Option<usize>>,
    visiting: &mut Vec<RuleId>,
) -> Option<usize> {
    fn expr(
        g: &Grammar,
        e: &crate::grammar::Expr,
        memo: &mut HashMap<RuleId, Option<usize>>,
        visiting: &mut Vec<RuleId>,
    ) -> Option<usize> {
        use crate::grammar::Expr;
        Some(match e {
            Expr::Alt(es) | Expr::Concat(es) => {
                let mut n: usize = 1;
                for e in es {
                    n = n.saturating_add(expr(g, e, memo, visiting)?);
                }
                n
            }
            Expr::Repeat { expr: e, .. } => expr(g, e, memo, visiting)?.saturating_add(1),
            Expr::Ref(id, _) => inlined_nodes(g, *id, memo, visiting)?,
            Expr::Str { text, .. } => text.len() + 1,
            Expr::Range(..) => 1,
        })
    }
    if let Some(&n) = memo.get(&rule) {
        return n;
    }
    if visiting.contains(&rule) {
        return None;
    }
    visiting.push(rule);
    let n = expr(g, &g.rule(rule).expr, memo, visiting);
    visiting.pop();
    memo.insert(rule, n);
    n
}

/// A rule whose automaton or tables are too large: an error when it was
/// asked for, else a warning, and the rule left out.
#[allow(clippy::too_many_arguments)]
fn too_large_rule(
    g: &Grammar,
    id: RuleId,
    (message, label): (String, &str),
    note: String,
    explicit: &HashSet<RuleId>,
    errors: &mut Vec<Diagnostic>,
    left_out: &mut Vec<(RuleId, LeftOut)>,
    too_large: &mut Vec<(RuleId, Diagnostic, Vec<RuleId>)>,
) {
    let rule = g.rule(id);
    if explicit.contains(&id) {
        errors.push(
            Diagnostic::error(Code::TooLarge, message, Some(rule.name_span))
                .with_label(label)
                .with_note(note),
        );
        return;
    }
    let d = Diagnostic::warning(Code::TooLarge, message.clone(), Some(rule.name_span))
        .with_label(label)
        .with_note(format!(
            "`{}` is left out of the output; the other rules compile (export it by name to make this an error)",
            rule.name
        ))
        .with_note(note);
    left_out.push((
        id,
        LeftOut {
            grammar: g.module(rule.module).name.clone(),
            rule: rule.name.clone(),
            reason: LeftOutReason::TooLarge(message),
        },
    ));
    too_large.push((id, d, Vec::new()));
}

/// `` `a`, `b`, `c` and 4 more (7 rules) ``.
fn name_list(g: &Grammar, rules: &[RuleId]) -> String {
    let mut list = rules
        .iter()
        .take(MAX_LISTED)
        .map(|&r| format!("`{}`", g.rule(r).name))
        .collect::<Vec<_>>()
        .join(", ");
    if rules.len() > MAX_LISTED {
        list.push_str(&format!(" and {} more", rules.len() - MAX_LISTED));
    }
    format!(
        "{list} ({} rule{})",
        rules.len(),
        if rules.len() == 1 { "" } else { "s" }
    )
}

/// Sorts the rules whose lowering failed: rules that reach a non-regular
/// cycle are errors when `explicit`, else grouped per cycle into one warning
/// and left out; any other failure stays an error.
pub(crate) fn lowering_failures(
    g: &Grammar,
    lowerer: &Lowerer<'_>,
    failed: Vec<(RuleId, Diagnostic)>,
    explicit: &HashSet<RuleId>,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
    left_out: &mut Vec<(RuleId, LeftOut)>,
) {
    // Per cycle (strongly connected component), in the order first met:
    // the chain that met it and every rule it takes out.
    let mut groups: Vec<(usize, Chain, Vec<RuleId>)> = Vec::new();
    let mut failed = failed;
    // Definition order: a cycle is reported from its first rule.
    failed.sort_by_key(|(id, _)| {
        let span = g.rule(*id).name_span;
        (span.file, span.start)
    });
    for (id, d) in failed {
        let Some(chain) = lowerer.non_regular_chain(id) else {
            if !errors.iter().any(|e| e.message == d.message) {
                errors.push(d);
            }
            continue;
        };
        if explicit.contains(&id) {
            errors.push(chain_diagnostic(g, id, &chain, true));
            continue;
        }
        left_out.push((
            id,
            LeftOut {
                grammar: g.module(g.rule(id).module).name.clone(),
                rule: g.rule(id).name.clone(),
                reason: LeftOutReason::NonRegular(chain.render(g)),
            },
        ));
        let comp = lowerer.cycle_of(chain.target());
        match groups.iter_mut().find(|(c, _, _)| *c == comp) {
            Some((_, _, rules)) => rules.push(id),
            None => groups.push((comp, chain, vec![id])),
        }
    }
    for (_, chain, rules) in groups {
        let target = chain.target();
        // Report a cycle of a root spec from its own first rule; a cycle in
        // an imported spec from the local rule that pulled it in.
        let (from, own) = if g.module(g.rule(target).module).root {
            (target, lowerer.non_regular_chain(target).unwrap_or(chain))
        } else {
            (chain.path[0], chain)
        };
        let mut d = chain_diagnostic(g, from, &own, false);
        let others: Vec<RuleId> = rules.iter().copied().filter(|&r| r != from).collect();
        if !others.is_empty() {
            d = d.with_note(format!(
                "left out with it, because they use it: {}",
                name_list(g, &others)
            ));
        }
        warnings.push(d);
    }
}

/// The diagnostic for `rule`, which reaches a non-regular cycle by `chain`:
/// an error when the rule was asked for, else a warning that it is left out.
fn chain_diagnostic(g: &Grammar, rule: RuleId, chain: &Chain, error: bool) -> Diagnostic {
    let r = g.rule(rule);
    let target = g.rule(chain.target());
    let message = if chain.path.len() == 1 {
        format!(
            "rule `{}` is recursive in a way no DFA can recognize: {}",
            r.name,
            chain.render(g)
        )
    } else {
        format!(
            "rule `{}` uses `{}`, which is recursive in a way no DFA can recognize: {}",
            r.name,
            target.name,
            chain.render(g)
        )
    };
    let mut d = if error {
        Diagnostic::error(Code::NotRegular, message, Some(r.name_span))
    } else {
        Diagnostic::warning(Code::NotRegular, message, Some(r.name_span))
    };
    d = d.with_label(if chain.path.len() == 1 {
        "this rule's recursion is not regular"
    } else {
        "this rule uses a recursion that is not regular"
    });
    for span in &chain.path_spans {
        d = d.with_secondary(*span, "uses");
    }
    for span in &chain.cycle_spans {
        d = d.with_secondary(*span, "recursive reference");
    }
    if !error {
        d = d.with_note(format!(
            "`{}` is left out of the output; the other rules compile (export it by name to make this an error)",
            r.name
        ));
    }
    d.with_note(
        "only right-linear (`list = item [\",\" list]`) or left-linear recursion describes a regular \
         language; nesting such as `a = \"(\" a \")\"` needs a stack",
    )
    .with_note(format!(
        "to accept nesting up to a fixed depth, bound it: `; @depth {} 8` compiles the rule unrolled 8 deep",
        target.name
    ))
}
