//! The deterministic walk over a structural index: simdjson's two stages,
//! derived from the action table (nothing about JSON by name).
//!
//! [`Index::of`] reads the table once. It looks for a *quoted loop set*: a
//! loop set (string contents) whose states one ASCII byte enters from the
//! most states outside it and leaves from all of them (JSON's `"`); its
//! two-byte escapes ([`Network::loop_pairs`]) and long ones (an escape
//! byte, a byte, then a fixed number of bytes of one set: `\uFFFF`); and
//! the two disjoint self-loop sets that the most other states loop on
//! (white space, digits).
//!
//! The walk takes the input in batches of sixteen 64-byte blocks. *Stage
//! 1* classifies the batch's blocks with vectors
//! ([`crate::simd::classify_blocks`]: thirteen byte classes packed into
//! pairs of nibble lookups, written class by class), then runs a few
//! dozen bitwise operations on each block's masks with no branch, eight
//! blocks at once in the lanes of an AVX-512 vector, four with AVX2, one
//! below ([`Stage1::blocks`], written once over [`crate::simd::Lanes`]:
//! what carries from one block to the next moves across lanes; one copy
//! per length of the long escapes, so that their windows unroll): where
//! the strings are
//! (unescaped quotes, escapes counted across blocks with simdjson's
//! odd-backslash rule, block by block before the lanes, a prefix xor),
//! which bytes inside them the loop set skips (its bytes, whole UTF-8
//! characters, escapes: each sequence whole,
//! and a skip may start only where one starts), and the runs of the two
//! self-loop sets outside strings. Every other byte is an *event*, and so
//! is the first byte of a run where another kind of run ends (the bytes
//! between two events are of one kind) or where the set's bytes usually
//! enter its states rather than loop in them (a number's first digit).
//!
//! Stage 1 also writes, per block, which events follow a gap that a state
//! with given skip flags may not skip ([`Blocks::bad`], one mask per
//! combination of the three flags) and what the gap to the block's end
//! needs.
//!
//! *Stage 2* walks the batch from event to event with a copy of the
//! action table ([`Fused`]) whose calls already take the callee's first
//! shift (and carry the row they return to) and whose entries carry, in
//! the bits the payload leaves free, which kinds of gap the row may skip:
//! the state of the quoted loop set for bytes inside a string, a state
//! that shifts to itself on every byte of a self-loop set for a run of
//! it; one load of `bad` by those flags checks the gap before an event.
//! Its fast loop ([`Index::fast`]) has no branch on whether an event
//! shifts, calls or returns: the stack's top stays in a register, the
//! action after a return is read beside the action itself, and masks
//! select (shifts, calls and returns follow the input's nesting, which no
//! branch predictor knows); the room on the stack is checked per block.
//! Where the row may not skip a gap (the bytes after an escape's first,
//! say), the gap's bytes are stepped until it may. Stage 2's loop is
//! compiled a second time with BMI1 and BMI2 for the CPUs that have them
//! ([`crate::simd::bmi`]). So stage 1 only
//! decides what is fast: a block classified wrongly costs table steps,
//! never a wrong answer, and the walk fails where the table's walk
//! ([`Network::walk_table`]) fails, with the same [`Failure`].

use alloc::vec;
use alloc::vec::Vec;
use core::hint::select_unpredictable;

use super::{action, Failure, Limits, Network};
use crate::recognizer::ErrorKind;
use crate::simd::{
    classify_blocks, run_lanes, LaneTask, Lanes, Level, LoopSet, NibbleClass, NibbleSet, PackedClasses,
};

/// What stage 1 classifies by, found in a network's action table
/// ([`Index::of`]).
#[derive(Clone, Debug)]
pub(crate) struct Index {
    /// The classes stage 1 classifies every block by, in the order of
    /// [`Raw`]: the byte that opens and closes the quoted loop set's
    /// strings; the self-loop sets skipped outside strings (white space,
    /// digits), the two that the most states loop on, disjoint; the two
    /// sets of the loop set's long escapes (empty if it has none); the
    /// loop set's single bytes, its two-byte escapes' first and second
    /// bytes, its UTF-8 lead bytes; lead bytes of three-byte sequences
    /// and continuation bytes; the lead bytes of four-byte sequences it
    /// loops on ([`four_leads`]) and the bytes `0x90`-`0xBF` that follow
    /// them.
    classes: PackedClasses<{ Classes::COUNT }>,
    /// The same but the last two (the four-byte characters'), for the
    /// levels below AVX2: with 16-byte vectors a class costs more than
    /// the events the two save (their masks are then empty, and the
    /// characters' bytes events).
    narrow: PackedClasses<{ Classes::FOUR }>,
    /// The length `len` of the loop set's long escapes (JSON's
    /// `\uFFFF`: 4): an escape byte, a byte of the first of their
    /// classes, then `len` bytes of the second, back in the loop (1 to
    /// 8; 1 if there are none: their classes are empty).
    long: usize,
    /// Per self-loop set, all ones if its bytes shift into its states
    /// from states that do not loop on it (digits start a number): the
    /// first byte of each of its runs is then an event.
    entered: [u64; 2],
    /// Per row of the action table (at the row's first entry): [`IN_SET`],
    /// [`ON_RUN`] for each self-loop set whose every byte shifts the state
    /// to itself, and [`ALWAYS`].
    flags: Vec<u8>,
    /// The action table for stage 2, `states × (alphabet + 1)` like the
    /// network's (the last column unused), its entries recoded
    /// ([`Fused`]), and one more row (the stack's sentinel's).
    fused: Vec<u64>,
}

/// [`Index::fused`]'s entries: what the action does in the low 3 bits
/// (none of them: a shift); the row's skip flags (its [`Index::flags`]
/// but [`ALWAYS`], so that one load gives both) in the next 3; the row
/// the action goes to up to bit 32; a call's return row above.
struct Fused;

impl Fused {
    /// A call whose callee shifts on the same byte first: push the row in
    /// the entry's high half ([`Fused::RETURN_ROW`]), shift to the row in
    /// the payload.
    const CALL: u64 = 1;
    /// A return: pop, and take the action of the row returned to.
    const RETURN: u64 = 2;
    /// Any other action: the walk takes it from the network's table.
    const OTHER: u64 = 4;
    /// Where the row's skip flags start (3 bits; there, an entry masked
    /// to them is the byte offset of their row of [`Blocks::bad`]).
    const FLAGS: u32 = 7;
    /// The skip flags' bits.
    const FLAG_BITS: u64 = 7 << Fused::FLAGS;
    /// Where the payload starts (it ends at bit 32).
    const PAYLOAD: u32 = 10;
    /// Where a call's return row starts.
    const RETURN_ROW: u32 = 32;

