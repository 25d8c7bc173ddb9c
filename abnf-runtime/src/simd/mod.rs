//! Bit-parallel byte classification: the one module with intrinsics and
//! `unsafe`, and its scalar twin.
//!
//! A set of ASCII bytes is a [`NibbleSet`]: sixteen bytes, one per low
//! nibble, whose bit `h` says whether the byte `h << 4 | low` is in the set
//! (the encoding of simdjson's `json_character_block` and of Hyperscan's
//! "shufti": two nibble lookups and an `and` classify a whole vector of
//! bytes). Bytes 0x80 and above are never in a set. The generator derives
//! the sets from its automata (the bytes on which a state loops to itself);
//! the runtime uses them to find, with one trailing-zero count per block,
//! the first byte that leaves a state.
//!
//! A [`LoopSet`] may also have an *escape*: a byte `x` and a set `H` such
//! that `x h1 h2` (both `h` in `H`) leads the state back to itself, as
//! `"%" HEXDIG HEXDIG` does in every URI component. The generator finds
//! them in the automaton too; a block's escapes are found with one more
//! compare and one more lookup, and three shifts of the masks.
//!
//! A set may also hold whole UTF-8 characters: `leads` lists lead bytes
//! `l` (of two- and three-byte sequences) such that *every* sequence `l c`
//! or `l c1 c2` with continuation bytes `c` (0x80-0xBF) loops, which the
//! generator checks on the automaton; the runtime then only checks that the
//! right number of continuation bytes follows (one signed compare per
//! vector, as simdutf classifies them). Other non-ASCII bytes (lead bytes
//! of four-byte sequences, of sequences with restricted continuations such
//! as `E0` and `ED`, or of characters the state does not loop on) take
//! table steps.
//!
//! [`classify_blocks`] classifies a run of 64-byte blocks by several
//! [`NibbleClass`]es at once (two lookups and a test per class and
//! vector, the tables loaded once): the quote, white-space, digit,
//! escape and UTF-8 bytes of the structural index that the deterministic
//! walk of a network builds ([`crate::network`]), class by class; the
//! walk then combines the masks of eight blocks at once with AVX-512 and
//! four with AVX2, in the 64-bit lanes of one vector ([`Lanes`], written
//! once and run by [`run_lanes`]; `u64` is its one-lane twin).
//!
//! [`find_outside`] picks the widest implementation the CPU has, once (no
//! `std` needed: CPUID is read directly): AVX-512 BW (64-byte vectors and
//! mask registers), AVX2 (32), SSSE3 (16), or the scalar twin
//! [`find_outside_scalar`]. All give the same answer; the tests compare
//! them.
//!
//! The module also walks shuffle automata ([`shuffle_walk`]: a DFA's
//! states as the lanes of a 64-byte vector, one `vpermb` per byte, with
//! AVX-512 VBMI), with the scalar twin [`shuffle_walk_scalar`]; and it
//! finds the exits of generated exit walks ([`walk_exits`]: a 64-byte
//! block classified into atom bits by two `vpermi2b` lookups with VBMI,
//! or a 32-byte block by two nibble `pshufb` lookups and an `and` with
//! AVX2 or SSSE3 when the generator found the atoms to be nibble
//! rectangles ([`AtomNibbles`]); then one test and a trailing-zero count
//! per question), with the scalar twin [`ScalarExits`].
//!
//! # Levels and files
//!
//! One ordered [`Level`] (scalar, SSSE3, AVX2, AVX-512, VBMI) is detected
//! once; every walk dispatches on it here, and a benchmark may lower it for
//! the whole process ([`cap_level`]) to time each level on one machine.
//! The code is laid out as memchr's `arch/` and simdutf's implementation
//! folders are:
//!
//! - this file: the types, the detection and dispatch, and the scalar
//!   twins (what a CPU without vectors, ARM today, runs);
//! - `generic.rs`: the searches every vector level shares, written over a
//!   function that classifies one window (64 bytes for loop sets, 32 for
//!   exits), so that a level only supplies its loads, lookups and masks;
//! - `lanes.rs`: [`Lanes`], blocks' masks side by side, and its dispatch;
//! - `x86_64/{ssse3,avx2,avx512,vbmi}.rs`: one instruction set each, every
//!   function `#[target_feature]` and reached only through the dispatch
//!   after detection;
//! - `tests.rs`: every level this CPU has against the scalar twins.
//!
//! # NEON (a design: no ARM machine has tested it, so none ships)
//!
//! Every operation the SSSE3 and AVX2 levels use maps to one AArch64 NEON
//! instruction, or a fixed short sequence, on 16-byte vectors:
//!
//! | here (SSSE3 / AVX2) | NEON |
//! |---|---|
//! | `pshufb` / `vpshufb` (nibble lookup, index below 16) | `vqtbl1q_u8` (a lane above 15 gives 0, as `pshufb`'s bit 7 does) |
//! | `psrlw 4` then `pand 0x0F` (high nibble) | `vshrq_n_u8::<4>` (one instruction: NEON shifts bytes) |
//! | `pand`, `por`, `pxor` | `vandq_u8`, `vorrq_u8`, `veorq_u8` |
//! | `pcmpeqb` | `vceqq_u8` |
//! | `pcmpgtb` (signed, continuation bytes below -64) | `vcltq_s8` |
//! | `pminub` | `vminq_u8` |
//! | `pmovmskb` (one bit per byte) | no single instruction: `vshrn_n_u16::<4>` of the compare gives 4 bits per byte in a `u64` (the "movemask emulation" of simdjson's and memchr's NEON code), so the masks count in nibbles: `trailing_zeros() / 4` |
//! | `ptest` / `vptest` (any byte set) | `vmaxvq_u8 != 0` |
//! | `_mm_loadu_si128` | `vld1q_u8` |
//! | 64-bit lanes ([`Lanes`]): `vpsllq`, `vpsubq`, `vpermq` | `vshlq_u64`, `vsubq_u64`, `vextq_u64` (two lanes) |
//!
//! So the loop-set search ([`find_outside`]), [`find_byte`],
//! [`classify_blocks`] and the nibble exits ([`AtomNibbles`]) port as they
//! are, through `generic.rs`,
//! with a 16-byte NEON block type. What has no NEON form is VBMI's:
//! `vpermb` and `vpermi2b` (a 64-entry byte table per instruction; NEON's
//! widest, `vqtbl4q_u8`, indexes 64 bytes from four registers, with a
//! latency of several cycles that the 64-lane shuffle walk's chain would
//! pay per byte: untested, and not assumed to win)
//! and the mask registers. ARM users therefore run the scalar twins of
//! the shuffle walk (the table walk from both ends, as every CPU below
//! VBMI does) and today also of the loop-set search and the exit walks;
//! NEON would give them the bit-parallel walk of long inputs and the
//! vector exit walks, which the AVX2 level measures on x86-64.
use core::sync::atomic::{AtomicU8, Ordering};

/// A set of ASCII bytes: bit `h` of `self.0[l]` is byte `h << 4 | l`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(16))]
pub struct NibbleSet(pub [u8; 16]);

impl NibbleSet {
    /// The set of the given bytes (bytes 0x80 and above are left out).
    pub const fn of(bytes: &[u8]) -> NibbleSet {
        let mut t = [0u8; 16];
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b < 0x80 {
                t[(b & 15) as usize] |= 1 << (b >> 4);
            }
            i += 1;
        }
        NibbleSet(t)
    }

    /// Whether `b` is in the set.
    #[inline(always)]
    pub const fn contains(&self, b: u8) -> bool {
        b < 0x80 && self.0[(b & 15) as usize] >> (b >> 4) & 1 == 1
    }

    /// Whether the set is empty.
    pub const fn is_empty(&self) -> bool {
        u128::from_ne_bytes(self.0) == 0
    }
}

/// The length of a [`LoopSet`]'s record in a table.
pub const LOOP_SET_BYTES: usize = 48;

/// The bytes a state loops on: those of `bytes`, the three-byte
/// sequences `escape h1 h2` with `h1` and `h2` in `escaped` (none when
/// `escaped` is empty), and the UTF-8 sequences that start with a byte of
/// `leads`. `escape` is never in `escaped` or in `bytes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopSet {
    /// The single bytes.
    pub bytes: NibbleSet,
    /// The byte that opens an escape.
    pub escape: u8,
    /// The bytes allowed in an escape's two following positions.
    pub escaped: NibbleSet,
    /// The lead bytes of whole UTF-8 characters in the set.
    pub leads: Leads,
}

