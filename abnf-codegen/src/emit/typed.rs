//! The typed AST's emit model and its Rust.

use std::collections::{HashMap, HashSet};

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};

use super::IncludeStyle;
use crate::typed::Card;

/// A serialized tagged DFA to embed.
#[derive(Clone, Debug)]
pub struct EmitTdfa {
    /// Rust name of its static.
    pub ident: String,
    /// Path of its table files without `.le.tdfa` / `.be.tdfa`.
    pub path: String,
    /// Number of tags.
    pub tags: u32,
    /// Whether its tables have shapes (inputs of up to 64 bytes read
    /// with no walk: `TaggedDfa::__shape_tags`).
    pub shapes: bool,
    /// Whether it is also walked as code: the function `{ident}_direct`
    /// (lower case) in the file `.direct.rs`, which reads a whole span, or
    /// for a list's items without `exact`, the longest match
    /// (`crate::emit::direct::direct_tagged_walk`).
    pub direct: bool,
    /// Whether that walk logs the items of one of the node's lists as it
    /// reads them with their own walk (it then takes the log).
    pub log: Option<EmitLog>,
}

/// The log of a list's items that a node's walk as code fills
/// (`abnf_runtime::List`'s `ItemLog`).
#[derive(Clone, Debug)]
pub struct EmitLog {
    /// The list's field.
    pub field: String,
    /// The log's size in 16-bit words.
    pub words: usize,
    /// Tags of an item.
    pub tags: usize,
    /// Per tag of an item, the word of its entry that holds it (`None`:
    /// never set): tags that every match sets alike share a word.
    pub slots: Vec<Option<usize>>,
    /// Per word of an entry after the span, a tag it holds.
    pub holders: Vec<usize>,
}

/// What a field holds.
#[derive(Clone, Debug)]
pub enum Target {
    /// The matched text (`&'a str`).
    Leaf,
    /// A typed node of the named type.
    Typed(String),
    /// A typed node of the named type, a rule with a stack: parsed when
    /// asked for (`abnf_runtime::Nested`).
    Nested(String),
}

/// The network that derives a module's typed rules with a stack.
#[derive(Clone, Debug)]
pub struct EmitTrees {
    /// Path of its table files, without `.le.net` / `.be.net`.
    pub path: String,
    /// Its rules' names, by index.
    pub names: Vec<String>,
    /// How many calls may nest.
    pub nesting_limit: usize,
}

/// One field.
#[derive(Clone, Debug)]
pub struct EmitField {
    /// Rust field name.
    pub name: String,
    /// What it holds, for docs: a rule name, or a choice between literals
    /// as ABNF (`"+" / "-"`).
    pub rule: String,
    /// Its capture group.
    pub group: usize,
    /// Cardinality.
    pub card: Card,
    /// What it (or each item, for `Many`) holds.
    pub target: Target,
    /// For `Many`: the element automaton (group 1 is the item, unless
    /// `whole_item`).
    pub element: Option<EmitTdfa>,
    /// For `Many`: each item is an item type over the element's whole
    /// match, built from the element automaton's groups.
    pub whole_item: bool,
    /// For `Many`: the group of the first item when the element automaton
    /// reads the rest of the list too (see `TaggedDfa::__item`).
    pub exact: Option<usize>,
    /// For a typed target: its rule's groups follow `group` in this
    /// automaton, so its node is built from these tags (no walk of its
    /// own).
    pub nested: bool,
    /// For `Many` of a typed rule (not `whole_item`): the rule's groups
    /// follow the item's group 1 in the element automaton.
    pub item_nested: bool,
    /// For `Many` whose items all have one length and the same tags: that
    /// length and the tags as offsets from the item's start (the list is
    /// cut by offset; `element` is then `None`, no table being needed).
    pub fixed: Option<(usize, Vec<Option<usize>>)>,
    /// For `Many`: the size of the list's log (`EmitLog::words`), where
    /// the node's walk logs its items.
    pub log_words: Option<usize>,
}

/// One enum variant.
#[derive(Clone, Debug)]
pub struct EmitVariant {
    /// Rust variant name.
    pub name: String,
    /// Its capture group.
    pub group: usize,
    /// Its fields.
    pub fields: Vec<EmitField>,
    /// The alternative is all one field that holds a typed rule (`A / B`,
    /// not `A "x" / B`), in the rule's own shape (not a list item's).
    pub whole: bool,
    /// For an enum read off its one byte (every alternative matches one
    /// byte): the variant's bytes, as inclusive ranges. The first variant
    /// whose bytes hold the node's byte is the one matched.
    pub bytes: Option<Vec<(u8, u8)>>,
}

/// A typed node's shape.
#[derive(Clone, Debug)]
pub enum EmitShape {
    /// A struct with fields.
    Struct(Vec<EmitField>),
    /// A struct with a `kind` enum.
    Enum(Vec<EmitVariant>),
}

/// One typed rule.
#[derive(Clone, Debug)]
pub struct EmitType {
    /// Rust type name.
    pub name: String,
    /// ABNF rule name.
    pub rule: String,
    /// Grammar (module) the rule is defined in.
    pub grammar: String,
    /// How it is provided.
    pub kind: EmitTypeKind,
}

/// Defined here, or re-exported from a sibling grammar module.
#[derive(Clone, Debug)]
pub enum EmitTypeKind {
    /// Defined in this module.
    Local {
        /// Docs: the ABNF and where it came from.
        doc: Vec<String>,
        /// Path of the rule's railroad diagram (an SVG file next to the
        /// tables), embedded in the docs.
        diagram: String,
        /// Its shape.
        shape: EmitShape,
        /// Its tagged DFA.
        tdfa: EmitTdfa,
        /// For a rule with a stack: its index in the module's tree network
        /// ([`EmitTrees`]), and per rule of that network the byte its
        /// calls are read as by this rule's automata.
        stack: Option<(usize, Vec<u8>)>,
    },
    /// The item type of a list whose element is a choice or a group of
    /// several parts: built by the list from its element automaton, never
    /// parsed on its own.
    Item {
        /// Docs: the element's ABNF.
        doc: Vec<String>,
        /// Its shape (groups are the element automaton's).
        shape: EmitShape,
        /// An item of a list of a rule with a stack (its parts are read
        /// with the rule's holes).
        stack: bool,
    },
    /// Re-exported from `super::super::<module>::ast`.
    Reexport {
        /// The sibling module.
        module: String,
        /// Whether it is an enum (so its `Kind` is re-exported too).
        is_enum: bool,
        /// The type's name in the sibling module, when it differs (each
        /// module names its types on its own: `A1` there may be `A12` here).
        home_name: Option<String>,
    },
}

pub(super) fn ident(s: &str) -> Ident {
    Ident::new(s, Span::call_site())
}

fn kind_has_lifetime(variants: &[EmitVariant]) -> bool {
    variants.iter().any(|v| !v.fields.is_empty())
}

/// What a module's typed trees read: text, or bytes for a spec whose
/// terminals are octets.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Input {
    Text,
    Bytes,
}

