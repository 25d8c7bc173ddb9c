//! Grammar IR → the shape of the typed AST: which rules get a Rust type, and
//! what that type holds.
//!
//! - A concatenation becomes a **struct** with one field per named part; a
//!   part inside `[ ]` is an `Option`; a repetition whose element holds a rule
//!   (`*( "/" isegment )`) is a **list** read through an iterator.
//! - An alternation becomes an **enum** with one variant per alternative.
//! - Other rules are **leaves**: the matched text, `&'a str`.
//!
//! By default a rule gets a type when it has structure worth naming:
//! an alternation with at least two alternatives that refer to rules, a
//! concatenation with at least two parts that are rules (or optional or
//! repeated groups of rules), or a repetition of a group that holds a rule.
//! Rules whose language is finite (`IPv4address`, `h16`, `pct-encoded`) are
//! *tokens* and never count as structure, and core rules are always leaves.
//! [`crate::Config::ast_leaves`] and [`crate::Config::ast_rules`] change the
//! choice.

use std::collections::{BTreeSet, HashMap};

use crate::grammar::{Expr, Grammar, RuleId};
use crate::names::{camel, snake, Names};

/// How many times a field occurs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Card {
    /// Exactly once.
    One,
    /// `[ ... ]`: zero or one time.
    Optional,
    /// A repetition: read through an iterator.
    Many,
}

/// One field of a struct or struct-like variant.
#[derive(Clone, Debug)]
pub struct Field {
    /// Rust field name (snake case, unique within its parent).
    pub name: String,
    /// The rule the field holds (for `Many`, the rule of each item), or
    /// `None` for a choice between literals (`( "+" / "-" )`), whose field
    /// is the matched text.
    pub rule: Option<RuleId>,
    /// Cardinality.
    pub card: Card,
    /// For `Many`: the repeated element (each item's text is the element's
    /// match; the item's `rule` is found inside it).
    pub element: Option<Expr>,
    /// Where the field's expression is in the rule body: child indices from
    /// the body down (`Alt`/`Concat` items, `Repeat` is child 0). For a
    /// field of a list item ([`Field::item`]), where it is in the element.
    pub path: Vec<usize>,
    /// For `Many` whose element is more than one rule with literals around
    /// it (a choice such as `*( qdtext / quoted-pair )`, a group of several
    /// parts such as `*( OWS ";" OWS [ parameter ] )`): the type of each
    /// item, whose parts are placed in the element. `rule` is then `None`.
    pub item: Option<Box<ItemType>>,
}

/// The type of the items of a list whose element is a choice or a group of
/// several parts: a struct (one field per part) or an enum (one variant per
/// alternative), over the element's match.
#[derive(Clone, Debug)]
pub struct ItemType {
    /// Rust type name (camel case, unique among the module's types).
    pub name: String,
    /// What it holds; paths are in the element.
    pub shape: Shape,
}

/// One enum variant.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Rust variant name (camel case, unique within the enum).
    pub name: String,
    /// Fields of a struct-like variant (empty for an alternative that holds
    /// no rule).
    pub fields: Vec<Field>,
    /// Where the alternative is in the rule body.
    pub path: Vec<usize>,
}

/// The shape of a typed rule.
#[derive(Clone, Debug)]
pub enum Shape {
    /// A concatenation.
    Struct(Vec<Field>),
    /// An alternation.
    Enum(Vec<Variant>),
    /// A repetition of an element that holds a rule.
    List(Field),
}

/// A rule with a type.
#[derive(Clone, Debug)]
pub struct RuleType {
    /// The rule.
    pub rule: RuleId,
    /// Rust type name (camel case).
    pub name: String,
    /// What it holds.
    pub shape: Shape,
}

/// What a capture group of a typed rule's tagged DFA holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    /// A field (or a list field's whole repetition).
    Field,
    /// An enum variant's alternative.
    Variant,
    /// A group of the typed rule a field holds, read in the same walk (see
    /// [`Groups::nested`]).
    Nested,
}

