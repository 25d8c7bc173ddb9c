//! Minimizing the parts of [`compose`](super::compose) in place, by
//! Hopcroft's partition refinement over byte classes ([`Partition`], also
//! what [`already_minimal`](super::already_minimal) and the tagged DFAs'
//! minimization refine with).
//!
//! The parts used to be minimized by a round trip through `regex-automata`
//! (the DFA as a deterministic NFA, determinized again with its minimizer
//! on, then read back as a [`Compact`](super::Compact)). Its minimizer
//! took half of the generator's time on RFC 5322 with `; @depth comment 3`,
//! where hundreds of parts are minimized. This one refines the states'
//! partition with the smaller half of every split (O(n k log n) for `n`
//! states and `k` classes) and numbers the result as `Compact::new` does:
//! the dead state 0, then the live states breadth-first from the start,
//! successors in the order of their smallest byte, and the coarsest byte
//! classes, numbered by their smallest byte. So it returns the same table
//! as the round trip did (the tests compare them on random automata and
//! on composed rules).

use super::compose::Dfa;

/// The minimal DFA of `dfa`'s language, numbered canonically.
pub(crate) fn minimize(dfa: &Dfa) -> Dfa {
    let blocks = Partition::coarsest(dfa);
    quotient(dfa, &blocks)
}

/// A partition of the states into blocks, each block a range of `elems`.
pub(crate) struct Partition {
    /// The states, grouped by block.
    elems: Vec<u32>,
    /// Where each state is in `elems`.
    loc: Vec<u32>,
    /// Each state's block.
    block_of: Vec<u32>,
    /// Each block's range of `elems`.
    ranges: Vec<(u32, u32)>,
}

impl Partition {
    /// The coarsest partition that separates accepting from other states
    /// and is stable under every class: the states the minimal DFA merges
    /// share a block.
    fn coarsest(dfa: &Dfa) -> Partition {
        let labels: Vec<u32> = dfa.accept.iter().map(|&a| u32::from(!a)).collect();
        Partition::refine(dfa.alphabet, &dfa.trans, &labels)
    }

    /// The coarsest partition of the states of the table `trans` (`k`
    /// columns, `trans[q * k + c]` not premultiplied) that separates states
    /// of different `labels` and is stable under every column.
    pub(crate) fn refine(k: usize, trans: &[u32], labels: &[u32]) -> Partition {
        let n = labels.len();
        // Predecessors by class, as `preds[offsets[t * k + c]..][..]`: a
        // state's classes side by side, so that a splitter's predecessors
        // are read in one sweep of its states (see `by_class` below).
        let mut offsets = vec![0u32; k * n + 1];
        for q in 0..n {
            for c in 0..k {
                offsets[trans[q * k + c] as usize * k + c + 1] += 1;
            }
        }
        for i in 1..offsets.len() {
            offsets[i] += offsets[i - 1];
        }
        let mut fill = offsets.clone();
        let mut preds = vec![0u32; n * k];
        for q in 0..n {
            for c in 0..k {
                let slot = &mut fill[trans[q * k + c] as usize * k + c];
                preds[*slot as usize] = q as u32;
                *slot += 1;
            }
        }
        // The states grouped by label, a block per label.
        let mut elems: Vec<u32> = (0..n as u32).collect();
        elems.sort_by_key(|&q| labels[q as usize]);
        let mut p = Partition {
            loc: vec![0; n],
            block_of: vec![0; n],
            ranges: Vec::new(),
            elems,
        };
        for (i, &q) in p.elems.iter().enumerate() {
            p.loc[q as usize] = i as u32;
        }
        let mut work = Vec::new();
        let mut lo = 0;
        while lo < n {
            let label = labels[p.elems[lo] as usize];
            let hi = lo
                + p.elems[lo..]
                    .iter()
                    .take_while(|&&q| labels[q as usize] == label)
                    .count();
            let b = p.ranges.len() as u32;
            for &q in &p.elems[lo..hi] {
                p.block_of[q as usize] = b;
            }
            p.ranges.push((lo as u32, hi as u32));
            work.push(b);
            lo = hi;
        }
        let mut in_work = vec![true; p.ranges.len()];
        // Every block but the largest is a first splitter: a partition
        // stable under all the others is stable under it too (every state
        // has one successor per class, so its predecessors on a class are
        // the states whose successor is in none of the others). Hopcroft's
        // own saving; the coarsest stable partition is the same, only the
        // numbering of its blocks, which no caller reads, may differ.
        if let Some(largest) = (0..p.ranges.len()).max_by_key(|&b| {
            let (lo, hi) = p.ranges[b];
            hi - lo
        }) {
            in_work[largest] = false;
            work.retain(|&b| b as usize != largest);
        }
        // Per block, how many of its states the current splitter marked
        // (moved to the front of its range).
        let mut marked: Vec<u32> = vec![0; p.ranges.len()];
        let mut touched: Vec<u32> = Vec::new();
        // The splitter's predecessors by class, in the order of its states
        // (most of its states have none on most classes: reading them
        // class by class missed the cache for each state and class).
        let mut by_class: Vec<Vec<u32>> = vec![Vec::new(); k];
        while let Some(s) = work.pop() {
            in_work[s as usize] = false;
            let (lo, hi) = p.ranges[s as usize];
            for &t in &p.elems[lo as usize..hi as usize] {
                let at = t as usize * k;
                for (c, preds_c) in by_class.iter_mut().enumerate() {
                    preds_c.extend_from_slice(&preds[offsets[at + c] as usize..offsets[at + c + 1] as usize]);
                }
            }
            for preds_c in by_class.iter_mut() {
                for &q in preds_c.iter() {
                    // A state has one successor per class, so it is marked
                    // at most once per class.
                    let b = p.block_of[q as usize] as usize;
                    if marked[b] == 0 {
                        touched.push(b as u32);
                    }
                    p.swap_to(q, p.ranges[b].0 + marked[b]);
                    marked[b] += 1;
                }
                preds_c.clear();
                for b in touched.drain(..) {
                    let b = b as usize;
                    let m = std::mem::take(&mut marked[b]);
                    let (lo, hi) = p.ranges[b];
                    if m == hi - lo {
                        continue;
                    }
                    // The marked front becomes a block of its own.
                    let nb = p.ranges.len() as u32;
                    p.ranges.push((lo, lo + m));
                    p.ranges[b] = (lo + m, hi);
                    for i in lo..lo + m {
                        p.block_of[p.elems[i as usize] as usize] = nb;
                    }
                    marked.push(0);
                    if in_work[b] {
                        in_work.push(true);
                        work.push(nb);
                    } else {
                        let smaller = if m <= hi - lo - m { nb } else { b as u32 };
                        in_work.push(smaller == nb);
                        in_work[smaller as usize] = true;
                        work.push(smaller);
                    }
                }
            }
        }
        p
    }