impl Input {
    /// The input's type.
    fn ty(self) -> TokenStream {
        match self {
            Input::Text => quote!(str),
            Input::Bytes => quote!([u8]),
        }
    }

    /// `input` as bytes, for the automata.
    fn as_bytes(self) -> TokenStream {
        match self {
            Input::Text => quote!(input.as_bytes()),
            Input::Bytes => quote!(input),
        }
    }
}

/// The type of one part that a field holds.
fn item_type(target: &Target, rt: &TokenStream, input: Input) -> TokenStream {
    let text = input.ty();
    match target {
        Target::Leaf => quote!(&'a #text),
        Target::Typed(t) => {
            let t = ident(t);
            quote!(#t<'a>)
        }
        // `str` is the default input type.
        Target::Nested(t) if input == Input::Text => {
            let t = ident(t);
            quote!(#rt::Nested<'a, #t<'a>>)
        }
        Target::Nested(t) => {
            let t = ident(t);
            quote!(#rt::Nested<'a, #t<'a>, #text>)
        }
    }
}

/// A field's type. In the tree of a rule with a stack (`stack`), a list is
/// read when the node is built (its items need the node's holes).
fn field_type(f: &EmitField, rt: &TokenStream, input: Input, stack: bool) -> TokenStream {
    let text = input.ty();
    let item = item_type(&f.target, rt, input);
    match f.card {
        Card::One => item,
        Card::Optional => quote!(::core::option::Option<#item>),
        Card::Many if stack => quote!(#rt::__private::Vec<#item>),
        // `str` is the list's default input type.
        Card::Many => match f.log_words {
            Some(w) => {
                let w = Literal::usize_unsuffixed(w);
                quote!(#rt::List<'a, #item, #text, #w>)
            }
            None if input == Input::Text => quote!(#rt::List<'a, #item>),
            None => quote!(#rt::List<'a, #item, #text>),
        },
    }
}

fn item_fn_ident(owner: &str, field: &str) -> String {
    format!(
        "__{}_{}_item",
        owner.to_ascii_lowercase(),
        field.trim_end_matches('_')
    )
}

/// The name of each list field's item function, unique in the module: the
/// plain `__{owner}_{field}_item` unless an earlier field took it (owners
/// that differ only in case, the same field in two variants), then with the
/// first free suffix. Keyed by the field's address in `types`.
type ItemFns = HashMap<*const EmitField, Ident>;

fn item_fn_names(types: &[EmitType]) -> ItemFns {
    let mut namer = crate::names::Namer::default();
    let mut out = HashMap::new();
    for ty in types {
        let (EmitTypeKind::Local { shape, .. } | EmitTypeKind::Item { shape, .. }) = &ty.kind else {
            continue;
        };
        let fields: Vec<&EmitField> = match shape {
            EmitShape::Struct(fs) => fs.iter().collect(),
            EmitShape::Enum(vs) => vs.iter().flat_map(|v| &v.fields).collect(),
        };
        for f in fields.into_iter().filter(|f| f.card == Card::Many) {
            let name = namer.unique(item_fn_ident(&ty.name, &f.name));
            out.insert(f as *const EmitField, format_ident!("{}", name));
        }
    }
    out
}

/// The expression that builds a field's value from `tags` (and, in the
/// tree of a rule with a stack, `holes`).
fn field_expr(items: &ItemFns, f: &EmitField, rt: &TokenStream, stack: bool) -> TokenStream {
    let g = Literal::usize_unsuffixed(f.group);
    let p = quote!(__rt);
    match (&f.card, &f.target) {
        (Card::One, Target::Nested(t)) => {
            let t = ident(t);
            quote!(#rt::Nested::__new(input, #p::group(tags, #g).unwrap_or_default(), #t::__sub))
        }
        (Card::Optional, Target::Nested(t)) => {
            let t = ident(t);
            quote!(#p::group(tags, #g).map(|s| #rt::Nested::__new(input, s, #t::__sub)))
        }
        (Card::Many, _) if stack => {
            let item = &items[&(f as *const EmitField)];
            quote!(#item(input, #p::group(tags, #g).unwrap_or_default(), holes))
        }
        (Card::One, Target::Leaf) => quote!(#p::leaf(input, tags, #g)),
        (Card::Optional, Target::Leaf) => quote!(#p::optional(input, tags, #g)),
        // The part's own groups follow its group: its node is built from
        // the same tags (its group `i` is group `g + i` here).
        (Card::One, Target::Typed(t)) if f.nested => {
            let t = ident(t);
            let from = Literal::usize_unsuffixed(2 * f.group);
            quote!(#t::__from_tags(input, #p::span(tags, #g), #p::nested(tags, #from)))
        }
        (Card::Optional, Target::Typed(t)) if f.nested => {
            let t = ident(t);
            let from = Literal::usize_unsuffixed(2 * f.group);
            quote!(#p::group(tags, #g).map(|s| #t::__from_tags(input, s, #p::nested(tags, #from))))
        }
        (Card::One, Target::Typed(t)) => {
            let t = ident(t);
            quote!(#t::__sub(input, #p::group(tags, #g).unwrap_or_default()))
        }
        (Card::Optional, Target::Typed(t)) => {
            let t = ident(t);
            quote!(#p::group(tags, #g).map(|s| #t::__sub(input, s)))
        }
        (Card::Many, _) => {
            let item = &items[&(f as *const EmitField)];
            quote!(#p::list(input, tags, #g, #item))
        }
    }
}

/// The part of a variant of an enum read off its byte: the node's byte,
/// its own `span` (the part has no group; a typed part is read off the
/// byte in turn).
fn byte_field_expr(f: &EmitField, rt: &TokenStream, stack: bool) -> TokenStream {
    match &f.target {
        Target::Leaf => quote!(__rt::node_text(input, tags, span)),
        Target::Typed(t) if stack => {
            let t = ident(t);
            quote!(#t::__sub(input, span))
        }
        Target::Typed(t) => {
            let t = ident(t);
            quote!(#t::__from_tags(input, span, tags))
        }
        Target::Nested(t) => {
            let t = ident(t);
            quote!(#rt::Nested::__new(input, span, #t::__sub))
        }
    }
}

fn tdfa_items(t: &EmitTdfa, rt: &TokenStream, style: IncludeStyle) -> TokenStream {
    let bytes = format_ident!("{}_BYTES", t.ident);
    let name = ident(&t.ident);
    let le = super::include_path(&format!("{}.le.tdfa", t.path), style);
    let be = super::include_path(&format!("{}.be.tdfa", t.path), style);
    let bytes_static = super::aligned_static(&bytes, le, be);
    let direct = t.direct.then(|| {
        let p = super::include_path(&format!("{}.direct.rs", t.path), style);
        quote!(include!(#p);)
    });
    quote! {
        #bytes_static
        static #name: #rt::TaggedDfa<'static> = #rt::TaggedDfa::__wire(#bytes);
        #direct
    }
}

/// The direct walk of `t` ([`EmitTdfa::direct`]).
fn direct_fn(t: &EmitTdfa) -> Ident {
    format_ident!("{}_direct", t.ident.to_lowercase())
}

#[allow(clippy::too_many_arguments)]
fn item_fns(
    owner: &str,
    items: &ItemFns,
    fields: &[EmitField],
    rt: &TokenStream,
    input: Input,
    style: IncludeStyle,
    stack: bool,
    log_of: Option<&EmitLog>,
) -> TokenStream {
    if stack {
        return stack_item_fns(owner, items, fields, rt, input, style);
    }
    let (text, bytes) = (input.ty(), input.as_bytes());
    let mut out = TokenStream::new();
    for f in fields {
        if f.element.is_none() && f.fixed.is_none() {
            continue;
        }
        let fn_name = &items[&(f as *const EmitField)];
        // The item's type with lifetime `lt` (`'_` where `None`), and the
        // expression that builds it.
        let ty_with = |lt: Option<TokenStream>| {
            let (lt, leaf) = match lt {
                Some(lt) => (lt.clone(), quote!(&#lt #text)),
                None => (quote!('_), quote!(&#text)),
            };
            match &f.target {
                Target::Nested(t) => {
                    let t = ident(t);
                    match input {
                        Input::Text => quote!(#rt::Nested<#lt, #t<#lt>>),
                        Input::Bytes => quote!(#rt::Nested<#lt, #t<#lt>, #text>),
                    }
                }
                Target::Leaf => leaf,
                Target::Typed(t) => {
                    let t = ident(t);
                    quote!(#t<#lt>)
                }
            }
        };
        let value = match &f.target {
            Target::Nested(t) => {
                let t = ident(t);
                quote!(#rt::Nested::__new(input, s, #t::__sub))
            }
            Target::Leaf => quote!(&input[s.range()]),
            Target::Typed(t) if f.whole_item => {
                let t = ident(t);
                quote!(#t::__from_tags(input, #rt::Span { start: pos, end: next }, &tags[..]))
            }
            Target::Typed(t) if f.item_nested => {
                let t = ident(t);
                quote!(#t::__from_tags(input, s, __rt::nested(&tags[..], 2)))
            }
            Target::Typed(t) => {
                let t = ident(t);
                quote!(#t::__sub(input, s))
            }
        };
        let ty = ty_with(None);
        let item_span = if f.whole_item {
            quote!()
        } else {
            quote!(let s = __rt::group(&tags[..], 1)?;)
        };
        let mut doc = format!(" Reads one `{}` of `{}` starting at `pos`", f.rule, owner);
        doc.push_str(match &f.fixed {
            Some(_) => {
                ": every item has the same length and its parts the same offsets (the element \
                 automaton's shapes), so the list, which a parse has matched, is cut by offset."
            }
            None => ".",
        });
        let (tables, read) = match (&f.fixed, &f.element) {
            (Some((len, offsets)), _) => {
                // Every item has this length and these tags: the list,
                // which a parse has matched, is cut by offset.
                let len = Literal::usize_unsuffixed(*len);
                let tags = offsets.iter().map(|o| match o {
                    Some(0) => quote!(pos),
                    Some(o) => {
                        let o = Literal::usize_unsuffixed(*o);
                        quote!(pos + #o)
                    }
                    None => quote!(usize::MAX),
                });
                let read = quote! {
                    let next = pos + #len;
                    if next > end {
                        return ::core::option::Option::None;
                    }
                    let tags = [#(#tags),*];
                };
                (quote!(), read)
            }
            (None, Some(elem)) => {
                let tdfa = ident(&elem.ident);
                let ntags = Literal::usize_unsuffixed(elem.tags as usize);
                let exact = exact_arg(f);
                let next = match (elem.direct, f.exact) {
                    (false, _) => quote!(#tdfa.__item(#bytes, pos, end, &mut tags, #exact)?),
                    (true, None) => {
                        let walk = direct_fn(elem);
                        quote!(#walk(#bytes, pos, end, &mut tags)?)
                    }
                    (true, Some(g)) => {
                        let (walk, g) = (direct_fn(elem), Literal::usize_unsuffixed(g));
                        quote!(#tdfa.__item_direct(#bytes, pos, end, &mut tags, #g, #walk)?)
                    }
                };
                let read = quote! {
                    let mut tags = [usize::MAX; #ntags];
                    let next = #next;
                };
                (tdfa_items(elem, rt, style), read)
            }
            (None, None) => unreachable!("checked above"),
        };
        out.extend(quote! {
            #tables
            #[doc = #doc]
            fn #fn_name(input: &#text, pos: usize, end: usize) -> ::core::option::Option<(#ty, usize)> {
                #read
                #item_span
                Some((#value, next))
            }
        });
        if let (Some(_), Some(elem)) = (f.log_words, &f.element) {
            let logged = format_ident!("{fn_name}_logged");
            let ty_logged = ty_with(Some(quote!('i)));
            // (An item type over the whole match is built from its span.)
            let pos = if f.whole_item {
                format_ident!("pos")
            } else {
                format_ident!("_pos")
            };
            let bounds = f
                .whole_item
                .then(|| quote!(let next = base + usize::from(*entry.first()?);));
            let ntags = Literal::usize_unsuffixed(elem.tags as usize);
            let log = log_of.expect("a logged list's node has the log");
            let nwords = Literal::usize_unsuffixed(log.holders.len());
            let tag_words = log.slots.iter().map(|w| match w {
                Some(w) => {
                    let w = Literal::usize_unsuffixed(*w);
                    quote!(words[#w])
                }
                None => quote!(usize::MAX),
            });
            let doc = format!(
                " Builds one `{}` of `{}` from its entry in the log of the node's walk.",
                f.rule, owner
            );
            out.extend(quote! {
                #[doc = #doc]
                fn #logged<'i>(input: &'i #text, base: usize, #pos: usize, entry: &[u16]) -> ::core::option::Option<#ty_logged> {
                    let words: [usize; #nwords] = __rt::log_tags(base, entry);
                    let tags: [usize; #ntags] = [#(#tag_words),*];
                    #bounds
                    #item_span
                    Some(#value)
                }
            });
        }
    }
    out
}

/// The `(exact)` argument of `TaggedDfa::__item`.
fn exact_arg(f: &EmitField) -> TokenStream {
    match f.exact {
        Some(g) => {
            let g = Literal::usize_unsuffixed(g);
            quote!(::core::option::Option::Some(#g))
        }
        None => quote!(::core::option::Option::None),
    }
}

/// The largest [`node_weights`] whose `__from_tags` is always inlined.
const MAX_INLINE_WEIGHT: usize = 32;

/// Per type of this module, how many nodes its `__from_tags` builds: one,
/// plus those of the parts it builds from the same tags (nested parts).
/// A part defined elsewhere counts as one; the types form no cycle here
/// (a part that nests is `Nested`, built when asked for), and a cycle
/// would only stop the count.
fn node_weights(types: &[EmitType]) -> HashMap<&str, usize> {
    let by_name: HashMap<&str, &EmitType> = types.iter().map(|t| (t.name.as_str(), t)).collect();
    let mut weights: HashMap<&str, usize> = HashMap::new();
    for ty in types {
        // Depth first with an explicit stack: a type's weight once its
        // parts have theirs.
        let mut stack = vec![(ty.name.as_str(), false)];
        let mut open = HashSet::new();
        while let Some((name, ready)) = stack.pop() {
            if weights.contains_key(name) {
                continue;
            }
            let Some(t) = by_name.get(name) else {
                weights.insert(name, 1);
                continue;
            };
            let ps = nested_parts(t);
            if ready {
                let w = ps
                    .iter()
                    .map(|p| weights.get(p).copied().unwrap_or(MAX_INLINE_WEIGHT + 1));
                weights.insert(name, w.fold(1, usize::saturating_add));
            } else if open.insert(name) {
                stack.push((name, true));
                stack.extend(ps.into_iter().map(|p| (p, false)));
            }
        }
    }
    weights
}

/// The types whose `__from_tags` branches: enums, and structs with an
/// optional field or a nested part of such a type.
fn branchy_types(types: &[EmitType]) -> HashSet<&str> {
    let mut branchy = HashSet::new();
    // To a fixed point: each round adds a type or ends.
    loop {
        let before = branchy.len();
        for t in types {
            let shape = match &t.kind {
                EmitTypeKind::Local { shape, .. } | EmitTypeKind::Item { shape, .. } => shape,
                EmitTypeKind::Reexport { .. } => continue,
            };
            let is = match shape {
                EmitShape::Enum(_) => true,
                EmitShape::Struct(fs) => fs.iter().any(|f| branches(f, &branchy)),
            };
            if is {
                branchy.insert(t.name.as_str());
            }
        }
        if branchy.len() == before {
            return branchy;
        }
    }
}

/// Whether building field `f` branches or calls (its node's `__from_tags`
/// computes it before the fields that do not): an optional part, a part
/// parsed on its own (`__sub`, a call), or a nested part of a branchy type.
fn branches(f: &EmitField, branchy: &HashSet<&str>) -> bool {
    match (&f.card, &f.target) {
        (Card::Optional, _) => true,
        (Card::One, Target::Typed(t)) => !f.nested || branchy.contains(t.as_str()),
        _ => false,
    }
}

/// The types a type's `__from_tags` builds from its own tags.
fn nested_parts(t: &EmitType) -> Vec<&str> {
    let shape = match &t.kind {
        EmitTypeKind::Local { shape, .. } | EmitTypeKind::Item { shape, .. } => shape,
        EmitTypeKind::Reexport { .. } => return Vec::new(),
    };
    let fields: Vec<&EmitField> = match shape {
        EmitShape::Struct(fs) => fs.iter().collect(),
        EmitShape::Enum(vs) => vs.iter().flat_map(|v| &v.fields).collect(),
    };
    fields
        .into_iter()
        .filter(|f| f.nested && f.card != Card::Many)
        .filter_map(|f| match &f.target {
            Target::Typed(name) => Some(name.as_str()),
            _ => None,
        })
        .collect()
}

/// An enum's first alternative when it is all one typed rule that the
/// enum's parse tries on its own first ([`whole_first_alternatives`]).
struct FirstAlternative<'t> {
    /// The variant's name.
    variant: &'t str,
    /// The part's type.
    part: &'t str,
    /// The part's ABNF rule.
    rule: &'t str,
}

/// The enums whose parse tries their first alternative's rule on its own
/// first, by type name. That is where the first alternative is all one typed rule of this
/// module, parsed on its own (a tagged DFA, no stack), and the enum's
/// automaton does not read that rule's parts in its own walk (its tables
/// would be too large): then an input of that alternative, usually most
/// of them, takes one walk instead of two. Both give the same tree: over a
/// whole span, the first alternative that matches it is the one a parse
/// picks.
fn whole_first_alternatives(types: &[EmitType]) -> HashMap<&str, FirstAlternative<'_>> {
    let own_parse = |name: &str| {
        types
            .iter()
            .any(|t| t.name == name && matches!(&t.kind, EmitTypeKind::Local { stack: None, .. }))
    };
    let mut out = HashMap::new();
    for ty in types {
        let EmitTypeKind::Local {
            shape: EmitShape::Enum(variants),
            stack: None,
            ..
        } = &ty.kind
        else {
            continue;
        };
        let Some(first) = variants.first().filter(|v| v.whole) else {
            continue;
        };
        if let [EmitField {
            target: Target::Typed(part),
            nested: false,
            rule,
            ..
        }] = first.fields.as_slice()
        {
            if own_parse(part) {
                let first = FirstAlternative {
                    variant: &first.name,
                    part,
                    rule,
                };
                out.insert(ty.name.as_str(), first);
            }
        }
    }
    out
}

/// The list readers of the tree of a rule with a stack: each reads all
/// items of its list into a vector when the node is built, with the node's
/// holes.
fn stack_item_fns(
    owner: &str,
    items: &ItemFns,
    fields: &[EmitField],
    rt: &TokenStream,
    input: Input,
    style: IncludeStyle,
) -> TokenStream {
    let (text, bytes) = (input.ty(), input.as_bytes());
    let mut out = TokenStream::new();
    for f in fields {
        let Some(elem) = &f.element else { continue };
        let fn_name = &items[&(f as *const EmitField)];
        let tdfa = ident(&elem.ident);
        let ntags = Literal::usize_unsuffixed(elem.tags as usize);
        let ty = item_type(&f.target, rt, input);
        let value = match &f.target {
            Target::Leaf => quote!(&input[s.range()]),
            Target::Typed(t) if f.whole_item => {
                let t = ident(t);
                quote!(#t::__from_tags(input, #rt::Span { start: pos, end: next }, &tags[..], holes))
            }
            Target::Typed(t) => {
                let t = ident(t);
                quote!(#t::__sub(input, s))
            }
            Target::Nested(t) => {
                let t = ident(t);
                quote!(#rt::Nested::__new(input, s, #t::__sub))
            }
        };
        let exact = exact_arg(f);
        let item_span = if f.whole_item {
            quote!()
        } else {
            quote! {
                let ::core::option::Option::Some(s) = __rt::group(&tags[..], 1) else { break };
            }
        };
        let tables = tdfa_items(elem, rt, style);
        let doc = format!(" Reads every `{}` of `{}` in `span`.", f.rule, owner);
        out.extend(quote! {
            #tables
            #[doc = #doc]
            fn #fn_name<'a>(input: &'a #text, span: #rt::Span, holes: &[__rt::Hole]) -> __rt::Vec<#ty> {
                let mut out = __rt::Vec::new();
                let mut pos = span.start;
                while pos < span.end {
                    let mut tags = [usize::MAX; #ntags];
                    let ::core::option::Option::Some(next) = #tdfa
                        .__item_holes(#bytes, pos, span.end, holes, &mut tags, #exact)
                        .filter(|&n| n > pos)
                    else {
                        break;
                    };
                    #item_span
                    out.push(#value);
                    pos = next;
                }
                out
            }
        });
    }
    out
}

/// The `pub mod ast { ... }` of one grammar module. With `octets` (the
/// spec's terminals are octets), the trees read `&[u8]` and their parts are
/// byte slices; otherwise `&str`.
pub fn ast_module(
    grammar: &str,
    types: &[EmitType],
    trees: Option<&EmitTrees>,
    runtime: &str,
    style: IncludeStyle,
    octets: bool,
) -> TokenStream {
    let rt: TokenStream = runtime.parse().expect("runtime path is a Rust path");
    let input = if octets { Input::Bytes } else { Input::Text };
    let (text, bytes) = (input.ty(), input.as_bytes());
    let item_names = item_fn_names(types);
    let firsts = whole_first_alternatives(types);
    let weights = node_weights(types);
    let branchy = branchy_types(types);
    let mut items = Vec::new();
    if let Some(t) = trees {
        let path = |s: &str| super::include_path(&format!("{}.{s}", t.path), style);
        items.push(super::aligned_static(
            &format_ident!("__TREES"),
            path("le.net"),
            path("be.net"),
        ));
        let names = &t.names;
        items.push(quote! {
            /// The rules of the network that derives the trees of rules with a stack, by index.
            static __TREES_RULES: &[&str] = &[#(#names),*];
        });
    }
    for ty in types {
        let name = ident(&ty.name);
        let (doc, shape, tdfa) = match &ty.kind {
            EmitTypeKind::Reexport {
                module,
                is_enum,
                home_name,
            } => {
                let m = ident(module);
                let kind = format_ident!("{}Kind", ty.name);
                items.push(match home_name {
                    None if *is_enum => quote!(pub use super::super::#m::ast::{#name, #kind};),
                    None => quote!(pub use super::super::#m::ast::#name;),
                    Some(home) => {
                        let (home, home_kind) = (ident(home), format_ident!("{}Kind", home));
                        if *is_enum {
                            quote!(pub use super::super::#m::ast::{#home as #name, #home_kind as #kind};)
                        } else {
                            quote!(pub use super::super::#m::ast::#home as #name;)
                        }
                    }
                });
                continue;
            }
            EmitTypeKind::Local {
                doc,
                diagram,
                shape,
                tdfa,
                stack: _,
            } => (doc, shape, Some((tdfa, super::include_path(diagram, style)))),
            EmitTypeKind::Item { doc, shape, .. } => (doc, shape, None),
        };
        let (stack, stack_index) = match &ty.kind {
            EmitTypeKind::Local { stack, .. } => (stack.is_some(), stack.as_ref()),
            EmitTypeKind::Item { stack, .. } => (*stack, None),
            EmitTypeKind::Reexport { .. } => (false, None),
        };
        // A tree with a stack holds its lists as vectors: not `Copy`.
        let derive = if stack {
            quote!(#[derive(Clone, Debug, PartialEq, Eq)])
        } else {
            quote!(#[derive(Clone, Copy, Debug, PartialEq, Eq)])
        };
        let rule = &ty.rule;
        let gname = &ty.grammar;
        let (fields_decl, fields_init, fns) = match shape {
            EmitShape::Struct(fields) => {
                let decl = fields.iter().map(|f| {
                    let n = ident(&f.name);
                    let t = field_type(f, &rt, input, stack);
                    let d = format!(" `{}`", f.rule);
                    quote!(#[doc = #d] pub #n: #t,)
                });
                // The fields that branch or call first, the last of them
                // first, then the others in order: a struct literal's fields
                // are computed in the order written and stored at its end,
                // so a slice computed before a branch stays live across it,
                // spilled where registers run out. Measured on RFC 3339's
                // `DateTime` (363 instructions in grammar order): 366 with
                // the branching fields first in grammar order, 342 with the
                // last of them first (33.4 -> 31.5 ns); Language-Tag parts
                // 749 -> 741.
                let (early, late): (Vec<&EmitField>, Vec<&EmitField>) =
                    fields.iter().partition(|f| branches(f, &branchy));
                let init = early.into_iter().rev().chain(late).map(|f| {
                    let n = ident(&f.name);
                    let e = field_expr(&item_names, f, &rt, stack);
                    quote!(#n: #e,)
                });
                (
                    quote!(#(#decl)*),
                    quote!(#(#init)*),
                    item_fns(
                        &ty.name,
                        &item_names,
                        fields,
                        &rt,
                        input,
                        style,
                        stack,
                        tdfa.as_ref().and_then(|(t, _)| t.log.as_ref()),
                    ),
                )
            }
            EmitShape::Enum(variants) => {
                let kind = format_ident!("{}Kind", ty.name);
                let lt = if kind_has_lifetime(variants) {
                    quote!(<'a>)
                } else {
                    quote!()
                };
                let mut vdecl = Vec::new();
                let mut arms = Vec::new();
                let mut byte_arms = Vec::new();
                let mut fns = TokenStream::new();
                for v in variants {
                    let vn = ident(&v.name);
                    let vg = Literal::usize_unsuffixed(v.group);
                    let vdoc = match v.fields.as_slice() {
                        [] => format!(" The alternative `{}`.", v.name),
                        fs => format!(
                            " The alternative with {}.",
                            fs.iter()
                                .map(|f| format!("`{}`", f.rule))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    };
                    let value = match v.fields.as_slice() {
                        [] => {
                            vdecl.push(quote!(#[doc = #vdoc] #vn,));
                            quote!(#kind::#vn)
                        }
                        [f] => {
                            let t = field_type(f, &rt, input, stack);
                            let e = match v.bytes {
                                Some(_) => byte_field_expr(f, &rt, stack),
                                None => field_expr(&item_names, f, &rt, stack),
                            };
                            vdecl.push(quote!(#[doc = #vdoc] #vn(#t),));
                            quote!(#kind::#vn(#e))
                        }
                        fs => {
                            let decl = fs.iter().map(|f| {
                                let n = ident(&f.name);
                                let t = field_type(f, &rt, input, stack);
                                let d = format!(" `{}`", f.rule);
                                quote!(#[doc = #d] #n: #t)
                            });
                            let init = fs.iter().map(|f| {
                                let n = ident(&f.name);
                                let e = field_expr(&item_names, f, &rt, stack);
                                quote!(#n: #e)
                            });
                            vdecl.push(quote!(#[doc = #vdoc] #vn { #(#decl),* },));
                            quote!(#kind::#vn { #(#init),* })
                        }
                    };
                    match &v.bytes {
                        // Every byte of the alternative is an earlier one's.
                        Some(ranges) if ranges.is_empty() => {}
                        Some(ranges) => {
                            let pats = ranges.iter().map(|&(lo, hi)| {
                                let (l, h) = (Literal::u8_suffixed(lo), Literal::u8_suffixed(hi));
                                if lo == hi {
                                    quote!(#l)
                                } else {
                                    quote!(#l..=#h)
                                }
                            });
                            byte_arms.push(quote!(::core::option::Option::Some(#(#pats)|*) => #value,));
                        }
                        None => arms.push(quote!(if __rt::group(tags, #vg).is_some() { #value })),
                    }
                    fns.extend(item_fns(
                        &ty.name,
                        &item_names,
                        &v.fields,
                        &rt,
                        input,
                        style,
                        stack,
                        None,
                    ));
                }
                let kdoc = format!(" Which alternative of `{rule}` matched.");
                items.push(quote! {
                    #[doc = #kdoc]
                    #derive
                    // Nodes are borrowed views built on the stack; boxing a
                    // large variant would allocate on every parse.
                    #[allow(clippy::large_enum_variant)]
                    pub enum #kind #lt { #(#vdecl)* }
                });
                let decl = quote! {
                    /// Which alternative matched, with its parts.
                    pub kind: #kind #lt,
                };
                let init = if byte_arms.is_empty() {
                    quote! {
                        kind: #(#arms else)* { __rt::inconsistent(#gname, #rule, span.start) },
                    }
                } else {
                    // Every alternative is one byte: the variant is read off
                    // it, in the alternatives' order.
                    quote! {
                        kind: match #bytes.get(span.start) {
                            #(#byte_arms)*
                            _ => __rt::inconsistent(#gname, #rule, span.start),
                        },
                    }
                };
                (decl, init, fns)
            }
        };
        let has_list = match shape {
            EmitShape::Struct(fs) => fs.iter().any(|f| f.card == Card::Many),
            EmitShape::Enum(vs) => vs.iter().flat_map(|v| &v.fields).any(|f| f.card == Card::Many),
        };
        let holes_param = match (stack, has_list) {
            (true, true) => quote!(, holes: &[__rt::Hole]),
            (true, false) => quote!(, _holes: &[__rt::Hole]),
            (false, _) => quote!(),
        };
        // A small node is built in its parent's code (a timestamp's seven
        // nodes in one function, with no call and no copy of each node);
        // a large one stays a call, so that shared parts do not multiply.
        let inline = if weights
            .get(ty.name.as_str())
            .is_some_and(|&w| w <= MAX_INLINE_WEIGHT)
        {
            quote!(#[inline(always)])
        } else {
            quote!(#[inline])
        };
        let from_tags = quote! {
            /// The node from its automaton's tags.
            #[doc(hidden)]
            #inline
            pub fn __from_tags<T: __rt::Tags<'a, #text>>(input: &'a #text, span: #rt::Span, tags: T #holes_param) -> Self {
                Self {
                    span,
                    text: __rt::node_text(input, tags, span),
                    #fields_init
                }
            }
        };
        let Some((tdfa, diagram)) = tdfa else {
            items.push(quote! {
                #fns
                #(#[doc = #doc])*
                #derive
                pub struct #name<'a> {
                    /// Where this item is in the input (separators included).
                    pub span: #rt::Span,
                    /// The text this item matched.
                    pub text: &'a #text,
                    #fields_decl
                }
                impl<'a> #name<'a> {
                    #from_tags
                }
            });
            continue;
        };
        let tables = tdfa_items(tdfa, &rt, style);
        let tdfa_ident = ident(&tdfa.ident);
        let ntags = Literal::usize_unsuffixed(tdfa.tags as usize);
        let parse_doc =
            format!(" Parses all of `input` as `{rule}`; the error says where it stopped matching.");
        // A short input that fits one of the automaton's shapes is read
        // off the shape's offsets, with no walk (the node returned as
        // `ok(node)`).
        let shape_read = |ok: TokenStream| {
            tdfa.shapes.then(|| {
                quote! {
                    if let ::core::option::Option::Some(tags) = #tdfa_ident.__shape_tags::<_, #ntags>(input, start, end) {
                        return #ok(Self::__from_tags(input, #rt::Span { start, end }, tags));
                    }
                }
            })
        };
        // The first alternative is all one rule: where it matches the
        // whole span, it is the alternative a parse picks, and its own walk
        // reads its parts ([`whole_first_alternatives`]).
        // (`try_fn` is the part's shape read, `__try_shape`, or its walk,
        // `__try_walked`: `parse` and `parse_span` read the shape in line
        // and leave the walk to `__parse_walked`, which builds the node
        // where the caller wants it, with no copy.)
        let first_try = |try_fn: &str| {
            firsts.get(ty.name.as_str()).map(|f| {
                let (kind, variant, part) =
                    (format_ident!("{}Kind", ty.name), ident(f.variant), ident(f.part));
                let try_fn = format_ident!("{try_fn}");
                quote! {
                    if let ::core::option::Option::Some(node) = #part::#try_fn(input, start, end) {
                        let span = #rt::Span { start, end };
                        return Ok(Self { span, text: &input[span.range()], kind: #kind::#variant(node) });
                    }
                }
            })
        };
        let has_first = firsts.contains_key(ty.name.as_str());
        let shaped = shape_read(quote!(Ok));
        // The walk of a rule without a stack, in `parse_span` and (for
        // `parse`) in `__parse_walked`.
        let walk = match (&tdfa.log, tdfa.direct) {
            (Some(log), true) => {
                // The walk logs the list's items as it reads them; the
                // list builds them from the log.
                let walk = direct_fn(tdfa);
                let (words, ltags) = (
                    Literal::usize_unsuffixed(log.words),
                    Literal::usize_unsuffixed(log.holders.len()),
                );
                let field = ident(&log.field);
                let logged = match shape {
                    EmitShape::Struct(fs) => fs
                        .iter()
                        .find(|f| f.name == log.field)
                        .map(|f| format_ident!("{}_logged", item_names[&(f as *const EmitField)])),
                    EmitShape::Enum(_) => None,
                }
                .expect("a logged list is a field of the node's struct");
                quote! {
                    let mut tags = [usize::MAX; #ntags];
                    let mut log = __rt::ItemLog::<#words>::new(#ltags);
                    #tdfa_ident.__parse_walk_direct(#gname, #rule, #bytes, start, end, &mut tags, |i, s, e, t| #walk(i, s, e, t, &mut log))?;
                    let node = Self::__from_tags(input, #rt::Span { start, end }, &tags[..]);
                    Ok(Self { #field: node.#field.__with_log(log, #logged), ..node })
                }
            }
            (_, direct) => {
                let parse_walk = if direct {
                    let walk = direct_fn(tdfa);
                    quote!(#tdfa_ident.__parse_walk_direct(#gname, #rule, #bytes, start, end, &mut tags, #walk)?)
                } else {
                    quote!(#tdfa_ident.__parse_walk(#gname, #rule, #bytes, start, end, &mut tags)?)
                };
                quote! {
                    let mut tags = [usize::MAX; #ntags];
                    #parse_walk;
                    Ok(Self::__from_tags(input, #rt::Span { start, end }, &tags[..]))
                }
            }
        };
        // With a first alternative tried on its own, `parse_span` (which
        // `parse` calls) reads only its shape in line; its walk, then this
        // rule's shapes and walk, are `__parse_walked`'s, which returns the
        // node where the caller wants it: a node the part's walk returned
        // was copied whole (language tags: a `memcpy` of 7%).
        let (first_inline, first_walked) = (first_try("__try_shape"), first_try("__try_walked"));
        let shaped_walked = shaped.clone().filter(|_| has_first);
        let with_stack = matches!((stack_index, trees), (Some(_), Some(_)));
        let inline_parse = !with_stack && (has_first || shaped.is_some());
        let parse_span = match (stack_index, trees) {
            (Some((index, hole_bytes)), Some(t)) => {
                let rec = format_ident!("{}_TREE", tdfa.ident);
                let holes_const = format_ident!("{}_HOLES", tdfa.ident);
                let n = Literal::usize_unsuffixed(hole_bytes.len());
                let depth = t.nesting_limit;
                items.push(quote! {
                    static #rec: #rt::NetworkRecognizer =
                        #rt::NetworkRecognizer::__new(#gname, #rule, __TREES, #index, __TREES_RULES, #depth);
                    /// Per rule of the tree network, the byte this rule's automata read its calls as.
                    const #holes_const: [u8; #n] = [#(#hole_bytes),*];
                });
                quote! {
                    // A rule with a stack: one derivation of the input, whose
                    // calls the automaton reads as one byte each.
                    let holes = #rec.__holes(#bytes, start, end, &#holes_const)?;
                    let mut tags = [usize::MAX; #ntags];
                    if let ::core::result::Result::Err(at) = #tdfa_ident.run_holes(#bytes, start, end, &holes, &mut tags) {
                        __rt::inconsistent(#gname, #rule, at);
                    }
                    Ok(Self::__from_tags(input, #rt::Span { start, end }, &tags[..], &holes))
                }
            }
            // With a first alternative tried on its own: its shape read,
            // then what `parse` calls (the same tries in the same order).
            _ if has_first => quote! {
                #first_inline
                Self::__parse_walked(input, start, end)
            },
            // (The walk in line here, not a call of `__parse_walked`: the
            // call made language tags' parts 721 -> 738 instructions, before
            // they were read as above.)
            _ => quote! {
                #shaped
                #walk
            },
        };
        let first_doc = match firsts.get(ty.name.as_str()) {
            Some(FirstAlternative { part, rule, .. }) => {
                let doc = format!(
                    " Tries `{rule}` ([`{part}`]) on its own first: it is the first alternative, and all \
                     of it, so where it matches it is the alternative a parse picks, read in one walk."
                );
                quote!(#[doc = ""] #[doc = #doc])
            }
            None => quote!(),
        };
        let mut callers: Vec<&str> = firsts
            .iter()
            .filter(|(_, f)| f.part == ty.name)
            .map(|(owner, _)| *owner)
            .collect();
        callers.sort_unstable();
        let try_shaped = shape_read(quote!(::core::option::Option::Some));
        // (A rule with no shapes has nothing to read: `None`.)
        let try_shape_body = match &try_shaped {
            Some(read) => read.clone(),
            None => quote!(let _ = (input, start, end);),
        };
        let try_span = if !callers.is_empty() {
            let doc = format!(
                " `parse_span`'s shape read without the error (`None` where the span fits no shape): \
                 `{}` tries this rule first, its first alternative.",
                callers.join("`, `")
            );
            quote! {
                #[doc = #doc]
                #[doc(hidden)]
                #[inline(always)]
                pub fn __try_shape(input: &'a #text, start: usize, end: usize) -> ::core::option::Option<Self> {
                    #try_shape_body
                    ::core::option::Option::None
                }

                /// `parse_span`'s walk without the error (`None` where the span does not match),
                /// for a span that fits no shape.
                #[doc(hidden)]
                #[inline(always)]
                pub fn __try_walked(input: &'a #text, start: usize, end: usize) -> ::core::option::Option<Self> {
                    let mut tags = [usize::MAX; #ntags];
                    #tdfa_ident.__run_walk(#bytes, start, end, &mut tags).ok()?;
                    ::core::option::Option::Some(Self::__from_tags(input, #rt::Span { start, end }, &tags[..]))
                }
            }
        } else {
            quote!()
        };
        // With shapes (or a first alternative tried on its own, read off
        // its shapes), `parse` reads a short input off its shape inline,
        // always, so that the caller's code computes only the fields it
        // reads and copies no node: a tree costs what the caller reads of
        // it (RFC 3339 timestamps' eight fields: 338 -> 186 instructions a
        // tree, 41-55 -> 24-33 ns; language tags' parts 721 -> 670). The
        // walk stays out of line. (`parse_span`, which parents call for
        // their parts, stays out of line where it holds the walk: inlined,
        // it made language tags' parts 719 -> 768 instructions. With a
        // first alternative it is only the part's shape read and a call,
        // inlined, and `parse` is it.)
        let parse_inline = if has_first {
            quote!(Self::parse_span(input, 0, input.len()))
        } else {
            quote! {
                let (start, end) = (0, input.len());
                #shaped
                Self::__parse_walked(input, start, end)
            }
        };
        let parse_span_inline = has_first.then(|| quote!(#[inline(always)]));
        let (parse_fn, walked) = if inline_parse {
            (
                quote! {
                    #[inline(always)]
                    pub fn parse(input: &'a #text) -> ::core::result::Result<Self, #rt::MatchError> {
                        #parse_inline
                    }
                },
                quote! {
                    /// [`Self::parse`] for an input that fits no shape: walked.
                    #[doc(hidden)]
                    pub fn __parse_walked(input: &'a #text, start: usize, end: usize) -> ::core::result::Result<Self, #rt::MatchError> {
                        #first_walked
                        #shaped_walked
                        #walk
                    }
                },
            )
        } else {
            (
                quote! {
                    pub fn parse(input: &'a #text) -> ::core::result::Result<Self, #rt::MatchError> {
                        Self::parse_span(input, 0, input.len())
                    }
                },
                quote!(),
            )
        };
        let stack_doc = if stack {
            quote! {
                #[doc = ""]
                #[doc = " This rule needs a stack: a parse derives it in a network of rule automata, reads \
                         the parts that need a stack as `Nested` parts (parsed when asked for) and its \
                         lists into vectors."]
            }
        } else {
            quote!()
        };
        items.push(quote! {
            #tables
            #fns
            #(#[doc = #doc])*
            #stack_doc
            #[doc = ""]
            #[doc = include_str!(#diagram)]
            #derive
            pub struct #name<'a> {
                /// Where this node is in the input.
                pub span: #rt::Span,
                /// The text this node matched.
                pub text: &'a #text,
                #fields_decl
            }
            impl<'a> #name<'a> {
                #[doc = #parse_doc]
                #parse_fn

                /// Parses `input[start..end]` as a whole; spans are offsets into `input`.
                #first_doc
                #[doc(hidden)]
                #parse_span_inline
                pub fn parse_span(input: &'a #text, start: usize, end: usize) -> ::core::result::Result<Self, #rt::MatchError> {
                    #parse_span
                }

                #walked

                /// A part that an enclosing parse has already matched as this rule.
                #[doc(hidden)]
                pub fn __sub(input: &'a #text, span: #rt::Span) -> Self {
                    match Self::parse_span(input, span.start, span.end) {
                        Ok(node) => node,
                        Err(e) => __rt::inconsistent(#gname, #rule, e.offset()),
                    }
                }

                #try_span

                #from_tags
            }
        });
    }
    let doc = format!(" Typed, borrowed parse trees for the rules of `{grammar}`.");
    let alias = super::private_alias(&rt);
    quote! {
        #[doc = #doc]
        pub mod ast {
            #alias
            #(#items)*
        }
    }
}

/// One `@components` extraction to emit.
#[derive(Clone, Debug)]
pub struct EmitComponents {
    /// Rust type name.
    pub name: String,
    /// ABNF rule name.
    pub rule: String,
    /// Grammar (module) the directive is in.
    pub grammar: String,
    /// Docs: the rule's ABNF and where it came from.
    pub doc: Vec<String>,
    /// Fields: Rust name and the ABNF rules that fill it; field `i` is group
    /// `i + 1`.
    pub fields: Vec<(String, Vec<String>)>,
    /// Its tagged DFA.
    pub tdfa: EmitTdfa,
    /// Its exit walk, if its DFA has an exit plan.
    pub exits: Option<super::exits::ExitWalkModel>,
}

/// The `pub mod components { ... }` of one grammar module.
pub fn components_module(items: &[EmitComponents], runtime: &str, style: IncludeStyle) -> TokenStream {
    let rt: TokenStream = runtime.parse().expect("runtime path is a Rust path");
    let p = quote!(__rt);
    let alias = super::private_alias(&rt);
    let types = items.iter().map(|c| {
        let name = ident(&c.name);
        let tables = tdfa_items(&c.tdfa, &rt, style);
        let tdfa = ident(&c.tdfa.ident);
        let ntags = Literal::usize_unsuffixed(c.tdfa.tags as usize);
        let (rule, gname) = (&c.rule, &c.grammar);
        let doc = &c.doc;
        let names: Vec<Ident> = c.fields.iter().map(|(f, _)| ident(f)).collect();
        let field_docs = c.fields.iter().map(|(_, rules)| {
            let list: Vec<String> = rules.iter().map(|r| format!("`{r}`")).collect();
            format!(" Where {} matched, if it did.", list.join(" or "))
        });
        let groups: Vec<Literal> = (1..=c.fields.len()).map(Literal::usize_unsuffixed).collect();
        let walk = c.exits.as_ref().map(|m| super::exits::exit_walk_items(m, &rt, rule));
        let (extract, by_exits, fast_parse) = match &c.exits {
            Some(m) => {
                let w = ident(&m.ident);
                (
                    quote!(recognizer.extract_by_exits(&#tdfa, &#w, input, tags)),
                    quote! {
                        /// `parse` by the generated exit walk (for tests): at
                        /// `level`, or the scalar twin where the CPU lacks it.
                        #[doc(hidden)]
                        pub fn __parse_by_exits(input: &str, level: #rt::simd::Level) -> ::core::option::Option<Self> {
                            let mut tags = [usize::MAX; #ntags];
                            #rt::simd::walk_exits(level, &#w, input.as_bytes(), &mut tags).then(|| Self::__from_tags(&tags))
                        }
                        /// `parse` by the table walk alone (for tests).
                        #[doc(hidden)]
                        pub fn __parse_by_table(input: &str) -> ::core::result::Result<Self, #rt::MatchError> {
                            let mut tags = [usize::MAX; #ntags];
                            #tdfa.parse_utf8(#gname, #rule, input, &mut tags)?;
                            Ok(Self::__from_tags(&tags))
                        }
                    },
                    // The exit walk, with vectors where the CPU has them;
                    // the table walk finds the error of an input that does
                    // not match.
                    quote! {
                        if #rt::simd::walk_exits(#rt::simd::Level::detected(), &#w, input.as_bytes(), &mut tags) {
                            return Ok(Self::__from_tags(&tags));
                        }
                    },
                )
            }
            None => (quote!(recognizer.extract(&#tdfa, input, tags)), quote!(), quote!()),
        };
        quote! {
            #tables
            #walk
            #(#[doc = #doc])*
            ///
            /// The spans of the parts named in the spec's `@components`
            /// directive, found in one pass (a tagged DFA), with the same
            /// first-match-wins choices as the typed parse trees.
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
            pub struct #name {
                #(
                    #[doc = #field_docs]
                    pub #names: ::core::option::Option<#rt::Span>,
                )*
            }
            impl #name {
                /// Matches all of `input` against the rule and returns where its parts are.
                pub fn parse(input: &str) -> ::core::result::Result<Self, #rt::MatchError> {
                    let mut tags = [usize::MAX; #ntags];
                    #fast_parse
                    #tdfa.parse_utf8(#gname, #rule, input, &mut tags)?;
                    Ok(Self::__from_tags(&tags))
                }
                /// Like `parse`, on bytes.
                pub fn parse_bytes(input: &[u8]) -> ::core::result::Result<Self, #rt::MatchError> {
                    Self::parse_span(input, 0, input.len())
                }
                /// Matches all of `input[start..end]`; spans (and the error's
                /// offset) are offsets into `input`.
                ///
                /// # Panics
                ///
                /// If `start..end` is not a range of `input`.
                pub fn parse_span(input: &[u8], start: usize, end: usize) -> ::core::result::Result<Self, #rt::MatchError> {
                    let mut tags = [usize::MAX; #ntags];
                    #tdfa.parse(#gname, #rule, input, start, end, &mut tags)?;
                    Ok(Self::__from_tags(&tags))
                }
                /// Matches all of `input` against the rule of `recognizer`
                /// and finds the parts with this extraction, in one pass:
                /// both automata walk `input` in step (see
                /// `Recognizer::extract`). Meant for an extraction that
                /// splits rather than validates (it matches whatever the
                /// recognizer does), such as RFC 3986 Appendix B's.
                ///
                /// The error is the recognizer's if the input does not match
                /// its rule, else this rule's.
                pub fn parse_checked(recognizer: &#rt::Recognizer, input: &str) -> ::core::result::Result<Self, #rt::MatchError> {
                    let mut tags = [usize::MAX; #ntags];
                    Self::__parse_checked_tags(recognizer, input, &mut tags)?;
                    Ok(Self::__from_tags(&tags))
                }
                /// `parse_checked` into the extraction's tags (two per
                /// part, its start and end; `usize::MAX` where it did not
                /// occur; part `i` is group `i + 1`), for callers that read
                /// the parts without building this struct.
                #[doc(hidden)]
                #[inline(always)]
                pub fn __parse_checked_tags(recognizer: &#rt::Recognizer, input: &str, tags: &mut [usize; #ntags]) -> ::core::result::Result<(), #rt::MatchError> {
                    match #extract {
                        Ok(()) => Ok(()),
                        Err(#p::Stop::Rule(at)) => Err(recognizer.__error(input, at)),
                        Err(#p::Stop::Parts) => Err(Self::parse(input)
                            .err()
                            .unwrap_or_else(|| #p::inconsistent(#gname, #rule, input.len()))),
                    }
                }
                #by_exits
                /// The parts from an extraction's tags.
                #[doc(hidden)]
                #[inline(always)]
                pub fn __from_tags(tags: &[usize]) -> Self {
                    Self { #( #names: #p::group(tags, #groups), )* }
                }
            }
        }
    });
    quote! {
        /// Component extractions asked for by the spec's `@components`
        /// directives: one pass over the input gives the spans of the parts.
        pub mod components {
            #alias
            #(#types)*
        }
    }
}
