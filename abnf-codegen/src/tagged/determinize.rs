//! Determinization: Laurikari's tagged DFAs with leftmost-first priority
//! (see the parent module), from a Thompson NFA with capture groups.

use std::rc::Rc;

use super::closures::{Closure, Closures};
use super::lists::{Lists, Moved, Step, ALL_KEPT};
use super::sets::{SameMoves, Sets, Steps};
use super::*;
use rustc_hash::FxHashSet as HashSet;
use std::hash::{Hash, Hasher};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Val {
    Unset,
    /// Set at this position, not stored yet.
    Pending,
    /// Set at the previous position (pending there): stored now.
    Prev,
    Old(u32),
}

/// How [`TaggedDfa::build_with`] gives tag values registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Registers {
    /// One register per distinct value, tags never set marked in the state
    /// itself: fewest registers and copies, but a state also records which
    /// tags hold equal values and which are unset, so a grammar with many
    /// optional parts gets a state for each combination.
    Shared,
    /// Registers per tag (two tags never share one, threads with the same
    /// value of a tag do), and tags never set held in registers (as
    /// "unset"): a state records how threads share values tag by tag, which
    /// follows the NFA's structure, not which parts happened to be present
    /// or empty. More registers, and copies where threads fork. Threads
    /// that can never give the parse are dropped as the DFA is built (see
    /// `Builder::prune`), which the splitting grammars need; it costs
    /// generator time, so the shared form skips it.
    PerTag,
}

/// While a [`Registers::PerTag`] DFA is built: the source of a copy that
/// clears a register, which becomes the register after the scratch one
/// (no operation writes it, so it holds "unset").
const NONE_PLACEHOLDER: u32 = u32::MAX;

struct Builder<'a> {
    nfa: &'a NFA,
    mode: Registers,
    max_states: usize,
    tags: usize,
    /// The states' keys, shared with `states`: the number of the state's
    /// list of NFA states ([`Lists`]), then its threads' registers (see
    /// [`thread_regs`]; copying a key cost more than building the state).
    map: HashMap<Rc<[u32]>, u32>,
    states: Vec<Rc<[u32]>>,
    /// The lists of NFA states the states hold, with their moves.
    lists: Lists,
    /// The key [`Builder::transition`] builds (kept to reuse its
    /// allocation; looked up without copying).
    key: Vec<u32>,
    /// The class groups of the list [`Builder::move_list`] moves.
    list_same: SameMoves<u8>,
    /// The steps of the list [`Builder::move_list`] moves, and the step of
    /// each class (kept to reuse their allocations).
    list_steps: (Vec<Step>, Vec<u8>),
    /// The NFA states that the moving threads of the step
    /// [`Builder::list_step`] builds move to.
    step_targets: Vec<u32>,
    /// The NFA states of the list [`Builder::reach`] builds.
    next_sids: Vec<StateID>,
    op_lists: HashMap<Vec<RegOp>, u32>,
    op_vec: Vec<Vec<RegOp>>,
    registers: usize,
    /// Where NFA states move on each byte class.
    steps: Steps<'a>,
    /// The sets of NFA states [`Builder::covers`] walks, with their moves.
    sets: Sets,
    /// Memo of [`Builder::covers`], by sets of states.
    covered: HashMap<(u32, u32), bool>,
    /// Work [`Builder::covers`] may still do ([`COVER_BUDGET`]).
    cover_budget: usize,
    /// The tag values of the threads of one step, a row of `tags` values
    /// each; a row is never changed once written, so threads that share
    /// their values (all but those a capture forks) share a row.
    rows: Vec<Val>,
    /// The NFA states reached in this step ([`Builder::closure`]'s "seen"
    /// set, emptied by starting a new step).
    seen: Marks,
    /// The tables of the canonical numbering of registers.
    numbering: Numbering,
    /// The operations [`Builder::canonical`] numbered (kept to reuse its
    /// allocation: most steps have some, if only identity copies).
    ops: Vec<RegOp>,
    /// The NFA states' epsilon closures.
    closures: Closures,
    /// [`Builder::closure`]'s row per path, [`Builder::transition`]'s index
    /// in the key per path (kept to reuse its allocation).
    path_rows: Vec<u32>,
    /// [`Builder::key_row`]'s row per row of the key (kept to reuse its
    /// allocation).
    key_rows: Vec<u32>,
}

/// One thread of a step: its NFA state and the row of its tag values.
type Config = (StateID, u32);

/// The canonical numbering of one key's registers, row by row in order of
/// first appearance ([`Numbering::start`], [`Numbering::row`],
/// [`Numbering::finish`]), with its tables (kept to reuse their
/// allocations).
#[derive(Default)]
struct Numbering {
    /// The register of each (value, tag) met, at [`value_index`]
    /// ([`NO_REGISTER`] for none yet), and the entries to clear before the
    /// next call. A table, not a map: the canonical numbering runs once per
    /// state and byte class over every tag of every thread, and hashing
    /// there took most of the time.
    number: Vec<u32>,
    numbered: Vec<usize>,
    /// Per row of this step, its registers' index among the key's
    /// distinct rows ([`NO_ROW`] if not numbered yet; threads that share a
    /// row share them).
    row_regs: Vec<u32>,
    /// The key's distinct rows, by their registers.
    distinct: DistinctRows,
    /// Where the key's threads' row indices and its rows start.
    threads_at: usize,
    rows_at: usize,
    /// Registers handed out: all of them ([`Registers::Shared`]), or those
    /// after the tags' first values ([`Registers::PerTag`], which marks in
    /// `first` the tags whose first value has its register).
    count: u32,
    first: Vec<bool>,
}

