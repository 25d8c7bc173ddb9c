//! HIR → minimized anchored dense DFA, and its serialized form.

use std::time::{Duration, Instant};

use regex_automata::dfa::{dense, Automaton as _, StartKind};
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::util::primitives::StateID;
use regex_automata::util::start;
use regex_automata::{Anchored, MatchKind};
use regex_syntax::hir::Hir;

use crate::regular::anchored_full;

/// DFAs with more states than this (before minimization) are not
/// minimized. RFC 3987's `IRI-reference` has about 1,600.
pub const MAX_MINIMIZE_STATES: usize = 20_000;

/// Size limits for building automata. A grammar that exceeds one gets an
/// error naming the rule and the limit, not an out-of-memory.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Bytes of heap the Thompson NFA may use.
    pub nfa_bytes: usize,
    /// Bytes the final (minimized) DFA may use.
    pub dfa_bytes: usize,
    /// Bytes the subset construction may use while determinizing.
    pub determinize_bytes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        // Generous for URI grammars (RFC 3987's IRI-reference needs about
        // 1 MB to determinize and 160 KB minimized) while keeping a
        // pathological grammar well inside this machine's memory.
        Limits {
            nfa_bytes: 64 << 20,
            dfa_bytes: 64 << 20,
            determinize_bytes: 256 << 20,
        }
    }
}

/// Why an automaton could not be built.
#[derive(Clone, Debug)]
pub enum BuildError {
    /// The NFA exceeded [`Limits::nfa_bytes`].
    NfaTooBig(String),
    /// The DFA exceeded a DFA limit.
    DfaTooBig(String),
}

/// A built DFA for one rule, with what it cost.
pub struct Automaton {
    /// The minimized DFA that recognizes exactly the rule (full match).
    pub dfa: dense::DFA<Vec<u32>>,
    /// States in the Thompson NFA.
    pub nfa_states: usize,
    /// Time to compile the NFA, determinize and minimize.
    pub build_time: Duration,
}

impl Automaton {
    /// Compiles `(?:hir)\z` into a minimized, anchored dense DFA.
    pub fn build(hir: &Hir, limits: Limits) -> Result<Automaton, BuildError> {
        let t0 = Instant::now();
        let nfa = thompson::Compiler::new()
            .configure(
                thompson::Config::new()
                    // Recognizers report match/no match and where a match
                    // failed; capture states would only enlarge the NFA.
                    .which_captures(WhichCaptures::None)
                    .nfa_size_limit(Some(limits.nfa_bytes)),
            )
            .build_from_hir(&anchored_full(hir.clone()))
            .map_err(|e| BuildError::NfaTooBig(e.to_string()))?;
        let config = |minimize: bool| {
            dense::Config::new()
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
                .dfa_size_limit(Some(limits.dfa_bytes))
                .determinize_size_limit(Some(limits.determinize_bytes))
        };
        let build = |minimize| {
            dense::Builder::new()
                .configure(config(minimize))
                .build_from_nfa(&nfa)
                .map_err(|e| BuildError::DfaTooBig(e.to_string()))
        };
        // regex-automata's minimizer takes time quadratic in the states of
        // long chains (`65536"x"` takes minutes): determinize first, and
        // minimize only automata of a size real grammars have.
        let mut dfa = build(false)?;
        if reachable_states(&dfa).len() <= MAX_MINIMIZE_STATES {
            dfa = build(true)?;
        }
        Ok(Automaton {
            nfa_states: nfa.states().len(),
            dfa,
            build_time: t0.elapsed(),
        })
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

    /// The compact table the generated recognizer walks.
    pub fn compact(&self) -> Compact {
        Compact::new(&self.dfa)
    }

    /// Full match of `input`: `Ok(())`, or `Err(offset)` where offset is the
    /// length of the longest prefix that can still be extended to a match.
    pub fn full_match(&self, input: &[u8]) -> Result<(), usize> {
        full_match(&self.dfa, input)
    }
}

/// Builds the minimized tagged DFA of a HIR with capture groups.
pub fn tagged(hir: &Hir, limits: Limits) -> Result<crate::tagged::TaggedDfa, BuildError> {
    let nfa = thompson::Compiler::new()
        .configure(
            thompson::Config::new()
                // The capture groups are the tags.
                .which_captures(WhichCaptures::All)
                .nfa_size_limit(Some(limits.nfa_bytes)),
        )
        .build_from_hir(hir)
        .map_err(|e| BuildError::NfaTooBig(e.to_string()))?;
    let mut dfa =
        crate::tagged::TaggedDfa::build(&nfa).map_err(|e| BuildError::DfaTooBig(format!("{e:?}")))?;
    dfa.minimize();
    dfa.merge_classes();
    if dfa.registers > crate::tagged::MAX_REGISTERS {
        return Err(BuildError::DfaTooBig(format!(
            "the tagged DFA needs {} registers, more than the runtime's {}",
            dfa.registers,
            crate::tagged::MAX_REGISTERS
        )));
    }
    if dfa.to_words().is_none() {
        return Err(BuildError::DfaTooBig(format!(
            "{} states or {} register operation lists do not fit the runtime's 32-bit transitions",
            dfa.states(),
            dfa.op_lists.len()
        )));
    }
    Ok(dfa)
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
}

impl Compact {
    fn new<T: AsRef<[u32]>>(dfa: &dense::DFA<T>) -> Compact {
        // Row 0 is the dead state (whether or not the DFA can reach one);
        // then the live states breadth-first, the start state first.
        let live: Vec<StateID> = reachable_states(dfa)
            .into_iter()
            .filter(|&s| !dfa.is_dead_state(s))
            .collect();
        let index: std::collections::HashMap<StateID, usize> =
            live.iter().enumerate().map(|(i, &s)| (s, i + 1)).collect();
        let order: Vec<Option<StateID>> = std::iter::once(None)
            .chain(live.iter().copied().map(Some))
            .collect();
        // Columns: for each byte, the next state of every state.
        let column = |b: u8| -> Vec<usize> {
            order
                .iter()
                .map(|s| {
                    s.and_then(|s| index.get(&dfa.next_state(s, b)).copied())
                        .unwrap_or(0)
                })
                .collect()
        };
        let mut classes = [0u8; 256];
        let mut reps: Vec<Vec<usize>> = Vec::new();
        for b in 0..=255u8 {
            let col = column(b);
            let c = match reps.iter().position(|r| *r == col) {
                Some(c) => c,
                None => {
                    reps.push(col);
                    reps.len() - 1
                }
            };
            classes[b as usize] = c as u8;
        }
        let alphabet = reps.len();
        let mut trans = vec![0u32; order.len() * alphabet];
        for (c, col) in reps.iter().enumerate() {
            for (s, &t) in col.iter().enumerate() {
                trans[s * alphabet + c] = (t * alphabet) as u32;
            }
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
        }
    }

