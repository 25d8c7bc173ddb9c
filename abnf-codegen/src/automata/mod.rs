//! HIR → minimized anchored dense DFA, and its serialized form.

mod already_minimal;
pub mod bitpar;
mod compose;
pub(crate) mod minimize;
pub mod shapes;
pub mod shuffle;

pub use compose::Composer;

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use regex_automata::dfa::{dense, Automaton as _, StartKind};
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::util::primitives::StateID;
use regex_automata::util::start;
use regex_automata::{Anchored, MatchKind};
use regex_syntax::hir::Hir;

use abnf_runtime::wire::{self as rtwire, Kind};

use crate::regular::anchored_full;
use crate::wire::{WireBytes, NATIVE_BIG_ENDIAN};

use crate::limits::{Limits, MAX_MINIMIZE_STATES};
use already_minimal::Minimality;

/// Composed DFAs of more states than this whose states that the start
/// reaches are minimal already are not minimized for the states it does
/// not reach (see `Automaton::build_to_write`): below it, the minimizer
/// takes milliseconds and keeps the checked-in sparse tables as they were.
const MINIMIZE_UNREACHED_STATES: usize = 2_000;

/// Why an automaton could not be built: a size limit, with what exceeded
/// it (regex-automata's own error text, or ours with the states reached).
#[derive(Clone, Debug)]
pub enum SizeError {
    /// The NFA exceeded [`Limits::nfa_bytes`]: regex-automata's error.
    NfaTooBig(thompson::BuildError),
    /// The DFA exceeded a DFA limit.
    DfaTooBig(String),
}

impl std::fmt::Display for SizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SizeError::NfaTooBig(e) => write!(f, "the NFA is too large: {e}"),
            SizeError::DfaTooBig(why) => write!(f, "the DFA is too large: {why}"),
        }
    }
}

impl std::error::Error for SizeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SizeError::NfaTooBig(e) => Some(e),
            SizeError::DfaTooBig(_) => None,
        }
    }
}

/// A built DFA for one rule, with what it cost.
pub struct Automaton {
    /// The minimized DFA that recognizes exactly the rule (full match).
    pub dfa: dense::DFA<Vec<u32>>,
    /// States in the Thompson NFA determinized: the rule's own, or for a
    /// rule built part by part ([`Composer`]), the NFA form of the DFA its
    /// parts composed into.
    pub nfa_states: usize,
    /// Time to compile the NFA, determinize and minimize.
    pub build_time: Duration,
    /// The compact table in the runtime's format, made on first use.
    wire: OnceLock<WireBytes>,
    /// [`Automaton::compact`], made on first use: `generate` asks for it
    /// for the rule's tables, its statistics and its reverse automaton, and
    /// building it (with its shapes) took 3% of RFC 3261's time each time.
    compact: OnceLock<Compact>,
}

/// What [`Automaton::build_to_write`] built.
pub(crate) enum Built {
    /// The automaton (boxed: it is large, and the other variant is a
    /// number).
    Dfa(Box<Automaton>),
    /// Its tables would take at least `at_least` bytes, past the limit it
    /// was given: it was not finished.
    TooLargeToWrite { at_least: usize },
}

/// The Thompson NFA of a recognizer's HIR (already anchored).
fn nfa_of(hir: &Hir, limits: Limits) -> Result<thompson::NFA, SizeError> {
    thompson::Compiler::new()
        .configure(
            thompson::Config::new()
                // Recognizers report match/no match and where a match
                // failed; capture states would only enlarge the NFA.
                .which_captures(WhichCaptures::None)
                .nfa_size_limit(Some(limits.nfa_bytes)),
        )
        .build_from_hir(hir)
        .map_err(SizeError::NfaTooBig)
}