    /// The row in an entry's payload.
    #[inline(always)]
    fn row(entry: u64) -> usize {
        (entry as u32 >> Fused::PAYLOAD) as usize
    }

    /// An entry of a row with [`Index::flags`] `flags`.
    fn entry(kind: u64, flags: u8, payload: u32) -> u64 {
        u64::from(payload) << Fused::PAYLOAD | u64::from(flags & !ALWAYS) << Fused::FLAGS | kind
    }
}

/// Bit of [`Index::flags`]: a state of the quoted loop set.
const IN_SET: u8 = 1;
/// Bits of [`Index::flags`]: a state that loops on every byte of the
/// first, the second self-loop set.
const ON_RUN: [u8; 2] = [2, 4];
/// Bit of [`Index::flags`] set in every state.
const ALWAYS: u8 = 8;

// Stage 1 writes a block's trailing gap's needs as its kinds' bits
// (`Stage1::group`).
const _: () = assert!(IN_SET == 1 && ON_RUN[0] == 2 && ON_RUN[1] == 4 && ALWAYS == 8);

impl Index {
    /// Whether stage 1's class of four-byte leads ([`four_leads`]) has a
    /// byte.
    pub(crate) fn skips_four_byte_characters(&self) -> bool {
        (0xF0..=0xF3).any(|b| self.classes.contains(Classes::FOUR, b))
    }

    /// What stage 1 classifies by and stage 2 walks with, if `net`'s
    /// action table has a quoted loop set (see the module's
    /// documentation), and its rows fit the fused table. `pairs` are the
    /// loop sets' two-byte escapes ([`Network::loop_pairs`]).
    pub(crate) fn of(net: &Network<'_>, pairs: &[Option<(NibbleSet, NibbleSet)>]) -> Option<Index> {
        const KIND: u32 = (1 << action::BITS) - 1;
        let width = net.alphabet + 1;
        let sets = net.loops.len() / crate::simd::LOOP_SET_BYTES;
        if sets == 0 || net.actions.is_empty() {
            return None;
        }
        let action = |s: usize, b: u8| net.actions[s * width + net.classes[b as usize] as usize];
        let target = |a: u32| (a >> action::BITS) as usize / width;
        let shifts = |a: u32| a & KIND == action::SHIFT || a & KIND == action::SHIFT_LOOP;
        // The best quoted set: (sources, set, quote byte).
        let mut best: Option<(usize, usize, u8)> = None;
        for k in 0..sets {
            let set = LoopSet::from_records(net.loops, k);
            if !set.escaped.is_empty() {
                continue;
            }
            let in_set = |s: usize| net.loop_of.get(s).is_some_and(|&l| l as usize == k + 1);
            // States an escape's first byte leads to: their shifts back
            // into the set are escapes, not quotes.
            let mut inner = vec![false; net.states];
            if let Some(Some((x, _))) = pairs.get(k) {
                for s in (0..net.states).filter(|&s| in_set(s)) {
                    for b in (0..0x80u8).filter(|&b| x.contains(b)) {
                        let a = action(s, b);
                        if shifts(a) {
                            inner[target(a)] = true;
                        }
                    }
                }
            }
            for q in 0..0x80u8 {
                let leaves = (0..net.states).filter(|&s| in_set(s)).all(|s| {
                    let a = action(s, q);
                    !(shifts(a) && in_set(target(a)))
                });
                if !leaves {
                    continue;
                }
                let sources = (0..net.states)
                    .filter(|&s| !in_set(s) && !inner[s])
                    .filter(|&s| {
                        let a = action(s, q);
                        a & KIND == action::SHIFT_LOOP && in_set(target(a))
                    })
                    .count();
                if sources > 0 && best.is_none_or(|(n, _, _)| sources > n) {
                    best = Some((sources, k, q));
                }
            }
        }
        let (_, k, q) = best?;
        let in_set = |s: usize| net.loop_of.get(s).is_some_and(|&l| l as usize == k + 1);
        // The commonest self-loop set of the states outside the loop set.
        let mut loops: Vec<(u128, usize)> = Vec::new();
        for s in (1..net.states).filter(|&s| !in_set(s)) {
            let mut bytes = 0u128;
            for b in 0..0x80u8 {
                let a = action(s, b);
                if a & KIND == action::SHIFT && target(a) == s && b != q {
                    bytes |= 1 << b;
                }
            }
            if bytes == 0 {
                continue;
            }
            match loops.iter_mut().find(|(set, _)| *set == bytes) {
                Some((_, n)) => *n += 1,
                None => loops.push((bytes, 1)),
            }
        }
        loops.sort_by_key(|&(set, n)| core::cmp::Reverse((n, set.count_ones())));
        let first = loops.first().map_or(0, |&(set, _)| set);
        let second = loops
            .iter()
            .find(|&&(set, _)| set & first == 0)
            .map_or(0, |&(set, _)| set);
        let mut flags = vec![0u8; net.states * width];
        let long = long_escapes(net, pairs.get(k).copied().flatten(), &in_set);
        let none = NibbleSet([0; 16]);
        let [long_first, long_then] = long.map_or([none; 2], |(sets, _)| sets);
        let set = LoopSet::from_records(net.loops, k);
        let (x, e) = pairs.get(k).copied().flatten().unwrap_or((none, none));
        let mut classes = [
            NibbleClass::ascii(NibbleSet::of(&[q])),
            NibbleClass::NONE,
            NibbleClass::NONE,
            NibbleClass::ascii(long_first),
            NibbleClass::ascii(long_then),
            NibbleClass::ascii(set.bytes),
            NibbleClass::ascii(x),
            NibbleClass::ascii(e),
            NibbleClass::leads(set.leads),
            NibbleClass::high(0xE, 0xE),
            NibbleClass::high(0x8, 0xB),
            four_leads(net, &in_set),
            NibbleClass::high(0x9, 0xB),
        ];
        let mut entered = [0u64; 2];
        for (r, set) in [first, second].into_iter().enumerate() {
            let bytes: Vec<u8> = (0..0x80u8).filter(|&b| set >> b & 1 == 1).collect();
            classes[Classes::RUNS + r] = NibbleClass::ascii(NibbleSet::of(&bytes));
            if bytes.is_empty() {
                continue;
            }
            for s in 0..net.states {
                let me = ((s * width) as u32) << action::BITS | action::SHIFT;
                if bytes.iter().all(|&b| action(s, b) == me) {
                    flags[s * width] |= ON_RUN[r];
                }
            }
            // The first byte of a run is an event if as many states enter
            // the set's looping states by its bytes as loop on it (digits
            // start numbers; white space mostly follows a state that loops
            // on it already).
            let looping = (0..net.states)
                .filter(|&s| flags[s * width] & ON_RUN[r] != 0)
                .count();
            let entering = (0..net.states)
                .filter(|&s| {
                    flags[s * width] & ON_RUN[r] == 0
                        && bytes.iter().any(|&b| {
                            let a = action(s, b);
                            shifts(a) && flags[target(a) * width] & ON_RUN[r] != 0
                        })
                })
                .count();
            let enters = entering >= looping;
            entered[r] = if enters { !0 } else { 0 };
        }
        for s in 0..net.states {
            flags[s * width] |= ALWAYS | if in_set(s) { IN_SET } else { 0 };
        }
        // The fused table: rows must fit in its payload, and every row the
        // walk can reach must be a row of the table (stage 2 reads it
        // without bounds checks).
        let size = net.states * width;
        let is_row = |r: usize| r < size && r.is_multiple_of(width);
        let rows_ok = size < 1 << (32 - Fused::PAYLOAD)
            && net.starts.iter().all(|&s| is_row(s as usize * width))
            && net.calls.iter().all(|&x| is_row(x as usize * width))
            && net
                .actions
                .iter()
                .all(|&a| !shifts(a) || is_row((a >> action::BITS) as usize));
        if !rows_ok {
            return None;
        }
        // One more row, of `OTHER` entries: the row of the stack's
        // sentinel (`Stack::new`), which a return with no call open
        // reads.
        let mut fused = vec![Fused::OTHER; size + width];
        for row in (0..net.states).map(|s| s * width) {
            let f = flags[row];
            for c in 0..net.alphabet {
                let a = net.actions[row + c];
                let payload = a >> action::BITS;
                fused[row + c] = match a & KIND {
                    action::SHIFT | action::SHIFT_LOOP => Fused::entry(0, f, payload),
                    action::RETURN => Fused::entry(Fused::RETURN, f, 0),
                    action::CALL => {
                        let (callee, ret) = (
                            net.calls[2 * payload as usize],
                            net.calls[2 * payload as usize + 1],
                        );
                        let first = net.actions[net.starts[callee as usize] as usize * width + c];
                        if shifts(first) {
                            let entry = Fused::entry(Fused::CALL, f, first >> action::BITS);
                            entry | (u64::from(ret) * width as u64) << Fused::RETURN_ROW
                        } else {
                            Fused::entry(Fused::OTHER, f, 0)
                        }
                    }
                    _ => Fused::entry(Fused::OTHER, f, 0),
                };
            }
        }
        Some(Index {
            classes: PackedClasses::pack(&classes)?,
            narrow: PackedClasses::pack(classes[..Classes::FOUR].try_into().ok()?)?,
            long: long.map_or(1, |(_, len)| len),
            entered,
            flags,
            fused,
        })
    }
}

