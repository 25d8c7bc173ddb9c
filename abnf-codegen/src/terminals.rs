//! Terminal encoding: `; @terminals octets` (or [`crate::Config::octets`]).
//!
//! By default a terminal value (`%xA0-D7FF`) is a Unicode code point,
//! matched as its UTF-8 bytes: right for RFC 3987's `ucschar`. Byte
//! protocols mean octets: RFC 9110's `obs-text = %x80-FF`, RFC 3629's
//! `UTF8-tail`, IMAP's `CHAR8`. In a spec file marked
//! `; @terminals octets`, each value is one byte (values above `%xFF` are
//! errors), so RFC 3629's `UTF8-octets` accepts `héllo` as UTF-8 and
//! rejects mojibake. The recognizers, the oracle
//! ([`crate::oracle::Oracle::matches_bytes`]) and the sampler
//! ([`crate::sample::Sampler::sample_bytes`]) follow the choice; recognizers
//! of such rules are run on `&[u8]` (`is_match_bytes`, `validate_bytes`).

use crate::diagnostic::{Code, Diagnostic, Span};
use crate::grammar::{Expr, Grammar, ModuleId};

/// The `; @terminals octets` lines of every spec file (imported ones too:
/// the encoding belongs to the file); errors for other values.
///
/// Also warns about spec files that say nothing (no `@terminals` line) but
/// use values in `%x80-FF` and none above `%xFF` ([`unstated_octets`]),
/// unless `config_octets` names them.
pub(crate) fn directives(
    g: &Grammar,
    config_octets: &[String],
    diags: &mut Vec<Diagnostic>,
) -> Vec<ModuleId> {
    let mut out = Vec::new();
    let mut stated = Vec::new();
    for (mi, m) in g.modules.iter().enumerate() {
        if mi == 0 {
            continue;
        }
        let text = &g.sources.get(m.file).text;
        for (line_span, words) in crate::syntax::directive_words(m.file, text, "@terminals") {
            stated.push(ModuleId(mi as u32));
            let arg = words.iter().map(|(w, _)| *w).collect::<Vec<_>>().join(" ");
            let arg_span = match (words.first(), words.last()) {
                (Some((_, first)), Some((_, last))) => Span::new(m.file, first.start..last.end),
                _ => Span::new(m.file, line_span.end..line_span.end),
            };
            match arg.as_str() {
                "octets" => out.push(ModuleId(mi as u32)),
                "code-points" => {}
                _ => diags.push(
                    Diagnostic::error(
                        Code::Directive,
                        format!("`@terminals` is `octets` or `code-points`, not `{arg}`"),
                        Some(arg_span),
                    )
                    .with_label("unknown encoding")
                    .with_note("write `; @terminals octets` for a byte-oriented protocol"),
                ),
            }
        }
    }
    for (mi, m) in g.modules.iter().enumerate().skip(1) {
        if m.root && !stated.contains(&ModuleId(mi as u32)) && !config_octets.contains(&m.name) {
            diags.extend(unstated_octets(g, ModuleId(mi as u32)));
        }
    }
    out
}

/// The warning for a spec file that does not say `@terminals` but whose
/// values look like bytes: some in `%x80-FF` and none above `%xFF`. By
/// default they are code points, so `obs-text = %x80-FF` matches
/// U+0080-U+00FF as two-byte UTF-8 and rejects the single bytes an HTTP
/// message holds. At the first such value.
fn unstated_octets(g: &Grammar, m: ModuleId) -> Option<Diagnostic> {
    let mut first: Option<(Span, u32, u32, &str)> = None;
    let mut above = false;
    for &id in &g.module(m).defined {
        let rule = g.rule(id);
        let mut stack = vec![&rule.expr];
        while let Some(e) = stack.pop() {
            match e {
                Expr::Alt(es) | Expr::Concat(es) => stack.extend(es.iter().rev()),
                Expr::Repeat { expr, .. } => stack.push(expr),
                Expr::Range(lo, hi, span) => {
                    above |= *hi > 0xFF;
                    if *hi >= 0x80 && *lo <= 0xFF && first.is_none() {
                        first = Some((*span, *lo, *hi, &rule.name));
                    }
                }
                _ => {}
            }
        }
    }
    let (span, lo, hi, rule) = first.filter(|_| !above)?;
    let (lo, hi) = (lo.max(0x80), hi.min(0xFF));
    let values = if lo == hi {
        format!("%x{lo:X}")
    } else {
        format!("%x{lo:X}-{hi:X}")
    };
    Some(
        Diagnostic::warning(
            Code::Encoding,
            format!(
                "`{rule}` uses {values}, which by default are the characters U+{lo:04X}-U+{hi:04X}, \
                 matched as two UTF-8 bytes each, not single bytes"
            ),
            Some(span),
        )
        .with_label("characters, not bytes")
        .with_note(
            "the spec does not say `@terminals` and no value in it is above %xFF; if its terminals are \
             bytes (HTTP's `obs-text`, IMAP's `CHAR8`), add the line `; @terminals octets`",
        )
        .with_note("if it means characters, add `; @terminals code-points` to say so"),
    )
}

