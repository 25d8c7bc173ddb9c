//! One boundary rule's automaton: its body's Thompson NFA, where a call is
//! a capture group (around a placeholder byte), determinized over bytes and calls, then
//! minimized.

use std::collections::{BTreeMap, HashSet};

use rustc_hash::FxHashMap as HashMap;

use regex_automata::nfa::thompson::{self, State, WhichCaptures, NFA};
use regex_automata::util::primitives::StateID;

use crate::diagnostic::{Code, Diagnostic};
use crate::grammar::{Grammar, RuleId};
use crate::limits::Limits;
use crate::regular::Lowerer;

/// The most states a rule automaton of a network may have before its rule
/// is split.
pub(crate) const MAX_BODY_STATES: usize = 2048;

/// A rule automaton over bytes and calls. State 0 is dead (no transition,
/// no call, not accepting).
#[derive(Clone, Debug)]
pub(crate) struct BodyDfa {
    /// `trans[state * 256 + byte]`.
    pub(crate) trans: Vec<u32>,
    pub(crate) accept: Vec<bool>,
    /// Per state, its calls: (callee, state after the callee returns),
    /// one per callee.
    pub(crate) calls: Vec<Vec<(RuleId, u32)>>,
    pub(crate) start: u32,
}

impl BodyDfa {
    pub(crate) fn states(&self) -> usize {
        self.accept.len()
    }
}

/// The rule automaton of `rule`, whose references to `boundary` rules are
/// calls; an error when its body cannot be lowered or its automaton exceeds
/// the limits.
pub(crate) fn build(
    g: &Grammar,
    lowerer: &mut Lowerer<'_>,
    rule: RuleId,
    boundary: &HashSet<RuleId>,
    reaching: &HashSet<RuleId>,
    limits: Limits,
) -> Result<BodyDfa, Diagnostic> {
    let sites = crate::regular::CallSites { boundary, reaching };
    let (hir, callees) = lowerer.lower_with_calls(rule, &sites)?;
    let nfa = thompson::Compiler::new()
        .configure(
            thompson::Config::new()
                // Capture groups are the calls.
                .which_captures(WhichCaptures::All)
                .nfa_size_limit(Some(limits.nfa_bytes)),
        )
        .build_from_hir(&hir)
        .map_err(|e| too_large(g, rule, &e.to_string()))?;
    // A body this large is split instead (the rules it inlines become
    // rule automata of their own), which costs less than building it: the
    // subset construction meets this many states in tens of milliseconds.
    let max_states = (limits.dfa_bytes / (4 * 256)).clamp(64, MAX_BODY_STATES);
    let dfa = determinize(&nfa, &callees, max_states).ok_or_else(|| {
        too_large(
            g,
            rule,
            &format!("its automaton over bytes and calls would exceed {max_states} states"),
        )
    })?;
    Ok(minimize(&dfa))
}

fn too_large(g: &Grammar, rule: RuleId, detail: &str) -> Diagnostic {
    let r = g.rule(rule);
    Diagnostic::error(
        Code::TooLarge,
        format!("the rule automaton of `{}` is too large: {detail}", r.name),
        Some(r.name_span),
    )
}

/// The kernel of an NFA state set: the states that consume a byte, call,
/// or match (epsilon moves followed).
fn closure(nfa: &NFA, seeds: &[StateID], callees: &[RuleId], seen: &mut Seen) -> Vec<StateID> {
    let mut kernel = Vec::new();
    closure_into(nfa, seeds, callees, seen, &mut Vec::new(), &mut kernel);
    kernel
}

/// [`closure`] into `kernel`, with `stack` for the walk (both kept by the
/// caller to reuse their allocations: the subset construction closes a
/// set per state and byte class).
fn closure_into(
    nfa: &NFA,
    seeds: &[StateID],
    callees: &[RuleId],
    seen: &mut Seen,
    stack: &mut Vec<StateID>,
    kernel: &mut Vec<StateID>,
) {
    seen.clear();
    stack.clear();
    stack.extend_from_slice(seeds);
    kernel.clear();
    while let Some(s) = stack.pop() {
        if !seen.insert(s.as_usize()) {
            continue;
        }
        match nfa.state(s) {
            State::ByteRange { .. } | State::Sparse(_) | State::Dense(_) | State::Match { .. } => {
                kernel.push(s)
            }
            State::Capture {
                next,
                group_index,
                slot,
                ..
            } => {
                let g = group_index.as_usize();
                if g >= 1 && g <= callees.len() && slot.as_usize() % 2 == 0 {
                    kernel.push(s);
                } else {
                    stack.push(*next);
                }
            }
            State::Union { alternates } => stack.extend(alternates.iter().rev()),
            State::BinaryUnion { alt1, alt2 } => {
                stack.push(*alt2);
                stack.push(*alt1);
            }
            // The lowering writes no look-around; a look state never
            // matches here.
            State::Look { .. } | State::Fail => {}
        }
    }
    kernel.sort();
}