/// The distinct rows of registers of a key being numbered: an open
/// addressing table of their indices (most keys have one or two distinct
/// rows among twenty-odd threads), emptied by a new stamp.
#[derive(Default)]
struct DistinctRows {
    /// (stamp, row index); a slot is empty unless stamped with `stamp`.
    slots: Vec<(u32, u32)>,
    stamp: u32,
}

impl DistinctRows {
    /// Empties the table, with room for `rows` rows.
    fn start(&mut self, rows: usize) {
        let len = (2 * rows).next_power_of_two().max(8);
        if self.slots.len() < len {
            self.slots = vec![(0, 0); len];
            self.stamp = 0;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.fill((0, 0));
            self.stamp = 1;
        }
    }

    /// The index of the row of `tags` registers just written at the end of
    /// `key`, among the rows from `rows_at`: an earlier equal row's (the
    /// new one is then dropped from `key`), or its own. The first
    /// [`LINEAR_ROWS`] rows are compared one by one, without hashing (most
    /// keys have one or two); the table holds them once there are more.
    fn index(&mut self, key: &mut Vec<u32>, rows_at: usize, tags: usize) -> u32 {
        let start = key.len() - tags;
        let count = (start - rows_at) / tags;
        if count <= LINEAR_ROWS {
            let earlier = (0..count).find(|&i| {
                let other = rows_at + i * tags;
                key[other..other + tags] == key[start..]
            });
            if let Some(i) = earlier {
                key.truncate(start);
                return i as u32;
            }
            if count == LINEAR_ROWS {
                for i in 0..=count {
                    let at = rows_at + i * tags;
                    self.find_or_insert(key, rows_at, at, tags);
                }
            }
            return count as u32;
        }
        let index = self.find_or_insert(key, rows_at, start, tags);
        if index as usize != count {
            key.truncate(start);
        }
        index
    }

    /// The index in the table of the row at `key[at..]` (among the rows
    /// from `rows_at`), which is added if no equal row is there.
    fn find_or_insert(&mut self, key: &[u32], rows_at: usize, at: usize, tags: usize) -> u32 {
        let mut hasher = rustc_hash::FxHasher::default();
        key[at..at + tags].hash(&mut hasher);
        let mask = self.slots.len() - 1;
        let mut slot = hasher.finish() as usize & mask;
        loop {
            let (stamp, index) = self.slots[slot];
            if stamp != self.stamp {
                let index = ((at - rows_at) / tags) as u32;
                self.slots[slot] = (self.stamp, index);
                return index;
            }
            let other = rows_at + index as usize * tags;
            if key[other..other + tags] == key[at..at + tags] {
                return index;
            }
            slot = (slot + 1) & mask;
        }
    }
}

/// How many distinct rows [`DistinctRows::index`] compares one by one
/// before it hashes them.
const LINEAR_ROWS: usize = 4;

/// A [`Registers::Shared`] DFA that reaches this fraction of its state
/// limit has its lists of NFA states counted ([`Builder::too_many_orders`]):
/// most DFAs never get there and do not pay for the count.
const ORDERS_CHECK_AT: usize = 8;

/// A path of [`Builder::closure`] with no row yet.
const NO_ROW: u32 = u32::MAX;

/// An entry of [`Builder::number`] not numbered yet.
const NO_REGISTER: u32 = u32::MAX;

/// The work [`Builder::covers`] may do in one build (the states of every
/// pair of sets it walks, times the byte classes) before pruning stops for
/// the rest of the build. Pruning only drops threads that can never give
/// the parse, so a build that stops pruning gives the same parses, with
/// more states (perhaps too many: then the typed tree falls back to text,
/// with the usual warning). The grammars in `specs/` need at most 6
/// million, RFC 9116 21 million; rules of RFC 3261 need billions, and
/// `generate` did not finish that file in 15 minutes.
pub(super) const COVER_BUDGET: usize = 64 << 20;

impl TaggedDfa {
    /// Determinizes `nfa` (built with all captures, anchored start, no
    /// look-around).
    pub fn build(nfa: &NFA) -> Result<TaggedDfa, TaggedError> {
        Self::build_with(nfa, Registers::Shared)
    }

    /// Determinizes `nfa` with registers given out as `mode` says.
    pub fn build_with(nfa: &NFA, mode: Registers) -> Result<TaggedDfa, TaggedError> {
        Self::build_capped(nfa, mode, MAX_STATES)
    }

