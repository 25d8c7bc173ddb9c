//! From a [`Compiled`] grammar to the emit model and the generated files:
//! the table files of every automaton, the docs of every item, the names of
//! hidden items, and the checks that the output can be Rust at all (module
//! names, output size). The Rust text itself is written by the sibling
//! modules.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::typed::{
    EmitComponents, EmitField, EmitShape, EmitTdfa, EmitType, EmitTypeKind, EmitVariant, Target,
};
use super::{EmitGrammar, EmitKind, EmitRule, IncludeStyle};
use crate::automata::Automaton;
use crate::compile::{Compiled, RuleStats};
use crate::config::Error;
use crate::diagnostic::{Code, Diagnostic, Diagnostics};
use crate::grammar::{Grammar, ModuleId, RuleId};
use crate::limits::Limits;
use crate::limits::MAX_PAIR_BYTES;
use crate::names::{self, Namer};
use crate::tagged::TaggedDfa;
use crate::typed::{self, Shape, TypeModel};

/// The stem of the generated index file (`grammars.rs`); no spec may be
/// named so, or its module would overwrite the index.
const INDEX_MODULE: &str = "grammars";

/// One generated file, its path relative to the output folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedFile {
    /// Relative path (`rfc3987.rs`, `rfc3987/iri_reference.le.dfa`).
    pub path: String,
    /// Contents.
    pub contents: Vec<u8>,
}

/// What [`crate::Config::generate`] produces.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The files.
    pub files: Vec<GeneratedFile>,
    /// Per-rule measurements.
    pub stats: Vec<RuleStats>,
    /// Warnings (generation succeeded).
    pub warnings: Diagnostics,
    /// Every spec file read from disk (for `rerun-if-changed`).
    pub inputs: Vec<PathBuf>,
}

impl Generated {
    /// The file at `path`, as text.
    pub fn file(&self, path: &str) -> Option<&str> {
        self.files
            .iter()
            .find(|f| f.path == path)
            .and_then(|f| std::str::from_utf8(&f.contents).ok())
    }
}

