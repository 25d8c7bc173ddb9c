//! Grammar IR → `regex_syntax::hir::Hir`, with no regex text in between.
//!
//! Terminals are Unicode code points; the Thompson compiler turns code point
//! classes into UTF-8 byte sequences, so `ucschar` becomes the right bytes.
//!
//! ABNF allows recursion, a regular expression does not. Recursion that is
//! right-linear (`list = item ["," list]`) or left-linear still describes a
//! regular language: the rules of such a cycle form a system of equations
//! `X = A·X + B` which Arden's lemma solves (`X = A*·B`), one rule at a time.
//! Any other recursion (`a = "(" a ")" / "x"`) is reported with its cycle.

mod captures;
mod recursion;

pub use captures::group_count;

use std::collections::HashMap;

use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, Hir, Look, Repetition};

use crate::diagnostic::Diagnostic;
use crate::grammar::{Expr, Grammar, RuleId};

/// The most HIR nodes one rule may expand to once every reference is inlined.
/// Bounds memory on grammars such as `a = b b`, `b = c c`, ... whose inlined
/// form doubles at every level.
pub const MAX_HIR_NODES: usize = 1 << 20;

/// Lowers rules to HIR, memoizing each rule's result.
pub struct Lowerer<'g> {
    grammar: &'g Grammar,
    sccs: recursion::Sccs,
    cache: HashMap<RuleId, Result<(Hir, usize), Diagnostic>>,
}

impl<'g> Lowerer<'g> {
    /// Prepares to lower rules of `grammar`.
    pub fn new(grammar: &'g Grammar) -> Lowerer<'g> {
        Lowerer {
            grammar,
            sccs: recursion::Sccs::new(grammar),
            cache: HashMap::new(),
        }
    }

    /// The HIR of `rule` (matching exactly the rule's language; no anchors).
    pub fn lower(&mut self, rule: RuleId) -> Result<Hir, Diagnostic> {
        self.rule(rule).map(|(h, _)| h)
    }

    fn rule(&mut self, rule: RuleId) -> Result<(Hir, usize), Diagnostic> {
        if let Some(r) = self.cache.get(&rule) {
            return r.clone();
        }
        let result = if self.sccs.is_recursive(rule) {
            self.solve_cycle(rule)
        } else {
            let expr = &self.grammar.rule(rule).expr;
            self.expr(expr, None)
        };
        let result = result.and_then(|(h, n)| self.check_size(rule, h, n));
        self.cache.insert(rule, result.clone());
        result
    }

    fn check_size(&self, rule: RuleId, h: Hir, n: usize) -> Result<(Hir, usize), Diagnostic> {
        if n > MAX_HIR_NODES {
            let r = self.grammar.rule(rule);
            return Err(Diagnostic::error(
                format!(
                    "rule `{}` expands to more than {MAX_HIR_NODES} regular-expression nodes once its references are inlined",
                    r.name
                ),
                Some(r.name_span),
            )
            .with_label("this rule is too large to compile")
            .with_note("each reference copies the referenced rule; a chain of rules that each use the next several times grows exponentially"));
        }
        Ok((h, n))
    }

    /// Lowers an expression. `cycle` holds the rules of the recursive cycle
    /// being solved (their references are handled by the caller).
    fn expr(&mut self, e: &Expr, cycle: Option<&[RuleId]>) -> Result<(Hir, usize), Diagnostic> {
        Ok(match e {
            Expr::Alt(es) => {
                let (hs, n) = self.list(es, cycle)?;
                (Hir::alternation(hs), n + 1)
            }
            Expr::Concat(es) => {
                let (hs, n) = self.list(es, cycle)?;
                (Hir::concat(hs), n + 1)
            }
            Expr::Repeat { min, max, expr } => {
                let (h, n) = self.expr(expr, cycle)?;
                (repeat(*min, *max, h), n + 1)
            }
            Expr::Ref(id, _) => {
                debug_assert!(cycle.is_none_or(|c| !c.contains(id)));
                self.rule(*id)?
            }
            Expr::Str {
                text,
                case_sensitive,
            } => (string(text, *case_sensitive), text.len() + 1),
            Expr::Range(lo, hi, span) => (
                code_points(*lo, *hi).ok_or_else(|| {
                    Diagnostic::error(
                        format!("%x{lo:X}-{hi:X} holds only surrogate code points, which have no UTF-8 form"),
                        Some(*span),
                    )
                    .with_label("no character matches this")
                })?,
                1,
            ),
        })
    }

    fn list(&mut self, es: &[Expr], cycle: Option<&[RuleId]>) -> Result<(Vec<Hir>, usize), Diagnostic> {
        let mut n = 0;
        let mut hs = Vec::with_capacity(es.len());
        for e in es {
            let (h, k) = self.expr(e, cycle)?;
            n += k;
            hs.push(h);
        }
        Ok((hs, n))
    }
}

/// `min*max` repetition, greedy (longer repetitions have priority, as the
/// RFCs' "first-match-wins" reading needs).
pub(crate) fn repeat(min: u32, max: Option<u32>, sub: Hir) -> Hir {
    Hir::repetition(Repetition {
        min,
        max,
        greedy: true,
        sub: Box::new(sub),
    })
}

/// A quoted string. Without `%s`, ASCII letters match either case (RFC 5234
/// §2.3); other characters match themselves.
pub(crate) fn string(text: &str, case_sensitive: bool) -> Hir {
    Hir::concat(
        text.chars()
            .map(|c| {
                if !case_sensitive && c.is_ascii_alphabetic() {
                    let (l, u) = (c.to_ascii_lowercase(), c.to_ascii_uppercase());
                    Hir::class(Class::Unicode(ClassUnicode::new([
                        ClassUnicodeRange::new(u, u),
                        ClassUnicodeRange::new(l, l),
                    ])))
                } else {
                    Hir::literal(c.to_string().into_bytes())
                }
            })
            .collect(),
    )
}

/// A code point range; surrogates (which UTF-8 cannot encode) are left out.
/// `None` when nothing is left.
pub(crate) fn code_points(lo: u32, hi: u32) -> Option<Hir> {
    let mut ranges = Vec::new();
    let mut push = |a: u32, b: u32| {
        if let (Some(a), Some(b)) = (char::from_u32(a), char::from_u32(b)) {
            if a <= b {
                ranges.push(ClassUnicodeRange::new(a, b));
            }
        }
    };
    push(lo, hi.min(0xD7FF));
    push(lo.max(0xE000), hi);
    if ranges.is_empty() {
        return None;
    }
    Some(Hir::class(Class::Unicode(ClassUnicode::new(ranges))))
}

/// `(?:hir)\z`: the form the automata stage compiles. With leftmost-first
/// semantics and the end anchor, the DFA has a single match state reached only
/// at the end of a full match (see AUTOMATA-NOTES.md on why both matter).
pub fn anchored_full(hir: Hir) -> Hir {
    Hir::concat(vec![hir, Hir::look(Look::End)])
}
