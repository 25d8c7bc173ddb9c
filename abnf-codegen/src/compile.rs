//! The pipeline from a [`Config`] to a [`Compiled`] grammar: load and check
//! the specs, lower every exported rule and build its recognizer, then the
//! typed trees' and `@components`' tagged DFAs. Rules that cannot be
//! compiled are left out here ([`crate::partial`]); turning the result into
//! Rust is [`crate::emit`]'s job.

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::time::Duration;

use crate::automata::{self, Automaton, Compact, SizeError};
use crate::config::{Config, Error};
use crate::diagnostic::{Code, Diagnostic, Diagnostics};
use crate::grammar::{self, Grammar, ModuleId, RuleId};
use crate::limits::{MAX_PAIR_BYTES, MAX_REVERSE_STATES};
use crate::names;
use crate::network::Network;
use crate::partial::{self, LeftOut};
use crate::regular::Lowerer;
use crate::tagged::TaggedDfa;
use crate::typed::{self, Groups, TypeModel};
use crate::wire::{WireBytes, NATIVE_BIG_ENDIAN};

/// What to do about a typed AST whose automaton is too large.
const AST_TOO_BIG: &str = "make the rule a leaf with `Config::ast_leaves` to silence this, raise \
     `Limits::tagged_states`, or turn the typed AST off with `Config::typed_ast(false)`";

/// A grammar with the automata of its exported rules, in memory.
pub struct Compiled {
    /// The resolved grammar.
    pub grammar: Grammar,
    /// Warnings found on the way.
    pub warnings: Diagnostics,
    pub(crate) exports: Vec<(ModuleId, Vec<RuleId>)>,
    pub(crate) automata: HashMap<RuleId, Automaton>,
    /// The reverse automata of `@bidirectional` rules.
    pub(crate) reverses: HashMap<RuleId, automata::Reverse>,
    pub(crate) typed: TypedParts,
    pub(crate) left_out: Vec<LeftOut>,
    /// Per root module, the network of its exported rules that need a
    /// stack, with those rules in export order.
    pub(crate) networks: Vec<BuiltNetwork>,
    /// How many calls the generated recognizers of network rules may nest.
    pub(crate) nesting_limit: usize,
    /// Whether top rules get walks as code too ([`crate::emit::direct`]).
    pub(crate) direct_walks: bool,
}

/// The network of one root module's rules that need a stack.
pub(crate) struct BuiltNetwork {
    pub(crate) module: ModuleId,
    pub(crate) network: Network,
    /// The exported rules walked in it.
    pub(crate) exported: Vec<RuleId>,
    /// Its table, as the runtime reads it (for [`CompiledRule`]).
    pub(crate) wire: WireBytes,
}

/// The typed AST of each root module with its automata.
#[derive(Default)]
pub(crate) struct TypedParts {
    pub(crate) models: Vec<(ModuleId, TypeModel)>,
    pub(crate) tdfas: HashMap<RuleId, TypedDfa>,
    /// Each list field's element automaton and which of its groups holds
    /// which part of the item, by rule and the field's key
    /// ([`typed::lists`]; two variants may each have a field of the same
    /// name).
    pub(crate) elements: HashMap<(RuleId, Vec<usize>), ElementDfa>,
    /// Per root module, its `@components` extractions, in spec order.
    pub(crate) components: Vec<(ModuleId, Vec<BuiltComponents>)>,
    /// Per root module whose typed rules include rules with a stack: the
    /// network their trees are derived in.
    pub(crate) trees: Vec<TreeNetwork>,
    /// The typed rules that reach themselves.
    pub(crate) recursive: std::collections::HashSet<RuleId>,
}

/// The network of one module's typed rules that need a stack: a typed
/// tree's parse derives its rule in it ([`abnf_runtime::network::Network::derive`]),
/// then reads the derivation's calls as one byte each (holes) with the
/// rule's tagged DFA.
pub(crate) struct TreeNetwork {
    pub(crate) module: ModuleId,
    pub(crate) network: Network,
    pub(crate) wire: WireBytes,
    /// Per typed rule, per rule of the network (by index), the byte that
    /// stands for its calls in the rule's tagged DFAs.
    pub(crate) bytes: HashMap<RuleId, Vec<u8>>,
    /// The typed rules it derives.
    pub(crate) typed: Vec<RuleId>,
}

impl TypedParts {
    /// The tree network that derives typed rule `rule`, if it needs a
    /// stack.
    pub(crate) fn tree_of(&self, rule: RuleId) -> Option<&TreeNetwork> {
        self.trees.iter().find(|t| t.typed.contains(&rule))
    }

    /// Whether a field that holds typed rule `rule` is parsed on demand
    /// (`abnf_runtime::Nested`): the rule needs a stack (its parse derives
    /// it, at the cost of the general walk), or it reaches itself (its type
    /// would hold itself, and parsing it eagerly would recurse as deep as
    /// the input nests: `list = item [ "," list ]`).
    pub(crate) fn is_nested(&self, rule: RuleId) -> bool {
        self.recursive.contains(&rule) || self.tree_of(rule).is_some()
    }
}

/// A typed rule's tagged DFA, and which of its groups holds which part.
pub(crate) struct TypedDfa {
    pub(crate) groups: Groups,
    pub(crate) dfa: TaggedDfa,
    /// The captured HIR it was built from, for a rule whose node may be
    /// built from an enclosing rule's tags ([`Groups::push_nested`]): one
    /// without a stack, read by its own walk (not by holes).
    pub(crate) nestable: Option<regex_syntax::hir::Hir>,
}

/// A list's element automaton: which of its groups holds which part of
/// the item, and how items are found.
pub(crate) struct ElementDfa {
    pub(crate) groups: Groups,
    pub(crate) dfa: TaggedDfa,
    /// `None`: the automaton is the element, and each item is its longest
    /// match ([`crate::automata::longest_items_tile`] holds). `Some(g)`: it
    /// reads the first item (in group `g`) and then the rest of the list,
    /// as a whole match of what is left of the list; slower (each item
    /// reads the rest), but exact where the longest item can be wrong.
    pub(crate) exact: Option<usize>,
    /// When every item has the same length and every match the same tags
    /// ([`fixed_items`]): that length and the tags as offsets from the
    /// item's start (`None` for a tag never set). Items are then cut by
    /// offset, with no walk.
    pub(crate) fixed: Option<(usize, Vec<Option<usize>>)>,
}

/// How many state pairs [`crate::automata::longest_items_tile`] may visit
/// before a list's items are read exactly.
const MAX_TILE_PAIRS: usize = 1 << 16;

/// One `@components` extraction: its fields and its tagged DFA (field `i`
/// is group `i + 1`).
pub(crate) struct BuiltComponents {
    pub(crate) rule: RuleId,
    pub(crate) fields: Vec<(String, Vec<RuleId>)>,
    pub(crate) tdfa: TaggedDfa,
}

/// One exported rule's recognizer, in memory: what [`Compiled::recognizer`]
/// returns (the generated code's counterpart is `abnf_runtime::Recognizer`,
/// or `abnf_runtime::NetworkRecognizer` for a rule that needs a stack).
#[derive(Clone, Copy)]
pub struct CompiledRule<'a> {
    /// The module that defines the rule.
    pub grammar: &'a str,
    /// The rule name as defined.
    pub rule: &'a str,
    engine: Engine<'a>,
}

#[derive(Clone, Copy)]
enum Engine<'a> {
    Dfa(&'a Automaton),
    Network {
        built: &'a BuiltNetwork,
        index: usize,
        limits: abnf_runtime::network::Limits,
    },
}

