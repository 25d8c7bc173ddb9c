//! Merging byte classes that no state of a minimized tagged DFA tells apart.

use super::*;

impl TaggedDfa {
    /// Merges byte classes that no state tells apart (same target and same
    /// operations everywhere). The NFA's classes distinguish bytes that the
    /// minimized automaton no longer does.
    pub fn merge_classes(&mut self) {
        let (n, a) = (self.states(), self.alphabet);
        let column = |c: usize| -> Vec<(u32, u32)> {
            (0..n)
                .map(|s| (self.next[s * a + c], self.ops[s * a + c]))
                .collect()
        };
        let mut reps: Vec<Vec<(u32, u32)>> = Vec::new();
        let mut map = vec![0usize; a];
        for (c, slot) in map.iter_mut().enumerate() {
            let col = column(c);
            *slot = match reps.iter().position(|r| *r == col) {
                Some(i) => i,
                None => {
                    reps.push(col);
                    reps.len() - 1
                }
            };
        }
        let b = reps.len();
        let mut next = vec![0; n * b];
        let mut ops = vec![0; n * b];
        for (c, col) in reps.iter().enumerate() {
            for (s, &(t, o)) in col.iter().enumerate() {
                next[s * b + c] = t;
                ops[s * b + c] = o;
            }
        }
        for class in self.classes.iter_mut() {
            *class = map[*class as usize] as u8;
        }
        self.alphabet = b;
        self.next = next;
        self.ops = ops;
    }
}