/// Determinizes `nfa` into an anchored dense DFA, minimized when
/// `minimize`, within `dfa_bytes` and `determinize_bytes`.
fn dense_from_nfa(
    nfa: &thompson::NFA,
    minimize: bool,
    dfa_bytes: usize,
    determinize_bytes: usize,
) -> Result<dense::DFA<Vec<u32>>, SizeError> {
    let config = dense::Config::new()
        // Leftmost-first plus the `\z` anchor gives one match
        // state, reached only after a full match (MatchKind::All
        // would make most states match states, and the simple
        // loop would leave its fast path at almost every byte).
        .match_kind(MatchKind::LeftmostFirst)
        // Recognizers always match from the first byte.
        .start_kind(StartKind::Anchored)
        // Minimal tables: smaller to embed, faster to walk.
        .minimize(minimize)
        // Byte classes shrink the table ~4x and cost nothing.
        .byte_classes(true)
        // The recognizer drives the DFA itself, one byte at a
        // time; search-time acceleration would be unused bytes.
        .accelerate(false)
        // No `\b` in any grammar, so no quit bytes are needed.
        .unicode_word_boundary(false)
        .dfa_size_limit(Some(dfa_bytes))
        .determinize_size_limit(Some(determinize_bytes));
    dense::Builder::new()
        .configure(config)
        .build_from_nfa(nfa)
        .map_err(|e| SizeError::DfaTooBig(e.to_string()))
}

impl Automaton {
    /// Compiles `(?:hir)\z` into a minimized, anchored dense DFA.
    pub fn build(hir: &Hir, limits: Limits) -> Result<Automaton, SizeError> {
        Automaton::build_with(hir, limits, &mut Composer::new(limits))
    }

    /// [`Automaton::build`] with the parts `composer` built for earlier
    /// rules (the rules of one grammar share many).
    pub fn build_with(hir: &Hir, limits: Limits, composer: &mut Composer) -> Result<Automaton, SizeError> {
        match Automaton::build_to_write(hir, limits, usize::MAX, composer)? {
            Built::Dfa(a) => Ok(*a),
            Built::TooLargeToWrite { .. } => unreachable!("no table is larger than `usize::MAX` bytes"),
        }
    }

    /// [`Automaton::build_with`], for a recognizer whose tables (as
    /// [`Automaton::table_bytes`] counts them) may take at most
    /// `max_table_bytes`: a DFA composed part by part that is too large to
    /// minimize and has too many states for its tables to fit is refused
    /// before `regex-automata` determinizes it again (RFC 9051's
    /// `body-type-basic`: 39,049 states, a fifth of a second).
    pub(crate) fn build_to_write(
        hir: &Hir,
        limits: Limits,
        max_table_bytes: usize,
        composer: &mut Composer,
    ) -> Result<Built, SizeError> {
        let t0 = Instant::now();
        if let Some(d) = composer.build(hir)? {
            if d.states() > MAX_MINIMIZE_STATES {
                // Not minimized, so the dense DFA has all of these states,
                // and at least a byte class per distinct column, plus the
                // end of input, in a stride of a power of two.
                let stride = (d.distinct_columns() + 1).next_power_of_two();
                let at_least = 4 * d.states() * stride * std::mem::size_of::<u32>();
                if at_least > max_table_bytes {
                    return Ok(Built::TooLargeToWrite { at_least });
                }
            }
            // As a deterministic NFA the composed DFA determinizes in one
            // step per state and class. It is minimized again:
            // `regex-automata` may give a state reached both at the start
            // and later two DFA states, which minimizing merges (without it
            // RFC 3986's `path` has 5 states, not 4). Most are minimal
            // already, and minimizing them would leave them as they are:
            // that is checked first, and only the others are determinized
            // again with the (slow) minimizer on.
            //
            // Where only states the start never reaches stand in the way
            // (one, often), minimizing changes nothing the walks see (it
            // drops that state from the sparse table), and its time grows
            // fast with the states (1.4 s for a composed DFA of 6,110
            // states that a fuzzed grammar made): past
            // `MINIMIZE_UNREACHED_STATES` states it is left out.
            let det = d.to_nfa().map_err(SizeError::NfaTooBig)?;
            let small = d.states() <= MAX_MINIMIZE_STATES;
            let mut dfa = dense_from_nfa(&det, false, usize::MAX, usize::MAX)?;
            let minimize = match already_minimal::minimality(&dfa) {
                Minimality::Minimal => false,
                Minimality::ReachedPartMinimal => d.states() <= MINIMIZE_UNREACHED_STATES,
                Minimality::Unknown => true,
            };
            if small && minimize {
                dfa = dense_from_nfa(&det, true, usize::MAX, usize::MAX)?;
            }
            return Ok(Built::Dfa(Box::new(Automaton {
                nfa_states: det.states().len(),
                dfa,
                build_time: t0.elapsed(),
                wire: OnceLock::new(),
                compact: OnceLock::new(),
            })));
        }
        let nfa = nfa_of(&anchored_full(hir.clone()), limits)?;
        let dfa = Automaton::direct(&nfa, limits)?;
        Ok(Built::Dfa(Box::new(Automaton {
            nfa_states: nfa.states().len(),
            dfa,
            build_time: t0.elapsed(),
            wire: OnceLock::new(),
            compact: OnceLock::new(),
        })))
    }