    /// Number of blocks.
    pub(crate) fn blocks(&self) -> usize {
        self.ranges.len()
    }

    /// The block of state `q` (blocks are numbered as they were split off).
    pub(crate) fn block(&self, q: usize) -> u32 {
        self.block_of[q]
    }

    /// A state of block `b`, which stands for all of them.
    fn first(&self, b: u32) -> u32 {
        self.elems[self.ranges[b as usize].0 as usize]
    }

    /// Moves state `q` to position `to` of `elems` (within its block).
    fn swap_to(&mut self, q: u32, to: u32) {
        let from = self.loc[q as usize];
        let other = self.elems[to as usize];
        self.elems.swap(from as usize, to as usize);
        self.loc[q as usize] = to;
        self.loc[other as usize] = from;
    }
}

/// The DFA of the blocks: dead block first, then the blocks reached from
/// the start's, breadth-first, each state's successors in the order of
/// their smallest byte; then the coarsest byte classes of that table.
fn quotient(dfa: &Dfa, p: &Partition) -> Dfa {
    let dead = p.block_of[0];
    let start = p.block_of[dfa.start as usize];
    // New number of each block (0: dead, or not reached).
    let mut number = vec![0u32; p.ranges.len()];
    let mut order: Vec<u32> = Vec::new();
    if start != dead {
        number[start as usize] = 1;
        order.push(start);
    }
    let mut i = 0;
    while i < order.len() {
        let q = p.first(order[i]);
        i += 1;
        for b in 0..=255u8 {
            let t = p.block_of[dfa.next(q, b) as usize];
            if t != dead && number[t as usize] == 0 {
                order.push(t);
                number[t as usize] = order.len() as u32;
            }
        }
    }
    // Rows: the dead state, then `order`.
    let (classes, alphabet, trans) = super::class_table(order.len() + 1, &dfa.classes, |row, b| {
        if row == 0 {
            return 0;
        }
        number[p.block_of[dfa.next(p.first(order[row - 1]), b) as usize] as usize]
    });
    let accept = std::iter::once(false)
        .chain(order.iter().map(|&b| dfa.accept[p.first(b) as usize]))
        .collect();
    Dfa {
        classes,
        alphabet,
        trans,
        accept,
        start: u32::from(!order.is_empty()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::compose::minimize_by_regex_automata;
    use super::*;

    /// A random complete DFA: state 0 dead, `n` states, `k` classes over
    /// bytes in runs (some classes may share their columns, some states
    /// may be unreachable or equivalent).
    fn random(seed: u64, n: usize, k: usize) -> Dfa {
        let mut x = seed | 1;
        let mut next = move |m: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % m as u64) as usize
        };
        let mut classes = [0u8; 256];
        for c in classes.iter_mut() {
            *c = next(k) as u8;
        }
        let mut trans = vec![0u32; n * k];
        let mut accept = vec![false; n];
        for q in 1..n {
            accept[q] = next(3) == 0;
            for c in 0..k {
                // Few distinct targets, so that states are often alike.
                trans[q * k + c] = if next(4) == 0 { 0 } else { next(n) as u32 };
            }
        }
        Dfa {
            classes,
            alphabet: k,
            trans,
            accept,
            start: (1 + next(n - 1)) as u32,
        }
    }

    fn same(a: &Dfa, b: &Dfa) -> bool {
        (a.classes, a.alphabet, &a.trans, &a.accept, a.start)
            == (b.classes, b.alphabet, &b.trans, &b.accept, b.start)
    }

    #[test]
    fn the_same_table_as_the_round_trip_through_regex_automata() {
        for seed in 1..400u64 {
            let n = 2 + (seed as usize * 7) % 40;
            let k = 1 + (seed as usize * 3) % 7;
            let dfa = random(seed, n, k);
            let ours = minimize(&dfa);
            let theirs = minimize_by_regex_automata(dfa.clone());
            assert!(same(&ours, &theirs), "seed {seed}: {ours:?} against {theirs:?}");
            // Minimal tables are fixed points.
            assert!(same(&minimize(&ours), &ours), "seed {seed}");
        }
    }

    #[test]
    fn an_empty_language_is_the_dead_state_alone() {
        let mut dfa = random(7, 6, 3);
        dfa.accept.fill(false);
        let m = minimize(&dfa);
        assert_eq!(
            (m.accept.as_slice(), m.start, m.alphabet),
            ([false].as_slice(), 0, 1)
        );
        assert!(same(&m, &minimize_by_regex_automata(dfa)));
    }
}
