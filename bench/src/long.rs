//! The long-input corpus: IRIs of about 1.7 KB on average, where the
//! per-byte cost of a validator shows rather than its per-call cost.
//!
//! [`long_iri_samples`] makes `n` entries from a seed with the same
//! generator as the short corpus ([`crate::iri_samples`]) for the scheme and
//! authority, and then a long tail:
//!
//! - long query strings (`key=value&...`, some values percent-encoded, a few
//!   non-ASCII), 40%;
//! - `data:` URIs with a base64 payload (`data:image/png;base64,...`), 20%;
//! - long paths (many segments), 25%;
//! - long paths with a long query and a fragment, 15%.
//!
//! About 15% have non-ASCII characters, and 5% are invalid: one ASCII flaw
//! (a space, `%zz`, `<`, `"`, `{`, `|`, `\`, `^`, a backquote, a tab, a
//! second `#`) at a random place after the scheme, usually far into the
//! input. [`long_uri_samples`] maps them to URIs as [`crate::uri_samples`]
//! does.

use crate::{
    iri_to_uri, web, Flaw, Intent, Rng, Sample, KEYS, NON_ASCII_SEGMENTS, NON_ASCII_VALUES, SEGMENTS, VALUES,
};

/// The long corpus's default size.
pub const LONG_N: usize = 2_000;

/// `n` long IRI references from `seed` (see the module documentation).
///
/// ```
/// let c = iri_bench::long::long_iri_samples(50, 7);
/// assert_eq!(c, iri_bench::long::long_iri_samples(50, 7));
/// assert!(c.iter().map(|s| s.text.len()).sum::<usize>() / 50 > 800);
/// ```
pub fn long_iri_samples(n: usize, seed: u64) -> Vec<Sample> {
    let mut rng = Rng::new(seed ^ 0x10A6_10A6);
    (0..n).map(|_| long_sample(&mut rng)).collect()
}

/// [`long_iri_samples`] mapped to URI references (ASCII only).
pub fn long_uri_samples(n: usize, seed: u64) -> Vec<Sample> {
    long_iri_samples(n, seed)
        .into_iter()
        .map(|s| Sample {
            text: iri_to_uri(&s.text),
            intent: s.intent,
        })
        .collect()
}

/// The texts of [`long_iri_samples`].
pub fn long_iri_corpus(n: usize, seed: u64) -> Vec<String> {
    long_iri_samples(n, seed).into_iter().map(|s| s.text).collect()
}

/// The texts of [`long_uri_samples`].
pub fn long_uri_corpus(n: usize, seed: u64) -> Vec<String> {
    long_uri_samples(n, seed).into_iter().map(|s| s.text).collect()
}

/// A length drawn around 1.7 KB: mostly 600 B to 2.5 KB, a few up to 6 KB.
fn target_len(rng: &mut Rng) -> usize {
    if rng.chance(80) {
        rng.range(3000, 6000)
    } else {
        rng.range(600, 2400)
    }
}

fn long_query(rng: &mut Rng, len: usize, non_ascii: bool) -> String {
    let mut q = String::with_capacity(len + 64);
    while q.len() < len {
        if !q.is_empty() {
            q.push('&');
        }
        q.push_str(rng.pick(KEYS));
        q.push('=');
        match rng.below(10) {
            0 if non_ascii => q.push_str(rng.pick(NON_ASCII_VALUES)),
            1..=3 => {
                // A long token: an id, a hash, a JWT-like value.
                const TOKEN: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.";
                for _ in 0..rng.range(16, 120) {
                    q.push(char::from(rng.pick(TOKEN)));
                }
            }
            _ => q.push_str(rng.pick(VALUES)),
        }
    }
    q
}

fn long_path(rng: &mut Rng, len: usize, non_ascii: bool) -> String {
    let mut p = String::with_capacity(len + 64);
    while p.len() < len {
        p.push('/');
        if non_ascii && rng.chance(80) {
            p.push_str(rng.pick(NON_ASCII_SEGMENTS));
        } else {
            p.push_str(rng.weighted(SEGMENTS));
        }
    }
    p
}