    /// What the recognizer's tables take once written: four times the
    /// dense DFA's bytes (its transition table and sparse DFA, in both
    /// byte orders).
    pub(crate) fn table_bytes(&self) -> usize {
        4 * self.dfa.memory_usage()
    }

    /// Compiles `(?:hir)\z` by determinizing its whole NFA at once.
    #[cfg(test)]
    pub(crate) fn build_direct(hir: &Hir, limits: Limits) -> Result<Automaton, SizeError> {
        let nfa = nfa_of(&anchored_full(hir.clone()), limits)?;
        Ok(Automaton {
            nfa_states: nfa.states().len(),
            dfa: Automaton::direct(&nfa, limits)?,
            build_time: Duration::ZERO,
            wire: OnceLock::new(),
            compact: OnceLock::new(),
        })
    }

    fn direct(nfa: &thompson::NFA, limits: Limits) -> Result<dense::DFA<Vec<u32>>, SizeError> {
        let build = |minimize, dfa_bytes| dense_from_nfa(nfa, minimize, dfa_bytes, limits.determinize_bytes);
        // regex-automata's minimizer takes time quadratic in the states of
        // long chains (`65536"x"` takes minutes): minimize only automata of
        // a size real grammars have. Determinizing is the other cost (a
        // second of the two it takes for RFC 3261's `challenge`, 10,000
        // states before minimizing), so it is done once where it can be:
        // first with minimizing on and the DFA capped at the size of
        // `MAX_MINIMIZE_STATES` states, and only when that cap is hit again
        // without minimizing, up to the real limit.
        let stride = nfa.byte_classes().alphabet_len().next_power_of_two();
        let cap = MAX_MINIMIZE_STATES.saturating_mul(stride * std::mem::size_of::<u32>());
        let sized = |e: SizeError| match e {
            // Name the size: the states the limit holds at this stride.
            SizeError::DfaTooBig(m) if m.starts_with("DFA exceeded size limit") => {
                SizeError::DfaTooBig(format!(
                    "{m} (more than {} states)",
                    limits.dfa_bytes / (stride * std::mem::size_of::<u32>())
                ))
            }
            e => e,
        };
        match build(true, cap.min(limits.dfa_bytes)) {
            Ok(dfa) => Ok(dfa),
            Err(_) if cap < limits.dfa_bytes => build(false, limits.dfa_bytes).map_err(sized),
            Err(e) => Err(sized(e)),
        }
    }

    /// Number of DFA states reachable from the start state (the dead state
    /// included).
    pub fn states(&self) -> usize {
        reachable_states(&self.dfa).len()
    }

    /// The DFA as a sparse `regex-automata` DFA serialized in both byte
    /// orders (little-endian first), ready for `sparse::DFA::from_bytes`.
    /// The sparse form is about a tenth of the dense one; the runtime uses it
    /// for searching and error reports, not for the hot loop.
    pub fn sparse_bytes(&self) -> (Vec<u8>, Vec<u8>) {
        let sparse = self
            .dfa
            .to_sparse()
            .expect("a built dense DFA converts to a sparse one");
        (sparse.to_bytes_little_endian(), sparse.to_bytes_big_endian())
    }

