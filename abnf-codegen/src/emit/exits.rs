//! Exit walks as code: a tagged DFA with an exit plan
//! ([`crate::tagged::exits`]) becomes a state machine with one block per
//! state. A state that loops on most bytes asks the runtime for its next
//! exit (`Exits::next_exit`, one vector test and a trailing-zero count),
//! matches the byte found there and moves on; the state is the program
//! counter, so the CPU predicts each state's successor instead of waiting
//! on a table lookup, and the dependency from one exit to the next is the
//! position alone. [`ExitWalkModel::of`] builds the model from the DFA;
//! [`exit_walk_items`] writes it out.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::typed::ident;
use crate::tagged::exits::ExitPlan;
use crate::tagged::{RegOp, TaggedDfa, PENDING, UNSET};

/// A tagged DFA's exit walk, ready to emit.
#[derive(Clone, Debug)]
pub struct ExitWalkModel {
    /// Rust name of the walk's unit struct.
    pub ident: String,
    /// `(first, last, bits)`: the atom table as ranges.
    pub atoms: Vec<(u8, u8, u8)>,
    /// Registers the walk keeps.
    pub registers: usize,
    /// Number of tags.
    pub tags: usize,
    /// The start state and the operations at position 0.
    pub start: u32,
    /// Operations at position 0.
    pub start_ops: Vec<RegOp>,
    /// Every live state (the dead state 0 has none).
    pub states: Vec<ExitState>,
}

/// One state of an [`ExitWalkModel`].
#[derive(Clone, Debug)]
pub struct ExitState {
    /// The state's number.
    pub id: u32,
    /// How it finds its next byte.
    pub moves: Moves,
    /// Its live transitions: the exit bytes (as ranges) that lead to a
    /// target with operations; other bytes lead to the dead state.
    pub arms: Vec<(Vec<(u8, u8)>, u32, Vec<RegOp>)>,
    /// Where a match may end here: each tag's register, [`UNSET`] or
    /// [`PENDING`].
    pub finals: Option<Vec<u32>>,
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
                    Moves::Skip(plan.exits[q])
                };
                // Exit bytes grouped by what they do, in byte order.
                let mut arms: Vec<(Vec<(u8, u8)>, u32, Vec<RegOp>)> = Vec::new();
                for b in 0..=255u8 {
                    if plan.atoms[usize::from(b)] & plan.exits[q] == 0 {
                        continue;
                    }
                    let t = q * a + usize::from(d.classes[usize::from(b)]);
                    if d.next[t] == 0 {
                        continue;
                    }
                    let ops = &d.op_lists[d.ops[t] as usize];
                    match arms.iter_mut().find(|(_, to, o)| *to == d.next[t] && o == ops) {
                        Some((ranges, _, _)) => match ranges.last_mut() {
                            Some((_, last)) if *last + 1 == b => *last = b,
                            _ => ranges.push((b, b)),
                        },
                        None => arms.push((vec![(b, b)], d.next[t], ops.clone())),
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
        let read = d.finals.iter().flatten().flatten().filter(|&&r| r != UNSET && r != PENDING);
        let registers = written.chain(read.copied()).max().map_or(0, |r| r as usize + 1);
        ExitWalkModel {
            ident,
            atoms: plan.atom_ranges(),
            registers,
            tags: d.tags,
            start: d.start,
            start_ops: d.start_ops.clone(),
            states,
        }
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

/// The walk's unit struct and its `ExitWalk` implementation.
pub fn exit_walk_items(m: &ExitWalkModel, rt: &TokenStream, rule: &str) -> TokenStream {
    let name = ident(&m.ident);
    let ranges = m.atoms.iter().map(|&(first, last, bits)| {
        let (first, last) = (byte_lit(first), byte_lit(last));
        let bits = Literal::u8_unsuffixed(bits);
        quote!((#first, #last, #bits))
    });
    let registers = Literal::usize_unsuffixed(m.registers);
    let start = Literal::u32_unsuffixed(m.start);
    let start_ops = ops_code(&m.start_ops, &quote!(0));
    let at = quote!(n);
    let blocks = m.states.iter().map(|st| {
        let id = Literal::u32_unsuffixed(st.id);
        let find = match st.moves {
            Moves::ToEnd => return quote!(#id => break,),
            Moves::Step => quote!(let n = i;),
            Moves::Skip(bits) => {
                let bits = Literal::u8_unsuffixed(bits);
                quote!(let n = exits.next_exit(i, #bits);)
            }
        };
        let arms = st.arms.iter().map(|(ranges, to, ops)| {
            let pats = ranges.iter().map(|&(x, y)| {
                let (lx, ly) = (byte_lit(x), byte_lit(y));
                if x == y {
                    quote!(#lx)
                } else {
                    quote!(#lx..=#ly)
                }
            });
            let to = Literal::u32_unsuffixed(*to);
            let ops = ops_code(ops, &at);
            quote!(#(#pats)|* => { #ops s = #to; })
        });
        quote! {
            #id => {
                #find
                let Some(&b) = input.get(n) else { break };
                match b {
                    #(#arms)*
                    _ => return false,
                }
                i = n + 1;
            }
        }
    });
    let finals = m.states.iter().filter_map(|st| {
        let regs = st.finals.as_ref()?;
        let id = Literal::u32_unsuffixed(st.id);
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
        Some(quote!(#id => { #(#sets)* }))
    });
    let doc = format!(
        " The tagged DFA of `{rule}` as an exit-to-exit walk (`simd::ExitWalk`): \
         {} states, {} atoms.",
        m.states.len(),
        m.atoms.iter().map(|r| r.2).fold(0u8, |acc, b| acc | b).count_ones(),
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
            #[inline(always)]
            #[allow(unused_mut, unreachable_patterns, clippy::match_single_binding)]
            fn walk<E: #rt::simd::Exits>(&self, input: &[u8], exits: &mut E, tags: &mut [usize]) -> bool {
                let mut r = [usize::MAX; #registers];
                #start_ops
                let mut s: u32 = #start;
                let mut i = 0usize;
                loop {
                    match s {
                        #(#blocks)*
                        _ => return false,
                    }
                }
                match s {
                    #(#finals)*
                    _ => return false,
                }
                true
            }
        }
    }
}
