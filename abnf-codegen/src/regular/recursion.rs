//! Recursive rules: strongly connected components of the reference graph,
//! and Arden's lemma for the ones that are right- or left-linear.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};

use regex_syntax::hir::Hir;

use super::{repeat, Lowerer};
use crate::diagnostic::{Code, Diagnostic, Span};
use crate::grammar::{Expr, Grammar, RuleId};

/// Strongly connected components of the rule reference graph.
pub(crate) struct Sccs {
    comp: Vec<usize>,
    members: Vec<Vec<RuleId>>,
    self_loop: Vec<bool>,
}

impl Sccs {
    /// Tarjan's algorithm, iterative so that deep grammars cannot overflow
    /// the stack.
    pub(crate) fn new(g: &Grammar) -> Sccs {
        let n = g.rules.len();
        let succ: Vec<Vec<usize>> = g
            .rules
            .iter()
            .map(|r| {
                let mut v = Vec::new();
                r.expr.for_each_ref(&mut |id, _| v.push(id.0 as usize));
                v
            })
            .collect();
        let self_loop = (0..n).map(|i| succ[i].contains(&i)).collect();
        let mut index = vec![usize::MAX; n];
        let mut low = vec![0; n];
        let mut on_stack = vec![false; n];
        let mut stack = Vec::new();
        let mut comp = vec![usize::MAX; n];
        let mut members = Vec::new();
        let mut next = 0;
        for root in 0..n {
            if index[root] != usize::MAX {
                continue;
            }
            let mut work = vec![(root, 0usize)];
            while let Some(&mut (v, ref mut i)) = work.last_mut() {
                if *i == 0 && index[v] == usize::MAX {
                    index[v] = next;
                    low[v] = next;
                    next += 1;
                    stack.push(v);
                    on_stack[v] = true;
                }
                if let Some(&w) = succ[v].get(*i) {
                    *i += 1;
                    if index[w] == usize::MAX {
                        work.push((w, 0));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                work.pop();
                if let Some(&(parent, _)) = work.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    let c = members.len();
                    let mut m = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp[w] = c;
                        m.push(RuleId(w as u32));
                        if w == v {
                            break;
                        }
                    }
                    m.reverse();
                    members.push(m);
                }
            }
        }
        Sccs {
            comp,
            members,
            self_loop,
        }
    }

    pub(crate) fn is_recursive(&self, r: RuleId) -> bool {
        let i = r.0 as usize;
        self.self_loop[i] || self.members[self.comp[i]].len() > 1
    }

    pub(crate) fn members(&self, r: RuleId) -> &[RuleId] {
        &self.members[self.comp[r.0 as usize]]
    }
}

/// Which end of a rule the recursive reference stands at.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    /// `X = a X`: right-linear.
    Right,
    /// `X = X a`: left-linear.
    Left,
}

impl Side {
    /// `outer` applied to `inner` on this side: `outer·inner` for right-linear
    /// equations, `inner·outer` for left-linear ones.
    fn cat(self, outer: Hir, inner: Hir) -> Hir {
        match self {
            Side::Right => Hir::concat(vec![outer, inner]),
            Side::Left => Hir::concat(vec![inner, outer]),
        }
    }
}

/// `expr = Σ coeff_j · X_j + rest` (on the equation's side).
struct Linear {
    terms: Vec<(usize, Hir)>,
    rest: Option<Hir>,
}

fn alt(a: Option<Hir>, b: Option<Hir>) -> Option<Hir> {
    match (a, b) {
        (Some(a), Some(b)) => Some(Hir::alternation(vec![a, b])),
        (a, b) => a.or(b),
    }
}

fn mentions(e: &Expr, members: &[RuleId]) -> bool {
    let mut found = false;
    e.for_each_ref(&mut |id, _| found |= members.contains(&id));
    found
}

