//! A lexer for one rule's text. It finds every lexical error with its exact
//! position, and records the element tokens in textual order so that the
//! nodes the `abnf` crate returns can be given spans.

use crate::diagnostic::{Code, Diagnostic, FileId, Span};

/// Kinds of element tokens, in the order the `abnf` crate's AST visits them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TokKind {
    Rulename,
    CharVal,
    NumVal,
    Prose,
    Repeat,
}

#[derive(Clone, Debug)]
pub(crate) struct Tok {
    pub kind: TokKind,
    pub span: Span,
}

pub(crate) struct Lexed {
    pub name: String,
    pub name_span: Span,
    pub tokens: Vec<Tok>,
}

type LexResult<T> = Result<T, Box<Diagnostic>>;

/// How deep `(` and `[` may nest. The `abnf` crate parses recursively, and
/// no grammar needs more.
pub(crate) use crate::limits::MAX_NESTING;

struct Lexer<'a> {
    file: FileId,
    text: &'a str,
    base: usize,
    pos: usize,
}

impl<'a> Lexer<'a> {
    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, self.base + start..self.base + end)
    }

    fn err(&self, start: usize, end: usize, msg: impl Into<String>, label: &str) -> Box<Diagnostic> {
        Box::new(
            Diagnostic::error(Code::Syntax, msg, Some(self.span(start, end.max(start + 1))))
                .with_label(label),
        )
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn eat_while(&mut self, f: impl Fn(char) -> bool) -> &'a str {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if !f(c) {
                break;
            }
            self.pos += c.len_utf8();
        }
        &self.text[start..self.pos]
    }

    fn line_end(&self) -> usize {
        self.text[self.pos..]
            .find('\n')
            .map_or(self.text.len(), |i| self.pos + i)
    }
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-'
}

