//! The format of the tables that `abnf-codegen` embeds in generated code.
//!
//! This module is the one definition of that format: the generator writes
//! tables with [`write_header`] and these constants, and the runtime reads
//! them back with the same code. Every table file starts with a header of
//! [`HEADER_WORDS`] 32-bit words, written in the file's byte order:
//!
//! | word | meaning |
//! |------|---------|
//! | 0 | [`MAGIC`] (the bytes `ABNF`) |
//! | 1 | [`VERSION`] of this format |
//! | 2 | the [`Kind`] of table |
//! | 3 | the width of the table's words in bytes (2 or 4) |
//! | 4.. | parameters of the kind (see [`Kind`]) |
//!
//! A generator and a runtime that disagree on the version, or a table of the
//! other byte order, are refused with a [`WireError`]. Generated code checks
//! its tables while it is compiled (the check is a `const fn`), so a stale
//! table is a compile error that says what to do, never a wrong answer.
//!
//! ```
//! use abnf_runtime::wire::{self, Kind};
//!
//! let mut bytes = Vec::new();
//! wire::write_header(&mut bytes, Kind::Reverse, 2, &[7, 1, 0], false);
//! assert_eq!(bytes.len(), wire::HEADER_BYTES);
//! assert_eq!(&bytes[..4], b"ABNF");
//! ```

use core::fmt;

/// The first four bytes of every table.
pub const MAGIC: [u8; 4] = *b"ABNF";

/// The version of the format. Any change to a table's layout or to the
/// meaning of its words changes it (3: loop-set records carry the lead
/// bytes of the UTF-8 characters a state loops on; 5: a tagged DFA's final
/// maps are sparse, [`FINAL_TAG_SHIFT`]). Adding a kind does not
/// change it: a runtime without the kind refuses the table by its kind.
pub const VERSION: u32 = 5;

/// The header's length in 32-bit words.
pub const HEADER_WORDS: usize = 16;

/// The header's length in bytes (a multiple of 4, so that what follows it
/// stays aligned).
pub const HEADER_BYTES: usize = 4 * HEADER_WORDS;

/// How many parameters a header has room for.
pub const MAX_PARAMS: usize = HEADER_WORDS - 4;

/// The kinds of table, with the parameters their headers carry and what
/// follows the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Kind {
    /// A recognizer's transition table. Parameters: the number of byte
    /// classes (`alphabet`), the premultiplied start state, the number
    /// of words, the first state walked bit-parallel (premultiplied; the
    /// states from it on loop on many bytes), the number of such states,
    /// whether a shuffle automaton follows (1 or 0) and its start lane,
    /// whether shapes follow (1 or 0). Then 256
    /// bytes (byte → class), then the transitions (`states × alphabet`
    /// words, row 0 the dead state, entries premultiplied by `alphabet`),
    /// then one word per state that is 1 where the input may end, padded to
    /// a multiple of 4 bytes, then the loop set of each bit-parallel state
    /// ([`crate::simd::LoopSet::to_record`], 48 bytes each: single bytes,
    /// escape bytes, then the escape byte and the UTF-8 lead bytes), then
    /// the shuffle automaton if there is one ([`crate::table::Shuffle`],
    /// from the next multiple of 64 bytes: 64 bytes per byte value, lane
    /// to lane, then 64 accept bytes), then the shapes if there are some
    /// ([`crate::Shapes`], from the next multiple of 64 bytes: the low and
    /// high nibble tables, 66 bytes of shape counts by length, the length
    /// from which inputs are walked (0: none; only a tagged DFA's shapes
    /// stop early), zeros up to 128 bytes, 256 bytes of byte classes, each
    /// shape's row number, zeros
    /// up to a multiple of 64 bytes, then the 64-byte rows). A runtime that
    /// predates shapes ignores them: they only make short inputs faster.
    Table = 1,
    /// The reverse automaton of a [`Kind::Table`], for walking an input from
    /// both ends. Parameters: the premultiplied start state, the 32-bit words
    /// per state set, and the number of transition words. Then the
    /// transitions (premultiplied by the forward table's alphabet), padded
    /// to a multiple of 4 bytes, then the state sets as 32-bit bitsets.
    Reverse = 2,
    /// A tagged DFA (always 4-byte words). Parameters: `alphabet`, the
    /// number of tags, the start row, the start operation list, and the
    /// offsets (in words, from the end of the class map) of the operation
    /// lists and of the final maps; whether it trusts UTF-8; and, when it
    /// has two-byte steps, the offset of their words and of their lists
    /// (else 0, 0); the offset of the loop sets (else 0); the byte offset
    /// of its shapes (else 0). Then 256 bytes (byte → class), then the
    /// words, then, if it has them, one loop set per state
    /// ([`crate::simd::LoopSet::to_record`]: the bytes on which it loops
    /// without effect; empty for most states), then, if it has them, from
    /// the next multiple of 64 bytes, its shapes as in [`Kind::Table`]
    /// followed by each shape's tags (one byte per tag: its offset from the
    /// start of the input, `0xFF` if unset).
    Tagged = 3,
    /// A network of rule automata ([`crate::network`]; always 4-byte
    /// words). Parameters: the number of byte classes (`alphabet`), of
    /// states (the dead state 0 included), of rules, of call-edge words and
    /// of action words (0 when the network is walked by the general
    /// engine). Then 256 bytes (byte → class), then the transitions
    /// (`states × alphabet` state numbers, not premultiplied), one word per
    /// state (bit 0: the input may end there; the rest: the state's rule),
    /// `states + 1` offsets of each state's call edges, the call edges
    /// (callee rule, return state), each rule's start state, and the
    /// deterministic walk's actions (`states × (alphabet + 1)`, the last
    /// column for the end of the input; see `network::action`).
    Network = 4,
}

