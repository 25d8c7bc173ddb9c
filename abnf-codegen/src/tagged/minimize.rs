//! Minimization of a tagged DFA: partition refinement over states that
//! agree on their final register maps and register operations.

use super::*;
use crate::automata::minimize::Partition;

impl TaggedDfa {
    /// Merges equivalent states (partition refinement): two states are
    /// equivalent when they have the same final register map and, for every
    /// class, the same register operations into equivalent states. The dead
    /// state stays state 0.
    pub fn minimize(&mut self) {
        let n = self.states();
        // Very large automata are left as built (as when each of Moore's
        // rounds, one per step of the longest chain, cost O(states ×
        // classes)).
        if n > crate::limits::MAX_MINIMIZE_STATES {
            return;
        }
        let a = self.alphabet;
        // Classes whose columns are equal (the same target and operations
        // in every state) split blocks alike: refine on one of each.
        let cols = distinct_columns(&self.next, &self.ops, n, a);
        // A state's final map and operations never change: they make the
        // first blocks, and the refinement compares targets' blocks alone. The
        // dead state gets a block of its own (it has no final map and no
        // operations, like many live states).
        let block: Vec<u32> = {
            let mut ids: HashMap<(&Option<Vec<u32>>, Vec<u32>), u32> = HashMap::default();
            let mut v: Vec<u32> = (0..n)
                .map(|s| {
                    let ops = cols.iter().map(|&c| self.ops[s * a + c]).collect();
                    let next = ids.len() as u32 + 1;
                    *ids.entry((&self.finals[s], ops)).or_insert(next)
                })
                .collect();
            v[0] = 0;
            v
        };
        // The coarsest refinement of those blocks that is stable under
        // every class: Hopcroft's, which splits by the smaller half (Moore's
        // rounds, one per step of the longest chain, each hashing every
        // state's row, took a second of RFC 3261's `generate`). Blocks are
        // renumbered below by their first state, so the result does not
        // depend on how the refinement numbers them.
        let k = cols.len();
        let mut trans = Vec::with_capacity(n * k);
        for s in 0..n {
            trans.extend(cols.iter().map(|&c| self.next[s * a + c]));
        }
        let partition = Partition::refine(k, &trans, &block);
        let block: Vec<u32> = (0..n).map(|s| partition.block(s)).collect();
        // Renumber: the dead state's block first, then in order of first
        // appearance.
        let mut order: HashMap<u32, u32> = HashMap::from_iter([(block[0], 0)]);
        let mut reps = vec![0usize];
        for (s, &b) in block.iter().enumerate() {
            if let std::collections::hash_map::Entry::Vacant(e) = order.entry(b) {
                e.insert(reps.len() as u32);
                reps.push(s);
            }
        }
        let mut next = Vec::with_capacity(reps.len() * a);
        let mut ops = Vec::with_capacity(reps.len() * a);
        for &s in &reps {
            for c in 0..a {
                next.push(order[&block[self.next[s * a + c] as usize]]);
                ops.push(self.ops[s * a + c]);
            }
        }
        self.finals = reps.iter().map(|&s| self.finals[s].clone()).collect();
        self.start = order[&block[self.start as usize]];
        self.next = next;
        self.ops = ops;
    }
}

/// One class of each set of classes whose columns of `next` and `ops` (`n`
/// states by `a` classes) are equal: the first of each, in class order.
/// The columns are hashed in one pass over the rows (building and hashing
/// each column as a vector, a stride of `a` apart, took 4% of RFC 3261's
/// `generate`), and a class whose hash an earlier kept class has is
/// compared with it entry by entry.
fn distinct_columns(next: &[u32], ops: &[u32], n: usize, a: usize) -> Vec<usize> {
    let mut hashes = vec![0u64; a];
    for s in 0..n {
        let row = s * a;
        for (c, h) in hashes.iter_mut().enumerate() {
            let entry = (u64::from(next[row + c]) << 32) | u64::from(ops[row + c]);
            *h = (h.rotate_left(5) ^ entry).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    let same = |c: usize, d: usize| {
        (0..n).all(|s| next[s * a + c] == next[s * a + d] && ops[s * a + c] == ops[s * a + d])
    };
    let mut kept: HashMap<u64, Vec<usize>> = HashMap::default();
    (0..a)
        .filter(|&c| {
            let earlier = kept.entry(hashes[c]).or_default();
            if earlier.iter().any(|&d| same(c, d)) {
                return false;
            }
            earlier.push(c);
            true
        })
        .collect()
}

impl TaggedDfa {
    /// The number of states of the minimal DFA that accepts what this one
    /// does, registers aside (the dead state included when some input
    /// cannot be completed): the residual languages of its reachable
    /// states. Every tagged DFA of the same language has at least as many
    /// states, whatever its registers.
    pub fn language_states(&self) -> usize {
        let n = self.states();
        let a = self.alphabet;
        let labels: Vec<u32> = self.finals.iter().map(|f| u32::from(f.is_some())).collect();
        let partition = Partition::refine(a, &self.next, &labels);
        let mut reached = vec![false; n];
        let mut blocks = vec![false; partition.blocks()];
        let mut todo = vec![self.start as usize];
        reached[self.start as usize] = true;
        while let Some(s) = todo.pop() {
            blocks[partition.block(s) as usize] = true;
            for &t in &self.next[s * a..(s + 1) * a] {
                if !std::mem::replace(&mut reached[t as usize], true) {
                    todo.push(t as usize);
                }
            }
        }
        blocks.iter().filter(|&&b| b).count()
    }
}
