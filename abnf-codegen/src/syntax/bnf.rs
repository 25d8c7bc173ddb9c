//! The older BNF of RFC 2396 and RFC 1738 (RFC 822's notation, §2):
//! `|` separates alternatives, `[ ]` is optional, `*` repeats (`*[ x ]` is
//! zero or more `x`), `<">` is the double quote, and rule names may hold `_`
//! and `+` (`hier_part`, `gopher+_string`). Quoted strings are matched
//! ignoring ASCII case, as in ABNF (RFC 1738 §5: "interpreters should use
//! case-ignore"; both grammars spell out upper and lower case where case
//! matters to them).
//!
//! A rule is parsed straight into the same AST the `abnf` crate produces, so
//! the rest of the pipeline does not know which notation a rule came from.

use abnf::types::{Node, Repeat};

use super::lexer::{Tok, TokKind};
use super::RuleDef;
use crate::diagnostic::{Code, Diagnostic, FileId, Span};

#[derive(Clone, Debug, PartialEq)]
enum T {
    Name(String),
    Str(String),
    Prose(String),
    Repeat(Option<usize>, Option<usize>),
    Open(char),
    Close(char),
    Bar,
}

struct Parser<'a> {
    file: FileId,
    toks: Vec<(T, usize, usize)>,
    pos: usize,
    out: Vec<Tok>,
    rule: &'a str,
    end: usize,
    depth: usize,
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '+')
}

/// Parses one rule of the older notation; `range` is the rule's text in the
/// file.
pub(crate) fn parse_rule(
    file: FileId,
    text: &str,
    range: std::ops::Range<usize>,
) -> Result<RuleDef, Box<Diagnostic>> {
    let chunk = &text[range.clone()];
    let base = range.start;
    let err = |at: usize, len: usize, msg: String, label: &str| {
        Box::new(
            Diagnostic::error(
                Code::Syntax,
                msg,
                Some(Span::new(file, base + at..base + at + len)),
            )
            .with_label(label),
        )
    };
    let lead = chunk.len() - chunk.trim_start().len();
    let name_len = chunk[lead..]
        .find(|c: char| !is_name_char(c))
        .unwrap_or(chunk.len() - lead);
    if name_len == 0 || !chunk[lead..].starts_with(|c: char| c.is_ascii_alphabetic()) {
        return Err(err(
            lead,
            1,
            "expected a rule name".into(),
            "a rule name starts with a letter",
        ));
    }
    let name = &chunk[lead..lead + name_len];
    let mut i = lead + name_len;
    i += chunk[i..].len() - chunk[i..].trim_start_matches([' ', '\t']).len();
    if !chunk[i..].starts_with('=') {
        return Err(err(
            i,
            1,
            format!("expected `=` after the rule name `{name}`"),
            "expected `=` here",
        ));
    }
    i += 1;

    // Tokens.
    let mut toks = Vec::new();
    let bytes = chunk.as_bytes();
    while i < chunk.len() {
        let c = chunk[i..].chars().next().expect("in bounds");
        let start = i;
        match c {
            ' ' | '\t' | '\r' | '\n' => i += 1,
            ';' => i = chunk[i..].find('\n').map_or(chunk.len(), |n| i + n),
            '"' => {
                // Up to the closing quote or the end of the line, whichever
                // comes first (not the whole line: a long line of strings
                // would be rescanned once per string).
                let Some(close) = super::find_on_line(&chunk[i + 1..], '"') else {
                    return Err(err(
                        i,
                        1,
                        "unterminated quoted string".into(),
                        "no closing `\"` on this line",
                    ));
                };
                toks.push((
                    T::Str(chunk[i + 1..i + 1 + close].to_string()),
                    start,
                    i + close + 2,
                ));
                i += close + 2;
            }
            '<' => {
                let Some(close) = super::find_on_line(&chunk[i + 1..], '>') else {
                    return Err(err(
                        i,
                        1,
                        "unterminated `<...>`".into(),
                        "no closing `>` on this line",
                    ));
                };
                let inner = &chunk[i + 1..i + 1 + close];
                // `<">` is RFC 822's way of writing the double quote.
                let t = if inner == "\"" {
                    T::Str("\"".into())
                } else {
                    T::Prose(inner.into())
                };
                toks.push((t, start, i + close + 2));
                i += close + 2;
            }
            '(' | '[' => {
                toks.push((T::Open(c), start, i + 1));
                i += 1;
            }
            ')' | ']' => {
                toks.push((T::Close(c), start, i + 1));
                i += 1;
            }
            '|' => {
                toks.push((T::Bar, start, i + 1));
                i += 1;
            }
            '0'..='9' | '*' => {
                let digits = |j: &mut usize| {
                    let s = *j;
                    while *j < bytes.len() && bytes[*j].is_ascii_digit() {
                        *j += 1;
                    }
                    chunk[s..*j].parse::<usize>().ok()
                };
                let min = digits(&mut i);
                let rep = if bytes.get(i) == Some(&b'*') {
                    i += 1;
                    let max = digits(&mut i);
                    T::Repeat(min, max)
                } else {
                    T::Repeat(min, min)
                };
                if let T::Repeat(Some(a), Some(b)) = rep {
                    if a > b {
                        return Err(err(
                            start,
                            i - start,
                            format!("repetition `{a}*{b}` has a minimum above its maximum"),
                            "min > max",
                        ));
                    }
                }
                toks.push((rep, start, i));
            }
            '#' => {
                return Err(err(
                    i,
                    1,
                    "the `#element` list construct of RFC 822 is not supported".into(),
                    "write the list out with `*`",
                ))
            }
            c if c.is_ascii_alphabetic() => {
                let n = chunk[i..]
                    .find(|c: char| !is_name_char(c))
                    .unwrap_or(chunk.len() - i);
                toks.push((T::Name(chunk[i..i + n].to_string()), start, i + n));
                i += n;
            }
            c => {
                let hint = if c == '/' {
                    "this notation separates alternatives with `|`; a literal slash is written \"/\""
                } else {
                    "not an element of this notation"
                };
                return Err(err(
                    i,
                    c.len_utf8(),
                    format!("unexpected character `{}`", c.escape_debug()),
                    hint,
                ));
            }
        }
    }
    let end = chunk.trim_end().len();
    let mut p = Parser {
        file,
        toks: toks
            .into_iter()
            .map(|(t, s, e)| (t, base + s, base + e))
            .collect(),
        pos: 0,
        out: Vec::new(),
        rule: name,
        end: base + end,
        depth: 0,
    };
    let body = p.alternation()?;
    if let Some((t, s, e)) = p.toks.get(p.pos) {
        let what = match t {
            T::Close(c) => format!("`{c}` closes no group"),
            _ => "unexpected element".into(),
        };
        return Err(Box::new(
            Diagnostic::error(
                Code::Syntax,
                format!("syntax error in rule `{name}`: {what}"),
                Some(Span::new(file, *s..*e)),
            )
            .with_label("here"),
        ));
    }
    Ok(RuleDef {
        name: name.to_string(),
        name_span: Span::new(file, base + lead..base + lead + name_len),
        incremental: false,
        body,
        tokens: p.out,
        span: Span::new(file, range.start..range.start + end),
    })
}