impl Compiled {
    pub(crate) fn emit(
        &self,
        runtime: &str,
        style: IncludeStyle,
        regenerate: &str,
        limits: Limits,
    ) -> Result<Generated, Error> {
        let g = &self.grammar;
        let mut files = Vec::new();
        let mut errors = Vec::new();
        let mut module_names = Vec::new();
        let mut schemes: Vec<(String, String, String)> = Vec::new();
        let exported_by: HashMap<RuleId, ModuleId> = self
            .exports
            .iter()
            .flat_map(|(m, ids)| {
                ids.iter()
                    .filter(|id| g.rule(**id).module == *m)
                    .map(|id| (*id, *m))
            })
            .collect();
        for (m, _) in &self.exports {
            let module = g.module(*m);
            if let Some(why) = not_a_module_name(&module.name) {
                errors.push(
                    Diagnostic::error(
                        Code::RustName,
                        format!("the spec file name `{}` cannot name a Rust module: {why}", module.name),
                        Some(crate::diagnostic::Span::new(module.file, 0..0)),
                    )
                    .with_note(format!(
                        "each spec becomes a module named after its file; rename the file, for example to `{}.abnf`",
                        match names::file_stem_name(&module.name).trim_start_matches("r_") {
                            INDEX_MODULE => format!("{INDEX_MODULE}_spec"),
                            other => other.to_string(),
                        }
                    )),
                );
            }
        }
        if !errors.is_empty() {
            return Err(Error::Grammar(Diagnostics {
                sources: g.sources.clone(),
                items: errors,
            }));
        }
        let top = self.top_rules();
        for (m, ids) in &self.exports {
            let module = g.module(*m);
            let mut rules = Vec::new();
            let mut idents: HashMap<String, RuleId> = HashMap::new();
            for &id in ids {
                let r = g.rule(id);
                let Some(ident) = claim_constant_name(g, id, &mut idents, &mut errors) else {
                    continue;
                };
                let home = exported_by.get(&id).filter(|home| *home != m);
                let kind = if let Some(home) = home {
                    EmitKind::Reexport {
                        module: g.module(*home).name.clone(),
                    }
                } else {
                    let a = &self.automata[&id];
                    let home_name = &g.module(r.module).name;
                    let dfa_path = format!("{}/{}", module.name, names::file_stem_name(&r.name));
                    let compact = self.recognizer_table(id);
                    let (sparse_le, sparse_be) = a.sparse_bytes();
                    let reverse = self.reverses.get(&id);
                    let mut doc = rule_doc(g, id, "Recognizer for");
                    for (b, depth) in crate::depth::bounds_reached(g, id) {
                        doc.push(String::new());
                        doc.push(format!(
                            " Bounded recursion (`@depth {} {depth}`): `{}` nests at most {depth} levels deep \
                             here; input that nests it deeper is rejected.",
                            g.rule(b).name,
                            g.rule(b).name
                        ));
                    }
                    doc.push(String::new());
                    doc.push(format!(
                        " Minimized DFA: {} states × {} byte classes, a {}-byte table; {} bytes as a sparse \
                         `regex-automata` DFA.",
                        compact.states(),
                        compact.alphabet,
                        compact.to_bytes(false).len(),
                        sparse_le.len()
                    ));
                    if !compact.skip.sets.is_empty() {
                        doc.push(String::new());
                        let n = compact.skip.sets.len();
                        doc.push(format!(
                            " Bit-parallel: {n} {} on 32 or more ASCII bytes; inputs of 96 bytes or more skip \
                             their runs a vector block at a time ({} bytes of loop sets in the table).",
                            if n == 1 { "state loops" } else { "states loop" },
                            compact.skip.bytes()
                        ));
                    }
                    if let Some(sh) = &compact.shapes {
                        doc.push(String::new());
                        let n = sh.ids.len();
                        doc.push(format!(
                            " Position by position: its inputs of up to 64 bytes are {n} {} of byte sets per \
                             position (at most {} per length; {} bytes in the table), checked at every position \
                             at once with no table walk.",
                            if n == 1 { "product" } else { "products" },
                            crate::automata::shapes::MAX_PER_LENGTH,
                            sh.bytes()
                        ));
                    }
                    let mut tables = vec![
                        ("le.table", compact.to_bytes(false)),
                        ("be.table", compact.to_bytes(true)),
                        ("le.sparse", sparse_le),
                        ("be.sparse", sparse_be),
                    ];
                    if let Some(rev) = reverse {
                        let bytes = rev.to_bytes(false);
                        doc.push(String::new());
                        doc.push(format!(
                            " Matched from both ends (`@bidirectional`): a reverse automaton of {} states, \
                             {} bytes with its sets.",
                            rev.states(),
                            bytes.len()
                        ));
                        tables.extend([("le.rev", bytes), ("be.rev", rev.to_bytes(true))]);
                    }
                    if let Some(sh) = &compact.shuffle {
                        doc.push(String::new());
                        doc.push(format!(
                            " Short inputs, and the head of long ones, are walked as a shuffle automaton where \
                             the CPU has AVX-512 VBMI: {} of the {} states as vector lanes, one byte permute \
                             per byte, {} bytes in the table.",
                            sh.states.len(),
                            compact.states(),
                            sh.to_bytes(compact.alphabet, false).len()
                        ));
                    }
                    for (suffix, contents) in tables {
                        files.push(GeneratedFile {
                            path: format!("{dfa_path}.{suffix}"),
                            contents,
                        });
                    }
                    let direct_name = format!("__{}_direct", ident.to_lowercase());
                    let direct = top
                        .contains(&id)
                        .then(|| super::direct::direct_walk(&direct_name, &r.name, &compact))
                        .flatten();
                    if direct.is_some() {
                        doc.push(String::new());
                        doc.push(format!(
                            " Walked as code: the inputs the bit-parallel walk takes go through `{direct_name}` (in \
                             `{dfa_path}.direct.rs`) instead, the table as {} blocks of code, one per state, whose \
                             transitions are jumps (no other rule uses this one, so long inputs are likely).",
                            compact.states()
                        ));
                    }
                    if let Some(src) = &direct {
                        files.push(GeneratedFile {
                            path: format!("{dfa_path}.direct.rs"),
                            contents: src.clone().into_bytes(),
                        });
                    }
                    EmitKind::Own {
                        grammar: home_name.clone(),
                        dfa_path,
                        doc,
                        bidirectional: reverse.is_some(),
                        direct: direct.is_some(),
                    }
                };
                rules.push(EmitRule {
                    name: r.name.clone(),
                    ident,
                    kind,
                });
            }
            for (scheme, id) in &module.schemes {
                match idents.iter().find(|(_, r)| *r == id) {
                    Some((ident, _)) => schemes.push((scheme.clone(), module.name.clone(), ident.clone())),
                    None => errors.push(Diagnostic::error(
                        Code::Scheme,
                        format!(
                            "`@scheme {scheme}` names rule `{}`, which is not exported",
                            g.rule(*id).name
                        ),
                        Some(g.rule(*id).name_span),
                    )),
                }
            }
            let source = file_name(&g.sources.get(module.file).name);
            let network = self.network_emit(*m, &mut idents, &mut errors, &mut files);
            let eg = EmitGrammar {
                name: module.name.clone(),
                source: source.clone(),
                rules,
                network,

                classes: one_char_classes(g, *m),
            };
            let ast = self
                .typed
                .models
                .iter()
                .find(|(mm, _)| mm == m)
                .map(|(_, model)| self.ast_emit(*m, model, runtime, style, &mut files));
            let components = self.components_emit(*m, runtime, style, &mut files);
            let ast = match (ast, components) {
                (Some(a), Some(c)) => Some(quote::quote!(#a #c)),
                (a, c) => a.or(c),
            };
            files.push(GeneratedFile {
                path: format!("{}.rs", module.name),
                contents: super::grammar_module(&eg, ast, runtime, style, regenerate).into_bytes(),
            });
            module_names.push((
                module.name.as_str(),
                module_doc(&g.sources.get(module.file).text, &source),
            ));
        }
        if !errors.is_empty() {
            return Err(Error::Grammar(Diagnostics {
                sources: g.sources.clone(),
                items: errors,
            }));
        }
        let total: usize = files.iter().map(|f| f.contents.len()).sum();
        if total > limits.output_bytes {
            // Name the rule with the largest recognizer: the likely cause.
            let largest = self
                .automata
                .iter()
                .map(|(id, a)| (recognizer_bytes(a), *id))
                .max_by_key(|&(bytes, id)| (bytes, std::cmp::Reverse(id)));
            let (span, what) = match largest {
                Some((bytes, id)) => (
                    Some(g.rule(id).name_span),
                    format!(
                        "the largest recognizer, `{}`, takes up to {bytes} bytes",
                        g.rule(id).name
                    ),
                ),
                None => (None, String::new()),
            };
            return Err(Error::Grammar(Diagnostics {
                sources: g.sources.clone(),
                items: vec![Diagnostic::error(
                    Code::TooLarge,
                    format!(
                        "the generated files would take {total} bytes, above the limit of {} bytes",
                        limits.output_bytes
                    ),
                    span,
                )
                .with_label(what)
                .with_note(
                    "raise the limit with `Config::limits` (`Limits::output_bytes`), or export fewer rules",
                )],
            }));
        }
        files.push(GeneratedFile {
            path: format!("{INDEX_MODULE}.rs"),
            contents: super::index_module(&module_names, &schemes, runtime, style, regenerate).into_bytes(),
        });
        let inputs = g.modules.iter().filter_map(|m| m.path.clone()).collect();
        Ok(Generated {
            files,
            stats: self.stats(),
            warnings: self.warnings.clone(),
            inputs,
        })
    }
}

impl Compiled {
    /// The emit model and table files of module `m`'s network, if it has
    /// one; its rules' Rust names join `idents` (a collision is an error).
    fn network_emit(
        &self,
        m: ModuleId,
        idents: &mut HashMap<String, RuleId>,
        errors: &mut Vec<Diagnostic>,
        files: &mut Vec<GeneratedFile>,
    ) -> Option<super::EmitNetwork> {
        let g = &self.grammar;
        let built = self.networks.iter().find(|n| n.module == m)?;
        let net = &built.network;
        let module = g.module(m);
        let path = format!("{}/__network", module.name);
        files.push(GeneratedFile {
            path: format!("{path}.le.net"),
            contents: net.to_bytes(false),
        });
        files.push(GeneratedFile {
            path: format!("{path}.be.net"),
            contents: net.to_bytes(true),
        });
        let engine = match &net.determinism {
            crate::network::Determinism::Deterministic(_) => {
                " walked deterministically: the next byte decides every call and return (one table step per \
                 byte, an explicit stack)"
                    .to_string()
            }
            crate::network::Determinism::General(why) => {
                format!(" walked by the general (Earley) engine: {why}")
            }
        };
        let mut rules = Vec::new();
        for &id in &built.exported {
            let r = g.rule(id);
            let Some(ident) = claim_constant_name(g, id, idents, errors) else {
                continue;
            };
            let mut doc = rule_doc(g, id, "Recognizer for");
            doc.push(String::new());
            doc.push(format!(
                " This rule needs a stack (its recursion is not regular, or its automaton would be too large): \
                 it is a network of {} rule automata ({} states, {} byte classes),{engine}. Calls nest at \
                 most {} deep; deeper input is rejected with `ErrorKind::TooDeep`.",
                net.rules.len(),
                net.states(),
                net.alphabet,
                self.nesting_limit
            ));
            rules.push((
                r.name.clone(),
                ident,
                net.index_of(id)
                    .expect("an exported network rule is in its network"),
                doc,
            ));
        }
        Some(super::EmitNetwork {
            path,
            names: net.rules.iter().map(|&r| g.rule(r).name.clone()).collect(),
            rules,
            nesting_limit: self.nesting_limit,
        })
    }
}

impl Compiled {
    /// The grammar's top rules, the rules no rule uses (the ones long
    /// inputs are matched against): they get walks as code as well as
    /// tables ([`super::direct`]), unless `Config::direct_walks` turned
    /// them off; the rules they use keep the table walks alone, so that
    /// the generated code grows with the top rules, not with the grammar.
    fn top_rules(&self) -> HashSet<RuleId> {
        let g = &self.grammar;
        if !self.direct_walks {
            return HashSet::new();
        }
        let mut used = HashSet::new();
        for rule in &g.rules {
            rule.expr.for_each_ref(&mut |id, _| {
                used.insert(id);
            });
        }
        (0..g.rules.len() as u32)
            .map(RuleId)
            .filter(|id| !used.contains(id))
            .collect()
    }
}

/// The rules that module `m` defines or imports and that match one
/// character, RFC 5234's core rules aside (the runtime names those), with
/// the words of the set of bytes their characters start with: sets of two
/// bytes or more, each once (under the first rule that has it), largest
/// first, so that an error names `reserved` rather than `gen-delims` and
/// `sub-delims`.
fn one_char_classes(g: &Grammar, m: ModuleId) -> Vec<(String, [u64; 4])> {
    let module = g.module(m);
    let mut lowerer = crate::regular::Lowerer::new(g);
    let mut classes: Vec<(String, abnf_runtime::ByteSet)> = Vec::new();
    for &id in module.defined.iter().chain(&module.imported) {
        let rule = g.rule(id);
        if rule.module == ModuleId(0) {
            continue;
        }
        let Some(set) = lowerer
            .lower(id)
            .ok()
            .and_then(|hir| crate::regular::first_bytes_of_one_char(&hir))
        else {
            continue;
        };
        if set.len() >= 2 && !classes.iter().any(|(_, s)| *s == set) {
            classes.push((rule.name.clone(), set));
        }
    }
    classes.sort_by_key(|(_, set)| std::cmp::Reverse(set.len()));
    classes
        .into_iter()
        .map(|(name, set)| (name, set.__words()))
        .collect()
}

/// Rule `id`'s Rust constant name, unless another rule of the module has
/// it already (then an error, and `None`).
fn claim_constant_name(
    g: &Grammar,
    id: RuleId,
    idents: &mut HashMap<String, RuleId>,
    errors: &mut Vec<Diagnostic>,
) -> Option<String> {
    let r = g.rule(id);
    let mut ident = names::constant_name(&r.name);
    if ident == "GRAMMAR" {
        ident.push_str("_RULE");
    }
    if let Some(&other) = idents.get(&ident) {
        errors.push(
            Diagnostic::error(
                Code::RustName,
                format!(
                    "rules `{}` and `{}` both become the Rust name `{ident}`",
                    g.rule(other).name,
                    r.name
                ),
                Some(r.name_span),
            )
            .with_label("this rule's Rust name collides")
            .with_secondary(g.rule(other).name_span, "with this rule's")
            .with_note("rename one of the rules, or export only one of them"),
        );
        return None;
    }
    idents.insert(ident.clone(), id);
    Some(ident)
}

/// `Recognizer for the rule `X` of `file` (line N):` and the rule's ABNF.
fn rule_doc(g: &Grammar, id: RuleId, what: &str) -> Vec<String> {
    let r = g.rule(id);
    let mut doc = vec![format!(
        " {what} the rule `{}` of `{}` (line {}):",
        r.name,
        file_name(&g.sources.get(r.name_span.file).name),
        g.rule_line(id)
    )];
    doc.push(String::new());
    doc.push(" ```text".into());
    doc.extend(g.rule_text(id).lines().map(|l| format!(" {l}")));
    doc.push(" ```".into());
    doc
}

/// The tables of tagged DFA `d` (and, with `direct` `Some((longest,
/// what))` and for a DFA that is not too large, its walk as code, whose
/// doc says it reads `what`: [`super::direct::direct_tagged_walk`]).
fn emit_tdfa(
    ident: String,
    path: String,
    d: &TaggedDfa,
    pairs: bool,
    direct: Option<(bool, String)>,
    log: Option<super::direct::ItemLoops>,
    files: &mut Vec<GeneratedFile>,
) -> EmitTdfa {
    let pair_bytes = pairs.then_some(MAX_PAIR_BYTES);
    let (both, shapes) = d
        .to_bytes_both(pair_bytes)
        .expect("tables fit: state and list counts were checked when building");
    for (ext, contents) in ["le.tdfa", "be.tdfa"].into_iter().zip(both) {
        files.push(GeneratedFile {
            path: format!("{path}.{ext}"),
            contents,
        });
    }
    let direct = direct.and_then(|(longest, what)| {
        super::direct::direct_tagged_walk(&ident.to_lowercase(), &what, d, longest, log.as_ref())
    });
    let log = log.map(|l| l.log);
    if let Some(src) = direct.as_ref() {
        files.push(GeneratedFile {
            path: format!("{path}.direct.rs"),
            contents: src.clone().into_bytes(),
        });
    }
    EmitTdfa {
        ident,
        path,
        tags: d.tags as u32,
        shapes,
        direct: direct.is_some(),
        log,
    }
}

impl Compiled {
    /// The `components` module of root module `m`, if its spec asks for any.
    fn components_emit(
        &self,
        m: ModuleId,
        runtime: &str,
        style: IncludeStyle,
        files: &mut Vec<GeneratedFile>,
    ) -> Option<proc_macro2::TokenStream> {
        let g = &self.grammar;
        let module = &g.module(m).name;
        let built = &self.typed.components.iter().find(|(mm, _)| *mm == m)?.1;
        if built.is_empty() {
            return None;
        }
        let mut names = names::Names::default();
        let mut hidden = Namer::default();
        let mut paths = Namer::default();
        let items: Vec<EmitComponents> = built
            .iter()
            .map(|c| {
                let r = g.rule(c.rule);
                let stem = paths.unique(names::file_stem_name(&r.name));
                EmitComponents {
                    name: names.unique(names::camel(&r.name)),
                    rule: r.name.clone(),
                    grammar: module.clone(),
                    doc: rule_doc(g, c.rule, "Components of"),
                    fields: c
                        .fields
                        .iter()
                        .map(|(f, rules)| {
                            (
                                names::snake(f),
                                rules.iter().map(|&t| g.rule(t).name.clone()).collect(),
                            )
                        })
                        .collect(),
                    tdfa: emit_tdfa(
                        hidden.unique(format!("__{}_COMPONENTS", names::constant_name(&r.name))),
                        format!("{module}/components/{stem}"),
                        &c.tdfa,
                        true,
                        None,
                        None,
                        files,
                    ),
                    exits: c.tdfa.exit_plan().map(|plan| {
                        let name = hidden.unique(format!("__{}Exits", names::camel(&r.name)));
                        super::exits::ExitWalkModel::of(name, &c.tdfa, &plan)
                    }),
                }
            })
            .collect();
        Some(super::typed::components_module(&items, runtime, style))
    }

    /// The typed AST module of root module `m`.
    fn ast_emit(
        &self,
        m: ModuleId,
        model: &TypeModel,
        runtime: &str,
        style: IncludeStyle,
        files: &mut Vec<GeneratedFile>,
    ) -> proc_macro2::TokenStream {
        let g = &self.grammar;
        let module = &g.module(m).name;
        let top_rules = self.top_rules();
        // A type from a spec whose trees read the other input type (bytes
        // for octet terminals, `&str` otherwise) cannot be a field here: such
        // a field holds its text.
        let octets = g.octets.contains(&m);
        let target = |rule: RuleId| match model.get(rule) {
            Some(_) if g.rule(rule).module != m && g.octets.contains(&g.rule(rule).module) != octets => {
                Target::Leaf
            }
            Some(t) if self.typed.is_nested(rule) => Target::Nested(t.name.clone()),
            Some(t) => Target::Typed(t.name.clone()),
            None => Target::Leaf,
        };
        // The network that derives the trees of rules with a stack.
        let tree_net = self.typed.trees.iter().find(|t| t.module == m);
        let trees = tree_net.map(|t| {
            let path = format!("{module}/ast/__trees");
            files.push(GeneratedFile {
                path: format!("{path}.le.net"),
                contents: t.network.to_bytes(false),
            });
            files.push(GeneratedFile {
                path: format!("{path}.be.net"),
                contents: t.network.to_bytes(true),
            });
            super::typed::EmitTrees {
                path,
                names: t.network.rules.iter().map(|&r| g.rule(r).name.clone()).collect(),
                nesting_limit: self.nesting_limit,
            }
        });
        let mut types = Vec::new();
        // Hidden items and table files get unique names in order of
        // appearance (`__A_B_CS_ITEM` of rule `a-b` field `cs` and of rule
        // `a` field `b-cs`; the same field in two variants).
        let hidden = std::cell::RefCell::new(Namer::default());
        let paths = std::cell::RefCell::new(Namer::default());
        for ty in &model.types {
            let r = g.rule(ty.rule);
            let home = r.module;
            let mut item_types = Vec::new();
            let home_type = (home != m)
                .then(|| {
                    self.typed
                        .models
                        .iter()
                        .find(|(hm, _)| *hm == home)
                        .and_then(|(_, hmodel)| hmodel.get(ty.rule))
                })
                .flatten();
            let kind = if let Some(home_type) = home_type {
                // Its item types come from home too.
                let here = item_types_of(&ty.shape);
                let there = item_types_of(&home_type.shape);
                for ((name, is_enum), (home_name, _)) in here.into_iter().zip(there) {
                    item_types.push(EmitType {
                        rule: r.name.clone(),
                        grammar: g.module(home).name.clone(),
                        kind: EmitTypeKind::Reexport {
                            module: g.module(home).name.clone(),
                            is_enum,
                            home_name: (home_name != name).then_some(home_name),
                        },
                        name,
                    });
                }
                EmitTypeKind::Reexport {
                    module: g.module(home).name.clone(),
                    is_enum: matches!(ty.shape, Shape::Enum(_)),
                    home_name: (home_type.name != ty.name).then(|| home_type.name.clone()),
                }
            } else {
                let stem = paths.borrow_mut().unique(names::file_stem_name(&r.name));
                let tdfa_name = hidden
                    .borrow_mut()
                    .unique(format!("__{}_TDFA", names::constant_name(&r.name)));
                // The groups as `regular::captures` placed them.
                let typed_dfa = &self.typed.tdfas[&ty.rule];
                let stack = self.typed.tree_of(ty.rule).map(|t| {
                    (
                        t.network
                            .index_of(ty.rule)
                            .expect("a typed rule with a stack is a rule of its network"),
                        t.bytes[&ty.rule].clone(),
                    )
                });
                let mut cx = FieldCx {
                    stack: stack.is_some(),
                    compiled: self,
                    rule: ty.rule,
                    stem: &stem,
                    module,
                    hidden: &hidden,
                    paths: &paths,
                    target: &target,
                    files: Vec::new(),
                    items: Vec::new(),
                    top: stack.is_none()
                        && (top_rules.contains(&ty.rule)
                            || self.direct_walks && typed_dfa.dfa.states() <= MAX_SMALL_DIRECT_STATES),
                    lists: Vec::new(),
                };
                let mut shape = cx.shape(&ty.shape, &typed_dfa.groups, &r.expr, None);
                files.append(&mut cx.files);
                item_types.append(&mut cx.items);
                let loops = cx
                    .top
                    .then(|| item_loops(&mut shape, &typed_dfa.dfa, &cx.lists))
                    .flatten();
                let tdfa = emit_tdfa(
                    tdfa_name,
                    format!("{module}/ast/{stem}"),
                    &typed_dfa.dfa,
                    false,
                    cx.top.then(|| (false, format!("`{}`", r.name))),
                    loops,
                    files,
                );
                let diagram = format!("{module}/ast/{stem}.svg");
                files.push(GeneratedFile {
                    path: diagram.clone(),
                    contents: crate::tools::diagram_svg(g, ty.rule).into_bytes(),
                });
                EmitTypeKind::Local {
                    doc: rule_doc(g, ty.rule, "Parse tree of"),
                    diagram,
                    shape,
                    tdfa,
                    stack,
                }
            };
            types.push(EmitType {
                name: ty.name.clone(),
                rule: r.name.clone(),
                grammar: g.module(home).name.clone(),
                kind,
            });
            types.append(&mut item_types);
        }
        super::typed::ast_module(
            module,
            &types,
            trees.as_ref(),
            runtime,
            style,
            g.octets.contains(&m),
        )
    }
}

/// The item types below a shape, in the order [`FieldCx::shape`] emits
/// them: name, and whether it is an enum.
fn item_types_of(shape: &Shape) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for f in typed::shape_fields(shape) {
        if let Some(item) = &f.item {
            out.extend(item_types_of(&item.shape));
            out.push((item.name.clone(), matches!(item.shape, Shape::Enum(_))));
        }
    }
    out
}

/// What the fields of one typed rule's shape (and of its item types) need
/// to become emit fields.
struct FieldCx<'a> {
    compiled: &'a Compiled,
    /// The rule needs a stack: its item types read their parts with holes.
    stack: bool,
    rule: RuleId,
    stem: &'a str,
    module: &'a str,
    hidden: &'a std::cell::RefCell<Namer>,
    paths: &'a std::cell::RefCell<Namer>,
    target: &'a dyn Fn(RuleId) -> Target,
    /// Table files of the element automata.
    files: Vec<GeneratedFile>,
    /// The item types met, to emit after the rule's type.
    items: Vec<EmitType>,
    /// The rule is a top rule (`Compiled::top_rules`), or its tree is small
    /// ([`MAX_SMALL_DIRECT_STATES`]): its tree is walked as code, and its
    /// lists' items too.
    top: bool,
    /// The node's own lists whose items are walked as code (the longest
    /// match each): field name, element automaton and its walk's name.
    lists: Vec<(String, &'a TaggedDfa, String)>,
}

impl FieldCx<'_> {
    /// The emit shape of `shape`, whose parts are in `groups`; `prefix` is
    /// the key of the list whose item it is ([`typed::lists`]).
    /// `base` is the expression the shape's paths are in (the rule body, or
    /// the list's element).
    fn shape(
        &mut self,
        shape: &Shape,
        groups: &typed::Groups,
        base: &crate::grammar::Expr,
        prefix: Option<&[usize]>,
    ) -> EmitShape {
        match shape {
            Shape::Struct(fs) => {
                EmitShape::Struct(fs.iter().map(|f| self.field(f, groups, base, prefix)).collect())
            }
            Shape::List(f) => EmitShape::Struct(vec![self.field(f, groups, base, prefix)]),
            Shape::Enum(vs) => {
                let kinds = groups.byte_kinds();
                EmitShape::Enum(
                    vs.iter()
                        .enumerate()
                        .map(|(i, v)| EmitVariant {
                            name: v.name.clone(),
                            // Read off the byte: the variant has no group.
                            group: match kinds {
                                Some(_) => 0,
                                None => groups.variant(&v.path).expect("every variant has a group"),
                            },
                            bytes: kinds.map(|k| k[i].clone()),
                            fields: v
                                .fields
                                .iter()
                                .map(|f| self.field(f, groups, base, prefix))
                                .collect(),
                            whole: kinds.is_none()
                                && prefix.is_none()
                                && matches!(v.fields.as_slice(), [f] if f.card == typed::Card::One
                                    && f.rule.is_some()
                                    && f.item.is_none()
                                    && f.path == v.path),
                        })
                        .collect(),
                )
            }
        }
    }

