//! Percent-encoding (RFC 3986 §2.1): the public encode/decode helpers and
//! the decoder that URI → IRI conversion and normalization share.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use crate::Recognizer;

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Appends `%HH` for octet `b`, with uppercase hexadecimal digits (RFC 3986
/// §2.1: "should use uppercase hexadecimal digits").
pub(crate) fn push_pct(out: &mut String, b: u8) {
    out.push('%');
    out.push(char::from(HEX[usize::from(b >> 4)]));
    out.push(char::from(HEX[usize::from(b & 15)]));
}

fn hex_val(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// The octet of the `%HH` triplet that starts at `s[i]`, if one does.
pub(crate) fn triplet_at(s: &[u8], i: usize) -> Option<u8> {
    if s.get(i) != Some(&b'%') {
        return None;
    }
    let hi = hex_val(*s.get(i + 1)?)?;
    let lo = hex_val(*s.get(i + 2)?)?;
    Some(hi << 4 | lo)
}

/// Percent-encodes, as UTF-8 with uppercase hexadecimal digits, every
/// character of `text` that `rule` does not match as a one-character
/// string, every `%` (so that the result means the text, not
/// percent-encodings in it), and the bidi formatting characters that
/// RFC 3987 §4.1 forbids in IRIs although the grammar matches them.
///
/// `rule` is a component rule that is a repetition of single characters:
/// [`rfc3987::ISEGMENT`](crate::rfc3987::ISEGMENT) (what a path segment may
/// hold), [`rfc3987::IQUERY`](crate::rfc3987::IQUERY),
/// [`rfc3987::IFRAGMENT`](crate::rfc3987::IFRAGMENT),
/// [`rfc3987::IUSERINFO`](crate::rfc3987::IUSERINFO),
/// [`rfc3987::IREG_NAME`](crate::rfc3987::IREG_NAME), their RFC 3986
/// counterparts (which encode non-ASCII characters too), or
/// [`rfc3986::UNRESERVED`](crate::rfc3986::UNRESERVED) to encode all but
/// the unreserved characters.
///
/// ```
/// use iri_grammar::ops::percent_encode;
/// use iri_grammar::{rfc3986, rfc3987};
///
/// assert_eq!(percent_encode("a/b c%d?é", &rfc3987::ISEGMENT), "a%2Fb%20c%25d%3Fé");
/// assert_eq!(percent_encode("a/b c%d?é", &rfc3986::SEGMENT), "a%2Fb%20c%25d%3F%C3%A9");
/// assert_eq!(percent_encode("a=1&b", &rfc3986::UNRESERVED), "a%3D1%26b");
/// assert_eq!(percent_encode("\u{202E}", &rfc3987::ISEGMENT), "%E2%80%AE");
/// ```
pub fn percent_encode(text: &str, rule: &Recognizer) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c != '%' && !super::is_bidi_formatting(c) && super::char_matches(rule, c) {
            out.push(c);
        } else {
            for &b in c.encode_utf8(&mut [0; 4]).as_bytes() {
                push_pct(&mut out, b);
            }
        }
    }
    out
}

/// Decodes every `%HH` triplet of `text` to its octet; everything else,
/// including a `%` that does not start a triplet, is copied. The octets
/// need not be UTF-8 (`String::from_utf8` tells).
///
/// ```
/// use iri_grammar::ops::percent_decode;
///
/// assert_eq!(&*percent_decode("D%C3%BCrst"), "Dürst".as_bytes());
/// assert_eq!(&*percent_decode("r%E9sum%e9"), b"r\xE9sum\xE9");
/// assert_eq!(&*percent_decode("100%"), b"100%");
/// ```
pub fn percent_decode(text: &str) -> Cow<'_, [u8]> {
    let b = text.as_bytes();
    if !b.contains(&b'%') {
        return Cow::Borrowed(b);
    }
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if let Some(o) = triplet_at(b, i) {
            out.push(o);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Cow::Owned(out)
}

/// How [`recode`] writes a percent-encoded ASCII character it does not
/// decode.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeptAscii {
    /// As it was written (`%2f` stays `%2f`): URI → IRI conversion, which
    /// does not touch those (RFC 3987 §3.2 step 2).
    AsWritten,
    /// With uppercase hexadecimal digits: normalization (§5.3.2.1).
    Uppercase,
}

/// Appends `text` to `out`, decoding percent-encodings: each run of `%HH`
/// triplets is read as octets and split into UTF-8 characters; a character
/// for which `accept` says yes is written as itself; other characters and
/// octets that are not part of a strictly valid UTF-8 sequence (overlong
/// forms, surrogates, values above U+10FFFF, truncated sequences) are
/// written percent-encoded with uppercase hex, except ASCII characters
/// under [`KeptAscii::AsWritten`]. Text outside triplets is copied.
pub(crate) fn recode(text: &str, out: &mut String, kept: KeptAscii, accept: &dyn Fn(char) -> bool) {
    let b = text.as_bytes();
    let mut octets = Vec::new();
    let mut copied = 0;
    let mut i = 0;
    while i < b.len() {
        if triplet_at(b, i).is_none() {
            i += 1;
            continue;
        }
        out.push_str(&text[copied..i]);
        let start = i;
        octets.clear();
        while let Some(o) = triplet_at(b, i) {
            octets.push(o);
            i += 3;
        }
        decode_run(&text[start..i], &octets, out, kept, accept);
        copied = i;
    }
    out.push_str(&text[copied..]);
}

/// One run of triplets: `source` as written, `octets` decoded.
fn decode_run(source: &str, octets: &[u8], out: &mut String, kept: KeptAscii, accept: &dyn Fn(char) -> bool) {
    let mut pos = 0;
    for chunk in octets.utf8_chunks() {
        for c in chunk.valid().chars() {
            let n = c.len_utf8();
            if accept(c) {
                out.push(c);
            } else if c.is_ascii() && kept == KeptAscii::AsWritten {
                out.push_str(&source[3 * pos..3 * pos + 3]);
            } else {
                for &o in &octets[pos..pos + n] {
                    push_pct(out, o);
                }
            }
            pos += n;
        }
        for &o in chunk.invalid() {
            push_pct(out, o);
            pos += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, kept: KeptAscii) -> String {
        let mut out = String::new();
        recode(text, &mut out, kept, &|c| c.is_ascii_alphanumeric() || c == 'é');
        out
    }

    #[test]
    fn recode_runs() {
        assert_eq!(run("a%41%2f%c3%a9%FFz", KeptAscii::AsWritten), "aA%2fé%FFz");
        assert_eq!(run("a%41%2f%c3%a9%FFz", KeptAscii::Uppercase), "aA%2Fé%FFz");
        // A triplet at the very end, and a `%` that starts none.
        assert_eq!(run("%4", KeptAscii::Uppercase), "%4");
        assert_eq!(run("x%6", KeptAscii::Uppercase), "x%6");
        assert_eq!(run("%%41", KeptAscii::Uppercase), "%A");
        // Rejected characters are re-encoded whole.
        assert_eq!(run("%C3%BC", KeptAscii::AsWritten), "%C3%BC");
    }
}
