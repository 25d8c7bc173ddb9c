//! The lists of NFA states that tagged DFA states hold, each numbered once
//! with its moves: the byte classes split into groups on which its threads
//! move alike, and per group the list they move to.
//!
//! A tagged DFA state is a list of threads (NFA states) with their
//! registers. Which list follows which on a class depends on the NFA states
//! alone, not on the registers (pruning, in [`super::Registers::PerTag`],
//! looks at the NFA states only too). So the split into groups, the next
//! lists and the pruning are worked out once per list
//! ([`super::determinize`]'s `Builder::move_list`), and a state's step only
//! walks its threads' closures for their registers, knowing the list it
//! reaches. The large typed rules of RFC 3261 have about one state per
//! list: this mostly saves working each list out twice, as the early count
//! of lists (`Builder::too_many_orders`) is now the walk the build reads.
//!
//! Where a step goes depends only on the NFA states its moving threads
//! move to, in order (the closures of those, in that order, pruned): the
//! lists of RFC 3261's large rules have some twenty steps each, and nearly
//! all of them move to a sequence that an earlier step moved to (about as
//! many sequences as lists). So [`Lists`] also keeps what each sequence
//! reaches: a step met again costs a look-up of its few moving threads'
//! targets instead of walking their closures and numbering the list.

use std::rc::Rc;

use super::*;

/// The threads of one list moving on a group of classes.
#[derive(Clone, Copy)]
pub(super) struct Step {
    /// The list they move to.
    pub(super) list: u32,
    /// Where the threads that move are in [`Lists::moves`].
    moves: (u32, u32),
    /// How many of the first threads the step keeps, besides those at the
    /// match state ([`ALL_KEPT`] if pruning kept all).
    pub(super) kept: u32,
}

/// [`Step::kept`] when every thread is kept.
pub(super) const ALL_KEPT: u32 = u32::MAX;

/// A list whose moves are known: where its classes' steps are.
#[derive(Clone, Copy)]
pub(super) struct Moved {
    /// Where its classes' steps are in [`Lists::class_steps`] (one per
    /// class, relative to `first_step`).
    classes: u32,
    /// Its first step in [`Lists::steps`].
    first_step: u32,
    /// How many steps it has.
    pub(super) steps: u32,
}

/// The lists met so far, numbered in order of first appearance (0 is the
/// empty list of the dead state), with the moves of those moved from.
#[derive(Default)]
pub(super) struct Lists {
    index: HashMap<Rc<[StateID]>, u32>,
    lists: Vec<Rc<[StateID]>>,
    /// Per list, its moves if computed.
    moved: Vec<Option<Moved>>,
    /// Per moved list and class, its step among the list's (a list has at
    /// most one step per class, and there are at most 256 classes).
    class_steps: Vec<u8>,
    steps: Vec<Step>,
    /// Per step, the threads that move (most do not): the thread's index
    /// in its list and the NFA state it moves to. A state's step reads
    /// these instead of looking up every thread's move again.
    moves: Vec<(u32, u32)>,
    /// What the steps met reach (the list and [`Step::kept`]), by the NFA
    /// states their moving threads move to, in order.
    reached: HashMap<Box<[u32]>, (u32, u32)>,
}

impl Lists {
    /// The number of list `sids`, numbering it if new.
    pub(super) fn intern(&mut self, sids: &[StateID]) -> u32 {
        if let Some(&id) = self.index.get(sids) {
            return id;
        }
        let id = self.lists.len() as u32;
        let list: Rc<[StateID]> = Rc::from(sids);
        self.index.insert(Rc::clone(&list), id);
        self.lists.push(list);
        self.moved.push(None);
        id
    }

    /// The number of lists met.
    pub(super) fn len(&self) -> usize {
        self.lists.len()
    }

    /// The NFA states of list `id`.
    pub(super) fn sids(&self, id: u32) -> &Rc<[StateID]> {
        &self.lists[id as usize]
    }

    /// List `id`'s moves, if computed.
    pub(super) fn moved(&self, id: u32) -> Option<Moved> {
        self.moved[id as usize]
    }

    /// Which of `moved`'s steps (from 0) its threads take on `class`.
    pub(super) fn class_step(&self, moved: Moved, class: usize) -> usize {
        self.class_steps[moved.classes as usize + class] as usize
    }

    /// `moved`'s step `index` (from 0).
    pub(super) fn step(&self, moved: Moved, index: usize) -> Step {
        self.steps[moved.first_step as usize + index]
    }

    /// The threads that move in `step`: (index in the list, NFA state
    /// moved to).
    pub(super) fn moves(&self, step: Step) -> &[(u32, u32)] {
        &self.moves[step.moves.0 as usize..step.moves.1 as usize]
    }

    /// What threads moving to the NFA states `targets` (in order) reach,
    /// if a step moved to them before: its list and [`Step::kept`].
    pub(super) fn reached(&self, targets: &[u32]) -> Option<(u32, u32)> {
        self.reached.get(targets).copied()
    }

    /// Records that threads moving to `targets` reach `list`, keeping
    /// `kept` ([`Lists::reached`]).
    pub(super) fn reach(&mut self, targets: &[u32], list: u32, kept: u32) {
        self.reached.insert(targets.into(), (list, kept));
    }

    /// A step to `list` of the threads that move as `moves` says (the
    /// index of each thread of the moving list that moves, in order, with
    /// the NFA state it moves to), keeping `kept` ([`Step::kept`]).
    pub(super) fn new_step(&mut self, list: u32, moves: &[(u32, u32)], kept: u32) -> Step {
        let from = self.moves.len() as u32;
        self.moves.extend_from_slice(moves);
        Step {
            list,
            moves: (from, self.moves.len() as u32),
            kept,
        }
    }

    /// Records the moves of list `id`: `steps`, and per class the index
    /// of its step among them.
    pub(super) fn set_moves(&mut self, id: u32, steps: &[Step], class_steps: &[u8]) -> Moved {
        let moved = Moved {
            classes: self.class_steps.len() as u32,
            first_step: self.steps.len() as u32,
            steps: steps.len() as u32,
        };
        self.class_steps.extend_from_slice(class_steps);
        self.steps.extend_from_slice(steps);
        self.moved[id as usize] = Some(moved);
        moved
    }
}