/// The capture groups of a typed rule's tagged DFA: group `i + 1` holds the
/// part at the `i`-th site (group 0 is the whole match). Made once, by
/// [`crate::regular::Lowerer::lower_captured`] as it places the groups, and
/// read by the emitter and the tests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Groups {
    sites: Vec<(Vec<usize>, Site)>,
    /// The field groups whose typed rule's own groups follow them, with
    /// that rule's group count (its group 0, the field's, included).
    nested: Vec<(usize, usize)>,
    /// For an enum read off its one byte ([`Groups::by_byte`]): each
    /// variant's bytes.
    bytes: Option<Vec<ByteRanges>>,
}

/// A set of bytes as sorted, disjoint inclusive ranges.
pub type ByteRanges = Vec<(u8, u8)>;

impl Groups {
    /// The groups of an enum whose every alternative matches exactly one
    /// byte (`HEXDIG`, `SP / HTAB / field-vchar`), with each variant's
    /// bytes, less those of the variants before it (the alternative a parse
    /// prefers is the first that holds the byte; a variant may be left
    /// none). There are no groups but group 0, the whole match, and each
    /// variant's part, if any, is that byte too, so
    /// nothing needs a tag: the node's automaton stays that of its text,
    /// and a list of such nodes has items of one length with the same tags
    /// (cut by offset).
    pub(crate) fn by_byte(bytes: Vec<ByteRanges>) -> Groups {
        Groups {
            bytes: Some(bytes),
            ..Groups::default()
        }
    }

    /// Each variant's bytes (less those of the variants before it), for an
    /// enum whose every alternative is one byte: its variant is read off
    /// that byte, and it has no groups but group 0.
    pub fn byte_kinds(&self) -> Option<&[ByteRanges]> {
        self.bytes.as_deref()
    }

    /// The next group holds `site` at `path`; returns its number.
    pub(crate) fn push(&mut self, path: &[usize], site: Site) -> usize {
        self.sites.push((path.to_vec(), site));
        self.sites.len()
    }

    /// Field group `field` holds a typed rule whose own groups (`count`,
    /// its group 0 included: that is `field`) are the next ones, in its
    /// order: the rule's node is built from this automaton's tags, its
    /// group `i` being group `field + i` here, with no walk of its own.
    pub(crate) fn push_nested(&mut self, field: usize, count: usize) {
        debug_assert_eq!(field, self.sites.len(), "the field's group is the last one");
        for _ in 1..count {
            self.sites.push((Vec::new(), Site::Nested));
        }
        self.nested.push((field, count));
    }

    /// Whether field group `g` is followed by its typed rule's own groups
    /// ([`Groups::nested`]).
    pub fn nests(&self, g: usize) -> bool {
        self.nested.iter().any(|&(f, _)| f == g)
    }

    /// The field groups followed by their typed rule's own groups, each
    /// with that rule's group count: that rule's group `i` is group
    /// `field + i` here, and its node is built from these tags.
    pub fn nested(&self) -> &[(usize, usize)] {
        &self.nested
    }

    /// The group of the field at body path `path` (see [`Field::path`]).
    pub fn field(&self, path: &[usize]) -> Option<usize> {
        self.find(path, Site::Field)
    }

    /// The group of the variant at body path `path` (see [`Variant::path`]).
    pub fn variant(&self, path: &[usize]) -> Option<usize> {
        self.find(path, Site::Variant)
    }

    fn find(&self, path: &[usize], site: Site) -> Option<usize> {
        self.sites
            .iter()
            .position(|(p, s)| p == path && *s == site)
            .map(|i| i + 1)
    }

    /// Each group from group 1 on, with the body path of its part, or
    /// `None` for a group of a typed rule read in the same walk
    /// ([`Groups::nested`]).
    pub fn paths(&self) -> impl Iterator<Item = (usize, Option<&[usize]>)> {
        self.sites
            .iter()
            .enumerate()
            .map(|(i, (p, s))| (i + 1, (*s != Site::Nested).then_some(p.as_slice())))
    }

    /// How many groups there are, group 0 included.
    pub fn count(&self) -> usize {
        self.sites.len() + 1
    }
}

/// Which rules are typed, and their shapes.
#[derive(Clone, Debug, Default)]
pub struct TypeModel {
    /// Typed rules, in grammar order.
    pub types: Vec<RuleType>,
    index: HashMap<RuleId, usize>,
}

impl TypeModel {
    /// The type of a rule, if it has one.
    pub fn get(&self, rule: RuleId) -> Option<&RuleType> {
        self.index.get(&rule).map(|&i| &self.types[i])
    }

