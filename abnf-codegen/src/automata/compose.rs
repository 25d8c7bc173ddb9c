//! Determinization part by part: a rule's DFA from the minimized DFAs of
//! its parts.
//!
//! Determinizing a whole rule's NFA at once pays for every ambiguity
//! between its parts: RFC 3261's `addr-spec = SIP-URI / SIPS-URI /
//! absoluteURI` has 3,832 DFA states before minimizing and 283 after, and
//! each of the six header rules that contain it determinizes about 12,500
//! states (a second each) to end with about 700. Built part by part, each
//! part is minimized before the rules around it combine it (a product or
//! subset construction over deterministic parts, whose subsets stay small),
//! and a part shared by several rules (after references are inlined, equal
//! HIR subtrees) is built once per run ([`Composer`] caches them).
//!
//! The construction has the limits of a direct one, in bytes of
//! transitions, and stops as soon as a part exceeds them, with the number of
//! states it had reached: a rule that blows up is refused in the time it
//! takes to build that many states once, not twice (minimizing on, then
//! off) per rule that contains it.
//!
//! Only the language matters here: a recognizer is the full match
//! `(?:hir)\z`, where leftmost-first priorities decide nothing, so the
//! result is the same minimal DFA as the direct construction gives.

use rustc_hash::FxHashMap as HashMap;
use rustc_hash::FxHasher;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use regex_automata::dfa::dense;
use regex_automata::nfa::thompson::{self, Transition};
use regex_automata::util::look::Look;
use regex_automata::util::primitives::StateID;
use regex_syntax::hir::{Class, Hir, HirKind};

use super::{Compact, Limits, MAX_MINIMIZE_STATES};

/// Parts this small (in [`summarize`]'s weight, about NFA states) are
/// determinized directly: composing them would cost more conversions than
/// it saves.
const SMALL: usize = 48;

/// Rules up to this weight are determinized whole, in well under a
/// millisecond.
const COMPOSE_FROM: usize = 200;

/// A complete DFA over bytes: state 0 is the dead state.
#[derive(Clone, Debug)]
pub(crate) struct Dfa {
    pub(super) classes: [u8; 256],
    pub(super) alphabet: usize,
    /// `trans[q * alphabet + class]`, not premultiplied.
    pub(super) trans: Vec<u32>,
    pub(super) accept: Vec<bool>,
    pub(super) start: u32,
}

impl Dfa {
    fn from_compact(c: &Compact) -> Dfa {
        let a = c.alphabet as u32;
        Dfa {
            classes: c.classes,
            alphabet: c.alphabet,
            trans: c.trans.iter().map(|t| t / a).collect(),
            accept: c.accept.clone(),
            start: c.start / a,
        }
    }

    pub(crate) fn states(&self) -> usize {
        self.accept.len()
    }

    /// How many classes differ in where some state goes on them (classes
    /// with equal columns could be one).
    pub(crate) fn distinct_columns(&self) -> usize {
        let columns: std::collections::HashSet<Vec<u32>> = (0..self.alphabet)
            .map(|c| {
                (0..self.states())
                    .map(|q| self.trans[q * self.alphabet + c])
                    .collect()
            })
            .collect();
        columns.len()
    }

    pub(super) fn next(&self, q: u32, b: u8) -> u32 {
        self.trans[q as usize * self.alphabet + self.classes[b as usize] as usize]
    }