    /// Number of states (the dead state included).
    pub fn states(&self) -> usize {
        self.accept.len()
    }

    /// Whether the entries fit in 16 bits.
    pub fn fits_u16(&self) -> bool {
        self.trans.len() <= usize::from(u16::MAX)
    }

    /// The table's words as the runtime reads them: the transitions, then one
    /// word per state that is 1 where the input may end. 16-bit words when
    /// [`Compact::fits_u16`], else 32-bit; `big_endian` picks the byte order.
    pub fn to_bytes(&self, big_endian: bool) -> Vec<u8> {
        let words = self
            .trans
            .iter()
            .copied()
            .chain(self.accept.iter().map(|&a| u32::from(a)));
        let mut out = Vec::new();
        for w in words {
            if self.fits_u16() {
                let w = w as u16;
                out.extend(if big_endian {
                    w.to_be_bytes()
                } else {
                    w.to_le_bytes()
                });
            } else {
                out.extend(if big_endian {
                    w.to_be_bytes()
                } else {
                    w.to_le_bytes()
                });
            }
        }
        out
    }

    /// Full match, the way the generated code runs it.
    pub fn full_match(&self, input: &[u8]) -> Result<(), usize> {
        let mut s = self.start as usize;
        for (i, &b) in input.iter().enumerate() {
            s = self.trans[s + self.classes[b as usize] as usize] as usize;
            if s == 0 {
                return Err(i);
            }
        }
        if self.accept[s / self.alphabet] {
            Ok(())
        } else {
            Err(input.len())
        }
    }
}

/// The recognizer loop shared with the runtime: walk, stop at the dead state,
/// take the end-of-input transition.
pub fn full_match<T: AsRef<[u32]>>(dfa: &dense::DFA<T>, input: &[u8]) -> Result<(), usize> {
    let start: StateID = dfa
        .start_state(&start::Config::new().anchored(Anchored::Yes))
        .expect("anchored start states are built");
    let mut s = start;
    for (i, &b) in input.iter().enumerate() {
        s = dfa.next_state(s, b);
        if dfa.is_dead_state(s) {
            return Err(i);
        }
    }
    if dfa.is_match_state(dfa.next_eoi_state(s)) {
        Ok(())
    } else {
        Err(input.len())
    }
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
    let mut seen = std::collections::HashSet::from([start]);
    let mut order = vec![start];
    let mut i = 0;
    while i < order.len() {
        let s = order[i];
        i += 1;
        for &b in &reps {
            let t = dfa.next_state(s, b);
            if seen.insert(t) {
                order.push(t);
            }
        }
    }
    order
}
