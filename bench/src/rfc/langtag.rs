//! RFC 5646 `Language-Tag` (§2.1) against oxilangtag and language-tags.
//!
//! The corpus: tags as `Accept-Language` headers, HTML `lang` attributes and
//! locale settings carry them: mostly a language and a region (`en-US`,
//! `pt-BR`, `es-419`), some with a script (`zh-Hans-CN`, `sr-Latn-RS`), a
//! few with extended language subtags (`zh-yue-HK`), variants
//! (`de-CH-1901`, `sl-rozaj-biske`), extensions (`en-US-u-ca-gregory`,
//! `de-DE-u-co-phonebk`), private use (`en-x-custom`, `x-whatever`) and
//! grandfathered tags (`i-klingon`, `zh-min-nan`); mostly in canonical
//! case. 5% are invalid, each with one flaw anywhere ([`spoil`]): an
//! underscore for a hyphen (`en_US`, the usual mistake), an empty subtag, a
//! subtag of nine characters, a space, a trailing or leading hyphen.

use super::generated::rfc5646::{self, ast};
use super::{c, insert_at, Grammar, Operation, Role};
use crate::{validator, Rng};

/// `n` tags from `seed`, with whether each was generated valid.
pub fn samples(n: usize, seed: u64) -> Vec<(String, bool)> {
    let mut rng = Rng::new(seed ^ 0x5646);
    (0..n).map(|_| sample(&mut rng)).collect()
}

/// `n` tags from `seed`.
pub fn corpus(n: usize, seed: u64) -> Vec<String> {
    samples(n, seed).into_iter().map(|s| s.0).collect()
}

const LANGUAGES: &[(usize, &str)] = &[
    (300, "en"),
    (60, "es"),
    (60, "fr"),
    (60, "de"),
    (50, "zh"),
    (40, "ja"),
    (40, "pt"),
    (30, "ru"),
    (30, "it"),
    (20, "ko"),
    (20, "nl"),
    (15, "ar"),
    (15, "sv"),
    (15, "pl"),
    (10, "tr"),
    (10, "hi"),
    (8, "sr"),
    (5, "haw"),
    (5, "yue"),
    (5, "fil"),
    (3, "ast"),
    (3, "gsw"),
];
const REGIONS: &[&str] = &[
    "US", "GB", "CA", "AU", "IN", "DE", "AT", "CH", "FR", "BE", "ES", "MX", "BR", "PT", "CN", "TW", "HK",
    "JP", "KR", "IT", "NL", "RU", "419", "001", "150",
];
const SCRIPTS: &[&str] = &["Hans", "Hant", "Latn", "Cyrl", "Arab", "Deva"];
const VARIANTS: &[&str] = &[
    "1901", "1996", "rozaj", "biske", "valencia", "fonipa", "pinyin", "arevela", "polyton",
];
const EXTENSIONS: &[&str] = &[
    "u-ca-gregory",
    "u-co-phonebk",
    "u-nu-latn",
    "u-hc-h23",
    "u-ca-buddhist-nu-thai",
    "t-ja",
    "a-myext",
];
const GRANDFATHERED: &[&str] = &[
    "i-klingon",
    "i-default",
    "zh-min-nan",
    "en-GB-oed",
    "art-lojban",
    "zh-hakka",
    "sgn-BE-FR",
];

fn sample(rng: &mut Rng) -> (String, bool) {
    let mut s = String::with_capacity(24);
    match rng.below(1000) {
        0..=9 => s.push_str(rng.pick(GRANDFATHERED)),
        10..=19 => {
            s.push_str("x-");
            s.push_str(rng.pick(&["whatever", "custom", "a1", "private-use"]));
        }
        _ => {
            let lang = rng.weighted(LANGUAGES);
            s.push_str(lang);
            if lang == "zh" && rng.chance(50) {
                s.push_str(rng.pick(&["-yue", "-cmn"]));
            }
            if rng.chance(80) || (lang == "zh" && rng.chance(500)) {
                s.push('-');
                s.push_str(rng.pick(SCRIPTS));
            }
            if rng.chance(650) {
                s.push('-');
                s.push_str(rng.pick(REGIONS));
            }
            if rng.chance(25) {
                s.push('-');
                s.push_str(rng.pick(VARIANTS));
            }
            if rng.chance(40) {
                s.push('-');
                s.push_str(rng.pick(EXTENSIONS));
            }
            if rng.chance(15) {
                s.push_str("-x-");
                s.push_str(rng.pick(&["custom", "twain", "a1"]));
            }
            if rng.chance(30) {
                s = s.to_ascii_lowercase();
            }
        }
    }
    let invalid = rng.chance(50);
    if invalid {
        spoil(rng, &mut s);
    }
    (s, !invalid)
}

