//! A recognizer's DFA as a *shuffle automaton* (Hyperscan's "Sheng"): up
//! to 64 of its states, numbered as lanes of a 64-byte vector, with one
//! vector per input byte that maps every lane to the lane of its next
//! state. The runtime walks a short input with one byte-permute
//! instruction per byte (`vpermb`, AVX-512 VBMI) instead of one dependent
//! table load per byte, and walks four quarters of the input at once: a
//! quarter walked from the identity vector gives the state it ends in from
//! *every* lane, and composing the four vectors gives the state the whole
//! input ends in (the enumerative walk of Mytkowicz, Musuvathi and
//! Schulte, "Data-parallel finite-state machines", ASPLOS 2014, which the
//! 64 lanes make free).
//!
//! Lane 0 is the dead state; lane [`ESCAPE`] stands for every state that
//! did not get a lane, and maps to itself. When a DFA has more than 63
//! states, the generator keeps those a random input is most likely to
//! visit ([`hot_states`]); an input that reaches another one ends in the
//! escape lane and is walked again by the table, so the answer never
//! depends on the choice, only the speed does.

use super::Compact;

/// Lanes of the vector: the states a shuffle automaton holds, with the
/// dead state and the escape lane.
pub const LANES: usize = 64;

/// The lane of every state without a lane of its own.
pub const ESCAPE: u8 = (LANES - 1) as u8;

/// How many steps of the random walk [`hot_states`] follows: the length of
/// the inputs the shuffle automaton is for.
pub const WALK: usize = 96;

/// How likely a non-ASCII byte is, against an ASCII one, in the random
/// input of [`hot_states`]: all 128 together as likely as one ASCII byte,
/// as in text that is mostly ASCII (a UTF-8 character's later bytes are
/// not rare once it has started: a state that only continues characters
/// passes on all its mass).
pub const NON_ASCII_WEIGHT: f64 = 1.0 / 128.0;

/// A [`Compact`] DFA's states as lanes, and its transitions per byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shuffle {
    /// `rows[b][j]`: the lane of the state that byte `b` leads lane `j` to.
    pub rows: Vec<[u8; LANES]>,
    /// `accept[j]` is 1 when lane `j`'s state accepts.
    pub accept: [u8; LANES],
    /// The start state's lane.
    pub start: u8,
    /// The (unpremultiplied) [`Compact`] state of each lane, dead state
    /// first, escape lane left out.
    pub states: Vec<usize>,
}

impl Shuffle {
    /// The shuffle automaton of `c`: all its states when they fit, else
    /// the dead state and the 62 [`hot_states`].
    pub fn of(c: &Compact) -> Shuffle {
        let a = c.alphabet;
        let mut states = vec![0];
        states.extend(hot_states(c, LANES - 2));
        let mut lane = vec![ESCAPE; c.states()];
        for (j, &s) in states.iter().enumerate() {
            lane[s] = j as u8;
        }
        let rows = (0..=255u8)
            .map(|b| {
                let k = usize::from(c.classes[usize::from(b)]);
                let mut row = [ESCAPE; LANES];
                for (j, &s) in states.iter().enumerate() {
                    row[j] = lane[c.trans[s * a + k] as usize / a];
                }
                row
            })
            .collect();
        let mut accept = [0; LANES];
        for (j, &s) in states.iter().enumerate() {
            accept[j] = u8::from(c.accept[s]);
        }
        Shuffle {
            rows,
            accept,
            start: lane[c.start as usize / a],
            states,
        }
    }

    /// Bytes in the runtime's format: the rows, the accept lanes, then
    /// each lane's state in the table (premultiplied by `alphabet`; 0 for
    /// the escape lane), as 32-bit words in the given byte order.
    pub fn to_bytes(&self, alphabet: usize, big_endian: bool) -> Vec<u8> {
        let mut out = Vec::with_capacity((self.rows.len() + 1) * LANES + 4 * LANES);
        for row in &self.rows {
            out.extend_from_slice(row);
        }
        out.extend_from_slice(&self.accept);
        for j in 0..LANES {
            let state = self.states.get(j).map_or(0, |&s| (s * alphabet) as u32);
            out.extend_from_slice(&if big_endian {
                state.to_be_bytes()
            } else {
                state.to_le_bytes()
            });
        }
        out
    }
}

