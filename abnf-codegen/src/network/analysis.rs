//! Whether the next byte decides every call and return of a network (it is
//! ELL(1)), and the deterministic walk's action table if so.
//!
//! Over the symbols (byte classes and the end of the input), with every
//! boundary rule a possible root (so the end of the input may follow any
//! rule):
//!
//! - `FIRST(q)` and `NULLABLE(q)` of each state, and of each rule (its start
//!   state's), to a fixpoint;
//! - `FOLLOW(R)`: what may come after a call of `R`, to a fixpoint;
//! - at state `q` of rule `Q`, symbol `c` selects a shift if `q` has a
//!   transition on `c`; a call `(q, R, t)` if `c ∈ FIRST(R)`, or `R` is
//!   nullable and `c` may come after it (`FIRST(t)`, and `FOLLOW(Q)` when
//!   `t` is nullable); a return if `q` accepts and `c ∈ FOLLOW(Q)`.
//!
//! When no symbol selects two actions anywhere, and no rule calls itself
//! without consuming a byte (left recursion), the walk that takes the one
//! selected action is exact: the lookahead sets over-approximate, so the
//! action a derivation takes is always the one selected. A call whose
//! return state only returns is a tail call and pushes nothing.

use super::Network;
use abnf_runtime::network::action;

/// The walk the runtime takes for a network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Determinism {
    /// The next byte decides every action: the action table,
    /// `states × (alphabet + 1)` entries (see `abnf_runtime::network`).
    Deterministic(Vec<u32>),
    /// The general walk, and why (the first conflict found).
    General(String),
}

/// A set of symbols: byte classes `0..alphabet`, and `alphabet` for the
/// end of the input.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
struct Symbols([u64; 5]);

impl Symbols {
    fn insert(&mut self, s: usize) -> bool {
        let before = self.0[s / 64];
        self.0[s / 64] |= 1 << (s % 64);
        before != self.0[s / 64]
    }
    fn contains(&self, s: usize) -> bool {
        self.0[s / 64] >> (s % 64) & 1 == 1
    }
    fn union(&mut self, other: &Symbols) -> bool {
        let mut grew = false;
        for (a, b) in self.0.iter_mut().zip(other.0) {
            let before = *a;
            *a |= b;
            grew |= before != *a;
        }
        grew
    }
}

pub(super) fn decide(net: &Network, names: &[String]) -> Determinism {
    let n = net.states();
    let a = net.alphabet;
    let eoi = a;
    let rules = net.rules.len();
    if n.saturating_mul(a + 1) >= 1 << (32 - action::BITS) {
        return Determinism::General("the action table would be too large".into());
    }
    // FIRST and NULLABLE.
    let mut first = vec![Symbols::default(); n];
    let mut nullable = vec![false; n];
    for q in 1..n {
        for c in 0..a {
            if net.trans[q * a + c] != 0 {
                first[q].insert(c);
            }
        }
        nullable[q] = net.accept[q];
    }
    let mut grew = true;
    while grew {
        grew = false;
        for q in 1..n {
            for &(r, t) in &net.calls[q] {
                let s = net.starts[r as usize] as usize;
                let fr = first[s];
                grew |= first[q].union(&fr);
                if nullable[s] {
                    let ft = first[t as usize];
                    grew |= first[q].union(&ft);
                    if nullable[t as usize] && !nullable[q] {
                        nullable[q] = true;
                        grew = true;
                    }
                }
            }
        }
    }
    // FOLLOW, with the end of the input after every rule.
    let mut follow = vec![Symbols::default(); rules];
    for f in &mut follow {
        f.insert(eoi);
    }
    let mut grew = true;
    while grew {
        grew = false;
        for q in 1..n {
            let caller = net.state_rule[q] as usize;
            for &(r, t) in &net.calls[q] {
                let t = t as usize;
                let mut s = first[t];
                if nullable[t] {
                    let fq = follow[caller];
                    s.union(&fq);
                }
                grew |= follow[r as usize].union(&s);
            }
        }
    }
    // Left recursion: a rule that reaches a call of itself without
    // consuming a byte.
    if let Some(r) = left_recursive(net, &nullable) {
        return Determinism::General(format!("rule `{}` is left-recursive", names[r]));
    }
    let mut within = Containment::new(net);
    let width = a + 1;
    let mut actions = vec![action::ERROR; n * width];
    for q in 1..n {
        let rule = net.state_rule[q] as usize;
        let row = &mut actions[q * width..(q + 1) * width];
        for (slot, &t) in row.iter_mut().zip(&net.trans[q * a..(q + 1) * a]) {
            if t != 0 {
                *slot = (t * width as u32) << action::BITS | action::SHIFT;
            }
        }
        for (e, &(r, t)) in net.calls[q].iter().enumerate() {
            let s = net.starts[r as usize] as usize;
            let mut la = first[s];
            if nullable[s] {
                la.union(&first[t as usize]);
                if nullable[t as usize] {
                    la.union(&follow[rule]);
                }
            }
            let tail = net.accept[t as usize]
                && net.calls[t as usize].is_empty()
                && (0..a).all(|c| net.trans[t as usize * a + c] == 0);
            let edge = call_index(net, q, e) as u32;
            let act = edge << action::BITS | if tail { action::TAIL } else { action::CALL };
            for (c, slot) in row.iter_mut().enumerate() {
                if !la.contains(c) {
                    continue;
                }
                if *slot & ((1 << action::BITS) - 1) == action::SHIFT
                    && c < a
                    && within.shift_covers_call(q, c, r as usize, t as usize)
                {
                    // Consuming the byte here, then calling, derives all
                    // that calling here does: the shift stands.
                    continue;
                }
                if *slot != action::ERROR {
                    return Determinism::General(format!(
                        "in rule `{}`, one byte may both continue the rule and call `{}`",
                        names[rule], names[r as usize]
                    ));
                }
                *slot = act;
            }
        }
        if net.accept[q] {
            for (c, slot) in row.iter_mut().enumerate() {
                if !follow[rule].contains(c) {
                    continue;
                }
                if *slot & ((1 << action::BITS) - 1) == action::SHIFT
                    && c < a
                    && within.shift_covers_return(q, c, rule, &first, &nullable, &follow)
                {
                    // Consuming the byte inside the rule, then returning,
                    // derives all that returning here does.
                    continue;
                }
                if *slot != action::ERROR {
                    return Determinism::General(format!(
                        "in rule `{}`, one byte may both continue the rule and end it",
                        names[rule]
                    ));
                }
                *slot = action::RETURN;
            }
        }
    }
    accelerate(net, &mut actions);
    Determinism::Deterministic(actions)
}