/// A set of UTF-8 lead bytes `0xC1`-`0xEF`: bit `h - 0xC` of `self.0[l]`
/// is byte `h << 4 | l` (the [`NibbleSet`] encoding for high nibbles `C`,
/// `D` and `E`). Low nibble 0 (`C0`, `D0`, `E0`) is never in it: its entry
/// shares its place in a table record with the escape byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(C, align(16))]
pub struct Leads(pub [u8; 16]);

impl Leads {
    /// No lead bytes.
    pub const NONE: Leads = Leads([0; 16]);

    /// The set of the given lead bytes (others are left out).
    pub fn of(bytes: &[u8]) -> Leads {
        let mut t = [0u8; 16];
        for &b in bytes {
            if (0xC0..0xF0).contains(&b) && b & 15 != 0 {
                t[usize::from(b & 15)] |= 1 << ((b >> 4) - 0xC);
            }
        }
        Leads(t)
    }

    /// Whether `b` is in the set.
    #[inline(always)]
    pub const fn contains(&self, b: u8) -> bool {
        b >= 0xC0 && b < 0xF0 && self.0[(b & 15) as usize] >> ((b >> 4) - 0xC) & 1 == 1
    }

    /// Whether the set is empty.
    pub const fn is_empty(&self) -> bool {
        u128::from_ne_bytes(self.0) == 0
    }
}

impl LoopSet {
    /// A set without escapes.
    pub const fn plain(bytes: NibbleSet) -> LoopSet {
        LoopSet {
            bytes,
            escape: 0,
            escaped: NibbleSet([0; 16]),
            leads: Leads::NONE,
        }
    }

    /// The bytes, escapes and characters on which both `self` and `other`
    /// loop: the common bytes and lead bytes, and `self`'s escape if all
    /// its bytes are single bytes of `other`.
    #[inline]
    pub fn meet(&self, other: &LoopSet) -> LoopSet {
        let and = |a: &NibbleSet, b: &NibbleSet| {
            NibbleSet((u128::from_ne_bytes(a.0) & u128::from_ne_bytes(b.0)).to_ne_bytes())
        };
        let keep = other.bytes.contains(self.escape) && and(&self.escaped, &other.bytes) == self.escaped;
        LoopSet {
            bytes: and(&self.bytes, &other.bytes),
            escape: self.escape,
            escaped: if keep { self.escaped } else { NibbleSet([0; 16]) },
            leads: Leads(
                (u128::from_ne_bytes(self.leads.0) & u128::from_ne_bytes(other.leads.0)).to_ne_bytes(),
            ),
        }
    }

    /// The set as a record of [`LOOP_SET_BYTES`] bytes, as tables carry it
    /// (see [`crate::wire`]): `bytes`, `escaped`, then `escape` and
    /// `leads` (whose first entry is always 0) in the last 16 bytes.
    pub fn to_record(&self) -> [u8; LOOP_SET_BYTES] {
        let mut r = [0u8; LOOP_SET_BYTES];
        r[..16].copy_from_slice(&self.bytes.0);
        r[16..32].copy_from_slice(&self.escaped.0);
        r[32..48].copy_from_slice(&self.leads.0);
        r[32] = self.escape;
        r
    }

    /// The set of a record (see [`LoopSet::to_record`]), at compile time:
    /// what generated direct walks keep their loop sets as.
    #[doc(hidden)]
    pub const fn __from_record(r: [u8; LOOP_SET_BYTES]) -> LoopSet {
        let mut bytes = [0u8; 16];
        let mut escaped = [0u8; 16];
        let mut leads = [0u8; 16];
        let mut i = 0;
        while i < 16 {
            bytes[i] = r[i];
            escaped[i] = r[16 + i];
            // The lead table's first byte is the escape byte's place.
            leads[i] = if i == 0 { 0 } else { r[32 + i] };
            i += 1;
        }
        LoopSet {
            bytes: NibbleSet(bytes),
            escaped: NibbleSet(escaped),
            escape: r[32],
            leads: Leads(leads),
        }
    }

    /// Record `k` of `records` (see [`LoopSet::to_record`]).
    #[inline(always)]
    pub fn from_records(records: &[u8], k: usize) -> LoopSet {
        let r = &records[k * LOOP_SET_BYTES..(k + 1) * LOOP_SET_BYTES];
        let nibbles = |at: usize| {
            let mut t = [0u8; 16];
            t.copy_from_slice(&r[at..at + 16]);
            t
        };
        // The lead table without its first byte (the escape byte), masked
        // as one 128-bit word: a one-byte store into the array, read back
        // whole by `LoopSet::meet`, would stall the load (measured: the
        // hottest instruction of long extractions).
        const REST: u128 = !u128::from_ne_bytes([0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        let leads = (u128::from_ne_bytes(nibbles(32)) & REST).to_ne_bytes();
        LoopSet {
            bytes: NibbleSet(nibbles(0)),
            escaped: NibbleSet(nibbles(16)),
            escape: r[32],
            leads: Leads(leads),
        }
    }

    /// Whether, outside the single bytes of set `k` of `records`, byte
    /// `b` may start an escape or a character of the set (without looking
    /// at what follows it).
    #[inline(always)]
    pub(crate) fn record_may_go_on(records: &[u8], k: usize, b: u8) -> bool {
        let r = &records[k * LOOP_SET_BYTES..(k + 1) * LOOP_SET_BYTES];
        if (0xC0..0xF0).contains(&b) && b & 15 != 0 {
            r[32 + usize::from(b & 15)] >> ((b >> 4) - 0xC) & 1 == 1
        } else {
            b == r[32] && r[16..32].iter().any(|&x| x != 0)
        }
    }

    /// Whether an escape starts at `input[i]` (all three bytes present).
    #[inline(always)]
    fn escape_at(&self, input: &[u8], i: usize) -> bool {
        match input.get(i..i + 3) {
            Some(&[x, a, b]) => x == self.escape && self.escaped.contains(a) && self.escaped.contains(b),
            _ => false,
        }
    }

    /// The length of the character of `leads` that starts at `input[i]`
    /// (its lead byte followed by enough continuation bytes), if one does.
    #[inline(always)]
    fn char_at(&self, input: &[u8], i: usize) -> Option<usize> {
        let cont = |k: usize| input.get(k).is_some_and(|&c| c & 0xC0 == 0x80);
        let &l = input.get(i)?;
        if !self.leads.contains(l) || !cont(i + 1) {
            return None;
        }
        if l < 0xE0 {
            Some(2)
        } else {
            cont(i + 2).then_some(3)
        }
    }

    /// Where a loop run goes on after a byte at `i` outside `bytes`: past
    /// the escape or character that starts there, if one does.
    #[inline(always)]
    fn sequence_at(&self, input: &[u8], i: usize) -> Option<usize> {
        if self.escape_at(input, i) {
            Some(i + 3)
        } else {
            self.char_at(input, i).map(|n| i + n)
        }
    }
}

/// The vector level the runtime uses: what [`find_outside`],
/// [`find_byte`], [`shuffle_walk`] and [`walk_exits`] run. Levels are
/// ordered; a CPU that runs one runs every level below it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// One byte at a time: the scalar twins.
    Scalar,
    /// 16-byte vectors, two `pshufb` per vector (x86-64 with SSSE3).
    Ssse3,
    /// 32-byte vectors (x86-64 with AVX2, enabled by the OS).
    Avx2,
    /// 64-byte vectors and mask registers (x86-64 with AVX2 and AVX-512 F
    /// and BW, enabled by the OS).
    Avx512,
    /// [`Level::Avx512`] and AVX-512 VBMI: byte permutes across the whole
    /// 64-byte vector (`vpermb`, `vpermi2b`), which the 64-lane shuffle
    /// automata and the 64-byte exit classification use.
    Vbmi,
}

/// The level this CPU runs, detected once (bit 7 set once detected, bits
/// 0-2 the [`Level`], as lowered by [`cap_level`]; bit 3 [`bmi`]).
static CPU: AtomicU8 = AtomicU8::new(0);

#[inline]
fn cpu() -> u8 {
    match CPU.load(Ordering::Relaxed) {
        0 => detect_once(),
        c => c,
    }
}

/// The first [`cpu`]: detection, out of line so that the hot paths that
/// ask for the level (every match) carry no CPUID code.
#[cold]
#[inline(never)]
fn detect_once() -> u8 {
    let c = 0x80 | with_bmi(detect());
    CPU.store(c, Ordering::Relaxed);
    c
}

/// Whether scalar code may use BMI1 and BMI2 (`andn`, `blsr`, `shrx`,
/// ...): the CPU has them and runs at [`Level::Avx2`] or above (every CPU
/// with AVX2 made so far has them, and a benchmark that caps the level
/// below AVX2 should not use them either). The walks whose scalar loops
/// gain from them compile a copy with these target features.
#[inline]
pub(crate) fn bmi() -> bool {
    cpu() & 8 != 0
}

/// The bits of [`CPU`] for `level`: the level, and [`bmi`]'s bit.
fn with_bmi(level: Level) -> u8 {
    level as u8
        | if level >= Level::Avx2 && detect_bmi() {
            8
        } else {
            0
        }
}

/// Whether the CPU has BMI1 and BMI2 (CPUID leaf 7, EBX bits 3 and 8).
#[cfg(target_arch = "x86_64")]
fn detect_bmi() -> bool {
    use core::arch::x86_64::{__cpuid, __cpuid_count};
    __cpuid(0).eax >= 7 && __cpuid_count(7, 0).ebx & 0x108 == 0x108
}

#[cfg(not(target_arch = "x86_64"))]
fn detect_bmi() -> bool {
    false
}

/// Lowers the level the whole process uses to at most `cap` (a level the
/// CPU does not have is never raised to), or back to what the CPU has with
/// [`Level::Vbmi`]. For benchmarks that time each level in one run (`cargo
/// xtask bench`), not for users: the answers are the same at every level,
/// only the speed differs.
#[doc(hidden)]
pub fn cap_level(cap: Level) {
    let level = detect().min(cap);
    CPU.store(0x80 | with_bmi(level), Ordering::Relaxed);
}

impl Level {
    /// The widest implementation this CPU runs, detected once (or as
    /// lowered by [`cap_level`]).
    #[inline]
    pub fn detected() -> Level {
        match cpu() & 7 {
            0 => Level::Scalar,
            1 => Level::Ssse3,
            2 => Level::Avx2,
            3 => Level::Avx512,
            _ => Level::Vbmi,
        }
    }