    fn field(
        &mut self,
        f: &typed::Field,
        groups: &typed::Groups,
        base: &crate::grammar::Expr,
        prefix: Option<&[usize]>,
    ) -> EmitField {
        let g = &self.compiled.grammar;
        let r = g.rule(self.rule);
        // The part of an enum read off its byte is that byte: the node's
        // own span, group 0.
        let by_byte = groups.byte_kinds().is_some();
        let group = match by_byte {
            true => 0,
            false => groups.field(&f.path).expect("every field has a group"),
        };
        let key: Vec<usize> = match prefix {
            Some(p) => p
                .iter()
                .copied()
                .chain([usize::MAX])
                .chain(f.path.iter().copied())
                .collect(),
            None => f.path.clone(),
        };
        let built = self.compiled.typed.elements.get(&(self.rule, key.clone()));
        // A list cut by offset needs no element tables.
        let element = built.filter(|d| d.fixed.is_none()).map(|d| {
            emit_tdfa(
                self.hidden.borrow_mut().unique(format!(
                    "__{}_{}_ITEM",
                    names::constant_name(&r.name),
                    names::constant_name(&f.name)
                )),
                self.paths
                    .borrow_mut()
                    .unique(format!("{}/ast/{}.{}", self.module, self.stem, f.name)),
                &d.dfa,
                false,
                self.top.then(|| {
                    let what = format!("the items of `{}`'s list `{}`", r.name, f.name);
                    (d.exact.is_none(), what)
                }),
                None,
                &mut self.files,
            )
        });
        if let (Some(e), Some(d), None) = (&element, built, prefix) {
            if e.direct && d.exact.is_none() && f.card == typed::Card::Many {
                self.lists.push((
                    f.name.clone(),
                    &d.dfa,
                    format!("{}_direct", e.ident.to_lowercase()),
                ));
            }
        }
        let (holds, target) = match (f.rule, &f.item, built) {
            (Some(rule), _, _) => (g.rule(rule).name.clone(), (self.target)(rule)),
            (None, Some(item), Some(d)) => {
                let elem = f.element.as_ref().expect("a list field has an element");
                let shape = self.shape(&item.shape, &d.groups, elem, Some(&key));
                let element = crate::tools::abnf_text(g, elem);
                self.items.push(EmitType {
                    name: item.name.clone(),
                    rule: r.name.clone(),
                    grammar: g.module(r.module).name.clone(),
                    kind: EmitTypeKind::Item {
                        doc: vec![
                            format!(
                                " One item of the list `{}` of the rule `{}`: one match of",
                                f.name, r.name
                            ),
                            String::new(),
                            " ```text".into(),
                            format!(" {element}"),
                            " ```".into(),
                        ],
                        shape,
                        stack: self.stack,
                    },
                });
                (element, Target::Typed(item.name.clone()))
            }
            _ => (
                typed::expr_at(base, &f.path).map_or_else(String::new, |e| crate::tools::abnf_text(g, e)),
                Target::Leaf,
            ),
        };
        EmitField {
            name: f.name.clone(),
            rule: holds,
            group,
            card: f.card,
            target,
            element,
            whole_item: f.item.is_some(),
            exact: built.and_then(|d| d.exact),
            // (A typed part of an enum read off its byte is one too, built
            // from the same tags.)
            nested: by_byte || groups.nests(group),
            item_nested: f.item.is_none() && built.is_some_and(|d| d.groups.nests(1)),
            fixed: built.and_then(|d| d.fixed.clone()),
            log_words: None,
        }
    }
}