    /// The compact table the generated recognizer walks, with the states
    /// that [`bitpar`] accelerates numbered last.
    pub fn compact(&self) -> Compact {
        self.compact
            .get_or_init(|| {
                let mut c = bitpar::accelerate(&Compact::new(&self.dfa));
                c.shapes = shapes::Shapes::of(&c);
                c
            })
            .clone()
    }

    /// Full match of `input`: `Ok(())`, or `Err(offset)` where offset is the
    /// length of the longest prefix that can still be extended to a match.
    /// Walks the compact table with the runtime's own walk, as generated
    /// code does.
    pub fn full_match(&self, input: &[u8]) -> Result<(), usize> {
        self.wire
            .get_or_init(|| self.compact().wire())
            .table()
            .full_match(input)
    }
}

/// The coarsest byte classes of a table of `rows` states whose state
/// `row` moves to `next(row, b)` on byte `b`: bytes whose columns (the
/// next state of every row) are equal share a class, numbered by their
/// smallest byte. Returns the class map, the number of classes and the
/// transitions `trans[row * alphabet + class]` (not premultiplied).
///
/// Bytes of one class of `known` (classes that the table's automaton
/// already has, which `next` cannot tell apart) share a column, so the
/// columns are read once per known class, not once per byte (256 reads of
/// every row took 4% of RFC 3261's `generate`).
pub(crate) fn class_table(
    rows: usize,
    known: &[u8; 256],
    next: impl Fn(usize, u8) -> u32,
) -> ([u8; 256], usize, Vec<u32>) {
    let mut classes = [0u8; 256];
    let mut columns: Vec<Vec<u32>> = Vec::new();
    // Per known class, its class here once its first byte has been read.
    let mut class_of_known: [Option<u8>; 256] = [None; 256];
    for b in 0..=255u8 {
        let known_class = &mut class_of_known[usize::from(known[usize::from(b)])];
        let c = match *known_class {
            Some(c) => c,
            None => {
                let column: Vec<u32> = (0..rows).map(|row| next(row, b)).collect();
                let c = match columns.iter().position(|col| *col == column) {
                    Some(c) => c,
                    None => {
                        columns.push(column);
                        columns.len() - 1
                    }
                } as u8;
                *known_class = Some(c);
                c
            }
        };
        classes[usize::from(b)] = c;
    }
    let alphabet = columns.len();
    let mut trans = vec![0u32; rows * alphabet];
    for (c, column) in columns.iter().enumerate() {
        for (row, &t) in column.iter().enumerate() {
            trans[row * alphabet + c] = t;
        }
    }
    (classes, alphabet, trans)
}

/// A DFA as a flat transition table, for the recognizer's hot loop.
///
/// States are numbered dead first (0), then breadth-first from the start
/// state; bytes are grouped into the fewest classes that no state tells
/// apart (fewer than `regex-automata`'s classes, which come from the NFA:
/// 44 instead of 70 for `IRI-reference`). Entries are premultiplied by the
/// number of classes, so one step is `s = trans[s + class[b]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compact {
    /// Byte → class.
    pub classes: [u8; 256],
    /// Number of classes.
    pub alphabet: usize,
    /// `trans[s + c]`: the (premultiplied) next state.
    pub trans: Vec<u32>,
    /// Per state: whether the input may end there (the end-of-input
    /// transition reaches a match).
    pub accept: Vec<bool>,
    /// The (premultiplied) start state.
    pub start: u32,
    /// The states walked bit-parallel and their loop sets (none until
    /// [`bitpar::accelerate`] numbers them last).
    pub skip: bitpar::Acceleration,
    /// The states as lanes of a shuffle automaton, for short inputs (none
    /// until [`Compact::with_shuffle`]).
    pub shuffle: Option<shuffle::Shuffle>,
    /// Its inputs of up to 64 bytes as products of byte sets per position,
    /// if they are few ([`shapes::Shapes`]).
    pub shapes: Option<shapes::Shapes>,
}

