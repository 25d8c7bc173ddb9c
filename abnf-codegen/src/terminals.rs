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
pub(crate) fn directives(g: &Grammar, diags: &mut Vec<Diagnostic>) -> Vec<ModuleId> {
    let mut out = Vec::new();
    for (mi, m) in g.modules.iter().enumerate() {
        if mi == 0 {
            continue;
        }
        let text = &g.sources.get(m.file).text;
        for (line_span, words) in crate::syntax::directive_words(m.file, text, "@terminals") {
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
    out
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
