//! Rules no single DFA can hold, as a network of rule automata joined by
//! calls (a recursive transition network; CPython's `pgen` builds one DFA
//! per rule the same way).
//!
//! A rule whose recursion is not regular, or whose inlined automaton would
//! be too large, becomes a *boundary* rule: its body is lowered to a regular
//! expression over bytes and calls ([`Lowerer::lower_with_calls`]: every
//! reference to another boundary rule is a call, every other rule is
//! inlined), determinized into a DFA whose alphabet is the bytes plus one
//! symbol per callee (`body`), and minimized. The rule DFAs share one
//! numbering of states and one byte-class map.
//!
//! `analysis` then decides whether the next byte decides every call and
//! return (the network is ELL(1)); if so it writes the deterministic walk's
//! action table, else the runtime walks the network with its general
//! (Earley) engine. The table format and both walks are the runtime's
//! (`abnf_runtime::network`).

mod analysis;
mod body;

use std::collections::{HashMap, HashSet};

use crate::diagnostic::{Code, Diagnostic};
use crate::grammar::{Grammar, RuleId};
use crate::limits::Limits;
use crate::regular::Lowerer;

pub use analysis::Determinism;

/// The most boundary rules one network may have.
pub const MAX_NETWORK_RULES: usize = 4096;

/// A network of rule automata, in memory.
#[derive(Clone, Debug)]
pub struct Network {
    /// The boundary rules, in the order of their indexes.
    pub rules: Vec<RuleId>,
    /// Byte → class.
    pub classes: [u8; 256],
    /// The number of byte classes.
    pub alphabet: usize,
    /// `trans[state * alphabet + class]`: the next state (0: dead).
    pub trans: Vec<u32>,
    /// Per state: whether the rule may end there.
    pub accept: Vec<bool>,
    /// Per state: its rule's index.
    pub state_rule: Vec<u32>,
    /// Per state: its call edges (callee rule index, return state).
    pub calls: Vec<Vec<(u32, u32)>>,
    /// Per rule: its start state.
    pub starts: Vec<u32>,
    /// Whether the deterministic walk applies, and its actions if so.
    pub determinism: Determinism,
}

impl Network {
    /// How many states the rule automata have together (the dead state
    /// included).
    pub fn states(&self) -> usize {
        self.accept.len()
    }

    /// The rules that the rule automata call.
    pub fn callees(&self) -> HashSet<RuleId> {
        self.calls
            .iter()
            .flatten()
            .map(|&(callee, _)| self.rules[callee as usize])
            .collect()
    }

    /// The bytes that no rule automaton reads, highest first.
    pub fn unused_bytes(&self) -> Vec<u8> {
        (0..=255u8)
            .rev()
            .filter(|&b| {
                let class = self.classes[b as usize] as usize;
                (0..self.states()).all(|q| self.trans[q * self.alphabet + class] == 0)
            })
            .collect()
    }

    /// Per state, whether some string takes it to an accepting state of its
    /// rule (its calls included): a rule whose start state is not
    /// productive matches nothing.
    pub fn productive(&self) -> Vec<bool> {
        let mut p = self.accept.clone();
        let mut grew = true;
        while grew {
            grew = false;
            for q in 1..self.states() {
                if p[q] {
                    continue;
                }
                let by_byte = self.trans[q * self.alphabet..(q + 1) * self.alphabet]
                    .iter()
                    .any(|&t| t != 0 && p[t as usize]);
                let by_call = self.calls[q]
                    .iter()
                    .any(|&(r, t)| p[self.starts[r as usize] as usize] && p[t as usize]);
                if by_byte || by_call {
                    p[q] = true;
                    grew = true;
                }
            }
        }
        p
    }

    /// The index of `rule` among the network's rules.
    pub fn index_of(&self, rule: RuleId) -> Option<usize> {
        self.rules.iter().position(|&r| r == rule)
    }