/// The lead bytes `0xF0`-`0xF3` of four-byte UTF-8 characters that every
/// state of the quoted loop set (`in_set`) shifts back to itself on,
/// followed by any byte `0x90`-`0xBF` and two of `0x80`-`0xBF` (the
/// character's bytes each lead to one state; a second byte `0x80`-`0x8F`
/// after `0xF1`-`0xF3` stays an event): a class of stage 1, empty if the
/// table has none.
fn four_leads(net: &Network<'_>, in_set: &dyn Fn(usize) -> bool) -> NibbleClass {
    const KIND: u32 = (1 << action::BITS) - 1;
    let width = net.alphabet + 1;
    let action = |row: usize, b: u8| net.actions[row + net.classes[b as usize] as usize];
    let shift_to = |a: u32| match a & KIND {
        action::SHIFT | action::SHIFT_LOOP => Some((a >> action::BITS) as usize),
        _ => None,
    };
    // The one row that every byte of `bytes` shifts `row` to.
    let one = |row: usize, bytes: core::ops::RangeInclusive<u8>| {
        let mut to = bytes.map(|b| shift_to(action(row, b)));
        let first = to.next()??;
        to.all(|t| t == Some(first)).then_some(first)
    };
    let mut lo = [0u8; 16];
    let rows: Vec<usize> = (0..net.states)
        .filter(|&s| in_set(s))
        .map(|s| s * width)
        .collect();
    for lead in 0xF0..=0xF3u8 {
        let back = !rows.is_empty()
            && rows.iter().all(|&row| {
                let q1 = one(row, lead..=lead);
                let q2 = q1.and_then(|q| one(q, 0x90..=0xBF));
                let q3 = q2.and_then(|q| one(q, 0x80..=0xBF));
                q3.and_then(|q| one(q, 0x80..=0xBF)) == Some(row)
            });
        if back {
            lo[usize::from(lead & 15)] = 1;
        }
    }
    let mut hi = [0u8; 16];
    hi[15] = 1;
    NibbleClass { lo, hi }
}

/// The long escapes of a loop set whose two-byte escapes are `pairs`
/// (escape bytes `x`, bytes `e` that shift straight back): from every
/// state of the set (`in_set`), an escape byte, then a byte of a set `f`
/// that leads into a chain of `len` steps (at most 8) on one byte set `h`
/// that shifts back into the state, every other byte failing there.
/// JSON's `\u` followed by four hexadecimal digits.
fn long_escapes(
    net: &Network<'_>,
    pairs: Option<(NibbleSet, NibbleSet)>,
    in_set: &dyn Fn(usize) -> bool,
) -> Option<([NibbleSet; 2], usize)> {
    const KIND: u32 = (1 << action::BITS) - 1;
    let (x, e) = pairs?;
    let width = net.alphabet + 1;
    let action = |row: usize, b: u8| net.actions[row + net.classes[b as usize] as usize];
    let shift_to = |a: u32| match a & KIND {
        action::SHIFT | action::SHIFT_LOOP => Some((a >> action::BITS) as usize),
        _ => None,
    };
    // The bytes of `row` that shift to `to`, and whether every other byte
    // fails there.
    let bytes_to = |row: usize, to: usize| {
        let bytes: Vec<u8> = (0..0x80u8)
            .filter(|&b| shift_to(action(row, b)) == Some(to))
            .collect();
        let alone = (0..=0xFFu8).all(|b| bytes.contains(&b) || action(row, b) == action::ERROR);
        (bytes, alone)
    };
    let mut found: Option<([NibbleSet; 2], usize)> = None;
    for s in (0..net.states).filter(|&s| in_set(s)) {
        let row = s * width;
        // Every escape byte leads to one state.
        let mut xs = (0..0x80u8)
            .filter(|&b| x.contains(b))
            .map(|b| shift_to(action(row, b)));
        let p = xs.next()??;
        if xs.any(|to| to != Some(p)) {
            return None;
        }
        // The first byte after the escape byte: one that is not a pair's.
        let fb = (0..0x80u8).find(|&b| !e.contains(b) && shift_to(action(p, b)).is_some())?;
        let mut q = shift_to(action(p, fb))?;
        if q == row {
            return None;
        }
        let (first, _) = bytes_to(p, q);
        let mut then: Option<Vec<u8>> = None;
        let mut len = 0;
        loop {
            let b = (0..0x80u8).find(|&b| shift_to(action(q, b)).is_some())?;
            let to = shift_to(action(q, b))?;
            let (bytes, alone) = bytes_to(q, to);
            if !alone || then.as_ref().is_some_and(|t| *t != bytes) {
                return None;
            }
            then = Some(bytes);
            len += 1;
            if to == row {
                break;
            }
            if len >= 8 {
                return None;
            }
            q = to;
        }
        let sets = [NibbleSet::of(&first), NibbleSet::of(&then?)];
        if found.is_some_and(|f| f != (sets, len)) {
            return None;
        }
        found = Some((sets, len));
    }
    found
}