/// Marks `modules` as octet-based and checks their terminals: values are
/// bytes, quoted strings ASCII.
pub(crate) fn apply(g: &mut Grammar, modules: &[ModuleId], diags: &mut Vec<Diagnostic>) {
    for &m in modules {
        if g.octets.contains(&m) {
            continue;
        }
        g.octets.push(m);
        for &id in &g.module(m).defined {
            check(&g.rule(id).expr, g.rule(id).name_span, diags);
        }
    }
}

fn check(e: &Expr, rule_span: Span, diags: &mut Vec<Diagnostic>) {
    match e {
        Expr::Alt(es) | Expr::Concat(es) => es.iter().for_each(|e| check(e, rule_span, diags)),
        Expr::Repeat { expr, .. } => check(expr, rule_span, diags),
        Expr::Range(_, hi, span) if *hi > 0xFF => diags.push(
            Diagnostic::error(
                Code::NotAnOctet,
                format!("%x{hi:X} is not an octet: this spec's terminals are bytes (`@terminals octets`)"),
                Some(*span),
            )
            .with_label("above %xFF")
            .with_note("write the character as its UTF-8 bytes (`%xC3.A9` for `é`)"),
        ),
        Expr::Str { text, .. } if !text.is_ascii() => diags.push(
            Diagnostic::error(
                Code::NotAnOctet,
                format!("quoted string {text:?} is not ASCII, and this spec's terminals are bytes (`@terminals octets`)"),
                Some(rule_span),
            )
            .with_label("in this rule")
            .with_note("write non-ASCII bytes as numeric values (`%xC3.A9`)"),
        ),
        _ => {}
    }
}

/// Whether a capture group of `hir` (a typed tree's field or variant, an
/// `@components` field) can start or end inside a multi-byte UTF-8
/// character of a valid UTF-8 input: where the bytes after its start or
/// its end can begin with a continuation byte (`%x80-BF`). Typed trees and
/// components hand out their fields as `&str`, which must not split a
/// character; in a spec whose terminals are octets, `UTF8-2 = %xC2-DF
/// UTF8-tail` would make the field `UTF8-tail` one byte of a character.
/// Conservative: it looks at which bytes can follow, not at whether the
/// input around them is valid UTF-8.
pub(crate) fn splits_characters(hir: &regex_syntax::hir::Hir) -> bool {
    let mut found = false;
    walk(hir, Bytes::default(), &mut found);
    found
}

/// A set of bytes.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Bytes([u64; 4]);

impl Bytes {
    fn add_range(&mut self, lo: u8, hi: u8) {
        for b in lo..=hi {
            self.0[b as usize / 64] |= 1 << (b % 64);
        }
    }