    /// Every level this CPU can run, from the scalar twin up (for tests and
    /// benchmarks).
    pub fn available() -> impl Iterator<Item = Level> {
        let top = Level::detected();
        Level::ALL.into_iter().filter(move |l| *l <= top)
    }

    /// Every level, from the scalar twin up.
    pub const ALL: [Level; 5] = [
        Level::Scalar,
        Level::Ssse3,
        Level::Avx2,
        Level::Avx512,
        Level::Vbmi,
    ];

    /// The level's name as benchmarks print it: `scalar`, `SSSE3`, `AVX2`,
    /// `AVX-512`, `VBMI`.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Scalar => "scalar",
            Level::Ssse3 => "SSSE3",
            Level::Avx2 => "AVX2",
            Level::Avx512 => "AVX-512",
            Level::Vbmi => "VBMI",
        }
    }
}

/// The [`Level`] this CPU runs.
#[cfg(target_arch = "x86_64")]
fn detect() -> Level {
    use core::arch::x86_64::{__cpuid, __cpuid_count};
    // Leaf 1: ECX bit 9 SSSE3, bit 27 OSXSAVE, bit 28 AVX. Leaf 7: EBX bit 5
    // AVX2, bit 16 AVX512F, bit 30 AVX512BW; ECX bit 1 AVX512VBMI. Leaf 0
    // says how many leaves there are. XCR0: which register states the OS
    // saves (bits 1-2 SSE and AVX, 5-7 the opmask registers and both
    // halves of the ZMM state).
    let max = __cpuid(0).eax;
    let ecx1 = __cpuid(1).ecx;
    let ssse3 = ecx1 >> 9 & 1 == 1 || cfg!(target_feature = "ssse3");
    let osxsave = max >= 7 && ecx1 >> 27 & 1 == 1;
    // SAFETY: OSXSAVE means the CPU has XGETBV and the OS enabled it.
    let xcr0 = if osxsave { unsafe { xcr0() } } else { 0 };
    let leaf7 = if max >= 7 {
        __cpuid_count(7, 0)
    } else {
        __cpuid_count(0, 0)
    };
    let bit = |word: u32, b: u32| max >= 7 && word >> b & 1 == 1;
    let avx2 = cfg!(target_feature = "avx2")
        || osxsave && ecx1 >> 28 & 1 == 1 && bit(leaf7.ebx, 5) && xcr0 & 0b110 == 0b110;
    let avx512 = avx2 && bit(leaf7.ebx, 16) && bit(leaf7.ebx, 30) && xcr0 & 0b1110_0000 == 0b1110_0000;
    if avx512 && bit(leaf7.ecx, 1) {
        Level::Vbmi
    } else if avx512 {
        Level::Avx512
    } else if avx2 {
        Level::Avx2
    } else if ssse3 {
        Level::Ssse3
    } else {
        Level::Scalar
    }
}

/// XCR0: which register states the OS saves (bit 1 SSE, bit 2 AVX).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "xsave")]
unsafe fn xcr0() -> u64 {
    core::arch::x86_64::_xgetbv(0)
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> Level {
    Level::Scalar
}

/// The first index `i >= from` at which `input` leaves `set`: its byte is
/// not in `set.bytes` and does not start an escape. `input.len()` if there
/// is none (also when `from >= input.len()`).
#[inline]
pub fn find_outside(set: &LoopSet, input: &[u8], from: usize) -> usize {
    find_outside_with(Level::detected(), set, input, from)
}

/// [`find_outside`] with a given implementation; a level the CPU does not
/// have runs the best one it has.
#[inline]
pub fn find_outside_with(level: Level, set: &LoopSet, input: &[u8], from: usize) -> usize {
    OutsideFinder::at(level).find(set, input, from)
}

/// [`find_outside`] at a level chosen once, for a walk that searches many
/// times in one input ([`OutsideFinder::at`]): one call to the level's
/// search, not a choice of level at every search (measured on RFC 9112
/// request heads: 17 searches per head, the choice 36 instructions each).
/// Generated code's direct walks take one ([`crate::DirectWalk`]).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct OutsideFinder(unsafe fn(&LoopSet, &[u8], usize) -> usize);

impl OutsideFinder {
    /// The search at `level`, or the best level the CPU has below it.
    #[inline]
    pub fn at(level: Level) -> OutsideFinder {
        #[cfg(target_arch = "x86_64")]
        match level.min(Level::detected()) {
            Level::Avx512 | Level::Vbmi => return OutsideFinder(x86_64::avx512::find_outside_avx512),
            Level::Avx2 => return OutsideFinder(x86_64::avx2::find_outside_avx2),
            Level::Ssse3 => return OutsideFinder(x86_64::ssse3::find_outside_ssse3),
            Level::Scalar => {}
        }
        let _ = level;
        OutsideFinder(find_outside_scalar)
    }

    /// The vector search at `level` (or the best the CPU has below it),
    /// `None` where that is the scalar level: there the walks as code step
    /// through their runs, which is quicker than the scalar search
    /// (RFC 9112 request heads: validation 0.8x the time, the typed tree
    /// 0.73x, measured with the scalar search eight bytes at a time).
    #[inline]
    pub fn vectors(level: Level) -> Option<OutsideFinder> {
        (level.min(Level::detected()) != Level::Scalar).then(|| OutsideFinder::at(level))
    }

    /// [`find_outside`] with this search.
    #[inline(always)]
    pub fn find(self, set: &LoopSet, input: &[u8], from: usize) -> usize {
        // SAFETY: an `OutsideFinder` is made only by `at`, which picks a
        // vector search only where `Level::detected` found its features
        // (CPUID and XCR0); the searches have no other requirement.
        unsafe { (self.0)(set, input, from) }
    }
}

/// The scalar twin of [`find_outside`]: eight bytes at a time while they
/// are all ASCII bytes of the set (their tests folded into one mask, one
/// branch per eight bytes), else one byte, escape or character at a time.
/// (A byte at a time, the loop took a branch and a jump per byte: long
/// IRIs' extraction at the scalar level spent 64% of its time here.)
#[inline]
pub fn find_outside_scalar(set: &LoopSet, input: &[u8], from: usize) -> usize {
    let mut i = from;
    loop {
        while let Some(chunk) = input.get(i..i + 8) {
            // `NibbleSet::contains` without its branch: a byte from 0x80
            // on shifts its nibble's eight bits out (high nibble 8 to 15).
            let inside = chunk.iter().enumerate().fold(0u32, |m, (k, &b)| {
                m | (u32::from(set.bytes.0[usize::from(b & 15)]) >> (b >> 4) & 1) << k
            });
            let outside = !inside & 0xFF;
            if outside != 0 {
                i += outside.trailing_zeros() as usize;
                break;
            }
            i += 8;
        }
        let Some(&b) = input.get(i) else {
            return input.len();
        };
        match run_step(set, input, i, b) {
            Some(next) => i = next,
            None => return i,
        }
    }
}

/// One step of a run of `set` at `input[i]` (which is `b`): past the byte
/// if it is one of the set's bytes, else past the escape or character of
/// the set that starts there; `None` where the run ends at `i`.
#[inline(always)]
fn run_step(set: &LoopSet, input: &[u8], i: usize, b: u8) -> Option<usize> {
    if set.bytes.contains(b) {
        Some(i + 1)
    } else {
        set.sequence_at(input, i)
    }
}

/// [`find_outside`] one step at a time: the reference the tests hold
/// every level to, [`find_outside_scalar`] included.
#[cfg(test)]
fn find_outside_bytewise(set: &LoopSet, input: &[u8], from: usize) -> usize {
    let mut i = from;
    while let Some(&b) = input.get(i) {
        match run_step(set, input, i, b) {
            Some(next) => i = next,
            None => return i,
        }
    }
    input.len()
}

/// A 64-byte block classified by a loop set ([`classify_block`]): the
/// bytes in the set's single bytes, and the escapes and characters of the
/// set that start in the block (all of whose bytes are in it). A walk
/// keeps it and reads it again for every run of the set that starts in
/// the block (the bitmasks of simdjson's stage 1), where [`find_outside`]
/// classifies again from each run's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockMasks {
    inside: u64,
    three: u64,
    two: u64,
    /// Two-byte escapes ([`BlockMasks::with_pairs`]): where their first
    /// byte is, and where a byte that may follow it is.
    pair_open: u64,
    pair_next: u64,
}