    /// Whether the rule has a type.
    pub fn is_typed(&self, rule: RuleId) -> bool {
        self.index.contains_key(&rule)
    }
}

/// Finite-language analysis: `Some(max length)` when every string of the
/// rule's language is at most that long.
pub struct Finite<'g> {
    g: &'g Grammar,
    memo: HashMap<RuleId, Option<u64>>,
}

impl<'g> Finite<'g> {
    /// For `g`.
    pub fn new(g: &'g Grammar) -> Finite<'g> {
        Finite {
            g,
            memo: HashMap::new(),
        }
    }

    /// Longest match of a rule, if bounded.
    pub fn rule(&mut self, id: RuleId) -> Option<u64> {
        if let Some(v) = self.memo.get(&id) {
            return *v;
        }
        // A rule met again while computing it is recursive: unbounded.
        self.memo.insert(id, None);
        let v = self.expr(&self.g.rule(id).expr.clone());
        self.memo.insert(id, v);
        v
    }

    fn expr(&mut self, e: &Expr) -> Option<u64> {
        match e {
            Expr::Alt(es) => es.iter().try_fold(0, |m, e| Some(m.max(self.expr(e)?))),
            Expr::Concat(es) => es.iter().try_fold(0u64, |m, e| m.checked_add(self.expr(e)?)),
            Expr::Repeat { max, expr, .. } => match max {
                Some(0) => Some(0),
                Some(n) => self.expr(expr)?.checked_mul(u64::from(*n)),
                None => match self.expr(expr)? {
                    0 => Some(0),
                    _ => None,
                },
            },
            Expr::Ref(id, _) => self.rule(*id),
            Expr::Str { text, .. } => Some(text.chars().count() as u64),
            Expr::Range(..) => Some(1),
        }
    }
}

/// Which rules are tokens: rules with a finite language (`IPv4address`,
/// `h16`, `pct-encoded`), whose text is what users want, whatever their
/// structure. Below rules that the user exported by name there are no
/// tokens: a user who asks for RFC 3339's `date-time` wants its parts.
struct Tokens<'g> {
    finite: Finite<'g>,
    /// Rules under an explicitly exported rule (or one itself).
    asked: Vec<bool>,
}