impl<'a> CompiledRule<'a> {
    /// The rule's DFA, unless the rule needs a stack.
    pub fn automaton(&self) -> Option<&'a Automaton> {
        match self.engine {
            Engine::Dfa(a) => Some(a),
            Engine::Network { .. } => None,
        }
    }

    /// The network the rule is walked in (with the rule's index there),
    /// when the rule needs a stack.
    pub fn network(&self) -> Option<(&'a Network, usize)> {
        match self.engine {
            Engine::Dfa(_) => None,
            Engine::Network { built, index, .. } => Some((&built.network, index)),
        }
    }

    /// Whether all of `input` matches the rule.
    pub fn is_match(&self, input: &[u8]) -> bool {
        self.full_match(input).is_ok()
    }

    /// `Err(offset)` of the first byte at which no match is possible any
    /// more (the input's length if it ended too early; where nesting passed
    /// the limit for a rule that needs a stack).
    pub fn full_match(&self, input: &[u8]) -> Result<(), usize> {
        self.validate(input).map_err(|f| f.offset)
    }

    /// Where and why `input` does not match, with the runtime's walk (for a
    /// DFA rule, the failure's kind is always a mismatch and its expected
    /// set is empty).
    pub fn validate(&self, input: &[u8]) -> Result<(), abnf_runtime::network::Failure> {
        match self.engine {
            Engine::Dfa(a) => a
                .full_match(input)
                .map_err(|offset| abnf_runtime::network::Failure {
                    offset,
                    kind: abnf_runtime::ErrorKind::Mismatch,
                    expected: abnf_runtime::ByteSet::EMPTY,
                    open: None,
                }),
            Engine::Network { built, index, limits } => built.wire.network().full_match(index, input, limits),
        }
    }
}

/// Measurements of one rule's automaton.
#[derive(Clone, Debug)]
pub struct RuleStats {
    /// Module (spec file stem).
    pub grammar: String,
    /// ABNF rule name.
    pub rule: String,
    /// Thompson NFA states.
    pub nfa_states: usize,
    /// Minimized DFA states (the dead state included).
    pub dfa_states: usize,
    /// Byte classes of the compact table.
    pub classes: usize,
    /// Bytes of the compact transition table the recognizer walks.
    pub table_bytes: usize,
    /// Bytes of the sparse `regex-automata` DFA (for search and errors).
    pub sparse_bytes: usize,
    /// Bytes of the tagged DFA for the typed AST (0 when the rule has none).
    pub extract_bytes: usize,
    /// Bytes of the tagged DFA of the rule's `@components` directive (0
    /// when it has none), its two-byte steps included.
    pub components_bytes: usize,
    /// Bytes of the reverse automaton and its sets (`@bidirectional`; 0
    /// when the rule has none).
    pub reverse_bytes: usize,
    /// Time to build and minimize.
    pub build_time: Duration,
}

/// Runs the front end only: parse, resolve and check.
pub(crate) fn load(config: &Config) -> Result<(Grammar, Diagnostics), Error> {
    let inputs = crate::files::inputs(config)?;
    let mut resolve = crate::files::import_resolver(config);
    let (grammar, mut diags) = grammar::load(inputs, &mut resolve);
    let Some(mut g) = grammar else {
        return Err(Error::Grammar(diags));
    };
    // Bounded recursion rewrites the rules before anything reads them.
    let mut found = Vec::new();
    let mut bounds = crate::depth::directives(&g, &mut found);
    for (module, rule, depth) in &config.depths {
        match g.module_by_name(module).and_then(|m| g.module(m).get(rule)) {
            Some(id) if (1..=crate::depth::MAX_DEPTH).contains(depth) => bounds.push((id, *depth, None)),
            Some(_) => found.push(Diagnostic::error(
                Code::Config,
                format!(
                    "`Config::depth` bounds `{rule}` to {depth}; a depth is from 1 to {}",
                    crate::depth::MAX_DEPTH
                ),
                None,
            )),
            None => found.push(match g.module_by_name(module) {
                Some(m) => unknown_rule(&g, m, rule, "`Config::depth` names", "`Config::depth`"),
                None => unknown_grammar(&g, module, "`Config::depth`"),
            }),
        }
    }
    crate::depth::apply(&mut g, &bounds, &mut found);
    let mut octets = crate::terminals::directives(&g, &config.octets, &mut found);
    for name in &config.octets {
        match g.module_by_name(name) {
            Some(m) => octets.push(m),
            None => found.push(unknown_grammar(&g, name, "`Config::octets`")),
        }
    }
    crate::terminals::apply(&mut g, &octets, &mut found);
    let failed = found
        .iter()
        .any(|d| d.severity == crate::diagnostic::Severity::Error);
    diags.items.extend(found);
    if failed {
        return Err(Error::Grammar(diags));
    }
    Ok((g, diags))
}

/// Front end, checks, and an automaton per exported rule.
pub(crate) fn build(config: &Config) -> Result<Compiled, Error> {
    let (grammar, mut warnings) = load(config)?;
    let mut errors = Vec::new();
    let mut exports = resolve_exports(config, &grammar, &mut errors);
    let all: Vec<RuleId> = exports.iter().flat_map(|(_, rs)| rs.iter().copied()).collect();
    if !config.no_unused_warnings {
        warnings.items.extend(grammar::unused_rules(&grammar, &all));
    }
    warnings.items.extend(grammar::lints(&grammar));
    let explicit = partial::explicit_rules(&grammar, &exports, &config.exports);
    // Only the rules that must be DFAs (`@scheme`, `@components`,
    // `@bidirectional`) are refused here when they cannot be one; the
    // others that cannot are compiled as networks below.
    let dfa_only = partial::dfa_rules(&grammar, &exports);

    let mut lowerer = Lowerer::new(&grammar);
    let mut failed = Vec::new();
    let mut left_out = Vec::new();
    let automata = partial::build_automata(
        &grammar,
        &mut lowerer,
        &all,
        &dfa_only,
        config.limits,
        &mut failed,
        &mut errors,
        &mut warnings.items,
        &mut left_out,
    );
    partial::lowering_failures(
        &grammar,
        &lowerer,
        failed,
        &dfa_only,
        &mut errors,
        &mut warnings.items,
        &mut left_out,
    );
    let networks = if errors.is_empty() {
        build_networks(
            &grammar,
            &mut lowerer,
            &exports,
            &explicit,
            config.limits,
            &mut left_out,
            &mut errors,
            &mut warnings.items,
        )
    } else {
        Vec::new()
    };
    // Typed trees start from every exported rule that compiled, rules with
    // a stack included; the DFA stages from those without.
    let mut typed_roots = exports.clone();
    for (_, ids) in &mut typed_roots {
        ids.retain(|id| !left_out.iter().any(|(l, _)| l == id));
    }
    for (_, ids) in &mut exports {
        ids.retain(|id| {
            !left_out.iter().any(|(l, _)| l == id) && !networks.iter().any(|n| n.exported.contains(id))
        });
    }
    let reverses = reverse_automata(&grammar, &automata, &mut warnings);
    let mut typed = TypedParts::default();
    if !config.no_ast && errors.is_empty() {
        typed = build_typed(
            config,
            &grammar,
            &typed_roots,
            &mut lowerer,
            &mut errors,
            &mut warnings.items,
        );
    }
    if !errors.is_empty() {
        warnings.items.extend(errors);
        return Err(Error::Grammar(warnings));
    }
    Ok(Compiled {
        grammar,
        warnings,
        exports,
        automata,
        reverses,
        typed,
        left_out: left_out.into_iter().map(|(_, l)| l).collect(),
        networks,
        nesting_limit: config
            .nesting_limit
            .unwrap_or(abnf_runtime::network::Limits::DEFAULT.depth),
        direct_walks: !config.no_direct_walks,
    })
}

