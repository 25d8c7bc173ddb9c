//! Spec text → rules with spans.
//!
//! The `abnf` crate parses each rule, but it keeps no positions and expects
//! unindented rules ending in a newline. This stage therefore:
//!
//! 1. reads the file's directives (`; @import FILE RULE...`);
//! 2. cuts the text into one chunk per rule (a rule starts at the file's base
//!    indentation, continuation lines are indented further, as RFC 5234 §4 says);
//! 3. lexes each chunk itself, so that lexical errors (an unterminated string, a
//!    bad `%x` value, a reversed range, `5*3`) get precise spans and messages,
//!    and so that every element the `abnf` crate returns can be paired with
//!    its position in the file;
//! 4. hands the chunk to [`abnf::rule`] and maps its errors back to the file.

mod bnf;
mod lexer;
pub mod rfc_text;

use crate::diagnostic::{Code, Diagnostic, FileId, SourceMap, Span};
pub(crate) use lexer::{Tok, TokKind};

/// An `; @import FILE RULE...` directive: RULEs of FILE become visible here.
#[derive(Clone, Debug)]
pub struct Import {
    /// The file name as written (relative to the importing file).
    pub file: String,
    /// Where the file name is written.
    pub file_span: Span,
    /// The imported rule names with their spans.
    pub rules: Vec<(String, Span)>,
}

/// A `; @scheme NAME RULE` directive: RULE is the syntax of URIs of the
/// scheme NAME (for scheme-aware checks).
#[derive(Clone, Debug)]
pub struct SchemeDirective {
    /// The URI scheme, such as `mailto`.
    pub scheme: String,
    /// Where the scheme name is written.
    pub scheme_span: Span,
    /// The rule name as written.
    pub rule: String,
    /// Where the rule name is written.
    pub rule_span: Span,
}

/// A `; @components RULE FIELD[=RULE|RULE...]...` directive: extract the
/// spans of some rules that RULE uses (at any depth, each at most once per
/// match) in one pass, as a struct with one `Option<Span>` per FIELD.
#[derive(Clone, Debug)]
pub struct ComponentsDirective {
    /// The rule whose matches are split.
    pub rule: String,
    /// Where the rule name is written.
    pub rule_span: Span,
    /// Each field: its name, and the rules (with spans) whose match fills it.
    pub fields: Vec<(String, Vec<(String, Span)>)>,
}

/// One rule definition as written (`name = ...` or `name =/ ...`).
#[derive(Clone, Debug)]
pub struct RuleDef {
    /// The name as written.
    pub name: String,
    /// Where the name is written.
    pub name_span: Span,
    /// `=/` (incremental alternative) rather than `=`.
    pub incremental: bool,
    /// The body as parsed by the `abnf` crate.
    pub body: abnf::types::Node,
    /// The element tokens of the body in textual order (rule names, strings,
    /// numeric values, prose and repeat prefixes), to give nodes spans.
    pub(crate) tokens: Vec<Tok>,
    /// The whole definition (first line to last non-comment line).
    pub span: Span,
}

/// The notation a spec file is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// RFC 5234 ABNF with RFC 7405 (`*.abnf`, and ABNF extracted from RFC
    /// text).
    Abnf,
    /// The older BNF of RFC 2396 and RFC 1738 (`*.bnf`, or a `; @dialect bnf`
    /// line).
    Bnf,
}

impl Dialect {
    /// The dialect of a file: a `; @dialect abnf|bnf` line wins, then the
    /// file's extension (`.bnf` is the older notation), then ABNF.
    pub fn of(name: &str, text: &str) -> Dialect {
        for line in text.lines().take(50) {
            let t = line.trim_start();
            if let Some(rest) = t
                .strip_prefix(';')
                .map(str::trim_start)
                .and_then(|r| r.strip_prefix("@dialect"))
            {
                match rest.trim() {
                    "bnf" => return Dialect::Bnf,
                    "abnf" => return Dialect::Abnf,
                    _ => {}
                }
            }
        }
        if name.ends_with(".bnf") {
            Dialect::Bnf
        } else {
            Dialect::Abnf
        }
    }
}