impl Lowerer<'_> {
    /// Solves the cycle that `rule` belongs to and caches every member.
    pub(super) fn solve_cycle(&mut self, rule: RuleId) -> Result<(Hir, usize), Diagnostic> {
        let members = self.sccs.members(rule).to_vec();
        let mut system = None;
        for side in [Side::Right, Side::Left] {
            let mut eqs = Vec::new();
            for &m in &members {
                let expr = simplify(&self.grammar.rule(m).expr, &members);
                match self.linear(&expr, &members, side)? {
                    Some(l) => eqs.push(l),
                    None => break,
                }
            }
            if eqs.len() == members.len() {
                system = Some((side, eqs));
                break;
            }
        }
        let Some((side, eqs)) = system else {
            self.non_regular.extend(members.iter().copied());
            return Err(self.not_regular(rule, &members));
        };
        let n = members.len();
        let mut a: Vec<Vec<Option<Hir>>> = vec![vec![None; n]; n];
        let mut b: Vec<Option<Hir>> = Vec::with_capacity(n);
        for (i, eq) in eqs.into_iter().enumerate() {
            for (j, c) in eq.terms {
                a[i][j] = alt(a[i][j].take(), Some(c));
            }
            b.push(eq.rest);
        }
        // Gaussian elimination with Arden's lemma: X_k = A_kk* (Σ A_kj X_j + B_k).
        for k in 0..n {
            if let Some(akk) = a[k][k].take() {
                let star = repeat(0, None, akk);
                for x in a[k].iter_mut() {
                    *x = x.take().map(|x| side.cat(star.clone(), x));
                }
                b[k] = b[k].take().map(|x| side.cat(star.clone(), x));
            }
            for i in (0..n).filter(|&i| i != k) {
                let Some(c) = a[i][k].take() else { continue };
                for j in (0..n).filter(|&j| j != k) {
                    if let Some(d) = a[k][j].clone() {
                        a[i][j] = alt(a[i][j].take(), Some(side.cat(c.clone(), d)));
                    }
                }
                if let Some(bk) = b[k].clone() {
                    b[i] = alt(b[i].take(), Some(side.cat(c, bk)));
                }
            }
        }
        let mut mine = None;
        for (i, &m) in members.iter().enumerate() {
            let result = match b[i].take() {
                Some(h) => {
                    let (size, _) = hir_shape(&h);
                    self.check_size(m, h, size)
                }
                None => {
                    let r = self.grammar.rule(m);
                    Err(Diagnostic::error(
                        Code::EmptyLanguage,
                        format!("rule `{}` matches no string: its recursion never ends", r.name),
                        Some(r.name_span),
                    )
                    .with_label("every alternative refers back to the cycle")
                    .with_note("add an alternative that does not recurse"))
                }
            };
            if m == rule {
                mine = Some(result.clone());
            }
            self.cache.insert(m, result);
        }
        mine.expect("rule is a member of its own cycle")
    }

    /// Writes `e` as `Σ coeff·X + rest` for the cycle `members`, or `None`
    /// when a recursive reference is not at the `side` end.
    fn linear(&mut self, e: &Expr, members: &[RuleId], side: Side) -> Result<Option<Linear>, Diagnostic> {
        if !mentions(e, members) {
            let (h, _) = self.expr(e, Some(members))?;
            return Ok(Some(Linear {
                terms: Vec::new(),
                rest: Some(h),
            }));
        }
        Ok(match e {
            Expr::Ref(id, _) => Some(Linear {
                terms: vec![(members.iter().position(|m| m == id).unwrap(), Hir::empty())],
                rest: None,
            }),
            Expr::Alt(es) => {
                let mut out = Linear {
                    terms: Vec::new(),
                    rest: None,
                };
                for e in es {
                    let Some(l) = self.linear(e, members, side)? else {
                        return Ok(None);
                    };
                    out.terms.extend(l.terms);
                    out.rest = alt(out.rest, l.rest);
                }
                Some(out)
            }
            Expr::Concat(es) => {
                let (tail, others): (&Expr, &[Expr]) = match side {
                    Side::Right => {
                        let (last, init) = es.split_last().expect("non-empty: it mentions the cycle");
                        (last, init)
                    }
                    Side::Left => {
                        let (first, rest) = es.split_first().expect("non-empty: it mentions the cycle");
                        (first, rest)
                    }
                };
                if others.iter().any(|o| mentions(o, members)) {
                    return Ok(None);
                }
                let (hs, _) = self.list(others, Some(members))?;
                let fixed = Hir::concat(hs);
                let Some(l) = self.linear(tail, members, side)? else {
                    return Ok(None);
                };
                Some(Linear {
                    terms: l
                        .terms
                        .into_iter()
                        .map(|(v, c)| (v, side.cat(fixed.clone(), c)))
                        .collect(),
                    rest: l.rest.map(|r| side.cat(fixed, r)),
                })
            }
            Expr::Repeat { min, max, expr } => match (min, max) {
                (1, Some(1)) => self.linear(expr, members, side)?,
                (0, Some(1)) => self.linear(expr, members, side)?.map(|l| Linear {
                    terms: l.terms,
                    rest: alt(l.rest, Some(Hir::empty())),
                }),
                _ => None,
            },
            Expr::Str { .. } | Expr::Range(..) => unreachable!("terminals mention no rule"),
        })
    }

    fn not_regular(&self, rule: RuleId, members: &[RuleId]) -> Diagnostic {
        let g = self.grammar;
        let (path, spans) = find_cycle(g, rule, members);
        let names: Vec<&str> = path.iter().map(|id| g.rule(*id).name.as_str()).collect();
        let r = g.rule(rule);
        let mut d = Diagnostic::error(
            Code::NotRegular,
            format!(
                "rule `{}` is recursive in a way no DFA can recognize: {} → {}",
                r.name,
                names.join(" → "),
                r.name
            ),
            Some(r.name_span),
        )
        .with_label("this rule's recursion is not regular");
        for span in spans {
            d = d.with_secondary(span, "recursive reference");
        }
        d.with_note(
            "only right-linear (`list = item [\",\" list]`) or left-linear recursion describes a regular \
             language; nesting such as `a = \"(\" a \")\"` needs a stack",
        )
    }
}

