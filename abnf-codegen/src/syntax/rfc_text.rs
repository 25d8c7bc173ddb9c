//! ABNF read straight from an RFC as published (what IETF tooling calls
//! extraction): CRLF line endings, form feeds, page headers and footers that
//! fall in the middle of rules, prose and examples around the rules.
//!
//! The result keeps the RFC's line numbers and columns: every line that is
//! not part of a rule becomes a single space (which ABNF reads as white
//! space), so diagnostics point at the right line of the RFC. A rule that a
//! page break splits is joined because the page furniture in between turns
//! into white space.
//!
//! How a line is classified:
//! - a page footer (`... [Page 12]`) or header (`RFC 3986 ... January 2005`)
//!   is furniture;
//! - a rule starts with `name =` (or `=/`) followed by ABNF elements;
//! - a rule continues on lines indented deeper than its first line that
//!   start like a continuation (`/`, `[`, `(`, `)`, `]`, `;`, `"`, `%`) or
//!   follow an unclosed bracket, and hold nothing but ABNF elements;
//! - everything else is prose or an example.
//!
//! RFCs often define a rule in the text and again in a collected appendix:
//! a later definition with the same text is dropped, a different one is kept
//! (and then reported as a duplicate definition).

use std::collections::HashMap;

/// Extracted ABNF.
#[derive(Clone, Debug)]
pub struct Extracted {
    /// The text to parse: the RFC's lines, with every line that is not part
    /// of a rule blanked.
    pub text: String,
    /// Just the rules, one line per line of ABNF, a blank line between rules
    /// (what `abnf-codegen extract` prints).
    pub abnf: String,
    /// Number of rules found.
    pub rules: usize,
    /// The 0-based line of each kept rule's first line (rules are indented
    /// differently in different sections, so indentation cannot tell where
    /// one starts).
    pub starts: Vec<usize>,
    /// Lines that look like ABNF but hold a character ABNF does not have
    /// (`a = "x" | "y"`): each is skipped as prose, which would silently drop
    /// a rule or cut it short. The 0-based line, the byte offset of the
    /// character in it, and the character.
    pub stray: Vec<(usize, usize, char)>,
}

fn is_furniture(line: &str) -> bool {
    let t = line.trim_end();
    let footer = t.ends_with(']')
        && t.rfind("[Page ")
            .is_some_and(|i| t[i + 6..t.len() - 1].chars().all(|c| c.is_ascii_digit()));
    let header = t.starts_with("RFC ")
        && t.split_whitespace()
            .nth(1)
            .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()))
        && t.split_whitespace()
            .last()
            .is_some_and(|y| y.len() == 4 && y.chars().all(|c| c.is_ascii_digit()));
    footer || header
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

/// Whether `s` holds nothing but ABNF elements (a comment may end it).
fn abnf_elements(s: &str) -> bool {
    abnf_elements_or_stray(s) == Ok(true)
}

/// Where `s` stops being ABNF elements: `Err(offset)` of the first byte that
/// is not part of one (an unclosed string or prose is not a stray
/// character: `Err(len)`), else whether it held any element.
fn abnf_elements_or_stray(s: &str) -> Result<bool, usize> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut any = false;
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' => i += 1,
            // A comment ends the elements (a comment-only line continues a rule).
            b';' => return Ok(true),
            b'"' => match s[i + 1..].find('"') {
                Some(n) => {
                    i += n + 2;
                    any = true;
                }
                None => return Err(s.len()),
            },
            b'<' => match s[i + 1..].find('>') {
                Some(n) => {
                    i += n + 2;
                    any = true;
                }
                None => return Err(s.len()),
            },
            b'%' => {
                if !matches!(
                    b.get(i + 1),
                    Some(b'x' | b'X' | b'd' | b'D' | b'b' | b'B' | b's' | b'S' | b'i' | b'I')
                ) {
                    return Err(i);
                }
                i += 2;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.' || b[i] == b'-') {
                    i += 1;
                }
                any = true;
            }
            b'/' | b'(' | b')' | b'[' | b']' | b'*' => i += 1,
            c if c.is_ascii_alphanumeric() => {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'-') {
                    i += 1;
                }
                any = true;
            }
            _ => return Err(i),
        }
    }
    Ok(any || s.trim().starts_with(['/', ')', ']']))
}

