//! Exit walks as code: a tagged DFA with an exit plan
//! ([`crate::tagged::exits`]) becomes a state machine with one block per
//! state. A state that loops on most bytes asks the runtime for its next
//! exit (`Exits::next_exit`, one vector test and a trailing-zero count),
//! matches the byte found there and moves on; the state is the program
//! counter, so the CPU predicts each state's successor instead of waiting
//! on a table lookup, and the dependency from one exit to the next is the
//! position alone. When no transitions between states form a cycle (a
//! splitting grammar's do not), the states are nested labeled blocks, so
//! every transition is a `break`, a direct jump forwards; otherwise the
//! walk is a loop around a `match` on the state. [`ExitWalkModel::of`]
//! builds the model from the DFA; [`exit_walk_items`] writes it out.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::typed::ident;
use crate::tagged::exits::{ExitPlan, Nibbles};
use crate::tagged::{RegOp, TaggedDfa, PENDING, UNSET};

/// A tagged DFA's exit walk, ready to emit.
#[derive(Clone, Debug)]
pub struct ExitWalkModel {
    /// Rust name of the walk's unit struct.
    pub ident: String,
    /// `(first, last, bits)`: the atom table as ranges.
    pub atoms: Vec<(u8, u8, u8)>,
    /// The atom table as nibble lookups, if it has that form
    /// ([`ExitPlan::nibbles`]).
    pub nibbles: Option<Nibbles>,
    /// Registers the walk keeps.
    pub registers: usize,
    /// The start state.
    pub start: u32,
    /// Operations at position 0.
    pub start_ops: Vec<RegOp>,
    /// Every live state (the dead state 0 has none).
    pub states: Vec<ExitState>,
    /// Indexes into `states` in an order where every transition to another
    /// state goes forwards, the start first; `None` when the transitions
    /// between states form a cycle.
    pub order: Option<Vec<usize>>,
}

/// One state of an [`ExitWalkModel`].
#[derive(Clone, Debug)]
pub struct ExitState {
    /// The state's number.
    pub id: u32,
    /// How it finds its next byte.
    pub moves: Moves,
    /// Its live transitions; other bytes lead to the dead state.
    pub arms: Vec<Arm>,
    /// Where a match may end here: each tag's register, [`UNSET`] or
    /// [`PENDING`].
    pub finals: Option<Vec<u32>>,
}

/// Exit bytes of a state that do the same thing.
#[derive(Clone, Debug)]
pub struct Arm {
    /// The bytes, as ranges.
    pub bytes: Vec<(u8, u8)>,
    /// The target state.
    pub to: u32,
    /// The register operations, at the byte's position.
    pub ops: Vec<RegOp>,
}

/// How a state of an exit walk reaches its next byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moves {
    /// It loops on nothing: the next byte.
    Step,
    /// It loops on every byte: the end of the input.
    ToEnd,
    /// The next byte whose atom bits meet these.
    Skip(u8),
    /// The next byte that is one of these two (or this one, twice): a
    /// state with one or two exit bytes, whose long runs are searched for
    /// them without classifying the bytes.
    Search(u8, u8),
}