impl<'g> Tokens<'g> {
    fn new(g: &'g Grammar, roots: &[RuleId], explicit: bool) -> Tokens<'g> {
        let mut asked = vec![false; g.rules.len()];
        if explicit {
            asked = crate::grammar::reachable(g, roots);
            for id in roots {
                asked[id.0 as usize] = true;
            }
        }
        Tokens {
            finite: Finite::new(g),
            asked,
        }
    }

    fn is_token(&mut self, id: RuleId) -> bool {
        !self.asked[id.0 as usize] && self.finite.rule(id).is_some()
    }

    /// How many alternatives of an alternation must refer to rules for it
    /// to count as structure: below an exported rule one is enough
    /// (`time-offset = "Z" / time-numoffset`).
    fn alts_needed(&self, id: RuleId) -> usize {
        if self.asked[id.0 as usize] {
            1
        } else {
            2
        }
    }
}

/// The rules of `roots` that no other rule reachable from them refers to:
/// a file's top rules when every rule is exported.
pub fn top_rules(g: &Grammar, roots: &[RuleId]) -> Vec<RuleId> {
    let reach = crate::grammar::reachable(g, roots);
    let mut referenced = vec![false; g.rules.len()];
    for (i, r) in g.rules.iter().enumerate().filter(|(i, _)| reach[*i]) {
        r.expr.for_each_ref(&mut |d, _| {
            if d.0 as usize != i {
                referenced[d.0 as usize] = true;
            }
        });
    }
    roots
        .iter()
        .copied()
        .filter(|id| !referenced[id.0 as usize])
        .collect()
}

/// Builds the AST model for the rules reachable from `roots`.
///
/// `forced` rules are typed whenever they have a shape; `leaves` never are.
/// The top rules of `roots` ([`top_rules`]) are typed when they have a part
/// to show. `explicit` says that the user named `roots`: the rules below
/// them are then typed whatever their language (no tokens).
pub fn model(
    g: &Grammar,
    roots: &[RuleId],
    explicit: bool,
    forced: &BTreeSet<RuleId>,
    leaves: &BTreeSet<RuleId>,
) -> TypeModel {
    let mut tokens = Tokens::new(g, roots, explicit);
    let tops = top_rules(g, roots);
    let reach = crate::grammar::reachable(g, roots);
    let mut typed = Vec::new();
    for (i, rule) in g.rules.iter().enumerate() {
        let id = RuleId(i as u32);
        if !reach[i] || rule.module.0 == 0 || leaves.contains(&id) {
            continue;
        }
        let alts = tokens.alts_needed(id);
        let top = tops.contains(&id) && has_part(g, &rule.expr);
        if forced.contains(&id)
            || top
            || (!tokens.is_token(id) && has_structure(g, &mut tokens, &rule.expr, alts))
        {
            typed.push(id);
        }
    }
    let mut out = TypeModel::default();
    // Type names, and the `{Name}Kind` enum each enum type brings.
    let mut type_names = Names::default();
    for id in typed {
        let Some(mut shape) = shape(g, &g.rule(id).expr) else {
            continue;
        };
        let name = if matches!(shape, Shape::Enum(_)) {
            type_names.unique_with(camel(&g.rule(id).name), &["Kind"])
        } else {
            type_names.unique(camel(&g.rule(id).name))
        };
        name_items(&name, &mut shape, &mut type_names);
        out.index.insert(id, out.types.len());
        out.types.push(RuleType {
            rule: id,
            name,
            shape,
        });
    }
    out
}

/// Names the item types of the lists of `shape` (a type named `owner`):
/// `{owner}Item` when it has one such list, else `{owner}{Field}Item`; then
/// the item types' own lists, below them.
fn name_items(owner: &str, shape: &mut Shape, type_names: &mut Names) {
    let mut pending: Vec<(String, &mut Shape)> = vec![(owner.to_string(), shape)];
    while let Some((owner, shape)) = pending.pop() {
        let fields: Vec<&mut Field> = match shape {
            Shape::Struct(fs) => fs.iter_mut().collect(),
            Shape::Enum(vs) => vs.iter_mut().flat_map(|v| v.fields.iter_mut()).collect(),
            Shape::List(f) => vec![f],
        };
        let lists: Vec<&mut Field> = fields.into_iter().filter(|f| f.item.is_some()).collect();
        let single = lists.len() == 1;
        for f in lists {
            let base = if single {
                format!("{owner}Item")
            } else {
                format!("{owner}{}Item", camel(&f.name))
            };
            let Some(item) = f.item.as_deref_mut() else {
                continue;
            };
            item.name = if matches!(item.shape, Shape::Enum(_)) {
                type_names.unique_with(base, &["Kind"])
            } else {
                type_names.unique(base)
            };
            pending.push((item.name.clone(), &mut item.shape));
        }
    }
}

/// Every list field of `shape`, below item types too, with its key: its
/// path, then for a field of an item type `usize::MAX` and its path in the
/// element (the key of [`crate::compile`]'s element automata).
pub fn lists(shape: &Shape) -> Vec<(Vec<usize>, &Field)> {
    let mut out = Vec::new();
    let mut pending: Vec<(Option<Vec<usize>>, &Shape)> = vec![(None, shape)];
    while let Some((prefix, shape)) = pending.pop() {
        for f in shape_fields(shape) {
            if f.card != Card::Many {
                continue;
            }
            let mut key = prefix.clone().unwrap_or_default();
            if prefix.is_some() {
                key.push(usize::MAX);
            }
            key.extend(&f.path);
            if let Some(item) = &f.item {
                pending.push((Some(key.clone()), &item.shape));
            }
            out.push((key, f));
        }
    }
    out
}

/// The fields of a shape (of every variant, for an enum).
pub fn shape_fields(shape: &Shape) -> Vec<&Field> {
    match shape {
        Shape::Struct(fs) => fs.iter().collect(),
        Shape::Enum(vs) => vs.iter().flat_map(|v| &v.fields).collect(),
        Shape::List(f) => vec![f],
    }
}

/// A rule reference that counts as structure: not a core rule, not a token.
fn structural_ref(g: &Grammar, tokens: &mut Tokens<'_>, e: &Expr) -> bool {
    match e {
        Expr::Ref(id, _) => g.rule(*id).module.0 != 0 && !tokens.is_token(*id),
        _ => false,
    }
}

/// `"[" ( a / b ) "]"`: an alternation framed by terminals counts as the
/// alternation; returns it with its index in the concatenation.
pub(crate) fn framed_alt(body: &Expr) -> Option<(usize, &[Expr])> {
    let Expr::Concat(items) = body else { return None };
    let mut alt = None;
    for (i, item) in items.iter().enumerate() {
        match item {
            Expr::Str { .. } | Expr::Range(..) => {}
            Expr::Alt(alts) if alt.is_none() => alt = Some((i, alts.as_slice())),
            _ => return None,
        }
    }
    alt
}

fn has_structure(g: &Grammar, tokens: &mut Tokens<'_>, body: &Expr, alts_needed: usize) -> bool {
    if let Some((_, alts)) = framed_alt(body) {
        return has_structure(g, tokens, &Expr::Alt(alts.to_vec()), alts_needed);
    }
    match body {
        Expr::Alt(alts) => {
            alts.len() >= 2
                && alts
                    .iter()
                    .filter(|a| {
                        let mut any = false;
                        a.for_each_ref(&mut |id, _| any |= g.rule(id).module.0 != 0);
                        any
                    })
                    .count()
                    >= alts_needed
        }
        Expr::Concat(items) => {
            items
                .iter()
                .filter(|item| match item {
                    Expr::Ref(..) => structural_ref(g, tokens, item),
                    Expr::Repeat { expr, .. } => holds_rule(g, expr),
                    Expr::Alt(_) | Expr::Concat(_) => holds_rule(g, item),
                    _ => false,
                })
                .count()
                >= 2
        }
        // A repetition of a group that holds a rule (`*( "/" segment )`),
        // of a rule with structure (`*( param-item )`), or of a choice of
        // such rules.
        Expr::Repeat { max, expr, .. } => {
            *max != Some(1)
                && match &**expr {
                    Expr::Concat(_) => holds_rule(g, expr),
                    Expr::Ref(..) => structural_ref(g, tokens, expr),
                    Expr::Alt(alts) => alts.iter().any(|a| structural_ref(g, tokens, a)),
                    _ => false,
                }
        }
        _ => false,
    }
}

/// Whether a rule body has a part a type would show: a (non-core) rule, or
/// a choice between alternatives.
fn has_part(g: &Grammar, body: &Expr) -> bool {
    matches!(body, Expr::Alt(alts) if alts.len() >= 2) || holds_rule(g, body) || {
        let mut any = false;
        body.for_each_ref(&mut |id, _| any |= g.rule(id).module.0 != 0);
        any
    }
}

/// Whether a group holds a (non-core) rule as one of its direct parts.
fn holds_rule(g: &Grammar, e: &Expr) -> bool {
    match e {
        Expr::Ref(id, _) => g.rule(*id).module.0 != 0,
        Expr::Concat(items) | Expr::Alt(items) => items.iter().any(|i| holds_rule(g, i)),
        Expr::Repeat {
            max: Some(1), expr, ..
        } => holds_rule(g, expr),
        _ => false,
    }
}

fn shape(g: &Grammar, body: &Expr) -> Option<Shape> {
    shape_in(g, body, true)
}

/// The shape of a rule body (`top`) or of a list's element (never a list
/// itself: its repetitions are fields).
fn shape_in(g: &Grammar, body: &Expr, top: bool) -> Option<Shape> {
    let (prefix, alts) = match (framed_alt(body), body) {
        (Some((i, alts)), _) => (vec![i], Some(alts)),
        (None, Expr::Alt(alts)) => (vec![], Some(alts.as_slice())),
        _ => (vec![], None),
    };
    if let Some(alts) = alts {
        let mut names = Names::default();
        let variants = alts
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let mut path = prefix.clone();
                path.push(i);
                let mut fields = Vec::new();
                fields_of(
                    g,
                    a,
                    Card::One,
                    &mut Names::default(),
                    &mut path.clone(),
                    None,
                    &mut fields,
                );
                // The rule it holds, else its leading literal (`"COUNT" "="
                // 1*DIGIT` is `Count`), else the name of its one part.
                let base = match a {
                    Expr::Ref(id, _) => camel(&g.rule(*id).name),
                    _ => fields
                        .first()
                        .and_then(|f| f.rule)
                        .map(|rule| camel(&g.rule(rule).name))
                        .or_else(|| literal_name(leading_literal(a)?))
                        .or_else(|| fields.first().map(|f| camel(&f.name)))
                        .unwrap_or_else(|| format!("Alt{}", i + 1)),
                };
                Variant {
                    name: names.unique(base),
                    fields,
                    path,
                }
            })
            .collect();
        return Some(Shape::Enum(variants));
    }
    match body {
        Expr::Repeat { max, expr, .. } if top && *max != Some(1) => {
            first_rule(g, expr)?;
            Some(Shape::List(list_field(
                g,
                expr,
                Vec::new(),
                &mut Names::default(),
            )?))
        }
        _ => {
            let mut fields = Vec::new();
            fields_of(
                g,
                body,
                Card::One,
                &mut Names::default(),
                &mut Vec::new(),
                None,
                &mut fields,
            );
            Some(Shape::Struct(fields))
        }
    }
}