/// Rule `t` does not compile as a network either (`why`): the diagnostic
/// that set it aside says so, and becomes an error if it was asked for.
fn network_failed(
    g: &Grammar,
    t: RuleId,
    why: &Diagnostic,
    explicit: bool,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) {
    let span = g.rule(t).name_span;
    if why.code == Code::EmptyLanguage {
        // The rule's own fault, whatever set it aside: say that instead.
        warnings.retain(|w| !(matches!(w.code, Code::NotRegular | Code::TooLarge) && w.span == Some(span)));
        if explicit {
            errors.push(why.clone());
        } else {
            let mut d = why.clone().with_note(format!(
                "`{}` is left out of the output; the other rules compile",
                g.rule(t).name
            ));
            d.severity = crate::diagnostic::Severity::Warning;
            warnings.push(d);
        }
        return;
    }
    let note = format!(
        "as a network of rule automata it does not compile either: {}",
        why.message
    );
    let Some(i) = warnings
        .iter()
        .position(|w| matches!(w.code, Code::NotRegular | Code::TooLarge) && w.span == Some(span))
    else {
        if explicit {
            errors.push(why.clone());
        }
        return;
    };
    if explicit {
        let mut d = warnings.remove(i);
        d.severity = crate::diagnostic::Severity::Error;
        d.notes.retain(|n| !n.contains("is left out of the output"));
        errors.push(d.with_note(note));
    } else if !warnings[i].notes.contains(&note) {
        let d = warnings.remove(i).with_note(note);
        warnings.insert(i, d);
    }
}

/// Compiles the rules that partial compilation left out (their recursion is
/// not regular, or their automaton too large) as one network per root
/// module. The rules that compile leave `left_out`, and the warnings about
/// them go; a rule that does not compile even so stays left out, or is an
/// error if it was asked for by name.
#[allow(clippy::too_many_arguments)]
fn build_networks(
    g: &Grammar,
    lowerer: &mut Lowerer<'_>,
    exports: &[(ModuleId, Vec<RuleId>)],
    explicit: &std::collections::HashSet<RuleId>,
    limits: crate::limits::Limits,
    left_out: &mut Vec<(RuleId, LeftOut)>,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) -> Vec<BuiltNetwork> {
    let mut out = Vec::new();
    for (m, ids) in exports {
        let targets: Vec<RuleId> = ids
            .iter()
            .copied()
            .filter(|id| left_out.iter().any(|(l, _)| l == id))
            .collect();
        if targets.is_empty() {
            continue;
        }
        // One network for all; if that fails, each rule on its own, and a
        // network of those that compiled. A rule that does not compile
        // even so keeps the diagnostic that set it aside, with why the
        // network did not help: a warning, or an error if it was asked for.
        let network = match crate::network::build(g, lowerer, &targets, limits) {
            Ok(n) => Some((n, targets.clone())),
            Err(_) => {
                let mut good = Vec::new();
                for &t in &targets {
                    match crate::network::build(g, lowerer, &[t], limits) {
                        Ok(_) => good.push(t),
                        Err(d) => network_failed(g, t, &d, explicit.contains(&t), errors, warnings),
                    }
                }
                if good.is_empty() {
                    None
                } else {
                    crate::network::build(g, lowerer, &good, limits)
                        .ok()
                        .map(|n| (n, good))
                }
            }
        };
        let Some((network, exported)) = network else {
            continue;
        };
        let spans: Vec<crate::diagnostic::Span> = exported.iter().map(|&r| g.rule(r).name_span).collect();
        warnings.retain(|w| {
            !(matches!(w.code, Code::NotRegular | Code::TooLarge)
                && w.span.is_some_and(|s| spans.contains(&s)))
        });
        left_out.retain(|(l, _)| !exported.contains(l));
        let wire = WireBytes::new(&network.to_bytes(NATIVE_BIG_ENDIAN));
        out.push(BuiltNetwork {
            module: *m,
            network,
            exported,
            wire,
        });
    }
    out
}

fn rule_set(
    g: &Grammar,
    m: ModuleId,
    names: Option<&Vec<String>>,
    errors: &mut Vec<Diagnostic>,
) -> BTreeSet<RuleId> {
    names
        .into_iter()
        .flatten()
        .filter_map(|n| {
            let found = g.module(m).get(n);
            if found.is_none() {
                errors.push(unknown_rule(
                    g,
                    m,
                    n,
                    "the AST configuration names",
                    "`Config::ast_rules` or `Config::ast_leaves`",
                ));
            }
            found
        })
        .collect()
}

/// "`{what}` `{name}`, which `m` neither defines nor imports", with the
/// closest rule name if there is one.
fn unknown_rule(g: &Grammar, m: ModuleId, name: &str, what: &str, setter: &str) -> Diagnostic {
    let d = Diagnostic::error(
        Code::Config,
        format!(
            "{what} `{name}`, which `{}` neither defines nor imports",
            g.module(m).name
        ),
        None,
    );
    match g.similar_rule(m, name) {
        Some(close) => d.with_note(format!("did you mean `{close}`?")),
        None => d.with_note(format!("check the rule name in {setter}")),
    }
}

/// The error for a configuration (`setter`) that names a grammar that is
/// not one of the spec files, with the closest spec name if there is one.
fn unknown_grammar(g: &Grammar, name: &str, setter: &str) -> Diagnostic {
    let d = Diagnostic::error(
        Code::Config,
        format!("{setter} names the grammar `{name}`, which is not one of the spec files"),
        None,
    );
    match g.similar_module(name) {
        Some(close) => d.with_note(format!("did you mean `{close}`?")),
        None => {
            let names: Vec<String> = g
                .modules
                .iter()
                .filter(|m| m.root)
                .map(|m| format!("`{}`", m.name))
                .collect();
            d.with_note(format!(
                "a grammar is named after its spec file's stem: {}",
                names.join(", ")
            ))
        }
    }
}

