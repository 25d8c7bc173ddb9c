//! Lowering with capture groups for the typed AST.
//!
//! Each typed rule has its own tagged DFA, whose groups are the rule's own
//! parts: group 0 is the whole match, then one group per field or enum
//! variant in textual order (an alternative that is a single rule is a
//! variant group with the field group inside it). A field that holds another
//! typed rule is either parsed with that rule's own tagged DFA over the
//! field's span, or, where the automaton stays small enough
//! (`compile::nested_form`), read in the same walk: that rule's own groups
//! follow the field's group ([`Lowerer::lower_captured_nested`]), so that
//! its node is built from the same tags. Both are exact: given the span a
//! higher-priority parse chose for a part, the part's own highest-priority
//! parse of that span is the one the whole parse contains (all choices
//! inside the part come before any choice after it). Reading every level in
//! one automaton is not always possible: the states then remember how all
//! the tags relate, and RFC 3987's `IRI-reference` would grow from 536 to
//! 1,532 states for its first level alone.

use std::collections::HashMap;

use regex_syntax::hir::{Capture, Hir};

use super::{repeat, Lowerer};
use crate::diagnostic::Diagnostic;
use crate::grammar::{Expr, RuleId};
use abnf_runtime::ByteSet;

use crate::typed::{expr_at, ByteRanges, Card, Groups, Shape, Site, TypeModel};

impl Lowerer<'_> {
    /// The HIR of typed rule `rule` with a capture group per field and
    /// variant (group 0, the whole match, is added by the compiler), and
    /// which group holds which part.
    pub fn lower_captured(&mut self, model: &TypeModel, rule: RuleId) -> Result<(Hir, Groups), Diagnostic> {
        self.lower_captured_nested(model, rule, &HashMap::new())
    }

    /// [`Lowerer::lower_captured`], where the field at each path of
    /// `nested` (a typed rule's one occurrence) is that rule's captured
    /// HIR (with its group count, group 0 included) instead of its plain
    /// one: its groups follow the field's, renumbered from it, so that the
    /// rule's node is built from this automaton's tags (see
    /// [`Groups::nested`]). Exact for the same reason as a part parsed
    /// over its span.
    pub fn lower_captured_nested(
        &mut self,
        model: &TypeModel,
        rule: RuleId,
        nested: &HashMap<Vec<usize>, (&Hir, usize)>,
    ) -> Result<(Hir, Groups), Diagnostic> {
        let ty = model.get(rule).expect("captured() is called on typed rules");
        let body = self.grammar.rule(rule).expr.clone();
        if let Some(kinds) = self.byte_kinds(model, &ty.shape, &body, 0) {
            return Ok((self.expr(&body, None)?.0, Groups::by_byte(kinds)));
        }
        let mut groups = Groups::default();
        let hir = self.walk(&body, &mut Vec::new(), &sites(&ty.shape), nested, &mut groups)?;
        Ok((hir, groups))
    }

    /// A repetition element with group 1 around the (first occurrence of
    /// the) item rule.
    /// With `nested` (the item rule's captured HIR and its group count),
    /// the item rule's groups follow group 1 ([`Groups::nested`]).
    pub fn lower_element(
        &mut self,
        element: &Expr,
        item: RuleId,
        nested: Option<(&Hir, usize)>,
    ) -> Result<(Hir, Groups), Diagnostic> {
        let mut groups = Groups::default();
        groups.push(&[], Site::Field);
        if let Some((_, count)) = nested {
            groups.push_nested(1, count);
        }
        let mut found = false;
        let hir = self.element(element, item, nested.map(|(h, _)| h), &mut found)?;
        Ok((hir, groups))
    }

    fn element(
        &mut self,
        e: &Expr,
        item: RuleId,
        nested: Option<&Hir>,
        found: &mut bool,
    ) -> Result<Hir, Diagnostic> {
        Ok(match e {
            Expr::Ref(id, span) if *id == item && !*found => {
                *found = true;
                match nested {
                    Some(h) => capture(1, shift_captures(h, 1)),
                    None => capture(1, self.reference(*id, *span)?.0),
                }
            }
            Expr::Concat(es) => {
                let mut hs = Vec::new();
                for e in es {
                    hs.push(self.element(e, item, nested, found)?);
                }
                Hir::concat(hs)
            }
            Expr::Repeat {
                min,
                max: Some(1),
                expr,
            } if *min <= 1 => repeat(*min, Some(1), self.element(expr, item, nested, found)?),
            _ => self.expr(e, None)?.0,
        })
    }

    /// A list's element with a capture group per part of its item type
    /// (`shape`, whose paths are in the element), and which group holds
    /// which part; group 0 is the element's whole match.
    /// With `nested` as in [`Lowerer::lower_captured_nested`].
    pub fn lower_item(
        &mut self,
        model: &TypeModel,
        element: &Expr,
        shape: &Shape,
        nested: &HashMap<Vec<usize>, (&Hir, usize)>,
    ) -> Result<(Hir, Groups), Diagnostic> {
        if let Some(kinds) = self.byte_kinds(model, shape, element, 0) {
            return Ok((self.expr(element, None)?.0, Groups::by_byte(kinds)));
        }
        let mut groups = Groups::default();
        let hir = self.walk(element, &mut Vec::new(), &sites(shape), nested, &mut groups)?;
        Ok((hir, groups))
    }

    /// A list's element without capture groups.
    pub fn lower_plain(&mut self, element: &Expr) -> Result<Hir, Diagnostic> {
        Ok(self.expr(element, None)?.0)
    }

    fn walk(
        &mut self,
        e: &Expr,
        path: &mut Vec<usize>,
        sites: &HashMap<Vec<usize>, Vec<Site>>,
        nested: &HashMap<Vec<usize>, (&Hir, usize)>,
        groups: &mut Groups,
    ) -> Result<Hir, Diagnostic> {
        let here = sites.get(path.as_slice()).map_or(&[][..], |v| v.as_slice());
        let numbers: Vec<u32> = here.iter().map(|&site| groups.push(path, site) as u32).collect();
        let inner = match here.last() {
            Some(Site::Field) => match (nested.get(path.as_slice()), numbers.last()) {
                (Some(&(hir, count)), Some(&field)) => {
                    groups.push_nested(field as usize, count);
                    shift_captures(hir, field)
                }
                _ => self.expr(e, None)?.0,
            },
            Some(Site::Nested) => unreachable!("nested groups have no path"),
            Some(Site::Variant) | None => {
                if !sites.keys().any(|k| k.len() > path.len() && k.starts_with(path)) {
                    self.expr(e, None)?.0
                } else {
                    match e {
                        Expr::Alt(es) | Expr::Concat(es) => {
                            let mut hs = Vec::with_capacity(es.len());
                            for (i, child) in es.iter().enumerate() {
                                path.push(i);
                                hs.push(self.walk(child, path, sites, nested, groups)?);
                                path.pop();
                            }
                            if matches!(e, Expr::Alt(_)) {
                                Hir::alternation(hs)
                            } else {
                                Hir::concat(hs)
                            }
                        }
                        Expr::Repeat { min, max, expr } => {
                            path.push(0);
                            let h = self.walk(expr, path, sites, nested, groups)?;
                            path.pop();
                            repeat(*min, *max, h)
                        }
                        _ => self.expr(e, None)?.0,
                    }
                }
            }
        };
        Ok(numbers.into_iter().rev().fold(inner, |h, g| capture(g, h)))
    }
}

