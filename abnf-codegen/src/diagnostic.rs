//! Errors as data: every problem the generator finds is a [`Diagnostic`] with
//! a [`Span`] into a [`SourceMap`]; rendering (file, line, column and a caret
//! excerpt) happens once, at the edge, with `codespan-reporting`.

use std::fmt;
use std::ops::Range;

use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::{self, Files};
use std::collections::{BTreeMap, HashMap};

use crate::limits::{MAX_EXCERPT_CHARS, MAX_MESSAGE_CHARS};
use codespan_reporting::term;
use codespan_reporting::term::termcolor::{Ansi, NoColor, WriteColor};

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub(crate) usize);

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Span {
    /// The file.
    pub file: FileId,
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    pub(crate) fn new(file: FileId, range: Range<usize>) -> Span {
        Span {
            file,
            start: range.start,
            end: range.end,
        }
    }

    /// The byte range.
    pub fn range(&self) -> Range<usize> {
        self.start..self.end
    }
}

/// One source file: its display name, its full text and where line starts are.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The name shown in diagnostics (the path as given).
    pub name: String,
    /// The text, exactly as read (a file that is not UTF-8 never gets here).
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    fn new(name: String, text: String) -> SourceFile {
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        SourceFile {
            name,
            text,
            line_starts,
        }
    }

    /// 0-based index of the line holding a byte offset.
    fn line_of(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }

    /// Byte range of line `line`'s content, without its `\n` or `\r\n`.
    fn content_range(&self, line: usize) -> Range<usize> {
        let start = self.line_starts[line];
        let mut end = self.line_starts.get(line + 1).map_or(self.text.len(), |&n| n - 1);
        end = end.max(start);
        if self.text[start..end].ends_with('\r') {
            end -= 1;
        }
        start..end
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let line = self.line_of(offset);
        let start = self.line_starts[line];
        // Characters that start before the offset (an offset inside a
        // character counts that character).
        let col = self.text[start..]
            .char_indices()
            .take_while(|&(i, _)| start + i < offset)
            .count();
        (line + 1, col + 1)
    }
}

/// All source files that take part in one generation.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// Adds a file and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push(SourceFile::new(name.into(), text.into()));
        FileId(self.files.len() - 1)
    }

    /// How many files there are.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether there are no files.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The file behind an id.
    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0]
    }

    /// The text a span covers.
    pub fn snippet(&self, span: Span) -> &str {
        &self.get(span.file).text[span.range()]
    }

    /// `file:line:column` of a span's start.
    pub fn location(&self, span: Span) -> String {
        let file = self.get(span.file);
        let (line, col) = file.line_col(span.start);
        format!("{}:{}:{}", file.name, line, col)
    }
}

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Generation goes on.
    Warning,
    /// Generation stops after all checks of the current stage have run.
    Error,
}