/// A typed tree whose tagged DFA has at most this many states is walked
/// as code even where its rule is not a top rule: a part that a top rule's
/// tree parses again on its own (RFC 9112's `origin-form`, 9 states, from
/// a request head: 9% of the typed tree's time in its table walk) costs
/// little code.
const MAX_SMALL_DIRECT_STATES: usize = 16;

/// Items a node's walk logs for a list ([`super::direct::ItemLoops`]).
const LOG_ITEMS: usize = 16;

/// The most distinct tags ([`log_slots`]) an item may have to be logged
/// (an entry takes one word more, for its end).
const MAX_LOG_TAGS: usize = 14;

/// The first of the node's lists `lists` ([`FieldCx::lists`]) whose items
/// its automaton `d` can read with the items' own walk
/// ([`crate::tagged::item_loops`]), marked in `shape` as logged.
fn item_loops(
    shape: &mut EmitShape,
    d: &TaggedDfa,
    lists: &[(String, &TaggedDfa, String)],
) -> Option<super::direct::ItemLoops> {
    // Only a walk as code logs (none past its states' limit).
    if !matches!(shape, EmitShape::Struct(_)) || d.states() > super::direct::MAX_TAGGED_STATES {
        return None;
    }
    lists.iter().find_map(|(field, item, walk)| {
        let (slots, holders) = log_slots(item);
        let shortest = crate::tagged::item_loops::shortest_match(item);
        if holders.len() > MAX_LOG_TAGS || shortest.is_none_or(|n| n < MIN_LOGGED_ITEM) {
            return None;
        }
        let entries = crate::tagged::item_loops::item_entries(d, item);
        if entries.is_empty() {
            return None;
        }
        let log = super::typed::EmitLog {
            field: field.clone(),
            words: LOG_ITEMS * (holders.len() + 1),
            tags: item.tags,
            slots,
            holders,
        };
        set_log(shape, &log);
        Some(super::direct::ItemLoops {
            entries,
            walk: walk.clone(),
            log,
        })
    })
}

