//! Item loops: the states of a node's tagged DFA where its walk may read a
//! list's items with the items' own automaton instead of its own steps.
//!
//! A typed tree's list is read item by item when the caller iterates it:
//! the node's walk (which tags only the list's span) goes over every item,
//! then each item is walked again by the item's automaton for its parts.
//! Where the node's walk can call the item's walk instead, and log what it
//! read, each item is walked once ([`abnf_runtime::List`] builds the
//! logged items from the log).
//!
//! The node's walk may do that in a state `q` when every item brings it
//! back to `q` with no register operation on the way: reading an item `w`
//! from `q` then leaves the walk exactly where its own steps would
//! (`δ*(q, w) = q`, registers untouched), so calling the item's walk (the
//! longest item from here), logging it and going on from `q` accepts what
//! the node's automaton accepts, fails where it fails and gives it the
//! same tags, whatever the items are. More generally ([`ItemEntry`]), every
//! item from `q` may lead to one other state `t` (the state before a list's
//! first item, where every item leads to the state between items), with
//! the same operations on every item's first step (the list's group
//! opening), which the walk then applies at the item's start. That is
//! checked on the two automata together: from the pair (item's start,
//! `q`), every byte on which the item's automaton goes on towards a match
//! must take the node's automaton along a transition, without operations
//! but on the first step, and every pair where an item may end must have
//! the node at `t`. States the node is in *inside* an item read from
//! another entry are left out: an item read from there would start in the
//! middle of one.

use super::TaggedDfa;

/// The most state pairs the check of one state may visit.
const MAX_PAIRS: usize = 1 << 16;

/// A state where the node's walk may read an item with the item's walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ItemEntry {
    /// The state.
    pub state: usize,
    /// Where every item read from `state` leads (`state` itself in a
    /// loop).
    pub target: usize,
    /// The register operations (an index into `op_lists`) of the first
    /// step of every item from `state`, at the item's start; none after
    /// it.
    pub ops: u32,
}

/// The states of `node` from which every match of `item` leads to one
/// same state, with the same register operations on the first step and
/// none after it ([module docs](self)); in increasing order of state.
pub fn item_entries(node: &TaggedDfa, item: &TaggedDfa) -> Vec<ItemEntry> {
    // Byte classes of the two automata that occur together: the steps
    // that matter (one byte of each).
    let mut steps: Vec<(usize, usize)> = (0..256)
        .map(|b| (usize::from(item.classes[b]), usize::from(node.classes[b])))
        .collect();
    steps.sort_unstable();
    steps.dedup();
    let live = live_states(item);
    if !live[item.start as usize] {
        return Vec::new();
    }
    let found: Vec<(ItemEntry, Vec<usize>)> = (1..node.states())
        .filter_map(|q| entry_at(node, item, &live, &steps, q))
        .collect();
    // A state the node is in within an item, reading from another entry,
    // would log an item that starts inside one (which the list passes
    // over): only the states where items start are kept.
    let inside: rustc_hash::FxHashSet<usize> = found
        .iter()
        .flat_map(|(_, inside)| inside.iter().copied())
        .collect();
    found
        .into_iter()
        .map(|(e, _)| e)
        .filter(|e| !inside.contains(&e.state))
        .collect()
}

/// The states of `node` where every item read leads back to the same
/// state with no register operation: loops ([`item_entries`] whose
/// target is the state and which have no operations).
pub fn item_loop_states(node: &TaggedDfa, item: &TaggedDfa) -> Vec<usize> {
    item_entries(node, item)
        .into_iter()
        .filter(|e| e.target == e.state && e.ops == 0)
        .map(|e| e.state)
        .collect()
}

/// [`item_entries`]'s entry at `q`, if `q` is one, with the states the
/// node is in within its items.
fn entry_at(
    node: &TaggedDfa,
    item: &TaggedDfa,
    live: &[bool],
    steps: &[(usize, usize)],
    q: usize,
) -> Option<(ItemEntry, Vec<usize>)> {
    let (ai, an) = (item.alphabet, node.alphabet);
    let start = item.start as usize;
    let mut seen = rustc_hash::FxHashSet::default();
    let mut stack = vec![(start, q)];
    seen.insert((start, q));
    let (mut target, mut first_ops) = (None, None);
    while let Some((p, n)) = stack.pop() {
        let first = (p, n) == (start, q);
        for &(ci, cn) in steps {
            let p2 = item.next[p * ai + ci] as usize;
            if p2 == 0 || !live[p2] {
                continue;
            }
            let t = n * an + cn;
            let n2 = node.next[t] as usize;
            if n2 == 0 {
                return None;
            }
            let ops = node.ops[t];
            if first {
                // Every item's first step does the same, at its start.
                if *first_ops.get_or_insert(ops) != ops {
                    return None;
                }
            } else if !node.op_lists[ops as usize].is_empty() {
                return None;
            }
            if item.finals[p2].is_some() && *target.get_or_insert(n2) != n2 {
                return None;
            }
            // An item that comes back to the pair it started in would
            // take the first step's operations again, later.
            if (p2, n2) == (start, q) && !node.op_lists[first_ops.unwrap_or(0) as usize].is_empty() {
                return None;
            }
            if seen.insert((p2, n2)) {
                if seen.len() > MAX_PAIRS {
                    return None;
                }
                stack.push((p2, n2));
            }
        }
    }
    // A state from which no item is read (the item's first bytes lead
    // nowhere) is no entry worth calling the item's walk for.
    let entry = ItemEntry {
        state: q,
        target: target?,
        ops: first_ops?,
    };
    let inside = seen
        .into_iter()
        .filter(|&(p, n)| p != start && item.finals[p].is_none() && n != q)
        .map(|(_, n)| n)
        .collect();
    Some((entry, inside))
}