impl Compact {
    fn new<T: AsRef<[u32]>>(dfa: &dense::DFA<T>) -> Compact {
        // Row 0 is the dead state (whether or not the DFA can reach one);
        // then the live states breadth-first, the start state first.
        let live: Vec<StateID> = reachable_states(dfa)
            .into_iter()
            .filter(|&s| !dfa.is_dead_state(s))
            .collect();
        // Each live state's row, by its index in `dfa` (0: the dead state;
        // a table, not a hash map: it is read for every state and byte).
        let mut index = vec![0u32; live.iter().map(|&s| state_index(dfa, s) + 1).max().unwrap_or(0)];
        for (row, &s) in live.iter().enumerate() {
            index[state_index(dfa, s)] = row as u32 + 1;
        }
        let order: Vec<Option<StateID>> = std::iter::once(None)
            .chain(live.iter().copied().map(Some))
            .collect();
        let known = std::array::from_fn(|b| dfa.byte_classes().get(b as u8));
        let (classes, alphabet, mut trans) = class_table(order.len(), &known, |row, b| {
            order[row]
                .and_then(|s| index.get(state_index(dfa, dfa.next_state(s, b))).copied())
                .unwrap_or(0)
        });
        for t in &mut trans {
            *t *= alphabet as u32;
        }
        let accept = order
            .iter()
            .map(|s| s.is_some_and(|s| dfa.is_match_state(dfa.next_eoi_state(s))))
            .collect();
        Compact {
            classes,
            alphabet,
            trans,
            accept,
            // The start state is live unless the rule matches nothing.
            start: if live.is_empty() { 0 } else { alphabet as u32 },
            skip: bitpar::Acceleration::default(),
            shuffle: None,
            shapes: None,
        }
    }

    /// This table with its [`shuffle::Shuffle`] automaton (in the same
    /// wire bytes, after the loop sets).
    pub fn with_shuffle(mut self) -> Compact {
        self.shuffle = Some(shuffle::Shuffle::of(&self));
        self
    }

    /// Number of states (the dead state included).
    pub fn states(&self) -> usize {
        self.accept.len()
    }

    /// Whether the entries fit in 16 bits.
    pub fn fits_u16(&self) -> bool {
        self.trans.len() <= usize::from(u16::MAX)
    }

    /// The width of the table's words in bytes: 2 when
    /// [`Compact::fits_u16`], else 4.
    pub fn width(&self) -> u32 {
        if self.fits_u16() {
            2
        } else {
            4
        }
    }

    /// The table in the runtime's format ([`Kind::Table`]): the header,
    /// the class map, the transitions, then one word per state that is 1
    /// where the input may end; `big_endian` picks the byte order.
    pub fn to_bytes(&self, big_endian: bool) -> Vec<u8> {
        let mut out = Vec::new();
        let width = self.width();
        let words: Vec<u32> = self
            .trans
            .iter()
            .copied()
            .chain(self.accept.iter().map(|&a| u32::from(a)))
            .collect();
        let skip_from = if self.skip.sets.is_empty() {
            (self.states() * self.alphabet) as u32
        } else {
            self.skip.first
        };
        let params = [
            self.alphabet as u32,
            self.start,
            words.len() as u32,
            skip_from,
            self.skip.sets.len() as u32,
            u32::from(self.shuffle.is_some()),
            self.shuffle.as_ref().map_or(0, |sh| u32::from(sh.start)),
            u32::from(self.shapes.is_some()),
        ];
        rtwire::write_header(&mut out, Kind::Table, width, &params, big_endian);
        out.extend_from_slice(&self.classes);
        rtwire::write_words(&mut out, &words, width, big_endian);
        out.resize(out.len().next_multiple_of(4), 0);
        for set in &self.skip.sets {
            out.extend_from_slice(&set.to_runtime().to_record());
        }
        if let Some(sh) = &self.shuffle {
            // Its rows start at a multiple of 64 bytes, as vectors.
            out.resize(out.len().next_multiple_of(64), 0);
            out.extend_from_slice(&sh.to_bytes(self.alphabet, big_endian));
        }
        if let Some(sh) = &self.shapes {
            // Also from a multiple of 64 bytes.
            out.resize(out.len().next_multiple_of(64), 0);
            out.extend_from_slice(&sh.to_bytes());
        }
        out
    }