    /// Like [`TaggedDfa::build_with`], stopping with
    /// [`TaggedError::TooManyStates`] past `max_states` states (at most
    /// [`MAX_STATES`]).
    pub fn build_capped(nfa: &NFA, mode: Registers, max_states: usize) -> Result<TaggedDfa, TaggedError> {
        Self::build_budgeted(nfa, mode, max_states, COVER_BUDGET)
    }

    /// [`TaggedDfa::build_capped`] with `cover_budget` for the pruning
    /// ([`COVER_BUDGET`]).
    pub(super) fn build_budgeted(
        nfa: &NFA,
        mode: Registers,
        max_states: usize,
        cover_budget: usize,
    ) -> Result<TaggedDfa, TaggedError> {
        let tags = nfa.group_info().slot_len();
        let classes = nfa.byte_classes();
        let alphabet = classes.alphabet_len() - 1; // without the EOI class
        let reps: Vec<u8> = classes.representatives(..).filter_map(|u| u.as_u8()).collect();
        debug_assert_eq!(reps.len(), alphabet);
        let mut class_of = [0u8; 256];
        for byte in 0..=255u8 {
            class_of[byte as usize] = classes.get(byte);
        }
        let mut b = Builder {
            max_states: max_states.min(MAX_STATES),
            nfa,
            mode,
            tags,
            map: HashMap::default(),
            states: Vec::new(),
            lists: Lists::default(),
            key: Vec::new(),
            list_same: SameMoves::new(),
            list_steps: (Vec::new(), Vec::new()),
            step_targets: Vec::new(),
            next_sids: Vec::new(),
            op_lists: HashMap::from_iter([(Vec::new(), 0)]),
            op_vec: vec![Vec::new()],
            registers: 0,
            covered: HashMap::default(),
            steps: Steps::new(nfa, reps),
            sets: Sets::default(),
            cover_budget,
            rows: Vec::new(),
            seen: Marks::default(),
            numbering: Numbering::default(),
            ops: Vec::new(),
            closures: Closures::default(),
            path_rows: Vec::new(),
            key_rows: Vec::new(),
        };
        b.seen.resize(nfa.states().len());
        // State 0: dead (no threads), of list 0 (no NFA states).
        b.lists.intern(&[]);
        b.key.push(0);
        b.intern()?;
        let mut configs = Vec::new();
        b.new_step();
        b.rows.extend(std::iter::repeat_n(Val::Unset, tags));
        b.closure(nfa.start_anchored(), 0, &mut configs)?;
        b.prune(&mut configs);
        let sids: Vec<StateID> = configs.iter().map(|&(sid, _)| sid).collect();
        let list = b.lists.intern(&sids);
        b.canonical(list, &configs);
        let start_ops = b.ops.clone();
        let start = b.intern()?;

        let mut next = Vec::new();
        let mut ops = Vec::new();
        let mut s = 0;
        // A transition per step of the state's list (the classes its
        // threads tell apart), built at the step's first class.
        let mut built: Vec<Option<(u32, u32)>> = Vec::new();
        let mut orders_checked = mode == Registers::PerTag;
        while s < b.states.len() {
            if !orders_checked && b.states.len() > b.max_states / ORDERS_CHECK_AT {
                orders_checked = true;
                if b.too_many_orders()? {
                    return Err(TaggedError::TooManyStates);
                }
            }
            let key = Rc::clone(&b.states[s]);
            let moved = b.move_list(key[0])?;
            built.clear();
            built.resize(moved.steps as usize, None);
            for class in 0..alphabet {
                let at = b.lists.class_step(moved, class);
                let (target, op_index) = match built[at] {
                    Some(done) => done,
                    None => {
                        let done = b.transition(&key, b.lists.step(moved, at))?;
                        built[at] = Some(done);
                        done
                    }
                };
                next.push(target);
                ops.push(op_index);
            }
            s += 1;
        }
        let finals = b
            .states
            .iter()
            .map(|k| {
                let sids = b.lists.sids(k[0]);
                let i = sids
                    .iter()
                    .position(|&sid| matches!(nfa.state(sid), State::Match { .. }))?;
                Some(thread_regs(k, sids.len(), i, tags).to_vec())
            })
            .collect();
        // Operations are built as parallel assignments; run them in place,
        // one after the other (one register bank, most lists a single
        // store), with one scratch register for cycles of copies.
        let scratch = b.registers as u32;
        let mut uses_scratch = false;
        // The register that holds "unset" comes after the scratch register.
        let none_reg = scratch + 1;
        let mut uses_none = false;
        let mut seq = |list: &[RegOp]| {
            let list: Vec<RegOp> = list
                .iter()
                .map(|&op| match op {
                    RegOp::Copy {
                        dst,
                        src: NONE_PLACEHOLDER,
                    } => {
                        uses_none = true;
                        RegOp::Copy { dst, src: none_reg }
                    }
                    op => op,
                })
                .collect();
            let (out, used) = sequential(&list, scratch);
            uses_scratch |= used;
            out
        };
        let op_lists: Vec<Vec<RegOp>> = b.op_vec.iter().map(|l| seq(l)).collect();
        // Registers start out unset (the runtime's and `run`'s), so the
        // start needs no copies of "unset".
        let start_ops: Vec<RegOp> = seq(&start_ops)
            .into_iter()
            .filter(|op| !matches!(op, RegOp::Copy { src, .. } if *src == none_reg))
            .collect();
        Ok(TaggedDfa {
            classes: class_of,
            alphabet,
            next,
            ops,
            op_lists,
            finals,
            start,
            start_ops,
            utf8_only: false,
            registers: if uses_none {
                b.registers + 2
            } else {
                b.registers + usize::from(uses_scratch)
            },
            tags,
        })
    }
}