impl BlockMasks {
    /// No byte in the set.
    pub const NONE: BlockMasks = BlockMasks {
        inside: 0,
        three: 0,
        two: 0,
        pair_open: 0,
        pair_next: 0,
    };

    /// The masks with two-byte escapes: `open` marks a byte `x` (outside
    /// the set) and `next` the bytes `e` such that `x e` loops, as `\n`
    /// does in a JSON string. An `x` escapes the byte after it, so in a
    /// row of them (when `x` may follow `x`) every other one opens an
    /// escape, counted from the run's start (simdjson's escaped
    /// characters).
    #[inline(always)]
    pub fn with_pairs(self, open: u64, next: u64) -> BlockMasks {
        BlockMasks {
            pair_open: open,
            pair_next: next,
            ..self
        }
    }

    /// The bytes in the set's single bytes (bit `j`: byte `j` of the
    /// block).
    #[inline(always)]
    pub fn inside(&self) -> u64 {
        self.inside
    }

    /// The bytes escaped by the pairs' first bytes, for a run that starts
    /// at bit 0 of `open`: those after a row of them of odd length (no
    /// carry from before the run).
    #[inline(always)]
    fn escaped(open: u64) -> u64 {
        const EVEN: u64 = 0x5555_5555_5555_5555;
        let follows = open << 1;
        let odd_starts = open & !EVEN & !follows;
        let even_starts = odd_starts.wrapping_add(open);
        (EVEN ^ (even_starts << 1)) & follows
    }

    /// Where a run that starts at byte `off` of the block (below 64) may
    /// end: bit `j` is set where byte `off + j` is neither in the set nor
    /// in an escape or character that starts at `off` or after it (a
    /// sequence that starts before `off` is not the run's); bits past the
    /// block are clear. Its first bit is where
    /// [`find_outside`] from `off` stops, unless that is a sequence that
    /// crosses the block's end.
    #[inline(always)]
    pub fn outside_from(&self, off: usize) -> u64 {
        // Pairs whose second byte may follow their first, counted from
        // the run's start; a pair that may not ends the run at its first
        // byte, as the first byte is outside the set.
        let pairs = Self::escaped(self.pair_open >> off) & self.pair_next >> off;
        let starts = Starts {
            three: self.three >> off,
            two: self.two >> off | pairs >> 1,
        };
        outside_of(self.inside >> off, starts) & (!0u64 >> off)
    }
}

/// The 64 bytes from `at` classified by `set`, and by its two-byte
/// escapes `pairs` (a set of first bytes and a set of second bytes, see
/// [`BlockMasks::with_pairs`]), if it has any; bytes past the end of
/// `input` are in no set and start nothing. With the widest vectors this
/// CPU has.
#[inline]
pub fn classify_block(
    set: &LoopSet,
    pairs: Option<&(NibbleSet, NibbleSet)>,
    input: &[u8],
    at: usize,
) -> BlockMasks {
    classify_block_with(Level::detected(), set, pairs, input, at)
}

/// The 64 bytes of `input` from `at`, or what is left of them copied into
/// `tail` (which holds 0xFF: in no set, neither a lead byte nor a
/// continuation byte).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn block_at<'b>(input: &'b [u8], at: usize, tail: &'b mut [u8; 64]) -> &'b [u8; 64] {
    match input.get(at..at + 64) {
        Some(b) => b.try_into().expect("64 bytes"),
        None => {
            let rest = input.get(at..).unwrap_or(&[]);
            tail[..rest.len()].copy_from_slice(rest);
            tail
        }
    }
}

/// [`classify_block`] with a given implementation (a level the CPU does not
/// have runs the best one it has).
#[inline]
pub fn classify_block_with(
    level: Level,
    set: &LoopSet,
    pairs: Option<&(NibbleSet, NibbleSet)>,
    input: &[u8],
    at: usize,
) -> BlockMasks {
    #[cfg(target_arch = "x86_64")]
    {
        let level = level.min(Level::detected());
        if level > Level::Scalar {
            let mut tail = [0xFFu8; 64];
            let block = block_at(input, at, &mut tail);
            return match level {
                // SAFETY: `Level::detected` found AVX-512 F and BW (CPUID
                // and XCR0) on this CPU, so the function's target features
                // are present.
                Level::Avx512 | Level::Vbmi => unsafe {
                    x86_64::avx512::classify_block_avx512(set, pairs, block)
                },
                // SAFETY: as above, for AVX2.
                Level::Avx2 => unsafe { x86_64::avx2::classify_block_avx2(set, pairs, block) },
                // SAFETY: as above, for SSSE3.
                _ => unsafe { x86_64::ssse3::classify_block_ssse3(set, pairs, block) },
            };
        }
    }
    let _ = level;
    classify_block_scalar(set, pairs, input, at)
}

/// The scalar twin of [`classify_block`]: the same masks, one byte at a
/// time.
pub fn classify_block_scalar(
    set: &LoopSet,
    pairs: Option<&(NibbleSet, NibbleSet)>,
    input: &[u8],
    at: usize,
) -> BlockMasks {
    let block = input.get(at..).unwrap_or(&[]);
    let (mut inside, mut open, mut esc, mut lead, mut high, mut cont) = (0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
    let (mut pair_open, mut pair_next) = (0u64, 0u64);
    for (j, &b) in block.iter().take(64).enumerate() {
        if let Some((x, e)) = pairs {
            pair_open |= u64::from(x.contains(b)) << j;
            pair_next |= u64::from(e.contains(b)) << j;
        }
        inside |= u64::from(set.bytes.contains(b)) << j;
        if !set.escaped.is_empty() {
            open |= u64::from(b == set.escape) << j;
            esc |= u64::from(set.escaped.contains(b)) << j;
        }
        lead |= u64::from(set.leads.contains(b)) << j;
        high |= u64::from(b & 0xF0 == 0xE0) << j;
        cont |= u64::from(b & 0xC0 == 0x80) << j;
    }
    let starts = Starts::of(open, esc, lead, high, cont);
    BlockMasks {
        inside,
        three: starts.three,
        two: starts.two,
        pair_open,
        pair_next,
    }
}

/// A class of bytes by two nibble lookups (simdjson's classification):
/// byte `b` is in it if `lo[b & 15] & hi[b >> 4]` is not zero. Any set of
/// ASCII bytes is one ([`NibbleClass::ascii`]), and so is a set of high
/// nibbles (UTF-8 lead and continuation bytes, [`NibbleClass::high`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(16))]
pub struct NibbleClass {
    /// The first lookup's table, by low nibble.
    pub lo: [u8; 16],
    /// The second lookup's table, by high nibble.
    pub hi: [u8; 16],
}

/// Bit `h` for high nibble `h < 8`: the second lookup's table of a
/// [`NibbleSet`]. High nibbles 8 to 15 (non-ASCII bytes) map to 0, so they
/// are never in a set.
pub(crate) const HIGH: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0];

/// The second lookup's table of a [`Leads`] set: bit `h - 0xC` for high
/// nibbles `C`, `D` and `E`.
pub(crate) const LEAD_HIGH: [u8; 16] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 0];

impl NibbleClass {
    /// No byte.
    pub const NONE: NibbleClass = NibbleClass {
        lo: [0; 16],
        hi: [0; 16],
    };