/// A parsed spec file.
#[derive(Clone, Debug)]
pub struct SpecFile {
    /// Its id in the source map.
    pub file: FileId,
    /// Imports, in order.
    pub imports: Vec<Import>,
    /// Scheme directives, in order.
    pub schemes: Vec<SchemeDirective>,
    /// Components directives, in order.
    pub components: Vec<ComponentsDirective>,
    /// Rules named by `; @bidirectional RULE...` (with their spans).
    pub bidirectional: Vec<(String, Span)>,
    /// Rule definitions, in order.
    pub rules: Vec<RuleDef>,
}

/// Parses one spec file that is already in the source map. Problems are
/// pushed to `diags`; the rules that parsed are returned either way.
pub fn parse_spec(sources: &SourceMap, file: FileId, diags: &mut Vec<Diagnostic>) -> SpecFile {
    parse_spec_at(sources, file, None, diags)
}

/// Like [`parse_spec`]; with `starts`, rules begin at exactly those
/// (0-based) lines instead of at the file's base indentation.
pub fn parse_spec_at(
    sources: &SourceMap,
    file: FileId,
    starts: Option<&[usize]>,
    diags: &mut Vec<Diagnostic>,
) -> SpecFile {
    let text = &sources.get(file).text;
    let dialect = Dialect::of(&sources.get(file).name, text);
    let mut spec = SpecFile {
        file,
        imports: Vec::new(),
        schemes: Vec::new(),
        components: Vec::new(),
        bidirectional: Vec::new(),
        rules: Vec::new(),
    };
    let lines = split_lines(text);
    for (_, words) in directive_lines(file, text, &lines, DIALECT) {
        match words.as_slice() {
            [(w, _)] if *w == "abnf" || *w == "bnf" => {}
            _ => {
                let span = match (words.first(), words.last()) {
                    (Some((_, a)), Some((_, b))) => Span::new(file, a.start..b.end),
                    _ => Span::new(file, 0..0),
                };
                diags.push(
                    Diagnostic::error(Code::Directive, "unknown `@dialect`: expected `abnf` or `bnf`", Some(span))
                        .with_label("not a dialect")
                        .with_note("write `; @dialect bnf` for the older BNF of RFC 2396, or leave the line out for ABNF"),
                );
            }
        }
    }
    spec.imports = parse_directives(file, text, &lines, diags);
    spec.schemes = parse_scheme_directives(file, text, &lines, diags);
    spec.components = parse_components_directives(file, text, &lines, diags);
    spec.bidirectional = directive_lines(file, text, &lines, BIDIRECTIONAL)
        .flat_map(|(_, words)| words)
        .map(|(w, span)| (w.to_string(), span))
        .collect();

    let is_content = |l: &Line| {
        let t = l.text(text).trim_start();
        !t.is_empty() && !t.starts_with(';')
    };
    let base = lines
        .iter()
        .filter(|l| is_content(l))
        .map(|l| l.indent(text))
        .min();
    let Some(base) = base else {
        diags.push(
            Diagnostic::error(
                Code::SpecFile,
                "no rules found: the file is empty or holds only comments",
                Some(Span::new(file, 0..0)),
            )
            .with_label("expected a rule such as `name = element`"),
        );
        return spec;
    };

    // Cut into chunks: a content line at the base indentation starts a rule.
    let mut chunks: Vec<(usize, usize)> = Vec::new(); // [first line, last content line]
    for (i, l) in lines.iter().enumerate() {
        if !is_content(l) {
            continue;
        }
        let starts_rule = match starts {
            Some(starts) => starts.contains(&i),
            None => l.indent(text) <= base,
        };
        if starts_rule {
            chunks.push((i, i));
        } else if let Some(last) = chunks.last_mut() {
            last.1 = i;
        } else {
            chunks.push((i, i));
        }
    }
    for (first, last) in chunks {
        let start = lines[first].start;
        let end = lines[last].end;
        let rule = match dialect {
            Dialect::Abnf => parse_rule(file, text, start..end, diags),
            Dialect::Bnf => bnf::parse_rule(file, text, start..end)
                .map_err(|d| diags.push(*d))
                .ok(),
        };
        // A rule with a syntax error still defines its name (as matching
        // nothing), so that its uses do not add "undefined rule" errors.
        spec.rules
            .extend(rule.or_else(|| placeholder(file, text, start..end)));
    }
    spec
}

