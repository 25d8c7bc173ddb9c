//! RFC 9562 `UUID` (§4) against the `uuid` crate.
//!
//! The corpus: UUIDs as databases and APIs print them, mostly random
//! (version 4) and time-ordered (version 7) ones in lower case, some in
//! upper case (as Windows prints GUIDs), a few of versions 1 and 5 and the
//! Nil and Max UUIDs. 5% are invalid, each with one flaw anywhere ([`spoil`]).
//! `uuid::Uuid::try_parse` also accepts the simple (32 digits), braced and
//! URN forms, which RFC 9562's ABNF does not: the corpus has none.

use super::generated::rfc9562::{self, ast};
use super::{c, Grammar, Operation, Role};
use crate::{validator, Rng};

/// `n` UUIDs from `seed`, with whether each was generated valid.
pub fn samples(n: usize, seed: u64) -> Vec<(String, bool)> {
    let mut rng = Rng::new(seed ^ 0x9562);
    (0..n).map(|_| sample(&mut rng)).collect()
}

/// `n` UUIDs from `seed`.
pub fn corpus(n: usize, seed: u64) -> Vec<String> {
    samples(n, seed).into_iter().map(|s| s.0).collect()
}

fn sample(rng: &mut Rng) -> (String, bool) {
    let mut b = [0u8; 16];
    for chunk in b.chunks_mut(8) {
        chunk.copy_from_slice(&rng.next_u64().to_le_bytes()[..chunk.len()]);
    }
    let version = rng.weighted(&[(700, 4u8), (200, 7), (50, 1), (40, 5), (5, 0), (5, 15)]);
    match version {
        0 => b = [0; 16],
        15 => b = [0xFF; 16],
        v => {
            if v == 7 {
                // 48 bits of Unix milliseconds around 2026.
                let ms = 1_760_000_000_000u64 + rng.below(100_000_000_000) as u64;
                b[..6].copy_from_slice(&ms.to_be_bytes()[2..]);
            }
            b[6] = (b[6] & 0x0F) | (v << 4);
            b[8] = (b[8] & 0x3F) | 0x80;
        }
    }
    let upper = rng.chance(100);
    let mut s = String::with_capacity(37);
    for (i, byte) in b.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            s.push('-');
        }
        if upper {
            s.push_str(&format!("{byte:02X}"));
        } else {
            s.push_str(&format!("{byte:02x}"));
        }
    }
    let invalid = rng.chance(50);
    if invalid {
        spoil(rng, &mut s);
    }
    (s, !invalid)
}

/// One flaw anywhere, each of which RFC 9562 rejects: a byte dropped or
/// doubled, a byte replaced by a non-hex letter, a space or an underscore,
/// or a hyphen moved by one.
pub fn spoil(rng: &mut Rng, s: &mut String) {
    let at = rng.below(s.len());
    match rng.below(4) {
        0 => {
            s.remove(at);
        }
        1 => {
            let b = s[at..=at].to_string();
            s.insert_str(at, &b);
        }
        2 => s.replace_range(at..=at, rng.pick(&["g", "G", "z", " ", "_", "O"])),
        _ => {
            let dash = rng.pick(&[8, 13, 18, 23]);
            let other = if rng.chance(500) { dash - 1 } else { dash + 1 };
            let mut bytes = s.clone().into_bytes();
            bytes.swap(dash, other);
            *s = String::from_utf8(bytes).expect("ASCII");
        }
    }
}

fn hex(b: u8) -> u8 {
    // The grammar has checked it is a hex digit.
    (b & 0x0F) + if b >= b'A' { 9 } else { 0 }
}

/// Ours: the recognizer, then the 32 digits at their fixed places.
pub fn ours_bytes_recognizer(s: &str) -> Option<[u8; 16]> {
    if !rfc9562::UUID.is_match(s) {
        return None;
    }
    let s = s.as_bytes();
    let mut out = [0u8; 16];
    let mut j = 0;
    for o in &mut out {
        if matches!(j, 8 | 13 | 18 | 23) {
            j += 1;
        }
        *o = hex(s[j]) << 4 | hex(s[j + 1]);
        j += 2;
    }
    Some(out)
}