    /// The bytes of an ASCII set.
    pub const fn ascii(set: NibbleSet) -> NibbleClass {
        NibbleClass { lo: set.0, hi: HIGH }
    }

    /// The lead bytes of a [`Leads`] set.
    pub const fn leads(set: Leads) -> NibbleClass {
        NibbleClass {
            lo: set.0,
            hi: LEAD_HIGH,
        }
    }

    /// The bytes whose high nibble is in `from ..= to`.
    pub const fn high(from: u8, to: u8) -> NibbleClass {
        let mut hi = [0u8; 16];
        let mut h = from;
        while h <= to && h < 16 {
            hi[h as usize] = 1;
            h += 1;
        }
        NibbleClass { lo: [1; 16], hi }
    }

    /// Whether `b` is in the class.
    #[inline(always)]
    pub const fn contains(&self, b: u8) -> bool {
        self.lo[(b & 15) as usize] & self.hi[(b >> 4) as usize] != 0
    }
}

/// Several [`NibbleClass`]es packed into as few pairs of lookups as their
/// shapes allow (simdjson's classification). Each bit of a packed pair of
/// tables is one *product*: a set of low nibbles times a set of high
/// nibbles (the bytes whose low nibble is in the one and high nibble in
/// the other); a class is the union of the products of its bits. A class
/// needs one product per distinct row of its bytes (the low nibbles it
/// has for one high nibble): one for a single byte or for `0`-`9`, two for
/// JSON's white space, three for the characters of a JSON string; so the
/// eleven classes of JSON's structural index take three lookups where
/// they took eleven.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedClasses<const K: usize> {
    tables: [NibbleClass; PACKED_TABLES],
    /// The pairs of tables in use (1 to [`PACKED_TABLES`]).
    used: usize,
    /// Per class: its pair of tables and its bits there.
    select: [(u8, u8); K],
}

/// The most pairs of tables of [`PackedClasses`]: 32 products.
pub const PACKED_TABLES: usize = 4;

impl<const K: usize> PackedClasses<K> {
    /// `classes` packed, each class's products in one pair of tables;
    /// `None` if they take more than [`PACKED_TABLES`] pairs.
    pub fn pack(classes: &[NibbleClass; K]) -> Option<PackedClasses<K>> {
        let mut tables = [NibbleClass::NONE; PACKED_TABLES];
        let mut bits = [0u32; PACKED_TABLES];
        let mut select = [(0u8, 0u8); K];
        for (k, class) in classes.iter().enumerate() {
            // (low nibbles, high nibbles) per distinct row.
            let mut products: alloc::vec::Vec<(u16, u16)> = alloc::vec::Vec::new();
            for h in 0..16u8 {
                let row = (0..16u8).fold(0u16, |row, l| row | u16::from(class.contains(h << 4 | l)) << l);
                if row == 0 {
                    continue;
                }
                match products.iter_mut().find(|p| p.0 == row) {
                    Some(p) => p.1 |= 1 << h,
                    None => products.push((row, 1 << h)),
                }
            }
            let t = (0..PACKED_TABLES).find(|&t| bits[t] as usize + products.len() <= 8)?;
            let mut mask = 0u8;
            for (lo, hi) in products {
                let bit = 1u8 << bits[t];
                bits[t] += 1;
                mask |= bit;
                for n in 0..16 {
                    if lo >> n & 1 == 1 {
                        tables[t].lo[n] |= bit;
                    }
                    if hi >> n & 1 == 1 {
                        tables[t].hi[n] |= bit;
                    }
                }
            }
            select[k] = (t as u8, mask);
        }
        let used = bits.iter().rposition(|&b| b > 0).map_or(1, |t| t + 1);
        Some(PackedClasses { tables, used, select })
    }

    /// The pairs of tables in use.
    pub fn tables_used(&self) -> usize {
        self.used
    }

    /// Whether `b` is in class `k`.
    #[inline(always)]
    pub fn contains(&self, k: usize, b: u8) -> bool {
        let (t, bits) = self.select[k];
        let c = &self.tables[usize::from(t)];
        c.lo[usize::from(b & 15)] & c.hi[usize::from(b >> 4)] & bits != 0
    }
}

/// Classifies `blocks` consecutive 64-byte blocks of `input` (at most
/// `N`), the first at `at`, by each of the classes of `classes`, class
/// by class (bit `j` of `out[k][i]`: byte `at + 64 i + j` is in class
/// `k`, so that a vector reads one class of several blocks); bytes past
/// the end of `input` are in none. With the widest vectors this CPU has:
/// two `pshufb` per pair of tables and vector, then a test per class, the
/// tables loaded once for all the blocks (stage 1 of the deterministic
/// walk over a structural index, [`crate::network`]).
#[inline]
pub fn classify_blocks<const K: usize, const N: usize>(
    classes: &PackedClasses<K>,
    input: &[u8],
    at: usize,
    out: &mut [[u64; N]; K],
    blocks: usize,
) {
    classify_blocks_with(Level::detected(), classes, input, at, out, blocks)
}

/// [`classify_blocks`] with a given implementation (a level the CPU does
/// not have runs the best one it has).
#[inline]
pub fn classify_blocks_with<const K: usize, const N: usize>(
    level: Level,
    classes: &PackedClasses<K>,
    input: &[u8],
    at: usize,
    out: &mut [[u64; N]; K],
    blocks: usize,
) {
    let blocks = blocks.min(N);
    #[cfg(target_arch = "x86_64")]
    {
        let level = level.min(Level::detected());
        if level > Level::Scalar {
            // The blocks wholly inside the input, then the one the input
            // ends in (copied), then none.
            let rest = input.get(at..).unwrap_or(&[]);
            let whole = (rest.len() / 64).min(blocks);
            let run = |bytes: &[u8], out: &mut [[u64; N]; K], first: usize, blocks: usize| match classes.used
            {
                1 => classify_level::<1, K, N>(level, classes, bytes, out, first, blocks),
                2 => classify_level::<2, K, N>(level, classes, bytes, out, first, blocks),
                3 => classify_level::<3, K, N>(level, classes, bytes, out, first, blocks),
                _ => classify_level::<4, K, N>(level, classes, bytes, out, first, blocks),
            };
            run(rest, out, 0, whole);
            if whole < blocks {
                let mut buf = [0xFFu8; 64];
                let block = block_at(input, at + 64 * whole, &mut buf);
                run(block, out, whole, 1);
                // The copy's filler bytes may be in a class.
                let live = rest.len().saturating_sub(64 * whole).min(64);
                let live = if live == 64 { !0 } else { (1u64 << live) - 1 };
                for class in out.iter_mut() {
                    class[whole] &= live;
                    class[whole + 1..blocks].fill(0);
                }
            }
            return;
        }
    }
    let _ = level;
    classify_blocks_scalar(classes, input, at, out, blocks)
}

/// [`classify_blocks`] at a vector level, with the first `T` pairs of
/// tables; `bytes` holds 64 bytes per block, written from `out[k][first]`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn classify_level<const T: usize, const K: usize, const N: usize>(
    level: Level,
    classes: &PackedClasses<K>,
    bytes: &[u8],
    out: &mut [[u64; N]; K],
    first: usize,
    blocks: usize,
) {
    assert!(bytes.len() >= 64 * blocks && first + blocks <= N && T <= PACKED_TABLES);
    let tables: &[NibbleClass; T] = classes.tables[..T].try_into().expect("T tables");
    let select = &classes.select;
    match level {
        // SAFETY: `Level::detected` found AVX-512 F and BW (CPUID and
        // XCR0) on this CPU, so the function's target features are
        // present; `bytes` holds 64 bytes per block (asserted).
        Level::Avx512 | Level::Vbmi => unsafe {
            x86_64::avx512::classify_blocks_avx512(tables, select, bytes, out, first, blocks)
        },
        // SAFETY: as above, for AVX2.
        Level::Avx2 => unsafe {
            x86_64::avx2::classify_blocks_avx2(tables, select, bytes, out, first, blocks)
        },
        // SAFETY: as above, for SSSE3.
        _ => unsafe { x86_64::ssse3::classify_blocks_ssse3(tables, select, bytes, out, first, blocks) },
    }
}

/// The scalar twin of [`classify_blocks`]: one byte at a time.
pub fn classify_blocks_scalar<const K: usize, const N: usize>(
    classes: &PackedClasses<K>,
    input: &[u8],
    at: usize,
    out: &mut [[u64; N]; K],
    blocks: usize,
) {
    for i in 0..blocks.min(N) {
        let block = input.get(at + 64 * i..).unwrap_or(&[]);
        for (k, class) in out.iter_mut().enumerate() {
            class[i] = 0;
            for (j, &b) in block.iter().take(64).enumerate() {
                class[i] |= u64::from(classes.contains(k, b)) << j;
            }
        }
    }
}