/// Windows of `width` bits (a constant where it is called, so that the
/// doubling steps unroll): bit `j` where bits `j .. j + width` of `m` are
/// all set.
#[inline(always)]
fn window_all<V: Lanes>(m: V, width: usize) -> V {
    let (mut r, mut have) = (m, 1);
    while 2 * have <= width {
        r = r & r.shr(have as u32);
        have *= 2;
    }
    if have < width {
        r = r & r.shr((width - have) as u32);
    }
    r
}

/// Bit `j` where any of bits `j - width + 1 ..= j` of `m` is set (see
/// [`window_all`]).
#[inline(always)]
fn window_any<V: Lanes>(m: V, width: usize) -> V {
    let (mut r, mut have) = (m, 1);
    while 2 * have <= width {
        r = r | r.shl(have as u32);
        have *= 2;
    }
    if have < width {
        r = r | r.shl((width - have) as u32);
    }
    r
}

/// Stage 1's blocks in a batch.
const BATCH: usize = 16;

// A row of `Blocks::bad` is `1 << Fused::FLAGS` bytes (`Index::fast`).
const _: () = assert!(8 * BATCH == 1 << Fused::FLAGS);

/// A batch's blocks as stage 1 classifies them (bit `j` of `events[i]`:
/// byte `j` of block `i`), each mask of all the blocks side by side, so
/// that stage 1 writes several blocks' with one vector ([`Lanes`]).
struct Blocks {
    /// Bytes the walk steps at (see the module's documentation).
    events: [u64; BATCH],
    /// Bytes inside strings where a skip may start: those the quoted loop
    /// set skips, but not inside a sequence (a character, an escape) that
    /// starts before them.
    strings: [u64; BATCH],
    /// Bytes of each self-loop set outside strings.
    runs: [[u64; BATCH]; 2],
    /// The events after a gap (skipped bytes) that a state with skip
    /// flags `f` ([`Fused::FLAG_BITS`]) may not skip: `bad[f * BATCH + i]`
    /// in block `i`.
    bad: [u64; 8 * BATCH],
    /// What the walk's state needs to skip the gap from the last event
    /// to the block's end (to the input's, in its last block): the bit of
    /// [`Index::flags`] for the gap's kind ([`Block::need_at`]), or
    /// [`ALWAYS`] if there is no gap (a state's flags meet it then).
    trail: [u64; BATCH],
}

impl Blocks {
    const EMPTY: Blocks = Blocks {
        events: [0; BATCH],
        strings: [0; BATCH],
        runs: [[0; BATCH]; 2],
        bad: [0; 8 * BATCH],
        trail: [ALWAYS as u64; BATCH],
    };

    /// Block `i` for the slow steps.
    fn block(&self, i: usize) -> Block {
        Block {
            events: self.events[i],
            strings: self.strings[i],
            runs: [self.runs[0][i], self.runs[1][i]],
        }
    }

    /// Block `i` with its bytes from `live` (1 to 63) on cut off (the
    /// input ends there), and what its trailing gap needs then.
    fn end(&mut self, i: usize, live: usize) {
        self.events[i] &= (1 << live) - 1;
        // The trailing gap starts after the last event (at the block's
        // start if it has none: it goes on from an earlier block).
        let gap = 64 - self.events[i].leading_zeros() as usize;
        self.trail[i] = u64::from(if gap < live {
            self.block(i).need_at(gap)
        } else {
            ALWAYS
        });
    }
}

/// One block of [`Blocks`], for the slow steps.
struct Block {
    events: u64,
    strings: u64,
    runs: [u64; 2],
}

impl Block {
    /// The first byte of the block at `at` not stepped yet, with its
    /// events `left` not taken: after the last event taken, else the
    /// block's first (a gap from an earlier block ended in one the walk's
    /// state loops on).
    fn next(&self, at: usize, left: u64) -> usize {
        let done = self.events & !left;
        if done == 0 {
            at
        } else {
            at + 64 - done.leading_zeros() as usize
        }
    }

    /// What the walk's state needs to skip the bytes from `off` (below
    /// 64) to the next event: a bit of [`Index::flags`] (0 if they cannot
    /// be skipped).
    #[inline(always)]
    fn need_at(&self, off: usize) -> u8 {
        let bit = |mask: u64| (mask >> off & 1) as u8;
        (bit(self.strings) * IN_SET) | (bit(self.runs[0]) * ON_RUN[0]) | (bit(self.runs[1]) * ON_RUN[1])
    }
}

/// A batch classified by [`Index::classes`] (`raw[k][i]`: the bytes of
/// block `i` in class `k`), as [`crate::simd::classify_blocks`] writes it.
type Raw = [[u64; BATCH]; Classes::COUNT];

/// The classes of [`Index::classes`].
struct Classes;

impl Classes {
    const COUNT: usize = 13;
    /// The first of the two self-loop sets' classes.
    const RUNS: usize = 1;
    /// The escape bytes' class (the two-byte escapes' first bytes).
    const OPEN: usize = 6;
    /// The lead bytes of four-byte characters ([`four_leads`]).
    const FOUR: usize = 11;
}

/// Stage 1: the blocks, classified in order, with what carries from one
/// block to the next.
struct Stage1<'x> {
    index: &'x Index,
    /// Whether the first byte of the next block is escaped (it follows an
    /// odd row of escape bytes).
    escaped: u64,
    /// 1 if the next block starts inside a string.
    in_string: u64,
    /// The last block's skipped strings, runs of each self-loop set, their
    /// union, and bytes that are not events (their last bits carry).
    last: [u64; 5],
}