impl ExitWalkModel {
    /// The model of `d`'s walk by `plan`.
    pub fn of(ident: String, d: &TaggedDfa, plan: &ExitPlan) -> ExitWalkModel {
        let a = d.alphabet;
        let states = (1..d.states())
            .map(|q| {
                let moves = if plan.exits[q] == 0 {
                    Moves::ToEnd
                } else if plan.steps_every_byte(q) {
                    Moves::Step
                } else {
                    let exit_bytes: Vec<u8> = (0..=255u8)
                        .filter(|&b| plan.atoms[usize::from(b)] & plan.exits[q] != 0)
                        .collect();
                    match exit_bytes[..] {
                        [a] => Moves::Search(a, a),
                        [a, b] => Moves::Search(a, b),
                        _ => Moves::Skip(plan.exits[q]),
                    }
                };
                // Exit bytes grouped by what they do, in byte order.
                let mut arms: Vec<Arm> = Vec::new();
                for b in 0..=255u8 {
                    if plan.atoms[usize::from(b)] & plan.exits[q] == 0 {
                        continue;
                    }
                    let t = q * a + usize::from(d.classes[usize::from(b)]);
                    if d.next[t] == 0 {
                        continue;
                    }
                    let ops = &d.op_lists[d.ops[t] as usize];
                    match arms.iter_mut().find(|a| a.to == d.next[t] && a.ops == *ops) {
                        Some(a) => match a.bytes.last_mut() {
                            Some((_, last)) if *last + 1 == b => *last = b,
                            _ => a.bytes.push((b, b)),
                        },
                        None => arms.push(Arm {
                            bytes: vec![(b, b)],
                            to: d.next[t],
                            ops: ops.clone(),
                        }),
                    }
                }
                ExitState {
                    id: q as u32,
                    moves,
                    arms,
                    finals: d.finals[q].clone(),
                }
            })
            .collect();
        // Registers as the operations and final maps number them.
        let ops = d.op_lists.iter().flatten().chain(&d.start_ops);
        let written = ops.map(|op| match *op {
            RegOp::SetPos { dst } => dst,
            RegOp::Copy { dst, src } => dst.max(src),
        });
        let read = d
            .finals
            .iter()
            .flatten()
            .flatten()
            .filter(|&&r| r != UNSET && r != PENDING);
        let registers = written.chain(read.copied()).max().map_or(0, |r| r as usize + 1);
        let mut m = ExitWalkModel {
            ident,
            atoms: plan.atom_ranges(),
            nibbles: plan.nibbles(),
            registers,
            start: d.start,
            start_ops: d.start_ops.clone(),
            states,
            order: None,
        };
        m.order = m.forward_order();
        m
    }
}

/// A byte as a pattern: a character literal where it is printable ASCII.
fn byte_lit(b: u8) -> Literal {
    if b.is_ascii_graphic() {
        Literal::byte_character(b)
    } else {
        Literal::u8_suffixed(b)
    }
}

