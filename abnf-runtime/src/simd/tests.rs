//! The tests that compare every vector level this machine has with the
//! scalar twins, in one place (the `bit_parallel` and `extraction` fuzz
//! targets compare them on arbitrary inputs, and `tests/tests/batch.rs`,
//! `splitter.rs` and `schemes.rs` on the generated automata).

mod loop_sets {
    use super::xorshift;
    use crate::simd::*;

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
        let mut next = xorshift(0x5eed_1234_abcd);
        let mut input = [0u8; 300];
        for round in 0..2000 {
            // A set of most ASCII bytes, and inputs mostly inside it, with
            // outsiders (some non-ASCII) at random places.
            let members: alloc::vec::Vec<u8> = (0..=255u8)
                .filter(|&b| b != b'%' && !next().is_multiple_of(8))
                .collect();
            let bytes = NibbleSet::of(&members);
            let set = if round % 4 == 0 {
                LoopSet::plain(bytes)
            } else if round % 4 == 2 {
                // Characters without escapes (an octet grammar's field
                // value: obs-text).
                LoopSet {
                    bytes,
                    escape: 0,
                    escaped: NibbleSet::of(&[]),
                    leads: leads(),
                }
            } else {
                LoopSet {
                    bytes,
                    escape: b'%',
                    escaped: hex(),
                    leads: if round % 8 == 1 { Leads::NONE } else { leads() },
                }
            };
            let inside: alloc::vec::Vec<u8> = (0..128u8).filter(|&b| bytes.contains(b)).collect();
            let n = (next() % 300) as usize;
            let outsiders = next() % 4;
            for b in input[..n].iter_mut() {
                *b = inside[(next() % inside.len() as u64) as usize];
            }
            for _ in 0..outsiders {
                if n > 0 {
                    input[(next() % n as u64) as usize] = (next() % 256) as u8;
                }
            }
            // Characters, whole and cut, some across the windows.
            for _ in 0..next() % 12 {
                if n > 0 {
                    let k = (next() % n as u64) as usize;
                    let c: &[u8] = [
                        "é".as_bytes(),
                        "例".as_bytes(),
                        "\u{E000}".as_bytes(),
                        "😀".as_bytes(),
                        b"\xc3",
                        b"\xe4\xbe",
                        b"\xc3\xa9\xa9",
                        b"\xed\xa0\x80",
                    ][(next() % 8) as usize];
                    let end = (k + c.len()).min(n);
                    input[k..end].copy_from_slice(&c[..end - k]);
                }
            }
            // Escapes, good and bad, some across the 64-byte windows.
            for _ in 0..next() % 12 {
                if n > 0 {
                    let k = (next() % n as u64) as usize;
                    let esc: &[u8] = [&b"%4F"[..], b"%a", b"%%41", b"%G1", b"%"][(next() % 5) as usize];
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
                n.saturating_sub(33),
                n.saturating_sub(32),
                n.saturating_sub(31),
                n.saturating_sub(2),
                n.saturating_sub(1),
                n,
                n + 1,
                n + 100,
            ] {
                // Every level, the scalar one included, against the
                // search a byte at a time.
                let want = find_outside_bytewise(&set, input, from);
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

mod blocks {
    use super::xorshift;
    use crate::simd::*;

    #[test]
    fn classify_block_agrees_with_the_scalar_twin_and_with_find_outside() {
        let mut next = xorshift(0x1234_5678_9abc_def1);
        let mut input = [0u8; 200];
        let pieces: [&[u8]; 10] = [
            "é".as_bytes(),
            "例".as_bytes(),
            "😀".as_bytes(),
            b"\xc3",
            b"\xe4\xbe",
            b"\xc3\xa9\xa9",
            b"%4F",
            b"%a",
            b"%%41",
            b"%",
        ];
        for round in 0..3000 {
            let members: alloc::vec::Vec<u8> = (0..=255u8)
                .filter(|&b| b != b'%' && !next().is_multiple_of(6))
                .collect();
            let bytes = NibbleSet::of(&members);
            let leads: alloc::vec::Vec<u8> = (0xC2..=0xEFu8).filter(|_| !next().is_multiple_of(4)).collect();
            let set = LoopSet {
                bytes,
                escape: if round % 3 == 0 { 0 } else { b'%' },
                escaped: if round % 3 == 0 {
                    NibbleSet([0; 16])
                } else {
                    NibbleSet::of(b"0123456789abcdefABCDEF")
                },
                leads: if round % 4 == 1 {
                    Leads::NONE
                } else {
                    Leads::of(&leads)
                },
            };
            let inside: alloc::vec::Vec<u8> = (0..128u8).filter(|&b| bytes.contains(b)).collect();
            let n = (next() % 200) as usize;
            for b in input[..n].iter_mut() {
                *b = if next().is_multiple_of(8) {
                    next() as u8
                } else {
                    inside[(next() % inside.len() as u64) as usize]
                };
            }
            for _ in 0..next() % 16 {
                if n > 0 {
                    let k = (next() % n as u64) as usize;
                    let c = pieces[(next() % pieces.len() as u64) as usize];
                    let end = (k + c.len()).min(n);
                    input[k..end].copy_from_slice(&c[..end - k]);
                }
            }
            let input = &input[..n];
            for at in [
                0,
                1,
                15,
                63,
                64,
                65,
                n.saturating_sub(64),
                n.saturating_sub(3),
                n,
                n + 5,
            ] {
                let pairs = (NibbleSet::of(b"%a"), NibbleSet::of(b"%1a\x80"));
                let pairs = (round % 5 == 2).then_some(&pairs);
                let want = classify_block_scalar(&set, pairs, input, at);
                for level in Level::available() {
                    assert_eq!(
                        classify_block_with(level, &set, pairs, input, at),
                        want,
                        "round {round}, {level:?}, at {at}, length {n}"
                    );
                }
                // Where a run from each byte of the block stops, against
                // the search (which knows no pairs: `pairs` checks those).
                for off in 0..64 {
                    let from = at + off;
                    if from >= n || pairs.is_some() {
                        break;
                    }
                    let stop = want.outside_from(off);
                    let search = find_outside_scalar(&set, input, from);
                    if stop == 0 {
                        // The run reaches the block's end (or the input's).
                        assert!(search >= (at + 64).min(n), "round {round}, from {from}: {search}");
                    } else {
                        let s = from + stop.trailing_zeros() as usize;
                        // A sequence that crosses the block's end stops the
                        // block's run early; the search goes on.
                        if s + 3 <= at + 64 || s >= n {
                            assert_eq!(s.min(n), search, "round {round}, from {from}");
                        } else {
                            assert!(search >= s, "round {round}, from {from}");
                        }
                    }
                }
            }
        }
    }
}

mod nibble_sets {
    use super::xorshift;
    use crate::simd::*;

    /// Random nibble classes (one empty, three random, one of high
    /// nibbles, one of lead bytes, one of 0xFF, the filler of a block copied at the
    /// input's end), packed, on random bytes: every level against the
    /// scalar twin and the scalar twin against `NibbleClass::contains`,
    /// over batches of blocks that reach past the input's end. Random
    /// ASCII sets take up to eight products each, so the packing takes
    /// one to four pairs of tables, or fails (then the classes are
    /// drawn again).
    #[test]
    fn classified_blocks_agree_with_the_scalar_twin() {
        let mut next = xorshift(0x0bad_5eed_1234_5678);
        let mut input = [0u8; 300];
        let mut tables = [0; PACKED_TABLES];
        for round in 0..1000 {
            let mut classes = [NibbleClass::NONE; 7];
            for class in classes.iter_mut().skip(1).take(3) {
                // Few bytes (few products) or many.
                let sparse = next() % 3 + next() % 40;
                let members: alloc::vec::Vec<u8> =
                    (0..=255u8).filter(|_| next().is_multiple_of(sparse)).collect();
                *class = NibbleClass::ascii(NibbleSet::of(&members));
            }
            let from = (next() % 16) as u8;
            classes[4] = NibbleClass::high(from, from + (next() % 4) as u8);
            let leads: alloc::vec::Vec<u8> = (0xC0..=0xFFu8).filter(|_| next().is_multiple_of(2)).collect();
            classes[5] = NibbleClass::leads(Leads::of(&leads));
            classes[6] = NibbleClass::high(0xF, 0xF);
            let Some(packed) = PackedClasses::pack(&classes) else {
                continue;
            };
            tables[packed.tables_used() - 1] += 1;
            let n = (next() % 300) as usize;
            for b in input[..n].iter_mut() {
                *b = next() as u8;
            }
            let input = &input[..n];
            for at in [0, 1, 63, 64, n.saturating_sub(70), n.saturating_sub(10), n, n + 3] {
                let blocks = 1 + (next() % 6) as usize;
                let mut want = [[0u64; 6]; 7];
                classify_blocks_scalar(&packed, input, at, &mut want, blocks);
                for (k, (class, masks)) in classes.iter().zip(&want).enumerate() {
                    for (i, mask) in masks[..blocks].iter().enumerate() {
                        for j in 0..64 {
                            let inside = input.get(at + 64 * i + j).is_some_and(|&b| class.contains(b));
                            assert_eq!(
                                mask >> j & 1 == 1,
                                inside,
                                "round {round}, block {i}, class {k}, byte {j}"
                            );
                        }
                    }
                }
                for level in Level::available() {
                    let mut got = [[!0u64; 6]; 7];
                    classify_blocks_with(level, &packed, input, at, &mut got, blocks);
                    assert_eq!(
                        got.map(|class| class[..blocks].to_vec()),
                        want.map(|class| class[..blocks].to_vec()),
                        "round {round}, {level:?}, at {at}, {blocks} blocks"
                    );
                }
            }
        }
        assert!(
            tables.iter().all(|&n| n > 0),
            "packings of 1 to 4 tables: {tables:?}"
        );
    }
}

mod pairs {
    use crate::simd::*;

    /// Where a run of `set` and of the escapes `x e` (`e` in `next`) from
    /// `from` ends, one byte or sequence at a time.
    fn run_end(set: &LoopSet, x: u8, next: &NibbleSet, input: &[u8], from: usize) -> usize {
        let mut i = from;
        while let Some(&b) = input.get(i) {
            if set.bytes.contains(b) {
                i += 1;
            } else if let Some(j) = set.sequence_at(input, i) {
                i = j;
            } else if b == x && input.get(i + 1).is_some_and(|&e| next.contains(e)) {
                i += 2;
            } else {
                return i;
            }
        }
        input.len()
    }

    #[test]
    fn pairs_end_runs_where_a_byte_by_byte_walk_does() {
        let mut rng = super::xorshift(0x9e37_79b9_7f4a_7c15);
        // JSON's string contents: `\` escapes `"\/bfnrt`.
        let set = LoopSet {
            bytes: NibbleSet::of(
                &(0x20..0x80u8)
                    .filter(|&b| b != b'"' && b != b'\\')
                    .collect::<alloc::vec::Vec<u8>>(),
            ),
            escape: 0,
            escaped: NibbleSet([0; 16]),
            leads: Leads::of(&(0xC2..=0xDFu8).collect::<alloc::vec::Vec<u8>>()),
        };
        for (round, next) in [NibbleSet::of(b"\"\\/bfnrt"), NibbleSet::of(b"\"/n")]
            .iter()
            .cycle()
            .take(4000)
            .enumerate()
        {
            let open = NibbleSet::of(b"\\");
            let pieces: [&[u8]; 8] = [
                b"\\",
                b"\\\\",
                b"\\n",
                b"\\\"",
                b"\"",
                b"a",
                "é".as_bytes(),
                b"\\u",
            ];
            let n = (rng() % 150) as usize;
            let mut input = alloc::vec::Vec::new();
            while input.len() < n {
                input.extend_from_slice(pieces[(rng() % 8) as usize]);
            }
            for at in [0, 64, input.len().saturating_sub(64)] {
                let m = classify_block_scalar(&set, Some(&(open, *next)), &input, at);
                for off in 0..64 {
                    let from = at + off;
                    if from >= input.len() {
                        break;
                    }
                    let want = run_end(&set, b'\\', next, &input, from);
                    let stop = m.outside_from(off);
                    if stop == 0 {
                        assert!(want >= (at + 64).min(input.len()), "round {round}, from {from}");
                        continue;
                    }
                    let s = from + stop.trailing_zeros() as usize;
                    if s + 3 <= at + 64 || s >= input.len() {
                        assert_eq!(
                            s.min(input.len()),
                            want,
                            "round {round}, from {from}: {:?}",
                            alloc::string::String::from_utf8_lossy(&input)
                        );
                    } else {
                        assert!(want >= s, "round {round}, from {from}");
                    }
                }
            }
        }
    }
}

mod lanes {
    use super::xorshift;
    use crate::simd::*;

    /// Every operation of [`Lanes`] on eight blocks' masks, `V::COUNT` at
    /// a time: results per operation, per lane.
    #[derive(Clone)]
    struct Ops {
        a: [u64; 8],
        b: [u64; 8],
        carry: u64,
        shift: u32,
    }

    impl LaneTask for Ops {
        type Output = alloc::vec::Vec<[u64; 8]>;

        fn run<V: Lanes>(self, t: V::Token) -> alloc::vec::Vec<[u64; 8]> {
            let mut out = alloc::vec![[0u64; 8]; 11];
            for g in (0..8).step_by(V::COUNT) {
                let (a, b) = (V::load(t, &self.a[g..]), V::load(t, &self.b[g..]));
                let results = [
                    a & b,
                    a | b,
                    a ^ b,
                    !a,
                    a.shl(self.shift),
                    a.shr(self.shift),
                    a.neg(),
                    a.up(self.carry),
                    a.xor_prefix(),
                    V::splat(t, self.carry),
                    V::splat(t, a.last()),
                ];
                for (o, r) in out.iter_mut().zip(results) {
                    r.store(&mut o[g..]);
                }
            }
            out
        }
    }

    /// [`Ops`] with lanes of `n` blocks, from the definitions.
    fn reference(ops: &Ops, n: usize) -> alloc::vec::Vec<[u64; 8]> {
        let (a, b) = (ops.a, ops.b);
        let mut out = alloc::vec![[0u64; 8]; 11];
        for i in 0..8 {
            let g = i - i % n;
            out[0][i] = a[i] & b[i];
            out[1][i] = a[i] | b[i];
            out[2][i] = a[i] ^ b[i];
            out[3][i] = !a[i];
            out[4][i] = a[i] << ops.shift;
            out[5][i] = a[i] >> ops.shift;
            out[6][i] = a[i].wrapping_neg();
            out[7][i] = if i == g { ops.carry } else { a[i - 1] };
            out[8][i] = a[g..=i].iter().fold(0, |x, y| x ^ y);
            out[9][i] = ops.carry;
            out[10][i] = a[g + n - 1];
        }
        out
    }

    /// Each level's lanes against the definitions (`u64` lanes included).
    #[test]
    fn lanes_agree_with_their_definitions() {
        let mut next = xorshift(0x1234_5678_9abc_def1);
        for _ in 0..300 {
            let o = Ops {
                a: core::array::from_fn(|_| next()),
                b: core::array::from_fn(|_| next()),
                carry: next(),
                shift: (next() % 64) as u32,
            };
            for level in Level::available() {
                let n = match level {
                    Level::Avx512 | Level::Vbmi => 8,
                    Level::Avx2 => 4,
                    _ => 1,
                };
                assert_eq!(run_lanes(level, o.clone()), reference(&o, n), "{level:?}");
            }
        }
    }
}

mod bytes {
    use crate::simd::*;

    #[test]
    fn find_byte_agrees_with_the_scalar_twin() {
        let mut input = alloc::vec![b'a'; 300];
        let lengths = (0..=70).chain([127, 128, 129, 200, 300]);
        // Backgrounds with bytes next to the one looked for (`xor` 1, a
        // borrow in the scalar twin's word), zeros and high bytes.
        let backgrounds: [&[u8]; 3] = [b"a", &[0xE3, 0xE2 ^ 0x80, 0x00, 0xE1], &[0xFF, 0x62, 0xE3]];
        for (n, background) in lengths.flat_map(|n| backgrounds.map(|b| (n, b))) {
            for at in (0..n).chain([usize::MAX]) {
                for (k, b) in input.iter_mut().enumerate() {
                    *b = background[k % background.len()];
                }
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

mod escapes {
    use crate::simd::*;

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
fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

mod shuffle {
    use super::xorshift;
    use crate::simd::*;

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
                assert_eq!(shuffle_walk_with(Level::Vbmi, &rows, start, &input[..end]), want);
                assert_eq!(shuffle_walk(&rows, start, &input[..end]), want);
            }
        }
    }
}

mod exits {
    use super::xorshift;
    use crate::simd::*;

    /// Records every exit asked for, with both scanners.
    struct Probe {
        questions: alloc::vec::Vec<(usize, u8)>,
        table: &'static AtomTable,
        nibbles: Option<&'static AtomNibbles>,
    }

    /// One atom per byte, every one a rectangle of nibbles but the last
    /// (bit 128, everything else), as the generator gives nibbles.
    static RECTANGLES: AtomTable = AtomTable::from_ranges(&[
        (0x00, 0x22, 128),
        (b'#', b'#', 1),
        (0x24, 0x2E, 128),
        (b'/', b'/', 2),
        (b'0', b'9', 4),
        (b':', b'>', 128),
        (b'?', b'?', 16),
        (b'@', b'@', 128),
        (b'A', b'F', 8),
        (b'G', b'`', 128),
        (b'a', b'f', 8),
        (b'g', 0x7F, 128),
        (0x80, 0xBF, 32),
        (0xC0, 0xC2, 128),
        (0xC3, 0xC3, 64),
        (0xC4, 0xFF, 128),
    ]);

    /// [`RECTANGLES`] as nibbles.
    static NIBBLES: AtomNibbles = {
        let mut low = [0u8; 16];
        let mut high = [0u8; 16];
        low[3] |= 1 | 64;
        high[2] |= 1 | 2;
        low[15] |= 2 | 16;
        let mut l = 0;
        while l < 16 {
            if l <= 9 {
                low[l] |= 4;
            }
            if l >= 1 && l <= 6 {
                low[l] |= 8;
            }
            low[l] |= 32;
            l += 1;
        }
        high[3] |= 4 | 16;
        high[4] |= 8;
        high[6] |= 8;
        high[8] |= 32;
        high[9] |= 32;
        high[10] |= 32;
        high[11] |= 32;
        high[12] |= 64;
        AtomNibbles { low, high, rest: 128 }
    };

    #[test]
    fn nibbles_classify_as_the_table() {
        assert!(NIBBLES.agrees_with(&RECTANGLES));
        let mut wrong = NIBBLES;
        wrong.high[5] |= 8;
        assert!(!wrong.agrees_with(&RECTANGLES));
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
            self.table
        }

        fn nibbles(&self) -> Option<&'static AtomNibbles> {
            self.nibbles
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
        // Every level this CPU has: 64-byte blocks by `vpermi2b` (VBMI, any
        // table), 32-byte blocks by nibble lookups (AVX2, AVX-512, SSSE3;
        // only for a walk with nibbles) and the scalar twin.
        check(&TABLE, None);
        check(&RECTANGLES, Some(&NIBBLES));
    }

    /// Inputs of every length up to 200, questions from every offset (past
    /// the end too), forwards and backwards (a walk may ask about an
    /// earlier block again), for every mask of one and of several bits.
    fn check(table: &'static AtomTable, nibbles: Option<&'static AtomNibbles>) {
        let mut next = xorshift(0x5eed);
        // Sparse exits, so that questions cross blocks.
        let input: alloc::vec::Vec<u8> = (0..200)
            .map(|_| match next() % 16 {
                0 => b'#',
                1 => b'/',
                2 => 0xC3,
                3 => 0x80,
                4 => b'5',
                5 => b'E',
                _ => b'a' + (next() % 8) as u8,
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
            let probe = Probe {
                questions,
                table,
                nibbles,
            };
            let mut want = alloc::vec![0; probe.questions.len()];
            walk_exits(Level::Scalar, &probe, input, &mut want);
            for level in Level::available() {
                let mut got = alloc::vec![0; probe.questions.len()];
                walk_exits(level, &probe, input, &mut got);
                assert_eq!(got, want, "length {end} at {level:?}");
            }
            for (&(from, bits), &at) in probe.questions.iter().zip(&want) {
                let first = (from..end).find(|&i| match bits {
                    0 => input[i] == b'#' || input[i] == 0xC3,
                    1 => input[i] == b'/',
                    _ => table.0[usize::from(input[i])] & bits != 0,
                });
                assert_eq!(at, first.unwrap_or(end));
            }
        }
    }
}

mod shapes {
    use super::xorshift;
    use crate::simd::*;
    use alloc::vec::Vec;

    #[test]
    fn every_level_checks_shapes_as_the_scalar_twin() {
        // Random nibble tables (non-ASCII high nibbles too), and shapes made
        // from random inputs of every length up to 64 (each position allows
        // the input's bucket, or a random one), so that inputs fit some
        // shapes and miss others by a byte anywhere, the window overlaps
        // included.
        let mut next = xorshift(0x5ba9e);
        let (mut fits, mut misses) = (0, 0);
        for round in 0..40 {
            let mut nibbles = AtomNibbles {
                low: [0; 16],
                high: [0; 16],
                rest: 0,
            };
            for x in nibbles.low.iter_mut().chain(nibbles.high.iter_mut()) {
                *x = next() as u8 | next() as u8;
            }
            for n in 0..=SHAPE_LEN {
                let input: Vec<u8> = (0..n).map(|_| next() as u8).collect();
                let mut shapes = Vec::new();
                for _ in 0..1 + round % 3 {
                    let mut masks = [0u8; SHAPE_LEN];
                    for (m, &b) in masks.iter_mut().zip(&input) {
                        *m = if next().is_multiple_of(50) {
                            next() as u8 & next() as u8
                        } else {
                            nibbles.class(b) | next() as u8 & 1
                        };
                    }
                    shapes.extend_from_slice(&masks);
                }
                // The rows in another order than the shapes, and a row no
                // shape names.
                let named = shapes.len() / SHAPE_LEN;
                shapes.extend_from_slice(&[0x5a; SHAPE_LEN]);
                let ids: Vec<u8> = (0..named as u8).rev().collect();
                let classes: [u8; 256] = core::array::from_fn(|b| nibbles.class(b as u8));
                let want = match_shapes_scalar(&classes, &shapes, &ids, &input);
                let defined = ids.iter().position(|&id| {
                    let m = &shapes[usize::from(id) * SHAPE_LEN..][..SHAPE_LEN];
                    input.iter().zip(m).all(|(&b, &m)| nibbles.class(b) & m != 0)
                });
                assert_eq!(want, defined);
                if want.is_some() {
                    fits += 1;
                } else {
                    misses += 1;
                }
                for level in Level::available() {
                    assert_eq!(
                        match_shapes_with(level, &nibbles, &classes, &shapes, &ids, &input),
                        want,
                        "length {n} at {level:?}"
                    );
                }
            }
        }
        assert!(fits > 200 && misses > 200, "{fits} fit, {misses} miss");
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn a_short_input_is_its_bytes_as_one_word() {
        let bytes = [0x81u8, 0x02, 0xF3, 0x04, 0x55, 0xA6, 0x07];
        for n in 0..8 {
            let want = bytes[..n]
                .iter()
                .enumerate()
                .fold(0u64, |w, (k, &b)| w | u64::from(b) << (8 * k));
            assert_eq!(short_word(&bytes[..n]), want, "{n} bytes");
        }
    }
}
