//! Tables that the determinization reads over and over, built as it goes:
//! where an NFA state moves on a byte class ([`Steps`]), and, for the
//! pruning's walks, sets of NFA states numbered once with their moves on
//! each class ([`Sets`]).
//!
//! Both only cache what `regex-automata`'s NFA already says: the answers are
//! the same as walking the NFA each time, which cost most of the pruning's
//! time (a set was rebuilt, sorted and hashed for every class of every pair
//! of sets a walk met, and the same sets recur in walk after walk).

use super::determinize::Marks;
use super::*;

/// A thread that does not move on a byte class.
pub(super) const NO_MOVE: u32 = u32::MAX;

/// A row of [`Steps::table`] not filled yet.
const NOT_YET: u32 = u32::MAX;

/// Where each byte-reading NFA state moves on each byte class (the
/// representatives' bytes), each state's row filled when first asked for.
pub(super) struct Steps<'a> {
    nfa: &'a NFA,
    /// A byte of each class, in class order.
    reps: Vec<u8>,
    /// Per NFA state, where its row starts in `table` ([`NOT_YET`] if not
    /// filled).
    at: Vec<u32>,
    /// The rows: per class, the target state or [`NO_MOVE`].
    table: Vec<u32>,
    /// Per NFA state, where its moves start in `moving` (filled with its
    /// row).
    moving_at: Vec<(u32, u32)>,
    /// The rows' moves, without [`NO_MOVE`]s: (class, target) pairs.
    moving: Vec<(u32, u32)>,
    /// Per NFA state (filled with its row), the number of the classes it
    /// moves on if it moves to one state on all of them, else
    /// [`NO_SHAPE`]: states of the same shape split byte classes alike.
    shape: Vec<u32>,
    /// The shapes numbered so far.
    shapes: HashMap<Box<[u32]>, u32>,
}

/// The shape of an NFA state that moves to several states (or none).
pub(super) const NO_SHAPE: u32 = u32::MAX;

