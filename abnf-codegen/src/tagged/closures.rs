//! Each NFA state's epsilon closure, walked once and kept: the states that
//! read a byte (or match) in priority order, each with the capture slots
//! set on the way to it.
//!
//! A step of the determinization walks the closure of each thread's target
//! in turn, skipping the states an earlier thread of the step reached (the
//! first thread to reach a state wins it). The states reached so far are
//! closed under epsilon moves, so a walk that skips them visits the other
//! states of the full walk, in the same order and by the same paths: the
//! step is the kept closures, filtered. The NFAs of typed rules hold long
//! chains of unions and captures between the states that read bytes, which
//! the walks went through again for every thread of every step.

use super::determinize::Marks;
use super::*;

/// A closure not walked yet.
const NOT_YET: u32 = u32::MAX;

/// One kept closure.
#[derive(Clone, Copy)]
pub(super) struct Closure {
    /// Where its states are in [`Closures::entries`].
    from: u32,
    to: u32,
    /// Where its paths are in [`Closures::paths`], and how many there are.
    paths_from: u32,
    /// The number of its paths (path 0 sets no slot).
    pub(super) paths: u32,
    /// Whether the walk met a look-around assertion.
    pub(super) look: bool,
}

/// The kept closures of an NFA's states.
#[derive(Default)]
pub(super) struct Closures {
    /// Per NFA state, its closure in `closures` ([`NOT_YET`] if not walked).
    at: Vec<u32>,
    closures: Vec<Closure>,
    /// The closures' states that read a byte or match, each with its path
    /// (numbered within its closure).
    entries: Vec<(StateID, u32)>,
    /// Per path, where its slots are in `slots`.
    paths: Vec<(u32, u32)>,
    /// The capture slots (2 and up: group 0's span is known) each path sets.
    slots: Vec<u32>,
    marks: Marks,
    stack: Vec<(StateID, u32)>,
}

impl Closures {
    /// The closure of `sid` in `nfa` (the same NFA on every call).
    #[inline]
    pub(super) fn of(&mut self, nfa: &NFA, sid: StateID) -> Closure {
        if self.at.is_empty() {
            self.at = vec![NOT_YET; nfa.states().len()];
            self.marks.resize(nfa.states().len());
        }
        let at = self.at[sid.as_usize()];
        if at != NOT_YET {
            return self.closures[at as usize];
        }
        let closure = self.walk(nfa, sid);
        self.at[sid.as_usize()] = self.closures.len() as u32;
        self.closures.push(closure);
        closure
    }

    /// The number of states of `closure`.
    pub(super) fn len(closure: Closure) -> usize {
        (closure.to - closure.from) as usize
    }

    /// The states of `closure`, each with its path.
    pub(super) fn entries(&self, closure: Closure) -> &[(StateID, u32)] {
        &self.entries[closure.from as usize..closure.to as usize]
    }

    /// The slots that path `path` of `closure` sets.
    pub(super) fn slots(&self, closure: Closure, path: u32) -> &[u32] {
        let (from, to) = self.paths[(closure.paths_from + path) as usize];
        &self.slots[from as usize..to as usize]
    }

    /// The depth-first walk from `sid` that takes alternatives in order,
    /// as a PikeVM does (each state once: the first path to it wins).
    fn walk(&mut self, nfa: &NFA, sid: StateID) -> Closure {
        self.marks.stamp();
        let from = self.entries.len() as u32;
        let paths_from = self.paths.len() as u32;
        let empty = self.slots.len() as u32;
        self.paths.push((empty, empty));
        let mut look = false;
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        stack.push((sid, 0));
        while let Some((sid, path)) = stack.pop() {
            if !self.marks.mark(sid) {
                continue;
            }
            match nfa.state(sid) {
                State::ByteRange { .. } | State::Sparse(_) | State::Dense(_) | State::Match { .. } => {
                    self.entries.push((sid, path));
                }
                State::Union { alternates } => stack.extend(alternates.iter().rev().map(|&s| (s, path))),
                State::BinaryUnion { alt1, alt2 } => stack.extend([(*alt2, path), (*alt1, path)]),
                State::Capture { next, slot, .. } => {
                    let slot = slot.as_usize() as u32;
                    let (s, e) = self.paths[(paths_from + path) as usize];
                    let path = if slot >= 2 && !self.slots[s as usize..e as usize].contains(&slot) {
                        let start = self.slots.len();
                        self.slots.extend_from_within(s as usize..e as usize);
                        self.slots.push(slot);
                        self.paths.push((start as u32, self.slots.len() as u32));
                        self.paths.len() as u32 - 1 - paths_from
                    } else {
                        path
                    };
                    stack.push((*next, path));
                }
                State::Fail => {}
                State::Look { .. } => {
                    look = true;
                    break;
                }
            }
        }
        self.stack = stack;
        Closure {
            from,
            to: self.entries.len() as u32,
            paths_from,
            paths: self.paths.len() as u32 - paths_from,
            look,
        }
    }
}