impl Kind {
    const fn from_u32(k: u32) -> Option<Kind> {
        match k {
            1 => Some(Kind::Table),
            2 => Some(Kind::Reverse),
            3 => Some(Kind::Tagged),
            4 => Some(Kind::Network),
            _ => None,
        }
    }
}

/// Why embedded table bytes were refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WireError {
    /// Shorter than its header or than the header says.
    Truncated,
    /// Not a table (the first bytes are not [`MAGIC`]).
    NotATable,
    /// Written by a generator with another format version.
    Version {
        /// The version in the table.
        found: u32,
    },
    /// Written in the other byte order.
    ByteOrder,
    /// Another kind of table than the one asked for.
    Kind {
        /// The kind asked for.
        expected: Kind,
    },
    /// Words of a width this kind cannot have.
    Width,
    /// The bytes do not start at a 4-byte boundary.
    Alignment,
    /// A transition or a byte class points outside its table.
    OutOfRange,
}

impl WireError {
    /// A sentence for the error, also usable where formatting is not
    /// (a `const` panic).
    pub const fn message(&self) -> &'static str {
        match self {
            WireError::Truncated => "an embedded abnf-codegen table is truncated",
            WireError::NotATable => "embedded bytes are not an abnf-codegen table",
            WireError::Version { .. } => {
                "an embedded table was written by an abnf-codegen with another table format version \
                 than this abnf-runtime reads: regenerate the code with the abnf-codegen that matches \
                 this abnf-runtime"
            }
            WireError::ByteOrder => "an embedded abnf-codegen table has the other byte order",
            WireError::Kind { .. } => "an embedded abnf-codegen table is of another kind than expected",
            WireError::Width => "an embedded abnf-codegen table has words of a width its kind cannot have",
            WireError::Alignment => "abnf-codegen table bytes must start at a 4-byte boundary",
            WireError::OutOfRange => {
                "an embedded abnf-codegen table has a transition or class outside the table"
            }
        }
    }
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())?;
        match self {
            WireError::Version { found } => write!(f, " (table format {found}, runtime reads {VERSION})"),
            WireError::Kind { expected } => write!(f, " (expected {expected:?})"),
            _ => Ok(()),
        }
    }
}

impl core::error::Error for WireError {}

/// A table's header, read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Header {
    /// Word width in bytes.
    pub(crate) width: u32,
    pub(crate) params: [u32; MAX_PARAMS],
}