/// Turns a parallel assignment into a sequence with the same effect:
/// identity copies dropped, each copy emitted once no pending copy still
/// reads its destination, a cycle of copies broken through `scratch`, and
/// position stores last (they read no register). Returns whether `scratch`
/// was used.
fn sequential(list: &[RegOp], scratch: u32) -> (Vec<RegOp>, bool) {
    let mut copies: Vec<(u32, u32)> = list
        .iter()
        .filter_map(|op| match *op {
            RegOp::Copy { dst, src } if dst != src => Some((dst, src)),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    let mut used = false;
    while !copies.is_empty() {
        match copies
            .iter()
            .position(|&(d, _)| !copies.iter().any(|&(_, s)| s == d))
        {
            Some(i) => {
                let (dst, src) = copies.remove(i);
                out.push(RegOp::Copy { dst, src });
            }
            None => {
                // Every destination is still read: save one, read it from
                // the scratch register instead.
                let (d, _) = copies[0];
                out.push(RegOp::Copy { dst: scratch, src: d });
                used = true;
                for c in copies.iter_mut() {
                    if c.1 == d {
                        c.1 = scratch;
                    }
                }
            }
        }
    }
    out.extend(
        list.iter()
            .filter(|op| matches!(op, RegOp::SetPos { .. }))
            .copied(),
    );
    (out, used)
}

/// Where [`Builder::number`] keeps value `v` of tag `t` (of `tags`; 0 of
/// 1 when registers are shared across tags). Values are laid out one row
/// of tags each, so a new register only makes the table longer.
fn value_index(v: Val, t: usize, tags: usize) -> usize {
    let row = match v {
        Val::Unset => 0,
        Val::Prev => 1,
        Val::Old(r) => r as usize + 2,
        Val::Pending => unreachable!("not stored in registers"),
    };
    row * tags + t
}

/// Keeps the first `kept` threads of `threads` and those at the match state
/// (see [`Builder::prune`]).
fn keep_first<T: Thread>(nfa: &NFA, threads: &mut Vec<T>, kept: usize) {
    let mut k = 0;
    threads.retain(|t| {
        k += 1;
        k <= kept || matches!(nfa.state(t.sid()), State::Match { .. })
    });
}

/// A thread of a step, with or without its tag values.
trait Thread {
    fn sid(&self) -> StateID;
}

impl Thread for StateID {
    fn sid(&self) -> StateID {
        *self
    }
}

impl Thread for Config {
    fn sid(&self) -> StateID {
        self.0
    }
}

/// Whether sorted `small` is a subset of sorted `big`.
fn is_subset(small: &[StateID], big: &[StateID]) -> bool {
    let mut big = big.iter();
    small.iter().all(|s| big.any(|b| b == s))
}

/// A set of NFA states that empties in constant time: a state is in it
/// when its mark is the current stamp.
#[derive(Default)]
pub(super) struct Marks {
    marks: Vec<u32>,
    stamp: u32,
}

impl Marks {
    pub(super) fn resize(&mut self, len: usize) {
        self.marks.resize(len, 0);
    }

    /// Empties the set.
    pub(super) fn stamp(&mut self) {
        self.stamp += 1;
        if self.stamp == u32::MAX {
            self.marks.fill(0);
            self.stamp = 1;
        }
    }

    /// Adds `s`; false if it was in the set.
    pub(super) fn mark(&mut self, s: StateID) -> bool {
        let m = &mut self.marks[s.as_usize()];
        if *m == self.stamp {
            return false;
        }
        *m = self.stamp;
        true
    }
}

impl Builder<'_> {
    /// The target state and operation list of the threads of the state
    /// whose key is `key` moving by `step` of its list: the closures of
    /// the moving threads' targets walked again (see [`Builder::closure`]),
    /// now with their rows, each thread numbered into the key as it is met
    /// (the threads pruning drops skipped, as [`keep_first`] drops them).
    fn transition(&mut self, key: &[u32], step: Step) -> Result<(u32, u32), TaggedError> {
        let threads = self.lists.sids(key[0]).len();
        self.new_step();
        self.start_key(step.list, self.lists.sids(step.list).len());
        let mut key_rows = std::mem::take(&mut self.key_rows);
        key_rows.clear();
        key_rows.resize((key.len() - 1 - threads) / self.tags.max(1), NO_ROW);
        let mut path_index = std::mem::take(&mut self.path_rows);
        let (mut walked, mut kept) = (0, 0);
        for at in 0..self.lists.moves(step).len() {
            let (i, to) = self.lists.moves(step)[at];
            let row = self.key_row(key, threads, i as usize, &mut key_rows);
            let closure = self.closures.of(self.nfa, StateID::new_unchecked(to as usize));
            // Per path of the closure, the index of its row in the key.
            path_index.clear();
            path_index.resize(closure.paths as usize, NO_ROW);
            for e in 0..Closures::len(closure) {
                let (sid, path) = self.closures.entries(closure)[e];
                if !self.seen.mark(sid) {
                    continue;
                }
                walked += 1;
                if step.kept != ALL_KEPT
                    && walked > step.kept as usize
                    && !matches!(self.nfa.state(sid), State::Match { .. })
                {
                    continue;
                }
                if path_index[path as usize] == NO_ROW {
                    let path_row = self.path_row(closure, path, row);
                    path_index[path as usize] = self.key_index(path_row);
                }
                self.numbering.set(&mut self.key, kept, path_index[path as usize]);
                kept += 1;
            }
        }
        debug_assert_eq!(kept, self.lists.sids(step.list).len());
        self.path_rows = path_index;
        self.key_rows = key_rows;
        self.finish_key();
        let identity = self
            .ops
            .iter()
            .all(|op| matches!(op, RegOp::Copy { dst, src } if dst == src));
        let op_index = if identity { 0 } else { self.op_index() };
        Ok((self.intern()?, op_index))
    }

    /// The row of path `path` of `closure` for a thread whose values are
    /// row `row`: `row` itself for path 0 (which sets no slot), else a copy
    /// of it with the path's slots pending.
    fn path_row(&mut self, closure: Closure, path: u32, row: u32) -> u32 {
        if path == 0 {
            return row;
        }
        let tags = self.tags;
        let start = row as usize * tags;
        let copy = self.rows.len();
        self.rows.extend_from_within(start..start + tags);
        for &slot in self.closures.slots(closure, path) {
            self.rows[copy + slot as usize] = Val::Pending;
        }
        (copy / tags.max(1)) as u32
    }

    /// The row of this step that holds the values of thread `thread`'s
    /// registers in the state whose key is `key` (of `threads` threads):
    /// made from the key's row of registers the first time one of its
    /// threads moves, then shared (`key_rows`, per row of the key) by the
    /// threads that share that row. Rows are never changed once written,
    /// and the canonical numbering reads each distinct row once, so threads
    /// that share a row cost one.
    fn key_row(&mut self, key: &[u32], threads: usize, thread: usize, key_rows: &mut [u32]) -> u32 {
        let index = key[1 + thread] as usize;
        if key_rows[index] != NO_ROW {
            return key_rows[index];
        }
        let tags = self.tags;
        let row = (self.rows.len() / tags.max(1)) as u32;
        let regs = thread_regs(key, threads, thread, tags);
        self.rows.extend(regs.iter().map(|&r| match r {
            UNSET => Val::Unset,
            PENDING => Val::Prev,
            r => Val::Old(r),
        }));
        key_rows[index] = row;
        row
    }

    /// Numbers the registers of `configs`, threads of list `list` (with
    /// their rows in this step's rows), canonically: the key goes to
    /// [`Builder::key`], the operations that fill the new registers to
    /// [`Builder::ops`].
    fn canonical(&mut self, list: u32, configs: &[Config]) {
        self.start_key(list, configs.len());
        for (thread, &(_, row)) in configs.iter().enumerate() {
            let index = self.key_index(row);
            self.numbering.set(&mut self.key, thread, index);
        }
        self.finish_key();
    }

    /// Starts the key of a state of list `list`, of `threads` threads, in
    /// [`Builder::key`] (see [`Numbering`]).
    fn start_key(&mut self, list: u32, threads: usize) {
        self.key.clear();
        self.key.push(list);
        self.ops.clear();
        self.numbering.start(self.tags, threads, &mut self.key);
    }

    /// The index of row `row` (of this step's rows) among the distinct rows
    /// of the key being numbered, its registers numbered if it is new.
    fn key_index(&mut self, row: u32) -> u32 {
        self.numbering.row(
            self.mode,
            &self.rows,
            self.tags,
            row,
            &mut self.key,
            &mut self.ops,
        )
    }

    /// Ends the key being numbered.
    fn finish_key(&mut self) {
        let registers = self.numbering.finish(self.mode, self.tags);
        self.registers = self.registers.max(registers);
    }

    /// The state whose key is [`Builder::key`], numbering it if new.
    fn intern(&mut self) -> Result<u32, TaggedError> {
        if let Some(&id) = self.map.get(&self.key[..]) {
            return Ok(id);
        }
        if self.states.len() >= self.max_states {
            return Err(TaggedError::TooManyStates);
        }
        let id = self.states.len() as u32;
        let key: Rc<[u32]> = Rc::from(&self.key[..]);
        self.map.insert(Rc::clone(&key), id);
        self.states.push(key);
        Ok(id)
    }

    /// The moves of list `list` (see [`Lists`]), computed if not yet: the
    /// classes split into groups with the same moves, and a step per group.
    fn move_list(&mut self, list: u32) -> Result<Moved, TaggedError> {
        if let Some(moved) = self.lists.moved(list) {
            return Ok(moved);
        }
        let sids = Rc::clone(self.lists.sids(list));
        let mut same = std::mem::replace(&mut self.list_same, SameMoves::new());
        same.start(&mut self.steps, &sids);
        let (mut steps, mut class_steps) = std::mem::take(&mut self.list_steps);
        steps.clear();
        class_steps.clear();
        for class in 0..self.steps.classes() {
            let index = match same.find(class) {
                Some(index) => index,
                None => {
                    let index = steps.len() as u8;
                    steps.push(self.list_step(same.moves(class))?);
                    same.built(class, index);
                    index
                }
            };
            class_steps.push(index);
        }
        self.list_same = same;
        let moved = self.lists.set_moves(list, &steps, &class_steps);
        self.list_steps = (steps, class_steps);
        Ok(moved)
    }

    /// The step of the threads that move as `moves` says (each one's
    /// index in its list and the NFA state it moves to, in order): what
    /// their targets reach ([`Builder::reach`]), looked up if a step moved
    /// to the same targets before.
    fn list_step(&mut self, moves: &[(u32, u32)]) -> Result<Step, TaggedError> {
        let mut targets = std::mem::take(&mut self.step_targets);
        targets.clear();
        targets.extend(moves.iter().map(|&(_, to)| to));
        let reached = match self.lists.reached(&targets) {
            Some(reached) => Ok(reached),
            None => self.reach(&targets),
        };
        self.step_targets = targets;
        let (list, kept) = reached?;
        Ok(self.lists.new_step(list, moves, kept))
    }

    /// The list that threads moving to the NFA states `targets` (in order)
    /// reach, and how many of its first threads pruning keeps
    /// ([`Step::kept`]): the closures of the targets in priority order (see
    /// [`Builder::closure`]), pruned. Recorded for the steps that move to
    /// the same targets ([`Lists::reached`]); the pruning would give them
    /// the same answer, its budget aside (which only the questions it has
    /// not answered yet use).
    fn reach(&mut self, targets: &[u32]) -> Result<(u32, u32), TaggedError> {
        let mut next = std::mem::take(&mut self.next_sids);
        next.clear();
        self.new_step();
        for &to in targets {
            self.closure_states(StateID::new_unchecked(to as usize), &mut next)?;
        }
        let kept = match self.pruned(&next) {
            Some(kept) => {
                keep_first(self.nfa, &mut next, kept);
                kept as u32
            }
            None => ALL_KEPT,
        };
        let list = self.lists.intern(&next);
        self.next_sids = next;
        self.lists.reach(targets, list, kept);
        Ok((list, kept))
    }

    /// The number of the operation list [`Builder::ops`], numbering it if
    /// new.
    fn op_index(&mut self) -> u32 {
        if let Some(&i) = self.op_lists.get(&self.ops[..]) {
            return i;
        }
        let i = self.op_vec.len() as u32;
        self.op_lists.insert(self.ops.clone(), i);
        self.op_vec.push(self.ops.clone());
        i
    }

    /// Drops the threads that can never give the parse: those after the
    /// shortest run of first threads that accept every nonempty rest of the
    /// input that any thread accepts. The threads that run spawns keep their
    /// priority over those of the threads after it, so whatever follows,
    /// one of them wins. A thread at the match state is kept: it decides the
    /// parse if the input ends here. Grammars that split rather than
    /// validate (RFC 3986 Appendix B) otherwise carry losing threads through
    /// whole parts, and a state for each way they line up.
    fn prune(&mut self, configs: &mut Vec<Config>) {
        let sids: Vec<StateID> = configs.iter().map(|(sid, _)| *sid).collect();
        if let Some(kept) = self.pruned(&sids) {
            keep_first(self.nfa, configs, kept);
        }
    }

    /// How many first threads (at `sids`) [`Builder::prune`] keeps besides
    /// those at the match state, or `None` if it keeps all.
    fn pruned(&mut self, sids: &[StateID]) -> Option<usize> {
        if self.mode == Registers::Shared {
            return None;
        }
        // Covering is monotone in the number of first threads taken: if all
        // but the last do not cover, no fewer do.
        if sids.len() < 2 || !self.covers(&sids[..sids.len() - 1], sids) {
            return None;
        }
        let (mut lo, mut hi) = (1, sids.len() - 1);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.covers(&sids[..mid], sids) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        Some(lo)
    }

    /// Whether threads at NFA states `first` accept every nonempty string
    /// that threads at `all` accept: a walk over pairs of state sets, one
    /// byte class at a time, up to a small limit (beyond it, the answer is
    /// no, and nothing is pruned).
    fn covers(&mut self, first: &[StateID], all: &[StateID]) -> bool {
        let classes = self.steps.classes();
        let mut norm = |s: &[StateID]| {
            let mut v = s.to_vec();
            v.sort();
            v.dedup();
            self.sets.intern(self.nfa, classes, v)
        };
        let key = (norm(first), norm(all));
        if key.0 == key.1 {
            return true;
        }
        if let Some(&u) = self.covered.get(&key) {
            return u;
        }
        if self.cover_budget == 0 {
            return false;
        }
        const LIMIT: usize = 256;
        let (sets, steps) = (&mut self.sets, &mut self.steps);
        let mut seen: HashSet<(u32, u32)> = HashSet::default();
        seen.insert(key);
        let mut todo = vec![key];
        let mut covers = true;
        'pairs: while let Some((p, a)) = todo.pop() {
            let work = (sets.get(p).len() + sets.get(a).len()) * classes;
            if work > self.cover_budget {
                self.cover_budget = 0;
                covers = false;
                break 'pairs;
            }
            self.cover_budget -= work;
            for class in 0..classes {
                let Some(a2) = sets.next(steps, a, class) else {
                    covers = false;
                    break 'pairs;
                };
                if sets.get(a2).is_empty() {
                    continue;
                }
                let Some(p2) = sets.next(steps, p, class) else {
                    covers = false;
                    break 'pairs;
                };
                if sets.get(p2).is_empty() || (sets.accepts(a2) && !sets.accepts(p2)) {
                    covers = false;
                    break 'pairs;
                }
                // The first threads may have spawned threads at every
                // state the others reach: then they accept all the others do.
                if is_subset(sets.get(a2), sets.get(p2)) {
                    continue;
                }
                let pair = (p2, a2);
                if !seen.contains(&pair) {
                    if seen.len() >= LIMIT {
                        covers = false;
                        break 'pairs;
                    }
                    seen.insert(pair);
                    todo.push(pair);
                }
            }
        }
        self.covered.insert(key, covers);
        covers
    }

    /// Whether the DFA would have more than `max_states` states, by its
    /// states' lists of NFA states alone: each state has one (with the
    /// registers of its threads), and which lists follow which does not
    /// depend on the registers ([`Lists`]). Walking the lists alone costs a
    /// fraction of the tagged construction (a state's key holds a value
    /// per thread and tag), so a DFA that would pass the limit (RFC 9051's
    /// `body-fields`, RFC 9116's `body`) is refused in that fraction of the
    /// time it takes to build as many tagged states. The walk moves every
    /// list ([`Builder::move_list`]), which the build then reads instead of
    /// moving them again. (Only for [`Registers::Shared`]: the pruning of
    /// [`Registers::PerTag`] must meet its lists in the build's order, as
    /// its work budget runs out at the same point.)
    fn too_many_orders(&mut self) -> Result<bool, TaggedError> {
        let mut list = 0;
        while list < self.lists.len() {
            self.move_list(list as u32)?;
            if self.lists.len() > self.max_states {
                return Ok(true);
            }
            list += 1;
        }
        Ok(false)
    }

    /// [`Builder::closure`] without tag values: the NFA states alone.
    fn closure_states(&mut self, sid: StateID, out: &mut Vec<StateID>) -> Result<(), TaggedError> {
        let closure = self.closures.of(self.nfa, sid);
        if closure.look {
            return Err(TaggedError::LookAround);
        }
        for &(sid, _) in self.closures.entries(closure) {
            if self.seen.mark(sid) {
                out.push(sid);
            }
        }
        Ok(())
    }

    /// Starts a step: no NFA state reached, no rows.
    fn new_step(&mut self) {
        self.rows.clear();
        self.seen.stamp();
    }

    /// Adds the epsilon closure of `sid`, whose thread holds the tag values
    /// of row `row`, to `out` in priority order (a depth-first walk that
    /// takes alternatives in order). Every NFA state reached in this step
    /// is seen, as in a PikeVM: the first thread to reach a state wins it,
    /// and epsilon loops end.
    fn closure(&mut self, sid: StateID, row: u32, out: &mut Vec<Config>) -> Result<(), TaggedError> {
        // The walk is kept per NFA state (see the `closures` module).
        let closure = self.closures.of(self.nfa, sid);
        if closure.look {
            return Err(TaggedError::LookAround);
        }
        // Per path, the row of this thread's values with the path's slots
        // pending, made when a state reached by that path is first kept.
        let mut path_rows = std::mem::take(&mut self.path_rows);
        path_rows.clear();
        path_rows.resize(closure.paths as usize, NO_ROW);
        path_rows[0] = row;
        let tags = self.tags;
        for &(sid, path) in self.closures.entries(closure) {
            if !self.seen.mark(sid) {
                continue;
            }
            let at = &mut path_rows[path as usize];
            if *at == NO_ROW {
                let start = row as usize * tags;
                *at = (self.rows.len() / tags) as u32;
                self.rows.extend_from_within(start..start + tags);
                let copy = self.rows.len() - tags;
                for &slot in self.closures.slots(closure, path) {
                    self.rows[copy + slot as usize] = Val::Pending;
                }
            }
            out.push((sid, *at));
        }
        self.path_rows = path_rows;
        Ok(())
    }
}