/// The list field of a repetition of `element` at `path`: items that are
/// one rule (`*( "/" isegment )`: `isegments`, each an `isegment`), or an
/// item type for a choice (`*( qdtext / quoted-pair )`) or a group of
/// several parts (`*( OWS ";" OWS [ parameter ] )`). `None` when the
/// element has no part.
fn list_field(g: &Grammar, element: &Expr, path: Vec<usize>, names: &mut Names) -> Option<Field> {
    // Items are never empty, so `*[ x ]` is `*( x )`.
    let mut element = element;
    while let Expr::Repeat {
        min: 0,
        max: Some(1),
        expr,
    } = element
    {
        element = expr;
    }
    let item = shape_in(g, element, false)?;
    let base = match &item {
        Shape::Struct(fs) => match fs.as_slice() {
            [] => return None,
            [f] if f.card != Card::Many && f.rule.is_some() && always_holds(element, &f.path) => {
                let rule = f.rule?;
                return Some(Field {
                    name: names.unique(snake(&format!("{}s", g.rule(rule).name))),
                    rule: Some(rule),
                    card: Card::Many,
                    element: Some(element.clone()),
                    path,
                    item: None,
                });
            }
            // Named after the last rule of the group: groups lead with
            // their separators (`*( "," OWS element )`).
            fs => fs
                .iter()
                .rev()
                .find(|f| f.rule.is_some() && f.card != Card::Many)
                .map_or_else(|| "items".to_string(), |f| format!("{}s", f.name)),
        },
        // Named after the rules it chooses between (the literals are
        // separators, signs): `qdtext_or_quoted_pairs`, `alphadigits`.
        Shape::Enum(vs) => {
            let names: Vec<&str> = vs
                .iter()
                .filter(|v| v.fields.iter().any(|f| f.rule.is_some()))
                .map(|v| v.name.as_str())
                .collect();
            match names.len() {
                1..=3 => format!("{}s", names.join("-or-")),
                _ => "items".to_string(),
            }
        }
        Shape::List(_) => "items".to_string(),
    };
    Some(Field {
        name: names.unique(snake(&base)),
        rule: None,
        card: Card::Many,
        element: Some(element.clone()),
        path,
        item: Some(Box::new(ItemType {
            name: String::new(),
            shape: item,
        })),
    })
}