impl<'a> Steps<'a> {
    /// An empty table for `nfa`, whose classes `reps` represent.
    pub(super) fn new(nfa: &'a NFA, reps: Vec<u8>) -> Steps<'a> {
        Steps {
            nfa,
            reps,
            at: vec![NOT_YET; nfa.states().len()],
            table: Vec::new(),
            moving_at: vec![(0, 0); nfa.states().len()],
            moving: Vec::new(),
            shape: vec![NO_SHAPE; nfa.states().len()],
            shapes: HashMap::default(),
        }
    }

    /// Number of byte classes.
    pub(super) fn classes(&self) -> usize {
        self.reps.len()
    }

    /// Where `sid` moves on class `class`: an NFA state or [`NO_MOVE`].
    pub(super) fn get(&mut self, sid: StateID, class: usize) -> u32 {
        let at = self.row_start(sid);
        self.table[at + class]
    }

    /// Where `sid`'s moves start in the table (one per class).
    fn row_start(&mut self, sid: StateID) -> usize {
        if self.at[sid.as_usize()] == NOT_YET {
            self.at[sid.as_usize()] = self.table.len() as u32;
            let state = self.nfa.state(sid);
            let start = self.moving.len() as u32;
            for (class, &byte) in self.reps.iter().enumerate() {
                let to = step(state, byte).map_or(NO_MOVE, |to| to.as_u32());
                self.table.push(to);
                if to != NO_MOVE {
                    self.moving.push((class as u32, to));
                }
            }
            self.moving_at[sid.as_usize()] = (start, self.moving.len() as u32);
            self.shape[sid.as_usize()] = self.shape_of(start as usize);
        }
        self.at[sid.as_usize()] as usize
    }

    /// The shape of the NFA state whose moves are `moving[start..]`
    /// ([`Steps::shape`]), numbering it if new.
    fn shape_of(&mut self, start: usize) -> u32 {
        let moves = &self.moving[start..];
        let Some(&(_, to)) = moves.first() else {
            return NO_SHAPE;
        };
        if moves.iter().any(|&(_, t)| t != to) {
            return NO_SHAPE;
        }
        let classes: Box<[u32]> = moves.iter().map(|&(class, _)| class).collect();
        let next = self.shapes.len() as u32;
        *self.shapes.entry(classes).or_insert(next)
    }

    /// Where `sid`'s moves are, and its shape (see [`Steps::shape`]).
    fn moves_of(&mut self, sid: StateID) -> Moves {
        self.row_start(sid);
        let (from, to) = self.moving_at[sid.as_usize()];
        Moves {
            from,
            to,
            shape: self.shape[sid.as_usize()],
        }
    }

    /// The classes on which a state moves, with their targets, as `moves`
    /// says.
    fn read(&self, moves: Moves) -> &[(u32, u32)] {
        &self.moving[moves.from as usize..moves.to as usize]
    }
}

/// Where a state's moves are in [`Steps::moving`], and its shape.
#[derive(Clone, Copy)]
struct Moves {
    from: u32,
    to: u32,
    shape: u32,
}

/// The state a byte-consuming NFA state moves to on `byte`.
fn step(state: &State, byte: u8) -> Option<StateID> {
    match state {
        State::ByteRange { trans } => trans.matches_byte(byte).then_some(trans.next),
        State::Sparse(s) => s.matches_byte(byte),
        State::Dense(d) => d.matches_byte(byte),
        _ => None,
    }
}

/// A move of [`Sets::next`] not computed yet.
const UNKNOWN: u32 = u32::MAX;
/// A move of [`Sets::next`] whose closure met a look-around assertion.
const LOOK: u32 = u32::MAX - 1;

/// Sorted sets of NFA states, each numbered once, with whether it holds the
/// match state and its moves (the closure of the states its states step
/// to) on each class, each computed when first asked for.
#[derive(Default)]
pub(super) struct Sets {
    index: HashMap<Vec<StateID>, u32>,
    sets: Vec<Vec<StateID>>,
    accepts: Vec<bool>,
    /// Per set, a row of moves per class: a set, [`UNKNOWN`] or [`LOOK`].
    next: Vec<u32>,
    marks: Marks,
    stack: Vec<StateID>,
}

impl Sets {
    /// The number of `set` (sorted, without duplicates).
    pub(super) fn intern(&mut self, nfa: &NFA, classes: usize, set: Vec<StateID>) -> u32 {
        if let Some(&id) = self.index.get(&set) {
            return id;
        }
        let id = self.sets.len() as u32;
        self.accepts
            .push(set.iter().any(|&s| matches!(nfa.state(s), State::Match { .. })));
        self.next.extend(std::iter::repeat_n(UNKNOWN, classes));
        self.index.insert(set.clone(), id);
        self.sets.push(set);
        id
    }

    /// The states of set `id`.
    pub(super) fn get(&self, id: u32) -> &[StateID] {
        &self.sets[id as usize]
    }

    /// Whether set `id` holds the match state.
    pub(super) fn accepts(&self, id: u32) -> bool {
        self.accepts[id as usize]
    }

