//! The typed trees of a [`Compiled`] grammar, built in memory: what the
//! generated `ast` types hold, for any grammar, without compiling Rust.
//!
//! [`Trees::parse`] walks the same tagged DFAs and element automata the
//! generated code embeds, with the same runtime walks
//! ([`abnf_runtime::TaggedDfa::run`] for a node, `TaggedDfa::__item` for
//! each list item) and the same choices (the first variant whose group
//! is set, a typed field read from its parent's tags or parsed again over
//! its span, a list cut by offset or that ends at the
//! first element that does not match), so a property test over it covers
//! what ships. The tree is an arena built with an explicit work list: no
//! recursion, whatever the input. [`check`] verifies what every tree must
//! satisfy: spans inside the input and inside their parent, the parts of a
//! concatenation in order, a list's elements tiling its span, each part's
//! text matching its rule.
//!
//! ```
//! let mut config = abnf_codegen::Config::new();
//! config.spec_source(
//!     "qs.abnf",
//!     "quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE\n\
//!      qdtext = %x20-21 / %x23-5B / %x5D-7E\n\
//!      quoted-pair = \"\\\" %x20-7E\n",
//! );
//! let compiled = config.build()?;
//! let trees = compiled.trees("qs").expect("a spec of the build");
//! let m = compiled.grammar.module_by_name("qs").expect("a spec");
//! let rule = compiled.grammar.module(m).get("quoted-string").expect("defined");
//! let input = br#""a\"b""#;
//! let tree = trees.parse(rule, input)?;
//! abnf_codegen::tree::check(&compiled.grammar, &tree, input)?;
//! let list = &tree.nodes[tree.nodes[0].children[0]];
//! assert_eq!(list.children.len(), 3); // `a`, `\"`, `b`
//! Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashMap;
use std::fmt;

use abnf_runtime::{Hole, Span};

use crate::compile::Compiled;
use crate::grammar::{Grammar, ModuleId, RuleId};
use crate::typed::{Card, Field, Groups, Shape, TypeModel};
use crate::wire::WireBytes;

/// A typed tree: node 0 is the root.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    /// The nodes, parents before their children.
    pub nodes: Vec<Node>,
}

/// One node: a typed rule's or an item's node, a variant, a leaf or a list.
#[derive(Clone, Debug)]
pub struct Node {
    /// The Rust name: the type's for the root and list items, else the
    /// field's (or the variant's).
    pub name: String,
    /// Where it is in the input; `None` for a part whose group was not set
    /// (a list in a group that did not match: the generated list is empty).
    pub span: Option<Span>,
    /// What it is.
    pub kind: NodeKind,
    /// Its parent.
    pub parent: Option<usize>,
    /// Its children, in order.
    pub children: Vec<usize>,
}

/// What a [`Node`] is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// A typed rule's node (`rule`), or a list item's (`rule` is `None`):
    /// its children are its fields (or its one variant).
    Typed {
        /// The rule, for a typed rule's node.
        rule: Option<RuleId>,
        /// An enum (its one child is the variant that matched).
        is_enum: bool,
    },
    /// The variant of an enum that matched; its children are its fields.
    Variant,
    /// A part's text: of a rule without a type, or of literals or an
    /// anonymous repetition (`rule` is `None`).
    Leaf {
        /// The rule it matched.
        rule: Option<RuleId>,
    },
    /// A list: its children are its items; `elements` are the spans of
    /// the element matches that hold them (an item that is one rule lies
    /// inside its element, an item type is its element).
    List {
        /// Each element's span, in order.
        elements: Vec<Span>,
    },
}

/// Why no tree was built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TreeError {
    /// The input does not match the rule: where matching stopped.
    NoMatch(usize),
    /// A part that its parent matched does not match its own rule, or no
    /// variant's group is set: where the generated code panics
    /// (`abnf_runtime::__private::inconsistent`), a generator bug.
    Inconsistent(String),
    /// The rule has no type in this grammar.
    NotTyped,
}

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TreeError::NoMatch(at) => write!(f, "the input does not match (at byte {at})"),
            TreeError::Inconsistent(why) => write!(f, "the generated code would panic: {why}"),
            TreeError::NotTyped => f.write_str("the rule has no type"),
        }
    }
}

impl std::error::Error for TreeError {}

/// The typed trees of one grammar (root module) of a [`Compiled`].
pub struct Trees<'c> {
    compiled: &'c Compiled,
    module: ModuleId,
    model: &'c TypeModel,
    octets: bool,
    wires: HashMap<RuleId, WireBytes>,
    elements: HashMap<(RuleId, Vec<usize>), WireBytes>,
}

impl Compiled {
    /// The typed trees of spec `grammar`, if it is one of the build's spec
    /// files and typed trees are on.
    pub fn trees(&self, grammar: &str) -> Option<Trees<'_>> {
        let m = self.grammar.module_by_name(grammar)?;
        let (_, model) = self.typed.models.iter().find(|(mm, _)| *mm == m)?;
        let mut wires = HashMap::new();
        let mut elements = HashMap::new();
        for ty in &model.types {
            let Some(d) = self.typed.tdfas.get(&ty.rule) else {
                continue;
            };
            wires.insert(ty.rule, d.dfa.wire()?);
            for (key, _) in crate::typed::lists(&ty.shape) {
                if let Some(e) = self.typed.elements.get(&(ty.rule, key.clone())) {
                    elements.insert((ty.rule, key), e.dfa.wire()?);
                }
            }
        }
        Some(Trees {
            compiled: self,
            module: m,
            model,
            octets: self.grammar.octets.contains(&m),
            wires,
            elements,
        })
    }
}