/// The offset of the first `close` in `text` before its first line feed.
/// Scanning stops at whichever comes first, so lexing a long line of short
/// strings stays linear (looking for the line's end first rescanned the rest
/// of the line once per string).
pub(crate) fn find_on_line(text: &str, close: char) -> Option<usize> {
    text.find([close, '\n']).filter(|&i| text[i..].starts_with(close))
}

/// The rule a broken chunk was meant to define, as a rule matching nothing.
fn placeholder(file: FileId, text: &str, range: std::ops::Range<usize>) -> Option<RuleDef> {
    let chunk = &text[range.clone()];
    let lead = chunk.len() - chunk.trim_start().len();
    let len = chunk[lead..]
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '+')))
        .unwrap_or(chunk.len() - lead);
    let name = &chunk[lead..lead + len];
    if !name.starts_with(|c: char| c.is_ascii_alphabetic())
        || !chunk[lead + len..].trim_start().starts_with('=')
    {
        return None;
    }
    Some(RuleDef {
        name: name.to_string(),
        name_span: Span::new(file, range.start + lead..range.start + lead + len),
        incremental: chunk[lead + len..].trim_start().starts_with("=/"),
        body: abnf::types::Node::Alternatives(Vec::new()),
        tokens: Vec::new(),
        span: Span::new(file, range),
    })
}

#[derive(Clone, Copy, Debug)]
struct Line {
    start: usize,
    /// End of the line's content, before `\r\n` or `\n`.
    end: usize,
}

impl Line {
    fn text<'a>(&self, src: &'a str) -> &'a str {
        &src[self.start..self.end]
    }
    fn indent(&self, src: &str) -> usize {
        let t = self.text(src);
        t.len() - t.trim_start_matches([' ', '\t']).len()
    }
}

fn split_lines(text: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut start = 0;
    for (i, _) in text.match_indices('\n') {
        let end = if i > start && text.as_bytes()[i - 1] == b'\r' {
            i - 1
        } else {
            i
        };
        lines.push(Line { start, end });
        start = i + 1;
    }
    if start < text.len() {
        let end = text.len() - usize::from(text.ends_with('\r'));
        lines.push(Line { start, end });
    }
    lines
}

const IMPORT: &str = "@import";
const SCHEME: &str = "@scheme";
const COMPONENTS: &str = "@components";
const BIDIRECTIONAL: &str = "@bidirectional";
const DIALECT: &str = "@dialect";

/// The words after `; DIRECTIVE` on each line that has it: the line, and
/// each word with its span.
fn directive_lines<'t: 'l, 'l>(
    file: FileId,
    text: &'t str,
    lines: &'l [Line],
    directive: &'t str,
) -> impl Iterator<Item = (&'l Line, Vec<(&'t str, Span)>)> + 'l {
    lines.iter().filter_map(move |l| {
        let line = l.text(text);
        let args = line
            .trim_start()
            .strip_prefix(';')
            .map(str::trim_start)
            .and_then(|r| r.strip_prefix(directive))
            .filter(|r| r.is_empty() || r.starts_with(|c: char| c.is_ascii_whitespace()))?;
        let args_start = l.start + (line.len() - args.len());
        let words = args
            .split_ascii_whitespace()
            .map(|w| {
                let off = args_start + (w.as_ptr() as usize - args.as_ptr() as usize);
                (w, Span::new(file, off..off + w.len()))
            })
            .collect();
        Some((l, words))
    })
}