    /// The table in the runtime's format (`abnf_runtime::wire::Kind::Network`).
    pub fn to_bytes(&self, big_endian: bool) -> Vec<u8> {
        use abnf_runtime::wire::{self, Kind};
        let call_words: usize = self.calls.iter().map(|c| 2 * c.len()).sum();
        let actions: &[u32] = match &self.determinism {
            Determinism::Deterministic(a) => a,
            Determinism::General(_) => &[],
        };
        let loops = if actions.is_empty() {
            Vec::new()
        } else {
            analysis::loop_sets(self, actions)
        };
        // States with the same loop set share its record: the runtime keeps
        // one classification of a block per record, for the runs of all of
        // them (a JSON string's contents, as a value and as a member name).
        let mut records: Vec<abnf_runtime::simd::LoopSet> = Vec::new();
        let mut index = vec![0u32; self.states()];
        for (q, set) in &loops {
            let k = match records.iter().position(|r| r == set) {
                Some(k) => k,
                None => {
                    records.push(*set);
                    records.len() - 1
                }
            };
            index[*q as usize] = k as u32 + 1;
        }
        let mut out = Vec::new();
        wire::write_header(
            &mut out,
            Kind::Network,
            4,
            &[
                self.alphabet as u32,
                self.states() as u32,
                self.rules.len() as u32,
                call_words as u32,
                actions.len() as u32,
                records.len() as u32,
            ],
            big_endian,
        );
        out.extend_from_slice(&self.classes);
        let mut words = self.trans.clone();
        words.extend(
            self.accept
                .iter()
                .zip(&self.state_rule)
                .map(|(&a, &r)| (r << 1) | u32::from(a)),
        );
        let mut at = 0u32;
        words.push(0);
        for c in &self.calls {
            at += c.len() as u32;
            words.push(at);
        }
        words.extend(self.calls.iter().flatten().flat_map(|&(r, t)| [r, t]));
        words.extend(&self.starts);
        words.extend(actions);
        // Per state, its loop set's index plus one (0: none), then the sets.
        if !records.is_empty() {
            words.extend(index);
        }
        wire::write_words(&mut out, &words, 4, big_endian);
        for set in &records {
            out.extend_from_slice(&set.to_record());
        }
        out
    }
}

/// Builds the network that holds `targets` (rules that cannot be one DFA).
///
/// The rules called through the network (its *boundary*) are few: a
/// feedback vertex set of the recursion among the rules that need a stack,
/// so that every other rule, recursive ones' users included, is inlined
/// into the rule automata that use it (fewer calls, and the bytes around a
/// call in one automaton, where a DFA sorts them out). Each target gets an
/// automaton to start from, whether or not it is also called. A rule whose
/// automaton cannot be lowered or determinized within the limits is split:
/// the rules it references become boundary rules too, until it fits or has
/// nothing left to split.
pub fn build(
    g: &Grammar,
    lowerer: &mut Lowerer<'_>,
    targets: &[RuleId],
    limits: Limits,
) -> Result<Network, Diagnostic> {
    build_with_boundary(g, lowerer, targets, &[], limits)
}

/// [`build`], with `forced` rules called through the network too (boundary
/// rules) even where they could be inlined: a typed tree too large for one
/// tagged DFA is derived with its parts' rules as calls, so that its own
/// automaton reads each part as one byte.
pub(crate) fn build_with_boundary(
    g: &Grammar,
    lowerer: &mut Lowerer<'_>,
    targets: &[RuleId],
    forced: &[RuleId],
    limits: Limits,
) -> Result<Network, Diagnostic> {
    // The rules reachable from the targets that reach a recursion lowering
    // found non-regular: they need a stack.
    let reach = crate::grammar::reachable(g, targets);
    let needs: HashSet<RuleId> = (0..g.rules.len() as u32)
        .map(RuleId)
        .filter(|&r| reach[r.0 as usize] && lowerer.non_regular_chain(r).is_some())
        .collect();
    let mut boundary = feedback_vertices(g, &needs);
    boundary.extend(forced.iter().copied());
    // The boundary in rule order, not the set's: the entries' order is the
    // generated network's rule table.
    let mut sorted_boundary: Vec<RuleId> = boundary.iter().copied().collect();
    sorted_boundary.sort();
    let mut entries: Vec<RuleId> = Vec::new();
    for &t in targets.iter().chain(sorted_boundary.iter()) {
        if !entries.contains(&t) {
            entries.push(t);
        }
    }
    // A body stays valid while the rules it inlines stay inlined: after a
    // split, only the bodies that inlined a rule split off are built again.
    let mut bodies: HashMap<RuleId, (body::BodyDfa, HashSet<RuleId>)> = HashMap::new();
    let mut i = 0;
    while i < entries.len() {
        let r = entries[i];
        i += 1;
        if bodies.contains_key(&r) {
            continue;
        }
        let reaching = reaching(g, &boundary);
        match body::build(g, lowerer, r, &boundary, &reaching, limits) {
            Ok(d) => {
                bodies.insert(r, (d, inlined(g, r, &boundary)));
            }
            Err(d) => {
                let mut refs = Vec::new();
                for x in inlined(g, r, &boundary) {
                    if !is_core(g, x) && g.rule(x).expr != g.rule(r).expr {
                        let mut direct = false;
                        g.rule(r).expr.for_each_ref(&mut |y, _| direct |= y == x);
                        if direct || needs.contains(&x) {
                            refs.push(x);
                        }
                    }
                }
                refs.sort();
                if refs.is_empty() {
                    return Err(d.with_note(
                        "the rule was compiled as a network of rule automata, and its own automaton \
                         is still too large (it references no other rule that could be split off)",
                    ));
                }
                if entries.len() + refs.len() > MAX_NETWORK_RULES {
                    return Err(Diagnostic::error(
                        Code::TooLarge,
                        format!(
                            "the network for rule `{}` would need more than {MAX_NETWORK_RULES} rule automata",
                            g.rule(r).name
                        ),
                        Some(g.rule(r).name_span),
                    ));
                }
                for &x in &refs {
                    boundary.insert(x);
                    if !entries.contains(&x) {
                        entries.push(x);
                    }
                }
                bodies.retain(|_, (_, uses)| !refs.iter().any(|x| uses.contains(x)));
                // Build again from the start what was dropped, and `r`.
                i = 0;
            }
        }
    }
    let ordered: Vec<(RuleId, body::BodyDfa)> = entries
        .iter()
        .map(|r| (*r, bodies.remove(r).expect("every entry rule was built").0))
        .collect();
    let names: Vec<String> = entries.iter().map(|&r| g.rule(r).name.clone()).collect();
    let net = assemble(ordered, &names);
    let bytes = net.to_bytes(false).len();
    if bytes > limits.rule_output_bytes {
        let r = g.rule(targets[0]);
        return Err(Diagnostic::error(
            Code::TooLarge,
            format!(
                "the network's tables would take {bytes} bytes, above the limit of {} bytes",
                limits.rule_output_bytes
            ),
            Some(r.name_span),
        ));
    }
    let productive = net.productive();
    for &t in targets {
        let start = net.starts[net.index_of(t).expect("a target is an entry")];
        if !productive[start as usize] {
            let r = g.rule(t);
            return Err(Diagnostic::error(
                Code::EmptyLanguage,
                format!("rule `{}` matches no string: its recursion never ends", r.name),
                Some(r.name_span),
            )
            .with_label("no derivation of this rule ends")
            .with_note("add an alternative that does not recurse"));
        }
    }
    Ok(net)
}