/// Whether every non-empty match of `element` holds the part at `path`
/// (`"/" segment`, `[ "/" segment ]`; not `[ a ] ";"`): then a list of it is
/// a list of that part.
fn always_holds(element: &Expr, path: &[usize]) -> bool {
    let mut e = element;
    for &i in path {
        e = match e {
            Expr::Concat(items) => &items[i],
            Expr::Repeat {
                min: 1,
                max: Some(1),
                expr,
            } => expr,
            // The optional group that holds the part: the rest of the
            // element must then match only the empty string.
            Expr::Repeat {
                min: 0, max: Some(1), ..
            } => return only_empty_without(element, e),
            _ => return false,
        };
    }
    true
}

/// Whether `e`, with `hole` (a sub-expression of it) matching only the
/// empty string, matches only the empty string.
fn only_empty_without(e: &Expr, hole: &Expr) -> bool {
    if std::ptr::eq(e, hole) {
        return true;
    }
    match e {
        Expr::Str { text, .. } => text.is_empty(),
        Expr::Concat(es) | Expr::Alt(es) => es.iter().all(|e| only_empty_without(e, hole)),
        Expr::Repeat { max: Some(0), .. } => true,
        Expr::Repeat { expr, .. } => only_empty_without(expr, hole),
        Expr::Ref(..) | Expr::Range(..) => false,
    }
}