/// Rewrites a cycle member's body into a form [`Lowerer::linear`] can
/// solve, where the language stays the same:
///
/// - `0*0 e` (and `0e`) matches only the empty string: `a = 0a "x"` is
///   `a = "x"`.
/// - In a rule that is its own cycle, a repetition `*(γ X)` of itself at
///   the right end of the body (`a = "x" *a`, `set = item *("," set)`) is
///   regular although not linear: with `B` the body where that
///   repetition matches only the empty string, the repetition is
///   `*(γ B)` (`a = "x" *"x"`, `set = item *("," item)`). (`L = αM ∪ β`
///   with `M = (γL)*` gives `M = (γ(α ∪ β))*`.)
/// - In a rule that is its own cycle, alternatives that only concatenate
///   the rule with itself (`a = a a / "x"`, `a = a a a / a / B`) add
///   nothing but concatenations of its other alternatives `B`: the least
///   language with `L = B ∪ L·L` is `B+`, written `B *B`.
fn simplify(e: &Expr, members: &[RuleId]) -> Expr {
    let e = drop_empty_repeats(e);
    let [x] = members else { return e };
    if let Some(closed) = self_concatenation(&e, *x) {
        return closed;
    }
    let eps = replace_star_tail(&e, *x, &|_| Expr::Concat(Vec::new()));
    if mentions(&eps, members) || eps == e {
        return e;
    }
    replace_star_tail(&e, *x, &|prefix| Expr::Repeat {
        min: 0,
        max: None,
        expr: Box::new(Expr::Concat(
            prefix.iter().cloned().chain([eps.clone()]).collect(),
        )),
    })
}