/// A set of NFA states, cleared in time proportional to its size.
struct Seen {
    stamp: Vec<u32>,
    now: u32,
}

impl Seen {
    fn new(n: usize) -> Seen {
        Seen {
            stamp: vec![0; n],
            now: 0,
        }
    }
    fn clear(&mut self) {
        self.now += 1;
    }
    fn insert(&mut self, s: usize) -> bool {
        std::mem::replace(&mut self.stamp[s], self.now) != self.now
    }
}

/// The subset construction over bytes and calls; `None` past `max_states`.
fn determinize(nfa: &NFA, callees: &[RuleId], max_states: usize) -> Option<BodyDfa> {
    let mut seen = Seen::new(nfa.states().len());
    let mut ids: HashMap<Vec<StateID>, u32> = HashMap::default();
    let mut sets: Vec<Vec<StateID>> = vec![Vec::new()];
    ids.insert(Vec::new(), 0);
    let start = closure(nfa, &[nfa.start_anchored()], callees, &mut seen);
    let start_id = 1u32;
    ids.insert(start.clone(), start_id);
    sets.push(start);
    let mut dfa = BodyDfa {
        trans: vec![0; 2 * 256],
        accept: vec![false; 2],
        calls: vec![Vec::new(); 2],
        start: start_id,
    };
    let mut intern = |set: &[StateID], sets: &mut Vec<Vec<StateID>>, dfa: &mut BodyDfa| -> Option<u32> {
        if let Some(&id) = ids.get(set) {
            return Some(id);
        }
        if sets.len() >= max_states {
            return None;
        }
        let id = sets.len() as u32;
        ids.insert(set.to_vec(), id);
        sets.push(set.to_vec());
        dfa.trans.extend([0; 256]);
        dfa.accept.push(false);
        dfa.calls.push(Vec::new());
        Some(id)
    };
    let mut q = 1;
    // Per byte, the NFA states it leads to: kept (cleared) from state to
    // state, so that only their first state allocates.
    let mut by_byte: Vec<Vec<StateID>> = vec![Vec::new(); 256];
    let mut memo: HashMap<Vec<StateID>, u32> = HashMap::default();
    let (mut stack, mut kernel) = (Vec::new(), Vec::new());
    while q < sets.len() {
        let set = sets[q].clone();
        for targets in &mut by_byte {
            targets.clear();
        }
        let mut by_callee: BTreeMap<usize, Vec<StateID>> = BTreeMap::new();
        for &s in &set {
            match nfa.state(s) {
                State::ByteRange { trans } => {
                    for b in trans.start..=trans.end {
                        by_byte[b as usize].push(trans.next);
                    }
                }
                State::Sparse(sp) => {
                    for t in sp.transitions.iter() {
                        for b in t.start..=t.end {
                            by_byte[b as usize].push(t.next);
                        }
                    }
                }
                State::Dense(d) => {
                    for (b, &next) in d.transitions.iter().enumerate() {
                        if next != StateID::ZERO {
                            by_byte[b].push(next);
                        }
                    }
                }
                State::Match { .. } => dfa.accept[q] = true,
                State::Capture {
                    next, group_index, ..
                } => {
                    // The callee's position among the rule's callees: calls
                    // of one rule from several places share a symbol.
                    let callee = callees[group_index.as_usize() - 1];
                    let first = callees.iter().position(|&c| c == callee).unwrap_or(0);
                    // Past the group's placeholder byte.
                    let after = match nfa.state(*next) {
                        State::ByteRange { trans } => trans.next,
                        _ => *next,
                    };
                    by_callee.entry(first).or_default().push(after);
                }
                _ => {}
            }
        }
        // Equal target lists give equal closures: close each once.
        memo.clear();
        for (b, targets) in by_byte.iter().enumerate() {
            if targets.is_empty() {
                continue;
            }
            let id = match memo.get(targets) {
                Some(&id) => id,
                None => {
                    closure_into(nfa, targets, callees, &mut seen, &mut stack, &mut kernel);
                    let id = intern(&kernel, &mut sets, &mut dfa)?;
                    memo.insert(targets.clone(), id);
                    id
                }
            };
            dfa.trans[q * 256 + b] = id;
        }
        for (first, targets) in by_callee {
            closure_into(nfa, &targets, callees, &mut seen, &mut stack, &mut kernel);
            let id = intern(&kernel, &mut sets, &mut dfa)?;
            dfa.calls[q].push((callees[first], id));
        }
        q += 1;
    }
    Some(dfa)
}