impl Lowerer<'_> {
    /// For an enum (`shape`, its paths in `base`) whose every alternative
    /// matches exactly one byte, each variant's bytes (see
    /// [`Groups::by_byte`]); `None` for any other shape. A variant may hold
    /// one part, which must be its whole alternative: a leaf, or a typed
    /// rule read off its byte in turn (`FieldVchar` in `SP / HTAB /
    /// field-vchar`).
    fn byte_kinds(
        &mut self,
        model: &TypeModel,
        shape: &Shape,
        base: &Expr,
        depth: usize,
    ) -> Option<Vec<ByteRanges>> {
        let Shape::Enum(variants) = shape else { return None };
        // With holes (a rule with a stack), one byte of the automaton may
        // stand for a call of any length.
        if self.holes.is_some() {
            return None;
        }
        // Each alternative must be the node's whole match (not an
        // alternation framed by terminals, `"[" ( a / b ) "]"`), so that its
        // byte is the node's first.
        if !matches!(base, Expr::Alt(_)) || variants.iter().any(|v| v.path.len() != 1) {
            return None;
        }
        // Typed parts nest as deep as the grammar's rules do; a cycle of
        // one-byte alternatives is not worth following far.
        if depth > 8 {
            return None;
        }
        let mut out = Vec::with_capacity(variants.len());
        // The bytes an earlier alternative holds are its own.
        let mut taken = ByteSet::EMPTY;
        for v in variants {
            let bytes = self.one_byte(expr_at(base, &v.path)?)?;
            match v.fields.as_slice() {
                [] => {}
                [f] if f.card == Card::One && f.item.is_none() && f.element.is_none() => {
                    if self.one_byte(expr_at(base, &f.path)?)? != bytes {
                        return None;
                    }
                    if let Some(ty) = f.rule.and_then(|r| model.get(r)) {
                        let body = self.grammar.rule(ty.rule).expr.clone();
                        self.byte_kinds(model, &ty.shape, &body, depth + 1)?;
                    }
                }
                _ => return None,
            }
            out.push(bytes.difference(&taken).ranges().collect());
            taken = taken.union(&bytes);
        }
        Some(out)
    }

    /// The bytes of `e`, if it matches exactly one byte (in the terminals
    /// this lowering reads: a code point from U+0080 on is two bytes or
    /// more in text).
    fn one_byte(&mut self, e: &Expr) -> Option<ByteSet> {
        let hir = self.expr(e, None).ok()?.0;
        let p = hir.properties();
        if p.minimum_len() != Some(1) || p.maximum_len() != Some(1) {
            return None;
        }
        // One byte long: the class of one character is its bytes.
        super::first_bytes_of_one_char(&hir)
    }
}