/// Work left while building a tree.
enum Task<'c> {
    /// Parse typed rule `rule` over `span` into node `node`.
    Rule { rule: RuleId, span: Span, node: usize },
    /// Fill node `node` with the parts of `shape` from `tags` (groups
    /// `groups`): `rule` owns the shape, `prefix` is the key of the list
    /// whose item it is.
    Fill {
        rule: RuleId,
        shape: &'c Shape,
        groups: &'c Groups,
        tags: Vec<usize>,
        prefix: Option<Vec<usize>>,
        node: usize,
        /// The holes of the rule's derivation, for a rule with a stack.
        holes: Vec<Hole>,
    },
}

impl<'c> Trees<'c> {
    /// The typed rules of the grammar, with their type names.
    pub fn typed_rules(&self) -> Vec<(RuleId, &'c str)> {
        self.model
            .types
            .iter()
            .filter(|t| self.wires.contains_key(&t.rule))
            .map(|t| (t.rule, t.name.as_str()))
            .collect()
    }

    /// Whether the trees read bytes (`@terminals octets`), not text.
    pub fn octets(&self) -> bool {
        self.octets
    }

    /// The tree of all of `input` as typed rule `rule`, as the generated
    /// `parse` builds it (a list's items as iterating it gives them).
    pub fn parse(&self, rule: RuleId, input: &[u8]) -> Result<Tree, TreeError> {
        let ty = self.model.get(rule).ok_or(TreeError::NotTyped)?;
        let mut tree = Tree::default();
        tree.nodes.push(Node {
            name: ty.name.clone(),
            span: None,
            kind: NodeKind::Typed {
                rule: Some(rule),
                is_enum: matches!(ty.shape, Shape::Enum(_)),
            },
            parent: None,
            children: Vec::new(),
        });
        let span = Span {
            start: 0,
            end: input.len(),
        };
        let mut work = vec![Task::Rule { rule, span, node: 0 }];
        let mut top = true;
        while let Some(task) = work.pop() {
            match task {
                Task::Rule { rule, span, node } => {
                    let ty = self.model.get(rule).ok_or(TreeError::NotTyped)?;
                    let d = &self.compiled.typed.tdfas[&rule];
                    let dfa = self.wires[&rule].tagged();
                    let mut tags = vec![usize::MAX; dfa.tags()];
                    // A rule with a stack: its derivation's calls, each read
                    // as its byte, as the generated parse does.
                    let tree_net = self.compiled.typed.tree_of(rule);
                    let holes = match tree_net {
                        None => Vec::new(),
                        Some(t) => {
                            let index = t.network.index_of(rule).expect("a typed rule of its network");
                            let limits = abnf_runtime::network::Limits::DEFAULT;
                            match t.wire.network().derive(index, &input[span.range()], limits) {
                                Ok(calls) => calls
                                    .iter()
                                    .map(|c| Hole {
                                        byte: t.bytes[&rule][c.rule as usize],
                                        start: span.start + c.start,
                                        end: span.start + c.end,
                                    })
                                    .collect(),
                                Err(f) if top => return Err(TreeError::NoMatch(span.start + f.offset)),
                                Err(f) => {
                                    return Err(TreeError::Inconsistent(format!(
                                        "`{}` has no derivation of {:?}, which its parent matched ({f:?})",
                                        self.compiled.grammar.rule(rule).name,
                                        span.range()
                                    )))
                                }
                            }
                        }
                    };
                    let run = if tree_net.is_some() {
                        dfa.run_holes(input, span.start, span.end, &holes, &mut tags)
                    } else {
                        dfa.run(input, span.start, span.end, &mut tags)
                    };
                    if let Err(at) = run {
                        return Err(if top {
                            TreeError::NoMatch(at)
                        } else {
                            TreeError::Inconsistent(format!(
                                "`{}` does not match {:?}, which its parent matched (stopped at {at})",
                                self.compiled.grammar.rule(rule).name,
                                span.range()
                            ))
                        });
                    }
                    top = false;
                    tree.nodes[node].span = Some(span);
                    work.push(Task::Fill {
                        rule,
                        shape: &ty.shape,
                        groups: &d.groups,
                        tags,
                        prefix: None,
                        node,
                        holes,
                    });
                }
                Task::Fill {
                    rule,
                    shape,
                    groups,
                    tags,
                    prefix,
                    node,
                    holes,
                } => {
                    let mut tasks = Vec::new();
                    let (fields, parent) = match shape {
                        Shape::Struct(fs) => (fs.iter().collect::<Vec<_>>(), node),
                        Shape::List(f) => (vec![f], node),
                        Shape::Enum(vs) => {
                            // An enum read off its byte: the first variant
                            // whose bytes hold it, over the node's span.
                            let by_byte = groups.byte_kinds().map(|kinds| {
                                let span = tree.nodes[node].span;
                                let byte = span.and_then(|s| input.get(s.start).copied());
                                let i = byte.and_then(|b| {
                                    kinds
                                        .iter()
                                        .position(|k| k.iter().any(|&(lo, hi)| (lo..=hi).contains(&b)))
                                });
                                (i, span)
                            });
                            let found = match by_byte {
                                Some((i, span)) => i.map(|i| (&vs[i], span)),
                                None => vs.iter().find_map(|v| {
                                    let g = groups.variant(&v.path)?;
                                    abnf_runtime::__private::group(&tags[..], g).map(|s| (v, Some(s)))
                                }),
                            };
                            let Some((v, span)) = found else {
                                return Err(TreeError::Inconsistent(format!(
                                    "no variant of `{}` matched",
                                    tree.nodes[node].name
                                )));
                            };
                            let child = add(&mut tree, node, v.name.clone(), span, NodeKind::Variant);
                            (v.fields.iter().collect(), child)
                        }
                    };
                    for f in fields {
                        self.field(
                            &mut tree,
                            &mut tasks,
                            input,
                            rule,
                            f,
                            groups,
                            &tags,
                            prefix.as_deref(),
                            parent,
                            &holes,
                        )?;
                    }
                    // Children first in order: the work list is a stack.
                    work.extend(tasks.into_iter().rev());
                }
            }
        }
        Ok(tree)
    }