/// The AST model of each root module, and a tagged DFA for every typed
/// rule and every repeated field's element.
///
/// A typed rule whose tagged DFA would be too large falls back to a leaf
/// (its text, `&str`) with a warning, and the model is made again
/// without it: the recognizers and the other types are unaffected.
fn build_typed(
    config: &Config,
    g: &Grammar,
    exports: &[(ModuleId, Vec<RuleId>)],
    lowerer: &mut Lowerer<'_>,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) -> TypedParts {
    let mut parts = TypedParts::default();
    let mut cache = TaggedCache::default();
    // The rules a spec that reads text (not octets) reaches: their trees
    // may be emitted into its module, with `&str` parts.
    let text_roots: Vec<RuleId> = exports
        .iter()
        .filter(|(m, _)| !g.octets.contains(m))
        .flat_map(|(_, ids)| ids.iter().copied())
        .collect();
    let read_as_text = grammar::reachable(g, &text_roots);
    // Rules whose typed tree could not be built, with why.
    // (`None`: said by another rule's diagnostic.)
    let mut too_big: HashMap<RuleId, Option<Diagnostic>> = HashMap::new();
    for (m, ids) in exports {
        let name = &g.module(*m).name;
        let forced = rule_set(g, *m, config.ast_rules.get(name), errors);
        let mut leaves = rule_set(g, *m, config.ast_leaves.get(name), errors);
        leaves.extend(too_big.keys().copied());
        let explicit = config.exports.contains_key(name);
        let model = loop {
            let model = typed::model(g, ids, explicit, &forced, &leaves);
            let mut demoted = Vec::new();
            // Rules with a stack wait for the tree network below, and so do
            // rules too large for one tagged DFA whose parts are typed rules:
            // their trees are derived with those parts as calls.
            let mut stack_types = Vec::new();
            let mut oversized: Vec<(&typed::RuleType, Diagnostic)> = Vec::new();
            // The rules a type's fields hold first, so that it can read
            // theirs in its own walk (`nested_form`).
            for ty in children_first(g, &model) {
                if parts.tdfas.contains_key(&ty.rule) {
                    continue;
                }
                if lowerer.non_regular_chain(ty.rule).is_some() {
                    stack_types.push(ty);
                    continue;
                }
                let text = read_as_text[ty.rule.0 as usize];
                if let Err(d) =
                    build_type_automata(config, &mut cache, g, lowerer, &model, ty, text, true, &mut parts)
                {
                    if d.code == Code::TooLarge && derivable(g, lowerer, &model, ty.rule) {
                        oversized.push((ty, d));
                    } else {
                        demoted.push((ty.rule, Some(d)));
                    }
                }
            }
            // Back in the model's order, as the tree network takes them.
            let place = |r: RuleId| model.types.iter().position(|t| t.rule == r);
            stack_types.sort_by_key(|ty: &&typed::RuleType| place(ty.rule));
            oversized.sort_by_key(|(ty, _)| place(ty.rule));
            if demoted.is_empty() && !(stack_types.is_empty() && oversized.is_empty()) {
                let mut forced: Vec<RuleId> = oversized
                    .iter()
                    .flat_map(|(ty, _)| typed_parts(g, &model, ty.rule))
                    .collect();
                forced.sort();
                forced.dedup();
                let mut types = stack_types.clone();
                types.extend(oversized.iter().map(|(ty, _)| *ty));
                demoted = build_tree_network(
                    config, &mut cache, g, lowerer, *m, &model, &types, &forced, &mut parts,
                );
                if !demoted.is_empty() && !oversized.is_empty() {
                    // The rules too large either way fall back to their text
                    // with their first diagnostic, and the network is built
                    // again without them in the next round; if only rules
                    // with a stack failed, the rules too large step aside
                    // too, so that the network is built as without them.
                    let failed: Vec<(RuleId, Option<Diagnostic>)> = oversized
                        .iter()
                        .filter(|(ty, _)| demoted.iter().any(|(r, _)| *r == ty.rule))
                        .map(|(ty, d)| (ty.rule, Some(d.clone())))
                        .collect();
                    demoted = if failed.is_empty() {
                        oversized.into_iter().map(|(ty, d)| (ty.rule, Some(d))).collect()
                    } else {
                        failed
                    };
                }
            }
            // Else the rules too large wait for the next round, with what
            // this round demoted made leaves (their tagged DFAs are cached).
            if demoted.is_empty() {
                break model;
            }
            for (rule, d) in demoted {
                leaves.insert(rule);
                too_big.entry(rule).or_insert(d);
            }
        };
        // Typed rules that reach themselves: a field that holds one is
        // parsed on demand (`Nested`), or its type would hold itself.
        for ty in &model.types {
            let mut direct = Vec::new();
            g.rule(ty.rule).expr.for_each_ref(&mut |r, _| direct.push(r));
            if grammar::reachable(g, &direct)[ty.rule.0 as usize] {
                parts.recursive.insert(ty.rule);
            }
        }
        parts.models.push((*m, model));
        let built = build_components(config, &mut cache, g, *m, lowerer, errors);
        parts.components.push((*m, built));
    }
    let mut demoted: Vec<(RuleId, Diagnostic)> =
        too_big.into_iter().filter_map(|(r, d)| Some((r, d?))).collect();
    demoted.sort_by_key(|(r, _)| *r);
    for (_, d) in demoted {
        let mut d = d
            .with_label("its typed tree falls back to its text")
            .with_note(format!("the rule's recognizer is unaffected; {AST_TOO_BIG}"));
        d.severity = crate::diagnostic::Severity::Warning;
        warnings.push(d);
    }
    parts
}

/// The model's types, each after the typed rules it references (a depth-
/// first walk with a work list; a rule met again on its own path, a cycle,
/// is taken where it was first met).
fn children_first<'m>(g: &Grammar, model: &'m TypeModel) -> Vec<&'m typed::RuleType> {
    let mut out = Vec::with_capacity(model.types.len());
    let mut seen = std::collections::HashSet::new();
    for root in &model.types {
        if !seen.insert(root.rule) {
            continue;
        }
        // Each entry: a type, and whether its parts have been pushed.
        let mut work = vec![(root, false)];
        while let Some((ty, expanded)) = work.pop() {
            if expanded {
                out.push(ty);
                continue;
            }
            work.push((ty, true));
            for r in typed_parts(g, model, ty.rule).into_iter().rev() {
                if let Some(child) = model.get(r) {
                    if seen.insert(r) {
                        work.push((child, false));
                    }
                }
            }
        }
    }
    out
}

/// The typed rules that rule `rule` references directly (its parts that
/// have types of their own), core rules aside.
fn typed_parts(g: &Grammar, model: &TypeModel, rule: RuleId) -> Vec<RuleId> {
    let mut out = Vec::new();
    g.rule(rule).expr.for_each_ref(&mut |r, _| {
        if r != rule && model.is_typed(r) && !crate::network::is_core(g, r) && !out.contains(&r) {
            out.push(r);
        }
    });
    out
}

/// Whether typed rule `rule`, too large for one tagged DFA, can be derived
/// in the tree network with its typed parts as calls: it has such parts,
/// and none of them matches the empty string. (An empty call at the edge
/// of a list item could belong to either item: the items are read by
/// offsets, which do not tell.)
fn derivable(g: &Grammar, lowerer: &mut Lowerer<'_>, model: &TypeModel, rule: RuleId) -> bool {
    let parts = typed_parts(g, model, rule);
    !parts.is_empty()
        && parts.iter().all(|&r| {
            lowerer
                .lower(r)
                .is_ok_and(|h| h.properties().minimum_len() != Some(0))
        })
}

/// Builds the tree network of module `m`'s typed rules that need a stack
/// or are too large for one tagged DFA (`types`) and their automata, with
/// each call of the network read as one byte that no rule of the network
/// reads; `forced` rules are called, not inlined (the parts of the too
/// large ones). Returns the rules whose trees cannot be built, with why.
#[allow(clippy::too_many_arguments)]
fn build_tree_network(
    config: &Config,
    cache: &mut TaggedCache,
    g: &Grammar,
    lowerer: &mut Lowerer<'_>,
    m: ModuleId,
    model: &TypeModel,
    types: &[&typed::RuleType],
    forced: &[RuleId],
    parts: &mut TypedParts,
) -> Vec<(RuleId, Option<Diagnostic>)> {
    let targets: Vec<RuleId> = types.iter().map(|t| t.rule).collect();
    let all_fail = |d: Diagnostic| {
        let names: Vec<String> = targets.iter().map(|&t| format!("`{}`", g.rule(t).name)).collect();
        let d = d.with_note(format!(
            "so the typed trees of the {} rules with a stack fall back to their text: {}",
            targets.len(),
            names.join(", ")
        ));
        let mut d = Some(d);
        targets.iter().map(|&t| (t, d.take())).collect()
    };
    let network = match crate::network::build_with_boundary(g, lowerer, &targets, forced, config.limits) {
        Ok(n) => n,
        Err(d) => return all_fail(d),
    };
    // Each typed rule's automata read the calls its own rule automaton
    // makes, each as a byte that no rule reads: a byte per callee of that
    // rule (other rules' trees may reuse it).
    let all_callees = network.callees();
    let reaching = crate::network::reaching(g, &all_callees);
    let free = network.unused_bytes();
    let mut bytes = HashMap::new();
    let mut failed = Vec::new();
    for ty in types {
        let index = network
            .index_of(ty.rule)
            .expect("a target is a rule of its network");
        let mut callees: Vec<u32> = (0..network.states())
            .filter(|&q| network.state_rule[q] as usize == index)
            .flat_map(|q| network.calls[q].iter().map(|&(c, _)| c))
            .collect();
        callees.sort();
        callees.dedup();
        if free.len() < callees.len() {
            let r = g.rule(ty.rule);
            failed.push((
                ty.rule,
                Some(Diagnostic::error(
                    Code::TooComplex,
                    format!(
                        "the typed tree of rule `{}` reads each call of one of {} rules with a stack as a byte \
                         that no rule reads, and only {} bytes are left",
                        r.name,
                        callees.len(),
                        free.len()
                    ),
                    Some(r.name_span),
                )),
            ));
            continue;
        }
        let mut by_index = vec![0u8; network.rules.len()];
        for (&c, &b) in callees.iter().zip(&free) {
            by_index[c as usize] = b;
        }
        let holes = crate::regular::Holes {
            bytes: callees
                .iter()
                .zip(&free)
                .map(|(&c, &b)| (network.rules[c as usize], b))
                .collect(),
            reaching: reaching.clone(),
        };
        // Holes are not characters: the parts are cut at the holes' edges,
        // which the derivation put between characters.
        if let Err(d) = lowerer.with_holes(holes, |lowerer| {
            build_type_automata(config, cache, g, lowerer, model, ty, false, false, parts)
        }) {
            failed.push((ty.rule, Some(d)));
        }
        bytes.insert(ty.rule, by_index);
    }
    if !failed.is_empty() {
        // Built again, without the failed ones, in the next round.
        for t in &targets {
            parts.tdfas.remove(t);
        }
        parts.elements.retain(|(r, _), _| !targets.contains(r));
        return failed;
    }
    let wire = WireBytes::new(&network.to_bytes(NATIVE_BIG_ENDIAN));
    parts.trees.push(TreeNetwork {
        module: m,
        network,
        wire,
        bytes,
        typed: targets,
    });
    Vec::new()
}

