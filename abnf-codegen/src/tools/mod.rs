//! Views of a grammar for its authors: railroad diagrams, the minimized DFA
//! as Graphviz, and a rule explained (dependencies inlined, regularity).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use railroad::{
    Choice, Comment, Diagram, Empty, Node, NonTerminal, Optional, Repeat, Sequence, SimpleEnd, SimpleStart,
    Stylesheet, Terminal,
};

use crate::automata::Compact;
use crate::grammar::{Expr, Grammar, RuleId};

/// The rule as a railroad diagram (SVG, one line per element, no blank
/// lines, so it can sit inside Markdown).
pub fn diagram_svg(g: &Grammar, rule: RuleId) -> String {
    let body = node(g, &g.rule(rule).expr);
    let seq: Sequence<Box<dyn Node>> = Sequence::new(vec![Box::new(SimpleStart), body, Box::new(SimpleEnd)]);
    let svg = Diagram::new_with_stylesheet(seq, &Stylesheet::Light).to_string();
    svg.lines()
        .filter(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

fn node(g: &Grammar, e: &Expr) -> Box<dyn Node> {
    match e {
        Expr::Alt(es) => Box::new(Choice::new(es.iter().map(|e| node(g, e)).collect())),
        Expr::Concat(es) => Box::new(Sequence::new(es.iter().map(|e| node(g, e)).collect())),
        Expr::Repeat { min, max, expr } => {
            let inner = node(g, expr);
            match (min, max) {
                (0, Some(1)) => Box::new(Optional::new(inner)),
                (0, None) => Box::new(Optional::new(Repeat::new(inner, Empty))),
                (1, None) => Box::new(Repeat::new(inner, Empty)),
                (n, Some(m)) if n == m => Box::new(Repeat::new(inner, Comment::new(format!("{n} times")))),
                (0, Some(m)) => Box::new(Optional::new(Repeat::new(
                    inner,
                    Comment::new(format!("at most {m}")),
                ))),
                (n, None) => Box::new(Repeat::new(inner, Comment::new(format!("at least {n}")))),
                (n, Some(m)) => Box::new(Repeat::new(inner, Comment::new(format!("{n} to {m} times")))),
            }
        }
        Expr::Ref(id, _) => Box::new(NonTerminal::new(g.rule(*id).name.clone())),
        Expr::Str { text, case_sensitive } => {
            let prefix = if *case_sensitive { "%s" } else { "" };
            Box::new(Terminal::new(format!("{prefix}\"{text}\"")))
        }
        Expr::Range(lo, hi, _) => Box::new(Terminal::new(range_label(*lo, *hi))),
    }
}

/// `'a'-'z'`, `U+00A0-U+D7FF`: a code point range as people read it.
fn range_label(lo: u32, hi: u32) -> String {
    let one = |v: u32| match char::from_u32(v) {
        Some(c) if (0x21..0x7F).contains(&v) => format!("'{c}'"),
        _ => format!("U+{v:04X}"),
    };
    if lo == hi {
        one(lo)
    } else {
        format!("{}-{}", one(lo), one(hi))
    }
}

/// A set of bytes as a readable character class: `[%0-9A-Za-z]`, `\x80-\xBF`.
pub fn byte_set_label(bytes: &[u8]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    let show = |b: u8| -> String {
        match b {
            b'"' => "\\\"".into(),
            b'\\' => "\\\\".into(),
            b'-' | b'[' | b']' => format!("\\{}", b as char),
            0x21..=0x7E => (b as char).to_string(),
            _ => format!("\\x{b:02X}"),
        }
    };
    while i < bytes.len() {
        let start = bytes[i];
        let mut end = start;
        while i + 1 < bytes.len() && bytes[i + 1] == end.wrapping_add(1) {
            i += 1;
            end = bytes[i];
        }
        parts.push(match end - start {
            0 => show(start),
            1 => format!("{}{}", show(start), show(end)),
            _ => format!("{}-{}", show(start), show(end)),
        });
        i += 1;
    }
    let s = parts.concat();
    if bytes.len() == 1 {
        s
    } else {
        format!("[{s}]")
    }
}

/// The rule's minimized DFA as Graphviz: one node per live state (double
/// circles where the input may end), one edge per target with the bytes that
/// lead there as a character class.
pub fn dfa_dot(name: &str, dfa: &Compact) -> String {
    let a = dfa.alphabet;
    let mut out = String::new();
    let _ = writeln!(out, "digraph \"{}\" {{", name.replace('"', "\\\""));
    let _ = writeln!(
        out,
        "  rankdir=LR;\n  node [shape=circle, fontname=\"monospace\"];\n  edge [fontname=\"monospace\"];"
    );
    let _ = writeln!(
        out,
        "  start [shape=point];\n  start -> s{};",
        dfa.start as usize / a
    );
    for s in 1..dfa.states() {
        let shape = if dfa.accept[s] { "doublecircle" } else { "circle" };
        let _ = writeln!(out, "  s{s} [shape={shape}, label=\"{s}\"];");
        let mut by_target: BTreeMap<usize, Vec<u8>> = BTreeMap::new();
        for b in 0..=255u8 {
            let t = dfa.trans[s * a + dfa.classes[b as usize] as usize] as usize / a;
            if t != 0 {
                by_target.entry(t).or_default().push(b);
            }
        }
        for (t, bytes) in by_target {
            let label = byte_set_label(&bytes).replace('\\', "\\\\").replace('"', "\\\"");
            let _ = writeln!(out, "  s{s} -> s{t} [label=\"{label}\"];");
        }
    }
    out.push_str("}\n");
    out
}

/// The rule's ABNF with every reference replaced by the referenced rule's
/// body, as far as `budget` characters allow (deeper references stay names).
pub fn inline(g: &Grammar, rule: RuleId, budget: usize) -> String {
    // Inline breadth-first: each round replaces the references of the
    // previous round, as long as the text stays within the budget.
    let mut depth = 0;
    let mut best = show(g, &g.rule(rule).expr, 0, &mut Vec::new());
    loop {
        depth += 1;
        let next = show(g, &g.rule(rule).expr, depth, &mut vec![rule]);
        if next.len() > budget || next == best || depth > 32 {
            return best;
        }
        best = next;
    }
}

/// An expression written as ABNF, references by name (`"+" / "-"`).
pub fn abnf_text(g: &Grammar, e: &Expr) -> String {
    show(g, e, 0, &mut Vec::new())
}

fn show(g: &Grammar, e: &Expr, depth: usize, stack: &mut Vec<RuleId>) -> String {
    let paren = |s: String, e: &Expr| match e {
        Expr::Alt(es) | Expr::Concat(es) if es.len() > 1 => format!("( {s} )"),
        _ => s,
    };
    match e {
        Expr::Alt(es) => es
            .iter()
            .map(|e| show(g, e, depth, stack))
            .collect::<Vec<_>>()
            .join(" / "),
        Expr::Concat(es) => es
            .iter()
            .map(|e| {
                let s = show(g, e, depth, stack);
                if matches!(e, Expr::Alt(v) if v.len() > 1) {
                    format!("( {s} )")
                } else {
                    s
                }
            })
            .collect::<Vec<_>>()
            .join(" "),
        Expr::Repeat { min, max, expr } => {
            let inner = paren(show(g, expr, depth, stack), expr);
            match (min, max) {
                (0, Some(1)) => format!("[ {} ]", show(g, expr, depth, stack)),
                (0, None) => format!("*{inner}"),
                (n, None) => format!("{n}*{inner}"),
                (n, Some(m)) if n == m => format!("{n}{inner}"),
                (0, Some(m)) => format!("*{m}{inner}"),
                (n, Some(m)) => format!("{n}*{m}{inner}"),
            }
        }
        Expr::Ref(id, _) => {
            if depth == 0 || stack.contains(id) {
                g.rule(*id).name.clone()
            } else {
                stack.push(*id);
                let s = show(g, &g.rule(*id).expr, depth - 1, stack);
                stack.pop();
                paren(s, &g.rule(*id).expr)
            }
        }
        Expr::Str { text, case_sensitive } => {
            format!("{}\"{text}\"", if *case_sensitive { "%s" } else { "" })
        }
        Expr::Range(lo, hi, _) if lo == hi => format!("%x{lo:X}"),
        Expr::Range(lo, hi, _) => format!("%x{lo:X}-{hi:X}"),
    }
}

/// The Rust types the typed tree of `rule` (of spec `grammar`) gets in a
/// build like `c`'s, as their declarations (fields and variants, without
/// docs or methods): the rule's type, its list item types, then the types
/// of the rules its fields hold, each once. `None` when the rule has no
/// type (it is a leaf: `&str`, or `&[u8]` for octets).
pub fn types_outline(c: &crate::Compiled, grammar: &str, rule: &str) -> Option<String> {
    use crate::typed::{Card, Field, Shape};
    let g = &c.grammar;
    let m = g.module_by_name(grammar)?;
    let id = g.module(m).get(rule)?;
    let (_, model) = c.typed.models.iter().find(|(mm, _)| *mm == m)?;
    model.get(id)?;
    let octets = g.octets.contains(&m);
    let text = if octets { "&'a [u8]" } else { "&'a str" };
    // The trees of a rule with a stack hold their lists as vectors, and
    // their parts with a stack as `Nested` (parsed on demand).
    let stack = c.typed.tree_of(id).is_some();
    let field_type = |f: &Field| {
        let item = match (&f.item, f.rule) {
            (Some(item), _) => format!("{}<'a>", item.name),
            (None, Some(r)) => match model.get(r) {
                Some(t)
                    if c.typed.is_nested(r)
                        && (g.rule(r).module == m || g.octets.contains(&g.rule(r).module) == octets) =>
                {
                    if octets {
                        format!("Nested<'a, {}<'a>, [u8]>", t.name)
                    } else {
                        format!("Nested<'a, {}<'a>>", t.name)
                    }
                }
                Some(t) if g.rule(r).module == m || g.octets.contains(&g.rule(r).module) == octets => {
                    format!("{}<'a>", t.name)
                }
                _ => text.to_string(),
            },
            (None, None) => text.to_string(),
        };
        match f.card {
            Card::One => item,
            Card::Optional => format!("Option<{item}>"),
            Card::Many if stack => format!("Vec<{item}>"),
            Card::Many if octets => format!("List<'a, {item}, [u8]>"),
            Card::Many => format!("List<'a, {item}>"),
        }
    };
    let mut out = String::new();
    let mut seen = std::collections::HashSet::new();
    // (type name, shape, the rule or list it comes from)
    let mut pending: Vec<(String, &Shape, String)> = Vec::new();
    let ty = model.get(id)?;
    pending.push((ty.name.clone(), &ty.shape, format!("rule `{}`", g.rule(id).name)));
    let mut next = 0;
    while next < pending.len() {
        let (name, shape, from) = pending[next].clone();
        next += 1;
        if !seen.insert(name.clone()) {
            continue;
        }
        let fields = crate::typed::shape_fields(shape);
        let _ = writeln!(out, "/// {from}\npub struct {name}<'a> {{");
        let _ = writeln!(out, "    pub span: Span,\n    pub text: {text},");
        match shape {
            Shape::Enum(vs) => {
                let _ = writeln!(out, "    pub kind: {name}Kind<'a>,\n}}");
                let _ = writeln!(out, "pub enum {name}Kind<'a> {{");
                for v in vs {
                    match v.fields.as_slice() {
                        [] => {
                            let _ = writeln!(out, "    {},", v.name);
                        }
                        [f] => {
                            let _ = writeln!(out, "    {}({}),", v.name, field_type(f));
                        }
                        fs => {
                            let parts: Vec<String> = fs
                                .iter()
                                .map(|f| format!("{}: {}", f.name, field_type(f)))
                                .collect();
                            let _ = writeln!(out, "    {} {{ {} }},", v.name, parts.join(", "));
                        }
                    }
                }
                let _ = writeln!(out, "}}");
            }
            _ => {
                for f in &fields {
                    let _ = writeln!(out, "    pub {}: {},", f.name, field_type(f));
                }
                let _ = writeln!(out, "}}");
            }
        }
        for f in fields {
            if let Some(item) = &f.item {
                pending.push((
                    item.name.clone(),
                    &item.shape,
                    format!(
                        "one item of `{name}::{}`: `{}`",
                        f.name,
                        abnf_text(g, f.element.as_ref()?)
                    ),
                ));
            } else if let Some(t) = f.rule.and_then(|r| model.get(r)) {
                pending.push((
                    t.name.clone(),
                    &t.shape,
                    format!("rule `{}`", g.rule(t.rule).name),
                ));
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_sets_read_like_classes() {
        assert_eq!(byte_set_label(b"%"), "%");
        let mut v: Vec<u8> = (b'0'..=b'9').chain(b'A'..=b'Z').collect();
        v.push(b'-');
        v.sort();
        assert_eq!(byte_set_label(&v), "[\\-0-9A-Z]");
        assert_eq!(byte_set_label(&[0x80, 0x81, 0x82]), "[\\x80-\\x82]");
    }
}
