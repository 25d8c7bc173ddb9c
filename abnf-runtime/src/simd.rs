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
//! block classified into atom bits by two `vpermi2b` lookups, then one
//! `vptestmb` and a trailing-zero count per question), with the scalar
//! twin [`ScalarExits`].

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
/// 0-2 the [`Level`], as lowered by [`cap_level`]).
static CPU: AtomicU8 = AtomicU8::new(0);

#[inline]
fn cpu() -> u8 {
    match CPU.load(Ordering::Relaxed) {
        0 => {
            let c = 0x80 | detect() as u8;
            CPU.store(c, Ordering::Relaxed);
            c
        }
        c => c,
    }
}

/// Lowers the level the whole process uses to at most `cap` (a level the
/// CPU does not have is never raised to), or back to what the CPU has with
/// [`Level::Vbmi`]. For benchmarks that time each level in one run (`cargo
/// xtask bench`), not for users: the answers are the same at every level,
/// only the speed differs.
#[doc(hidden)]
pub fn cap_level(cap: Level) {
    let level = detect().min(cap);
    CPU.store(0x80 | level as u8, Ordering::Relaxed);
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
    #[cfg(target_arch = "x86_64")]
    {
        let level = level.min(Level::detected());
        match level {
            // SAFETY: `Level::detected` found AVX-512 F and BW (CPUID and
            // XCR0) on this CPU, so the function's target features are
            // present.
            Level::Avx512 | Level::Vbmi => return unsafe { x86::find_outside_avx512(set, input, from) },
            // SAFETY: `Level::detected` found AVX2 (CPUID and XCR0) on this
            // CPU, so the function's target feature is present.
            Level::Avx2 => return unsafe { x86::find_outside_avx2(set, input, from) },
            // SAFETY: as above, for SSSE3.
            Level::Ssse3 => return unsafe { x86::find_outside_ssse3(set, input, from) },
            Level::Scalar => {}
        }
    }
    let _ = level;
    find_outside_scalar(set, input, from)
}

/// The scalar twin of [`find_outside`]: one byte (or escape) at a time.
#[inline]
pub fn find_outside_scalar(set: &LoopSet, input: &[u8], from: usize) -> usize {
    let mut i = from;
    while let Some(&b) = input.get(i) {
        if set.bytes.contains(b) {
            i += 1;
        } else if let Some(next) = set.sequence_at(input, i) {
            i = next;
        } else {
            return i;
        }
    }
    input.len()
}

/// The first index of `byte` in `input`, if any (`memchr`), 64 bytes per
/// step with the widest vectors this CPU has: for a check that looks for
/// one byte (the lead byte of RFC 3987's forbidden bidi formatting
/// characters, say). Inputs under 64 bytes take one masked load with
/// AVX-512, two overlapping loads with AVX2 (32 bytes or more) or SSE2 (16
/// or more), and a byte loop below that.
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
            Level::Avx512 | Level::Vbmi if n >= 64 => return unsafe { x86::find_byte_avx512(input, byte) },
            // SAFETY: as above.
            Level::Avx512 | Level::Vbmi => return unsafe { x86::find_byte_avx512_short(input, byte) },
            // SAFETY: `Level::detected` found AVX2 (CPUID and XCR0) on this
            // CPU, so the functions' target feature is present.
            Level::Avx2 if n >= 64 => return unsafe { x86::find_byte_avx2(input, byte) },
            // SAFETY: as above.
            Level::Avx2 if n >= 32 => return unsafe { x86::find_byte_avx2_short(input, byte) },
            // SAFETY: as above, for SSSE3.
            Level::Ssse3 if n >= 64 => return unsafe { x86::find_byte_ssse3(input, byte) },
            // SAFETY: SSE2 is part of the x86-64 baseline.
            Level::Avx2 | Level::Ssse3 if n >= 16 => {
                return unsafe { x86::find_byte_sse2_short(input, byte) }
            }
            _ => {}
        }
    }
    let _ = level;
    find_byte_scalar(input, byte)
}

/// The scalar twin of [`find_byte`].
#[inline]
pub fn find_byte_scalar(input: &[u8], byte: u8) -> Option<usize> {
    input.iter().position(|&b| b == byte)
}

/// Where the search goes on after a vector step found `p` outside: past
/// the escape or character that starts there (one that crossed the end of
/// the window the vectors looked at), else `None`: `p` is the answer.
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

/// Which implementation [`shuffle_walk`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShuffleLevel {
    /// One table lookup per byte: the scalar twin.
    Scalar,
    /// One `vpermb` per byte, four quarters of the input at once (x86-64
    /// with AVX-512 VBMI, enabled by the OS).
    Vbmi,
}

impl ShuffleLevel {
    /// The fastest implementation this CPU runs, detected once.
    #[inline]
    pub fn detected() -> ShuffleLevel {
        if Level::detected() == Level::Vbmi {
            ShuffleLevel::Vbmi
        } else {
            ShuffleLevel::Scalar
        }
    }
}

/// The lane a shuffle automaton ends in after `input`, from lane `start`
/// (`rows` as in `table::Shuffle`), at the fastest level this CPU has.
#[inline]
pub fn shuffle_walk(rows: &[u8; SHUFFLE_ROWS], start: u8, input: &[u8]) -> u8 {
    shuffle_walk_with(ShuffleLevel::detected(), rows, start, input)
}