/// `name = elements` (or `=/`): the name and the elements' text.
fn rule_start(line: &str) -> Option<(&str, &str)> {
    let t = line.trim_start();
    let name_len = t.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))?;
    if name_len == 0 || !t.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    let rest = t[name_len..].trim_start();
    let rest = rest.strip_prefix("=/").or_else(|| rest.strip_prefix('='))?;
    let body = rest.trim();
    // `result = ""` is pseudocode (RFC 3986 §5.3), not a grammar: no rule
    // defines the empty string alone.
    let pseudo = body == "\"\"";
    (!body.is_empty() && !pseudo && abnf_elements(body)).then_some((&t[..name_len], body))
}

fn brackets_open(s: &str) -> i32 {
    let mut depth = 0;
    let mut in_str = false;
    for c in s.chars() {
        match c {
            '"' => in_str = !in_str,
            ';' if !in_str => break,
            '(' | '[' if !in_str => depth += 1,
            ')' | ']' if !in_str => depth -= 1,
            _ => {}
        }
    }
    depth
}

/// A character that is a likely mistake in ABNF (another notation's
/// alternation, quotes, braces or separators), as opposed to the punctuation
/// of prose (`n = 5.`, `note: a = b`).
fn is_stray(c: char) -> bool {
    matches!(
        c,
        '|' | '\'' | '{' | '}' | '+' | '?' | '#' | '!' | '&' | '\\' | '^' | '~' | '`' | '$' | '@' | '\0'
    ) || c.is_control()
}

/// A line that starts like a rule (`name = ` at an RFC's indentation) or
/// like a continuation of `in_rule` and stops being ABNF at a stray
/// character: the character's byte offset.
fn stray_in(line: &str, in_rule: bool) -> Option<(usize, char)> {
    let lead = indent(line);
    let t = &line[lead..];
    let body_at = if in_rule && t.starts_with(['/', '[', '(', '"', '%']) {
        lead
    } else {
        let name_len = t.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))?;
        if lead < 2 || name_len == 0 || !t.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return None;
        }
        let rest = &t[name_len..];
        let after = rest.trim_start();
        let after_eq = after.strip_prefix("=/").or_else(|| after.strip_prefix('='))?;
        line.len() - after_eq.len()
    };
    let at = body_at + abnf_elements_or_stray(&line[body_at..]).err()?;
    let c = line[at..].chars().next()?;
    // Only after an element: `scheme = $2` is an example, not a rule.
    let after_element = !line[body_at..at].trim().is_empty();
    (after_element && is_stray(c)).then_some((at, c))
}