    /// The set that threads at set `id` reach on class `class` (its states'
    /// moves, and every state reachable from those without reading), or
    /// `None` if one of those is a look-around assertion.
    pub(super) fn next(&mut self, steps: &mut Steps<'_>, id: u32, class: usize) -> Option<u32> {
        let classes = steps.classes();
        let cell = id as usize * classes + class;
        match self.next[cell] {
            UNKNOWN => {}
            LOOK => return None,
            to => return Some(to),
        }
        let nfa = steps.nfa;
        self.marks.resize(nfa.states().len());
        self.marks.stamp();
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        for i in 0..self.sets[id as usize].len() {
            let to = steps.get(self.sets[id as usize][i], class);
            if to != NO_MOVE {
                stack.push(StateID::new_unchecked(to as usize));
            }
        }
        let mut out = Vec::new();
        let mut look = false;
        while let Some(s) = stack.pop() {
            if !self.marks.mark(s) {
                continue;
            }
            out.push(s);
            match nfa.state(s) {
                State::Union { alternates } => stack.extend(alternates.iter().copied()),
                State::BinaryUnion { alt1, alt2 } => stack.extend([*alt1, *alt2]),
                State::Capture { next, .. } => stack.push(*next),
                State::Look { .. } => {
                    look = true;
                    break;
                }
                _ => {}
            }
        }
        self.stack = stack;
        if look {
            self.next[cell] = LOOK;
            return None;
        }
        out.sort_unstable();
        let to = self.intern(nfa, classes, out);
        self.next[cell] = to;
        Some(to)
    }
}

/// The byte classes that a list of threads tells apart: classes on which
/// every thread moves to the same NFA state (or none) lead to the same
/// next step, which is then built once. A DFA state's threads tell apart
/// far fewer classes than the alphabet has (a token's loop: its
/// characters and its ends).
pub(super) struct SameMoves<T> {
    /// Per class, its group: classes in one group move every thread alike.
    group: Vec<u32>,
    /// Groups handed out so far.
    groups: u32,
    /// While a thread splits the groups: per old group, the first target
    /// the thread moves to from it and the new group of that pair, valid
    /// when stamped with the thread's [`SameMoves::stamp`] (a table, not a
    /// map: this ran for every thread of every DFA state, and hashing took
    /// most of its time).
    first: Vec<(u32, u32, u32)>,
    /// The thread splitting the groups (never 0, which marks nothing).
    stamp: u32,
    /// The new group of each further (old group, target) pair of the
    /// thread (an NFA state that moves to several targets).
    split: HashMap<(u32, u32), u32>,
    /// Per group, what was built from its moves.
    built: Vec<Option<T>>,
    /// Per group, where its moves are in `moves` (one more entry than
    /// there are groups).
    moves_at: Vec<u32>,
    /// The groups' moves, group after group: the index of each thread
    /// that moves on the group's classes, in order, with the NFA state it
    /// moves to.
    moves: Vec<(u32, u32)>,
    /// While the moves are sorted into groups: per group, the last thread
    /// seen moving on it, and the moves in thread order with their group.
    last: Vec<u32>,
    unsorted: Vec<(u32, u32, u32)>,
    /// The list being started (never 0, which marks nothing).
    list: u32,
    /// Per shape ([`Steps::shape`]): the list in which a thread of that
    /// shape split the groups (a thread of the same shape splits no group
    /// further), and where the groups it moves on are in `shape_groups`.
    shape_seen: Vec<(u32, u32, u32)>,
    shape_groups: Vec<u32>,
    /// Per thread of the list, its moves.
    threads: Vec<Moves>,
}

impl<T: Copy> SameMoves<T> {
    pub(super) fn new() -> SameMoves<T> {
        SameMoves {
            group: Vec::new(),
            groups: 0,
            first: Vec::new(),
            stamp: 0,
            split: HashMap::default(),
            built: Vec::new(),
            moves_at: Vec::new(),
            moves: Vec::new(),
            last: Vec::new(),
            unsorted: Vec::new(),
            list: 0,
            shape_seen: Vec::new(),
            shape_groups: Vec::new(),
            threads: Vec::new(),
        }
    }

    /// Starts the list of threads at `sids`: splits the classes into
    /// groups, one thread at a time, by where it moves (only the classes
    /// on which it moves, which are few for most NFA states). A thread
    /// whose shape an earlier thread had splits nothing: every group is
    /// inside its classes or outside them already (half the threads of
    /// RFC 3261's lists).
    pub(super) fn start(&mut self, steps: &mut Steps<'_>, sids: &[StateID]) {
        self.group.clear();
        self.group.resize(steps.classes(), 0);
        self.groups = 1;
        self.list = self.list.wrapping_add(1);
        if self.list == 0 {
            self.shape_seen.fill((0, 0, 0));
            self.list = 1;
        }
        self.threads.clear();
        self.threads.extend(sids.iter().map(|&sid| steps.moves_of(sid)));
        for thread in 0..self.threads.len() {
            let moves = self.threads[thread];
            if !self.first_of_shape(moves.shape) {
                continue;
            }
            self.split.clear();
            self.stamp = self.stamp.wrapping_add(1);
            if self.stamp == 0 {
                self.first.fill((0, 0, 0));
                self.stamp = 1;
            }
            for &(class, to) in steps.read(moves) {
                let g = self.group[class as usize];
                if self.first.len() <= g as usize {
                    self.first.resize(g as usize + 1, (0, 0, 0));
                }
                let (stamp, first_to, first_new) = self.first[g as usize];
                let new = if stamp != self.stamp {
                    let new = self.groups;
                    self.groups += 1;
                    self.first[g as usize] = (self.stamp, to, new);
                    new
                } else if first_to == to {
                    first_new
                } else {
                    *self.split.entry((g, to)).or_insert_with(|| {
                        self.groups += 1;
                        self.groups - 1
                    })
                };
                self.group[class as usize] = new;
            }
        }
        self.built.clear();
        self.built.resize(self.groups as usize, None);
        self.sort_moves(steps);
    }