/// Where a shape's parts are. An alternative that is a single rule is both
/// a variant and that variant's field: two sites at one path, the variant
/// outermost.
fn sites(shape: &Shape) -> HashMap<Vec<usize>, Vec<Site>> {
    let mut sites: HashMap<Vec<usize>, Vec<Site>> = HashMap::new();
    let mut add = |path: &Vec<usize>, site| sites.entry(path.clone()).or_default().push(site);
    match shape {
        Shape::Struct(fields) => fields.iter().for_each(|f| add(&f.path, Site::Field)),
        Shape::Enum(variants) => {
            for v in variants {
                add(&v.path, Site::Variant);
                v.fields.iter().for_each(|f| add(&f.path, Site::Field));
            }
        }
        Shape::List(f) => add(&f.path, Site::Field),
    }
    sites
}

/// `item` (an element with its item's groups) in group `group`, then any
/// number of `plain` elements: the automaton that reads a list's first item
/// exactly, as the highest-priority parse of the rest of the list.
/// Items are never empty: the first item is `item` without its empty match
/// (a list whose first item matched empty would end there). `None` when
/// that cannot be written without repeating a capture group (an item of
/// several parts that may all be empty).
pub(crate) fn first_of_rest(item: Hir, plain: Hir, group: usize) -> Option<Hir> {
    let item = nonempty(&item)?;
    Some(Hir::concat(vec![
        capture(group as u32, item),
        repeat(0, None, plain),
    ]))
}

fn nullable(h: &Hir) -> bool {
    h.properties().minimum_len() == Some(0)
}

fn has_capture(h: &Hir) -> bool {
    h.properties().explicit_captures_len() > 0
}

/// `h` without the empty string, or `None` when that would repeat a part
/// that holds a capture group.
fn nonempty(h: &Hir) -> Option<Hir> {
    use regex_syntax::hir::{HirKind, Repetition};
    if !nullable(h) {
        return Some(h.clone());
    }
    Some(match h.kind() {
        HirKind::Empty | HirKind::Look(_) => Hir::fail(),
        HirKind::Literal(_) | HirKind::Class(_) => h.clone(),
        HirKind::Capture(c) => Hir::capture(Capture {
            index: c.index,
            name: c.name.clone(),
            sub: Box::new(nonempty(&c.sub)?),
        }),
        HirKind::Alternation(hs) => Hir::alternation(hs.iter().map(nonempty).collect::<Option<Vec<_>>>()?),
        // Every part is nullable (else the whole would not be): a
        // non-empty match has a first non-empty part, `i`.
        HirKind::Concat(hs) => {
            let mut alts = Vec::new();
            for i in 0..hs.len() {
                if hs[..i].iter().any(has_capture)
                    || (i + 1 < hs.len() && hs[i + 1..].iter().any(has_capture))
                {
                    return None;
                }
                let mut parts: Vec<Hir> = vec![nonempty(&hs[i])?];
                parts.extend(hs[i + 1..].iter().cloned());
                alts.push(Hir::concat(parts));
            }
            Hir::alternation(alts)
        }
        // `x?`: non-empty, it is `x` non-empty.
        HirKind::Repetition(r) if r.max == Some(1) => nonempty(&r.sub)?,
        HirKind::Repetition(r) => {
            if has_capture(&r.sub) {
                return None;
            }
            let first = nonempty(&r.sub)?;
            let rest = Hir::repetition(Repetition {
                min: r.min.saturating_sub(1),
                max: r.max.map(|m| m.saturating_sub(1)),
                greedy: r.greedy,
                sub: r.sub.clone(),
            });
            Hir::concat(vec![first, rest])
        }
    })
}