/// [`shuffle_walk`] at a given level (one the CPU has, else the scalar
/// twin runs).
#[inline(always)]
pub fn shuffle_walk_with(level: ShuffleLevel, rows: &[u8; SHUFFLE_ROWS], start: u8, input: &[u8]) -> u8 {
    #[cfg(target_arch = "x86_64")]
    if level == ShuffleLevel::Vbmi && ShuffleLevel::detected() == ShuffleLevel::Vbmi {
        // SAFETY: `ShuffleLevel::detected` found AVX-512 F, BW and VBMI
        // (CPUID and XCR0) on this CPU.
        return unsafe { x86::shuffle_walk_vbmi(rows, start, input) };
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
    #[inline(always)]
    fn next_exit(&mut self, from: usize, bits: u8) -> usize {
        let rest = self.input.get(from..).unwrap_or_default();
        rest.iter()
            .position(|&b| self.atoms.0[usize::from(b)] & bits != 0)
            .map_or(self.input.len(), |p| from + p)
    }

    #[inline(always)]
    fn next_byte(&mut self, from: usize, a: u8, b: u8) -> usize {
        let rest = self.input.get(from..).unwrap_or_default();
        rest.iter()
            .position(|&x| x == a || x == b)
            .map_or(self.input.len(), |p| from + p)
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

    /// Walks all of `input`, whose exits `exits` finds; on a match fills
    /// `tags` as [`crate::TaggedDfa::run`] does, and returns true.
    fn walk<E: Exits>(&self, input: &[u8], exits: &mut E, tags: &mut [usize]) -> bool;
}

/// Runs `walk` over `input` at `level` (with 64-byte vectors at
/// [`ShuffleLevel::Vbmi`] if the CPU has it, else the scalar twin).
#[inline]
pub fn walk_exits<W: ExitWalk>(level: ShuffleLevel, walk: &W, input: &[u8], tags: &mut [usize]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if level == ShuffleLevel::Vbmi && ShuffleLevel::detected() == ShuffleLevel::Vbmi {
        // SAFETY: `ShuffleLevel::detected` found AVX-512 F, BW and VBMI
        // (CPUID and XCR0) on this CPU.
        return unsafe { x86::walk_exits_vbmi(walk, input, tags) };
    }
    let _ = level;
    walk.walk(input, &mut ScalarExits::new(input, walk.atoms()), tags)
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::*;

    use super::{outside_of, resume_after, LoopSet, Starts};

    /// [`super::Exits`] with 64-byte vectors: the block that holds the
    /// offset asked about is loaded (masked past the input's end) and
    /// classified once, two `vpermi2b` lookups into the atom table and a
    /// blend on the bytes' top bit; each question is then one `vptestmb`
    /// and a trailing-zero count. Blocks start at multiples of 64.
    pub(super) struct VbmiExits<'a> {
        input: &'a [u8],
        table: [__m512i; 4],
        /// The block classified: its offset, its atoms, and which of its
        /// 64 positions are in the input.
        base: usize,
        bytes: __m512i,
        atoms: __m512i,
        live: u64,
    }

    impl VbmiExits<'_> {
        /// Loads and classifies the block at `base` (below the input's length).
        #[inline(always)]
        fn load(&mut self, base: usize) {
            let n = self.input.len() - base;
            self.live = if n >= 64 { !0 } else { (1u64 << n) - 1 };
            // SAFETY: the CPU has AVX-512 F, BW and VBMI (`VbmiExits` is only
            // made by `walk_exits_vbmi`); the masked load reads only the
            // `live` bytes, which are `input[base..]` (masked-off lanes do not
            // fault).
            unsafe {
                let v = _mm512_maskz_loadu_epi8(self.live, self.input.as_ptr().add(base).cast());
                self.bytes = v;
                let low = _mm512_permutex2var_epi8(self.table[0], v, self.table[1]);
                let high = _mm512_permutex2var_epi8(self.table[2], v, self.table[3]);
                self.atoms = _mm512_mask_blend_epi8(_mm512_movepi8_mask(v), low, high);
            }
            self.base = base;
        }

        /// The offset of the block that holds `from` (below the input's
        /// length), loaded and classified if it is not the current one.
        #[inline(always)]
        fn block_of(&mut self, from: usize) -> usize {
            let base = from & !63;
            if base != self.base {
                self.load(base);
            }
            base
        }

        /// The positions of the classified block whose atoms meet `bits`.
        #[inline(always)]
        fn hits(&self, bits: u8) -> u64 {
            // SAFETY: as in `load`.
            unsafe { _mm512_test_epi8_mask(self.atoms, _mm512_set1_epi8(bits as i8)) & self.live }
        }

        /// The positions of `bytes` (a block) that hold `a` or `b`.
        #[inline(always)]
        fn equal(bytes: __m512i, a: u8, b: u8) -> u64 {
            // SAFETY: as in `load`.
            unsafe {
                _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8(a as i8))
                    | _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8(b as i8))
            }
        }
    }

    impl super::Exits for VbmiExits<'_> {
        #[inline(always)]
        fn next_exit(&mut self, from: usize, bits: u8) -> usize {
            let len = self.input.len();
            if from >= len {
                return len;
            }
            let mut base = self.block_of(from);
            let here = self.hits(bits) >> (from - base);
            if here != 0 {
                return from + here.trailing_zeros() as usize;
            }
            loop {
                base += 64;
                if base >= len {
                    return len;
                }
                self.load(base);
                let m = self.hits(bits);
                if m != 0 {
                    return base + m.trailing_zeros() as usize;
                }
            }
        }

        #[inline(always)]
        fn next_byte(&mut self, from: usize, a: u8, b: u8) -> usize {
            let len = self.input.len();
            if from >= len {
                return len;
            }
            let mut base = self.block_of(from);
            let here = (Self::equal(self.bytes, a, b) & self.live) >> (from - base);
            if here != 0 {
                return from + here.trailing_zeros() as usize;
            }
            // Whole blocks without classifying them; the block with the
            // byte (or the last one) is loaded as usual.
            base += 64;
            while base + 64 <= len {
                // SAFETY: `input[base..base + 64]` is in bounds.
                let v = unsafe { _mm512_loadu_si512(self.input.as_ptr().add(base).cast()) };
                let m = Self::equal(v, a, b);
                if m != 0 {
                    self.load(base);
                    return base + m.trailing_zeros() as usize;
                }
                base += 64;
            }
            if base >= len {
                return len;
            }
            self.load(base);
            let m = Self::equal(self.bytes, a, b) & self.live;
            if m != 0 {
                base + m.trailing_zeros() as usize
            } else {
                len
            }
        }
    }

    /// [`super::walk_exits`] with [`VbmiExits`].
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F, BW and VBMI, enabled by the OS.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    pub(super) unsafe fn walk_exits_vbmi<W: super::ExitWalk>(
        walk: &W,
        input: &[u8],
        tags: &mut [usize],
    ) -> bool {
        let t = walk.atoms();
        // SAFETY: `AtomTable` is 256 bytes; each load reads 64 of them.
        let quarter = |k: usize| unsafe { _mm512_loadu_si512(t.0.as_ptr().add(64 * k).cast()) };
        let mut exits = VbmiExits {
            input,
            table: [quarter(0), quarter(1), quarter(2), quarter(3)],
            base: 0,
            bytes: _mm512_setzero_si512(),
            atoms: _mm512_setzero_si512(),
            live: 0,
        };
        if !input.is_empty() {
            exits.load(0);
        }
        walk.walk(input, &mut exits, tags)
    }

    /// [`super::shuffle_walk`] with 64-byte vectors: each quarter of the
    /// input is walked from the identity vector (lane `j` holds `j`), one
    /// `vpermb` per byte, so that afterwards lane `j` holds the lane the
    /// quarter leads `j` to; the four are independent chains, and three
    /// more permutes compose them. The first quarter starts from `start`
    /// in every lane instead.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F, BW and VBMI, enabled by the OS.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    pub(super) unsafe fn shuffle_walk_vbmi(rows: &[u8; super::SHUFFLE_ROWS], start: u8, input: &[u8]) -> u8 {
        // Lane `j` of row `b`: its 64 bytes start at `64 * b`.
        let row = |b: u8| -> __m512i {
            let r: &[u8; 64] = rows[usize::from(b) * 64..][..64]
                .try_into()
                .unwrap_or(&[super::ESCAPE; 64]);
            // SAFETY: `r` is 64 readable bytes; the load is unaligned.
            unsafe { _mm512_loadu_si512(r.as_ptr().cast()) }
        };
        let mut ids = [0u8; 64];
        for (j, x) in ids.iter_mut().enumerate() {
            *x = j as u8;
        }
        // SAFETY: `ids` is 64 readable bytes.
        let id = unsafe { _mm512_loadu_si512(ids.as_ptr().cast()) };
        let q = input.len() / 4;
        let (q0, rest) = input.split_at(q);
        let (q1, rest) = rest.split_at(q);
        let (q2, q3) = rest.split_at(q);
        let mut a = _mm512_set1_epi8((start & super::ESCAPE) as i8);
        let (mut b, mut c, mut d) = (id, id, id);
        for (((&x0, &x1), &x2), &x3) in q0.iter().zip(q1).zip(q2).zip(q3) {
            a = _mm512_permutexvar_epi8(a, row(x0));
            b = _mm512_permutexvar_epi8(b, row(x1));
            c = _mm512_permutexvar_epi8(c, row(x2));
            d = _mm512_permutexvar_epi8(d, row(x3));
        }
        // The last quarter has up to three bytes more.
        for &x in &q3[q..] {
            d = _mm512_permutexvar_epi8(d, row(x));
        }
        // Lane `j` of `permute(x, y)` is `y[x[j]]`: b after a, and so on.
        let f = _mm512_permutexvar_epi8(_mm512_permutexvar_epi8(_mm512_permutexvar_epi8(a, b), c), d);
        _mm_cvtsi128_si32(_mm512_castsi512_si128(f)) as u8
    }

    /// Bit `h` for high nibble `h < 8`: the second lookup's table. High
    /// nibbles 8 to 15 (non-ASCII bytes) map to 0, so they are never in a
    /// set.
    const HIGH: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0];

    /// The second lookup's table for lead bytes ([`super::Leads`]): bit
    /// `h - 0xC` for high nibbles `C`, `D` and `E`.
    const LEAD_HIGH: [u8; 16] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 0];

    /// The lookup tables of a [`LoopSet`] in 16-byte registers.
    #[derive(Clone, Copy)]
    struct Tables16 {
        bytes: __m128i,
        escaped: __m128i,
        high: __m128i,
        escape: __m128i,
        leads: __m128i,
        lead_high: __m128i,
        escapes: bool,
        chars: bool,
    }

    /// One bit per byte of `v`: set where the byte is in the nibble set
    /// `lo` (`hi` holds [`HIGH`]).
    #[inline]
    #[target_feature(enable = "ssse3")]
    fn in16(lo: __m128i, hi: __m128i, v: __m128i) -> u64 {
        let nib = _mm_set1_epi8(0x0f);
        let a = _mm_shuffle_epi8(lo, _mm_and_si128(v, nib));
        let b = _mm_shuffle_epi8(hi, _mm_and_si128(_mm_srli_epi16::<4>(v), nib));
        let out = _mm_cmpeq_epi8(_mm_and_si128(a, b), _mm_setzero_si128());
        u64::from(!(_mm_movemask_epi8(out) as u32) & 0xffff)
    }

    /// The bytes of the set among the 64 at `p`.
    ///
    /// # Safety
    ///
    /// `p .. p + 64` must be readable.
    #[inline]
    #[target_feature(enable = "ssse3")]
    unsafe fn inside16(t: &Tables16, p: *const u8) -> u64 {
        let mut inside = 0;
        for k in 0..4 {
            // SAFETY: inside `p .. p + 64` (the caller's promise); an
            // unaligned load.
            let v = unsafe { _mm_loadu_si128(p.add(16 * k).cast()) };
            inside |= in16(t.bytes, t.high, v) << (16 * k);
        }
        inside
    }

    /// The escapes and characters that start among the 64 bytes at `p`.
    ///
    /// # Safety
    ///
    /// `p .. p + 64` must be readable.
    #[inline]
    #[target_feature(enable = "ssse3")]
    unsafe fn starts16(t: &Tables16, p: *const u8) -> Starts {
        let (mut open, mut esc, mut lead, mut high, mut cont) = (0u64, 0u64, 0u64, 0u64, 0u64);
        let mask = |m: __m128i| u64::from(_mm_movemask_epi8(m) as u32 & 0xffff);
        for k in 0..4 {
            // SAFETY: as in `inside16`.
            let v = unsafe { _mm_loadu_si128(p.add(16 * k).cast()) };
            if t.escapes {
                open |= mask(_mm_cmpeq_epi8(v, t.escape)) << (16 * k);
                esc |= in16(t.escaped, t.high, v) << (16 * k);
            }
            if t.chars {
                lead |= in16(t.leads, t.lead_high, v) << (16 * k);
                let top = _mm_and_si128(v, _mm_set1_epi8(0xF0u8 as i8));
                high |= mask(_mm_cmpeq_epi8(top, _mm_set1_epi8(0xE0u8 as i8))) << (16 * k);
                // Continuation bytes 0x80-0xBF are, as signed bytes, below -64.
                cont |= mask(_mm_cmplt_epi8(v, _mm_set1_epi8(-64))) << (16 * k);
            }
        }
        Starts::of(open, esc, lead, high, cont)
    }

    /// [`super::find_outside`] with 16-byte vectors.
    ///
    /// # Safety
    ///
    /// The CPU must have SSSE3.
    #[target_feature(enable = "ssse3")]
    pub(super) unsafe fn find_outside_ssse3(set: &LoopSet, input: &[u8], from: usize) -> usize {
        // SAFETY: `NibbleSet` and `HIGH` are 16 bytes; unaligned loads.
        let t = unsafe {
            Tables16 {
                bytes: _mm_loadu_si128(set.bytes.0.as_ptr().cast()),
                escaped: _mm_loadu_si128(set.escaped.0.as_ptr().cast()),
                high: _mm_loadu_si128(HIGH.as_ptr().cast()),
                escape: _mm_set1_epi8(set.escape as i8),
                leads: _mm_loadu_si128(set.leads.0.as_ptr().cast()),
                lead_high: _mm_loadu_si128(LEAD_HIGH.as_ptr().cast()),
                escapes: !set.escaped.is_empty(),
                chars: !set.leads.is_empty(),
            }
        };
        // SAFETY: `inside16` and `starts16` read 64 bytes from `p`, which
        // `find` makes sure are inside its buffer.
        find(
            set,
            input,
            from,
            |p| unsafe { inside16(&t, p) },
            |p| unsafe { starts16(&t, p) },
        )
    }

    /// The lookup tables of a [`LoopSet`] in 32-byte registers (each table
    /// in both 128-bit lanes: `vpshufb` looks up per lane).
    #[derive(Clone, Copy)]
    struct Tables32 {
        bytes: __m256i,
        escaped: __m256i,
        high: __m256i,
        escape: __m256i,
        leads: __m256i,
        lead_high: __m256i,
        escapes: bool,
        chars: bool,
    }

    /// [`in16`] for 32 bytes.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn in32(lo: __m256i, hi: __m256i, v: __m256i) -> u64 {
        let nib = _mm256_set1_epi8(0x0f);
        let a = _mm256_shuffle_epi8(lo, _mm256_and_si256(v, nib));
        let b = _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16::<4>(v), nib));
        let out = _mm256_cmpeq_epi8(_mm256_and_si256(a, b), _mm256_setzero_si256());
        u64::from(!(_mm256_movemask_epi8(out) as u32))
    }

    /// [`inside16`] with 32-byte vectors.
    ///
    /// # Safety
    ///
    /// `p .. p + 64` must be readable.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn inside32(t: &Tables32, p: *const u8) -> u64 {
        // SAFETY: both loads lie inside `p .. p + 64` (the caller's
        // promise); unaligned loads.
        let (v0, v1) = unsafe { (_mm256_loadu_si256(p.cast()), _mm256_loadu_si256(p.add(32).cast())) };
        in32(t.bytes, t.high, v0) | in32(t.bytes, t.high, v1) << 32
    }

    /// [`starts16`] with 32-byte vectors.
    ///
    /// # Safety
    ///
    /// `p .. p + 64` must be readable.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn starts32(t: &Tables32, p: *const u8) -> Starts {
        // SAFETY: as in `inside32`.
        let (v0, v1) = unsafe { (_mm256_loadu_si256(p.cast()), _mm256_loadu_si256(p.add(32).cast())) };
        let mask = |m: __m256i| u64::from(_mm256_movemask_epi8(m) as u32);
        let (mut open, mut esc, mut lead, mut high, mut cont) = (0u64, 0u64, 0u64, 0u64, 0u64);
        if t.escapes {
            let o = |v| mask(_mm256_cmpeq_epi8(v, t.escape));
            open = o(v0) | o(v1) << 32;
            esc = in32(t.escaped, t.high, v0) | in32(t.escaped, t.high, v1) << 32;
        }
        if t.chars {
            lead = in32(t.leads, t.lead_high, v0) | in32(t.leads, t.lead_high, v1) << 32;
            let h = |v| {
                let top = _mm256_and_si256(v, _mm256_set1_epi8(0xF0u8 as i8));
                mask(_mm256_cmpeq_epi8(top, _mm256_set1_epi8(0xE0u8 as i8)))
            };
            high = h(v0) | h(v1) << 32;
            // Continuation bytes 0x80-0xBF are, as signed bytes, below -64.
            let c = |v| mask(_mm256_cmpgt_epi8(_mm256_set1_epi8(-64), v));
            cont = c(v0) | c(v1) << 32;
        }
        Starts::of(open, esc, lead, high, cont)
    }

    /// [`super::find_outside`] with 32-byte vectors.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2 (and the OS must save its registers).
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn find_outside_avx2(set: &LoopSet, input: &[u8], from: usize) -> usize {
        // SAFETY: `NibbleSet` and `HIGH` are 16 bytes; unaligned loads.
        let t = unsafe {
            Tables32 {
                bytes: _mm256_broadcastsi128_si256(_mm_loadu_si128(set.bytes.0.as_ptr().cast())),
                escaped: _mm256_broadcastsi128_si256(_mm_loadu_si128(set.escaped.0.as_ptr().cast())),
                high: _mm256_broadcastsi128_si256(_mm_loadu_si128(HIGH.as_ptr().cast())),
                escape: _mm256_set1_epi8(set.escape as i8),
                leads: _mm256_broadcastsi128_si256(_mm_loadu_si128(set.leads.0.as_ptr().cast())),
                lead_high: _mm256_broadcastsi128_si256(_mm_loadu_si128(LEAD_HIGH.as_ptr().cast())),
                escapes: !set.escaped.is_empty(),
                chars: !set.leads.is_empty(),
            }
        };
        // SAFETY: `inside32` and `starts32` read 64 bytes from `p`, which
        // `find` makes sure are inside its buffer.
        find(
            set,
            input,
            from,
            |p| unsafe { inside32(&t, p) },
            |p| unsafe { starts32(&t, p) },
        )
    }

    /// One bit per byte of `v`: set where the byte is in the nibble set
    /// `lo` (`hi` holds [`HIGH`] in every 128-bit lane).
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn in64(lo: __m512i, hi: __m512i, v: __m512i) -> u64 {
        let nib = _mm512_set1_epi8(0x0f);
        let a = _mm512_shuffle_epi8(lo, _mm512_and_si512(v, nib));
        let b = _mm512_shuffle_epi8(hi, _mm512_and_si512(_mm512_srli_epi16::<4>(v), nib));
        _mm512_test_epi8_mask(a, b)
    }

    /// [`super::find_outside`] with 64-byte vectors: [`find_outside_avx2`]
    /// with one vector per window and the masks read from mask registers.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F and BW (and the OS must save their
    /// registers).
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn find_outside_avx512(set: &LoopSet, input: &[u8], from: usize) -> usize {
        // SAFETY: `NibbleSet` and `HIGH` are 16 bytes; unaligned loads.
        let lane = |t: &[u8; 16]| unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(t.as_ptr().cast())) };
        let (bytes, escaped, high) = (lane(&set.bytes.0), lane(&set.escaped.0), lane(&HIGH));
        let (leads, lead_high) = (lane(&set.leads.0), lane(&LEAD_HIGH));
        let escape = _mm512_set1_epi8(set.escape as i8);
        let (escapes, chars) = (!set.escaped.is_empty(), !set.leads.is_empty());
        // SAFETY: `find` passes pointers to 64 readable bytes.
        let load = |p: *const u8| unsafe { _mm512_loadu_si512(p.cast()) };
        find(
            set,
            input,
            from,
            |p| in64(bytes, high, load(p)),
            |p| {
                let v = load(p);
                let (mut open, mut esc, mut lead, mut hi3, mut cont) = (0u64, 0u64, 0u64, 0u64, 0u64);
                if escapes {
                    open = _mm512_cmpeq_epi8_mask(v, escape);
                    esc = in64(escaped, high, v);
                }
                if chars {
                    lead = in64(leads, lead_high, v);
                    let top = _mm512_and_si512(v, _mm512_set1_epi8(0xF0u8 as i8));
                    hi3 = _mm512_cmpeq_epi8_mask(top, _mm512_set1_epi8(0xE0u8 as i8));
                    // Continuation bytes 0x80-0xBF are, as signed bytes,
                    // below -64.
                    cont = _mm512_cmplt_epi8_mask(v, _mm512_set1_epi8(-64));
                }
                Starts::of(open, esc, lead, hi3, cont)
            },
        )
    }

    /// [`super::find_byte`] with 32-byte vectors, on an input of at least
    /// 64 bytes.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2 (and the OS must save its registers).
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn find_byte_avx2(input: &[u8], byte: u8) -> Option<usize> {
        let x = _mm256_set1_epi8(byte as i8);
        let hits = |p: *const u8| {
            // SAFETY: the callers below pass windows of 64 bytes of `input`.
            let (v0, v1) = unsafe { (_mm256_loadu_si256(p.cast()), _mm256_loadu_si256(p.add(32).cast())) };
            let (e0, e1) = (_mm256_cmpeq_epi8(v0, x), _mm256_cmpeq_epi8(v1, x));
            let any = _mm256_or_si256(e0, e1);
            if _mm256_testz_si256(any, any) == 1 {
                0
            } else {
                u64::from(_mm256_movemask_epi8(e0) as u32) | u64::from(_mm256_movemask_epi8(e1) as u32) << 32
            }
        };
        find_byte_in(input, hits)
    }

    /// [`super::find_byte`] with 64-byte vectors, on an input of at least
    /// 64 bytes.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F and BW (and the OS must save their
    /// registers).
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn find_byte_avx512(input: &[u8], byte: u8) -> Option<usize> {
        let x = _mm512_set1_epi8(byte as i8);
        // SAFETY: the callers below pass windows of 64 bytes of `input`.
        let hits = |p: *const u8| _mm512_cmpeq_epi8_mask(unsafe { _mm512_loadu_si512(p.cast()) }, x);
        find_byte_in(input, hits)
    }

    /// [`super::find_byte`] on an input under 64 bytes: one masked load.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512 F and BW (and the OS must save their
    /// registers).
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn find_byte_avx512_short(input: &[u8], byte: u8) -> Option<usize> {
        let live = (1u64 << input.len()) - 1;
        // SAFETY: the masked load reads only the `live` lanes, which are
        // `input`'s bytes (masked-off lanes do not fault).
        let v = unsafe { _mm512_maskz_loadu_epi8(live, input.as_ptr().cast()) };
        let hits = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(byte as i8)) & live;
        (hits != 0).then(|| hits.trailing_zeros() as usize)
    }

    /// [`super::find_byte`] on an input of 32 to 63 bytes: its first and its
    /// last 32 bytes.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2 (and the OS must save its registers).
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn find_byte_avx2_short(input: &[u8], byte: u8) -> Option<usize> {
        let n = input.len();
        let x = _mm256_set1_epi8(byte as i8);
        let hits = |w: &[u8]| {
            // SAFETY: `w` is 32 bytes of `input`; the load is unaligned.
            let v = unsafe { _mm256_loadu_si256(w.as_ptr().cast()) };
            u64::from(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, x)) as u32)
        };
        let m = hits(&input[..32]) | hits(&input[n - 32..]) << (n - 32);
        (m != 0).then(|| m.trailing_zeros() as usize)
    }

    /// [`super::find_byte`] on an input of 16 to 63 bytes: its 16-byte
    /// windows, the last one overlapping the one before (SSE2, which every
    /// x86-64 CPU has).
    ///
    /// # Safety
    ///
    /// The CPU must have SSE2, as every x86-64 CPU does.
    #[target_feature(enable = "sse2")]
    pub(super) unsafe fn find_byte_sse2_short(input: &[u8], byte: u8) -> Option<usize> {
        let n = input.len();
        let x = _mm_set1_epi8(byte as i8);
        let hits = |at: usize| {
            let w = &input[at..at + 16];
            // SAFETY: `w` is 16 bytes of `input`, loaded unaligned.
            let v = unsafe { _mm_loadu_si128(w.as_ptr().cast()) };
            u64::from(_mm_movemask_epi8(_mm_cmpeq_epi8(v, x)) as u32) << at
        };
        let mut m = hits(n - 16);
        let mut at = 0;
        while at + 16 < n {
            m |= hits(at);
            at += 16;
        }
        (m != 0).then(|| m.trailing_zeros() as usize)
    }

    /// [`super::find_byte`] with 16-byte vectors, on an input of at least
    /// 64 bytes.
    ///
    /// # Safety
    ///
    /// The CPU must have SSSE3.
    #[target_feature(enable = "ssse3")]
    pub(super) unsafe fn find_byte_ssse3(input: &[u8], byte: u8) -> Option<usize> {
        let x = _mm_set1_epi8(byte as i8);
        let hits = |p: *const u8| {
            let mut m = 0u64;
            for k in 0..4 {
                // SAFETY: the callers below pass windows of 64 bytes of
                // `input`.
                let v = unsafe { _mm_loadu_si128(p.add(16 * k).cast()) };
                m |= u64::from(_mm_movemask_epi8(_mm_cmpeq_epi8(v, x)) as u32 & 0xffff) << (16 * k);
            }
            m
        };
        find_byte_in(input, hits)
    }

    /// The search over the 64-byte windows of `input` (at least 64 bytes),
    /// the last one overlapping the one before; `hits` gives a window's
    /// matches.
    #[inline(always)]
    fn find_byte_in(input: &[u8], hits: impl Fn(*const u8) -> u64) -> Option<usize> {
        let n = input.len();
        let mut i = 0;
        while i + 64 <= n {
            let m = hits(input[i..i + 64].as_ptr());
            if m != 0 {
                return Some(i + m.trailing_zeros() as usize);
            }
            i += 64;
        }
        if i < n {
            // The last 64 bytes; those before `i` had no match.
            let m = hits(input[n - 64..].as_ptr());
            if m != 0 {
                return Some(n - 64 + m.trailing_zeros() as usize);
            }
        }
        None
    }

    /// The search over 64-byte windows, whatever computes a window's masks
    /// (`inside`: bytes in the set; `starts`: escapes starting there, only
    /// computed for a window with bytes outside the set): whole windows
    /// read from `input`; then the last 64 bytes of the input, with the
    /// bits of what was already read shifted out; an input shorter than 64
    /// bytes is copied into a window padded with 0xFF (never in a set,
    /// never in an escape, which are ASCII, and neither a lead byte of a
    /// set nor a continuation byte).
    #[inline(always)]
    fn find(
        set: &LoopSet,
        input: &[u8],
        from: usize,
        inside: impl Fn(*const u8) -> u64,
        starts: impl Fn(*const u8) -> Starts,
    ) -> usize {
        let sequences = !set.escaped.is_empty() || !set.leads.is_empty();
        let n = input.len();
        let mut tail;
        let mut i = from;
        while i < n {
            // The window and how far its bit 0 is before `i`.
            let (p, shift) = if i + 64 <= n {
                // `input[i .. i + 64]` exists.
                (input[i..i + 64].as_ptr(), 0)
            } else if n >= 64 {
                // Bytes `n - 64 + k`, shifted so that bit 0 is byte `i`
                // (escapes that start before `i` are dropped before they
                // are widened); the bits past the end are 0: outside.
                (input[n - 64..].as_ptr(), i - (n - 64))
            } else {
                tail = [0xFFu8; 64];
                tail[..n - i].copy_from_slice(&input[i..]);
                (tail.as_ptr(), 0)
            };
            let inside = inside(p) >> shift;
            if inside == !0 {
                i += 64;
                continue;
            }
            let starts = if sequences {
                starts(p).shr(shift)
            } else {
                Starts::NONE
            };
            let m = outside_of(inside, starts);
            if m == 0 {
                i += 64;
                continue;
            }
            let p = i + m.trailing_zeros() as usize;
            if p >= n {
                return n;
            }
            match resume_after(set, input, p) {
                Some(next) => i = next,
                None => return p,
            }
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    fn hex() -> NibbleSet {
        NibbleSet::of(b"0123456789abcdefABCDEF")
    }

    /// Two-byte leads and most three-byte ones (as for `ucschar`).
    fn leads() -> Leads {
        let all: alloc::vec::Vec<u8> = (0xC3..=0xECu8).filter(|&b| b != 0xE0 && b != 0xD5).collect();
        Leads::of(&all)
    }

    #[test]
    fn leads_hold_their_lead_bytes_and_survive_a_record() {
        let l = leads();
        for b in 0..=255u8 {
            let want = (0xC3..=0xEC).contains(&b) && b != 0xE0 && b != 0xD5 && b & 15 != 0;
            assert_eq!(l.contains(b), want, "{b:#x}");
        }
        let set = LoopSet {
            bytes: NibbleSet::of(b"abc"),
            escape: b'%',
            escaped: hex(),
            leads: l,
        };
        assert_eq!(LoopSet::from_records(&set.to_record(), 0), set);
    }

    #[test]
    fn nibble_set_holds_exactly_its_ascii_bytes() {
        let bytes: [u8; 6] = [b'a', b'/', 0, 0x7f, 0x80, 0xff];
        let set = NibbleSet::of(&bytes);
        for b in 0..=255u8 {
            assert_eq!(set.contains(b), b < 0x80 && bytes.contains(&b), "{b:#x}");
        }
    }

    #[test]
    fn every_level_agrees_with_the_scalar_twin() {
        let mut rng = Rng(0x5eed_1234_abcd);
        let mut input = [0u8; 300];
        for round in 0..2000 {
            // A set of most ASCII bytes, and inputs mostly inside it, with
            // outsiders (some non-ASCII) at random places.
            let members: alloc::vec::Vec<u8> = (0..=255u8)
                .filter(|&b| b != b'%' && !rng.next().is_multiple_of(8))
                .collect();
            let bytes = NibbleSet::of(&members);
            let set = if round % 2 == 0 {
                LoopSet::plain(bytes)
            } else {
                LoopSet {
                    bytes,
                    escape: b'%',
                    escaped: hex(),
                    leads: if round % 4 == 1 { Leads::NONE } else { leads() },
                }
            };
            let inside: alloc::vec::Vec<u8> = (0..128u8).filter(|&b| bytes.contains(b)).collect();
            let n = (rng.next() % 300) as usize;
            let outsiders = rng.next() % 4;
            for b in input[..n].iter_mut() {
                *b = inside[(rng.next() % inside.len() as u64) as usize];
            }
            for _ in 0..outsiders {
                if n > 0 {
                    input[(rng.next() % n as u64) as usize] = (rng.next() % 256) as u8;
                }
            }
            // Characters, whole and cut, some across the windows.
            for _ in 0..rng.next() % 12 {
                if n > 0 {
                    let k = (rng.next() % n as u64) as usize;
                    let c: &[u8] = [
                        "é".as_bytes(),
                        "例".as_bytes(),
                        "\u{E000}".as_bytes(),
                        "😀".as_bytes(),
                        b"\xc3",
                        b"\xe4\xbe",
                        b"\xc3\xa9\xa9",
                        b"\xed\xa0\x80",
                    ][(rng.next() % 8) as usize];
                    let end = (k + c.len()).min(n);
                    input[k..end].copy_from_slice(&c[..end - k]);
                }
            }
            // Escapes, good and bad, some across the 64-byte windows.
            for _ in 0..rng.next() % 12 {
                if n > 0 {
                    let k = (rng.next() % n as u64) as usize;
                    let esc: &[u8] = [&b"%4F"[..], b"%a", b"%%41", b"%G1", b"%"][(rng.next() % 5) as usize];
                    let end = (k + esc.len()).min(n);
                    input[k..end].copy_from_slice(&esc[..end - k]);
                }
            }
            let input = &input[..n];
            for from in [
                0,
                1,
                2,
                15,
                16,
                17,
                31,
                32,
                33,
                62,
                63,
                64,
                65,
                n.saturating_sub(1),
                n,
                n + 1,
            ] {
                let want = find_outside_scalar(&set, input, from);
                for level in Level::available() {
                    assert_eq!(
                        find_outside_with(level, &set, input, from),
                        want,
                        "round {round}, {level:?}, from {from}, length {n}"
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod bytes {
    use super::*;

    #[test]
    fn find_byte_agrees_with_the_scalar_twin() {
        let mut input = alloc::vec![b'a'; 300];
        let lengths = (0..=70).chain([127, 128, 129, 200, 300]);
        for n in lengths {
            for at in (0..n).chain([usize::MAX]) {
                input.fill(b'a');
                if at < n {
                    input[at] = 0xE2;
                    if at + 7 < n {
                        input[at + 7] = 0xE2;
                    }
                }
                let want = find_byte_scalar(&input[..n], 0xE2);
                assert_eq!(want, (at < n).then_some(at));
                for level in Level::available() {
                    assert_eq!(
                        find_byte_with(level, &input[..n], 0xE2),
                        want,
                        "{level:?} {n} {at}"
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod escapes {
    use super::*;

    #[test]
    fn escapes_are_skipped_whole_and_only_whole() {
        let set = LoopSet {
            bytes: NibbleSet::of(b"abcdefghijklmnopqrstuvwxyz0123456789/"),
            escape: b'%',
            escaped: NibbleSet::of(b"0123456789abcdefABCDEF"),
            leads: Leads::NONE,
        };
        let cases: &[(&[u8], usize)] = &[
            (b"", 0),
            (b"ab%41cd", 7),
            (b"ab%4", 2),
            (b"ab%4G", 2),
            (b"%%41", 0),
            (b"%41%", 3),
            (b"a%41%42%43#", 10),
        ];
        for &(input, want) in cases {
            for level in Level::available() {
                assert_eq!(
                    find_outside_with(level, &set, input, 0),
                    want,
                    "{level:?} {input:?}"
                );
            }
        }
        // An escape at every offset of a long run, across the windows.
        for at in 0..200 {
            let mut input = alloc::vec![b'a'; 200];
            input[at] = b'%';
            let whole = at + 2 < 200;
            if whole {
                input[at + 1] = b'F';
                input[at + 2] = b'0';
            }
            for level in Level::available() {
                let want = if whole { 200 } else { at };
                assert_eq!(
                    find_outside_with(level, &set, &input, 0),
                    want,
                    "{level:?} at {at}"
                );
            }
        }
    }

    #[test]
    fn characters_are_skipped_whole_and_only_whole() {
        let set = LoopSet {
            bytes: NibbleSet::of(b"abc"),
            escape: b'%',
            escaped: NibbleSet::of(b"0123456789ABCDEF"),
            leads: Leads::of(&[0xC3, 0xE4]),
        };
        let cases: &[(&[u8], usize)] = &[
            ("aé".as_bytes(), 3),
            ("a例b".as_bytes(), 5),
            // Not in the set: other leads, four-byte characters, cut or
            // overlong sequences, stray continuation bytes.
            ("añ".as_bytes(), 3),
            ("aü".as_bytes(), 3),
            ("a😀".as_bytes(), 1),
            ("aえ".as_bytes(), 1),
            (b"a\xc3", 1),
            (b"a\xe4\xbe", 1),
            (b"a\xc3\xa9\xa9", 3),
            (b"a\xa9", 1),
            (b"\xc3\xa9%41\xe4\xbe\x8ba", 9),
        ];
        for &(input, want) in cases {
            assert_eq!(find_outside_scalar(&set, input, 0), want, "{input:?}");
            for level in Level::available() {
                assert_eq!(
                    find_outside_with(level, &set, input, 0),
                    want,
                    "{level:?} {input:?}"
                );
            }
        }
        // A character at every offset of a long run, across the windows.
        for c in ["é", "例"] {
            for at in 0..200 {
                let mut input = alloc::vec![b'a'; 200];
                let end = (at + c.len()).min(200);
                input[at..end].copy_from_slice(&c.as_bytes()[..end - at]);
                let want = if end - at == c.len() { 200 } else { at };
                for level in Level::available() {
                    assert_eq!(
                        find_outside_with(level, &set, &input, 0),
                        want,
                        "{level:?} {c} at {at}"
                    );
                }
            }
        }
    }
}

/// A xorshift generator, for the tests' random tables and inputs.
#[cfg(test)]
fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

#[cfg(test)]
mod shuffle {
    use super::*;

    #[test]
    fn the_vector_walk_ends_in_the_lane_of_the_scalar_twin() {
        // (On a CPU without VBMI the VBMI level falls back to the scalar
        // twin, and this checks only that fallback.) Random rows (any lane to any lane), inputs of every length up to
        // 300: each quarter's length, and the last quarter's extra bytes.
        let mut next = xorshift(0x5eed);
        let mut rows = [0u8; SHUFFLE_ROWS];
        for r in rows.iter_mut() {
            *r = (next() % LANES as u64) as u8;
        }
        let input: alloc::vec::Vec<u8> = (0..300).map(|_| next() as u8).collect();
        for end in 0..=input.len() {
            for start in [0, 17, ESCAPE] {
                let want = shuffle_walk_scalar(&rows, start, &input[..end]);
                assert_eq!(
                    shuffle_walk_with(ShuffleLevel::Vbmi, &rows, start, &input[..end]),
                    want
                );
                assert_eq!(shuffle_walk(&rows, start, &input[..end]), want);
            }
        }
    }
}

#[cfg(test)]
mod exits {
    use super::*;

    /// Records every exit asked for, with both scanners.
    struct Probe {
        questions: alloc::vec::Vec<(usize, u8)>,
    }

    static TABLE: AtomTable = AtomTable::from_ranges(&[
        (0x00, 0x2F, 1),
        (b'#', b'#', 2),
        (b'/', b'/', 4),
        (b'0', b'9', 8),
        (b':', 0x7F, 16),
        (b'?', b'?', 32),
        (0x80, 0xBF, 64),
        (0xC0, 0xFF, 128),
    ]);

    impl ExitWalk for Probe {
        fn atoms(&self) -> &'static AtomTable {
            &TABLE
        }

        fn walk<E: Exits>(&self, _: &[u8], exits: &mut E, tags: &mut [usize]) -> bool {
            for (k, &(from, bits)) in self.questions.iter().enumerate() {
                tags[k] = match bits {
                    // Two of the test input's bytes, as `next_byte` finds them.
                    0 => exits.next_byte(from, b'#', 0xC3),
                    1 => exits.next_byte(from, b'/', b'/'),
                    _ => exits.next_exit(from, bits),
                };
            }
            true
        }
    }

    #[test]
    fn ranges_make_the_table() {
        assert_eq!(TABLE.0[usize::from(b'#')], 3);
        assert_eq!(TABLE.0[usize::from(b'5')], 8);
        assert_eq!(TABLE.0[usize::from(b'a')], 16);
        assert_eq!(TABLE.0[0xC3], 128);
    }

    #[test]
    fn the_vector_exits_are_the_scalar_twin_s() {
        // (On a CPU without VBMI both runs are the scalar twin.) Inputs of
        // every length up to 200, questions from every offset (past the end
        // too), forwards and backwards (a walk may ask about an earlier
        // block again), for every mask of one and of several bits.
        let mut next = xorshift(0x5eed);
        // Sparse exits, so that questions cross blocks.
        let input: alloc::vec::Vec<u8> = (0..200)
            .map(|_| match next() % 16 {
                0 => b'#',
                1 => b'/',
                2 => 0xC3,
                3 => 0x80,
                _ => b'a' + (next() % 3) as u8,
            })
            .collect();
        for end in 0..=input.len() {
            let input = &input[..end];
            let mut questions = alloc::vec::Vec::new();
            for from in (0..end + 2).chain((0..end).rev().step_by(7)) {
                questions.push((from, 1 << (from % 8)));
                questions.push((from, (next() as u8) | 2));
                questions.push((from, 0));
                questions.push((from, 1));
            }
            let probe = Probe { questions };
            let mut want = alloc::vec![0; probe.questions.len()];
            let mut got = want.clone();
            walk_exits(ShuffleLevel::Scalar, &probe, input, &mut want);
            walk_exits(ShuffleLevel::Vbmi, &probe, input, &mut got);
            assert_eq!(got, want, "length {end}");
            for (&(from, bits), &at) in probe.questions.iter().zip(&want) {
                let first = (from..end).find(|&i| match bits {
                    0 => input[i] == b'#' || input[i] == 0xC3,
                    1 => input[i] == b'/',
                    _ => TABLE.0[usize::from(input[i])] & bits != 0,
                });
                assert_eq!(at, first.unwrap_or(end));
            }
        }
    }
}