    /// Whether no thread of this list had shape `shape` before (always, for
    /// [`NO_SHAPE`]); marks it seen.
    fn first_of_shape(&mut self, shape: u32) -> bool {
        if shape == NO_SHAPE {
            return true;
        }
        let shape = shape as usize;
        if self.shape_seen.len() <= shape {
            self.shape_seen.resize(shape + 1, (0, 0, 0));
        }
        if self.shape_seen[shape].0 == self.list {
            return false;
        }
        self.shape_seen[shape] = (self.list, 0, 0);
        true
    }

    /// Sorts the threads' moves into their groups ([`SameMoves::moves`]):
    /// a thread moves to one NFA state on all the classes of a group, so
    /// its first class of each group says where. (Reading every thread's
    /// move on a class of each group instead, most of them none, took a
    /// tenth of the determinization.)
    fn sort_moves(&mut self, steps: &Steps<'_>) {
        let groups = self.groups as usize;
        self.moves_at.clear();
        self.moves_at.resize(groups + 1, 0);
        self.last.clear();
        self.last.resize(groups, u32::MAX);
        self.unsorted.clear();
        self.shape_groups.clear();
        for (thread, &moves) in self.threads.iter().enumerate() {
            let thread = thread as u32;
            let shape = moves.shape;
            if shape != NO_SHAPE {
                // The groups of a shape, found by its first thread, and
                // then read by the others (the marks of `start` are
                // stamped with this list).
                let (list, from, to) = self.shape_seen[shape as usize];
                if list == self.list && to > from {
                    let target = steps.read(moves)[0].1;
                    for i in from..to {
                        let g = self.shape_groups[i as usize];
                        self.unsorted.push((g, thread, target));
                        self.moves_at[g as usize + 1] += 1;
                    }
                    continue;
                }
            }
            let from = self.shape_groups.len() as u32;
            for &(class, to) in steps.read(moves) {
                let g = self.group[class as usize] as usize;
                if self.last[g] != thread {
                    self.last[g] = thread;
                    self.unsorted.push((g as u32, thread, to));
                    self.moves_at[g + 1] += 1;
                    if shape != NO_SHAPE {
                        self.shape_groups.push(g as u32);
                    }
                }
            }
            if shape != NO_SHAPE {
                self.shape_seen[shape as usize] = (self.list, from, self.shape_groups.len() as u32);
            }
        }
        for g in 0..groups {
            self.moves_at[g + 1] += self.moves_at[g];
        }
        self.moves.clear();
        self.moves.resize(self.unsorted.len(), (0, 0));
        // `last` now says where each group's next move goes.
        self.last.copy_from_slice(&self.moves_at[..groups]);
        for &(g, thread, to) in &self.unsorted {
            let at = &mut self.last[g as usize];
            self.moves[*at as usize] = (thread, to);
            *at += 1;
        }
    }

    /// What was built for an earlier class on which every thread moves as
    /// on `class`, if any (if none, build it from [`SameMoves::moves`] and
    /// hand it to [`SameMoves::built`]).
    pub(super) fn find(&self, class: usize) -> Option<T> {
        self.built[self.group[class] as usize]
    }

    /// The threads that move on `class`, in order: each thread's index and
    /// the NFA state it moves to (most threads do not move on a class, and
    /// the step and its record read only those that do).
    pub(super) fn moves(&self, class: usize) -> &[(u32, u32)] {
        let g = self.group[class] as usize;
        &self.moves[self.moves_at[g] as usize..self.moves_at[g + 1] as usize]
    }

    /// Records what was built from the threads' moves on `class`.
    pub(super) fn built(&mut self, class: usize, done: T) {
        self.built[self.group[class] as usize] = Some(done);
    }
}