    /// The task that fills node `node`, typed rule `rule` over `span`:
    /// from the enclosing automaton's tags when its group `g` is followed
    /// by the rule's groups (`nested`), as the generated code builds it,
    /// else by a walk of the rule's own automaton.
    fn typed_part(
        &self,
        tree: &mut Tree,
        rule: RuleId,
        span: Span,
        node: usize,
        nested: Option<(&[usize], usize)>,
    ) -> Result<Task<'c>, TreeError> {
        let Some((tags, g)) = nested else {
            return Ok(Task::Rule { rule, span, node });
        };
        tree.nodes[node].span = Some(span);
        Ok(Task::Fill {
            rule,
            shape: &self.model.get(rule).ok_or(TreeError::NotTyped)?.shape,
            groups: &self.compiled.typed.tdfas[&rule].groups,
            tags: abnf_runtime::__private::nested(tags, 2 * g).to_vec(),
            prefix: None,
            node,
            holes: Vec::new(),
        })
    }

    /// Adds field `f` of a shape to node `parent`.
    #[allow(clippy::too_many_arguments)]
    fn field(
        &self,
        tree: &mut Tree,
        tasks: &mut Vec<Task<'c>>,
        input: &[u8],
        rule: RuleId,
        f: &'c Field,
        groups: &'c Groups,
        tags: &[usize],
        prefix: Option<&[usize]>,
        parent: usize,
        holes: &[Hole],
    ) -> Result<(), TreeError> {
        // The part of an enum read off its byte is that byte: the span of
        // its variant's node, `parent`.
        let (group, span) = match groups.byte_kinds() {
            Some(_) => (None, tree.nodes[parent].span),
            None => {
                let g = groups
                    .field(&f.path)
                    .ok_or_else(|| TreeError::Inconsistent(format!("field `{}` has no group", f.name)))?;
                (Some(g), abnf_runtime::__private::group(tags, g))
            }
        };
        match f.card {
            Card::One | Card::Optional => {
                if f.card == Card::Optional && span.is_none() {
                    return Ok(());
                }
                match f.rule.filter(|&r| self.typed(r)) {
                    Some(r) => {
                        let node = add(
                            tree,
                            parent,
                            f.name.clone(),
                            None,
                            NodeKind::Typed {
                                rule: Some(r),
                                is_enum: matches!(self.model.get(r).map(|t| &t.shape), Some(Shape::Enum(_))),
                            },
                        );
                        // The generated code parses an unset group as 0..0.
                        let span = span.unwrap_or_default();
                        let nested = group.filter(|&g| groups.nests(g)).map(|g| (tags, g));
                        tasks.push(self.typed_part(tree, r, span, node, nested)?);
                    }
                    None => {
                        add(
                            tree,
                            parent,
                            f.name.clone(),
                            span,
                            NodeKind::Leaf { rule: f.rule },
                        );
                    }
                }
            }
            Card::Many => {
                let list = add(
                    tree,
                    parent,
                    f.name.clone(),
                    span,
                    NodeKind::List { elements: Vec::new() },
                );
                let key: Vec<usize> = match prefix {
                    Some(p) => p
                        .iter()
                        .copied()
                        .chain([usize::MAX])
                        .chain(f.path.iter().copied())
                        .collect(),
                    None => f.path.clone(),
                };
                let (Some(wire), Some(built)) = (
                    self.elements.get(&(rule, key.clone())),
                    self.compiled.typed.elements.get(&(rule, key.clone())),
                ) else {
                    return Err(TreeError::Inconsistent(format!(
                        "list `{}` has no element automaton",
                        f.name
                    )));
                };
                let dfa = wire.tagged();
                let Span { start, end } = span.unwrap_or_default();
                let mut pos = start;
                let mut elements = Vec::new();
                // As `List::next`: an item that does not match, or matches
                // nothing, ends the list.
                while pos < end {
                    let mut tags = vec![usize::MAX; dfa.tags()];
                    let item = if let Some((len, offsets)) = &built.fixed {
                        // Cut by offset, as the generated item function.
                        for (t, o) in tags.iter_mut().zip(offsets) {
                            *t = o.map_or(usize::MAX, |o| pos + o);
                        }
                        Some(pos + len).filter(|&next| next <= end)
                    } else if self.compiled.typed.tree_of(rule).is_some() {
                        dfa.__item_holes(input, pos, end, holes, &mut tags, built.exact)
                    } else {
                        dfa.__item(input, pos, end, &mut tags, built.exact)
                    };
                    let Some(next) = item.filter(|&n| n > pos) else {
                        break;
                    };
                    let element = Span {
                        start: pos,
                        end: next,
                    };
                    match (&f.item, f.rule) {
                        (Some(item), _) => {
                            let node = add(
                                tree,
                                list,
                                item.name.clone(),
                                Some(element),
                                NodeKind::Typed {
                                    rule: None,
                                    is_enum: matches!(item.shape, Shape::Enum(_)),
                                },
                            );
                            tasks.push(Task::Fill {
                                rule,
                                shape: &item.shape,
                                groups: &built.groups,
                                tags,
                                prefix: Some(key.clone()),
                                node,
                                holes: holes.to_vec(),
                            });
                        }
                        (None, Some(r)) => {
                            // The generated item function ends the list when
                            // the item's group is not set.
                            let Some(s) = abnf_runtime::__private::group(&tags[..], 1) else {
                                break;
                            };
                            if self.typed(r) {
                                let node = add(
                                    tree,
                                    list,
                                    f.name.clone(),
                                    None,
                                    NodeKind::Typed {
                                        rule: Some(r),
                                        is_enum: matches!(
                                            self.model.get(r).map(|t| &t.shape),
                                            Some(Shape::Enum(_))
                                        ),
                                    },
                                );
                                let nested = built.groups.nests(1).then_some((&tags[..], 1));
                                tasks.push(self.typed_part(tree, r, s, node, nested)?);
                            } else {
                                add(
                                    tree,
                                    list,
                                    f.name.clone(),
                                    Some(s),
                                    NodeKind::Leaf { rule: Some(r) },
                                );
                            }
                        }
                        (None, None) => break,
                    }
                    elements.push(element);
                    pos = next;
                }
                tree.nodes[list].kind = NodeKind::List { elements };
            }
        }
        Ok(())
    }

    /// Whether a field holding `rule` is a typed node here (as
    /// `Compiled::ast_emit` decides: a rule of a spec that reads the other
    /// input type is its text).
    fn typed(&self, rule: RuleId) -> bool {
        let g = &self.compiled.grammar;
        let home = g.rule(rule).module;
        self.model.get(rule).is_some()
            && (home == self.module || g.octets.contains(&home) == self.octets)
            && self.wires.contains_key(&rule)
    }
}