    /// The table in this machine's byte order, for walking it with the
    /// runtime ([`WireBytes::table`]).
    pub fn wire(&self) -> WireBytes {
        WireBytes::new(&self.to_bytes(NATIVE_BIG_ENDIAN))
    }
}

/// The reverse of a [`Compact`] DFA, for matching from both ends at once.
///
/// A state is the set of forward states from which the bytes read so far
/// (backwards, from the end of the input) lead to a match; it starts as the
/// accepting states. A forward walk over the first half of an input and a
/// reverse walk over the second half are two independent chains of table
/// lookups, which the CPU runs in parallel; the input matches exactly when
/// the forward walk's state is in the reverse walk's set. Built by subset
/// construction over the forward table's reversed transitions (the subsets
/// are what the meeting needs, so there is nothing to minimize), with the
/// forward table's byte classes.
#[derive(Clone, Debug)]
pub struct Reverse {
    /// `trans[r + c]`: the (premultiplied, by the forward table's alphabet)
    /// next state; state 0 is the empty set.
    pub trans: Vec<u32>,
    /// The (premultiplied) start state: the accepting forward states.
    pub start: u32,
    /// Per state, its set of forward states as a bitset of `set_words`
    /// 32-bit words (bit `q` is forward state `q`, unpremultiplied).
    pub sets: Vec<u32>,
    /// Words per set.
    pub set_words: usize,
}

impl Reverse {
    /// Number of states (the empty set included).
    pub fn states(&self) -> usize {
        self.sets.len() / self.set_words
    }

    /// Whether the entries fit in 16 bits.
    pub fn fits_u16(&self) -> bool {
        self.trans.len() <= usize::from(u16::MAX)
    }

    /// The automaton in the runtime's format ([`Kind::Reverse`]): the
    /// header, the transitions (16-bit words when [`Reverse::fits_u16`]),
    /// padding to 4 bytes, then the sets.
    pub fn to_bytes(&self, big_endian: bool) -> Vec<u8> {
        let mut out = Vec::new();
        let width = if self.fits_u16() { 2 } else { 4 };
        let params = [self.start, self.set_words as u32, self.trans.len() as u32];
        rtwire::write_header(&mut out, Kind::Reverse, width, &params, big_endian);
        rtwire::write_words(&mut out, &self.trans, width, big_endian);
        out.resize(out.len().next_multiple_of(4), 0);
        rtwire::write_words(&mut out, &self.sets, 4, big_endian);
        out
    }

    /// The automaton in this machine's byte order ([`WireBytes::reverse`]).
    pub fn wire(&self) -> WireBytes {
        WireBytes::new(&self.to_bytes(NATIVE_BIG_ENDIAN))
    }
}

impl Compact {
    /// The reverse automaton, or `None` when it would have more than
    /// `max_states` states.
    pub fn reverse(&self, max_states: usize) -> Option<Reverse> {
        let (n, a) = (self.states(), self.alphabet);
        let set_words = n.div_ceil(32);
        // For each class and target state, the states that move there.
        let mut preds: Vec<Vec<u32>> = vec![Vec::new(); a * n];
        for q in 1..n {
            for c in 0..a {
                let t = self.trans[q * a + c] as usize / a;
                if t != 0 {
                    preds[c * n + t].push(q as u32);
                }
            }
        }
        let mut start = vec![0u32; set_words];
        for (q, _) in self.accept.iter().enumerate().filter(|(_, &acc)| acc) {
            start[q / 32] |= 1 << (q % 32);
        }
        let mut sets: Vec<Vec<u32>> = vec![vec![0; set_words], start.clone()];
        let mut index: std::collections::HashMap<Vec<u32>, u32> =
            [(sets[0].clone(), 0), (start, 1)].into_iter().collect();
        let mut trans = vec![0u32; a];
        let mut i = 1;
        while i < sets.len() {
            for c in 0..a {
                let mut next = vec![0u32; set_words];
                for t in (0..n).filter(|&t| sets[i][t / 32] >> (t % 32) & 1 == 1) {
                    for &q in &preds[c * n + t] {
                        next[q as usize / 32] |= 1 << (q % 32);
                    }
                }
                let id = match index.get(&next) {
                    Some(&id) => id,
                    None => {
                        if sets.len() >= max_states {
                            return None;
                        }
                        let id = sets.len() as u32;
                        index.insert(next.clone(), id);
                        sets.push(next);
                        id
                    }
                };
                trans.push(id * a as u32);
            }
            i += 1;
        }
        Some(Reverse {
            trans,
            start: a as u32,
            sets: sets.concat(),
            set_words,
        })
    }
}