// The vector levels' (x86-64 today).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
impl BlockMasks {
    /// The masks from a level's classification.
    #[inline(always)]
    fn of(inside: u64, starts: Starts) -> BlockMasks {
        BlockMasks {
            inside,
            three: starts.three,
            two: starts.two,
            pair_open: 0,
            pair_next: 0,
        }
    }
}

/// The first index of `byte` in `input`, if any (`memchr`), 64 bytes per
/// step with the widest vectors this CPU has: for a check that looks for
/// one byte (the lead byte of RFC 3987's forbidden bidi formatting
/// characters, say). Inputs under 64 bytes take one masked load with
/// AVX-512, four overlapping 16-byte loads with AVX2 and SSSE3 (16 bytes
/// or more: SSE2, with no branch on the length), and a byte loop below
/// that.
#[inline]
pub fn find_byte(input: &[u8], byte: u8) -> Option<usize> {
    find_byte_with(Level::detected(), input, byte)
}

/// [`find_byte`] with a given implementation (a level the CPU does not
/// have runs the best one it has).
#[inline]
pub fn find_byte_with(level: Level, input: &[u8], byte: u8) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        let level = level.min(Level::detected());
        let n = input.len();
        match level {
            // SAFETY: `Level::detected` found AVX-512 F and BW (CPUID and
            // XCR0) on this CPU, so the functions' target features are
            // present.
            Level::Avx512 | Level::Vbmi if n >= 64 => {
                return unsafe { x86_64::avx512::find_byte_avx512(input, byte) }
            }
            // SAFETY: as above.
            Level::Avx512 | Level::Vbmi => {
                return unsafe { x86_64::avx512::find_byte_avx512_short(input, byte) }
            }
            // SAFETY: `Level::detected` found AVX2 (CPUID and XCR0) on this
            // CPU, so the functions' target feature is present.
            Level::Avx2 if n >= 64 => return unsafe { x86_64::avx2::find_byte_avx2(input, byte) },
            // SAFETY: as above, for SSSE3.
            Level::Ssse3 if n >= 64 => return unsafe { x86_64::ssse3::find_byte_ssse3(input, byte) },
            // SAFETY: SSE2 is part of the x86-64 baseline.
            Level::Avx2 | Level::Ssse3 if n >= 16 => {
                return unsafe { x86_64::ssse3::find_byte_sse2_short(input, byte) }
            }
            _ => {}
        }
    }
    let _ = level;
    find_byte_scalar(input, byte)
}

/// The scalar twin of [`find_byte`]: eight bytes to a 64-bit word (SWAR).
#[inline]
pub fn find_byte_scalar(input: &[u8], byte: u8) -> Option<usize> {
    find_either_scalar(input, byte, byte)
}

/// The first index of byte `a` or byte `b` in `input`, eight bytes to a
/// 64-bit word (SWAR): the first zero byte of the word `xor` each byte
/// repeated ([`zero_bytes`]; with `a == b` the two are one computation).
#[inline(always)]
fn find_either_scalar(input: &[u8], a: u8, b: u8) -> Option<usize> {
    let (pa, pb) = (ONES * u64::from(a), ONES * u64::from(b));
    let chunks = input.chunks_exact(8);
    let rest = chunks.remainder();
    for (k, chunk) in chunks.enumerate() {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        let marks = zero_bytes(w ^ pa) | zero_bytes(w ^ pb);
        if marks != 0 {
            return Some(8 * k + (marks.trailing_zeros() / 8) as usize);
        }
    }
    let done = input.len() - rest.len();
    rest.iter().position(|&x| x == a || x == b).map(|p| done + p)
}

/// Every byte of a 64-bit word set to 1 (times a byte: that byte repeated).
const ONES: u64 = u64::from_le_bytes([0x01; 8]);

/// The high bit of every byte of `x` that is zero, and perhaps of bytes
/// above one (a borrow), never below the first: the lowest mark is the
/// first zero byte, and the word is zero exactly when no byte is.
#[inline(always)]
fn zero_bytes(x: u64) -> u64 {
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// Where the search goes on after a vector step found `p` outside: past
/// the escape or character that starts there (one that crossed the end of
/// the window the vectors looked at), else `None`: `p` is the answer.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
fn resume_after(set: &LoopSet, input: &[u8], p: usize) -> Option<usize> {
    set.sequence_at(input, p)
}

/// The escapes that start in a 64-byte window, from its masks of escape
/// bytes (`open`) and of bytes allowed in an escape (`esc`): only those
/// with all three bytes in the window.
#[inline(always)]
fn escape_starts(open: u64, esc: u64) -> u64 {
    open & esc >> 1 & esc >> 2
}

/// The sequences of three and of two bytes that start in a 64-byte window
/// (escapes and characters of `leads`), all of whose bytes are in it.
#[derive(Clone, Copy)]
struct Starts {
    three: u64,
    two: u64,
}

#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
impl Starts {
    const NONE: Starts = Starts { three: 0, two: 0 };

    /// The starts from a window's masks: escapes (see [`escape_starts`]),
    /// lead bytes of the set (`lead`), of three-byte sequences among them
    /// (`high`: high nibble `E`), and continuation bytes (`cont`).
    #[inline(always)]
    fn of(open: u64, esc: u64, lead: u64, high: u64, cont: u64) -> Starts {
        let two = lead & !high & cont >> 1;
        let three = lead & high & cont >> 1 & cont >> 2;
        Starts {
            three: escape_starts(open, esc) | three,
            two,
        }
    }

    /// The starts at or after bit `shift` (renumbered from it).
    #[inline(always)]
    fn shr(self, shift: usize) -> Starts {
        Starts {
            three: self.three >> shift,
            two: self.two >> shift,
        }
    }
}

/// A window's bytes outside the set: neither in it (`inside`) nor in a
/// sequence that starts in the window (`starts`).
#[inline(always)]
fn outside_of(inside: u64, starts: Starts) -> u64 {
    let (t, w) = (starts.three, starts.two);
    !(inside | t | t << 1 | t << 2 | w | w << 1)
}

/// Lanes of a shuffle automaton's vector (`table::Shuffle`).
pub const LANES: usize = 64;

/// The lane of every state without a lane of its own; it maps to itself.
pub const ESCAPE: u8 = (LANES - 1) as u8;

/// Bytes of a shuffle automaton's rows: one vector per byte value.
pub const SHUFFLE_ROWS: usize = 256 * LANES;

/// Bytes of a shuffle automaton in a table: its rows, its accept lanes
/// and the table state of each lane (32-bit words).
pub const SHUFFLE_BYTES: usize = SHUFFLE_ROWS + LANES + 4 * LANES;

/// The lane a shuffle automaton ends in after `input`, from lane `start`
/// (`rows` as in `table::Shuffle`), at the fastest level this CPU has.
#[inline]
pub fn shuffle_walk(rows: &[u8; SHUFFLE_ROWS], start: u8, input: &[u8]) -> u8 {
    shuffle_walk_with(Level::detected(), rows, start, input)
}

/// [`shuffle_walk`] at a given level: one `vpermb` per byte, four
/// quarters of the input at once, at [`Level::Vbmi`] if the CPU has it;
/// the scalar twin at every other level.
#[inline(always)]
pub fn shuffle_walk_with(level: Level, rows: &[u8; SHUFFLE_ROWS], start: u8, input: &[u8]) -> u8 {
    #[cfg(target_arch = "x86_64")]
    if level.min(Level::detected()) == Level::Vbmi {
        // SAFETY: `Level::detected` found AVX-512 F, BW and VBMI (CPUID and
        // XCR0) on this CPU.
        return unsafe { x86_64::vbmi::shuffle_walk_vbmi(rows, start, input) };
    }
    let _ = level;
    shuffle_walk_scalar(rows, start, input)
}

/// The scalar twin of [`shuffle_walk`]: one lookup per byte. Lane `j`
/// goes to `rows[64 * b + j]` on byte `b`; `start` must be below 64.
pub fn shuffle_walk_scalar(rows: &[u8; SHUFFLE_ROWS], start: u8, input: &[u8]) -> u8 {
    input.iter().fold(start, |j, &b| {
        rows[usize::from(b) * LANES + usize::from(j & ESCAPE)]
    })
}

/// A byte → *atom bits* map for [`Exits`]: bytes that a walk treats alike
/// share a bit (the generator's exit plans; see [`ExitWalk`]). 64-byte
/// aligned, so that its four quarters load as whole vectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct AtomTable(pub [u8; 256]);

impl AtomTable {
    /// The table whose bytes `first..=last` of each range have `bits`
    /// (bytes in no range have none; ranges that overlap add their bits).
    pub const fn from_ranges(ranges: &[(u8, u8, u8)]) -> AtomTable {
        let mut t = [0u8; 256];
        let mut i = 0;
        while i < ranges.len() {
            let (first, last, bits) = ranges[i];
            let mut b = first as usize;
            while b <= last as usize {
                t[b] |= bits;
                b += 1;
            }
            i += 1;
        }
        AtomTable(t)
    }
}

/// Finds the *exits* of one input: the first byte at or after an offset
/// whose atom bits ([`AtomTable`]) meet a state's mask. What a generated
/// [`ExitWalk`] calls once per state it passes through.
pub trait Exits {
    /// The first offset `i >= from` with `atoms[input[i]] & bits != 0`, or
    /// the input's length if there is none (also when `from` is past it).
    fn next_exit(&mut self, from: usize, bits: u8) -> usize;

    /// The first offset `i >= from` with `input[i]` equal to `a` or `b`,
    /// or the input's length: [`Exits::next_exit`] for a state whose exits
    /// are those two bytes (or one, twice), which long runs find with one
    /// compare per byte value and block instead of a classification.
    fn next_byte(&mut self, from: usize, a: u8, b: u8) -> usize;
}

/// The scalar twin of the vector [`Exits`]: one lookup per byte.
#[derive(Clone, Copy, Debug)]
pub struct ScalarExits<'a> {
    input: &'a [u8],
    atoms: &'a AtomTable,
}