/// Lexes `name = elements` (or `=/`), `base` being the chunk's offset in its file.
pub(crate) fn lex_rule(file: FileId, text: &str, base: usize) -> LexResult<Lexed> {
    let mut lx = Lexer {
        file,
        text,
        base,
        pos: 0,
    };
    lx.eat_while(|c| c == ' ' || c == '\t');
    let name_start = lx.pos;
    match lx.peek() {
        Some(c) if c.is_ascii_alphabetic() => {}
        Some(c) => {
            return Err(lx.err(
                lx.pos,
                lx.pos + c.len_utf8(),
                format!("expected a rule name, found `{}`", c.escape_debug()),
                "a rule name starts with a letter (RFC 5234 §2.1)",
            ))
        }
        None => return Err(lx.err(0, 0, "expected a rule name", "here")),
    }
    let name = lx.eat_while(is_name_char).to_string();
    let name_span = lx.span(name_start, lx.pos);
    lx.eat_while(|c| c == ' ' || c == '\t');
    if lx.peek() == Some('=') {
        lx.pos += 1;
        if lx.peek() == Some('/') {
            lx.pos += 1;
        }
    } else {
        let found = match lx.peek() {
            None | Some('\n') | Some('\r') => "the end of the line".to_string(),
            Some(c) => format!("`{}`", c.escape_debug()),
        };
        return Err(Box::new(
            Diagnostic::error(
                Code::Syntax,
                format!("expected `=` or `=/` after the rule name `{name}`, found {found}"),
                Some(lx.span(lx.pos, lx.pos + 1)),
            )
            .with_label("expected `=` here")
            .with_note("a rule is written `name = elements` (RFC 5234 §2.2)"),
        ));
    }

    let mut tokens = Vec::new();
    // Open groups (`(` or `[`, with their offsets), and whether an element
    // must come next (after `=`, `/`, an opening bracket or a repeat count).
    let mut open: Vec<(char, usize)> = Vec::new();
    let mut want_element = true;
    // Where the last element, bracket or `=` ends: where a missing element
    // or bracket is reported (comments after it do not count).
    let mut rule_end = lx.pos;
    let mut last_significant = false;
    while let Some(c) = lx.peek() {
        let start = lx.pos;
        if last_significant {
            rule_end = start;
        }
        last_significant = !matches!(c, ' ' | '\t' | '\r' | '\n' | ';');
        let is_element = !matches!(c, ' ' | '\t' | '\r' | '\n' | ';' | '/' | ')' | ']');
        if !is_element && !matches!(c, ' ' | '\t' | '\r' | '\n' | ';') && want_element {
            return Err(Box::new(
                Diagnostic::error(
                    Code::Syntax,
                    format!("syntax error in rule `{name}`: expected an element before `{c}`"),
                    Some(lx.span(start, start + 1)),
                )
                .with_label("an element is missing before this")
                .with_note("every alternative needs at least one element (RFC 5234 §4)"),
            ));
        }
        match c {
            ' ' | '\t' | '\r' | '\n' => lx.pos += 1,
            '/' => {
                lx.pos += 1;
                want_element = true;
                continue;
            }
            '(' | '[' => {
                open.push((c, start));
                if open.len() > MAX_NESTING {
                    return Err(lx.err(
                        start,
                        start + 1,
                        format!("groups nest more than {MAX_NESTING} deep in rule `{name}`"),
                        "too deep",
                    ));
                }
                lx.pos += 1;
                want_element = true;
                continue;
            }
            ')' | ']' => {
                let want = if c == ')' { '(' } else { '[' };
                match open.pop() {
                    Some((o, _)) if o == want => {}
                    Some((o, at)) => {
                        return Err(Box::new(
                            Diagnostic::error(
                                Code::Syntax,
                                format!(
                                    "syntax error in rule `{name}`: `{c}` closes a group opened with `{o}`"
                                ),
                                Some(lx.span(start, start + 1)),
                            )
                            .with_label("mismatched bracket")
                            .with_secondary(lx.span(at, at + 1), "the group opens here"),
                        ))
                    }
                    None => {
                        return Err(lx.err(
                            start,
                            start + 1,
                            format!("syntax error in rule `{name}`: `{c}` closes no group"),
                            "no matching opening bracket",
                        ))
                    }
                }
                lx.pos += 1;
                want_element = false;
                continue;
            }
            ';' => lx.pos = lx.line_end(),
            '"' => {
                lex_quoted(&mut lx, start + 1)?;
                tokens.push(Tok {
                    kind: TokKind::CharVal,
                    span: lx.span(start, lx.pos),
                });
            }
            '%' => {
                lx.pos += 1;
                match lx.peek().map(|c| c.to_ascii_lowercase()) {
                    Some('s') | Some('i') => {
                        lx.pos += 1;
                        if lx.peek() != Some('"') {
                            return Err(lx.err(
                                start,
                                lx.pos,
                                "`%s` and `%i` must be followed by a quoted string",
                                "expected `\"` after this",
                            ));
                        }
                        let open = lx.pos + 1;
                        lex_quoted(&mut lx, open)?;
                        tokens.push(Tok {
                            kind: TokKind::CharVal,
                            span: lx.span(start, lx.pos),
                        });
                    }
                    Some(b @ ('b' | 'd' | 'x')) => {
                        lx.pos += 1;
                        lex_num_val(&mut lx, start, b)?;
                        tokens.push(Tok {
                            kind: TokKind::NumVal,
                            span: lx.span(start, lx.pos),
                        });
                    }
                    _ => {
                        return Err(lx.err(
                            start,
                            lx.pos + 1,
                            "bad numeric value: `%` must be followed by `x`, `d`, `b`, `s` or `i`",
                            "here",
                        ))
                    }
                }
            }
            '<' => {
                match super::find_on_line(&lx.text[lx.pos..], '>') {
                    Some(i) => lx.pos += i + 1,
                    None => {
                        let end = lx.line_end();
                        return Err(lx.err(
                            start,
                            end,
                            "unterminated prose value: `<` without `>` on the same line",
                            "this prose value is not closed",
                        ));
                    }
                }
                tokens.push(Tok {
                    kind: TokKind::Prose,
                    span: lx.span(start, lx.pos),
                });
            }
            '0'..='9' | '*' => {
                want_element = true;
                let min = lx.eat_while(|c| c.is_ascii_digit());
                let star = lx.peek() == Some('*');
                let max = if star {
                    lx.pos += 1;
                    lx.eat_while(|c| c.is_ascii_digit())
                } else {
                    ""
                };
                let parse = |s: &str| s.parse::<u32>().ok();
                if (!min.is_empty() && parse(min).is_none()) || (!max.is_empty() && parse(max).is_none()) {
                    return Err(lx.err(start, lx.pos, "repetition count is too large", "here"));
                }
                if let (Some(a), Some(b)) = (parse(min), parse(max)) {
                    if a > b {
                        return Err(Box::new(
                            Diagnostic::error(
                                Code::BadRepetition,
                                format!("repetition `{min}*{max}` has a minimum above its maximum"),
                                Some(lx.span(start, lx.pos)),
                            )
                            .with_label("min > max")
                            .with_note(format!("did you mean `{max}*{min}`?")),
                        ));
                    }
                }
                tokens.push(Tok {
                    kind: TokKind::Repeat,
                    span: lx.span(start, lx.pos),
                });
                continue;
            }
            c if c.is_ascii_alphabetic() => {
                lx.eat_while(is_name_char);
                tokens.push(Tok {
                    kind: TokKind::Rulename,
                    span: lx.span(start, lx.pos),
                });
            }
            c => {
                let hint = if c == '|' {
                    "ABNF separates alternatives with `/`, not `|`"
                } else if c == '=' {
                    "a new rule must start at the beginning of a line"
                } else {
                    "not an ABNF element"
                };
                return Err(lx.err(
                    start,
                    start + c.len_utf8(),
                    format!("unexpected character `{}`", c.escape_debug()),
                    hint,
                ));
            }
        }
        if is_element {
            want_element = false;
        }
    }
    if last_significant {
        rule_end = lx.pos;
    }
    if let Some((o, at)) = open.pop() {
        let close = if o == '(' { ')' } else { ']' };
        return Err(Box::new(
            Diagnostic::error(
                Code::Syntax,
                format!("syntax error in rule `{name}`: `{o}` is never closed; expected `{close}`"),
                Some(lx.span(at, at + 1)),
            )
            .with_label("this group is not closed")
            .with_secondary(
                lx.span(rule_end, rule_end),
                format!("the rule ends here; add `{close}`"),
            ),
        ));
    }
    if want_element {
        return Err(Box::new(
            Diagnostic::error(
                Code::Syntax,
                format!("syntax error in rule `{name}`: the rule ends early; expected an element"),
                Some(lx.span(rule_end, rule_end)),
            )
            .with_label("an element is missing here"),
        ));
    }
    Ok(Lexed {
        name,
        name_span,
        tokens,
    })
}