/// Builds typed rule `ty`'s tagged DFA and its lists' element automata
/// into `parts`, or says why they cannot be built. With `nest` (a rule
/// without a stack), the typed rules its fields hold are read in the same
/// walk where the automaton stays small ([`nested_form`]).
#[allow(clippy::too_many_arguments)]
fn build_type_automata(
    config: &Config,
    cache: &mut TaggedCache,
    g: &Grammar,
    lowerer: &mut Lowerer<'_>,
    model: &TypeModel,
    ty: &typed::RuleType,
    text: bool,
    nest: bool,
    parts: &mut TypedParts,
) -> Result<(), Diagnostic> {
    let (hir, groups) = lowerer.lower_captured(model, ty.rule)?;
    let dfa = tagged(config.limits, cache, g, ty.rule, &hir, false, text)?;
    let (hir, groups, dfa) = if nest {
        nested_form(config, cache, g, lowerer, model, ty, text, parts, &dfa).unwrap_or((hir, groups, dfa))
    } else {
        (hir, groups, dfa)
    };
    parts.tdfas.insert(
        ty.rule,
        TypedDfa {
            groups,
            dfa,
            nestable: nest.then_some(hir),
        },
    );
    for (key, f) in typed::lists(&ty.shape) {
        let Some(element) = &f.element else { continue };
        let built = match list_element(
            config, cache, g, lowerer, model, ty, f, element, text, nest, parts,
        ) {
            None => continue,
            Some(built) => built,
        };
        match built {
            Ok(d) => {
                parts.elements.insert((ty.rule, key), d);
            }
            Err(d) => {
                parts.tdfas.remove(&ty.rule);
                return Err(d);
            }
        }
    }
    Ok(())
}

/// The element automaton of list field `f` of typed rule `ty`, or `None`
/// for a list whose items hold no rule. With `nest`, the typed rules its
/// items hold are read in the same walk where the automaton stays small
/// (as [`nested_form`]).
#[allow(clippy::too_many_arguments)]
fn list_element(
    config: &Config,
    cache: &mut TaggedCache,
    g: &Grammar,
    lowerer: &mut Lowerer<'_>,
    model: &TypeModel,
    ty: &typed::RuleType,
    f: &typed::Field,
    element: &crate::grammar::Expr,
    text: bool,
    nest: bool,
    parts: &TypedParts,
) -> Option<Result<ElementDfa, Diagnostic>> {
    // The item's typed rules: the item rule itself (at the element's
    // root), or the item type's fields.
    let fields: Vec<(Vec<usize>, RuleId)> = match (&f.item, f.rule) {
        (Some(item), _) => shape_fields(&item.shape),
        (None, Some(rule)) => vec![(Vec::new(), rule)],
        (None, None) => return None,
    };
    let lower = |lowerer: &mut Lowerer<'_>, nested: &NestedHirs<'_>| match (&f.item, f.rule) {
        (Some(item), _) => lowerer.lower_item(model, element, &item.shape, nested),
        (_, rule) => {
            let rule = rule.expect("a list without an item type holds a rule");
            lowerer.lower_element(element, rule, nested.get(&[][..]).copied())
        }
    };
    let plain_form = |lowerer: &mut Lowerer<'_>, cache: &mut TaggedCache| {
        let (hir, groups) = lower(lowerer, &HashMap::new())?;
        let plain = lowerer.lower_plain(element)?;
        let tiles = (|| {
            let one = Automaton::build(&plain, config.limits).ok()?.compact();
            let plus = crate::regular::repeat(1, None, plain.clone());
            let plus = Automaton::build(&plus, config.limits).ok()?.compact();
            Some(automata::longest_items_tile(&one, &plus, MAX_TILE_PAIRS))
        })()
        .unwrap_or(false);
        let d = element_dfa(config.limits, cache, g, ty, f, hir, groups, &plain, tiles, text)?;
        Ok::<_, Diagnostic>((d, plain, tiles))
    };
    let (d, plain, tiles) = match plain_form(lowerer, cache) {
        Ok(built) => built,
        Err(e) => return Some(Err(e)),
    };
    // Items with holes (`!nest`) are neither nested nor cut by offset: a
    // hole stands for a call of any length.
    if !nest {
        return Some(Ok(d));
    }
    let (nested, states) = nestable_parts(g, model, parts, ty.rule, &fields, d.dfa.states());
    let wider = (!nested.is_empty() && states <= MAX_NESTED_STATES)
        .then(|| lower(lowerer, &nested).ok())
        .flatten()
        .and_then(|(hir, groups)| {
            let limits = nested_limits(config, states);
            element_dfa(limits, cache, g, ty, f, hir, groups, &plain, tiles, text).ok()
        })
        .filter(|w| nested_fits(&d.dfa, &w.dfa));
    let mut d = wider.unwrap_or(d);
    // Once, for the automaton kept.
    if d.exact.is_none() {
        d.fixed = fixed_items(&d.dfa, &plain);
    }
    Some(Ok(d))
}

/// A list's element automaton from its captured HIR: the element itself
/// when the longest item tiles the list (`tiles`), else the first item
/// then the rest of the list (`plain` repeated).
#[allow(clippy::too_many_arguments)]
fn element_dfa(
    limits: crate::limits::Limits,
    cache: &mut TaggedCache,
    g: &Grammar,
    ty: &typed::RuleType,
    f: &typed::Field,
    hir: regex_syntax::hir::Hir,
    groups: Groups,
    plain: &regex_syntax::hir::Hir,
    tiles: bool,
    text: bool,
) -> Result<ElementDfa, Diagnostic> {
    let (hir, exact) = if tiles {
        (hir, None)
    } else {
        let group = groups.count();
        let Some(first) = crate::regular::first_of_rest(hir, plain.clone(), group) else {
            let r = g.rule(ty.rule);
            return Err(Diagnostic::error(
                Code::TooComplex,
                format!(
                    "the list `{}` of rule `{}` cannot be read item by item: the longest \
                     item can cut it wrong, and its items have several parts that may all \
                     be empty",
                    f.name, r.name
                ),
                Some(r.name_span),
            ));
        };
        (first, Some(group))
    };
    Ok(ElementDfa {
        groups,
        dfa: tagged(limits, cache, g, ty.rule, &hir, false, text)?,
        exact,
        fixed: None,
    })
}