impl<'a> ScalarExits<'a> {
    /// Exits of `input` under `atoms`.
    pub fn new(input: &'a [u8], atoms: &'a AtomTable) -> ScalarExits<'a> {
        ScalarExits { input, atoms }
    }
}

impl Exits for ScalarExits<'_> {
    /// Eight bytes' lookups folded into one mask, one branch per eight
    /// bytes (a byte at a time, the loop took a branch and a jump per
    /// byte).
    #[inline(always)]
    fn next_exit(&mut self, from: usize, bits: u8) -> usize {
        let rest = self.input.get(from..).unwrap_or_default();
        let chunks = rest.chunks_exact(8);
        let tail = chunks.remainder();
        for (k, chunk) in chunks.enumerate() {
            let exits = chunk.iter().enumerate().fold(0u32, |m, (j, &b)| {
                m | u32::from(self.atoms.0[usize::from(b)] & bits != 0) << j
            });
            if exits != 0 {
                return from + 8 * k + exits.trailing_zeros() as usize;
            }
        }
        let done = rest.len() - tail.len();
        tail.iter()
            .position(|&b| self.atoms.0[usize::from(b)] & bits != 0)
            .map_or(self.input.len(), |p| from + done + p)
    }

    /// Eight bytes to a 64-bit word (SWAR), as [`find_byte_scalar`].
    #[inline(always)]
    fn next_byte(&mut self, from: usize, a: u8, b: u8) -> usize {
        let rest = self.input.get(from..).unwrap_or_default();
        find_either_scalar(rest, a, b).map_or(self.input.len(), |p| from + p)
    }
}

/// A walk from exit to exit, as the generator emits it for a tagged DFA
/// whose states loop on most bytes (`abnf_codegen`'s exit plans): each
/// state asks [`Exits::next_exit`] for the next byte it does not loop on
/// and steps there. [`walk_exits`] runs it with the vector [`Exits`] where
/// the CPU has them, with [`ScalarExits`] otherwise; both give the same
/// answers, so the walk's result does not depend on the CPU.
pub trait ExitWalk {
    /// The walk's atom table.
    fn atoms(&self) -> &'static AtomTable;

    /// The atom table as nibble lookups, if it has that form (see
    /// [`AtomNibbles`]): what the 16- and 32-byte vector levels classify
    /// with. `None` (the default) leaves those levels the scalar twin.
    fn nibbles(&self) -> Option<&'static AtomNibbles> {
        None
    }

    /// Walks all of `input`, whose exits `exits` finds; on a match fills
    /// `tags` as [`crate::TaggedDfa::run`] does, and returns true.
    fn walk<E: Exits>(&self, input: &[u8], exits: &mut E, tags: &mut [usize]) -> bool;
}

/// An [`AtomTable`] as two nibble lookups and an `and` (simdjson's
/// character classes): byte `b`'s class is `low[b & 15] & high[b >> 4]`,
/// which is `b`'s atom bit for every atom but `rest` (whose bytes have
/// class 0), so that `pshufb` (16 bytes), `vpshufb` (32) or NEON's
/// `vqtbl1q_u8` classify a vector in three operations. The generator gives
/// a walk one where every atom but at most one is a *rectangle*: all the
/// bytes `h << 4 | l` for `h` in one set of high nibbles and `l` in one of
/// low nibbles (a single byte, `0`-`9`); `rest` is the atom that is not
/// (everything else), or 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(16))]
pub struct AtomNibbles {
    /// Per low nibble, the atom bits of the rectangles that have it.
    pub low: [u8; 16],
    /// Per high nibble, likewise.
    pub high: [u8; 16],
    /// The atom bit that no byte's class has (0 if every atom is a
    /// rectangle).
    pub rest: u8,
}

impl AtomNibbles {
    /// Byte `b`'s class: its atom bit, or 0 for an atom `rest` byte.
    #[inline(always)]
    pub const fn class(&self, b: u8) -> u8 {
        self.low[(b & 15) as usize] & self.high[(b >> 4) as usize]
    }

    /// Whether a byte of class `class` is an exit of a state whose exit
    /// atoms are `bits` (the scalar form of what the vector [`Exits`] ask):
    /// a byte of a rectangle is if its bit is in `bits`; a byte of `rest`
    /// (class 0) is if `rest` is.
    #[inline(always)]
    pub const fn is_exit(&self, class: u8, bits: u8) -> bool {
        if bits & self.rest != 0 {
            class & !bits == 0
        } else {
            class & bits != 0
        }
    }

    /// Whether these nibbles classify every byte as `atoms` does (what the
    /// generator checks before it emits them, and the tests after).
    pub fn agrees_with(&self, atoms: &AtomTable) -> bool {
        (0..=255u8).all(|b| {
            let a = atoms.0[usize::from(b)];
            a.count_ones() == 1 && self.class(b) == if a == self.rest { 0 } else { a }
        })
    }
}

/// Runs `walk` over `input` at `level` (a level the CPU does not have runs
/// the best one it has): with 64-byte blocks classified by `vpermi2b` at
/// [`Level::Vbmi`]; with 32-byte blocks classified by two nibble lookups
/// ([`AtomNibbles`]) at [`Level::Avx2`] and [`Level::Avx512`] (`vpshufb`)
/// and at [`Level::Ssse3`] (two `pshufb` per lookup), when the walk has
/// nibbles; else with the scalar twin [`ScalarExits`].
#[inline]
pub fn walk_exits<W: ExitWalk>(level: Level, walk: &W, input: &[u8], tags: &mut [usize]) -> bool {
    #[cfg(target_arch = "x86_64")]
    match (level.min(Level::detected()), walk.nibbles()) {
        // SAFETY: `Level::detected` found AVX-512 F, BW and VBMI (CPUID
        // and XCR0) on this CPU.
        (Level::Vbmi, _) => return unsafe { x86_64::vbmi::walk_exits_vbmi(walk, input, tags) },
        // SAFETY: `Level::detected` found AVX2 (CPUID and XCR0) on this
        // CPU (AVX-512 implies it).
        (Level::Avx2 | Level::Avx512, Some(n)) => {
            return unsafe { x86_64::avx2::walk_exits_avx2(walk, n, input, tags) }
        }
        // SAFETY: `Level::detected` found SSSE3 on this CPU.
        (Level::Ssse3, Some(n)) => return unsafe { x86_64::ssse3::walk_exits_ssse3(walk, n, input, tags) },
        _ => {}
    }
    let _ = level;
    walk.walk(input, &mut ScalarExits::new(input, walk.atoms()), tags)
}

/// The longest input a shape holds ([`match_shapes`]), and the bytes of
/// each shape's masks.
pub const SHAPE_LEN: usize = 64;

