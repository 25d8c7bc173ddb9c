//! Whether a dense DFA is already minimal, so that `regex-automata`'s
//! minimizer would leave it as it is.
//!
//! A rule composed part by part ([`Composer`](super::Composer)) is already
//! a minimal DFA, which `regex-automata` determinizes again from its NFA
//! form; the result is minimal too unless it gives one state two DFA states
//! (RFC 3986's `path`). Its minimizer (Hopcroft's, over sets behind
//! `Rc<RefCell<_>>`) then merges nothing, but took a third of `check`'s time
//! on RFC 3261, where 122 of the 127 composed rules are minimal already.
//! When no two states are equivalent its partitions are singletons, each
//! state its own representative, and the DFA it writes back is the same
//! table, state for state, with the same special-state ranges (the tests
//! compare them): so a DFA shown minimal here is built with its minimizer
//! off, and only the others with it on.
//!
//! The minimizer's states are all of the DFA's, reachable or not, with the
//! dead and quit states, and its first partition puts match states, the
//! quit state and the others apart; so does this check, with the
//! partition refinement of [`super::minimize`]. The number of states is
//! not public: it is read from the serialized header (label, endianness
//! check, version, an unused word and the flags, then the transition
//! table's state count), only when the version is the one this layout was
//! read from. Any doubt (another version, a state that is out of range)
//! answers "not known to be minimal", and the minimizer runs. States the
//! start does not reach (`regex-automata` often leaves one) are told apart
//! ([`Minimality::ReachedPartMinimal`]): minimizing can only merge or drop
//! those, so the tables built from the start are the same either way, and
//! the caller may skip the minimizer where it is slow.

use regex_automata::dfa::{dense, Automaton as _};
use regex_automata::util::primitives::StateID;
use regex_automata::util::start;
use regex_automata::Anchored;

use super::minimize::Partition;

/// The serialized dense DFA format whose header [`state_count`] reads.
const DENSE_VERSION: u32 = 2;

/// Where the version and the transition table's state count are in the
/// serialized header: after the label (`rust-regex-automata-dfa-dense`, a
/// NUL, padded to 32 bytes) and the endianness check; the count after the
/// version, an unused word and the flags.
const VERSION_AT: usize = 36;
const STATES_AT: usize = 48;

/// What is known of a dense DFA's minimality.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Minimality {
    /// Every state is distinguishable from every other one, as
    /// `regex-automata`'s minimizer tells them apart: it would return the
    /// same table.
    Minimal,
    /// The states the start reaches are pairwise distinguishable, and some
    /// states it does not reach: minimizing would merge or drop only
    /// those, so what a walk from the start sees (the runtime's tables,
    /// built from the start) is the same either way.
    ReachedPartMinimal,
    /// Not known.
    Unknown,
}

/// Whether every state of `dfa` is distinguishable from every other one,
/// as `regex-automata`'s minimizer tells them apart; `false` when that is
/// not certain.
#[cfg(test)]
pub(crate) fn is_minimal(dfa: &dense::DFA<Vec<u32>>) -> bool {
    minimality(dfa) == Minimality::Minimal
}