/// Word `i` of `bytes`, in native byte order.
const fn word(bytes: &[u8], i: usize) -> u32 {
    u32::from_ne_bytes([bytes[4 * i], bytes[4 * i + 1], bytes[4 * i + 2], bytes[4 * i + 3]])
}

/// Reads the header of a table of `kind`; returns it and the bytes after it.
pub(crate) const fn read_header(bytes: &[u8], kind: Kind) -> Result<(Header, &[u8]), WireError> {
    if bytes.len() < HEADER_BYTES {
        return Err(WireError::Truncated);
    }
    if bytes[0] != MAGIC[0] || bytes[1] != MAGIC[1] || bytes[2] != MAGIC[2] || bytes[3] != MAGIC[3] {
        return Err(WireError::NotATable);
    }
    let version = word(bytes, 1);
    if version != VERSION {
        return Err(if version.swap_bytes() == VERSION {
            WireError::ByteOrder
        } else {
            WireError::Version { found: version }
        });
    }
    match Kind::from_u32(word(bytes, 2)) {
        Some(k) if k as u32 == kind as u32 => {}
        _ => return Err(WireError::Kind { expected: kind }),
    }
    let width = word(bytes, 3);
    if width != 2 && width != 4 {
        return Err(WireError::Width);
    }
    let mut params = [0u32; MAX_PARAMS];
    let mut i = 0;
    while i < MAX_PARAMS {
        params[i] = word(bytes, 4 + i);
        i += 1;
    }
    let (_, rest) = bytes.split_at(HEADER_BYTES);
    Ok((Header { width, params }, rest))
}

/// Copies the 256-byte class map at the start of `bytes`; returns it and
/// the bytes after it.
pub(crate) const fn read_classes(bytes: &[u8]) -> Result<([u8; 256], &[u8]), WireError> {
    if bytes.len() < 256 {
        return Err(WireError::Truncated);
    }
    let mut classes = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        classes[i] = bytes[i];
        i += 1;
    }
    let (_, rest) = bytes.split_at(256);
    Ok((classes, rest))
}

/// Whether every class of `classes` is below `alphabet`: what a table's
/// decoding checks before its walks index rows by class unchecked.
pub(crate) const fn classes_below(classes: &[u8; 256], alphabet: usize) -> bool {
    let mut b = 0;
    while b < 256 {
        if classes[b] as usize >= alphabet {
            return false;
        }
        b += 1;
    }
    true
}

/// Appends a header to `out`: `kind`, words of `width` bytes, and up to
/// [`MAX_PARAMS`] parameters (the rest are 0), in little- or big-endian
/// byte order.
///
/// # Panics
///
/// If `params` has more than [`MAX_PARAMS`] values (a generator bug).
pub fn write_header(out: &mut alloc::vec::Vec<u8>, kind: Kind, width: u32, params: &[u32], big_endian: bool) {
    assert!(
        params.len() <= MAX_PARAMS,
        "a table header has room for {MAX_PARAMS} parameters"
    );
    out.extend_from_slice(&MAGIC);
    let mut words = [0u32; HEADER_WORDS - 1];
    words[0] = VERSION;
    words[1] = kind as u32;
    words[2] = width;
    words[3..3 + params.len()].copy_from_slice(params);
    for w in words {
        out.extend_from_slice(&if big_endian {
            w.to_be_bytes()
        } else {
            w.to_le_bytes()
        });
    }
}

/// Appends `words` to `out` as `width`-byte words (2 or 4) in little- or
/// big-endian byte order. Values must fit the width (the generator checks).
pub fn write_words(out: &mut alloc::vec::Vec<u8>, words: &[u32], width: u32, big_endian: bool) {
    for &w in words {
        match (width, big_endian) {
            (2, false) => out.extend_from_slice(&(w as u16).to_le_bytes()),
            (2, true) => out.extend_from_slice(&(w as u16).to_be_bytes()),
            (_, false) => out.extend_from_slice(&w.to_le_bytes()),
            (_, true) => out.extend_from_slice(&w.to_be_bytes()),
        }
    }
}