/// Whether `input` (at most [`SHAPE_LEN`] bytes) fits one of the shapes
/// `ids`, each the index of a row of `rows`: [`SHAPE_LEN`] bytes, the
/// bucket bits allowed at each position (`abnf_codegen`'s
/// `automata::shapes`), a byte's buckets being its class under `nibbles`
/// ([`AtomNibbles::class`]; `rest` unused), which `classes` tabulates.
/// The input fits a shape when every byte has a bucket its position
/// allows: every position checked at once, with no step waiting on the
/// one before. The answer is the index in `ids` of the first shape the
/// input fits, if any.
///
/// Classifies the input in 64-byte (AVX-512: one masked load), 32-byte
/// (AVX2) or 16-byte (SSSE3) windows, the last one overlapping the one
/// before (an input of 8 to 15 bytes: its first and last 8 bytes in one
/// 16-byte window); inputs under 8 bytes, and CPUs without vectors, take
/// the scalar twin [`match_shapes_scalar`].
#[inline]
pub fn match_shapes(
    nibbles: &AtomNibbles,
    classes: &[u8; 256],
    rows: &[u8],
    ids: &[u8],
    input: &[u8],
) -> Option<usize> {
    match_shapes_with(Level::detected(), nibbles, classes, rows, ids, input)
}

/// [`match_shapes`] at `level` (a level the CPU does not have runs the
/// best one it has). Always inlined: a dispatch of a few instructions
/// that would otherwise cost a call with six arguments per input.
#[inline(always)]
pub fn match_shapes_with(
    level: Level,
    nibbles: &AtomNibbles,
    classes: &[u8; 256],
    rows: &[u8],
    ids: &[u8],
    input: &[u8],
) -> Option<usize> {
    if input.len() > SHAPE_LEN {
        return None;
    }
    #[cfg(target_arch = "x86_64")]
    match level.min(Level::detected()) {
        // SAFETY: `Level::detected` found AVX-512 F and BW (CPUID and
        // XCR0) on this CPU.
        Level::Avx512 | Level::Vbmi => {
            return unsafe { x86_64::avx512::match_shapes_avx512(nibbles, rows, ids, input) }
        }
        // SAFETY: `Level::detected` found AVX2 (CPUID and XCR0); the
        // input is at most `SHAPE_LEN` bytes.
        Level::Avx2 => return unsafe { x86_64::avx2::match_shapes_avx2(nibbles, rows, ids, input) },
        // SAFETY: `Level::detected` found SSSE3; as above.
        Level::Ssse3 => return unsafe { x86_64::ssse3::match_shapes_ssse3(nibbles, rows, ids, input) },
        Level::Scalar => {}
    }
    let _ = (level, nibbles);
    match_shapes_scalar(classes, rows, ids, input)
}

/// The index of the shape of `sh` that `input` fits, among all of them,
/// at `level`, which must be a level this CPU has (one that
/// [`Level::detected`] returned: [`cap_level`] only ever lowers it below
/// what the CPU has, so a cap changed since does not matter):
/// [`match_shapes_with`] for the shapes of `input`'s length, in one call
/// of two arguments.
#[inline(always)]
pub(crate) fn shape_of(level: Level, sh: &crate::shapes::Shapes<'_>, input: &[u8]) -> Option<usize> {
    if input.len() > SHAPE_LEN {
        return None;
    }
    #[cfg(target_arch = "x86_64")]
    match level {
        // SAFETY: `level` is one `Level::detected` returned (the caller's
        // promise), which found AVX-512 F and BW (CPUID and XCR0) on this
        // CPU; the input is at most `SHAPE_LEN` bytes.
        Level::Avx512 | Level::Vbmi => return unsafe { x86_64::shape_of_avx512(sh, input) },
        // SAFETY: as above, AVX2.
        Level::Avx2 => return unsafe { x86_64::shape_of_avx2(sh, input) },
        // SAFETY: as above, SSSE3.
        Level::Ssse3 => return unsafe { x86_64::shape_of_ssse3(sh, input) },
        Level::Scalar => {}
    }
    let _ = level;
    let (a, ids) = sh.ids_of(input.len());
    if ids.is_empty() {
        return None;
    }
    match_shapes_scalar(sh.classes, sh.rows, ids, input).map(|k| a + k)
}

/// Whether `input` fits a shape of `sh`, at the best level this CPU has.
#[inline(always)]
pub(crate) fn fits(sh: &crate::shapes::Shapes<'_>, input: &[u8]) -> bool {
    if input.len() > SHAPE_LEN {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    match Level::detected() {
        // SAFETY: `Level::detected` found AVX-512 F and BW (CPUID and
        // XCR0) on this CPU; the input is at most `SHAPE_LEN` bytes.
        Level::Avx512 | Level::Vbmi => return unsafe { x86_64::fits_avx512(sh, input) },
        // SAFETY: as above, AVX2.
        Level::Avx2 => return unsafe { x86_64::fits_avx2(sh, input) },
        // SAFETY: as above, SSSE3.
        Level::Ssse3 => return unsafe { x86_64::fits_ssse3(sh, input) },
        Level::Scalar => {}
    }
    fits_scalar(sh, input)
}

/// [`fits`] without vectors, out of line.
#[inline(never)]
fn fits_scalar(sh: &crate::shapes::Shapes<'_>, input: &[u8]) -> bool {
    shape_of(Level::Scalar, sh, input).is_some()
}

/// The bytes of `input` (under 8 of them) as a little-endian word, the
/// rest zeros: two overlapping loads of four or two bytes, not one load
/// per byte.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn short_word(input: &[u8]) -> u64 {
    let n = input.len();
    debug_assert!(n < 8);
    match (input.first_chunk::<4>(), input.last_chunk::<4>()) {
        (Some(&lo), Some(&hi)) => {
            u64::from(u32::from_le_bytes(lo)) | u64::from(u32::from_le_bytes(hi)) << (8 * (n - 4))
        }
        _ => match (input.first_chunk::<2>(), input.last_chunk::<2>()) {
            (Some(&lo), Some(&hi)) => {
                u64::from(u16::from_le_bytes(lo)) | u64::from(u16::from_le_bytes(hi)) << (8 * (n - 2))
            }
            _ => input.first().map_or(0, |&b| u64::from(b)),
        },
    }
}

/// The scalar twin of [`match_shapes`], eight positions to a 64-bit word
/// (SWAR): the classes of eight bytes (one lookup each in `classes`) `and`
/// their masks, and a test for a zero byte, with no branch per byte.
pub fn match_shapes_scalar(classes: &[u8; 256], rows: &[u8], ids: &[u8], input: &[u8]) -> Option<usize> {
    if input.len() > SHAPE_LEN {
        return None;
    }
    // The classes once, eight to a word (first byte lowest); the positions
    // past the input get 0xFF bytes after the `and` (`fill`), so they never
    // miss.
    let n = input.len();
    if n <= 8 {
        // One word (the short inputs that vectors leave to this twin): the
        // classes gathered once, then one `and` and one test per shape.
        let word = input.iter().enumerate().fold(0u64, |w, (k, &b)| {
            w | u64::from(classes[usize::from(b)]) << (8 * k)
        });
        let fill = u64::MAX.checked_shl(8 * n as u32).unwrap_or(0);
        return ids.iter().position(|&id| {
            let at = usize::from(id) * SHAPE_LEN;
            let m = rows.get(at..at + 8).map_or(0, |m| {
                u64::from_le_bytes([m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7]])
            });
            zero_bytes(word & m | fill) == 0
        });
    }
    let used = n.div_ceil(8);
    let mut words = [0u64; SHAPE_LEN / 8];
    // (Shifted into place: bytes stored one by one and read back as a word
    // would stall store forwarding.)
    let class = |b: u8| u64::from(classes[usize::from(b)]);
    let chunks = input.chunks_exact(8);
    let rest = chunks.remainder();
    for (w, b) in words.iter_mut().zip(chunks) {
        *w = class(b[0])
            | class(b[1]) << 8
            | class(b[2]) << 16
            | class(b[3]) << 24
            | class(b[4]) << 32
            | class(b[5]) << 40
            | class(b[6]) << 48
            | class(b[7]) << 56;
    }
    for (k, &b) in rest.iter().enumerate() {
        words[n / 8] |= class(b) << (8 * k);
    }
    let fill = match n % 8 {
        0 => 0,
        r => u64::MAX << (8 * r),
    };
    ids.iter().position(|&id| {
        let masks = &rows[usize::from(id) * SHAPE_LEN..][..SHAPE_LEN];
        let mut zero = 0u64;
        for (k, m) in masks.chunks_exact(8).take(used).enumerate() {
            let m = u64::from_le_bytes([m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7]]);
            let x = words[k] & m | if k + 1 == used { fill } else { 0 };
            // Nonzero exactly when some byte of `x` is zero.
            zero |= zero_bytes(x);
        }
        zero == 0
    })
}

// Only the x86-64 levels supply windows today (a NEON level would too).
#[cfg(target_arch = "x86_64")]
mod generic;
mod lanes;
pub use lanes::{run_lanes, LaneTask, Lanes};
#[cfg(target_arch = "x86_64")]
mod x86_64;

#[cfg(test)]
mod tests;