/// The shortest item a list's log is kept for: a call of the item's walk
/// costs about as much as a few steps of the node's, so that for items of
/// a byte or two (the characters of a quoted string) the walk would pay
/// more than the list saves, and more where the list is not read.
const MIN_LOGGED_ITEM: usize = 3;

/// Which tags of the items of automaton `item` a log entry keeps: per
/// tag its word (`None` for a tag no match sets), and per word the first
/// tag it holds. Tags that every final state takes from the same register
/// (or all from the match's end) are equal in every match and share a
/// word: a request head's field line has 14 tags and 6 words.
fn log_slots(item: &TaggedDfa) -> (Vec<Option<usize>>, Vec<usize>) {
    let mut holders: Vec<usize> = Vec::new();
    let mut keys: Vec<Vec<u32>> = Vec::new();
    let slots = (0..item.tags)
        .map(|t| {
            let key: Vec<u32> = item.finals.iter().flatten().map(|f| f[t]).collect();
            if key.iter().all(|&r| r == crate::tagged::UNSET) {
                return None;
            }
            Some(keys.iter().position(|k| *k == key).unwrap_or_else(|| {
                keys.push(key);
                holders.push(t);
                holders.len() - 1
            }))
        })
        .collect();
    (slots, holders)
}

/// Marks the field of `shape` that `log` logs.
fn set_log(shape: &mut EmitShape, log: &super::typed::EmitLog) {
    if let EmitShape::Struct(fs) = shape {
        for f in fs {
            f.log_words = (log.field == f.name).then_some(log.words);
        }
    }
}

