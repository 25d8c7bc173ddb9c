//! Errors as data: every problem the generator finds is a [`Diagnostic`] with
//! a [`Span`] into a [`SourceMap`]; rendering (file, line, column and a caret
//! excerpt) happens once, at the edge, with `codespan-reporting`.

use std::fmt;
use std::ops::Range;

use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::SimpleFiles;
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

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let col = self.text[start..offset.min(self.text.len())].chars().count();
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

/// One problem found in the grammar, with where it is.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
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
    pub(crate) fn error(message: impl Into<String>, span: Option<Span>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span,
            label: String::new(),
            secondary: Vec::new(),
            notes: Vec::new(),
        }
    }

    pub(crate) fn warning(message: impl Into<String>, span: Option<Span>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(message, span)
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
    pub fn render(&self, color: bool) -> String {
        let mut files = SimpleFiles::new();
        for f in &self.sources.files {
            files.add(f.name.clone(), f.text.clone());
        }
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
                let mut cd = match d.severity {
                    Severity::Error => cs::Diagnostic::error(),
                    Severity::Warning => cs::Diagnostic::warning(),
                }
                .with_message(&d.message);
                let mut labels = Vec::new();
                if let Some(span) = d.span {
                    labels.push(cs::Label::primary(span.file.0, span.range()).with_message(&d.label));
                }
                for (span, msg) in &d.secondary {
                    labels.push(cs::Label::secondary(span.file.0, span.range()).with_message(msg));
                }
                cd = cd.with_labels(labels).with_notes(d.notes.clone());
                // Writing into a Vec cannot fail, and every span was made from
                // the same source map.
                let _ = term::emit(writer, &config, &files, &cd);
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(false))
    }
}

impl std::error::Error for Diagnostics {}