    /// The DFA as a Thompson NFA that is deterministic: one sparse state
    /// per live state, and `\z` to the match state from accepting ones.
    /// Determinizing it costs one step per state and byte class.
    pub(crate) fn to_nfa(&self) -> Result<thompson::NFA, thompson::BuildError> {
        let mut b = thompson::Builder::new();
        b.start_pattern()?;
        let n = self.states();
        // Sparse states cannot be patched, so each state is first an empty
        // placeholder that the transitions point at.
        let slots: Vec<StateID> = (0..n).map(|_| b.add_empty()).collect::<Result<_, _>>()?;
        // The dead state's placeholder is never the target of a
        // transition, but an empty state left pointing at itself would be
        // followed forever when the NFA is built.
        let fail = b.add_fail()?;
        b.patch(slots[0], fail)?;
        let matched = b.add_match()?;
        let end = b.add_look(matched, Look::End)?;
        // A class's bytes as ranges, in ascending order.
        let mut ranges: Vec<(u8, u8, usize)> = Vec::new();
        for byte in 0..=255u8 {
            let c = self.classes[byte as usize] as usize;
            match ranges.last_mut() {
                Some((_, hi, last)) if *last == c && *hi as usize + 1 == byte as usize => *hi = byte,
                _ => ranges.push((byte, byte, c)),
            }
        }
        for q in 1..n {
            let transitions: Vec<Transition> = ranges
                .iter()
                .filter_map(|&(start, end, c)| {
                    let t = self.trans[q * self.alphabet + c] as usize;
                    (t != 0).then(|| Transition {
                        start,
                        end,
                        next: slots[t],
                    })
                })
                .collect();
            let sparse = b.add_sparse(transitions)?;
            let body = if self.accept[q] {
                b.add_union(vec![sparse, end])?
            } else {
                sparse
            };
            b.patch(slots[q], body)?;
        }
        let start = slots[self.start as usize];
        b.finish_pattern(start)?;
        b.build(start, start)
    }
}

/// Why composing stopped.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Exceeded {
    /// States reached when it stopped.
    pub states: usize,
    /// Bytes of transitions they take (as `regex-automata` counts them).
    pub bytes: usize,
}

/// Builds DFAs part by part, caching every part it built (and every part
/// that exceeded the limit) for the rules that follow.
pub struct Composer {
    limits: Limits,
    cap_bytes: usize,
    /// By the part's structural hash (128 bits: two 64-bit hashes with
    /// different keys, so that a collision among the parts of one run is
    /// as good as impossible; comparing or cloning the parts themselves
    /// would cost time in the size of each, at every level).
    cache: HashMap<(u64, u64), Result<Rc<Dfa>, Exceeded>>,
}

impl Composer {
    /// A composer whose constructions are bounded as `limits` bound a
    /// direct one: `dfa_bytes` of transitions (states times the stride of
    /// their byte classes, 4 bytes each).
    pub fn new(limits: Limits) -> Composer {
        Composer {
            limits,
            cap_bytes: limits.dfa_bytes,
            cache: HashMap::default(),
        }
    }

    /// The DFA of `hir` (full match), minimized unless it has more than
    /// [`MAX_MINIMIZE_STATES`] states; `Ok(None)` when `hir` is small
    /// enough to build directly, or cannot be composed (look-arounds).
    pub(crate) fn build(&mut self, hir: &Hir) -> Result<Option<Rc<Dfa>>, super::SizeError> {
        if !hir.properties().look_set().is_empty() {
            return Ok(None);
        }
        let mut info = HashMap::default();
        let (_, weight) = summarize(hir, &mut info);
        if weight <= COMPOSE_FROM {
            return Ok(None);
        }
        // A rule whose whole NFA may pass its limit (at 64 bytes of NFA a
        // unit of weight; a counted repetition multiplies its part) is
        // refused by that limit, as a direct construction would refuse it,
        // before its parts are tried. Below that, building the whole NFA
        // only to count it would cost as much as composing (RFC 5322's
        // address lists, with `comment` bounded, have 400,000 nodes); the
        // parts' own NFAs are bounded by the same limit.
        if weight > self.limits.nfa_bytes / 64 {
            super::nfa_of(&crate::regular::anchored_full(hir.clone()), self.limits)?;
        }
        self.part(hir, &info).map(Some).map_err(|e| {
            super::SizeError::DfaTooBig(match e.states {
                // A small part built directly was refused.
                0 => format!("a part of it exceeds the DFA limit of {} bytes", self.cap_bytes),
                n => format!(
                    "determinizing it reached {n} states ({} bytes of transitions), past the limit of {} bytes",
                    e.bytes, self.cap_bytes
                ),
            })
        })
    }