/// Appends state `q`'s signature to `flat`: its block, the blocks of its
/// targets on the bytes `reps` (one per class), and its calls with the
/// blocks of their return states. Every state's signature has the same
/// length up to its calls, so equal words mean equal signatures (kept in
/// one buffer per round, not a few vectors per state).
fn signature(dfa: &BodyDfa, q: usize, reps: &[usize], block: &[u32], flat: &mut Vec<u32>) {
    flat.push(block[q]);
    flat.extend(reps.iter().map(|&b| block[dfa.trans[q * 256 + b] as usize]));
    for &(c, t) in &dfa.calls[q] {
        flat.extend([c.0, block[t as usize]]);
    }
}

/// Moore's partition refinement: states are equivalent when they agree on
/// accepting, on the block of every byte's target and on their calls. The
/// result is numbered dead state first, then breadth-first from the start.
pub(crate) fn minimize(dfa: &BodyDfa) -> BodyDfa {
    let n = dfa.states();
    // One byte of each class of bytes that every state treats alike.
    let mut reps: Vec<usize> = Vec::new();
    {
        let mut seen: HashMap<Vec<u32>, ()> = HashMap::default();
        for b in 0..256 {
            let column: Vec<u32> = (0..n).map(|q| dfa.trans[q * 256 + b]).collect();
            if seen.insert(column, ()).is_none() {
                reps.push(b);
            }
        }
    }
    let mut block: Vec<u32> = (0..n).map(|q| u32::from(dfa.accept[q])).collect();
    let mut count = 0;
    // Each round's signatures, one after the other (see `signature`).
    let mut flat: Vec<u32> = Vec::new();
    let mut ends: Vec<usize> = Vec::with_capacity(n);
    loop {
        flat.clear();
        ends.clear();
        for q in 0..n {
            signature(dfa, q, &reps, &block, &mut flat);
            ends.push(flat.len());
        }
        let mut sigs: HashMap<&[u32], u32> = HashMap::default();
        let next: Vec<u32> = (0..n)
            .map(|q| {
                let from = if q == 0 { 0 } else { ends[q - 1] };
                let len = sigs.len() as u32;
                *sigs.entry(&flat[from..ends[q]]).or_insert(len)
            })
            .collect();
        let blocks = sigs.len();
        block = next;
        if blocks == count {
            break;
        }
        count = blocks;
    }
    // Renumber: the dead state's block is 0, then breadth-first.
    let mut number: Vec<Option<u32>> = vec![None; count];
    number[block[0] as usize] = Some(0);
    let mut queue = std::collections::VecDeque::from([dfa.start as usize]);
    let mut rep: Vec<usize> = vec![0];
    while let Some(q) = queue.pop_front() {
        let b = block[q] as usize;
        if number[b].is_some() {
            continue;
        }
        number[b] = Some(rep.len() as u32);
        rep.push(q);
        for byte in 0..256 {
            queue.push_back(dfa.trans[q * 256 + byte] as usize);
        }
        for &(_, t) in &dfa.calls[q] {
            queue.push_back(t as usize);
        }
    }
    let m = rep.len();
    let mut out = BodyDfa {
        trans: vec![0; m * 256],
        accept: vec![false; m],
        calls: vec![Vec::new(); m],
        start: number[block[dfa.start as usize] as usize].unwrap_or(0),
    };
    for (i, &q) in rep.iter().enumerate().skip(1) {
        out.accept[i] = dfa.accept[q];
        for byte in 0..256 {
            let t = dfa.trans[q * 256 + byte] as usize;
            out.trans[i * 256 + byte] = number[block[t] as usize].unwrap_or(0);
        }
        out.calls[i] = dfa.calls[q]
            .iter()
            .map(|&(c, t)| (c, number[block[t as usize] as usize].unwrap_or(0)))
            .filter(|&(_, t)| t != 0)
            .collect();
    }
    out
}