fn add(tree: &mut Tree, parent: usize, name: String, span: Option<Span>, kind: NodeKind) -> usize {
    tree.nodes.push(Node {
        name,
        span,
        kind,
        parent: Some(parent),
        children: Vec::new(),
    });
    let id = tree.nodes.len() - 1;
    tree.nodes[parent].children.push(id);
    id
}

/// The longest part [`check`] matches with the reference matcher, which
/// takes seconds on parts of kilobytes of the large IMAP rules (a sampled
/// `body-type-mpart` of 4 KB: 24 s); longer parts are checked by their
/// structure, and their parts by the matcher.
pub const ORACLE_MAX: usize = 512;

/// Checks what every typed tree of `input` must satisfy, node by node (no
/// recursion): each span lies in the input and in its parent's span; a
/// required part is present; the parts of a node (its fields, or its
/// variant's) lie in order without overlapping; a list's elements tile its
/// span, each item inside its element; each part that is a rule matches
/// that rule (by the reference matcher, [`crate::oracle::Oracle`]), when it
/// is at most [`ORACLE_MAX`] bytes long.
pub fn check(g: &Grammar, tree: &Tree, input: &[u8]) -> Result<(), String> {
    let oracle = crate::oracle::Oracle::new(g);
    let octets = tree
        .nodes
        .first()
        .and_then(|n| match n.kind {
            NodeKind::Typed { rule: Some(r), .. } => Some(g.octets.contains(&g.rule(r).module)),
            _ => None,
        })
        .unwrap_or(false);
    let text = |s: Span| String::from_utf8_lossy(&input[s.range()]).into_owned();
    for (i, n) in tree.nodes.iter().enumerate() {
        let here = || format!("node {i} `{}` ({:?})", n.name, n.kind);
        let Some(span) = n.span else {
            if !matches!(n.kind, NodeKind::List { .. }) {
                return Err(format!("{}: a required part has no span", here()));
            }
            continue;
        };
        if span.start > span.end || span.end > input.len() {
            return Err(format!(
                "{}: span {:?} is not in the input ({} bytes)",
                here(),
                span.range(),
                input.len()
            ));
        }
        if let Some(p) = n.parent.and_then(|p| tree.nodes[p].span) {
            if span.start < p.start || span.end > p.end {
                return Err(format!(
                    "{}: span {:?} is outside its parent's {:?}",
                    here(),
                    span.range(),
                    p.range()
                ));
            }
        }
        match &n.kind {
            NodeKind::Typed { rule: Some(r), .. } | NodeKind::Leaf { rule: Some(r) }
                if span.len() <= ORACLE_MAX =>
            {
                let part = &input[span.range()];
                let ok = if octets {
                    oracle.matches_bytes(*r, part)
                } else {
                    std::str::from_utf8(part).is_ok_and(|s| oracle.matches(*r, s))
                };
                if !ok {
                    return Err(format!(
                        "{}: its text {:?} does not match `{}`",
                        here(),
                        text(span),
                        g.rule(*r).name
                    ));
                }
            }
            _ => {}
        }
        match &n.kind {
            NodeKind::Typed { is_enum: true, .. } => {
                if n.children.len() != 1 {
                    return Err(format!("{}: an enum with {} variants", here(), n.children.len()));
                }
            }
            NodeKind::Typed { is_enum: false, .. } | NodeKind::Variant => {
                let mut at = span.start;
                for &c in &n.children {
                    let Some(s) = tree.nodes[c].span else { continue };
                    if s.start < at {
                        return Err(format!(
                            "{}: part `{}` at {:?} starts before the previous part ends ({at})",
                            here(),
                            tree.nodes[c].name,
                            s.range()
                        ));
                    }
                    at = s.end;
                }
            }
            NodeKind::List { elements } => {
                if elements.len() != n.children.len() {
                    return Err(format!(
                        "{}: {} elements for {} items",
                        here(),
                        elements.len(),
                        n.children.len()
                    ));
                }
                let mut at = span.start;
                for (e, &c) in elements.iter().zip(&n.children) {
                    if e.start != at || e.end <= e.start {
                        return Err(format!(
                            "{}: element {:?} does not start where the previous one ends ({at}) in {:?}",
                            here(),
                            e.range(),
                            text(span)
                        ));
                    }
                    let item = tree.nodes[c].span;
                    if let Some(s) = item.filter(|s| s.start < e.start || s.end > e.end) {
                        return Err(format!(
                            "{}: item {:?} is outside its element {:?}",
                            here(),
                            s.range(),
                            e.range()
                        ));
                    }
                    at = e.end;
                }
                if at != span.end {
                    return Err(format!(
                        "{}: the items end at {at}, not at the end of the list's span {:?}: {:?} is left",
                        here(),
                        span.range(),
                        text(Span {
                            start: at,
                            end: span.end
                        })
                    ));
                }
            }
            NodeKind::Leaf { .. } => {}
        }
    }
    Ok(())
}