/// What kind of problem a diagnostic reports: a stable name that tools and
/// tests can match on (the message's words may change; the code does not).
/// Rendered after the severity, as `error[undefined-rule]: ...`.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    /// The spec text does not parse: a missing `=`, an unclosed group, an
    /// element missing.
    Syntax,
    /// A quoted string holds a character ABNF does not allow there.
    BadString,
    /// A numeric value or range is malformed, reversed, beyond U+10FFFF or
    /// only surrogates.
    BadNumber,
    /// A repetition whose minimum is above its maximum, or too large.
    BadRepetition,
    /// A `; @directive` line is malformed, repeated or names no rule.
    Directive,
    /// A spec file cannot be used: too large, not UTF-8, empty, not ABNF,
    /// or two files that would be one module.
    SpecFile,
    /// An `@import` cannot be read or does not provide what it names.
    Import,
    /// A rule (or prose value) is used but not defined.
    UndefinedRule,
    /// A rule is defined twice, or `=/` extends a rule not yet defined.
    DuplicateRule,
    /// [`crate::Config`] names a grammar or rule that does not exist, or a
    /// value out of range.
    Config,
    /// A terminal is not an octet in an `@terminals octets` spec.
    NotAnOctet,
    /// A rule is recursive in a way no DFA can recognize.
    NotRegular,
    /// A rule matches no string at all (its recursion never ends).
    EmptyLanguage,
    /// A rule nests or expands beyond the generator's limits once its
    /// references are inlined.
    TooComplex,
    /// An automaton, or the generated output, would exceed its size limit.
    TooLarge,
    /// A rule or file name cannot become a Rust name, or two become the
    /// same one.
    RustName,
    /// An `@components` extraction cannot be built as written.
    Components,
    /// An `@scheme` names a rule that is not exported.
    Scheme,
    /// Warning: a rule is never used by the rules compiled.
    UnusedRule,
    /// Warning: a rule redefines an RFC 5234 core rule.
    CoreRuleRedefined,
    /// Warning: a construct whose bounds have no effect (`*0`, `1*[ x ]`), or
    /// a directive that changes nothing.
    NoEffect,
    /// Warning: a line that is not ABNF is skipped as prose.
    Prose,
    /// Warning: a spec that does not say `@terminals` uses values in
    /// `%x80-FF` and none above: they match U+0080-U+00FF as UTF-8, which
    /// a byte protocol rarely means.
    Encoding,
}

impl Code {
    /// The code as written in diagnostics (`undefined-rule`).
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Syntax => "syntax",
            Code::BadString => "bad-string",
            Code::BadNumber => "bad-number",
            Code::BadRepetition => "bad-repetition",
            Code::Directive => "directive",
            Code::SpecFile => "spec-file",
            Code::Import => "import",
            Code::UndefinedRule => "undefined-rule",
            Code::DuplicateRule => "duplicate-rule",
            Code::Config => "config",
            Code::NotAnOctet => "not-an-octet",
            Code::NotRegular => "not-regular",
            Code::EmptyLanguage => "empty-language",
            Code::TooComplex => "too-complex",
            Code::TooLarge => "too-large",
            Code::RustName => "rust-name",
            Code::Components => "components",
            Code::Scheme => "scheme",
            Code::UnusedRule => "unused-rule",
            Code::CoreRuleRedefined => "core-rule-redefined",
            Code::NoEffect => "no-effect",
            Code::Prose => "prose",
            Code::Encoding => "encoding",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One problem found in the grammar, with where it is.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// What kind of problem it is.
    pub code: Code,
    /// One line saying what is wrong.
    pub message: String,
    /// Where (absent only for problems that have no place, such as I/O on a missing file).
    pub span: Option<Span>,
    /// The text under the caret.
    pub label: String,
    /// Further places that explain the problem.
    pub secondary: Vec<(Span, String)>,
    /// Free-form notes (hints, how to fix).
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub(crate) fn error(code: Code, message: impl Into<String>, span: Option<Span>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            span,
            label: String::new(),
            secondary: Vec::new(),
            notes: Vec::new(),
        }
    }

    pub(crate) fn warning(code: Code, message: impl Into<String>, span: Option<Span>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message, span)
        }
    }

    pub(crate) fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }

    pub(crate) fn with_secondary(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.secondary.push((span, label.into()));
        self
    }

    pub(crate) fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// Whether this is an error (not a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Diagnostics together with the sources they point into; what the library
/// returns when generation fails, and what [`Diagnostics::render`] prints.
#[derive(Clone, Debug)]
pub struct Diagnostics {
    /// The sources.
    pub sources: SourceMap,
    /// Every diagnostic, errors and warnings, in the order found.
    pub items: Vec<Diagnostic>,
}