/// The length every element of a list has and the tags every match of
/// its automaton `dfa` gets, as offsets from its start: `Some` when all
/// matches of `plain` (the element) have one length, up to 64 bytes, and
/// the automaton's shapes (which are exactly its inputs of up to 64 bytes)
/// all have the same tags (RFC 9562's `4hexOctet` with the core `HEXDIG`:
/// two bytes each, the item at 0..2). A list whose span a parse has matched is then
/// cut into items of that length, each with those tags, with no walk.
fn fixed_items(dfa: &TaggedDfa, plain: &regex_syntax::hir::Hir) -> Option<(usize, Vec<Option<usize>>)> {
    let props = plain.properties();
    let len = props.minimum_len()?;
    if props.maximum_len()? != len || !(1..=64).contains(&len) {
        return None;
    }
    let (shapes, tags) = dfa.shapes()?;
    if len >= shapes.decided {
        return None;
    }
    let mut rows = tags.chunks(dfa.tags.max(1));
    let first = rows.next()?;
    rows.all(|r| r == first).then(|| {
        let tags = first
            .iter()
            .map(|&t| (t != 0xFF).then_some(usize::from(t)))
            .collect();
        (len, tags)
    })
}

/// The fields of a shape that hold one rule once (not lists), by path.
fn shape_fields(shape: &typed::Shape) -> Vec<(Vec<usize>, RuleId)> {
    let fields: Vec<&typed::Field> = match shape {
        typed::Shape::Struct(fs) => fs.iter().collect(),
        typed::Shape::Enum(vs) => vs.iter().flat_map(|v| &v.fields).collect(),
        typed::Shape::List(_) => Vec::new(),
    };
    fields
        .into_iter()
        .filter(|f| matches!(f.card, typed::Card::One | typed::Card::Optional) && f.item.is_none())
        .filter_map(|f| Some((f.path.clone(), f.rule?)))
        .collect()
}

/// Per body path, the captured HIR of the typed rule there and its group
/// count, group 0 included ([`Lowerer::lower_captured_nested`]).
type NestedHirs<'a> = HashMap<Vec<usize>, (&'a regex_syntax::hir::Hir, usize)>;

/// Which of `fields` (paths and the rules they hold, in an automaton of
/// `owner` with `states` states) can be read in the same walk: typed
/// rules other than `owner`, built already as one tagged DFA without a
/// stack, that do not reach themselves. Returns them and the states of
/// all the automata involved.
fn nestable_parts<'p>(
    g: &Grammar,
    model: &TypeModel,
    parts: &'p TypedParts,
    owner: RuleId,
    fields: &[(Vec<usize>, RuleId)],
    states: usize,
) -> (NestedHirs<'p>, usize) {
    let mut nested = HashMap::new();
    let mut states = states;
    for (path, r) in fields {
        let r = *r;
        if r == owner || !model.is_typed(r) || crate::network::is_core(g, r) {
            continue;
        }
        let Some(TypedDfa {
            groups,
            dfa,
            nestable: Some(hir),
        }) = parts.tdfas.get(&r)
        else {
            continue;
        };
        let mut direct = Vec::new();
        g.rule(r).expr.for_each_ref(&mut |x, _| direct.push(x));
        if grammar::reachable(g, &direct)[r.0 as usize] {
            continue;
        }
        states += dfa.states();
        nested.insert(path.clone(), (hir, groups.count()));
    }
    (nested, states)
}

/// How many states the automata of a rule and of the parts it could read
/// in the same walk ([`nested_form`]) may have together for the attempt to
/// be made (it is determinized with at most twice as many).
const MAX_NESTED_STATES: usize = 4096;

/// The limits for determinizing an automaton that reads its parts' typed
/// rules too, whose own automata have `states` states together: twice
/// that, or 256 (an enum of literals nested twice, RFC 9562's `hexOctet =
/// HEXDIG HEXDIG`, multiplies its variants), within the user's limit.
fn nested_limits(config: &Config, states: usize) -> crate::limits::Limits {
    let mut limits = config.limits;
    limits.tagged_states = limits.tagged_states.min((2 * states).max(256));
    limits
}

/// Whether `nested`, an automaton that reads its parts' typed rules too,
/// is worth its tables beside `plain`, the rule's own: at most four times
/// its size (or 16 KB, for small rules), and at most 128 KB. (Every
/// level's tags in one automaton can multiply its states: RFC 3987's
/// `IRI-reference` would go from 98 to 310 KB, RFC 3966's `telephone-uri`
/// from 15 to 174 KB, where RFC 5646's `Language-Tag` goes from 20 to 74.)
///
/// Sizes count a word per tag in every final map, as the tables held them
/// when these limits were measured (they are sparse now): with the sparse
/// sizes, `Language-Tag`'s nested automaton (no shapes) was chosen over
/// its parts' shapes, and its parts took 1,105 instructions against 894.
fn nested_fits(plain: &TaggedDfa, nested: &TaggedDfa) -> bool {
    let bytes = |d: &TaggedDfa| {
        let finals = d.finals.iter().flatten().count();
        d.to_words()
            .map(|(_, l)| 4 * (l.final_maps as usize + d.tags * finals))
    };
    match (bytes(plain), bytes(nested)) {
        (Some(p), Some(n)) => n <= (4 * p).max(16 << 10) && n <= 128 << 10,
        _ => false,
    }
}

/// Typed rule `ty`'s tagged DFA with the groups of the typed rules its
/// fields hold (each rule's one occurrence, built already, without a
/// stack, not reaching itself) after each field's group, so that a parse
/// builds their nodes from its tags with no walk of their own: `None`
/// when no field holds such a rule, when the automaton would be too large
/// beside `plain` ([`nested_fits`]), or cannot be built.
#[allow(clippy::too_many_arguments)]
fn nested_form(
    config: &Config,
    cache: &mut TaggedCache,
    g: &Grammar,
    lowerer: &mut Lowerer<'_>,
    model: &TypeModel,
    ty: &typed::RuleType,
    text: bool,
    parts: &TypedParts,
    plain: &TaggedDfa,
) -> Option<(regex_syntax::hir::Hir, Groups, TaggedDfa)> {
    let fields = shape_fields(&ty.shape);
    let (nested, states) = nestable_parts(g, model, parts, ty.rule, &fields, plain.states());
    if nested.is_empty() || states > MAX_NESTED_STATES {
        return None;
    }
    let (hir, groups) = lowerer.lower_captured_nested(model, ty.rule, &nested).ok()?;
    let dfa = tagged(
        nested_limits(config, states),
        cache,
        g,
        ty.rule,
        &hir,
        false,
        text,
    )
    .ok()?;
    nested_fits(plain, &dfa).then_some((hir, groups, dfa))
}

/// The tagged DFAs of module `m`'s `@components` directives.
fn build_components(
    config: &Config,
    cache: &mut TaggedCache,
    g: &Grammar,
    m: ModuleId,
    lowerer: &mut Lowerer<'_>,
    errors: &mut Vec<Diagnostic>,
) -> Vec<BuiltComponents> {
    let mut out = Vec::new();
    for c in &g.module(m).components {
        let r = g.rule(c.rule);
        let mut seen: HashMap<String, ()> = HashMap::new();
        let mut targets = Vec::new();
        let mut share = Vec::new();
        let mut bad = false;
        for (i, (name, rules)) in c.fields.iter().enumerate() {
            if seen.insert(names::snake(name), ()).is_some() {
                errors.push(Diagnostic::error(
                    Code::Components,
                    format!("`@components {}` names field `{name}` twice", r.name),
                    Some(r.name_span),
                ));
                bad = true;
            }
            for &t in rules {
                if targets.contains(&t) {
                    errors.push(Diagnostic::error(
                        Code::Components,
                        format!(
                            "`@components {}` puts rule `{}` in two fields",
                            r.name,
                            g.rule(t).name
                        ),
                        Some(g.rule(t).name_span),
                    ));
                    bad = true;
                }
                targets.push(t);
                share.push(i);
            }
        }
        if bad {
            continue;
        }
        let built = lowerer
            .lower_components(c.rule, &targets, &share)
            .and_then(|(hir, groups)| {
                // Every field must occur somewhere outside repetitions.
                for (i, (name, _)) in c.fields.iter().enumerate() {
                    if !groups.iter().any(|&t| share[t] == i) {
                        return Err(Diagnostic::error(
                            Code::Components,
                            format!(
                                "`@components {}`: no match of `{}` holds field `{name}` (its rules do not occur in it, or only inside a repetition)",
                                r.name, r.name
                            ),
                            Some(r.name_span),
                        ));
                    }
                }
                tagged(config.limits, cache, g, c.rule, &hir, true, true)
                    .map_err(|d| d.with_note("ask for fewer fields in its `@components` directive"))
            });
        match built {
            Ok(tdfa) => out.push(BuiltComponents {
                rule: c.rule,
                fields: c.fields.clone(),
                tdfa,
            }),
            Err(d) => errors.push(d),
        }
    }
    out
}