/// Whether a list of `element` (the DFA of its language `L`) can be read
/// item by item with the longest match at each step (what a generated
/// `List` does by default), given `plus`, the DFA of `L+`: the longest item
/// is then the only one after which the rest of a list can be read. That
/// holds unless some item `x` extends to a longer item `xz` whose extra part
/// `z` could begin the rest of a list (`*( "a" / "ab" / "bc" )` reads `abc`
/// as `a`, `bc`; the longest first item, `ab`, leaves `c`). It is found by
/// walking `element` from its accepting states together with `plus` from
/// its start. More than `max_pairs` state pairs is taken as "no".
pub fn longest_items_tile(element: &Compact, plus: &Compact, max_pairs: usize) -> bool {
    let accepts = |c: &Compact, s: u32| c.accept[s as usize / c.alphabet];
    let next = |c: &Compact, s: u32, b: u8| c.trans[s as usize + usize::from(c.classes[usize::from(b)])];
    if plus.start == 0 {
        return true;
    }
    let mut seen = std::collections::HashSet::new();
    let mut stack = Vec::new();
    for row in 1..element.states() {
        let s = (row * element.alphabet) as u32;
        if accepts(element, s) && seen.insert((s, plus.start)) {
            stack.push((s, plus.start));
        }
    }
    while let Some((a, b)) = stack.pop() {
        for byte in 0..=255u8 {
            let (a2, b2) = (next(element, a, byte), next(plus, b, byte));
            if a2 == 0 || b2 == 0 {
                continue;
            }
            if accepts(element, a2) {
                return false;
            }
            if seen.insert((a2, b2)) {
                if seen.len() > max_pairs {
                    return false;
                }
                stack.push((a2, b2));
            }
        }
    }
    true
}

/// Every state reachable from the anchored start state, in breadth-first
/// order (start state first).
pub fn reachable_states<T: AsRef<[u32]>>(dfa: &dense::DFA<T>) -> Vec<StateID> {
    let start = dfa
        .start_state(&start::Config::new().anchored(Anchored::Yes))
        .expect("anchored start states are built");
    let reps: Vec<u8> = dfa
        .byte_classes()
        .representatives(..)
        .filter_map(|u| u.as_u8())
        .collect();
    // Per state index, whether seen (a table, not a hash set: it is read
    // for every state and byte class).
    let mut seen = Vec::new();
    let mut mark = |s: StateID| {
        let i = state_index(dfa, s);
        if i >= seen.len() {
            seen.resize(i + 1, false);
        }
        !std::mem::replace(&mut seen[i], true)
    };
    mark(start);
    let mut order = vec![start];
    let mut i = 0;
    while i < order.len() {
        let s = order[i];
        i += 1;
        for &b in &reps {
            let t = dfa.next_state(s, b);
            if mark(t) {
                order.push(t);
            }
        }
    }
    order
}