/// The rules that reach a boundary rule (without being one).
pub(crate) fn reaching(g: &Grammar, boundary: &HashSet<RuleId>) -> HashSet<RuleId> {
    // Callers of each rule, then a backward search from the boundary.
    let mut callers: Vec<Vec<RuleId>> = vec![Vec::new(); g.rules.len()];
    for (i, r) in g.rules.iter().enumerate() {
        r.expr
            .for_each_ref(&mut |x, _| callers[x.0 as usize].push(RuleId(i as u32)));
    }
    let mut out = HashSet::new();
    let mut stack: Vec<RuleId> = boundary.iter().copied().collect();
    while let Some(x) = stack.pop() {
        for &c in &callers[x.0 as usize] {
            if !boundary.contains(&c) && out.insert(c) {
                stack.push(c);
            }
        }
    }
    out
}

/// A small set of rules of `needs` that cuts every cycle among them
/// (greedily: the rule with the most references in and out of its
/// strongly connected component, until no cycle is left).
fn feedback_vertices(g: &Grammar, needs: &HashSet<RuleId>) -> HashSet<RuleId> {
    let mut cut: HashSet<RuleId> = HashSet::new();
    let mut nodes: Vec<RuleId> = needs.iter().copied().collect();
    nodes.sort();
    loop {
        let live: Vec<RuleId> = nodes.iter().copied().filter(|r| !cut.contains(r)).collect();
        let edges = |r: RuleId| {
            let mut out = Vec::new();
            g.rule(r).expr.for_each_ref(&mut |x, _| {
                if needs.contains(&x) && !cut.contains(&x) && !out.contains(&x) {
                    out.push(x);
                }
            });
            out
        };
        let sccs = sccs(&live, edges);
        let mut picks = Vec::new();
        for scc in sccs {
            let cyclic = scc.len() > 1 || edges(scc[0]).contains(&scc[0]);
            if !cyclic {
                continue;
            }
            let score = |r: RuleId| {
                let out = edges(r).iter().filter(|x| scc.contains(x)).count();
                let inn = scc.iter().filter(|&&y| edges(y).contains(&r)).count();
                (out * inn, std::cmp::Reverse(r))
            };
            let best = scc
                .iter()
                .copied()
                .max_by_key(|&r| score(r))
                .expect("an SCC has a rule");
            picks.push(best);
        }
        if picks.is_empty() {
            return cut;
        }
        cut.extend(picks);
    }
}