/// `h` with each capture group's index raised by `by`.
fn shift_captures(h: &Hir, by: u32) -> Hir {
    use regex_syntax::hir::{HirKind, Repetition};
    if !has_capture(h) {
        return h.clone();
    }
    match h.kind() {
        HirKind::Capture(c) => Hir::capture(Capture {
            index: c.index + by,
            name: c.name.clone(),
            sub: Box::new(shift_captures(&c.sub, by)),
        }),
        HirKind::Concat(hs) => Hir::concat(hs.iter().map(|h| shift_captures(h, by)).collect()),
        HirKind::Alternation(hs) => Hir::alternation(hs.iter().map(|h| shift_captures(h, by)).collect()),
        HirKind::Repetition(r) => Hir::repetition(Repetition {
            min: r.min,
            max: r.max,
            greedy: r.greedy,
            sub: Box::new(shift_captures(&r.sub, by)),
        }),
        _ => h.clone(),
    }
}

fn capture(index: u32, sub: Hir) -> Hir {
    Hir::capture(Capture {
        index,
        name: None,
        sub: Box::new(sub),
    })
}

impl Lowerer<'_> {
    /// The HIR of `rule` with a capture group around each occurrence of a
    /// `targets` rule, found at any depth through the rules `rule` references
    /// but not inside a repetition that may repeat (its parts would be the
    /// last of many) nor inside a recursive rule. `targets[i]` is captured
    /// as group `field[i] + 1`: rules that fill one field share a group.
    /// Returns the HIR and, per occurrence in order, its index in `targets`.
    pub fn lower_components(
        &mut self,
        rule: RuleId,
        targets: &[RuleId],
        field: &[usize],
    ) -> Result<(Hir, Vec<usize>), Diagnostic> {
        let mut found = Vec::new();
        let body = self.grammar.rule(rule).expr.clone();
        let hir = self.component_walk(&body, (targets, field), &mut found, 0)?;
        Ok((hir, found))
    }

    /// Whether `e` reaches a target through references, outside repetitions.
    fn reaches(&self, e: &Expr, targets: &[RuleId], depth: usize) -> bool {
        if depth > crate::limits::MAX_REFERENCE_DEPTH {
            return false;
        }
        match e {
            Expr::Ref(id, _) => {
                targets.contains(id)
                    || (!self.sccs.is_recursive(*id)
                        && self.reaches(&self.grammar.rule(*id).expr, targets, depth + 1))
            }
            Expr::Alt(es) | Expr::Concat(es) => es.iter().any(|e| self.reaches(e, targets, depth)),
            Expr::Repeat {
                max: Some(1), expr, ..
            } => self.reaches(expr, targets, depth),
            _ => false,
        }
    }

    fn component_walk(
        &mut self,
        e: &Expr,
        (targets, field): (&[RuleId], &[usize]),
        found: &mut Vec<usize>,
        depth: usize,
    ) -> Result<Hir, Diagnostic> {
        if !self.reaches(e, targets, depth) {
            return Ok(self.expr(e, None)?.0);
        }
        let tf = (targets, field);
        Ok(match e {
            Expr::Ref(id, _) => {
                // A recursive rule is lowered whole (`reaches` never enters
                // one), even when it is a target itself.
                let inner = if self.sccs.is_recursive(*id) {
                    self.rule(*id)?.0
                } else {
                    let body = self.grammar.rule(*id).expr.clone();
                    self.component_walk(&body, tf, found, depth + 1)?
                };
                match targets.iter().position(|t| t == id) {
                    Some(i) => {
                        found.push(i);
                        capture(field[i] as u32 + 1, inner)
                    }
                    None => inner,
                }
            }
            Expr::Alt(es) | Expr::Concat(es) => {
                let mut hs = Vec::with_capacity(es.len());
                for child in es {
                    hs.push(self.component_walk(child, tf, found, depth)?);
                }
                if matches!(e, Expr::Alt(_)) {
                    Hir::alternation(hs)
                } else {
                    Hir::concat(hs)
                }
            }
            Expr::Repeat { min, max, expr } => {
                repeat(*min, *max, self.component_walk(expr, tf, found, depth)?)
            }
            _ => self.expr(e, None)?.0,
        })
    }
}