/// Each `; DIRECTIVE` line of `text`: the line's span (without its line
/// break and trailing blanks) and the words after the directive with their
/// spans. For directives read after the grammar is resolved (`@depth`,
/// `@terminals`); the same reading as the front end's own directives.
pub(crate) fn directive_words<'t>(
    file: FileId,
    text: &'t str,
    directive: &'t str,
) -> Vec<(Span, Vec<(&'t str, Span)>)> {
    let lines = split_lines(text);
    directive_lines(file, text, &lines, directive)
        .map(|(l, words)| {
            let line_span = Span::new(file, l.start..l.start + l.text(text).trim_end().len());
            (line_span, words)
        })
        .collect()
}

/// `; @components RULE FIELD[=RULE|RULE...]...`: a field named like a rule
/// holds that rule; `path=path-abempty|path-absolute` holds whichever of
/// those rules matched.
fn parse_components_directives(
    file: FileId,
    text: &str,
    lines: &[Line],
    diags: &mut Vec<Diagnostic>,
) -> Vec<ComponentsDirective> {
    let mut out = Vec::new();
    for (l, words) in directive_lines(file, text, lines, COMPONENTS) {
        let Some(((rule, rule_span), fields)) = words.split_first().filter(|(_, f)| !f.is_empty()) else {
            diags.push(
                Diagnostic::error(
                    Code::Directive,
                    "`@components` takes a rule and the fields to extract from it",
                    Some(Span::new(file, l.start..l.end)),
                )
                .with_label("here")
                .with_note(
                    "write `; @components URI-reference scheme authority path=path-abempty|path-absolute`",
                ),
            );
            continue;
        };
        let mut parsed = Vec::new();
        for &(w, span) in fields {
            let (name, rules) = match w.split_once('=') {
                Some((name, rules)) => (name, rules),
                None => (w, w),
            };
            let mut at = span.start + (w.len() - rules.len());
            let mut list = Vec::new();
            for r in rules.split('|') {
                list.push((r.to_string(), Span::new(file, at..at + r.len())));
                at += r.len() + 1;
            }
            if name.is_empty() || list.iter().any(|(r, _)| r.is_empty()) {
                diags.push(
                    Diagnostic::error(
                        Code::Directive,
                        format!("`{w}` is not a field of `@components`"),
                        Some(span),
                    )
                    .with_label("expected `NAME` or `NAME=RULE|RULE...`"),
                );
                continue;
            }
            parsed.push((name.to_string(), list));
        }
        out.push(ComponentsDirective {
            rule: rule.to_string(),
            rule_span: *rule_span,
            fields: parsed,
        });
    }
    out
}

/// `; @scheme NAME RULE`: URIs of scheme NAME follow RULE.
fn parse_scheme_directives(
    file: FileId,
    text: &str,
    lines: &[Line],
    diags: &mut Vec<Diagnostic>,
) -> Vec<SchemeDirective> {
    let mut out = Vec::new();
    for (l, words) in directive_lines(file, text, lines, SCHEME) {
        match words.as_slice() {
            [(scheme, scheme_span), (rule, rule_span)] => out.push(SchemeDirective {
                scheme: scheme.to_ascii_lowercase(),
                scheme_span: *scheme_span,
                rule: rule.to_string(),
                rule_span: *rule_span,
            }),
            _ => diags.push(
                Diagnostic::error(
                    Code::Directive,
                    "`@scheme` takes a scheme name and a rule",
                    Some(Span::new(file, l.start..l.end)),
                )
                .with_label("here")
                .with_note("write `; @scheme mailto mailtoURI`"),
            ),
        }
    }
    out
}

/// `; @import FILE RULE RULE ...` on a comment line. Plain ABNF tools see a
/// comment; this generator sees an import.
fn parse_directives(file: FileId, text: &str, lines: &[Line], diags: &mut Vec<Diagnostic>) -> Vec<Import> {
    let mut imports = Vec::new();
    for (l, words) in directive_lines(file, text, lines, IMPORT) {
        let mut words = words.into_iter();
        let Some((path, path_span)) = words.next() else {
            diags.push(
                Diagnostic::error(
                    Code::Directive,
                    "`@import` needs a file name and the rules to import",
                    Some(Span::new(file, l.start..l.end)),
                )
                .with_label("here")
                .with_note("write `; @import rfc3986.abnf scheme port`"),
            );
            continue;
        };
        let rules: Vec<(String, Span)> = words
            .map(|(w, s)| (w.trim_end_matches(',').to_string(), s))
            .collect();
        if rules.is_empty() {
            diags.push(
                Diagnostic::error(Code::Directive, "`@import` names no rules", Some(path_span))
                    .with_label("import of this file")
                    .with_note("list the rules to import after the file name"),
            );
        }
        imports.push(Import {
            file: path.to_string(),
            file_span: path_span,
            rules,
        });
    }
    imports
}

fn parse_rule(
    file: FileId,
    text: &str,
    range: std::ops::Range<usize>,
    diags: &mut Vec<Diagnostic>,
) -> Option<RuleDef> {
    let chunk = &text[range.clone()];
    let span = Span::new(file, range.clone());
    let lexed = match lexer::lex_rule(file, chunk, range.start) {
        Ok(lexed) => lexed,
        Err(d) => {
            diags.push(*d);
            return None;
        }
    };
    // The abnf crate wants a trailing newline; comments need one too.
    let mut input = String::with_capacity(chunk.len() + 1);
    input.push_str(chunk);
    input.push('\n');
    // RFC 5234 §2.3: the `b`, `d`, `x` of a numeric value are
    // case-insensitive, but the `abnf` crate reads only lower case.
    for t in lexed.tokens.iter().filter(|t| t.kind == lexer::TokKind::NumVal) {
        let at = t.span.start - range.start + 1;
        if input.as_bytes().get(at).is_some_and(u8::is_ascii_uppercase) {
            input.replace_range(at..=at, &input[at..=at].to_ascii_lowercase());
        }
    }
    match abnf::rule(&input) {
        Ok(rule) => Some(RuleDef {
            name: rule.name().to_string(),
            name_span: lexed.name_span,
            incremental: matches!(rule.kind(), abnf::types::Kind::Incremental),
            body: rule.node().clone(),
            tokens: lexed.tokens,
            span,
        }),
        Err(e) => {
            let offset = abnf_error_offset(&e.to_string(), &input).unwrap_or(0);
            let offset = range.start + offset.min(chunk.len());
            let what = if offset >= range.end {
                "the rule ends early".to_string()
            } else {
                let c = text[offset..].chars().next().unwrap_or(' ');
                format!("unexpected `{}`", c.escape_debug())
            };
            diags.push(
                Diagnostic::error(
                    Code::Syntax,
                    format!("syntax error in rule `{}`: {what}", lexed.name),
                    Some(Span::new(file, offset..(offset + 1).min(text.len()))),
                )
                .with_label("the ABNF parser stopped here")
                .with_note(
                    "RFC 5234 §4: elements are separated by spaces, `/` separates alternatives, \
                     `( )` groups, `[ ]` is optional, `n*m` repeats",
                ),
            );
            None
        }
    }
}

/// The `abnf` crate renders nom's `VerboseError` as text: `0: at line L, in
/// Kind:\n<line>\n<spaces>^` (L is 1-based, the caret stands at the byte
/// column), or `0: in Kind, got empty input` at the end. The first entry is
/// the innermost failure; read it back into a byte offset.
fn abnf_error_offset(message: &str, input: &str) -> Option<usize> {
    let mut lines = message.lines();
    let head = lines.next()?;
    if head.contains("got empty input") {
        return Some(input.trim_end().len());
    }
    let line_no: usize = head
        .strip_prefix("0: at line ")?
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()?;
    lines.next()?; // the source line
    let col = lines.next()?.find('^')?;
    let line_start = std::iter::once(0)
        .chain(input.match_indices('\n').map(|(i, _)| i + 1))
        .nth(line_no.checked_sub(1)?)?;
    Some((line_start + col).min(input.len()))
}