/// The tagged DFAs built in one run, by HIR (and whether for
/// `@components`): rules with the same right-hand side, such as RFC 9051's
/// eight `env-*` address lists, are determinized once. A tagged DFA that
/// grows past its limit can take seconds to refuse.
#[derive(Default)]
struct TaggedCache {
    /// By what tells most HIRs apart cheaply (`Hir` has no hash), then
    /// compared whole.
    built: HashMap<TaggedKey, Vec<(regex_syntax::hir::Hir, TaggedBuilt)>>,
}

/// A tagged DFA, or why it could not be built.
type TaggedBuilt = Result<TaggedDfa, SizeError>;

/// Whether for `@components`, the state limit, and the HIR's shortest and
/// longest match.
type TaggedKey = (bool, usize, Option<usize>, Option<usize>);

impl TaggedCache {
    fn get_or_build(
        &mut self,
        hir: &regex_syntax::hir::Hir,
        limits: crate::limits::Limits,
        components: bool,
    ) -> Result<TaggedDfa, SizeError> {
        let props = hir.properties();
        let bucket = self
            .built
            .entry((
                components,
                limits.tagged_states,
                props.minimum_len(),
                props.maximum_len(),
            ))
            .or_default();
        if let Some((_, built)) = bucket.iter().find(|(h, _)| h == hir) {
            return built.clone();
        }
        let built = crate::tagged::from_hir(hir, limits, components);
        bucket.push((hir.clone(), built.clone()));
        built
    }
}

/// The tagged DFA of `hir`, or why it is too large: `rule`'s `@components`
/// extraction when `components`, else a parse-tree extraction. `str_parts`
/// says that its parts are handed out as `&str`s.
fn tagged(
    limits: crate::limits::Limits,
    cache: &mut TaggedCache,
    g: &Grammar,
    rule: RuleId,
    hir: &regex_syntax::hir::Hir,
    components: bool,
    str_parts: bool,
) -> Result<TaggedDfa, Diagnostic> {
    let what = if components { "components" } else { "extraction" };
    // Typed trees of a spec whose terminals are octets read bytes, so they
    // cannot cut a character; parts handed out as `&str`s (`@components`, a
    // tree in a spec that reads text, which may use octet rules it imports)
    // must not.
    if !g.octets.is_empty() && str_parts && crate::terminals::splits_characters(hir) {
        return Err(Diagnostic::error(
            Code::NotAnOctet,
            format!(
                "the {what} automaton for rule `{}` would cut a UTF-8 character: one of its parts can start or \
                 end inside one (its spec's terminals are octets), and parts are `&str`s",
                g.rule(rule).name
            ),
            Some(g.rule(rule).name_span),
        ));
    }
    cache.get_or_build(hir, limits, components).map_err(|e| {
        let r = g.rule(rule);
        let detail = match e {
            SizeError::NfaTooBig(e) => e.to_string(),
            SizeError::DfaTooBig(m) => m,
        };
        Diagnostic::error(
            Code::TooLarge,
            format!(
                "the {what} automaton for rule `{}` is too large: {detail}",
                r.name
            ),
            Some(r.name_span),
        )
    })
}

fn resolve_exports(
    config: &Config,
    g: &Grammar,
    errors: &mut Vec<Diagnostic>,
) -> Vec<(ModuleId, Vec<RuleId>)> {
    let mut out = Vec::new();
    for (i, m) in g.modules.iter().enumerate() {
        if !m.root {
            continue;
        }
        let ids = match config.exports.get(&m.name) {
            Some(names) => names
                .iter()
                .filter_map(|n| {
                    let found = m.get(n);
                    if found.is_none() {
                        errors.push(unknown_rule(
                            g,
                            ModuleId(i as u32),
                            n,
                            "the configuration exports",
                            "`Config::export`",
                        ));
                    }
                    found
                })
                .collect(),
            None => m.defined.iter().chain(&m.imported).copied().collect(),
        };
        out.push((ModuleId(i as u32), ids));
    }
    let named = [
        ("`Config::export`", &config.exports),
        ("`Config::ast_rules`", &config.ast_rules),
        ("`Config::ast_leaves`", &config.ast_leaves),
    ];
    for (setter, map) in named {
        for name in map.keys() {
            if !g.modules.iter().any(|m| m.root && &m.name == name) {
                errors.push(unknown_grammar(g, name, setter));
            }
        }
    }
    out
}

/// The reverse automaton of every exported rule a spec marks
/// `@bidirectional`; a warning for each one that would be too large.
fn reverse_automata(
    g: &Grammar,
    automata: &HashMap<RuleId, Automaton>,
    warnings: &mut Diagnostics,
) -> HashMap<RuleId, automata::Reverse> {
    let mut out = HashMap::new();
    for &id in g.modules.iter().flat_map(|m| &m.bidirectional) {
        let Some(a) = automata.get(&id) else { continue };
        if out.contains_key(&id) {
            continue;
        }
        match a.compact().reverse(MAX_REVERSE_STATES) {
            Some(rev) => {
                out.insert(id, rev);
            }
            None => {
                let r = g.rule(id);
                warnings.items.push(
                    Diagnostic::warning(
                        Code::TooLarge,
                        format!(
                            "rule `{}` is marked `@bidirectional`, but its reverse automaton would have more \
                             than {MAX_REVERSE_STATES} states",
                            r.name
                        ),
                        Some(r.name_span),
                    )
                    .with_label("it gets no reverse automaton (its shuffle automaton is kept)"),
                );
            }
        }
    }
    out
}

impl Compiled {
    /// The table the runtime walks for exported rule `id`: the automaton's
    /// [`Compact`] form, with a shuffle automaton for the rules a spec marks
    /// `@bidirectional` (its hot rules).
    pub(crate) fn recognizer_table(&self, id: RuleId) -> Compact {
        let compact = self.automata[&id].compact();
        // Marked, whether or not its reverse automaton was small enough.
        if self.grammar.modules.iter().any(|m| m.bidirectional.contains(&id)) {
            compact.with_shuffle()
        } else {
            compact
        }
    }

    /// The rules of a whole-file export that partial compilation left out
    /// (see [`crate::partial`]), in the order they were met.
    pub fn left_out(&self) -> &[LeftOut] {
        &self.left_out
    }