/// One flaw anywhere, each of which RFC 5646 rejects.
pub fn spoil(rng: &mut Rng, s: &mut String) {
    let len = s.len();
    match rng.below(6) {
        0 if s.contains('-') => {
            let hyphens: Vec<usize> = s.match_indices('-').map(|(i, _)| i).collect();
            let at = rng.pick(&hyphens);
            s.replace_range(at..=at, "_");
        }
        1 => insert_at(rng, s, 0, len, "_"),
        2 => insert_at(rng, s, 0, len, " "),
        3 if s.contains('-') => {
            let at = s.find('-').unwrap_or(0);
            s.insert(at, '-');
        }
        4 => s.push_str(rng.pick(&["-", "-abcdefghi", "-"])),
        _ => s.insert(0, '-'),
    }
}

/// The parts every contender reads, as a checksum: the lengths of the
/// primary language, the extended language subtags, script, region and
/// private use, and how many variants and extensions there are and their
/// subtags' lengths.
fn parts_ours(s: &str) -> Option<u64> {
    let t = ast::LanguageTag::parse(s).ok()?;
    Some(match t.kind {
        ast::LanguageTagKind::Langtag(l) => {
            let (lang, ext) = match l.language.kind {
                ast::LanguageKind::Alphas { alphas, extlang } => (alphas, extlang.map_or(0, str::len)),
                ast::LanguageKind::Alphas2(a) | ast::LanguageKind::Alphas3(a) => (a, 0),
            };
            let mut sum =
                (lang.len() + ext + l.script.map_or(0, str::len) + l.region.map_or(0, str::len)) as u64;
            for v in l.variants {
                sum += 1000 + v.text.len() as u64;
            }
            for e in l.extensions {
                sum += 100_000 + e.len() as u64;
            }
            sum + l.privateuse.map_or(0, str::len) as u64
        }
        ast::LanguageTagKind::Privateuse(p) => p.len() as u64,
        ast::LanguageTagKind::Grandfathered(g) => g.text.len() as u64,
    })
}

macro_rules! parts_crate {
    ($t:expr) => {{
        let t = $t;
        let mut sum = (t.primary_language().len()
            + t.extended_language().map_or(0, str::len)
            + t.script().map_or(0, str::len)
            + t.region().map_or(0, str::len)) as u64;
        for v in t.variant_subtags() {
            sum += 1000 + v.len() as u64;
        }
        let mut last = None;
        for (singleton, subtag) in t.extension_subtags() {
            if last != Some(singleton) {
                sum += 100_000;
                last = Some(singleton);
            }
            sum += subtag.len() as u64;
        }
        sum + t.private_use().map_or(0, str::len) as u64
    }};
}

/// The operations on this corpus.
pub fn operations() -> Vec<Operation> {
    use Role::*;
    let g = Grammar::LanguageTag;
    vec![
        Operation {
            grammar: g,
            name: "validate",
            contenders: vec![
                validator!("abnf-codegen LANGUAGE_TAG.is_match", Ours, |s| {
                    rfc5646::LANGUAGE_TAG.is_match(s)
                }),
                validator!("oxilangtag LanguageTag::parse", Peer, |s| {
                    oxilangtag::LanguageTag::parse(s).is_ok()
                }),
                validator!("language-tags LanguageTag::parse", Peer, |s| {
                    language_tags::LanguageTag::parse(s).is_ok()
                }),
            ],
            note: "both crates also find the subtags' positions; language-tags copies the tag into a String",
        },
        Operation {
            grammar: g,
            name: "parts",
            contenders: vec![
                c("abnf-codegen ast::LanguageTag::parse", Ours, |corpus| {
                    corpus
                        .iter()
                        .filter_map(|s| parts_ours(std::hint::black_box(s)))
                        .sum()
                }),
                c("oxilangtag LanguageTag::parse + accessors", Peer, |corpus| {
                    corpus
                        .iter()
                        .filter_map(|s| oxilangtag::LanguageTag::parse(std::hint::black_box(s.as_str())).ok())
                        .map(|t| parts_crate!(t))
                        .sum()
                }),
                c("language-tags LanguageTag::parse + accessors", Peer, |corpus| {
                    corpus
                        .iter()
                        .filter_map(|s| language_tags::LanguageTag::parse(std::hint::black_box(s)).ok())
                        .map(|t| parts_crate!(t))
                        .sum()
                }),
            ],
            note: "language, extended language, script, region, every variant and extension, private use",
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
            .filter(|(s, ok)| rfc5646::LANGUAGE_TAG.is_match(s) != *ok)
            .collect();
        assert!(wrong.is_empty(), "{wrong:?}");
        let invalid = all.iter().filter(|s| !s.1).count();
        assert!((400..600).contains(&invalid), "{invalid}");
    }
}