/// Register operations at position `at` (an expression).
fn ops_code(ops: &[RegOp], at: &TokenStream) -> TokenStream {
    let ops = ops.iter().map(|op| match *op {
        RegOp::SetPos { dst } => {
            let dst = Literal::u32_unsuffixed(dst);
            quote!(r[#dst] = #at;)
        }
        RegOp::Copy { dst, src } => {
            let (dst, src) = (Literal::u32_unsuffixed(dst), Literal::u32_unsuffixed(src));
            quote!(r[#dst] = r[#src];)
        }
    });
    quote!(#(#ops)*)
}

impl ExitWalkModel {
    /// The states in an order where every transition to another state goes
    /// forwards (the start first), if the transitions between distinct
    /// states have no cycle: the walk is emitted as nested labeled blocks,
    /// and every transition is a direct jump.
    fn forward_order(&self) -> Option<Vec<usize>> {
        let index = |id: u32| self.states.iter().position(|st| st.id == id);
        let mut incoming = vec![0usize; self.states.len()];
        let edges: Vec<Vec<usize>> = self
            .states
            .iter()
            .map(|st| {
                let mut to: Vec<usize> = st
                    .arms
                    .iter()
                    .filter(|a| a.to != st.id)
                    .filter_map(|a| index(a.to))
                    .collect();
                to.sort_unstable();
                to.dedup();
                to
            })
            .collect();
        for &t in edges.iter().flatten() {
            incoming[t] += 1;
        }
        let start = index(self.start)?;
        if incoming[start] != 0 {
            return None;
        }
        let mut ready = vec![start];
        let mut order = Vec::new();
        while let Some(q) = ready.pop() {
            order.push(q);
            for &t in &edges[q] {
                incoming[t] -= 1;
                if incoming[t] == 0 {
                    ready.push(t);
                }
            }
        }
        // A state left over is on a cycle, or reached only from one.
        (order.len() == self.states.len()).then_some(order)
    }
}

/// How one state's code finds its next byte `n`.
fn find_code(moves: Moves) -> TokenStream {
    match moves {
        Moves::ToEnd | Moves::Step => quote!(let n = i;),
        Moves::Skip(bits) => {
            let bits = Literal::u8_unsuffixed(bits);
            quote!(let n = exits.next_exit(i, #bits);)
        }
        Moves::Search(a, b) => {
            let (a, b) = (byte_lit(a), byte_lit(b));
            quote!(let n = exits.next_byte(i, #a, #b);)
        }
    }
}

/// The arms of one state's `match` on the byte found: operations, then
/// `goto(target)`.
fn arms_code(st: &ExitState, goto: impl Fn(u32) -> TokenStream) -> TokenStream {
    let at = quote!(n);
    let arms = st.arms.iter().map(|Arm { bytes, to, ops }| {
        let pats = bytes.iter().map(|&(x, y)| {
            let (lx, ly) = (byte_lit(x), byte_lit(y));
            if x == y {
                quote!(#lx)
            } else {
                quote!(#lx..=#ly)
            }
        });
        let ops = ops_code(ops, &at);
        let go = goto(*to);
        quote!(#(#pats)|* => { #ops #go })
    });
    quote! {
        match b {
            #(#arms)*
            _ => return false,
        }
    }
}

/// Where a match ends in state `st`: its tags, and true; or false.
fn finish_code(st: &ExitState) -> TokenStream {
    let Some(regs) = &st.finals else {
        return quote!(return false;);
    };
    let sets = regs.iter().enumerate().map(|(t, &reg)| {
        let t = Literal::usize_unsuffixed(t);
        match reg {
            UNSET => quote!(tags[#t] = usize::MAX;),
            PENDING => quote!(tags[#t] = input.len();),
            reg => {
                let reg = Literal::u32_unsuffixed(reg);
                quote!(tags[#t] = r[#reg];)
            }
        }
    });
    quote!(#(#sets)* return true;)
}

/// The walk as nested labeled blocks, states in `order`: the code after
/// block `'sK` is state K's, so `break 'sK` jumps to it (always forwards).
fn blocks_code(m: &ExitWalkModel, order: &[usize]) -> TokenStream {
    let label = |id: u32| syn::Lifetime::new(&format!("'s{id}"), proc_macro2::Span::call_site());
    let mut code = TokenStream::new();
    for (k, &q) in order.iter().enumerate() {
        let st = &m.states[q];
        let finish = finish_code(st);
        let body = if st.moves == Moves::ToEnd {
            finish
        } else {
            let find = find_code(st.moves);
            let id = st.id;
            let arms = arms_code(st, |to| {
                if to == id {
                    quote!(i = n + 1; continue;)
                } else {
                    let l = label(to);
                    quote!(i = n + 1; break #l;)
                }
            });
            quote! {
                loop {
                    #find
                    let Some(&b) = input.get(n) else { #finish };
                    #arms
                }
            }
        };
        code = if k == 0 {
            body
        } else {
            let l = label(st.id);
            quote!(#l: { #code } #body)
        };
    }
    code
}

/// The walk as a loop around a `match` on the state, for automata whose
/// states form cycles.
fn loop_code(m: &ExitWalkModel) -> TokenStream {
    let blocks = m.states.iter().map(|st| {
        let id = Literal::u32_unsuffixed(st.id);
        let finish = finish_code(st);
        if st.moves == Moves::ToEnd {
            return quote!(#id => { #finish });
        }
        let find = find_code(st.moves);
        let arms = arms_code(st, |to| {
            let to = Literal::u32_unsuffixed(to);
            quote!(s = #to;)
        });
        quote! {
            #id => {
                #find
                let Some(&b) = input.get(n) else { #finish };
                #arms
                i = n + 1;
            }
        }
    });
    let start = Literal::u32_unsuffixed(m.start);
    quote! {
        let mut s: u32 = #start;
        loop {
            match s {
                #(#blocks)*
                _ => return false,
            }
        }
    }
}

/// The walk's unit struct and its `ExitWalk` implementation.
pub fn exit_walk_items(m: &ExitWalkModel, rt: &TokenStream, rule: &str) -> TokenStream {
    let name = ident(&m.ident);
    let ranges = m.atoms.iter().map(|&(first, last, bits)| {
        let (first, last) = (byte_lit(first), byte_lit(last));
        let bits = Literal::u8_unsuffixed(bits);
        quote!((#first, #last, #bits))
    });
    let registers = Literal::usize_unsuffixed(m.registers);
    let start_ops = ops_code(&m.start_ops, &quote!(0));
    let (form, body) = match &m.order {
        Some(order) => (
            "its states as nested blocks, transitions as jumps forwards",
            blocks_code(m, order),
        ),
        None => (
            "a loop around a match on the state (its states form a cycle)",
            loop_code(m),
        ),
    };
    let nibbles = m.nibbles.map(|n| {
        let (low, high) = (
            n.low.map(Literal::u8_unsuffixed),
            n.high.map(Literal::u8_unsuffixed),
        );
        let rest = Literal::u8_unsuffixed(n.rest);
        quote! {
            fn nibbles(&self) -> ::core::option::Option<&'static #rt::simd::AtomNibbles> {
                static NIBBLES: #rt::simd::AtomNibbles = #rt::simd::AtomNibbles {
                    low: [#(#low),*],
                    high: [#(#high),*],
                    rest: #rest,
                };
                ::core::option::Option::Some(&NIBBLES)
            }
        }
    });
    let classified = match m.nibbles {
        Some(_) => "; its atoms are nibble lookups (every vector level classifies them)",
        None => "; its atoms are not nibble lookups (below VBMI it runs the scalar search)",
    };
    let doc = format!(
        " The tagged DFA of `{rule}` as an exit-to-exit walk (`simd::ExitWalk`), \
         {form}: {} states, {} atoms{classified}.",
        m.states.len(),
        m.atoms
            .iter()
            .map(|r| r.2)
            .fold(0u8, |acc, b| acc | b)
            .count_ones(),
    );
    quote! {
        #[doc = #doc]
        #[doc(hidden)]
        pub struct #name;
        impl #rt::simd::ExitWalk for #name {
            fn atoms(&self) -> &'static #rt::simd::AtomTable {
                static ATOMS: #rt::simd::AtomTable = #rt::simd::AtomTable::from_ranges(&[#(#ranges),*]);
                &ATOMS
            }
            #nibbles
            #[inline(always)]
            #[allow(unused_mut, unused_labels, unused_assignments, unreachable_code, unreachable_patterns, clippy::match_single_binding, clippy::needless_return, clippy::never_loop)]
            fn walk<E: #rt::simd::Exits>(&self, input: &[u8], exits: &mut E, tags: &mut [usize]) -> bool {
                let mut r = [usize::MAX; #registers];
                #start_ops
                let mut i = 0usize;
                #body
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;

    fn model(pattern: &str) -> Option<ExitWalkModel> {
        let hir = regex_syntax::parse(pattern).unwrap();
        let d = crate::tagged::from_hir(&hir, Limits::default(), true).unwrap();
        Some(ExitWalkModel::of("W".into(), &d, &d.exit_plan()?))
    }

    #[test]
    fn acyclic_walks_are_ordered_forwards_and_cyclic_ones_loop() {
        let m = model(r"(?s)(?:([^:/?#]+):)?([^?#]*)(?:\?([^#]*))?(?:#(.*))?").expect("a plan");
        let order = m.order.as_ref().expect("no cycle");
        let at = |id: u32| order.iter().position(|&q| m.states[q].id == id).unwrap();
        assert_eq!(m.states[order[0]].id, m.start);
        for st in &m.states {
            for arm in st.arms.iter().filter(|a| a.to != st.id) {
                assert!(at(st.id) < at(arm.to), "{} -> {}", st.id, arm.to);
            }
        }
        // Runs that alternate: back and forth between two states.
        assert_eq!(model(r"((?:[^:]*:[^;]*;)*)").expect("a plan").order, None);
    }
}