/// `B *B` when every alternative of `e` either does not mention `x` (they
/// make `B`) or is `x` concatenated with itself, at least once twice.
fn self_concatenation(e: &Expr, x: RuleId) -> Option<Expr> {
    fn alternatives<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
        match e {
            Expr::Alt(es) => es.iter().for_each(|e| alternatives(e, out)),
            e => out.push(e),
        }
    }
    let is_x = |e: &Expr| matches!(e, Expr::Ref(r, _) if *r == x);
    let mut alts = Vec::new();
    alternatives(e, &mut alts);
    let mut base = Vec::new();
    let mut doubled = false;
    for alt in alts {
        match alt {
            Expr::Concat(es) if !es.is_empty() && es.iter().all(is_x) => doubled |= es.len() >= 2,
            e if is_x(e) => {}
            e if !mentions(e, &[x]) => base.push(e.clone()),
            _ => return None,
        }
    }
    if !doubled || base.is_empty() {
        return None;
    }
    let b = Expr::Alt(base);
    Some(Expr::Concat(vec![
        b.clone(),
        Expr::Repeat {
            min: 0,
            max: None,
            expr: Box::new(b),
        },
    ]))
}

fn drop_empty_repeats(e: &Expr) -> Expr {
    match e {
        Expr::Repeat { max: Some(0), .. } => Expr::Concat(Vec::new()),
        Expr::Repeat { min, max, expr } => Expr::Repeat {
            min: *min,
            max: *max,
            expr: Box::new(drop_empty_repeats(expr)),
        },
        Expr::Alt(es) => Expr::Alt(es.iter().map(drop_empty_repeats).collect()),
        Expr::Concat(es) => Expr::Concat(es.iter().map(drop_empty_repeats).collect()),
        _ => e.clone(),
    }
}

/// `e` with each repetition `*(γ x)` (γ not mentioning `x`) that stands at
/// its right end replaced by `with(γ)`.
fn replace_star_tail(e: &Expr, x: RuleId, with: &dyn Fn(&[Expr]) -> Expr) -> Expr {
    match e {
        Expr::Alt(es) => Expr::Alt(es.iter().map(|e| replace_star_tail(e, x, with)).collect()),
        Expr::Concat(es) => match es.split_last() {
            Some((last, init)) => Expr::Concat(
                init.iter()
                    .cloned()
                    .chain([replace_star_tail(last, x, with)])
                    .collect(),
            ),
            None => e.clone(),
        },
        Expr::Repeat {
            min: 0,
            max: None,
            expr,
        } => {
            let prefix: Option<&[Expr]> = match &**expr {
                Expr::Ref(id, _) if *id == x => Some(&[]),
                Expr::Concat(es) => match es.split_last() {
                    Some((Expr::Ref(id, _), init)) if *id == x && !init.iter().any(|i| mentions(i, &[x])) => {
                        Some(init)
                    }
                    _ => None,
                },
                _ => None,
            };
            match prefix {
                Some(p) => with(p),
                None => e.clone(),
            }
        }
        Expr::Repeat { min, max, expr } if *max == Some(1) && *min <= 1 => Expr::Repeat {
            min: *min,
            max: *max,
            expr: Box::new(replace_star_tail(expr, x, with)),
        },
        _ => e.clone(),
    }
}

/// How a rule reaches a recursion that is not regular: the rules from it to
/// the first such rule, and that rule's cycle.
#[derive(Clone, Debug)]
pub struct Chain {
    /// From the rule asked about to the first non-regular rule it reaches
    /// (both included; one element when the rule is itself in the cycle).
    pub path: Vec<RuleId>,
    /// The reference taken at each step of `path`.
    pub path_spans: Vec<Span>,
    /// The cycle, starting and (implicitly) ending at `path`'s last rule.
    pub cycle: Vec<RuleId>,
    /// The reference taken at each step of `cycle`.
    pub cycle_spans: Vec<Span>,
}

impl Chain {
    /// The rule whose recursion is not regular.
    pub fn target(&self) -> RuleId {
        *self.path.last().expect("a chain has at least its own rule")
    }

    /// `a → b → c → d → c`: the path, then the cycle back to its start.
    pub fn render(&self, g: &Grammar) -> String {
        let names: Vec<&str> = self
            .path
            .iter()
            .chain(self.cycle.iter().skip(1))
            .chain(std::iter::once(&self.target()))
            .map(|id| g.rule(*id).name.as_str())
            .collect();
        names.join(" → ")
    }
}