/// A quoted string whose opening `"` is just before `content_start`.
fn lex_quoted(lx: &mut Lexer<'_>, content_start: usize) -> LexResult<()> {
    let open = content_start - 1;
    let Some(close) = super::find_on_line(&lx.text[content_start..], '"') else {
        let end = lx.line_end();
        return Err(Box::new(
            Diagnostic::error(
                Code::Syntax,
                "unterminated quoted string",
                Some(lx.span(open, end.max(open + 1))),
            )
            .with_label("this string has no closing `\"` on its line")
            .with_note("a quoted string cannot span lines; write `%x22` for a double quote"),
        ));
    };
    let content = &lx.text[content_start..content_start + close];
    if let Some((i, c)) = content
        .char_indices()
        .find(|&(_, c)| !matches!(c, '\x20'..='\x7e'))
    {
        let at = content_start + i;
        return Err(Box::new(
            Diagnostic::error(
                Code::BadString,
                format!(
                    "quoted strings hold printable US-ASCII only; found {:?} (U+{:04X})",
                    c, c as u32
                ),
                Some(lx.span(at, at + c.len_utf8())),
            )
            .with_label("not allowed in a quoted string")
            .with_note(format!("write it as `%x{:X}` (RFC 5234 §2.3)", c as u32)),
        ));
    }
    lx.pos = content_start + close + 1;
    Ok(())
}

/// `%b`, `%d` or `%x` values: `%x41`, `%x41-5A` or `%x41.42.43`.
fn lex_num_val(lx: &mut Lexer<'_>, start: usize, base: char) -> LexResult<()> {
    let radix = match base {
        'b' => 2,
        'd' => 10,
        _ => 16,
    };
    let mut values = Vec::new();
    let mut sep = None;
    loop {
        let digits_start = lx.pos;
        let digits = lx.eat_while(|c| c.is_ascii_alphanumeric());
        if digits.is_empty() {
            return Err(lx.err(
                start,
                lx.pos,
                format!("bad numeric value: expected digits after `%{base}`"),
                "no digits here",
            ));
        }
        let value = match u32::from_str_radix(digits, radix) {
            Ok(v) => v,
            Err(_) => {
                let bad = digits
                    .chars()
                    .find(|c| !c.is_digit(radix))
                    .map(|c| format!("`{c}` is not a base-{radix} digit"))
                    .unwrap_or_else(|| "the value does not fit in 32 bits".into());
                return Err(Box::new(
                    Diagnostic::error(
                        Code::BadNumber,
                        format!("bad numeric value `{}`: {bad}", &lx.text[start..lx.pos]),
                        Some(lx.span(digits_start, lx.pos)),
                    )
                    .with_label("here"),
                ));
            }
        };
        if value > 0x10FFFF {
            return Err(Box::new(
                Diagnostic::error(
                    Code::BadNumber,
                    format!("numeric value `{digits}` is above U+10FFFF, the last Unicode code point"),
                    Some(lx.span(digits_start, lx.pos)),
                )
                .with_label("not a Unicode code point")
                .with_note("terminal values are Unicode code points, matched as UTF-8"),
            ));
        }
        values.push(value);
        match (lx.peek(), sep) {
            (Some('-'), None) if values.len() == 1 => {
                sep = Some('-');
                lx.pos += 1;
            }
            (Some('.'), None | Some('.')) => {
                sep = Some('.');
                lx.pos += 1;
            }
            _ => break,
        }
    }
    if sep == Some('-') && values[0] > values[1] {
        return Err(Box::new(
            Diagnostic::error(
                Code::BadNumber,
                format!(
                    "reversed range `{}`: {:#X} is above {:#X}",
                    &lx.text[start..lx.pos],
                    values[0],
                    values[1]
                ),
                Some(lx.span(start, lx.pos)),
            )
            .with_label("the first value must not be above the second")
            .with_note("write the range low to high"),
        ));
    }
    Ok(())
}