impl<'x> Stage1<'x> {
    fn new(index: &'x Index) -> Stage1<'x> {
        Stage1 {
            index,
            escaped: 0,
            in_string: 0,
            last: [0; 5],
        }
    }

    /// The bytes escaped by the escape bytes `open` of a block: those
    /// after an odd row of them, the row counted across blocks
    /// (simdjson's `find_escaped`).
    #[inline(always)]
    fn escaped(&mut self, open: u64) -> u64 {
        const EVEN: u64 = 0x5555_5555_5555_5555;
        let open = open & !self.escaped;
        let follows = open << 1 | self.escaped;
        let odd_starts = open & !EVEN & !follows;
        let (sum, overflow) = odd_starts.overflowing_add(open);
        self.escaped = u64::from(overflow);
        (EVEN ^ sum << 1) & follows
    }

    /// The first `count` blocks of a batch into `out`, from their
    /// classification by [`Index::classes`], with the widest lanes of
    /// `level` ([`run_lanes`]); the input ends `live` bytes into the last.
    fn blocks(&mut self, level: Level, raw: &Raw, out: &mut Blocks, count: usize, live: usize) {
        // The escapes first, block by block: their carry is an addition's.
        let mut escaped = [0u64; BATCH];
        for (e, &open) in escaped.iter_mut().zip(&raw[Classes::OPEN][..count]) {
            *e = self.escaped(open);
        }
        run_lanes(
            level,
            Stage1Lanes {
                stage1: self,
                raw,
                escaped: &escaped,
                out,
                count,
            },
        );
        if live < 64 {
            out.end(count - 1, live);
        }
    }

    /// [`Stage1::blocks`] with lanes `V`, for long escapes of `LONG`
    /// bytes: `V::COUNT` blocks at a time (past `count`, the lanes of the
    /// last group are the batch's unused blocks, whose carries no block
    /// reads: only the input's last batch is short).
    #[inline(always)]
    fn groups<V: Lanes, const LONG: usize>(
        &mut self,
        t: V::Token,
        raw: &Raw,
        escaped: &[u64; BATCH],
        out: &mut Blocks,
        count: usize,
    ) {
        let mut g = 0;
        while g < count {
            self.group::<V, LONG>(t, raw, escaped, g, out);
            g += V::COUNT;
        }
    }

    /// The blocks `g ..` `g + V::COUNT` (see the module's documentation).
    #[inline(always)]
    fn group<V: Lanes, const LONG: usize>(
        &mut self,
        t: V::Token,
        raw: &Raw,
        escaped: &[u64; BATCH],
        g: usize,
        out: &mut Blocks,
    ) {
        // `BATCH` is a multiple of every `V::COUNT`: one check for all the
        // loads and stores below.
        assert!(g + V::COUNT <= BATCH);
        let ix = self.index;
        let [quotes, run0, run1, first, then, inside, open, next, lead, high, cont, lead4, cont9] =
            core::array::from_fn(|k| V::load(t, &raw[k][g..]));
        let escaped = V::load(t, &escaped[g..]);
        let pairs = escaped & next & open.shl(1);
        let quotes = quotes & !escaped;
        let mut in_string = quotes;
        for shift in [1, 2, 4, 8, 16, 32] {
            in_string = in_string ^ in_string.shl(shift);
        }
        // A block starts inside a string after an odd number of quotes.
        in_string = in_string ^ in_string.shr(63).up(self.in_string).xor_prefix().neg();
        self.in_string = in_string.last() >> 63;
        // Whole UTF-8 characters of two, three and four bytes in the
        // block (the last with a second byte `0x90`-`0xBF`: emoji).
        let two = lead & !high & cont.shr(1) | pairs.shr(1);
        let three = lead & high & cont.shr(1) & cont.shr(2);
        let four = lead4 & cont9.shr(1) & cont.shr(2) & cont.shr(3);
        // Long escapes: an escape byte that escapes a byte of the first
        // set, then `len` bytes of the second, all in the block (none if
        // the loop set has none: the two sets are empty).
        let long_starts = (escaped & first).shr(1) & open & window_all(then, LONG).shr(2);
        let mid = three.shl(1)
            | three.shl(2)
            | four.shl(1)
            | four.shl(2)
            | four.shl(3)
            | two.shl(1)
            | window_any(long_starts, LONG + 1).shl(1);
        let strings = in_string & !quotes & (inside | three | four | two | long_starts | mid);
        let runs = [run0 & !in_string, run1 & !in_string];
        // A byte is skipped if it is in a string or a run, but not where a
        // run of one kind follows a run of another (a number after white
        // space): so the bytes between two events are all of one kind.
        let kinds = [strings, runs[0], runs[1], strings | runs[0] | runs[1]];
        // Per kind, the bytes after one of that kind (the last byte of
        // the block before carries).
        let after: [V; 4] = core::array::from_fn(|k| kinds[k].shl(1) | kinds[k].up(self.last[k]).shr(63));
        let starts = [strings & !after[0], runs[0] & !after[1], runs[1] & !after[2]];
        let events = !kinds[3]
            | (starts[0] | starts[1] | starts[2]) & after[3]
            | starts[1] & V::splat(t, ix.entered[0])
            | starts[2] & V::splat(t, ix.entered[1]);
        let skipped = !events;
        let gap = events & (skipped.shl(1) | skipped.up(self.last[4]).shr(63));
        // The gaps of each kind: the bytes before them are of one kind.
        let gaps = [gap & after[0], gap & after[1], gap & after[2]];
        // What the gap to the block's end needs: the kind of its last byte
        // (a gap's bytes are of one kind, and its first is no sequence's
        // middle, as no event is), or nothing if that byte is an event.
        let trail =
            kinds[0].shr(63) | kinds[1].shr(63).shl(1) | kinds[2].shr(63).shl(2) | events.shr(63).shl(3);
        trail.store(&mut out.trail[g..]);
        events.store(&mut out.events[g..]);
        (strings & !mid).store(&mut out.strings[g..]);
        runs[0].store(&mut out.runs[0][g..]);
        runs[1].store(&mut out.runs[1][g..]);
        for f in 0..8 {
            let bad = (0..3)
                .filter(|&k| f >> k & 1 == 0)
                .fold(V::splat(t, 0), |bad, k| bad | gaps[k]);
            bad.store(&mut out.bad[f * BATCH + g..]);
        }
        self.last = [
            kinds[0].last(),
            kinds[1].last(),
            kinds[2].last(),
            kinds[3].last(),
            skipped.last(),
        ];
    }
}

/// [`Stage1::blocks`] as a [`LaneTask`]: the groups of blocks, with the
/// long escapes' length as a constant (so that their windows unroll).
struct Stage1Lanes<'s, 'x> {
    stage1: &'s mut Stage1<'x>,
    raw: &'s Raw,
    escaped: &'s [u64; BATCH],
    out: &'s mut Blocks,
    count: usize,
}

impl LaneTask for Stage1Lanes<'_, '_> {
    type Output = ();