/// Ours: the typed tree, each group's octets read from its list.
pub fn ours_bytes_tree(s: &str) -> Option<[u8; 16]> {
    let t = ast::Uuid::parse(s).ok()?;
    let mut out = [0u8; 16];
    let groups = [
        t.hex_octets,
        t.hex_octets_2,
        t.hex_octets_3,
        t.hex_octets_4,
        t.hex_octets_5,
    ];
    for (o, h) in out.iter_mut().zip(groups.into_iter().flatten()) {
        let h = h.text.as_bytes();
        *o = hex(h[0]) << 4 | hex(h[1]);
    }
    Some(out)
}

fn sum_bytes(corpus: &[String], f: fn(&str) -> Option<[u8; 16]>) -> u64 {
    corpus
        .iter()
        .filter_map(|s| f(std::hint::black_box(s)))
        .map(|b| u128::from_le_bytes(b) as u64 ^ (u128::from_le_bytes(b) >> 64) as u64)
        .fold(0, u64::wrapping_add)
}

/// The operations on this corpus.
pub fn operations() -> Vec<Operation> {
    use Role::*;
    let g = Grammar::Uuid;
    vec![
        Operation {
            grammar: g,
            name: "validate",
            contenders: vec![
                validator!("abnf-codegen UUID.is_match", Ours, |s| rfc9562::UUID.is_match(s)),
                validator!("uuid Uuid::try_parse", Peer, |s| uuid::Uuid::try_parse(s).is_ok()),
            ],
            note: "uuid also decodes the 16 bytes, and accepts the simple, braced and URN forms",
        },
        Operation {
            grammar: g,
            name: "the five groups",
            contenders: vec![
                c("abnf-codegen ast::Uuid::parse", Ours, |corpus| {
                    corpus
                        .iter()
                        .filter_map(|s| ast::Uuid::parse(std::hint::black_box(s)).ok())
                        .map(|t| {
                            (t.hex_octets.as_str().len()
                                + t.hex_octets_2.as_str().len() * 3
                                + t.hex_octets_3.as_str().len() * 5
                                + t.hex_octets_4.as_str().len() * 7
                                + t.hex_octets_5.as_str().len() * 11) as u64
                        })
                        .sum()
                }),
                c("uuid Uuid::try_parse + as_fields", Peer, |corpus| {
                    corpus
                        .iter()
                        .filter_map(|s| uuid::Uuid::try_parse(std::hint::black_box(s)).ok())
                        .map(|u| {
                            let (a, b, c, d) = u.as_fields();
                            u64::from(a) ^ u64::from(b) ^ u64::from(c) ^ u64::from_le_bytes(*d)
                        })
                        .fold(0, u64::wrapping_add)
                }),
            ],
            note: "ours: the five groups as text; uuid: the three fields and the last 8 bytes \
                   as integers (decoded)",
        },
        Operation {
            grammar: g,
            name: "to 16 bytes",
            contenders: vec![
                c("abnf-codegen UUID.is_match + decode", Ours, |c| {
                    sum_bytes(c, ours_bytes_recognizer)
                }),
                c("abnf-codegen ast::Uuid::parse + decode", Ours, |c| {
                    sum_bytes(c, ours_bytes_tree)
                }),
                c("uuid Uuid::try_parse + as_bytes", Peer, |c| {
                    sum_bytes(c, |s| uuid::Uuid::try_parse(s).ok().map(|u| *u.as_bytes()))
                }),
            ],
            note: "the same work everywhere: validated and decoded to 16 bytes",
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intents_match_the_grammar() {
        let all = samples(10_000, 1);
        // The benchmarks' corpus too.
        let default = samples(10_000, crate::DEFAULT_SEED);
        let wrong: Vec<_> = all
            .iter()
            .chain(&default)
            .filter(|(s, ok)| rfc9562::UUID.is_match(s) != *ok)
            .collect();
        assert!(wrong.is_empty(), "{wrong:?}");
        let invalid = all.iter().filter(|s| !s.1).count();
        assert!((400..600).contains(&invalid), "{invalid}");
        for (s, ok) in all.iter().filter(|s| s.1).take(100) {
            let u = uuid::Uuid::try_parse(s).unwrap();
            assert_eq!(ours_bytes_recognizer(s), Some(*u.as_bytes()), "{s} {ok}");
            assert_eq!(ours_bytes_tree(s), Some(*u.as_bytes()), "{s}");
        }
    }
}