    fn part(
        &mut self,
        hir: &Hir,
        info: &HashMap<*const Hir, ((u64, u64), usize)>,
    ) -> Result<Rc<Dfa>, Exceeded> {
        let (hash, weight) = info[&(hir as *const Hir)];
        if let Some(found) = self.cache.get(&hash) {
            return found.clone();
        }
        let result = self.part_uncached(hir, weight, info);
        self.cache.insert(hash, result.clone());
        result
    }

    fn part_uncached(
        &mut self,
        hir: &Hir,
        weight: usize,
        info: &HashMap<*const Hir, ((u64, u64), usize)>,
    ) -> Result<Rc<Dfa>, Exceeded> {
        let direct = |c: &Composer| -> Result<Rc<Dfa>, Exceeded> {
            direct_part(hir, c.limits).map(Rc::new).ok_or(Exceeded {
                states: 0,
                bytes: c.cap_bytes,
            })
        };
        if weight <= SMALL {
            return direct(self);
        }
        // A counted repetition of a small part (`*998text`, RFC 5322) is a
        // chain that a direct construction builds state by state, where
        // copies composed would carry every position they could be at.
        if let HirKind::Repetition(r) = hir.kind() {
            let counted = r.min > 1 || r.max.is_some_and(|m| m > 1);
            if counted && info[&(&*r.sub as *const Hir)].1 <= SMALL {
                return direct(self);
            }
        }
        let composed = match hir.kind() {
            HirKind::Concat(subs) | HirKind::Alternation(subs) => {
                let parts = subs
                    .iter()
                    .map(|s| self.part(s, info))
                    .collect::<Result<Vec<_>, _>>()?;
                let refs: Vec<&Dfa> = parts.iter().map(|p| &**p).collect();
                if matches!(hir.kind(), HirKind::Concat(_)) {
                    concat(&refs, self.cap_bytes)?
                } else {
                    union(&refs, false, self.cap_bytes)?
                }
            }
            HirKind::Repetition(r) => {
                let sub = self.part(&r.sub, info)?;
                repeat(&sub, r.min, r.max, self.cap_bytes)?
            }
            HirKind::Capture(c) => return self.part(&c.sub, info),
            _ => return direct(self),
        };
        Ok(Rc::new(minimize(composed)))
    }
}

/// Per node: a structural hash (equal subtrees hash equal) and a size.
fn summarize(hir: &Hir, info: &mut HashMap<*const Hir, ((u64, u64), usize)>) -> ((u64, u64), usize) {
    // Two hashers, told apart by what they start with.
    let mut h = (FxHasher::default(), FxHasher::default());
    0u8.hash(&mut h.0);
    1u8.hash(&mut h.1);
    let mut feed = |x: &dyn Fn(&mut FxHasher)| {
        x(&mut h.0);
        x(&mut h.1);
    };
    let mut weight: usize = 1;
    feed(&|s| std::mem::discriminant(hir.kind()).hash(s));
    match hir.kind() {
        HirKind::Empty => {}
        HirKind::Literal(l) => {
            feed(&|s| l.0.hash(s));
            weight += l.0.len();
        }
        HirKind::Class(Class::Unicode(c)) => {
            for r in c.ranges() {
                feed(&|s| (r.start(), r.end()).hash(s));
            }
            // UTF-8 sequences: a few NFA states per range.
            weight += 3 * c.ranges().len();
        }
        HirKind::Class(Class::Bytes(c)) => {
            for r in c.ranges() {
                feed(&|s| (r.start(), r.end()).hash(s));
            }
            weight += c.ranges().len();
        }
        HirKind::Look(l) => feed(&|s| format!("{l:?}").hash(s)),
        HirKind::Repetition(r) => {
            feed(&|s| (r.min, r.max, r.greedy).hash(s));
            let (sh, sw) = summarize(&r.sub, info);
            feed(&|s| sh.hash(s));
            // A counted repetition copies its part.
            let copies = r.max.unwrap_or(r.min).max(1) as usize;
            weight = weight.saturating_add(sw.saturating_mul(copies));
        }
        HirKind::Capture(c) => {
            let (sh, sw) = summarize(&c.sub, info);
            feed(&|s| sh.hash(s));
            weight = weight.saturating_add(sw);
        }
        HirKind::Concat(subs) | HirKind::Alternation(subs) => {
            for sub in subs {
                let (sh, sw) = summarize(sub, info);
                feed(&|s| sh.hash(s));
                weight = weight.saturating_add(sw);
            }
        }
    }
    let out = ((h.0.finish(), h.1.finish()), weight);
    info.insert(hir as *const Hir, out);
    out
}