/// The states of the deterministic walk that loop to themselves on at
/// least [`MIN_LOOP_BYTES`] ASCII bytes (string contents, runs of spaces),
/// with the bytes and the UTF-8 lead bytes they loop on: the shifts into
/// them become [`action::SHIFT_LOOP`], after which the runtime skips the
/// run with a vector search ([`abnf_runtime::simd::find_outside`]).
pub(crate) fn loop_sets(net: &Network, actions: &[u32]) -> Vec<(u32, abnf_runtime::simd::LoopSet)> {
    use crate::automata::bitpar::{utf8_leads, NibbleTable, MIN_LOOP_BYTES};
    let a = net.alphabet;
    let width = a + 1;
    let shift_to = |q: usize, c: usize| -> Option<usize> {
        let act = actions[q * width + c];
        let kind = act & ((1 << action::BITS) - 1);
        (kind == action::SHIFT || kind == action::SHIFT_LOOP).then(|| (act >> action::BITS) as usize / width)
    };
    let mut out = Vec::new();
    for q in 1..net.states() {
        let bytes = NibbleTable::from_fn(|b| shift_to(q, net.classes[b as usize] as usize) == Some(q));
        if bytes.len() < MIN_LOOP_BYTES {
            continue;
        }
        let leads = utf8_leads(q, |s, b| shift_to(s, net.classes[b as usize] as usize));
        out.push((
            q as u32,
            abnf_runtime::simd::LoopSet {
                bytes: abnf_runtime::simd::NibbleSet(bytes.0),
                escape: 0,
                escaped: abnf_runtime::simd::NibbleSet([0; 16]),
                leads,
            },
        ));
    }
    out
}

/// Marks the shifts into looping states (see [`loop_sets`]).
fn accelerate(net: &Network, actions: &mut [u32]) {
    let width = net.alphabet + 1;
    let looping: std::collections::HashSet<u32> =
        loop_sets(net, actions).into_iter().map(|(q, _)| q).collect();
    for act in actions.iter_mut() {
        if *act & ((1 << action::BITS) - 1) == action::SHIFT
            && looping.contains(&((*act >> action::BITS) / width as u32))
        {
            *act = (*act & !((1 << action::BITS) - 1)) | action::SHIFT_LOOP;
        }
    }
}

/// Language containment between states of one rule automaton, read as
/// regular languages over bytes and calls (a call is a letter): if
/// `L(x) ⊆ L(y)` so, it holds for the rule's context-free language too,
/// since each call letter stands for the same language on both sides.
struct Containment<'n> {
    net: &'n Network,
    memo: std::collections::HashMap<(u32, u32), bool>,
}