/// The index of state `s` of `dfa` (its identifiers are premultiplied by
/// its stride, a power of two).
fn state_index<T: AsRef<[u32]>>(dfa: &dense::DFA<T>, s: StateID) -> usize {
    s.as_usize() >> dfa.stride2()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of `pattern` (also for the tests of the submodules).
    pub(super) fn compact(pattern: &str) -> Compact {
        let hir = regex_syntax::parse(pattern).unwrap();
        Automaton::build(&hir, Limits::default()).unwrap().compact()
    }

    /// Every string over `alphabet` up to `max` bytes long.
    pub(super) fn strings(alphabet: &[u8], max: usize) -> Vec<Vec<u8>> {
        let mut all = vec![Vec::new()];
        let mut last = vec![Vec::new()];
        for _ in 0..max {
            last = last
                .iter()
                .flat_map(|s: &Vec<u8>| {
                    alphabet.iter().map(move |&b| {
                        let mut t = s.clone();
                        t.push(b);
                        t
                    })
                })
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    #[test]
    fn reverse_meets_forward_on_every_short_string() {
        for pattern in [
            "(ab|a)*c?",
            "[a-c]*b[a-c]{2}",
            "(a|b)*abb",
            "a{0,3}(bc)+",
            "[^a]*a[^a]*",
        ] {
            let fwd = compact(pattern);
            let rev = fwd.reverse(10_000).expect("small");
            let (fwd, rev) = (fwd.wire(), rev.wire());
            let (fwd, rev) = (fwd.table(), rev.reverse());
            for s in strings(b"abcd", 7) {
                assert_eq!(
                    fwd.full_match_both_ends(&rev, &s),
                    fwd.full_match(&s).is_ok(),
                    "{pattern} on {:?}",
                    String::from_utf8_lossy(&s)
                );
            }
        }
    }

    #[test]
    fn reverse_meets_forward_on_long_inputs() {
        // Past 128 bytes the walk checks for the dead states per chunk.
        let fwd = compact("(ab|a)*c?");
        let rev = fwd.reverse(10_000).expect("small");
        let (fwd, rev) = (fwd.wire(), rev.wire());
        let (fwd, rev) = (fwd.table(), rev.reverse());
        for n in [129, 200, 301] {
            let good: Vec<u8> = b"ab".iter().copied().cycle().take(n).chain(*b"c").collect();
            let mut bad = good.clone();
            bad[n / 3] = b'c';
            assert!(fwd.full_match_both_ends(&rev, &good));
            assert!(!fwd.full_match_both_ends(&rev, &bad));
        }
        // Another automaton, inputs of every shape up to 5 bytes.
        let big = compact("[a-c]*b[a-c]{2}x?y?z?");
        let big_rev = big.reverse(10_000).expect("small");
        let (big, big_rev) = (big.wire(), big_rev.wire());
        let (big, big_rev) = (big.table(), big_rev.reverse());
        for s in strings(b"abcxyz", 5) {
            assert_eq!(big.full_match_both_ends(&big_rev, &s), big.full_match(&s).is_ok());
        }
    }

    #[test]
    fn a_table_whose_transition_or_class_points_outside_it_is_refused() {
        use abnf_runtime::wire::WireError;

        let c = compact("[a-c]*b[a-c]{2}");
        let mut far = c.clone();
        far.trans[3] = (far.states() * far.alphabet) as u32;
        assert_eq!(
            abnf_runtime::Table::from_bytes(far.wire().bytes()).map(|_| ()),
            Err(WireError::OutOfRange)
        );
        let mut class = c.clone();
        class.classes[7] = class.alphabet as u8;
        assert_eq!(
            abnf_runtime::Table::from_bytes(class.wire().bytes()).map(|_| ()),
            Err(WireError::OutOfRange)
        );
        assert!(abnf_runtime::Table::from_bytes(c.wire().bytes()).is_ok());
    }

    #[test]
    fn reverse_gives_up_past_its_state_limit() {
        // "The 13th byte is `a`" is a small forward automaton (it counts to
        // 13), but read from the end the count is unknown: the reverse
        // automaton remembers which of the bytes read were `a`s.
        let fwd = compact("[ab]{12}a[ab]*");
        assert!(fwd.states() < 20);
        assert!(fwd.reverse(100).is_none());
    }
}
