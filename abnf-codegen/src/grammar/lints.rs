//! Warnings about grammars that are valid but probably not what their
//! author meant: a core rule defined again, and repetition bounds that have
//! no effect.

use super::{Expr, Grammar, RuleId};
use crate::diagnostic::{Code, Diagnostic};

/// The warnings for the rules of the files the user asked for.
pub fn lints(grammar: &Grammar) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let core = &grammar.modules[0];
    for m in grammar.modules.iter().skip(1).filter(|m| m.root) {
        // The older notation of RFC 2396 and RFC 1738 has no core rules:
        // its grammars define `alpha` and `digit` themselves.
        let bnf = grammar.sources.get(m.file).name.ends_with(".bnf");
        for &id in &m.defined {
            let rule = grammar.rule(id);
            let core_rule = core
                .defined
                .iter()
                .find(|&&c| grammar.rule(c).name.eq_ignore_ascii_case(&rule.name));
            if let Some(&c) = core_rule.filter(|_| !bnf) {
                out.push(
                    Diagnostic::warning(
                        Code::CoreRuleRedefined,
                        format!("rule `{}` redefines the core rule `{}`", rule.name, grammar.rule(c).name),
                        Some(rule.name_span),
                    )
                    .with_label("this definition is used instead of RFC 5234's")
                    .with_note(
                        "the core rules (RFC 5234 Appendix B.1) are predefined; rename this rule if it means \
                         something else",
                    ),
                );
            }
            match &rule.expr {
                // `path-empty = 0<pchar>`: RFC 3986's way to name the empty
                // string, on purpose.
                Expr::Repeat { max: Some(0), .. } => {}
                e => repeat_lints(grammar, id, e, &mut out),
            }
        }
    }
    out
}

/// `*0 x`, `0*0 x` (match only the empty string) and `1*[ x ]` (`1*` of an
/// element that may be empty, which the `.bnf` dialect's `1*[ ]` gives).
fn repeat_lints(grammar: &Grammar, id: RuleId, e: &Expr, out: &mut Vec<Diagnostic>) {
    let rule = grammar.rule(id);
    match e {
        Expr::Repeat { min, max, expr } => {
            if *max == Some(0) {
                out.push(
                    Diagnostic::warning(
                        Code::NoEffect,
                        format!("rule `{}` repeats an element at most 0 times", rule.name),
                        Some(rule.name_span),
                    )
                    .with_label("in this rule")
                    .with_note(format!(
                        "`{min}*0` matches only the empty string: the element has no effect; write `*` or a \
                         larger maximum if it should repeat"
                    )),
                );
            } else if *min >= 1 && matches!(&**expr, Expr::Repeat { min: 0, .. }) {
                out.push(
                    Diagnostic::warning(
                        Code::NoEffect,
                        format!(
                            "rule `{}` repeats an optional element at least {min} time{}",
                            rule.name,
                            if *min == 1 { "" } else { "s" }
                        ),
                        Some(rule.name_span),
                    )
                    .with_label("in this rule")
                    .with_note(
                        "the element can be empty, so the minimum has no effect (`1*[ x ]` is `*x`); drop the \
                         brackets or the minimum",
                    ),
                );
            }
            repeat_lints(grammar, id, expr, out);
        }
        Expr::Alt(es) | Expr::Concat(es) => {
            for e in es {
                repeat_lints(grammar, id, e, out);
            }
        }
        Expr::Ref(..) | Expr::Str { .. } | Expr::Range(..) => {}
    }
}