/// Alignment wrapper for embedded table bytes, so that they can be read as
/// `u16`s and `u32`s in place, and a shuffle automaton's rows as whole
/// 64-byte vectors (a vector load that crosses a cache line costs twice):
/// generated code holds each table as `&Aligned<[u8]>` around an
/// `include_bytes!`.
#[repr(C, align(64))]
pub struct Aligned<B: ?Sized> {
    _align: [u32; 0],
    /// The bytes.
    pub bytes: B,
}

impl<const N: usize> Aligned<[u8; N]> {
    /// Wraps `bytes`.
    pub const fn new(bytes: [u8; N]) -> Aligned<[u8; N]> {
        Aligned { _align: [], bytes }
    }
}

/// `from_bytes` (checked when called) and `__wire` (checked while generated
/// code compiles: a table that does not pass is a compile error) for a
/// table type with a `const unsafe fn decode` that reads 4-aligned bytes.
macro_rules! loaders {
    ($ty:ident, $what:literal) => {
        impl<'a> $ty<'a> {
            #[doc = concat!("Reads ", $what, " written by `abnf-codegen` (in this target's byte order), checking its header; `bytes` must start at a 4-byte boundary.")]
            pub fn from_bytes(bytes: &'a [u8]) -> Result<$ty<'a>, $crate::wire::WireError> {
                if !$crate::wire::is_aligned(bytes) {
                    return Err($crate::wire::WireError::Alignment);
                }
                // SAFETY: checked just above.
                unsafe { $ty::decode(bytes) }
            }

            #[doc = concat!("[`", stringify!($ty), "::from_bytes`] for generated code, checked at compile time.")]
            #[doc(hidden)]
            pub const fn __wire(bytes: &'static $crate::wire::Aligned<[u8]>) -> $ty<'static> {
                // SAFETY: `Aligned` starts its bytes at a 4-byte boundary.
                match unsafe { $ty::decode(&bytes.bytes) } {
                    Ok(t) => t,
                    Err(e) => panic!("{}", e.message()),
                }
            }
        }
    };
}
pub(crate) use loaders;

/// The largest of `words`' entries, widened (0 for none): what a table's
/// decoding checks its transitions against.
pub(crate) const fn max_word(words: &[u8], width: u32) -> u32 {
    let mut max = 0;
    let mut i = 0;
    let w = width as usize;
    while i + w <= words.len() {
        let v = if w == 2 {
            u16::from_ne_bytes([words[i], words[i + 1]]) as u32
        } else {
            u32::from_ne_bytes([words[i], words[i + 1], words[i + 2], words[i + 3]])
        };
        if v > max {
            max = v;
        }
        i += w;
    }
    max
}

/// `bytes` (which start 4-aligned) as native-endian `u16`s, or as `u32`s.
///
/// # Safety
///
/// `bytes` must start at a 4-byte boundary.
pub(crate) const unsafe fn as_u16s(bytes: &[u8]) -> &[u16] {
    // SAFETY: the caller guarantees 4-byte (so 2-byte) alignment; `len / 2`
    // whole `u16`s lie inside `bytes`; every bit pattern is a valid `u16`;
    // the result borrows `bytes`, which is immutable for its lifetime.
    unsafe { core::slice::from_raw_parts(bytes.as_ptr().cast::<u16>(), bytes.len() / 2) }
}

/// See [`as_u16s`].
///
/// # Safety
///
/// `bytes` must start at a 4-byte boundary.
pub(crate) const unsafe fn as_u32s(bytes: &[u8]) -> &[u32] {
    // SAFETY: as for `as_u16s`, with 4-byte alignment and `len / 4` whole
    // `u32`s.
    unsafe { core::slice::from_raw_parts(bytes.as_ptr().cast::<u32>(), bytes.len() / 4) }
}

/// Whether `bytes` start at a 4-byte boundary (checked before the unsafe
/// reads for bytes that are not in an [`Aligned`]).
pub(crate) fn is_aligned(bytes: &[u8]) -> bool {
    bytes.as_ptr().align_offset(4) == 0
}

// The layout of a tagged DFA's transition words, shared by the generator
// (which writes them) and the tagged walks.

/// The most registers a tagged DFA may use (the generator checks it).
pub const MAX_REGISTERS: usize = 32;

/// The bits of a tagged transition that hold the target row; the effect is
/// above them.
pub const NEXT_BITS: u32 = 20;

/// The target-row bits of a tagged transition.
pub const NEXT_MASK: u32 = (1 << NEXT_BITS) - 1;

/// Above [`NEXT_BITS`], a transition's effect `f`: below this, store the
/// position in register `f - 1` (0: no effect); from it on, run operation
/// list `f - FIRST_LIST`.
pub const FIRST_LIST: u32 = MAX_REGISTERS as u32 + 1;

/// In a two-byte step's effect: the first value that names an operation
/// list; below it, 0 (none), then stores of the first byte's position in
/// register `f - 1`, then of the second's in register `f - 1 - MAX_REGISTERS`.
pub const FIRST_PAIR_LIST: u32 = 2 * MAX_REGISTERS as u32 + 1;

/// In an operation: store the position (else copy a register: `dst << 16 |
/// src`).
pub const SET_POS: u32 = 1 << 31;

/// With [`SET_POS`]: store the position plus one (two-byte steps only).
pub const DELTA: u32 = 1 << 30;

/// In the generator's final maps (a register per tag): the tag never
/// matched.
pub const UNSET: u32 = u32::MAX;

/// In the generator's final maps: the tag was set where the parse ends.
pub const PENDING: u32 = u32::MAX - 1;

/// A final map as the runtime reads it is sparse: its length `n`, then `n`
/// words `tag << FINAL_TAG_SHIFT | source`, one per tag the parse set,
/// where the source is a register, or [`FINAL_PENDING`]. Tags left out
/// never matched.
pub const FINAL_TAG_SHIFT: u32 = 8;

/// In a sparse final map's word: the tag was set where the parse ends.
pub const FINAL_PENDING: u32 = 0xFF;

// A source below `FINAL_PENDING` is a register, and every register fits.
const _: () = assert!(FINAL_PENDING as usize > MAX_REGISTERS && FINAL_PENDING < 1 << FINAL_TAG_SHIFT);

/// In a tagged DFA's final-map word: the state does not accept.
pub const NOT_FINAL: u32 = u32::MAX;

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec::Vec;

    fn table(kind: Kind, big_endian: bool) -> Vec<u32> {
        let mut bytes = Vec::new();
        write_header(&mut bytes, kind, 4, &[1, 2, 3], big_endian);
        bytes
            .chunks(4)
            .map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    fn bytes(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_ne_bytes()).collect()
    }

    #[test]
    fn header_round_trips() {
        let native = table(Kind::Reverse, cfg!(target_endian = "big"));
        let b = bytes(&native);
        let (h, rest) = read_header(&b, Kind::Reverse).unwrap();
        assert_eq!((h.width, &h.params[..4]), (4, &[1, 2, 3, 0][..]));
        assert!(rest.is_empty());
    }

    #[test]
    fn refuses_what_it_cannot_read() {
        let native = bytes(&table(Kind::Table, cfg!(target_endian = "big")));
        assert_eq!(
            read_header(&native, Kind::Tagged).unwrap_err(),
            WireError::Kind {
                expected: Kind::Tagged
            }
        );
        assert_eq!(
            read_header(&native[..10], Kind::Table).unwrap_err(),
            WireError::Truncated
        );
        let other = bytes(&table(Kind::Table, cfg!(target_endian = "little")));
        assert_eq!(
            read_header(&other, Kind::Table).unwrap_err(),
            WireError::ByteOrder
        );
        let mut newer = native.clone();
        newer[4..8].copy_from_slice(&(VERSION + 1).to_ne_bytes());
        assert_eq!(
            read_header(&newer, Kind::Table).unwrap_err(),
            WireError::Version { found: VERSION + 1 }
        );
        let mut junk = native;
        junk[0] = b'X';
        assert_eq!(read_header(&junk, Kind::Table).unwrap_err(), WireError::NotATable);
        assert!(WireError::Version { found: 9 }
            .to_string()
            .contains("table format 9"));
    }
}