impl<'n> Containment<'n> {
    fn new(net: &'n Network) -> Containment<'n> {
        Containment {
            net,
            memo: std::collections::HashMap::new(),
        }
    }

    /// Whether `L(x) ⊆ L(y)` (product walk over the pairs reachable from
    /// `(x, y)`; at most a million pairs, else "no").
    fn subset(&mut self, x: u32, y: u32) -> bool {
        if x == y || x == 0 {
            return true;
        }
        if let Some(&r) = self.memo.get(&(x, y)) {
            return r;
        }
        let net = self.net;
        let a = net.alphabet;
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![(x, y)];
        let mut ok = true;
        while let Some((p, q)) = stack.pop() {
            if p == 0 || !seen.insert((p, q)) {
                continue;
            }
            if seen.len() > 1 << 20 || q == 0 || (net.accept[p as usize] && !net.accept[q as usize]) {
                ok = false;
                break;
            }
            for c in 0..a {
                stack.push((net.trans[p as usize * a + c], net.trans[q as usize * a + c]));
            }
            for &(callee, t) in &net.calls[p as usize] {
                match net.calls[q as usize].iter().find(|&&(c2, _)| c2 == callee) {
                    Some(&(_, u)) => stack.push((t, u)),
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            if !ok {
                break;
            }
        }
        self.memo.insert((x, y), ok);
        ok
    }

    /// At state `q`, class `c` both continues the rule (to `q'`) and starts
    /// a call of `r` returning to `t`. Shifting is enough when `q'` calls
    /// `r` too, to a return state that derives at least what `t` does, and
    /// what `r` derives after `c` it also derives from its start: then
    /// `c · L(r) · L(t)` is inside what the shift derives.
    fn shift_covers_call(&mut self, q: usize, c: usize, r: usize, t: usize) -> bool {
        let net = self.net;
        let a = net.alphabet;
        let q2 = net.trans[q * a + c] as usize;
        let Some(&(_, t2)) = net.calls[q2].iter().find(|&&(callee, _)| callee as usize == r) else {
            return false;
        };
        let s = net.starts[r];
        let after = net.trans[s as usize * a + c];
        self.subset(t as u32, t2) && self.subset(after, s)
    }

    /// At accepting state `q` of `rule`, class `c` both continues the rule
    /// (to `q'`) and may follow it. Shifting is enough when `q'` accepts,
    /// and at every return state `t` of a call of `rule` where `c` may come
    /// next, `c` leads to a state that derives no more than `t` does: then
    /// what returning and consuming `c` derives, consuming `c` and
    /// returning derives too.
    fn shift_covers_return(
        &mut self,
        q: usize,
        c: usize,
        rule: usize,
        first: &[Symbols],
        nullable: &[bool],
        follow: &[Symbols],
    ) -> bool {
        let net = self.net;
        let a = net.alphabet;
        let q2 = net.trans[q * a + c] as usize;
        if !net.accept[q2] {
            return false;
        }
        for p in 1..net.states() {
            for &(callee, t) in &net.calls[p] {
                if callee as usize != rule {
                    continue;
                }
                let t = t as usize;
                // `c` after the caller's own end, or at the start of a call
                // from `t`, is not covered here.
                if nullable[t] && follow[net.state_rule[t] as usize].contains(c) {
                    return false;
                }
                if net.calls[t].iter().any(|&(s, _)| {
                    first[net.starts[s as usize] as usize].contains(c)
                        || nullable[net.starts[s as usize] as usize]
                }) {
                    return false;
                }
                if !first[t].contains(c) {
                    continue;
                }
                let t2 = net.trans[t * a + c];
                if t2 == 0 || !self.subset(t2, t as u32) {
                    return false;
                }
            }
        }
        true
    }
}

/// The index of state `q`'s `e`-th call edge among all call edges, in the
/// order the table lists them.
fn call_index(net: &Network, q: usize, e: usize) -> usize {
    net.calls[..q].iter().map(Vec::len).sum::<usize>() + e
}

/// The index of a rule that calls itself, directly or through other rules,
/// before consuming a byte; `None` if no rule does.
fn left_recursive(net: &Network, nullable: &[bool]) -> Option<usize> {
    let rules = net.rules.len();
    // calls_first[r]: the rules r may call before consuming a byte.
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); rules];
    for (r, edges) in edges.iter_mut().enumerate() {
        let mut seen = vec![false; net.states()];
        let mut stack = vec![net.starts[r] as usize];
        while let Some(q) = stack.pop() {
            if q == 0 || std::mem::replace(&mut seen[q], true) {
                continue;
            }
            for &(callee, t) in &net.calls[q] {
                edges.push(callee as usize);
                if nullable[net.starts[callee as usize] as usize] {
                    stack.push(t as usize);
                }
            }
        }
    }
    // A cycle in that graph (iterative colouring).
    let mut colour = vec![0u8; rules];
    for root in 0..rules {
        if colour[root] != 0 {
            continue;
        }
        let mut stack = vec![(root, 0usize)];
        colour[root] = 1;
        while let Some(&mut (v, ref mut i)) = stack.last_mut() {
            if *i < edges[v].len() {
                let w = edges[v][*i];
                *i += 1;
                match colour[w] {
                    0 => {
                        colour[w] = 1;
                        stack.push((w, 0));
                    }
                    1 => return Some(w),
                    _ => {}
                }
            } else {
                colour[v] = 2;
                stack.pop();
            }
        }
    }
    None
}