    #[inline(always)]
    fn run<V: Lanes>(self, t: V::Token) {
        let Stage1Lanes {
            stage1,
            raw,
            escaped,
            out,
            count,
        } = self;
        match stage1.index.long {
            1 => stage1.groups::<V, 1>(t, raw, escaped, out, count),
            2 => stage1.groups::<V, 2>(t, raw, escaped, out, count),
            3 => stage1.groups::<V, 3>(t, raw, escaped, out, count),
            4 => stage1.groups::<V, 4>(t, raw, escaped, out, count),
            5 => stage1.groups::<V, 5>(t, raw, escaped, out, count),
            6 => stage1.groups::<V, 6>(t, raw, escaped, out, count),
            7 => stage1.groups::<V, 7>(t, raw, escaped, out, count),
            _ => stage1.groups::<V, 8>(t, raw, escaped, out, count),
        }
    }
}

/// The walk's stack of open calls: per call, a word whose high half is
/// the row it returns to (the call's fused entry: [`Fused::RETURN_ROW`]),
/// and the offset where it was called, in a parallel array. `words[1]`
/// is a sentinel (and `words[0]` a copy, the word below it: stage 2 reads
/// the word below the top before it knows whether it pops), the calls
/// are `words[2 ..= len + 1]`; stage 2 keeps the top in a register and
/// pushes and pops in place while the arrays have room.
struct Stack {
    /// The words while they fit, then `heap`; the offsets likewise.
    inline: [u64; Stack::INLINE],
    inline_at: [usize; Stack::INLINE],
    heap: Vec<u64>,
    heap_at: Vec<usize>,
    len: usize,
}

impl Stack {
    /// Words on the walk's own stack: 126 open calls before an
    /// allocation (stage 2's loop needs room for a block's 64 calls to
    /// skip its check of the room).
    const INLINE: usize = 128;

    /// No open call, for a fused table of `size` entries: the sentinel
    /// is the row after them, all of whose entries are `OTHER`.
    fn new(size: usize) -> Stack {
        Stack {
            inline: [Stack::word(size); Stack::INLINE],
            inline_at: [0; Stack::INLINE],
            heap: Vec::new(),
            heap_at: Vec::new(),
            len: 0,
        }
    }

    /// The pad, the sentinel, then the open calls, then room; and the
    /// offsets of the calls, at the same indices.
    #[inline(always)]
    fn parts(&self) -> (&[u64], &[usize]) {
        if self.heap.is_empty() {
            (&self.inline, &self.inline_at)
        } else {
            (&self.heap, &self.heap_at)
        }
    }

    #[inline(always)]
    fn parts_mut(&mut self) -> (&mut [u64], &mut [usize]) {
        if self.heap.is_empty() {
            (&mut self.inline, &mut self.inline_at)
        } else {
            (&mut self.heap, &mut self.heap_at)
        }
    }

    /// The word of a call that returns to `row`.
    #[inline(always)]
    fn word(row: usize) -> u64 {
        (row as u64) << Fused::RETURN_ROW
    }

    /// The row a word returns to.
    #[inline(always)]
    fn row(word: u64) -> usize {
        (word >> Fused::RETURN_ROW) as usize
    }

    /// Where the top is in [`Stack::parts`] with `len` calls open.
    #[inline(always)]
    fn top_at(len: usize) -> usize {
        len + 1
    }

    /// Push a call; `false` if `depth` calls are open already.
    fn push(&mut self, ret: usize, at: usize, depth: usize) -> bool {
        if self.len >= depth {
            return false;
        }
        if Stack::top_at(self.len + 2) >= self.parts().0.len() {
            if self.heap.is_empty() {
                self.heap.extend_from_slice(&self.inline);
                self.heap_at.extend_from_slice(&self.inline_at);
            }
            self.heap.resize(self.heap.len() * 2, 0);
            self.heap_at.resize(self.heap.len(), 0);
        }
        self.len += 1;
        let top = Stack::top_at(self.len);
        let (words, offsets) = self.parts_mut();
        words[top] = Stack::word(ret);
        offsets[top] = at;
        true
    }

    fn pop(&mut self) -> Option<usize> {
        let len = self.len.checked_sub(1)?;
        let top = self.parts().0[Stack::top_at(self.len)];
        self.len = len;
        Some(Stack::row(top))
    }

    /// The offset where the innermost open call was made.
    fn open(&self) -> Option<usize> {
        let len = self.len;
        (len > 0).then(|| self.parts().1[Stack::top_at(len)])
    }
}

/// Stage 2's state between two events in its fast loop ([`Index::fast`]).
struct Regs {
    /// The walk's state (a row of the fused table).
    row: usize,
    /// The stack's length and top (`words[Stack::top_at(len)]`, kept
    /// here: the sentinel with no call open).
    top: u64,
    len: usize,
    /// The block of the batch the walk is in, and its events not taken
    /// yet.
    block: usize,
    left: u64,
}

/// What stage 2's fast loop reads of a batch: the network's byte
/// classes, the batch's bytes (from `base` in the input) and its blocks.
struct Batch<'b> {
    classes: &'b [u8; 256],
    bytes: &'b [u8],
    base: usize,
    blocks: &'b Blocks,
    count: usize,
}

/// The stack's parts for stage 2's fast loop ([`Stack::parts_mut`]), and
/// how many calls may be open.
struct Room<'s> {
    words: &'s mut [u64],
    offsets: &'s mut [usize],
    room: usize,
}

impl Index {
    /// Stage 2's fast loop over the events of a batch of `blocks` (their
    /// bytes from `bytes[0]`, at `base` in the input), from the block and
    /// events in `regs`: shifts, calls and returns of the fused table,
    /// with no branch on which it is (they are selected with masks, and
    /// the stack's top stays in a register), until the batch is done or
    /// an event needs the slow steps (then `regs` are as they were before
    /// it). Calls push while fewer than `room` are open, checked per
    /// event if `CHECKED`; else per block, which must leave room for its
    /// 64 events. A function of its own, so that its state has the
    /// registers.
    #[inline(never)]
    fn fast<const CHECKED: bool>(&self, batch: &Batch<'_>, regs: &mut Regs, stack: Room<'_>) -> Exit {
        self.fast_any::<CHECKED>(batch, regs, stack)
    }