impl Diagnostics {
    /// Whether any item is an error.
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(Diagnostic::is_error)
    }

    /// Only the errors.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter().filter(|d| d.is_error())
    }

    /// Renders every item as text with file, line, column and a caret excerpt.
    /// With `color`, ANSI colour codes are included (for a terminal).
    ///
    /// The excerpt shows at most [`MAX_EXCERPT_CHARS`] characters of each
    /// line, cut around the caret (`…` marks what was left out), and control
    /// and bidirectional-formatting characters are shown escaped (`\r`,
    /// `\u{202e}`), in the excerpt, the file name and the messages alike: a
    /// spec cannot flood a build log or rearrange what it shows.
    pub fn render(&self, color: bool) -> String {
        let config = term::Config::default();
        let mut out = Vec::new();
        {
            let mut plain;
            let mut ansi;
            let writer: &mut dyn WriteColor = if color {
                ansi = Ansi::new(&mut out);
                &mut ansi
            } else {
                plain = NoColor::new(&mut out);
                &mut plain
            };
            for d in &self.items {
                let excerpts = Excerpts::new(&self.sources, d);
                let mut cd = match d.severity {
                    Severity::Error => cs::Diagnostic::error(),
                    Severity::Warning => cs::Diagnostic::warning(),
                }
                .with_code(d.code.as_str())
                .with_message(escape_text(&d.message, false));
                let mut labels = Vec::new();
                if let Some(span) = d.span {
                    labels.push(
                        cs::Label::primary(span.file.0, excerpts.range(span))
                            .with_message(escape_text(&d.label, false)),
                    );
                }
                for (span, msg) in &d.secondary {
                    labels.push(
                        cs::Label::secondary(span.file.0, excerpts.range(*span))
                            .with_message(escape_text(msg, false)),
                    );
                }
                let notes = d.notes.iter().map(|n| escape_text(n, true)).collect();
                cd = cd.with_labels(labels).with_notes(notes);
                // Writing into a Vec cannot fail, and every span was made from
                // the same source map.
                let _ = term::emit(writer, &config, &excerpts, &cd);
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }
}

/// Whether `c` must not reach a terminal or a build log as it is: control
/// characters (a tab is kept) and the invisible characters that reorder or
/// hide text (bidirectional overrides and isolates, marks, zero-width
/// characters, line and paragraph separators; the "Trojan Source" set).
fn needs_escape(c: char) -> bool {
    (c.is_control() && c != '\t')
        || matches!(
            c,
            '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}'
        )
}

fn push_escaped(out: &mut String, c: char) {
    match c {
        '\r' => out.push_str("\\r"),
        '\n' => out.push_str("\\n"),
        '\0' => out.push_str("\\0"),
        c => {
            use fmt::Write;
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
}

/// `text` with [`needs_escape`] characters escaped (line feeds kept when
/// `keep_newlines`) and cut to [`MAX_MESSAGE_CHARS`] characters.
pub(crate) fn escape_text(text: &str, keep_newlines: bool) -> String {
    let mut out = String::with_capacity(text.len().min(MAX_MESSAGE_CHARS));
    for (n, c) in text.chars().enumerate() {
        if n == MAX_MESSAGE_CHARS {
            out.push('…');
            break;
        }
        if needs_escape(c) && !(keep_newlines && c == '\n') {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    out
}

/// One source line as shown: the text (cut and escaped) and where original
/// byte offsets of the line land in it.
struct ShownLine {
    /// Original line index.
    line: usize,
    /// Original byte range of the line's content (no line break).
    orig: Range<usize>,
    /// Original byte range of the part shown.
    window: Range<usize>,
    /// Start of the shown text in the excerpt text.
    at: usize,
    /// Byte offsets in the excerpt text of each original character boundary
    /// in `window`, as (original offset, excerpt offset).
    marks: Vec<(usize, usize)>,
    /// Excerpt offset where the shown text ends.
    end: usize,
}

/// The source of one rendered diagnostic: only the lines it shows, each cut
/// around its label and escaped, with gaps kept as gaps. It answers
/// codespan's questions (line number, column) with the original positions.
struct Excerpts<'s> {
    sources: &'s SourceMap,
    /// Per file id: the excerpt text, its lines (`None`: a gap) and where
    /// each of them starts in the text.
    files: Vec<(String, Vec<Option<ShownLine>>, Vec<usize>)>,
    /// Original (line, column) of label ends, by (file, excerpt offset).
    columns: HashMap<(usize, usize), usize>,
}

impl<'s> Excerpts<'s> {
    fn new(sources: &'s SourceMap, d: &Diagnostic) -> Excerpts<'s> {
        let spans: Vec<Span> = d
            .span
            .iter()
            .copied()
            .chain(d.secondary.iter().map(|(s, _)| *s))
            .collect();
        let mut files: Vec<(String, Vec<Option<ShownLine>>, Vec<usize>)> = (0..sources.files.len())
            .map(|_| (String::new(), Vec::new(), Vec::new()))
            .collect();
        let mut columns = HashMap::new();
        for (fid, (text_out, shown, starts)) in files.iter_mut().enumerate() {
            let spans: Vec<Span> = spans.iter().copied().filter(|s| s.file.0 == fid).collect();
            if spans.is_empty() {
                continue;
            }
            let file = &sources.files[fid];
            let src = &file.text;
            // Which lines, and the offset each line's window is centred on.
            let mut wanted: BTreeMap<usize, Option<usize>> = BTreeMap::new();
            for (k, s) in spans.iter().enumerate() {
                let (a, b) = (file.line_of(s.start), file.line_of(s.end));
                for l in a..=b {
                    let focus = if l == a {
                        Some(s.start)
                    } else if l == b {
                        Some(s.end)
                    } else {
                        None
                    };
                    let e = wanted.entry(l).or_insert(None);
                    // The primary span (first) decides where a line is cut.
                    if e.is_none() || (k == 0 && l == a) {
                        *e = focus.or(*e);
                    }
                }
                // codespan shows the line between two labelled lines that
                // are one line apart.
                if b + 1 < file.line_starts.len() {
                    wanted.entry(b + 1).or_insert(None);
                }
            }
            let mut prev: Option<usize> = None;
            for (&l, &focus) in &wanted {
                if let Some(p) = prev {
                    if l > p + 1 {
                        // Two empty lines keep codespan's "not adjacent" test.
                        for _ in 0..2 {
                            starts.push(text_out.len());
                            text_out.push('\n');
                            shown.push(None);
                        }
                    }
                }
                prev = Some(l);
                let orig = file.content_range(l);
                let line = &src[orig.clone()];
                let window = window(line, focus.map(|f| f.clamp(orig.start, orig.end) - orig.start));
                let window = orig.start + window.start..orig.start + window.end;
                let at = text_out.len();
                starts.push(at);
                if window.start > orig.start {
                    text_out.push('…');
                }
                let mut marks = Vec::new();
                for (i, c) in src[window.clone()].char_indices() {
                    marks.push((window.start + i, text_out.len()));
                    if needs_escape(c) {
                        push_escaped(text_out, c);
                    } else {
                        text_out.push(c);
                    }
                }
                marks.push((window.end, text_out.len()));
                let end = text_out.len();
                if window.end < orig.end {
                    text_out.push('…');
                }
                text_out.push('\n');
                shown.push(Some(ShownLine {
                    line: l,
                    orig,
                    window,
                    at,
                    marks,
                    end,
                }));
            }
        }
        let mut ex = Excerpts {
            sources,
            files,
            columns: HashMap::new(),
        };
        for s in &spans {
            let file = &sources.files[s.file.0];
            let at = ex.map(s.file.0, s.start);
            // The primary span (first) keeps its column if a secondary one
            // lands on the same place of the excerpt.
            columns.entry((s.file.0, at)).or_insert(file.line_col(s.start).1);
        }
        ex.columns = columns;
        ex
    }

    /// Where an original offset of file `fid` is in its excerpt text.
    fn map(&self, fid: usize, offset: usize) -> usize {
        let file = &self.sources.files[fid];
        let l = file.line_of(offset);
        let Some(line) = self.files[fid].1.iter().flatten().find(|x| x.line == l) else {
            return 0;
        };
        let offset = offset.clamp(line.orig.start, line.orig.end);
        if offset <= line.window.start {
            return if offset < line.window.start {
                line.at
            } else {
                line.marks[0].1
            };
        }
        if offset >= line.window.end {
            return line.end;
        }
        match line.marks.binary_search_by_key(&offset, |m| m.0) {
            Ok(i) => line.marks[i].1,
            Err(i) => line.marks[i - 1].1,
        }
    }

    /// A span as a range of its file's excerpt text.
    fn range(&self, span: Span) -> Range<usize> {
        let a = self.map(span.file.0, span.start);
        let b = self.map(span.file.0, span.end).max(a);
        a..b
    }
}

/// The byte range of `line` to show: all of it when it is short, else
/// [`MAX_EXCERPT_CHARS`] characters placed so that `focus` (a byte offset in
/// the line) is a third of the way in.
fn window(line: &str, focus: Option<usize>) -> Range<usize> {
    let chars = line.chars().count();
    if chars <= MAX_EXCERPT_CHARS {
        return 0..line.len();
    }
    let focus_char = focus.map_or(0, |f| line.char_indices().take_while(|&(i, _)| i < f).count());
    let first = focus_char
        .saturating_sub(MAX_EXCERPT_CHARS / 3)
        .min(chars - MAX_EXCERPT_CHARS);
    let mut idx = line
        .char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(line.len()));
    let start = idx.nth(first).unwrap_or(line.len());
    let end = idx.nth(MAX_EXCERPT_CHARS - 1).unwrap_or(line.len());
    start..end
}

impl<'a> Files<'a> for Excerpts<'_> {
    type FileId = usize;
    type Name = String;
    type Source = &'a str;

    fn name(&'a self, id: usize) -> Result<String, files::Error> {
        let f = self.sources.files.get(id).ok_or(files::Error::FileMissing)?;
        Ok(escape_text(&f.name, false))
    }

    fn source(&'a self, id: usize) -> Result<&'a str, files::Error> {
        Ok(&self.files.get(id).ok_or(files::Error::FileMissing)?.0)
    }

    fn line_index(&'a self, id: usize, byte_index: usize) -> Result<usize, files::Error> {
        let starts = &self.files.get(id).ok_or(files::Error::FileMissing)?.2;
        Ok(match starts.binary_search(&byte_index) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        })
    }

    fn line_number(&'a self, id: usize, line_index: usize) -> Result<usize, files::Error> {
        let lines = &self.files.get(id).ok_or(files::Error::FileMissing)?.1;
        Ok(match lines.get(line_index) {
            Some(Some(l)) => l.line + 1,
            _ => 0,
        })
    }

    fn column_number(
        &'a self,
        id: usize,
        line_index: usize,
        byte_index: usize,
    ) -> Result<usize, files::Error> {
        if let Some(&col) = self.columns.get(&(id, byte_index)) {
            return Ok(col);
        }
        let source = self.source(id)?;
        let range = self.line_range(id, line_index)?;
        Ok(files::column_index(source, range, byte_index) + 1)
    }

    fn line_range(&'a self, id: usize, line_index: usize) -> Result<Range<usize>, files::Error> {
        let (text, _, starts) = self.files.get(id).ok_or(files::Error::FileMissing)?;
        let start = *starts.get(line_index).ok_or(files::Error::LineTooLarge {
            given: line_index,
            max: starts.len(),
        })?;
        // To the next line's start, the line feed included, as codespan expects.
        Ok(start..starts.get(line_index + 1).copied().unwrap_or(text.len()))
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(false))
    }
}

impl std::error::Error for Diagnostics {}