/// Bytes of the tables written for one recognizer, estimated from above
/// without building them (converting a DFA of a million states takes
/// longer than building it): its compact table and sparse DFA, each in both
/// byte orders, are each at most the size of the dense DFA.
fn recognizer_bytes(a: &Automaton) -> usize {
    4 * a.dfa.memory_usage()
}

/// A grammar module's docs: the comment lines that open its spec file
/// (directives left out), then where it came from.
fn module_doc(text: &str, source: &str) -> Vec<String> {
    let mut doc: Vec<String> = text
        .lines()
        .map(str::trim)
        .take_while(|l| l.is_empty() || l.starts_with(';'))
        .filter_map(|l| l.strip_prefix(';'))
        .filter(|l| !l.trim_start().starts_with('@'))
        .map(|l| format!(" {}", doc_text(l.trim())).trim_end().to_string())
        .collect();
    while doc.last().is_some_and(|l| l.is_empty()) {
        doc.pop();
    }
    if !doc.is_empty() {
        doc.push(String::new());
    }
    doc.push(format!(" Generated from `{source}`."));
    doc
}

/// A comment line as Markdown: brackets (ABNF's options) are not links,
/// addresses are.
fn doc_text(line: &str) -> String {
    line.split(' ')
        .map(|w| {
            if w.starts_with("http://") || w.starts_with("https://") {
                format!("<{w}>")
            } else {
                w.replace('[', "\\[").replace(']', "\\]")
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The runtime crate's path is pasted into every generated file: it must be
/// a plain Rust path (`::iri_grammar`, `crate::rt`), not empty, not tokens
/// that fail to parse, and without generic arguments.
pub(crate) fn check_runtime_path(runtime: &str) -> Result<(), Error> {
    let why = match syn::parse_str::<syn::Path>(runtime) {
        Err(e) => Some(e.to_string()),
        Ok(p) if p.segments.iter().any(|s| !s.arguments.is_none()) => {
            Some("generic arguments are not allowed".to_string())
        }
        Ok(_) => None,
    };
    match why {
        None => Ok(()),
        Some(why) => Err(Error::Config(format!(
            "the runtime crate path {:?} is not a Rust path ({why}); write it like `::iri_grammar`",
            crate::diagnostic::escape_text(runtime, false)
        ))),
    }
}

/// Why `name` cannot be a Rust module name, if it cannot.
fn not_a_module_name(name: &str) -> Option<&'static str> {
    let mut chars = name.chars();
    let first = chars.next()?;
    if !(first.is_ascii_alphabetic() || first == '_') {
        return Some("it must start with a letter");
    }
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Some("it may hold only ASCII letters, digits and `_`");
    }
    if syn::parse_str::<syn::Ident>(name).is_err() {
        return Some("it is a Rust keyword");
    }
    if name == INDEX_MODULE {
        return Some("`grammars.rs` is the generated index of all modules");
    }
    None
}

/// The last component of a path, for docs that must not depend on where the
/// workspace was checked out.
fn file_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map_or_else(|| path.to_string(), |f| f.to_string_lossy().into_owned())
}