    /// [`Index::fast`] for CPUs with BMI1 and BMI2.
    ///
    /// # Safety
    ///
    /// The CPU must have BMI1 and BMI2.
    #[cfg(target_arch = "x86_64")]
    #[inline(never)]
    #[target_feature(enable = "bmi1,bmi2")]
    unsafe fn fast_bmi<const CHECKED: bool>(
        &self,
        batch: &Batch<'_>,
        regs: &mut Regs,
        stack: Room<'_>,
    ) -> Exit {
        self.fast_any::<CHECKED>(batch, regs, stack)
    }

    /// [`Index::fast`], checked per event or not, with BMI1 and BMI2
    /// where [`crate::simd::bmi`] says so.
    #[inline(always)]
    fn fast_with(
        &self,
        bmi: bool,
        checked: bool,
        batch: &Batch<'_>,
        regs: &mut Regs,
        stack: Room<'_>,
    ) -> Exit {
        #[cfg(target_arch = "x86_64")]
        if bmi {
            // SAFETY: `simd::bmi` found BMI1 and BMI2 on this CPU (CPUID),
            // the functions' target features.
            return unsafe {
                if checked {
                    self.fast_bmi::<true>(batch, regs, stack)
                } else {
                    self.fast_bmi::<false>(batch, regs, stack)
                }
            };
        }
        let _ = bmi;
        if checked {
            self.fast::<true>(batch, regs, stack)
        } else {
            self.fast::<false>(batch, regs, stack)
        }
    }

    /// The body of [`Index::fast`].
    #[inline(always)]
    fn fast_any<const CHECKED: bool>(
        &self,
        &Batch {
            classes,
            bytes,
            base,
            blocks,
            count,
        }: &Batch<'_>,
        regs: &mut Regs,
        Room { words, offsets, room }: Room<'_>,
    ) -> Exit {
        let fused = &self.fused[..];
        let Regs {
            mut row,
            mut top,
            mut len,
            block: mut i,
            mut left,
        } = *regs;
        debug_assert!(Stack::top_at(room) < words.len() && words.len() == offsets.len());
        debug_assert!(i < count && count <= BATCH && bytes.len() > 64 * (count - 1));
        let exit = 'walk: loop {
            let at = base + 64 * i;
            let blk = &bytes[64 * i..];
            // The block's column of `bad`: its row for skip flags `f` is
            // `f * BATCH` words on, the entry's flags bits as bytes.
            let bad_at = blocks.bad[i..].as_ptr();
            while left != 0 {
                let off = left.trailing_zeros() as usize;
                // A call may push while fewer than `room` calls are open.
                if CHECKED && len >= room {
                    break 'walk Exit::Slow { off, skipped: false };
                }
                // SAFETY: `off < blk.len()`: events are bytes of the input
                // (`Blocks::end` cuts the input's last block).
                let class = classes[unsafe { *blk.get_unchecked(off) } as usize] as usize;
                // SAFETY: `row` is a row of the table (`Index::of` checked
                // every row a shift, call or return goes to), and the table
                // has `alphabet + 1` columns.
                let a = unsafe { *fused.get_unchecked(row + class) };
                // SAFETY: the flags bits are `8 BATCH f` bytes with `f < 8`
                // (`Fused::FLAGS`): the word `bad[f * BATCH + i]`.
                let bad = unsafe { bad_at.byte_add((a & Fused::FLAG_BITS) as usize).read() };
                if bad >> off & 1 != 0 {
                    break 'walk Exit::Slow { off, skipped: false };
                }
                // The action after a return, from the row on top (the
                // sentinel's `OTHER` if no call is open).
                let up = Stack::row(top);
                // SAFETY: every word of the stack holds a row of the table
                // or the sentinel's, the table's extra last row.
                let t = unsafe { *fused.get_unchecked(up + class) };
                // SAFETY: `top_at(len) - 1 = len < words.len()` (the pad
                // word below the sentinel with no call open).
                let below = unsafe { *words.get_unchecked(len) };
                let ret = a & Fused::RETURN != 0;
                let b = select_unpredictable(ret, t, a);
                // One branch, which the slow cases only take: anything but
                // a shift or a call (a return on top of a return, no call
                // open).
                if b & (Fused::RETURN | Fused::OTHER) != 0 {
                    break 'walk Exit::Slow { off, skipped: true };
                }
                let call = b & Fused::CALL != 0;
                // SAFETY: `top_at(len + 1) < words.len() = offsets.len()`:
                // `len < room` (checked above, or for the whole block).
                unsafe {
                    *words.get_unchecked_mut(Stack::top_at(len)) = top;
                    // The offset of the call this is if it is one.
                    *offsets.get_unchecked_mut(Stack::top_at(len + 1)) = at + off;
                }
                top = select_unpredictable(call, b, select_unpredictable(ret, below, top));
                len = len + usize::from(call) - usize::from(ret);
                row = Fused::row(b);
                left &= left - 1;
            }
            // The block's end: a gap to it must be one the state loops on.
            if u64::from(self.flags[row]) & blocks.trail[i] == 0 {
                break Exit::Trailing;
            }
            i += 1;
            if i == count {
                break Exit::Done;
            }
            left = blocks.events[i];
            if !CHECKED && len + 64 > room {
                break Exit::Room;
            }
        };
        *regs = Regs {
            row,
            top,
            len,
            block: i,
            left,
        };
        exit
    }
}

/// Why stage 2's fast loop stopped.
enum Exit {
    /// The batch's events are done.
    Done,
    /// At the event at `off` in the block, the state does not loop on
    /// the gap before it, or (`skipped`: the gap was skipped, and returns
    /// taken) the fused table has no entry for the action, or the stack
    /// is full.
    Slow { off: usize, skipped: bool },
    /// The block ends in a gap the state does not loop on.
    Trailing,
    /// The next block's events might fill the stack's room.
    Room,
}

