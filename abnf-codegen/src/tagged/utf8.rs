//! Trusting UTF-8: when the input is known to be valid UTF-8, a tagged DFA
//! may read each non-ASCII character as one step of a loop, which keeps
//! splitting grammars small.

use super::*;

impl TaggedDfa {
    /// Reads non-ASCII characters a character at a time, for inputs known to
    /// be UTF-8 (a `&str`): where every non-ASCII character takes a state to
    /// the same place (with the same register operations, all on the
    /// character's first byte), every byte from 0x80 up goes there directly,
    /// in place of the chain of states that checks the character's encoding.
    /// The place is the dead state, or a state that every non-ASCII
    /// character leads back to (which then loops on those bytes). Unreachable
    /// states are dropped. Returns whether anything changed; if so, the DFA
    /// must only ever see valid UTF-8 (on other bytes it may accept what the
    /// grammar does not).
    ///
    /// This is what makes a splitting grammar such as RFC 3986 Appendix B
    /// small: `[^?#]*` over Unicode characters is one state, not one per
    /// UTF-8 byte position, and all bytes from 0x80 up are one class.
    pub fn trust_utf8(&mut self) -> bool {
        let (n, a) = (self.states(), self.alphabet);
        let sequences: Vec<_> = regex_syntax::utf8::Utf8Sequences::new('\u{80}', '\u{10FFFF}').collect();
        // The classes of the bytes of a range, each once.
        let classes_in = |start: u8, end: u8| -> Vec<usize> {
            let mut v: Vec<usize> = (start..=end).map(|b| self.classes[b as usize] as usize).collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        // Where a non-ASCII character takes state `s`, if everywhere the
        // same: (target, operations on the first byte).
        let outcome = |s: usize| -> Option<(u32, u32)> {
            // A state inside a character reads continuation bytes; at a
            // character boundary they never come (and lead nowhere).
            if (0x80..0xC0).any(|b| self.next[s * a + self.classes[b] as usize] != 0) {
                return None;
            }
            let mut seen: Option<(u32, u32)> = None;
            for seq in &sequences {
                let ranges = seq.as_slice();
                for lead in classes_in(ranges[0].start, ranges[0].end) {
                    let t = s * a + lead;
                    let here = if self.next[t] == 0 {
                        (0, 0)
                    } else {
                        let mut frontier = vec![self.next[t]];
                        for range in &ranges[1..] {
                            let mut next = Vec::new();
                            for &f in &frontier {
                                for class in classes_in(range.start, range.end) {
                                    let u = f as usize * a + class;
                                    if self.next[u] == 0 || self.ops[u] != 0 {
                                        return None;
                                    }
                                    if !next.contains(&self.next[u]) {
                                        next.push(self.next[u]);
                                    }
                                }
                            }
                            frontier = next;
                        }
                        match frontier[..] {
                            [to] => (to, self.ops[t]),
                            _ => return None,
                        }
                    };
                    match seen {
                        None => seen = Some(here),
                        Some(o) if o == here => {}
                        Some(_) => return None,
                    }
                }
            }
            seen
        };
        let outcomes: Vec<Option<(u32, u32)>> = (0..n).map(outcome).collect();
        let loops = |t: u32| t == 0 || outcomes[t as usize] == Some((t, 0));
        // Only where it changes something: a state that already takes every
        // byte from 0x80 up to one place keeps its transitions.
        let redirect: Vec<Option<(u32, u32)>> = outcomes
            .iter()
            .enumerate()
            .map(|(s, o)| {
                o.filter(|&(t, op)| {
                    s != 0
                        && loops(t)
                        && (0x80..256).any(|b| {
                            let u = s * a + self.classes[b] as usize;
                            (self.next[u], self.ops[u]) != (t, op)
                        })
                })
            })
            .collect();
        if redirect.iter().all(Option::is_none) {
            return false;
        }
        // One column per byte, so that bytes from 0x80 up can be told apart
        // from ASCII bytes that shared their class.
        let mut next = vec![0u32; n * 256];
        let mut ops = vec![0u32; n * 256];
        for s in 0..n {
            for byte in 0..256 {
                let t = s * a + self.classes[byte] as usize;
                let (to, op) = match redirect[s] {
                    Some(r) if byte >= 0x80 => r,
                    _ => (self.next[t], self.ops[t]),
                };
                next[s * 256 + byte] = to;
                ops[s * 256 + byte] = op;
            }
        }
        // Keep the states still reachable from the start (and the dead
        // state), in their order.
        let mut keep = vec![false; n];
        keep[0] = true;
        keep[self.start as usize] = true;
        let mut stack = vec![self.start as usize];
        while let Some(s) = stack.pop() {
            for &t in &next[s * 256..(s + 1) * 256] {
                if !keep[t as usize] {
                    keep[t as usize] = true;
                    stack.push(t as usize);
                }
            }
        }
        let mut id = vec![0u32; n];
        let kept: Vec<usize> = (0..n).filter(|&s| keep[s]).collect();
        for (i, &s) in kept.iter().enumerate() {
            id[s] = i as u32;
        }
        self.next = kept
            .iter()
            .flat_map(|&s| next[s * 256..(s + 1) * 256].iter().map(|&t| id[t as usize]))
            .collect();
        self.ops = kept
            .iter()
            .flat_map(|&s| ops[s * 256..(s + 1) * 256].to_vec())
            .collect();
        self.finals = kept.iter().map(|&s| self.finals[s].clone()).collect();
        self.start = id[self.start as usize];
        self.alphabet = 256;
        for (byte, class) in self.classes.iter_mut().enumerate() {
            *class = byte as u8;
        }
        self.utf8_only = true;
        true
    }
}