/// The `n` live states (start first) that a random input visits most, by
/// the expected number of visits in a walk of [`WALK`] bytes that starts
/// in the start state and reads, in each state, one of the bytes that
/// keep it alive, each ASCII byte as likely as the others (and the others
/// rarer, [`NON_ASCII_WEIGHT`]). A state behind a rare
/// byte (`[` before an IP literal) gets little of the mass, a state that
/// loops on many bytes (a path, a query) keeps what it gets. All live
/// states when there are at most `n`.
pub fn hot_states(c: &Compact, n: usize) -> Vec<usize> {
    let (states, a) = (c.states(), c.alphabet);
    let start = c.start as usize / a;
    if start == 0 {
        return Vec::new();
    }
    // Each state's successors, each as likely as the others when an
    // ASCII byte leads there, and [`NON_ASCII_WEIGHT`] as likely when
    // only other bytes do.
    let edges: Vec<Vec<(usize, f64)>> = (0..states)
        .map(|s| {
            let mut weight: Vec<(usize, f64)> = Vec::new();
            for (b, &k) in c.classes.iter().enumerate() {
                let t = c.trans[s * a + usize::from(k)] as usize / a;
                if t == 0 {
                    continue;
                }
                let w = if b < 0x80 { 1.0 } else { NON_ASCII_WEIGHT };
                match weight.iter_mut().find(|(u, _)| *u == t) {
                    Some((_, x)) => *x = x.max(w),
                    None => weight.push((t, w)),
                }
            }
            let total: f64 = weight.iter().map(|&(_, w)| w).sum();
            weight.into_iter().map(|(t, w)| (t, w / total)).collect()
        })
        .collect();
    let mut mass = vec![0f64; states];
    mass[start] = 1.0;
    let mut score = mass.clone();
    for _ in 0..WALK {
        let mut next = vec![0f64; states];
        for (s, m) in mass.iter().enumerate().filter(|(_, m)| **m > 0.0) {
            for &(t, p) in &edges[s] {
                next[t] += m * p;
            }
        }
        for (acc, m) in score.iter_mut().zip(&next) {
            *acc += m;
        }
        mass = next;
    }
    // The start state always has a lane; then by score, ties by number.
    let mut order: Vec<usize> = (1..states).filter(|&s| s != start && score[s] > 0.0).collect();
    order.sort_by(|&x, &y| score[y].total_cmp(&score[x]).then(x.cmp(&y)));
    let mut hot = vec![start];
    hot.extend(order.into_iter().take(n.saturating_sub(1)));
    hot
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::automata::tests::{compact, strings};

    impl Shuffle {
        /// The lane after `input` from lane `from`, one byte at a time
        /// (what the runtime's walk computes).
        fn walk(&self, from: u8, input: &[u8]) -> u8 {
            input
                .iter()
                .fold(from, |j, &b| self.rows[usize::from(b)][usize::from(j)])
        }
    }

    /// The lane walk ends in the table walk's state, or in the escape lane
    /// when the table walk passed a state without a lane.
    fn agrees(c: &Compact, sh: &Shuffle, input: &[u8]) {
        let a = c.alphabet;
        let mut s = c.start as usize / a;
        let mut escaped = !sh.states.contains(&s);
        for &b in input {
            s = c.trans[s * a + usize::from(c.classes[usize::from(b)])] as usize / a;
            escaped |= !sh.states.contains(&s);
        }
        let j = sh.walk(sh.start, input);
        if escaped {
            assert_eq!(j, ESCAPE, "{input:?}");
        } else {
            assert_eq!(sh.states[usize::from(j)], s, "{input:?}");
            assert_eq!(sh.accept[usize::from(j)] == 1, c.accept[s], "{input:?}");
        }
    }

    #[test]
    fn a_small_dfa_gets_every_state() {
        let c = compact(r"[a-z]+(:[0-9]{1,3})?");
        let sh = Shuffle::of(&c);
        assert_eq!(sh.states.len(), c.states());
        for s in strings(b"a:9/", 6) {
            agrees(&c, &sh, &s);
        }
    }

    #[test]
    fn a_large_dfa_escapes_from_the_states_left_out() {
        // 100 counting states: only 62 live ones get lanes.
        let c = compact(r"x(a{0,100}|[b-z]*)");
        let sh = Shuffle::of(&c);
        assert!(sh.states.len() < c.states());
        assert_eq!(sh.states.len(), LANES - 1);
        for s in strings(b"xab", 5).into_iter().chain([
            b"xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".to_vec(),
        ]) {
            agrees(&c, &sh, &s);
        }
        // The loop on [b-z] is hot, the far end of the count is not.
        let deep = b"xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
        assert_eq!(sh.walk(sh.start, deep), ESCAPE);
        assert_ne!(sh.walk(sh.start, b"xbcdefghijklmnop"), ESCAPE);
    }

    #[test]
    fn the_runtime_reads_it_from_the_table_and_refuses_it_cut_short() {
        use crate::wire::{WireBytes, NATIVE_BIG_ENDIAN};
        use abnf_runtime::simd::Level;
        use abnf_runtime::wire::WireError;

        let c = compact(r"x(a{0,100}|[b-z]*)").with_shuffle();
        let bytes = c.to_bytes(NATIVE_BIG_ENDIAN);
        let wire = WireBytes::new(&bytes);
        let table = wire.table();
        let sh = table.shuffle().expect("the table carries it");
        for level in [Level::Scalar, Level::detected()] {
            assert_eq!(sh.full_match(b"xbcd", level), Some(true));
            assert_eq!(sh.full_match(b"xab", level), Some(false));
            assert_eq!(sh.full_match(&[b'a'; 90], level), Some(false));
            assert_eq!(
                sh.full_match(&[b"x".as_slice(), &[b'a'; 90]].concat(), level),
                None
            );
            // The state after a prefix is the table's.
            assert_eq!(sh.state_after(b"xb", level), Some(table.state_after(b"xb")));
        }
        let short = WireBytes::new(&bytes[..bytes.len() - 4]);
        assert_eq!(
            abnf_runtime::Table::from_bytes(short.bytes()).map(|_| ()),
            Err(WireError::Truncated)
        );
    }

    #[test]
    fn the_start_state_has_a_lane_and_a_dead_dfa_has_one_state() {
        let c = compact(r"[a-z]{3}");
        assert_eq!(hot_states(&c, 1), vec![c.start as usize / c.alphabet]);
        let sh = Shuffle::of(&c);
        assert_eq!(sh.walk(sh.start, b"ab1"), 0);
    }
}