impl Network<'_> {
    /// [`Network::walk_table`] over stage 1's index: the same
    /// answer (and the same failure), stepping at events only (and at the
    /// bytes of a gap between events where the walk's state does not loop
    /// on them).
    pub(crate) fn walk_indexed(
        &self,
        rule: usize,
        input: &[u8],
        limits: Limits,
        index: &Index,
    ) -> Result<(), Failure> {
        let width = self.alphabet + 1;
        let n = input.len();
        let mut stage1 = Stage1::new(index);
        let mut row = self.starts[rule] as usize * width;
        let mut stack = Stack::new(self.states * width);
        let mut raw: Raw = [[0; BATCH]; Classes::COUNT];
        let mut blocks = Blocks::EMPTY;
        let level = Level::detected();
        let bmi = crate::simd::bmi();
        let mut base = 0;
        while base < n {
            // Stage 1 for a batch of blocks.
            let count = (n - base).div_ceil(64).min(BATCH);
            if level >= Level::Avx2 {
                classify_blocks(&index.classes, input, base, &mut raw, count);
            } else {
                // The four-byte characters' rows stay as made: empty.
                let narrow: &mut [[u64; BATCH]; Classes::FOUR] = (&mut raw[..Classes::FOUR])
                    .try_into()
                    .expect("the classes before the four-byte ones");
                classify_blocks(&index.narrow, input, base, narrow, count);
            }
            let end = n.min(base + 64 * count);
            stage1.blocks(level, &raw, &mut blocks, count, end - (base + 64 * (count - 1)));
            let blocks = &blocks;
            let bytes = &input[base..end];
            // Stage 2 over them: the fast loop, and the slow steps where
            // it stops.
            let mut regs = Regs {
                row,
                top: 0,
                len: stack.len,
                block: 0,
                left: blocks.events[0],
            };
            let batch = Batch {
                classes: &self.classes,
                bytes,
                base,
                blocks,
                count,
            };
            loop {
                let (words, offsets) = stack.parts_mut();
                let room = (words.len() - 2).min(limits.depth);
                regs.top = words[Stack::top_at(regs.len)];
                let checked = regs.len + 64 > room;
                let exit = index.fast_with(bmi, checked, &batch, &mut regs, Room { words, offsets, room });
                let words = stack.parts_mut().0;
                words[Stack::top_at(regs.len)] = regs.top;
                stack.len = regs.len;
                // The block the loop stopped in (past the batch's last
                // after `Done`, which needs none).
                let (block, at) = (blocks.block(regs.block.min(count - 1)), base + 64 * regs.block);
                match exit {
                    Exit::Done => break,
                    // On with a check per event.
                    Exit::Room => {}
                    Exit::Slow { off, skipped } => {
                        let p = at + off;
                        // The gap before the event where the state does not
                        // loop on it (unless skipped already), then the
                        // event with the network's own table.
                        let from = if skipped { p } else { block.next(at, regs.left) };
                        regs.row =
                            self.step_gap(regs.row, &mut stack, input, limits, (index, &block), (from, p))?;
                        regs.row = self.step(regs.row, &mut stack, input, p, limits)?;
                        regs.left &= regs.left - 1;
                        regs.len = stack.len;
                    }
                    Exit::Trailing => {
                        // A gap to the block's end that the state does not
                        // loop on: stepped here, where the block's masks
                        // say where it may be skipped.
                        let gap = (block.next(at, regs.left), n.min(at + 64));
                        regs.row =
                            self.step_gap(regs.row, &mut stack, input, limits, (index, &block), gap)?;
                        regs.len = stack.len;
                        regs.block += 1;
                        if regs.block == count {
                            break;
                        }
                        regs.left = blocks.events[regs.block];
                    }
                }
            }
            row = regs.row;
            base += 64 * count;
        }
        // The end of the input.
        self.step(row, &mut stack, input, n, limits).map(|_| ())
    }

    /// The bytes `from .. to` of a block (`to` at most its end): stepped
    /// one by one until the walk's state loops on the rest.
    fn step_gap(
        &self,
        mut row: usize,
        stack: &mut Stack,
        input: &[u8],
        limits: Limits,
        (index, block): (&Index, &Block),
        (from, to): (usize, usize),
    ) -> Result<usize, Failure> {
        for j in from..to {
            if index.flags[row] & block.need_at(j & 63) != 0 {
                break;
            }
            // A shift of the fused table, else the network's step.
            let a = index.fused[row + self.classes[input[j] as usize] as usize];
            row = if a & 7 == 0 {
                Fused::row(a)
            } else {
                self.step(row, stack, input, j, limits)?
            };
        }
        Ok(row)
    }

    /// The walk's step at byte `p` of `input` (at its end if `p` is its
    /// length) from the state at `row`, with the network's own table:
    /// calls and returns until a shift consumes the byte; the row it
    /// shifts to. At the end of the input, which no shift consumes, `Ok`
    /// if the walk accepts there (a return with an empty stack).
    fn step(
        &self,
        mut row: usize,
        stack: &mut Stack,
        input: &[u8],
        p: usize,
        limits: Limits,
    ) -> Result<usize, Failure> {
        const KIND: u32 = (1 << action::BITS) - 1;
        let width = self.alphabet + 1;
        let n = input.len();
        let class = match input.get(p) {
            Some(&b) => self.classes[b as usize] as usize,
            None => self.alphabet,
        };
        let fail = |row: usize, kind: ErrorKind, stack: &Stack| {
            let mut f = self.failure_det(p, row / width, kind, &[]);
            f.open = stack.open().map(|at| (self.rule_of(row / width), at));
            f
        };
        loop {
            let a = self.actions[row + class];
            let payload = (a >> action::BITS) as usize;
            match a & KIND {
                action::SHIFT | action::SHIFT_LOOP if p < n => return Ok(payload),
                action::CALL => {
                    let (callee, ret) = (self.calls[2 * payload], self.calls[2 * payload + 1]);
                    if !stack.push(ret as usize * width, p, limits.depth) {
                        return Err(fail(row, ErrorKind::TooDeep, stack));
                    }
                    row = self.starts[callee as usize] as usize * width;
                }
                action::TAIL => row = self.starts[self.calls[2 * payload] as usize] as usize * width,
                action::RETURN => match stack.pop() {
                    Some(r) => row = r,
                    None if p == n => return Ok(row),
                    None => return Err(fail(row, ErrorKind::Mismatch, stack)),
                },
                _ => return Err(fail(row, ErrorKind::Mismatch, stack)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{window_all, window_any};

    /// `window_all` and `window_any` against a loop over the window's
    /// bits, for every width and random masks.
    #[test]
    fn windows_agree_with_a_loop() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for width in 1..=16 {
            for _ in 0..200 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let m = x | x >> 3;
                let (mut all, mut any) = (!0u64, 0u64);
                for k in 0..width {
                    all &= m >> k;
                    any |= m << k;
                }
                assert_eq!(window_all(m, width), all, "width {width}, {m:#x}");
                assert_eq!(window_any(m, width), any, "width {width}, {m:#x}");
            }
        }
    }
}