/// An element of a subset: (part, state of that part's DFA). `EPS` is the
/// empty word, accepted where it stands and gone after any byte.
type Elem = (u32, u32);
const EPS: Elem = (u32::MAX, 0);

/// One operand of a subset construction: its DFA, the part whose start is
/// added where it accepts (concatenation, loops), and whether its accepting
/// states accept the whole.
struct Part<'a> {
    dfa: &'a Dfa,
    follow: Option<usize>,
    last: bool,
}

/// The subset construction over deterministic parts.
fn subsets(parts: &[Part<'_>], start: Vec<Elem>, cap_bytes: usize) -> Result<Dfa, Exceeded> {
    // Joint byte classes: bytes that every part's classes agree on.
    let mut joint: HashMap<Vec<u8>, u8> = HashMap::default();
    let mut classes = [0u8; 256];
    let mut reps: Vec<u8> = Vec::new();
    for b in 0..=255u8 {
        let key: Vec<u8> = parts.iter().map(|p| p.dfa.classes[b as usize]).collect();
        let n = joint.len();
        let c = *joint.entry(key).or_insert_with(|| {
            reps.push(b);
            n as u8
        });
        classes[b as usize] = c;
    }
    let alphabet = reps.len();
    // As `regex-automata` counts a dense DFA: its classes and the
    // end-of-input class, rounded up to a power of two.
    let stride = (alphabet + 1).next_power_of_two();
    let closure = |set: &mut Vec<Elem>| {
        let mut i = 0;
        while i < set.len() {
            let (p, q) = set[i];
            if p != EPS.0 && parts[p as usize].dfa.accept[q as usize] {
                if let Some(f) = parts[p as usize].follow {
                    let e = (f as u32, parts[f].dfa.start);
                    if e.1 != 0 && !set.contains(&e) {
                        set.push(e);
                    }
                }
            }
            i += 1;
        }
        set.sort_unstable();
        set.dedup();
    };
    let accepts = |set: &[Elem]| {
        set.iter().any(|&(p, q)| {
            (p, q) == EPS
                || (p != EPS.0 && parts[p as usize].last && parts[p as usize].dfa.accept[q as usize])
        })
    };
    let mut start: Vec<Elem> = start.into_iter().filter(|e| *e == EPS || e.1 != 0).collect();
    closure(&mut start);
    let mut sets: Vec<Vec<Elem>> = vec![Vec::new()];
    let mut index: HashMap<Vec<Elem>, u32> = HashMap::default();
    index.insert(Vec::new(), 0);
    let start_id = match index.get(&start) {
        Some(&id) => id,
        None => {
            index.insert(start.clone(), 1);
            sets.push(start);
            1
        }
    };
    let mut trans = vec![0u32; alphabet];
    // One buffer for every step: most steps reach a set met before, and
    // only a new set is copied out of it.
    let mut next: Vec<Elem> = Vec::new();
    let mut i = 1;
    while i < sets.len() {
        for &b in &reps {
            next.clear();
            // A plain loop: as an iterator chain this step did not inline
            // and took a sixth of RFC 9051's `check`.
            for &(p, q) in &sets[i] {
                if (p, q) != EPS {
                    let t = parts[p as usize].dfa.next(q, b);
                    if t != 0 {
                        next.push((p, t));
                    }
                }
            }
            closure(&mut next);
            let id = match index.get(&next) {
                Some(&id) => id,
                None => {
                    let id = sets.len();
                    if (id + 1).saturating_mul(stride * 4) > cap_bytes {
                        return Err(Exceeded {
                            states: id + 1,
                            bytes: (id + 1) * stride * 4,
                        });
                    }
                    index.insert(next.clone(), id as u32);
                    sets.push(next.clone());
                    id as u32
                }
            };
            trans.push(id);
        }
        i += 1;
    }
    let accept = sets.iter().map(|s| accepts(s)).collect();
    Ok(Dfa {
        classes,
        alphabet,
        trans,
        accept,
        start: start_id,
    })
}

/// The concatenation of `parts`.
fn concat(parts: &[&Dfa], cap_bytes: usize) -> Result<Dfa, Exceeded> {
    let n = parts.len();
    let ps: Vec<Part<'_>> = parts
        .iter()
        .enumerate()
        .map(|(i, d)| Part {
            dfa: d,
            follow: (i + 1 < n).then_some(i + 1),
            last: i + 1 == n,
        })
        .collect();
    if n == 0 {
        return subsets(&[], vec![EPS], cap_bytes);
    }
    subsets(&ps, vec![(0, parts[0].start)], cap_bytes)
}

/// The union of `parts`, with the empty word when `empty`.
fn union(parts: &[&Dfa], empty: bool, cap_bytes: usize) -> Result<Dfa, Exceeded> {
    let ps: Vec<Part<'_>> = parts
        .iter()
        .map(|d| Part {
            dfa: d,
            follow: None,
            last: true,
        })
        .collect();
    let mut start: Vec<Elem> = parts
        .iter()
        .enumerate()
        .map(|(i, d)| (i as u32, d.start))
        .collect();
    if empty {
        start.push(EPS);
    }
    subsets(&ps, start, cap_bytes)
}

/// `sub{min,max}` (`max` `None`: unbounded).
fn repeat(sub: &Dfa, min: u32, max: Option<u32>, cap_bytes: usize) -> Result<Dfa, Exceeded> {
    // `sub*` or `sub+`: one part that restarts where it accepts.
    let looped = |empty: bool| {
        let ps = [Part {
            dfa: sub,
            follow: Some(0),
            last: true,
        }];
        let mut start = vec![(0, sub.start)];
        if empty {
            start.push(EPS);
        }
        subsets(&ps, start, cap_bytes)
    };
    match (min, max) {
        (0, None) => return looped(true),
        (1, None) => return looped(false),
        (0, Some(1)) => return union(&[sub], true, cap_bytes),
        _ => {}
    }
    // Counted: `min` copies, then either a loop or `max - min` optional ones.
    let optional;
    let tail;
    let mut parts: Vec<&Dfa> = vec![sub; min as usize];
    match max {
        None => {
            tail = minimize(looped(true)?);
            parts.push(&tail);
        }
        Some(max) => {
            optional = minimize(union(&[sub], true, cap_bytes)?);
            parts.extend(std::iter::repeat_n(&optional, (max - min) as usize));
        }
    }
    concat(&parts, cap_bytes)
}

/// The minimal DFA of `dfa` ([`super::minimize`]), or `dfa` itself when
/// it is larger than [`MAX_MINIMIZE_STATES`] states.
fn minimize(dfa: Dfa) -> Dfa {
    if dfa.states() > MAX_MINIMIZE_STATES {
        return dfa;
    }
    super::minimize::minimize(&dfa)
}

/// [`minimize`] by a round trip through `regex-automata` (the DFA as a
/// deterministic NFA, determinized again with its minimizer on): what the
/// parts were minimized by before, and the tests' reference.
#[cfg(test)]
pub(super) fn minimize_by_regex_automata(dfa: Dfa) -> Dfa {
    match dfa
        .to_nfa()
        .ok()
        .and_then(|nfa| super::dense_from_nfa(&nfa, true, usize::MAX, usize::MAX).ok())
    {
        Some(d) => Dfa::from_compact(&Compact::new(&d)),
        None => dfa,
    }
}

/// The DFA of a small part, built directly.
fn direct_part(hir: &Hir, limits: Limits) -> Option<Dfa> {
    let nfa = super::nfa_of(&crate::regular::anchored_full(hir.clone()), limits).ok()?;
    // Minimized unless it is a long chain (`65536"x"`), as a rule is.
    let d: dense::DFA<Vec<u32>> = super::Automaton::direct(&nfa, limits).ok()?;
    Some(Dfa::from_compact(&Compact::new(&d)))
}

#[cfg(test)]
mod tests {
    use super::super::{Automaton, Limits};
    use super::*;

    /// The composed and the direct DFA of `pattern` are the same minimal
    /// DFA (equal compact tables, which number states breadth-first); so is
    /// the composed one determinized again without minimizing where its
    /// reached states are minimal (as `build_to_write` leaves it, past a
    /// size). The minimality found, for the callers' counts.
    fn same(pattern: &str) -> super::super::already_minimal::Minimality {
        use super::super::already_minimal::{minimality, Minimality};
        let hir = regex_syntax::ParserBuilder::new()
            .utf8(false)
            .build()
            .parse(pattern)
            .unwrap();
        let limits = Limits::default();
        let direct = Compact::new(&Automaton::build_direct(&hir, limits).unwrap().dfa);
        let mut c = Composer::new(limits);
        // Compose every part, however small.
        let mut info = HashMap::default();
        summarize(&hir, &mut info);
        for v in info.values_mut() {
            v.1 = SMALL + 1;
        }
        let composed = c.part(&hir, &info).unwrap();
        let nfa = composed.to_nfa().unwrap();
        let d = super::super::dense_from_nfa(&nfa, true, usize::MAX, usize::MAX).unwrap();
        assert_eq!(Compact::new(&d), direct, "{pattern}");
        let off = super::super::dense_from_nfa(&nfa, false, usize::MAX, usize::MAX).unwrap();
        let found = minimality(&off);
        if found != Minimality::Unknown {
            assert_eq!(Compact::new(&off), direct, "{pattern} ({found:?})");
        }
        found
    }

    #[test]
    fn composed_dfas_equal_direct_ones() {
        let mut found = Vec::new();
        for p in [
            "a",
            "(ab|a)*c?",
            "[a-c]*b[a-c]{2}",
            "(a|b)*abb",
            "a{0,3}(bc)+",
            "[^a]*a[^a]*",
            "(x|xy)(yz|z)",
            "(a*)*b",
            "((ab)?c){2,4}d{3}",
            "(é|e)+[α-ω]{1,2}",
            "",
            "(a|)(|b)",
            "[a&&b]|c",
            "(?i:sip)(:[0-9]+)*;?",
        ] {
            found.push(same(p));
        }
        // Both kinds of shortcut are exercised.
        use super::super::already_minimal::Minimality;
        assert!(found.contains(&Minimality::ReachedPartMinimal), "{found:?}");
        assert!(found.contains(&Minimality::Minimal), "{found:?}");
    }

    #[test]
    fn composing_stops_at_the_limit_with_the_states_reached() {
        // "The 13th byte from the end is `a`" needs 2^13 states.
        let hir = regex_syntax::parse("[ab]*a[ab]{12}").unwrap();
        let mut c = Composer::new(Limits {
            dfa_bytes: 64 << 10,
            ..Limits::default()
        });
        let mut info = HashMap::default();
        summarize(&hir, &mut info);
        for v in info.values_mut() {
            v.1 = SMALL + 1;
        }
        let e = c.part(&hir, &info).unwrap_err();
        assert!(e.bytes > 64 << 10 && e.states > 1000, "{e:?}");
    }
}
