//! Byte-transparent input and output for the command line (`match`,
//! `sample`): records split on newlines (the default), NUL-terminated
//! records (`-0`), or JSON lines (`--json`), so that rules whose strings
//! hold CR, LF or any byte (HTTP messages, SDP lines, SMTP commands) can be
//! tried from a shell.

/// How records are framed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Framing {
    /// One record per line, split on `\n` only (a final `\n` ends the last
    /// record). Records cannot hold a line feed.
    #[default]
    Lines,
    /// Records terminated (or separated) by NUL bytes; any other byte is
    /// data.
    Nul,
    /// One JSON string literal per line (`"GET / HTTP/1.1\r\n"`); empty
    /// lines are skipped. JSON strings hold text: every character (escaped
    /// or not, `\u00e9` included) stands for its UTF-8 bytes, except the
    /// lone low surrogates `\udc80`-`\udcff`, which stand for the single
    /// bytes 0x80-0xFF that are not part of valid UTF-8 (Python's
    /// "surrogateescape", PEP 383). So any bytes round-trip:
    /// [`json_string`] writes them so and [`parse_json_string`] reads them
    /// back.
    Json,
}

/// A record that is not a JSON string: its 1-based line and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadRecord {
    /// 1-based line of the input.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Splits `input` into records.
pub fn split(input: &[u8], framing: Framing) -> Result<Vec<Vec<u8>>, BadRecord> {
    match framing {
        Framing::Lines | Framing::Nul => {
            let sep = if framing == Framing::Nul { 0 } else { b'\n' };
            if input.is_empty() {
                return Ok(Vec::new());
            }
            let body = input.strip_suffix(&[sep]).unwrap_or(input);
            Ok(body.split(|&b| b == sep).map(<[u8]>::to_vec).collect())
        }
        Framing::Json => {
            let mut out = Vec::new();
            for (i, line) in input.split(|&b| b == b'\n').enumerate() {
                let line = line.strip_suffix(b"\r").unwrap_or(line);
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                let text = std::str::from_utf8(line).map_err(|_| BadRecord {
                    line: i + 1,
                    message: "not UTF-8".into(),
                })?;
                out.push(
                    parse_json_string(text.trim()).map_err(|message| BadRecord { line: i + 1, message })?,
                );
            }
            Ok(out)
        }
    }
}

/// The bytes of one JSON string literal.
pub fn parse_json_string(s: &str) -> Result<Vec<u8>, String> {
    let inner = s
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .filter(|_| s.len() >= 2)
        .ok_or("expected a JSON string in double quotes")?;
    let mut out = Vec::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Err("unescaped `\"` inside the string".into()),
            '\\' => {
                let e = chars.next().ok_or("`\\` at the end of the string")?;
                let c = match e {
                    '"' => '"',
                    '\\' => '\\',
                    '/' => '/',
                    'b' => '\u{8}',
                    'f' => '\u{c}',
                    'n' => '\n',
                    'r' => '\r',
                    't' => '\t',
                    'u' => {
                        let hi = hex4(&mut chars)?;
                        // A lone `\udc80`-`\udcff`: one byte that is not
                        // UTF-8 (see `Framing::Json`).
                        if (0xDC80..=0xDCFF).contains(&hi) {
                            out.push((hi - 0xDC00) as u8);
                            continue;
                        }
                        let cp = if (0xD800..0xDC00).contains(&hi) {
                            if chars.next() != Some('\\') || chars.next() != Some('u') {
                                return Err(format!("`\\u{hi:04X}` is a lone high surrogate"));
                            }
                            let lo = hex4(&mut chars)?;
                            if !(0xDC00..0xE000).contains(&lo) {
                                return Err(format!("`\\u{lo:04X}` does not complete a surrogate pair"));
                            }
                            0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                        } else {
                            hi
                        };
                        char::from_u32(cp).ok_or_else(|| format!("`\\u{cp:04X}` is a lone low surrogate"))?
                    }
                    other => return Err(format!("unknown escape `\\{other}`")),
                };
                let mut buf = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
            c if (c as u32) < 0x20 => {
                return Err(format!("control character U+{:04X} must be escaped", c as u32))
            }
            c => {
                let mut buf = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
    Ok(out)
}

fn hex4(chars: &mut std::str::Chars<'_>) -> Result<u32, String> {
    let digits: String = chars.take(4).collect();
    if digits.len() != 4 || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!("`\\u{digits}` needs four hex digits"));
    }
    Ok(u32::from_str_radix(&digits, 16).expect("checked hex digits"))
}

/// `bytes` as a JSON string literal: UTF-8 text as is (quotes, backslashes
/// and control characters escaped); a byte that is not part of valid UTF-8
/// as the lone surrogate `\udcXX` (JSON has no byte strings; see
/// [`Framing::Json`]), which [`parse_json_string`] reads back as that byte.
/// Lossless for any bytes.
pub fn json_string(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if (c as u32) < 0x20 || c == '\u{7F}' => out.push_str(&format!("\\u{:04x}", c as u32)),
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\udc{:02x}", b));
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framings() {
        assert_eq!(
            split(b"a\nb\n", Framing::Lines).unwrap(),
            [b"a".to_vec(), b"b".to_vec()]
        );
        assert_eq!(
            split(b"GET / HTTP/1.1\r\n\0x\ny\0", Framing::Nul).unwrap(),
            [b"GET / HTTP/1.1\r\n".to_vec(), b"x\ny".to_vec()]
        );
        assert_eq!(
            split(b"\"a\\r\\nb\"\n\n\"\\u00e9\\ud834\\udd1e\"\n", Framing::Json).unwrap(),
            [b"a\r\nb".to_vec(), "é𝄞".as_bytes().to_vec()]
        );
        let bad = split(b"\"ok\"\nnope\n", Framing::Json).unwrap_err();
        assert_eq!(bad.line, 2);
        assert!(split(b"\"\\ud834\"", Framing::Json).is_err());
        assert!(split(b"\"a\tb\"", Framing::Json).is_err());
    }

    #[test]
    fn json_round_trip() {
        for s in ["", "a\"b\\c", "line\r\n", "\u{1}\u{7f}é𝄞"] {
            assert_eq!(
                parse_json_string(&json_string(s.as_bytes())).unwrap(),
                s.as_bytes()
            );
        }
        assert_eq!(json_string(b"\xff"), "\"\\udcff\"");
    }

    /// Issue 26: `sample --json` of an octet rule wrote byte 0xE9 as
    /// `\u00e9`, which reads back as the two bytes of `é`.
    #[test]
    fn bytes_that_are_not_utf8_round_trip() {
        for bytes in [
            &b"\xe9"[..],
            b"a\xff\x80b",
            b"\xc3",
            "é".as_bytes(),
            b"\xed\xb2\x80",
        ] {
            let json = json_string(bytes);
            assert_eq!(parse_json_string(&json).unwrap(), bytes, "{json}");
        }
        assert_eq!(json_string(b"\xe9"), "\"\\udce9\"");
        // `\u00e9` is still the character `é`.
        assert_eq!(parse_json_string("\"\\u00e9\"").unwrap(), "é".as_bytes());
        // Other lone low surrogates are errors.
        assert!(parse_json_string("\"\\udc7f\"").is_err());
    }
}