/// The strongly connected components of the graph on `nodes` (Tarjan's
/// algorithm, iterative).
fn sccs(nodes: &[RuleId], edges: impl Fn(RuleId) -> Vec<RuleId>) -> Vec<Vec<RuleId>> {
    let at: HashMap<RuleId, usize> = nodes.iter().enumerate().map(|(i, &r)| (r, i)).collect();
    let adj: Vec<Vec<usize>> = nodes
        .iter()
        .map(|&r| edges(r).iter().filter_map(|x| at.get(x).copied()).collect())
        .collect();
    let n = nodes.len();
    let (mut index, mut low) = (vec![usize::MAX; n], vec![0; n]);
    let mut on_stack = vec![false; n];
    let (mut stack, mut out, mut next) = (Vec::new(), Vec::new(), 0);
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut k)) = work.last_mut() {
            if *k == 0 && index[v] == usize::MAX {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = adj[v].get(*k) {
                *k += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(u, _)) = work.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp.push(nodes[w]);
                    if w == v {
                        break;
                    }
                }
                out.push(comp);
            }
        }
    }
    out
}

pub(crate) fn is_core(g: &Grammar, r: RuleId) -> bool {
    g.module(g.rule(r).module).name == crate::grammar::CORE_MODULE
}

/// The rules that `r`'s body inlines: those it reaches through references
/// to rules that are not boundaries.
fn inlined(g: &Grammar, r: RuleId, boundary: &HashSet<RuleId>) -> HashSet<RuleId> {
    let mut seen = HashSet::new();
    let mut stack = Vec::new();
    g.rule(r).expr.for_each_ref(&mut |x, _| stack.push(x));
    while let Some(x) = stack.pop() {
        if boundary.contains(&x) || !seen.insert(x) {
            continue;
        }
        g.rule(x).expr.for_each_ref(&mut |y, _| stack.push(y));
    }
    seen
}

/// Numbers the rule automata's states in one space (0: the shared dead
/// state), merges their byte classes, and decides the walk.
fn assemble(bodies: Vec<(RuleId, body::BodyDfa)>, names: &[String]) -> Network {
    let index: HashMap<RuleId, u32> = bodies
        .iter()
        .enumerate()
        .map(|(i, (r, _))| (*r, i as u32))
        .collect();
    let mut offsets = Vec::with_capacity(bodies.len());
    let mut total = 1usize;
    for (_, b) in &bodies {
        offsets.push(total as u32 - 1);
        total += b.states() - 1;
    }
    let global = |rule: usize, local: u32| if local == 0 { 0 } else { offsets[rule] + local };
    let mut by_byte = vec![0u32; total * 256];
    let mut accept = vec![false; total];
    let mut state_rule = vec![0u32; total];
    let mut calls = vec![Vec::new(); total];
    let mut starts = Vec::with_capacity(bodies.len());
    for (ri, (_, b)) in bodies.iter().enumerate() {
        starts.push(global(ri, b.start));
        for q in 1..b.states() as u32 {
            let gq = global(ri, q) as usize;
            accept[gq] = b.accept[q as usize];
            state_rule[gq] = ri as u32;
            for byte in 0..256 {
                by_byte[gq * 256 + byte] = global(ri, b.trans[q as usize * 256 + byte]);
            }
            calls[gq] = b.calls[q as usize]
                .iter()
                .map(|&(callee, t)| (index[&callee], global(ri, t)))
                .collect();
        }
    }
    // Bytes whose columns agree in every state share a class; classes are
    // numbered by their smallest byte.
    let mut classes = [0u8; 256];
    let mut reps: Vec<usize> = Vec::new();
    let mut seen: HashMap<Vec<u32>, u8> = HashMap::new();
    for byte in 0..256 {
        let column: Vec<u32> = (0..total).map(|q| by_byte[q * 256 + byte]).collect();
        let next = seen.len() as u8;
        let c = *seen.entry(column).or_insert(next);
        if c as usize == reps.len() {
            reps.push(byte);
        }
        classes[byte] = c;
    }
    let alphabet = reps.len();
    let mut trans = vec![0u32; total * alphabet];
    for q in 0..total {
        for (c, &byte) in reps.iter().enumerate() {
            trans[q * alphabet + c] = by_byte[q * 256 + byte];
        }
    }
    let mut net = Network {
        rules: bodies.iter().map(|(r, _)| *r).collect(),
        classes,
        alphabet,
        trans,
        accept,
        state_rule,
        calls,
        starts,
        determinism: Determinism::General(String::new()),
    };
    net.determinism = analysis::decide(&net, names);
    net
}

#[cfg(test)]
mod tests;