/// The registers of thread `thread` (of `threads`) in state key `key`:
/// the key is the state's list, then per thread the index of its row of
/// registers, then the distinct rows of `tags` registers each (threads
/// mostly share a few rows: keys are a tenth as long as a row per
/// thread, and hashing and copying them was a large part of the build).
fn thread_regs(key: &[u32], threads: usize, thread: usize, tags: usize) -> &[u32] {
    let at = 1 + threads + key[1 + thread] as usize * tags;
    &key[at..at + tags]
}

impl Numbering {
    /// Starts numbering a key of `threads` threads (see [`thread_regs`]):
    /// makes room for the threads' row indices after `key`'s list.
    fn start(&mut self, tags: usize, threads: usize, key: &mut Vec<u32>) {
        self.row_regs.clear();
        self.distinct.start(threads);
        self.threads_at = key.len();
        key.resize(key.len() + threads, 0);
        self.rows_at = key.len();
        self.count = 0;
        self.first.clear();
        self.first.resize(tags, false);
    }

    /// Sets thread `thread`'s row index in `key` to `index`.
    fn set(&self, key: &mut [u32], thread: usize, index: u32) {
        key[self.threads_at + thread] = index;
    }

    /// The index of row `row` of `rows` (`tags` values each) among the
    /// key's distinct rows: numbered the first time it is met (its
    /// registers as `mode` says, appended to `key` with the operations that
    /// fill the new ones appended to `ops`), then remembered (threads that
    /// share a row share it).
    fn row(
        &mut self,
        mode: Registers,
        rows: &[Val],
        tags: usize,
        row: u32,
        key: &mut Vec<u32>,
        ops: &mut Vec<RegOp>,
    ) -> u32 {
        let row = row as usize;
        if row >= self.row_regs.len() {
            self.row_regs.resize(row + 1, NO_ROW);
        }
        if self.row_regs[row] != NO_ROW {
            return self.row_regs[row];
        }
        let values = &rows[row * tags..(row + 1) * tags];
        match mode {
            Registers::Shared => self.push_shared(values, key, ops),
            Registers::PerTag => self.push_per_tag(values, key, ops),
        }
        let index = self.distinct.index(key, self.rows_at, tags);
        self.row_regs[row] = index;
        index
    }