/// For every typed rule of every spec of `compiled`, `samples` strings
/// from the rule ([`crate::sample::Sampler`], seeded with `seed`): each
/// tree is built ([`Trees::parse`]) and checked ([`check`]). The number of
/// trees checked, or the first failure with its grammar, rule and input.
pub fn check_samples(compiled: &Compiled, seed: u64, samples: usize) -> Result<usize, String> {
    let g = &compiled.grammar;
    let mut sampler = crate::sample::Sampler::new(g, seed);
    let mut checked = 0;
    for m in g.modules.iter().filter(|m| m.root) {
        let Some(trees) = compiled.trees(&m.name) else {
            continue;
        };
        for (rule, type_name) in trees.typed_rules() {
            if sampler.shortest(rule).is_none() {
                continue;
            }
            for _ in 0..samples {
                let input = if trees.octets() {
                    sampler.sample_bytes(rule)
                } else {
                    sampler.sample(rule).into_bytes()
                };
                let at = || {
                    format!(
                        "{}:{} ({type_name}) on {:?}",
                        m.name,
                        g.rule(rule).name,
                        String::from_utf8_lossy(&input)
                    )
                };
                let tree = trees.parse(rule, &input).map_err(|e| format!("{}: {e}", at()))?;
                check(g, &tree, &input).map_err(|e| format!("{}: {e}", at()))?;
                checked += 1;
            }
        }
    }
    Ok(checked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;

    /// The RFC 9110 rules of issue 26 (text, or with `; @terminals octets`).
    fn rfc9110(octets: bool) -> String {
        let mut s = String::new();
        if octets {
            s.push_str("; @terminals octets\n");
        }
        s.push_str(
            "content-type = media-type\n\
             media-type = type \"/\" subtype parameters\n\
             type = token\n\
             subtype = token\n\
             parameters = *( OWS \";\" OWS [ parameter ] )\n\
             parameter = parameter-name \"=\" parameter-value\n\
             parameter-name = token\n\
             parameter-value = ( token / quoted-string )\n\
             quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE\n\
             qdtext = HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text\n\
             quoted-pair = \"\\\" ( HTAB / SP / VCHAR / obs-text )\n\
             obs-text = %x80-FF\n\
             token = 1*tchar\n\
             tchar = \"!\" / \"#\" / \"$\" / \"%\" / \"&\" / \"'\" / \"*\" / \"+\" / \"-\" / \".\" / \"^\" / \"_\" / \"`\" / \"|\" / \"~\" / DIGIT / ALPHA\n\
             OWS = *( SP / HTAB )\n",
        );
        s
    }

    fn build(spec: &str, setup: impl FnOnce(&mut Config)) -> Compiled {
        let mut config = Config::new();
        config.spec_source("t.abnf", spec);
        setup(&mut config);
        config.build().unwrap_or_else(|e| panic!("{e}"))
    }

    fn rule(c: &Compiled, name: &str) -> RuleId {
        let m = c.grammar.module_by_name("t").unwrap();
        c.grammar.module(m).get(name).unwrap()
    }

    /// The names of the children of node `i`.
    fn names(t: &Tree, i: usize) -> Vec<&str> {
        t.nodes[i]
            .children
            .iter()
            .map(|&c| t.nodes[c].name.as_str())
            .collect()
    }

    /// Issue 26, item 1: a list whose item is a choice. Its element
    /// automaton had one group where the item function read two, and the
    /// list could only yield `qdtext`s.
    #[test]
    fn parts_read_in_the_parents_walk_and_lists_cut_by_offset() {
        let c = build(
            "id = 2pair \"-\" stamp\n\
             pair = HEXDIG HEXDIG\n\
             stamp = day \"T\" hour\n\
             day = 2DIGIT\n\
             hour = 2DIGIT [ \":\" 2DIGIT ]\n",
            |c| {
                c.export("t", &["id"]);
            },
        );
        let id = rule(&c, "id");
        let (groups, _) = c.tagged_rule(id).unwrap();
        // `stamp` (and its parts) are read in `id`'s walk.
        assert_eq!(groups.nested().len(), 1);
        let (pairs, _) = c.typed.elements.iter().find(|((r, _), _)| *r == id).unwrap();
        // Each `pair` (a leaf: its parts are core rules) is two bytes at
        // the start of its element.
        assert_eq!(
            c.typed.elements[pairs].fixed,
            Some((2, vec![None, None, Some(0), Some(2)]))
        );
        let trees = c.trees("t").unwrap();
        for input in [&b"a0F9-12T07"[..], b"a0F9-12T07:30"] {
            let tree = trees.parse(id, input).unwrap();
            check(&c.grammar, &tree, input).unwrap();
            let text = |i: usize| {
                let s = tree.nodes[i].span.unwrap();
                std::str::from_utf8(&input[s.range()]).unwrap()
            };
            let list = tree.nodes[0].children[0];
            let items: Vec<&str> = tree.nodes[list].children.iter().map(|&i| text(i)).collect();
            assert_eq!(items, ["a0", "F9"]);
            let stamp = tree.nodes[0].children[1];
            assert_eq!(names(&tree, stamp), ["day", "hour"]);
            let hour = tree.nodes[stamp].children[1];
            assert_eq!(text(hour), &"07:30"[..input.len() - 8]);
        }
    }

    #[test]
    fn a_list_of_a_choice_yields_every_alternative() {
        for octets in [false, true] {
            let c = build(&rfc9110(octets), |c| {
                c.export("t", &["quoted-string"]);
            });
            let trees = c.trees("t").unwrap();
            let input = br#""a\"b""#;
            let tree = trees.parse(rule(&c, "quoted-string"), input).unwrap();
            check(&c.grammar, &tree, input).unwrap();
            assert_eq!(names(&tree, 0), ["qdtext_or_quoted_pairs"]);
            let list = tree.nodes[0].children[0];
            let items = &tree.nodes[list].children;
            assert_eq!(items.len(), 3);
            let variants: Vec<&str> = items.iter().flat_map(|&i| names(&tree, i)).collect();
            assert_eq!(variants, ["Qdtext", "QuotedPair", "Qdtext"]);
            let spans: Vec<_> = items
                .iter()
                .map(|&i| tree.nodes[i].span.unwrap().range())
                .collect();
            assert_eq!(spans, [1..2, 2..4, 4..5]);
        }
    }

    /// Issue 26, items 2 and 3: every rule of a repeated group, as a named
    /// group too.
    #[test]
    fn a_repeated_group_keeps_every_part() {
        let c = build(&rfc9110(true), |_| {});
        let trees = c.trees("t").unwrap();
        let input = b"text/html; charset=utf-8 ;q=\"x\\\xe9\";";
        let tree = trees.parse(rule(&c, "content-type"), input).unwrap();
        check(&c.grammar, &tree, input).unwrap();
        let list = tree
            .nodes
            .iter()
            .position(|n| matches!(n.kind, NodeKind::List { .. }))
            .unwrap();
        assert_eq!(tree.nodes[list].name, "parameters");
        let items = &tree.nodes[list].children;
        assert_eq!(items.len(), 3);
        assert_eq!(names(&tree, items[0]), ["ows", "ows_2", "parameter"]);
        // The last item has no parameter (`Option::None`).
        assert_eq!(names(&tree, items[2]), ["ows", "ows_2"]);
        let value = tree
            .nodes
            .iter()
            .rposition(|n| n.name == "parameter_value")
            .unwrap();
        assert_eq!(names(&tree, value), ["QuotedString"]);

        let named = build(
            "params = *( param-item )\n\
             param-item = OWS \";\" OWS [ parameter ]\n\
             parameter = token \"=\" token\n\
             token = 1*( ALPHA / DIGIT / \"-\" )\n\
             OWS = *( SP / HTAB )\n",
            |_| {},
        );
        let ty = named.typed.models[0]
            .1
            .get(rule(&named, "params"))
            .expect("params is typed");
        assert!(matches!(&ty.shape, Shape::List(f) if f.name == "param_items"));
        let input = b"; a=b;c=d";
        let tree = named
            .trees("t")
            .unwrap()
            .parse(rule(&named, "params"), input)
            .unwrap();
        check(&named.grammar, &tree, input).unwrap();
        let list = tree.nodes[0].children[0];
        assert_eq!(tree.nodes[list].children.len(), 2);
    }

    /// Issue 26, item 4: variants named from their leading literal, keeping
    /// the text of anonymous repetitions.
    #[test]
    fn literal_variants_keep_their_values() {
        let c = build(
            "param = (\"COUNT\" \"=\" 1*DIGIT) / (\"NAME\" \"=\" name)\nname = 1*ALPHA\n",
            |_| {},
        );
        let Shape::Enum(vs) = &c.typed.models[0].1.get(rule(&c, "param")).unwrap().shape else {
            panic!("param is an enum");
        };
        let shape: Vec<(&str, Vec<&str>)> = vs
            .iter()
            .map(|v| {
                (
                    v.name.as_str(),
                    v.fields.iter().map(|f| f.name.as_str()).collect(),
                )
            })
            .collect();
        assert_eq!(shape, [("Count", vec!["count"]), ("Name", vec!["name"])]);
        let tree = c
            .trees("t")
            .unwrap()
            .parse(rule(&c, "param"), b"COUNT=10")
            .unwrap();
        check(&c.grammar, &tree, b"COUNT=10").unwrap();
        let field = tree.nodes[tree.nodes[1].children[0]].span.unwrap();
        assert_eq!(field.range(), 6..8);
    }

    /// A list whose longest first item leaves a rest that is no list is
    /// read exactly: `abcb` is `a`, `bc`, then `b`, though the longest
    /// first item is `ab`.
    /// List items of a rule with a stack that end with a call which may
    /// be empty: the empty call at an item's edge is read by that item, and
    /// the next item starts with its own byte.
    #[test]
    fn empty_calls_at_the_edges_of_list_items() {
        let c = build("s = \"(\" *( \",\" opt ) \")\"\nopt = *s\n", |c| {
            c.ast_rules("t", &["s", "opt"]);
        });
        let s = rule(&c, "s");
        assert!(c.typed.tree_of(s).is_some(), "{:?}", c.warnings);
        let trees = c.trees("t").unwrap();
        // Item spans as (start, end).
        for (input, items) in [
            (&b"(,,(),)"[..], [(1, 2), (2, 5), (5, 6)].as_slice()),
            (b"(,)", &[(1, 2)]),
            (b"()", &[]),
        ] {
            let tree = trees.parse(s, input).unwrap();
            check(&c.grammar, &tree, input).unwrap();
            let list = &tree.nodes[tree.nodes[0].children[0]];
            let NodeKind::List { elements } = &list.kind else {
                panic!("{tree:#?}")
            };
            let spans: Vec<_> = elements.iter().map(|e| (e.start, e.end)).collect();
            assert_eq!(spans, items, "{tree:#?}");
        }
    }

    #[test]
    fn rules_with_a_stack_have_typed_trees() {
        // RFC 8259 as published, and RFC 5322's nested comments.
        let json = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/data/rfc-grammars/rfc8259.abnf"
        ))
        .unwrap();
        let c = build(&json, |_| {});
        let m = c.grammar.module_by_name("t").unwrap();
        let value = c.grammar.module(m).get("value").unwrap();
        assert!(c.typed.tree_of(value).is_some(), "`value` has a typed tree");
        let trees = c.trees("t").unwrap();
        let input = br#"{"a": [1, {"b": null}, "x\u0041"], "c": {}}"#;
        let tree = trees.parse(value, input).unwrap();
        check(&c.grammar, &tree, input).unwrap();
        // Every nested value is a node of the tree.
        let values = tree
            .nodes
            .iter()
            .filter(|n| matches!(n.kind, NodeKind::Typed { rule: Some(r), .. } if r == value))
            .count();
        assert_eq!(values, 7, "{tree:#?}");
        assert!(check_samples(&c, 1, 20).unwrap() > 20);
        let c = build(
            "ccontent = ctext / quoted-pair / comment\n\
             comment = \"(\" *( [ \" \" ] ccontent ) [ \" \" ] \")\"\n\
             ctext = %x21-27 / %x2A-5B / %x5D-7E\n\
             quoted-pair = \"\\\" ( %x21-7E / \" \" )\n",
            |c| {
                c.ast_rules("t", &["comment", "ccontent"]);
            },
        );
        let comment = rule(&c, "comment");
        let input = b"(a (b (c) d) \\( (e))";
        let tree = c.trees("t").unwrap().parse(comment, input).unwrap();
        check(&c.grammar, &tree, input).unwrap();
        let comments = tree
            .nodes
            .iter()
            .filter(|n| matches!(n.kind, NodeKind::Typed { rule: Some(r), .. } if r == comment))
            .map(|n| n.span.unwrap().range())
            .collect::<Vec<_>>();
        assert_eq!(comments, [0..20, 3..12, 6..9, 16..19]);
        assert!(check_samples(&c, 2, 30).unwrap() >= 30);
    }

    #[test]
    fn a_list_the_longest_item_would_cut_wrong_is_read_exactly() {
        let c = build("r = *( r1 ) \"b\"\nr1 = \"a\" / \"ab\" / \"bc\"\n", |c| {
            c.ast_rules("t", &["r"]);
        });
        let key = (rule(&c, "r"), vec![0]);
        assert!(c.typed.elements[&key].exact.is_some());
        let tree = c.trees("t").unwrap().parse(rule(&c, "r"), b"abcb").unwrap();
        check(&c.grammar, &tree, b"abcb").unwrap();
        let list = tree.nodes[0].children[0];
        let items: Vec<_> = tree.nodes[list]
            .children
            .iter()
            .map(|&i| tree.nodes[i].span.unwrap().range())
            .collect();
        assert_eq!(items, [0..1, 1..3]);
        // `*( "/" segment )` keeps the longest item.
        let c = build("p = *( \"/\" s )\ns = *( ALPHA / \":\" )\n", |_| {});
        assert!(c.typed.elements[&(rule(&c, "p"), vec![])].exact.is_none());
    }

    /// A typed rule whose tagged DFA is over the limit is derived in the
    /// tree network, with its typed parts as calls; one whose part may be
    /// empty falls back to its text.
    #[test]
    fn rules_too_large_for_one_tagged_dfa_are_derived() {
        let spec = "h = name \":\" *( \" \" ) addr *( \",\" addr )\n\
                    name = 1*ALPHA\n\
                    addr = [ name \" \" ] \"<\" path \">\" *( \";\" name )\n\
                    path = 1*( ALPHA / \".\" )\n\
                    g = addr \"=\" opt \"=\" addr \"=\" addr\n\
                    opt = *( num \";\" )\n\
                    num = 1*DIGIT\n";
        let c = build(spec, |c| {
            c.limits(crate::limits::Limits {
                tagged_states: 16,
                ..Default::default()
            });
        });
        let h = rule(&c, "h");
        assert!(
            c.typed.tree_of(h).is_some(),
            "`h` is derived in the tree network: {:?}",
            c.warnings
        );
        let warned = |name: &str| {
            c.warnings.items.iter().any(|w| {
                w.code == crate::diagnostic::Code::TooLarge && w.message.contains(&format!("rule `{name}`"))
            })
        };
        assert!(!warned("h"), "{:?}", c.warnings);
        assert!(
            warned("g"),
            "`opt` may be empty, so `g` falls back: {:?}",
            c.warnings
        );
        let trees = c.trees("t").unwrap();
        let input = b"To:  Al <a.b>;x,<c>";
        let tree = trees.parse(h, input).unwrap();
        check(&c.grammar, &tree, input).unwrap();
        // The first address, then the list of the others.
        let text = |i: usize| &input[tree.nodes[i].span.unwrap().range()];
        let root = &tree.nodes[0];
        assert_eq!(names(&tree, 0), ["name", "text_", "addr", "addrs"]);
        assert_eq!(text(root.children[2]), b"Al <a.b>;x");
        let items: Vec<&[u8]> = tree.nodes[root.children[3]]
            .children
            .iter()
            .map(|&i| text(i))
            .collect();
        assert_eq!(items, [&b"<c>"[..]]);
        assert!(trees.parse(h, b"To:<a").is_err());
        assert!(check_samples(&c, 5, 20).unwrap() > 20);
    }

    /// A tree derived in the network (its own tagged DFA over the limit)
    /// cuts its parts as the flat tagged DFA does where either side of a
    /// call may take a separator (RFC 3261's `HCOLON` and the `SWS` of a
    /// quoted display name), or a repetition (a part's trailing `*"!"`
    /// and its parent's).
    #[test]
    fn derived_trees_cut_parts_as_flat_ones() {
        let spec = "h = \"C:\" sws p *( \"!\" ) *( \",\" p )\n\
                    sws = [ \" \" ]\n\
                    p = sws \"<\" name \">\" *( \";\" name ) *( \"!\" )\n\
                    name = 1*ALPHA\n";
        let build_with = |limit: usize| {
            build(spec, |c| {
                c.limits(crate::limits::Limits {
                    tagged_states: limit,
                    ..Default::default()
                });
            })
        };
        let (flat, derived) = (build_with(16 * 1024), build_with(20));
        let spans = |c: &Compiled, r: &str, input: &[u8]| {
            let tree = c.trees("t").unwrap().parse(rule(c, r), input).unwrap();
            check(&c.grammar, &tree, input).unwrap();
            tree.nodes
                .iter()
                .map(|n| (n.name.clone(), n.span))
                .collect::<Vec<_>>()
        };
        for (r, input) in [
            ("h", &b"C: <a>"[..]),
            ("h", b"C: <a>, <b>;c"),
            ("h", b"C:<a>!!, <b>!"),
        ] {
            assert!(flat.typed.tree_of(rule(&flat, r)).is_none());
            assert!(
                derived.typed.tree_of(rule(&derived, r)).is_some(),
                "`{r}` is derived: {:?} {:?}",
                derived.warnings.items,
                derived
                    .typed
                    .tdfas
                    .get(&rule(&derived, r))
                    .map(|d| d.dfa.states())
            );
            assert_eq!(
                spans(&flat, r, input),
                spans(&derived, r, input),
                "{r} on {input:?}"
            );
        }
    }

    /// Random grammars (`TYPED_TREE_CASES` of them, 40 by default, from
    /// seed `TYPED_TREE_SEED`, 26 by default), half with every rule typed:
    /// samples of every typed rule give trees that pass [`check`].
    #[test]
    fn random_grammars() {
        let env = |name: &str, default: u64| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(default)
        };
        let (cases, seed) = (env("TYPED_TREE_CASES", 40), env("TYPED_TREE_SEED", 26));
        let mut rng = crate::sample::Rng::new(seed);
        let mut checked = 0;
        for i in 0..cases {
            let octets = i % 3 == 2;
            let spec = crate::sample::random_grammar(&mut rng, octets);
            let mut config = Config::new();
            config.spec_source("t.abnf", spec.clone());
            if i % 2 == 1 {
                let names: Vec<String> = spec
                    .lines()
                    .filter_map(|l| l.split(' ').next())
                    .filter(|n| n.starts_with('r'))
                    .map(String::from)
                    .collect();
                config.ast_rules("t", &names);
            }
            let Ok(c) = config.build() else { continue };
            match check_samples(&c, i, 4) {
                Ok(n) => checked += n,
                Err(e) => panic!("{spec}\n{e}"),
            }
        }
        assert!(checked > cases as usize * 2, "only {checked} trees");
    }
}