    fn union(self, o: Bytes) -> Bytes {
        Bytes(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }

    /// Holds a UTF-8 continuation byte.
    fn continuation(self) -> bool {
        // 0x80..=0xBF: bits 0..64 of word 2.
        self.0[2] != 0
    }
}

/// The bytes a match of `hir` can start with, and whether it can be empty.
fn first(hir: &regex_syntax::hir::Hir) -> (Bytes, bool) {
    use regex_syntax::hir::{Class, HirKind};
    let mut set = Bytes::default();
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => (set, true),
        HirKind::Literal(l) => {
            set.add_range(l.0[0], l.0[0]);
            (set, l.0.is_empty())
        }
        HirKind::Class(Class::Bytes(c)) => {
            c.ranges().iter().for_each(|r| set.add_range(r.start(), r.end()));
            (set, false)
        }
        HirKind::Class(Class::Unicode(c)) => {
            // Code points start with their first UTF-8 byte, never a
            // continuation byte.
            for r in c.ranges() {
                let mut buf = [0; 4];
                let lo = r.start().encode_utf8(&mut buf).as_bytes()[0];
                let hi = r.end().encode_utf8(&mut buf).as_bytes()[0];
                set.add_range(lo, hi);
            }
            (set, false)
        }
        HirKind::Repetition(r) => {
            let (s, e) = first(&r.sub);
            (s, e || r.min == 0)
        }
        HirKind::Capture(c) => first(&c.sub),
        HirKind::Concat(subs) => {
            for s in subs {
                let (f, e) = first(s);
                set = set.union(f);
                if !e {
                    return (set, false);
                }
            }
            (set, true)
        }
        HirKind::Alternation(subs) => {
            let mut empty = false;
            for s in subs {
                let (f, e) = first(s);
                set = set.union(f);
                empty |= e;
            }
            (set, empty)
        }
    }
}

/// Walks `hir`, which `follow` can follow, marking `found` at a capture
/// whose start or end a continuation byte can follow.
fn walk(hir: &regex_syntax::hir::Hir, follow: Bytes, found: &mut bool) {
    use regex_syntax::hir::HirKind;
    if *found {
        return;
    }
    match hir.kind() {
        HirKind::Capture(c) => {
            let (f, e) = first(&c.sub);
            let start = if e { f.union(follow) } else { f };
            if start.continuation() || follow.continuation() {
                *found = true;
                return;
            }
            walk(&c.sub, follow, found);
        }
        HirKind::Concat(subs) => {
            let mut after = follow;
            for s in subs.iter().rev() {
                walk(s, after, found);
                let (f, e) = first(s);
                after = if e { f.union(after) } else { f };
            }
        }
        HirKind::Alternation(subs) => subs.iter().for_each(|s| walk(s, follow, found)),
        HirKind::Repetition(r) => {
            let again = r.max.is_none_or(|m| m > 1);
            let after = if again {
                first(&r.sub).0.union(follow)
            } else {
                follow
            };
            walk(&r.sub, after, found);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use regex_syntax::hir::{Capture, Hir};

    use super::splits_characters;

    fn cap(index: u32, sub: Hir) -> Hir {
        Hir::capture(Capture {
            index,
            name: None,
            sub: Box::new(sub),
        })
    }

    fn bytes(lo: u8, hi: u8) -> Hir {
        use regex_syntax::hir::{Class, ClassBytes, ClassBytesRange};
        Hir::class(Class::Bytes(ClassBytes::new([ClassBytesRange::new(lo, hi)])))
    }

    #[test]
    fn a_field_inside_a_character_splits_it() {
        // UTF8-2 = %xC2-DF UTF8-tail, with UTF8-tail a field.
        assert!(splits_characters(&Hir::concat(vec![
            bytes(0xC2, 0xDF),
            cap(1, bytes(0x80, 0xBF))
        ])));
        // The lead byte alone as a field ends inside the character.
        assert!(splits_characters(&Hir::concat(vec![
            cap(1, bytes(0xC2, 0xDF)),
            bytes(0x80, 0xBF)
        ])));
        // A whole character as a field, or ASCII around it, does not.
        let utf8_2 = Hir::concat(vec![bytes(0xC2, 0xDF), bytes(0x80, 0xBF)]);
        assert!(!splits_characters(&Hir::concat(vec![
            cap(1, utf8_2.clone()),
            cap(2, Hir::literal(*b"a")),
            Hir::repetition(regex_syntax::hir::Repetition {
                min: 0,
                max: None,
                greedy: true,
                sub: Box::new(cap(3, utf8_2)),
            }),
        ])));
    }
}