    /// The recognizer of an exported rule, by module name and rule name
    /// (case-insensitive, as in ABNF).
    pub fn recognizer(&self, grammar: &str, rule: &str) -> Option<CompiledRule<'_>> {
        let m = self.grammar.module_by_name(grammar)?;
        let id = self.grammar.module(m).get(rule)?;
        let r = self.grammar.rule(id);
        let engine = match self.automata.get(&id) {
            Some(a) => Engine::Dfa(a),
            None => {
                let built = self
                    .networks
                    .iter()
                    .find(|n| n.module == m && n.exported.contains(&id))
                    .or_else(|| self.networks.iter().find(|n| n.exported.contains(&id)))?;
                Engine::Network {
                    built,
                    index: built.network.index_of(id)?,
                    limits: abnf_runtime::network::Limits {
                        depth: self.nesting_limit,
                        ..abnf_runtime::network::Limits::DEFAULT
                    },
                }
            }
        };
        Some(CompiledRule {
            grammar: &self.grammar.module(r.module).name,
            rule: &r.name,
            engine,
        })
    }

    /// How many exported rules are walked as networks of rule automata
    /// (they need a stack).
    pub fn network_rule_count(&self) -> usize {
        self.networks.iter().map(|n| n.exported.len()).sum()
    }

    /// The typed-tree shape of a typed rule, which capture group holds which
    /// part, and its tagged DFA, by module and rule name.
    pub fn tagged(&self, grammar: &str, rule: &str) -> Option<(&typed::RuleType, &Groups, &TaggedDfa)> {
        let m = self.grammar.module_by_name(grammar)?;
        let id = self.grammar.module(m).get(rule)?;
        let (_, model) = self.typed.models.iter().find(|(mm, _)| *mm == m)?;
        let d = self.typed.tdfas.get(&id)?;
        Some((model.get(id)?, &d.groups, &d.dfa))
    }

    /// The tagged DFA of typed rule `id` and its groups (as
    /// [`Compiled::tagged`], by rule).
    pub fn tagged_rule(&self, id: RuleId) -> Option<(&Groups, &TaggedDfa)> {
        self.typed.tdfas.get(&id).map(|d| (&d.groups, &d.dfa))
    }

    /// The tagged DFA of an `@components` extraction, by module and rule
    /// name.
    pub fn components(&self, grammar: &str, rule: &str) -> Option<&TaggedDfa> {
        let m = self.grammar.module_by_name(grammar)?;
        let id = self.grammar.module(m).get(rule)?;
        let (_, built) = self.typed.components.iter().find(|(mm, _)| *mm == m)?;
        Some(&built.iter().find(|c| c.rule == id)?.tdfa)
    }

    /// How many rules got a recognizer.
    pub fn rule_count(&self) -> usize {
        self.automata.len()
    }

    /// Measurements of every automaton, in export order.
    pub fn stats(&self) -> Vec<RuleStats> {
        let mut seen = Vec::new();
        let mut out = Vec::new();
        for (_, ids) in &self.exports {
            for id in ids {
                if seen.contains(id) {
                    continue;
                }
                seen.push(*id);
                let a = &self.automata[id];
                let r = self.grammar.rule(*id);
                let compact = self.recognizer_table(*id);
                out.push(RuleStats {
                    grammar: self.grammar.module(r.module).name.clone(),
                    rule: r.name.clone(),
                    nfa_states: a.nfa_states,
                    dfa_states: compact.states(),
                    classes: compact.alphabet,
                    table_bytes: compact.to_bytes(false).len(),
                    sparse_bytes: a.sparse_bytes().0.len(),
                    extract_bytes: self
                        .typed
                        .tdfas
                        .get(id)
                        .and_then(|d| d.dfa.to_bytes(None, false))
                        .map_or(0, |b| b.len()),
                    reverse_bytes: self.reverses.get(id).map_or(0, |rev| rev.to_bytes(false).len()),
                    components_bytes: self
                        .typed
                        .components
                        .iter()
                        .flat_map(|(_, cs)| cs)
                        .find(|c| c.rule == *id)
                        .and_then(|c| c.tdfa.to_bytes(Some(MAX_PAIR_BYTES), false))
                        .map_or(0, |b| b.len()),
                    build_time: a.build_time,
                });
            }
        }
        out
    }
}

impl fmt::Debug for Compiled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Compiled")
            .field("modules", &self.grammar.modules.len())
            .field("automata", &self.automata.len())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spans of `@components` extraction `rule` on `input`, per field.
    fn components(spec: &str, rule: &str, input: &str) -> Vec<Option<(usize, usize)>> {
        let compiled = Config::new().spec_source("t.abnf", spec).build().unwrap();
        let id = compiled.grammar.modules[1].get(rule).unwrap();
        let built = compiled.typed.components[0]
            .1
            .iter()
            .find(|c| c.rule == id)
            .unwrap();
        let tags = built.tdfa.run(input.as_bytes()).unwrap();
        (1..=built.fields.len())
            .map(|g| Some((tags[2 * g]?, tags[2 * g + 1]?)))
            .collect()
    }

    #[test]
    fn a_marked_rule_keeps_its_shuffle_automaton_without_a_reverse_one() {
        // The reverse automaton of `a` is too large (a warning), the
        // shuffle automaton is not tied to it.
        let spec = "; @bidirectional a b\na = 12( \"a\" / \"b\" ) \"a\" *( \"a\" / \"b\" )\nb = 1*\"b\"\n";
        let compiled = Config::new().spec_source("t.abnf", spec).build().unwrap();
        let (a, b) = (
            compiled.grammar.modules[1].get("a").unwrap(),
            compiled.grammar.modules[1].get("b").unwrap(),
        );
        assert!(!compiled.reverses.contains_key(&a));
        assert!(compiled.recognizer_table(a).shuffle.is_some());
        assert!(compiled.reverses.contains_key(&b));
        assert!(compiled.recognizer_table(b).shuffle.is_some());
        assert!(compiled
            .warnings
            .items
            .iter()
            .any(|w| w.code == Code::TooLarge && w.message.contains("rule `a`")));
    }

    #[test]
    fn components_at_any_depth_and_shared_fields() {
        let spec = "; @components pair key value=num|word\n\
                    pair = key \"=\" val\nkey = 1*ALPHA\nval = num / word\n\
                    num = 1*DIGIT\nword = 1*ALPHA\n";
        assert_eq!(components(spec, "pair", "ab=12"), [Some((0, 2)), Some((3, 5))]);
        assert_eq!(components(spec, "pair", "ab=cd"), [Some((0, 2)), Some((3, 5))]);
    }

    #[test]
    fn a_recursive_target_is_captured_whole() {
        // `list` refers to itself: it is lowered once (Arden's lemma), not
        // unrolled into nested captures.
        let spec = "; @components doc head list\n\
                    doc = head \":\" list\nhead = 1*ALPHA\n\
                    list = item [ \",\" list ]\nitem = 1*DIGIT\n";
        assert_eq!(components(spec, "doc", "ab:1,22,3"), [Some((0, 2)), Some((3, 9))]);
    }

    #[test]
    fn same_named_list_fields_in_two_variants_keep_their_own_elements() {
        // Both variants have a field `items`, with different separators.
        let spec = "a = \"x\" *( \",\" item ) / \"y\" *( \";\" item )\nitem = 1*DIGIT\n";
        let compiled = Config::new().spec_source("t.abnf", spec).build().unwrap();
        let id = compiled.grammar.modules[1].get("a").unwrap();
        let (ty, _, _) = compiled.tagged("t", "a").unwrap();
        let typed::Shape::Enum(variants) = &ty.shape else {
            panic!("{:?}", ty.shape)
        };
        let elements: Vec<&TaggedDfa> = variants
            .iter()
            .map(|v| {
                assert_eq!(v.fields[0].name, "items");
                &compiled.typed.elements[&(id, v.fields[0].path.clone())].dfa
            })
            .collect();
        assert!(elements[0].run(b",12").is_ok() && elements[0].run(b";12").is_err());
        assert!(elements[1].run(b";12").is_ok() && elements[1].run(b",12").is_err());
    }

    #[test]
    fn an_octet_spec_keeps_its_byte_trees_beside_a_text_spec() {
        // `o` reads bytes, so its tree may split a character; `t`, compiled
        // with it, reads text and uses none of `o`'s rules.
        let compiled = Config::new()
            .spec_source("t.abnf", "d = 1*DIGIT \"-\" 1*DIGIT\n")
            .spec_source(
                "o.abnf",
                "; @terminals octets\nf = n \":\" v\nn = 1*ALPHA\nv = 1*%x80-FF\n",
            )
            .build()
            .unwrap();
        let (_, _, tree) = compiled.tagged("o", "f").expect("f is typed");
        assert!(tree.run(b"a:\xe9").is_ok());
        assert!(compiled
            .warnings
            .items
            .iter()
            .all(|d| !d.message.contains("cut a UTF-8")));
    }
}