    /// Ends the key: clears the tables for the next one; returns how many
    /// registers the state uses.
    fn finish(&mut self, mode: Registers, tags: usize) -> usize {
        for at in self.numbered.drain(..) {
            self.number[at] = NO_REGISTER;
        }
        match mode {
            Registers::Shared => self.count as usize,
            Registers::PerTag => tags.saturating_sub(2) + self.count as usize,
        }
    }

    /// The register of the value at `at` ([`value_index`]), if numbered.
    fn numbered(&mut self, at: usize) -> &mut u32 {
        if at >= self.number.len() {
            self.number.resize(at + 1, NO_REGISTER);
        }
        &mut self.number[at]
    }

    /// [`Numbering::row`]'s values for [`Registers::Shared`]: one register
    /// per distinct value, by first appearance.
    fn push_shared(&mut self, values: &[Val], key: &mut Vec<u32>, ops: &mut Vec<RegOp>) {
        for &v in values {
            match v {
                Val::Unset => {
                    key.push(UNSET);
                    continue;
                }
                Val::Pending => {
                    key.push(PENDING);
                    continue;
                }
                Val::Prev | Val::Old(_) => {}
            }
            let at = value_index(v, 0, 1);
            if *self.numbered(at) == NO_REGISTER {
                let count = self.count;
                self.number[at] = count;
                self.numbered.push(at);
                ops.push(match v {
                    Val::Prev => RegOp::SetPos { dst: count },
                    Val::Old(src) => RegOp::Copy { dst: count, src },
                    Val::Unset | Val::Pending => unreachable!("not stored in registers"),
                });
                self.count += 1;
            }
            key.push(self.number[at]);
        }
    }