/// The literal a concatenation starts with (or the literal itself).
fn leading_literal(e: &Expr) -> Option<&Expr> {
    match e {
        Expr::Str { .. } => Some(e),
        Expr::Concat(items) => items.first().filter(|i| matches!(i, Expr::Str { .. })),
        _ => None,
    }
}

/// A literal that is a word (`"COUNT"`, `"max-age"`), as a field name.
fn keyword(e: &Expr) -> Option<String> {
    let Expr::Str { text, .. } = e else { return None };
    (text.chars().any(|c| c.is_ascii_alphabetic())
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'))
    .then(|| snake(text))
}

/// The field name of an anonymous repetition without a keyword before it:
/// the core rules it repeats (`1*DIGIT` → `digits`, `*( ALPHA / DIGIT )`
/// → `alpha_or_digits`), else `text`.
fn repetition_name(g: &Grammar, e: &Expr) -> String {
    let mut names: Vec<String> = Vec::new();
    let mut other = false;
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match e {
            Expr::Ref(id, _) => {
                let n = g.rule(*id).name.clone();
                if !names.contains(&n) {
                    names.push(n);
                }
            }
            Expr::Alt(es) => stack.extend(es.iter().rev()),
            Expr::Repeat { expr, .. } => stack.push(expr),
            _ => other = true,
        }
    }
    if other || names.is_empty() || names.len() > 2 {
        // `text_`: every node has a `text` field of its own.
        return snake("text");
    }
    snake(&format!("{}s", names.join("-or-")))
}

/// A variant name for an alternative that is a literal: its letters and
/// digits (`"Z"` → `Z`, `"http"` → `Http`), or its punctuation by name
/// (`"+"` → `Plus`, `"::"` → `ColonColon`).
fn literal_name(e: &Expr) -> Option<String> {
    let Expr::Str { text, .. } = e else { return None };
    if text.is_empty() {
        return Some("Empty".into());
    }
    if text.chars().any(|c| c.is_ascii_alphanumeric())
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        let name = camel(text);
        return Some(if name.starts_with(|c: char| c.is_ascii_digit()) {
            format!("N{name}")
        } else {
            name
        });
    }
    let mut name = String::new();
    for c in text.chars() {
        let word = match c {
            '+' => "Plus",
            '-' => "Minus",
            '.' => "Dot",
            ',' => "Comma",
            ':' => "Colon",
            ';' => "Semicolon",
            '/' => "Slash",
            '\\' => "Backslash",
            '*' => "Star",
            '=' => "Equals",
            '!' => "Bang",
            '?' => "Question",
            '#' => "Hash",
            '$' => "Dollar",
            '%' => "Percent",
            '&' => "Amp",
            '@' => "At",
            '^' => "Caret",
            '~' => "Tilde",
            '|' => "Bar",
            '<' => "Lt",
            '>' => "Gt",
            '(' => "LParen",
            ')' => "RParen",
            '[' => "LBracket",
            ']' => "RBracket",
            '{' => "LBrace",
            '}' => "RBrace",
            '\'' => "Quote",
            '"' => "DQuote",
            '`' => "Backtick",
            '_' => "Underscore",
            ' ' => "Space",
            c if c.is_ascii_alphanumeric() => {
                name.push(c.to_ascii_uppercase());
                continue;
            }
            _ => return None,
        };
        name.push_str(word);
    }
    Some(name)
}

/// The field name of a choice between literals: the literals' names joined
/// by `or` (`"+" / "-"` → `plus_or_minus`, `"T" / "t"` → `t_or_t`), or
/// `choice` when there are more than three or one has no name.
fn choice_name(alts: &[Expr]) -> String {
    let names: Option<Vec<String>> = alts.iter().map(literal_name).collect();
    match names {
        Some(names) if names.len() <= 3 => snake(&names.join("-or-")),
        _ => "choice".into(),
    }
}