impl Parser<'_> {
    fn peek(&self) -> Option<&T> {
        self.toks.get(self.pos).map(|(t, _, _)| t)
    }

    fn error_here(&self, msg: &str) -> Box<Diagnostic> {
        let span = match self.toks.get(self.pos) {
            Some((_, s, e)) => Span::new(self.file, *s..*e),
            None => Span::new(self.file, self.end..self.end),
        };
        Box::new(
            Diagnostic::error(
                Code::Syntax,
                format!("syntax error in rule `{}`: {msg}", self.rule),
                Some(span),
            )
            .with_label("an element is missing here"),
        )
    }

    fn alternation(&mut self) -> Result<Node, Box<Diagnostic>> {
        let mut alts = vec![self.concatenation()?];
        while self.peek() == Some(&T::Bar) {
            self.pos += 1;
            alts.push(self.concatenation()?);
        }
        Ok(if alts.len() == 1 {
            alts.pop().expect("one")
        } else {
            Node::alternatives(&alts)
        })
    }

    fn concatenation(&mut self) -> Result<Node, Box<Diagnostic>> {
        let mut items = Vec::new();
        while matches!(
            self.peek(),
            Some(T::Name(_) | T::Str(_) | T::Prose(_) | T::Repeat(..) | T::Open(_))
        ) {
            items.push(self.repetition()?);
        }
        match items.len() {
            0 => Err(self.error_here("expected an element")),
            1 => Ok(items.pop().expect("one")),
            _ => Ok(Node::concatenation(&items)),
        }
    }

    fn repetition(&mut self) -> Result<Node, Box<Diagnostic>> {
        if let Some(T::Repeat(min, max)) = self.peek().cloned() {
            let (_, s, e) = self.toks[self.pos];
            self.out.push(Tok {
                kind: TokKind::Repeat,
                span: Span::new(self.file, s..e),
            });
            self.pos += 1;
            let element = self.element()?;
            let repeat = match (min, max) {
                (Some(n), Some(m)) if n == m => Repeat::specific(n),
                _ => Repeat::variable(min, max),
            };
            return Ok(Node::repetition(repeat, element));
        }
        self.element()
    }

    fn element(&mut self) -> Result<Node, Box<Diagnostic>> {
        let Some((t, s, e)) = self.toks.get(self.pos).cloned() else {
            return Err(self.error_here("the rule ends early; expected an element"));
        };
        let span = Span::new(self.file, s..e);
        let node = match t {
            T::Name(n) => {
                self.out.push(Tok {
                    kind: TokKind::Rulename,
                    span,
                });
                self.pos += 1;
                Node::rulename(n)
            }
            T::Str(text) => {
                self.out.push(Tok {
                    kind: TokKind::CharVal,
                    span,
                });
                self.pos += 1;
                Node::string(text, false)
            }
            T::Prose(text) => {
                self.out.push(Tok {
                    kind: TokKind::Prose,
                    span,
                });
                self.pos += 1;
                Node::prose(text)
            }
            T::Open(open) => {
                self.depth += 1;
                if self.depth > super::lexer::MAX_NESTING {
                    return Err(self.error_here("groups nest too deep"));
                }
                self.pos += 1;
                let inner = self.alternation()?;
                let close = if open == '(' { ')' } else { ']' };
                match self.toks.get(self.pos) {
                    Some((T::Close(c), _, _)) if *c == close => self.pos += 1,
                    _ => {
                        return Err(Box::new(
                            Diagnostic::error(
                                Code::Syntax,
                                format!(
                                    "syntax error in rule `{}`: `{open}` is never closed; expected `{close}`",
                                    self.rule
                                ),
                                Some(span),
                            )
                            .with_label("this group is not closed"),
                        ))
                    }
                }
                self.depth -= 1;
                if open == '(' {
                    Node::group(inner)
                } else {
                    Node::optional(inner)
                }
            }
            _ => return Err(self.error_here("expected an element")),
        };
        Ok(node)
    }
}