    /// [`Numbering::row`]'s values for [`Registers::PerTag`]: a register
    /// per tag and distinct value, unset tags included (a copy of the
    /// register that holds "unset"); tag `t`'s first value in priority
    /// order takes register `t - 2` (so that a loop that keeps its threads
    /// in order needs no copies), further values the registers after the
    /// last tag's. Group 0 is never tracked.
    fn push_per_tag(&mut self, values: &[Val], key: &mut Vec<u32>, ops: &mut Vec<RegOp>) {
        let tags = values.len();
        let tracked = tags.saturating_sub(2) as u32;
        for (t, &v) in values.iter().enumerate() {
            if t < 2 {
                key.push(UNSET);
                continue;
            }
            if v == Val::Pending {
                key.push(PENDING);
                continue;
            }
            let at = value_index(v, t, tags);
            if *self.numbered(at) == NO_REGISTER {
                let next = if !self.first[t] {
                    self.first[t] = true;
                    t as u32 - 2
                } else {
                    self.count += 1;
                    tracked + self.count - 1
                };
                self.number[at] = next;
                self.numbered.push(at);
                ops.push(match v {
                    Val::Unset => RegOp::Copy {
                        dst: next,
                        src: NONE_PLACEHOLDER,
                    },
                    Val::Prev => RegOp::SetPos { dst: next },
                    Val::Old(src) => RegOp::Copy { dst: next, src },
                    Val::Pending => unreachable!("not stored in registers"),
                });
            }
            key.push(self.number[at]);
        }
    }
}