fn base64(rng: &mut Rng, len: usize) -> String {
    const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s: String = (0..len / 4 * 4).map(|_| char::from(rng.pick(B64))).collect();
    if rng.chance(500) {
        s.truncate(s.len().saturating_sub(2));
        s.push_str("==");
    }
    s
}

fn long_sample(rng: &mut Rng) -> Sample {
    let non_ascii = rng.chance(150);
    let invalid = rng.chance(50);
    let len = target_len(rng);
    let text = match rng.below(100) {
        0..=39 => {
            let mut p = web(rng);
            if p.path.is_empty() {
                p.path = "/".into();
            }
            p.query = Some(long_query(rng, len, non_ascii));
            p.fragment = None;
            p.render()
        }
        40..=59 => {
            let mime = rng.pick(&[
                "image/png",
                "image/jpeg",
                "application/octet-stream",
                "font/woff2",
            ]);
            let mut s = format!("data:{mime};base64,{}", base64(rng, len));
            if non_ascii {
                // Non-ASCII in a data: URI's payload, unencoded: an IRI.
                s.push_str(rng.pick(NON_ASCII_VALUES));
            }
            s
        }
        60..=84 => {
            let mut p = web(rng);
            p.path = long_path(rng, len, non_ascii);
            p.query = None;
            p.fragment = None;
            p.render()
        }
        _ => {
            let mut p = web(rng);
            p.path = long_path(rng, len / 2, non_ascii);
            p.query = Some(long_query(rng, len / 2, non_ascii));
            p.fragment = Some(rng.pick(&["top", "section-2", "L10-L20", "fn:main"]).into());
            p.render()
        }
    };
    if !invalid {
        return Sample {
            text,
            intent: Intent::Valid,
        };
    }
    let (flaw, bad) = rng.pick(&[
        (Flaw::Space, " "),
        (Flaw::BadPercent, "%zz"),
        (Flaw::Delimiter, "<"),
        (Flaw::Delimiter, "\""),
        (Flaw::Delimiter, "{"),
        (Flaw::Delimiter, "|"),
        (Flaw::Delimiter, "\\"),
        (Flaw::Delimiter, "^"),
        (Flaw::Delimiter, "`"),
        (Flaw::ControlChar, "\t"),
    ]);
    // Anywhere after the scheme, on a character boundary.
    let from = text.find(':').map_or(0, |k| k + 1);
    let mut at = rng.range(from, text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    let mut spoiled = String::with_capacity(text.len() + 3);
    spoiled.push_str(&text[..at]);
    spoiled.push_str(bad);
    spoiled.push_str(&text[at..]);
    Sample {
        text: spoiled,
        intent: Intent::Invalid(flaw),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_corpus_has_the_advertised_mix() {
        let c = long_iri_samples(LONG_N, crate::DEFAULT_SEED);
        let bytes: usize = c.iter().map(|s| s.text.len()).sum();
        let mean = bytes / c.len();
        assert!((1400..2000).contains(&mean), "mean length {mean}");
        let invalid = c.iter().filter(|s| s.intent != Intent::Valid).count();
        assert!((60..140).contains(&invalid), "{invalid} invalid");
        let non_ascii = c.iter().filter(|s| !s.text.is_ascii()).count();
        assert!((200..400).contains(&non_ascii), "{non_ascii} non-ASCII");
        for s in &c {
            assert_eq!(
                iri_grammar::rfc3987::IRI_REFERENCE.is_match(&s.text),
                s.intent == Intent::Valid,
                "{:?} {}",
                s.intent,
                s.text
            );
        }
        for s in long_uri_samples(LONG_N, crate::DEFAULT_SEED) {
            assert_eq!(
                iri_grammar::rfc3986::URI_REFERENCE.is_match(&s.text),
                s.intent == Intent::Valid
            );
        }
    }
}