/// The length of the shortest match of `d`, if it has one.
pub fn shortest_match(d: &TaggedDfa) -> Option<usize> {
    let a = d.alphabet;
    let mut depth = vec![usize::MAX; d.states()];
    let mut queue = std::collections::VecDeque::from([d.start as usize]);
    depth[d.start as usize] = 0;
    while let Some(q) = queue.pop_front() {
        if d.finals[q].is_some() {
            return Some(depth[q]);
        }
        for c in 0..a {
            let t = d.next[q * a + c] as usize;
            if t != 0 && depth[t] == usize::MAX {
                depth[t] = depth[q] + 1;
                queue.push_back(t);
            }
        }
    }
    None
}

/// Per state of `d`, whether a match can still end from it.
fn live_states(d: &TaggedDfa) -> Vec<bool> {
    let (a, states) = (d.alphabet, d.states());
    let mut live: Vec<bool> = d.finals.iter().map(Option::is_some).collect();
    live[0] = false;
    let mut changed = true;
    while changed {
        changed = false;
        for q in 1..states {
            if !live[q] && (0..a).any(|c| live[d.next[q * a + c] as usize]) {
                live[q] = true;
                changed = true;
            }
        }
    }
    live
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tagged::tdfa;

    /// The state `node` is in after reading `input` from its start.
    fn state_after(node: &TaggedDfa, input: &[u8]) -> usize {
        input.iter().fold(node.start as usize, |q, &b| {
            node.next[q * node.alphabet + usize::from(node.classes[usize::from(b)])] as usize
        })
    }

    #[test]
    fn a_head_of_lines_loops_after_each_line() {
        // A request line, then lines of `name:value`, then an empty line:
        // after each line the node is where it was.
        let node = tdfa(r"(GET [a-z/]+\n)((?:[a-z]+:[a-z ]*\n)*)\n");
        let item = tdfa(r"([a-z]+):([a-z ]*)\n");
        let loops = item_loop_states(&node, &item);
        let after_one = state_after(&node, b"GET /a\nx:y\n");
        assert!(loops.contains(&after_one), "{loops:?} lacks {after_one}");
        let after_two = state_after(&node, b"GET /a\nx:y\nab:c d\n");
        assert_eq!(after_one, after_two);
        // Inside a line, the node is not where a line starts.
        assert!(!loops.contains(&state_after(&node, b"GET /a\nx:y\nab")));
    }

    #[test]
    fn the_first_item_enters_with_the_operations_of_its_first_step() {
        let node = tdfa(r"(GET [a-z/]+\n)((?:[a-z]+:[a-z ]*\n)*)\n");
        let item = tdfa(r"([a-z]+):([a-z ]*)\n");
        let before = state_after(&node, b"GET /a\n");
        let after = state_after(&node, b"GET /a\nx:y\n");
        let entries = item_entries(&node, &item);
        let first = entries
            .iter()
            .find(|e| e.state == before)
            .expect("an entry before the first item");
        assert_eq!(first.target, after);
        // The list's group opens on the first step.
        assert!(!node.op_lists[first.ops as usize].is_empty());
        assert!(entries
            .iter()
            .any(|e| e.state == after && e.target == after && e.ops == 0));
    }

    #[test]
    fn every_item_may_open_a_group_on_its_first_step() {
        // The last item's group opens on each item's first step: an entry
        // whose target is itself, with that operation.
        let node = tdfa(r"x(a*b)*");
        let item = tdfa(r"a*b");
        let after = state_after(&node, b"xab");
        assert!(item_entries(&node, &item)
            .iter()
            .any(|e| e.state == after && e.target == after && !node.op_lists[e.ops as usize].is_empty()));
    }

    #[test]
    fn a_loop_that_sets_a_register_is_no_item_loop() {
        // The last item's group is a register the node sets on every item.
        let node = tdfa(r"(?:([a-z]+);)*");
        let item = tdfa(r"[a-z]+;");
        assert_eq!(item_loop_states(&node, &item), Vec::<usize>::new());
    }

    #[test]
    fn an_item_that_leaves_the_node_elsewhere_is_no_item_loop() {
        // `ab;` is an item but takes the node out of its loop.
        let node = tdfa(r"(?:a;)*(?:ab;)?");
        let item = tdfa(r"ab?;");
        assert_eq!(item_loop_states(&node, &item), Vec::<usize>::new());
        let item = tdfa(r"a;");
        assert!(!item_loop_states(&node, &item).is_empty());
    }
}