/// The expression at `path` in a rule body (see [`Field::path`]).
pub fn expr_at<'e>(body: &'e Expr, path: &[usize]) -> Option<&'e Expr> {
    path.iter().try_fold(body, |e, &i| match e {
        Expr::Alt(es) | Expr::Concat(es) => es.get(i),
        Expr::Repeat { expr, .. } if i == 0 => Some(&**expr),
        _ => None,
    })
}

fn first_rule(g: &Grammar, e: &Expr) -> Option<RuleId> {
    let mut found = None;
    e.for_each_ref(&mut |id, _| {
        if found.is_none() && g.rule(id).module.0 != 0 {
            found = Some(id);
        }
    });
    found
}

/// Collects the fields of a concatenation-like expression; `path` is where
/// `e` is in the rule body; `hint` names an anonymous repetition at `e`
/// (the keyword before it: `"COUNT" "=" 1*DIGIT` gives `count`).
fn fields_of(
    g: &Grammar,
    e: &Expr,
    card: Card,
    names: &mut Names,
    path: &mut Vec<usize>,
    hint: Option<String>,
    out: &mut Vec<Field>,
) {
    match e {
        Expr::Ref(id, _) if g.rule(*id).module.0 != 0 => out.push(Field {
            name: names.unique(snake(&g.rule(*id).name)),
            rule: Some(*id),
            card,
            element: None,
            path: path.clone(),
            item: None,
        }),
        Expr::Concat(items) => {
            let mut keyword_before = None;
            for (i, item) in items.iter().enumerate() {
                path.push(i);
                let hint = match item {
                    Expr::Str { .. } => None,
                    _ => keyword_before.take().or_else(|| hint.clone()),
                };
                fields_of(g, item, card, names, path, hint, out);
                path.pop();
                if let Some(k) = keyword(item) {
                    keyword_before = Some(k);
                }
            }
        }
        Expr::Repeat {
            min,
            max: Some(1),
            expr,
        } if *min <= 1 => {
            let card = if *min == 0 { Card::Optional } else { card };
            path.push(0);
            fields_of(g, expr, card, names, path, hint, out);
            path.pop();
        }
        Expr::Repeat { expr, .. } if holds_rule(g, expr) => {
            if let Some(mut f) = list_field(g, expr, path.clone(), names) {
                // A list in an optional group is an empty list when absent.
                f.card = Card::Many;
                out.push(f);
            }
        }
        // An anonymous repetition (`1*DIGIT`): its text, named from the
        // keyword before it or from what it repeats.
        Expr::Repeat { expr, .. } if first_rule(g, expr).is_none() => out.push(Field {
            name: names.unique(hint.unwrap_or_else(|| repetition_name(g, expr))),
            rule: None,
            card,
            element: None,
            path: path.clone(),
            item: None,
        }),
        // A choice between literals, such as the sign of RFC 3339's
        // `time-numoffset = ("+" / "-") time-hour ":" time-minute`: one field
        // with the matched text, named from the literals.
        Expr::Alt(alts) if alts.iter().all(|a| matches!(a, Expr::Str { .. })) => out.push(Field {
            name: names.unique(match (choice_name(alts), hint) {
                (c, Some(h)) if c == "choice" => h,
                (c, _) => c,
            }),
            rule: None,
            card,
            element: None,
            path: path.clone(),
            item: None,
        }),
        // A group of alternatives inside a concatenation, such as RFC
        // 2396's `( hier_part | opaque_part )`: the rules of each alternative
        // become optional fields (one alternative matches).
        Expr::Alt(alts) => {
            for (i, alt) in alts.iter().enumerate() {
                path.push(i);
                fields_of(g, alt, Card::Optional, names, path, None, out);
                path.pop();
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_names() {
        let lit = |t: &str| Expr::Str {
            text: t.into(),
            case_sensitive: false,
        };
        assert_eq!(literal_name(&lit("-")).as_deref(), Some("Minus"));
        assert_eq!(literal_name(&lit("x-y")).as_deref(), Some("XY"));
        assert_eq!(literal_name(&lit("::")).as_deref(), Some("ColonColon"));
        assert_eq!(choice_name(&[lit("+"), lit("-")]), "plus_or_minus");
        assert_eq!(choice_name(&[lit("a"), lit("b"), lit("c"), lit("d")]), "choice");
    }
}
