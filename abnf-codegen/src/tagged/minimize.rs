//! Minimization of a tagged DFA: Moore's partition refinement over states
//! that agree on their final register maps and register operations.

use super::*;

impl TaggedDfa {
    /// Merges equivalent states (Moore's partition refinement): two states are
    /// equivalent when they have the same final register map and, for every
    /// class, the same register operations into equivalent states. The dead
    /// state stays state 0.
    pub fn minimize(&mut self) {
        let n = self.states();
        // Each refinement round costs O(states × classes), and a chain needs
        // as many rounds as it is long: leave very large automata as built.
        if n > crate::limits::MAX_MINIMIZE_STATES {
            return;
        }
        let a = self.alphabet;
        let mut block: Vec<u32> = {
            let mut ids: HashMap<&Option<Vec<u32>>, u32> = HashMap::default();
            // The dead state gets a block of its own (it has no final map,
            // like many live states).
            let mut v: Vec<u32> = self
                .finals
                .iter()
                .map(|f| {
                    let next = ids.len() as u32 + 1;
                    *ids.entry(f).or_insert(next)
                })
                .collect();
            v[0] = 0;
            v
        };
        let mut count = 0;
        loop {
            let mut ids: HashMap<Vec<u32>, u32> = HashMap::default();
            let mut next_block = vec![0u32; n];
            for s in 0..n {
                let mut sig = Vec::with_capacity(2 * a + 1);
                sig.push(block[s]);
                for c in 0..a {
                    let t = s * a + c;
                    sig.push(block[self.next[t] as usize]);
                    sig.push(self.ops[t]);
                }
                let len = ids.len() as u32;
                next_block[s] = *ids.entry(sig).or_insert(len);
            }
            let new_count = ids.len();
            block = next_block;
            if new_count == count {
                break;
            }
            count = new_count;
        }
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