impl Lowerer<'_> {
    /// Whether lowering found `rule` in a recursion no DFA can recognize.
    pub fn is_non_regular(&self, rule: RuleId) -> bool {
        self.non_regular.contains(&rule)
    }

    /// The shortest way from `rule` to a rule already found non-regular
    /// (breadth-first over references), with that rule's cycle; `None` if
    /// `rule` reaches none.
    pub fn non_regular_chain(&self, rule: RuleId) -> Option<Chain> {
        let g = self.grammar;
        let mut prev: HashMap<RuleId, (RuleId, Span)> = HashMap::new();
        let mut queue = VecDeque::from([rule]);
        let mut found = None;
        let mut seen = std::collections::HashSet::from([rule]);
        while let Some(v) = queue.pop_front() {
            if self.non_regular.contains(&v) {
                found = Some(v);
                break;
            }
            let mut next = Vec::new();
            g.rule(v).expr.for_each_ref(&mut |w, span| next.push((w, span)));
            for (w, span) in next {
                if seen.insert(w) {
                    prev.insert(w, (v, span));
                    queue.push_back(w);
                }
            }
        }
        let target = found?;
        let mut path = vec![target];
        let mut path_spans = Vec::new();
        let mut cur = target;
        while cur != rule {
            let (p, s) = prev[&cur];
            path.push(p);
            path_spans.push(s);
            cur = p;
        }
        path.reverse();
        path_spans.reverse();
        let (cycle, cycle_spans) = find_cycle(g, target, self.sccs.members(target));
        Some(Chain {
            path,
            path_spans,
            cycle,
            cycle_spans,
        })
    }

    /// The strongly connected component `rule` belongs to (its index).
    pub fn cycle_of(&self, rule: RuleId) -> usize {
        self.sccs.comp[rule.0 as usize]
    }
}

/// The shortest cycle `rule → ... → rule` through `members`: the rules on it
/// (starting with `rule`) and the span of each reference taken.
fn find_cycle(g: &Grammar, rule: RuleId, members: &[RuleId]) -> (Vec<RuleId>, Vec<Span>) {
    let mut prev: HashMap<RuleId, (RuleId, Span)> = HashMap::new();
    let mut queue = VecDeque::from([rule]);
    while let Some(v) = queue.pop_front() {
        let mut next = Vec::new();
        g.rule(v).expr.for_each_ref(&mut |w, span| {
            if members.contains(&w) {
                next.push((w, span));
            }
        });
        for (w, span) in next {
            if w == rule {
                // Walk back from v to rule.
                let mut path = vec![v];
                let mut spans = vec![span];
                let mut cur = v;
                while cur != rule {
                    let (p, s) = prev[&cur];
                    path.push(p);
                    spans.push(s);
                    cur = p;
                }
                path.reverse();
                spans.reverse();
                return (path, spans);
            }
            if let Entry::Vacant(e) = prev.entry(w) {
                e.insert((v, span));
                queue.push_back(w);
            }
        }
    }
    (vec![rule], Vec::new())
}

/// Number of nodes and depth of a HIR tree (iteratively: the tree may be
/// deeper than the stack allows recursion).
pub(crate) fn hir_shape(h: &Hir) -> (usize, usize) {
    use regex_syntax::hir::HirKind;
    let (mut size, mut depth) = (0, 0);
    let mut stack = vec![(h, 1)];
    while let Some((h, d)) = stack.pop() {
        size += 1;
        depth = depth.max(d);
        match h.kind() {
            HirKind::Concat(hs) | HirKind::Alternation(hs) => stack.extend(hs.iter().map(|h| (h, d + 1))),
            HirKind::Repetition(r) => stack.push((&r.sub, d + 1)),
            HirKind::Capture(c) => stack.push((&c.sub, d + 1)),
            _ => {}
        }
    }
    (size, depth)
}