/// How far `dfa` is known to be minimal.
pub(crate) fn minimality(dfa: &dense::DFA<Vec<u32>>) -> Minimality {
    use Minimality::Unknown;
    let Some(states) = state_count(dfa) else {
        return Unknown;
    };
    let Ok(start) = dfa.start_state(&start::Config::new().anchored(Anchored::Yes)) else {
        return Unknown;
    };
    let stride2 = dfa.stride2();
    let index = |id: StateID| id.as_usize() >> stride2;
    // The dead state 0 and the quit state 1 are always there.
    let Some(quit) = StateID::new(1 << stride2).ok() else {
        return Unknown;
    };
    let units: Vec<_> = dfa.byte_classes().representatives(..).collect();
    let k = units.len();
    let mut trans = vec![0u32; states * k];
    let mut labels = vec![0u32; states];
    let mut seen = vec![false; states];
    let mut order = Vec::with_capacity(states);
    for id in [StateID::ZERO, quit, start] {
        match seen.get_mut(index(id)) {
            Some(s) if !*s => {
                *s = true;
                order.push(id);
            }
            Some(_) => {}
            None => return Unknown,
        }
    }
    let mut i = 0;
    while let Some(&id) = order.get(i) {
        i += 1;
        let q = index(id);
        labels[q] = if dfa.is_match_state(id) {
            1
        } else if dfa.is_quit_state(id) {
            2
        } else {
            0
        };
        for (c, unit) in units.iter().enumerate() {
            let t = match unit.as_u8() {
                Some(b) => dfa.next_state(id, b),
                None => dfa.next_eoi_state(id),
            };
            let Some(s) = seen.get_mut(index(t)) else {
                return Unknown;
            };
            if !*s {
                *s = true;
                order.push(t);
            }
            trans[q * k + c] = index(t) as u32;
        }
    }
    // The rows of states nothing reaches are left as the dead state's
    // (every class to 0, no match): they join its block, and the reached
    // states are pairwise distinguishable exactly when there are as many
    // blocks as reached states. A state nothing reaches is one the
    // minimizer sees and the walk from the start does not.
    let reached = order.len();
    match Partition::refine(k, &trans, &labels).blocks() {
        b if b == states && reached == states => Minimality::Minimal,
        b if b == reached => Minimality::ReachedPartMinimal,
        _ => Unknown,
    }
}

/// The number of states in `dfa`'s transition table, read from its
/// serialized header, or `None` if the format is not the one known.
fn state_count(dfa: &dense::DFA<Vec<u32>>) -> Option<usize> {
    let (bytes, pad) = dfa.to_bytes_native_endian();
    let header = bytes.get(pad..)?;
    let word =
        |at: usize| -> Option<u32> { Some(u32::from_ne_bytes(header.get(at..at + 4)?.try_into().ok()?)) };
    if !header.starts_with(b"rust-regex-automata-dfa-dense\0") || word(VERSION_AT)? != DENSE_VERSION {
        return None;
    }
    usize::try_from(word(STATES_AT)?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_automata::nfa::thompson;

    /// The dense DFA of `pattern` (anchored, full match), minimized or not.
    fn dense(pattern: &str, minimize: bool) -> dense::DFA<Vec<u32>> {
        let nfa = thompson::NFA::new(&format!("(?:{pattern})\\z")).unwrap();
        super::super::dense_from_nfa(&nfa, minimize, usize::MAX, usize::MAX).unwrap()
    }

    #[test]
    fn a_dfa_shown_minimal_is_what_the_minimizer_returns() {
        let mut minimal = 0;
        for pattern in [
            "a",
            "abc",
            "[a-c]*b[a-c]{2}",
            "(ab|a)*c?",
            "(a|b)*abb",
            "a{0,3}(bc)+",
            "[^a]*a[^a]*",
            "x|y|z",
            "(?:ab)+|(?:ab)*c",
            "[0-9]{1,3}(\\.[0-9]{1,3}){3}",
            "(a|ab)(c|bcd)",
            "[a-z]+@[a-z]+(\\.[a-z]+)*",
            "",
            "[^\\x00-\\xff]",
        ] {
            let off = dense(pattern, false);
            let on = dense(pattern, true);
            if is_minimal(&off) {
                minimal += 1;
                assert_eq!(
                    off.to_bytes_native_endian(),
                    on.to_bytes_native_endian(),
                    "{pattern}"
                );
            }
            // The minimized DFA is minimal, as this check sees it too.
            assert!(is_minimal(&on), "{pattern}");
        }
        assert!(minimal >= 5, "only {minimal} minimal before minimizing");
    }

    #[test]
    fn a_dfa_with_equivalent_states_is_not_minimal() {
        // Two routes to the same rest: regex-automata keeps both.
        let off = dense("ab|cb", false);
        let on = dense("ab|cb", true);
        assert!(state_count(&off) > state_count(&on));
        assert!(!is_minimal(&off));
    }
}