/// Extracts the ABNF rules of an RFC's text.
pub fn extract(rfc: &str) -> Extracted {
    let lines: Vec<String> = rfc
        .split('\n')
        .map(|l| l.trim_end_matches('\r').replace('\x0c', ""))
        .collect();
    let mut keep = vec![false; lines.len()];
    // Rules found: (name, first line, lines).
    let mut rules: Vec<(String, Vec<usize>)> = Vec::new();
    let mut stray = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some((name, _)) = rule_start(&lines[i]) else {
            stray.extend(stray_in(&lines[i], false).map(|(at, c)| (i, at, c)));
            i += 1;
            continue;
        };
        let base = indent(&lines[i]);
        // The column of the `=`: a continuation that starts with a rule
        // name (RFC 3261's `sent-protocol = protocol-name SLASH
        // protocol-version` / `SLASH transport`) must be indented past it.
        let eq_col = lines[i].find('=').unwrap_or(0);
        let mut members = vec![i];
        let mut open = brackets_open(&lines[i]);
        let mut j = i + 1;
        // Since the last line of the rule: a blank line, and page furniture.
        let (mut blank, mut page_break) = (false, false);
        while j < lines.len() {
            let l = &lines[j];
            if l.trim().is_empty() || is_furniture(l) {
                blank |= l.trim().is_empty();
                page_break |= is_furniture(l);
                j += 1;
                continue;
            }
            let t = l.trim_start();
            // A line of names is taken only right below the rule (or
            // across a page break), indented past its `=`, and when it
            // does not itself define a rule: prose indented that deep
            // after a blank line stays prose.
            let names = indent(l) > eq_col && (!blank || page_break) && rule_start(l).is_none();
            let continues = indent(l) > base
                && (open > 0 || t.starts_with(['/', '[', '(', ')', ']', ';', '"', '%']) || names)
                && abnf_elements(t);
            if !continues {
                if indent(l) > base {
                    stray.extend(stray_in(l, true).map(|(at, c)| (j, at, c)));
                }
                break;
            }
            open += brackets_open(l);
            (blank, page_break) = (false, false);
            members.push(j);
            j += 1;
        }
        rules.push((name.to_string(), members));
        i = j;
    }
    // Drop repeated definitions with the same text.
    let mut seen: HashMap<String, String> = HashMap::new();
    let mut count = 0;
    let mut starts = Vec::new();
    let mut abnf = String::new();
    for (name, members) in &rules {
        // The definition without comments and with white space folded.
        let text: String = members
            .iter()
            .flat_map(|&m| lines[m].split(';').next().unwrap_or("").split_whitespace())
            .collect::<Vec<_>>()
            .join(" ");
        let key = name.to_ascii_lowercase();
        if seen.get(&key) == Some(&text) {
            continue;
        }
        seen.insert(key, text);
        count += 1;
        starts.push(members[0]);
        let base = indent(&lines[members[0]]);
        for &m in members {
            keep[m] = true;
            abnf.push_str(&lines[m][base.min(indent(&lines[m]))..]);
            abnf.push('\n');
        }
        abnf.push('\n');
    }
    let last = lines.len() - 1;
    let text = lines
        .iter()
        .zip(&keep)
        .enumerate()
        .map(|(i, (l, &k))| match (k, i == last && l.is_empty()) {
            (true, _) => l.as_str(),
            // After the final newline: nothing, as in the RFC.
            (false, true) => "",
            (false, false) => " ",
        })
        .collect::<Vec<_>>()
        .join("\n");
    Extracted {
        text,
        abnf,
        rules: count,
        starts,
        stray,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_rules_across_page_breaks_and_skips_prose() {
        let rfc = "   Some prose = with words.\r\n\r\n   a = \"x\"\r\n       / b\r\n\r\nAuthor                  Standards Track                 [Page 7]\r\n\x0c\r\nRFC 9999                  Title                  January 2005\r\n\r\n       / \"c\"\r\n   b = %x41-5A ; letters\r\n\r\n   The end.\r\n";
        let e = extract(rfc);
        assert_eq!(e.rules, 2);
        assert_eq!(e.text.lines().count(), rfc.lines().count());
        assert!(e.abnf.contains("a = \"x\"\n    / b\n    / \"c\"\n"), "{}", e.abnf);
        assert!(!e.abnf.contains("prose"));
    }

    #[test]
    fn a_stray_character_after_an_element_is_reported() {
        let e = extract("   a = \"x\" | \"y\"\n   b = \"z\"\n       / \"w\" | \"v\"\n   scheme = $2\n");
        assert_eq!(e.stray, vec![(0, 11, '|'), (2, 13, '|')]);
        assert_eq!(e.rules, 1);
    }

    #[test]
    fn a_continuation_may_start_with_a_rule_name() {
        // RFC 3261 §25.1, as published (two rules around it).
        let rfc = "   via-extension     =  generic-param\r\n   sent-protocol     =  protocol-name SLASH protocol-version\r\n                        SLASH transport\r\n   protocol-name     =  \"SIP\" / token\r\n   Request        =  Request-Line\r\n                     *( message-header )\r\n                     CRLF\r\n                     [ message-body ]\r\n";
        let e = extract(rfc);
        assert_eq!(e.rules, 4);
        assert!(
            e.abnf.contains("sent-protocol     =  protocol-name SLASH protocol-version\n                     SLASH transport\n"),
            "{}",
            e.abnf
        );
        assert!(
            e.abnf.contains("*( message-header )\n                  CRLF\n"),
            "{}",
            e.abnf
        );
    }

    #[test]
    fn words_below_a_rule_after_a_blank_line_stay_prose() {
        let e = extract("   a = b\r\n\r\n         some words here\r\n   c = d\r\n");
        assert_eq!(e.rules, 2);
        assert!(!e.abnf.contains("words"), "{}", e.abnf);
    }

    #[test]
    fn pseudocode_is_not_a_rule() {
        let e = extract("      result = \"\"\n\n      if defined(scheme) then\n   a = \"x\"\n");
        assert_eq!(e.rules, 1);
        assert!(!e.abnf.contains("result"));
    }
}
