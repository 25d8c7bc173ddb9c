//! Rules with spans → a resolved grammar IR.
//!
//! Name resolution follows RFC 5234: rule names are case-insensitive (§2.1),
//! `=/` adds alternatives to an earlier definition (§3.3), and the core rules
//! of Appendix B are always in scope. On top of plain ABNF, a comment
//! directive `; @import FILE RULE...` makes rules of another spec file
//! visible; the imported rule keeps resolving its own references in its own
//! file. A prose value `<name>` that names a rule in scope is a reference to
//! it (RFC 3986 writes `path-empty = 0<pchar>`).
//!
//! Every problem is collected, none stops the others from being found.

pub mod core;
mod lints;

pub use lints::lints;

use std::collections::HashMap;
use std::path::PathBuf;

use abnf::types::{Node, Repeat, TerminalValues};

use crate::diagnostic::{Code, Diagnostic, Diagnostics, FileId, SourceMap, Span};
use crate::limits;
use crate::syntax::{self, SpecFile, Tok, TokKind};

/// The name of the module that holds the core rules; not a possible file
/// stem, so a user's `core.abnf` is a module like any other.
pub const CORE_MODULE: &str = "<core>";

pub use crate::limits::MAX_SPEC_BYTES;

/// Index of a rule in [`Grammar::rules`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RuleId(pub u32);

/// Index of a module in [`Grammar::modules`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ModuleId(pub u32);

/// A rule body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// `a / b / c`: the first alternative has priority.
    Alt(Vec<Expr>),
    /// `a b c`.
    Concat(Vec<Expr>),
    /// `min*max element`; `[ x ]` is `Repeat { min: 0, max: Some(1) }`.
    Repeat {
        /// Fewest repetitions.
        min: u32,
        /// Most repetitions; `None` is unbounded.
        max: Option<u32>,
        /// What repeats.
        expr: Box<Expr>,
    },
    /// A reference to another rule.
    Ref(RuleId, Span),
    /// A quoted string; `"abc"` matches ASCII letters in either case.
    Str {
        /// The characters.
        text: String,
        /// `%s"..."` (RFC 7405).
        case_sensitive: bool,
    },
    /// `%xLO-HI` (or a single value): one code point in the range.
    Range(u32, u32, Span),
}

impl Expr {
    /// Calls `f` on each rule reference, in order.
    pub fn for_each_ref(&self, f: &mut impl FnMut(RuleId, Span)) {
        match self {
            Expr::Alt(es) | Expr::Concat(es) => es.iter().for_each(|e| e.for_each_ref(f)),
            Expr::Repeat { expr, .. } => expr.for_each_ref(f),
            Expr::Ref(id, span) => f(*id, *span),
            Expr::Str { .. } | Expr::Range(..) => {}
        }
    }
}

/// A resolved rule.
#[derive(Clone, Debug)]
pub struct Rule {
    /// The name as first defined (the key for lookups and diagnostics).
    pub name: String,
    /// The module (spec file) that defines it.
    pub module: ModuleId,
    /// Where the name is first defined.
    pub name_span: Span,
    /// Every definition (`=` and each `=/`), for docs.
    pub defs: Vec<Span>,
    /// The body, `=/` alternatives merged.
    pub expr: Expr,
}

/// One spec file with its scope.
#[derive(Clone, Debug)]
pub struct Module {
    /// The file stem (`rfc3987` for `specs/rfc3987.abnf`).
    pub name: String,
    /// The source.
    pub file: FileId,
    /// The path it was read from, if it came from disk.
    pub path: Option<PathBuf>,
    /// Rules defined in this file, in order.
    pub defined: Vec<RuleId>,
    /// Rules imported with `@import`, in order.
    pub imported: Vec<RuleId>,
    /// Whether the user asked for this file (not only reached by import).
    pub root: bool,
    /// URI schemes whose syntax a rule of this file gives (`@scheme`).
    pub schemes: Vec<(String, RuleId)>,
    /// Component extractions asked for with `@components`.
    pub components: Vec<Components>,
    /// Rules whose recognizers also get a reverse automaton
    /// (`@bidirectional`).
    pub bidirectional: Vec<RuleId>,
    scope: HashMap<String, RuleId>,
}

/// A resolved `@components` directive.
#[derive(Clone, Debug)]
pub struct Components {
    /// The rule whose matches are split.
    pub rule: RuleId,
    /// Each field: its name and the rules that fill it.
    pub fields: Vec<(String, Vec<RuleId>)>,
}

impl Module {
    /// Looks a name up in this module's scope (case-insensitively), without
    /// falling back to the core rules.
    pub fn get(&self, name: &str) -> Option<RuleId> {
        self.scope.get(&name.to_ascii_lowercase()).copied()
    }
}

impl Grammar {
    /// The rule in module `m`'s scope whose name is closest to `name`, as
    /// its definition spells it, for "did you mean" ([`closest_name`]).
    pub fn similar_rule(&self, m: ModuleId, name: &str) -> Option<String> {
        let scope = &self.module(m).scope;
        let close = closest_name(name, scope.keys().map(String::as_str))?;
        Some(self.rule(scope[&close]).name.clone())
    }

    /// The spec file (root module) whose name is closest to `name`.
    pub fn similar_module(&self, name: &str) -> Option<String> {
        closest_name(
            name,
            self.modules.iter().filter(|m| m.root).map(|m| m.name.as_str()),
        )
    }
}

/// A whole resolved grammar: every module that takes part and every rule.
#[derive(Clone, Debug)]
pub struct Grammar {
    /// Source texts, for diagnostics and docs.
    pub sources: SourceMap,
    /// Modules; the core rules are module 0.
    pub modules: Vec<Module>,
    /// Rules of every module.
    pub rules: Vec<Rule>,
    /// Recursive rules bounded to a nesting depth (`@depth`, see
    /// [`crate::depth`]), already unrolled in `rules`.
    pub depths: Vec<(RuleId, u32)>,
    /// Modules whose terminal values are octets (`@terminals octets`, see
    /// [`crate::terminals`]) rather than code points.
    pub octets: Vec<ModuleId>,
}

impl Grammar {
    /// The rule behind an id.
    pub fn rule(&self, id: RuleId) -> &Rule {
        &self.rules[id.0 as usize]
    }

    /// The module behind an id.
    pub fn module(&self, id: ModuleId) -> &Module {
        &self.modules[id.0 as usize]
    }

    /// The module named `name` (a file stem).
    pub fn module_by_name(&self, name: &str) -> Option<ModuleId> {
        self.modules
            .iter()
            .position(|m| m.name == name)
            .map(|i| ModuleId(i as u32))
    }

    /// Resolves a rule name as a reference written in `module` would: the
    /// module's own and imported rules, then the core rules.
    pub fn resolve(&self, module: ModuleId, name: &str) -> Option<RuleId> {
        self.module(module)
            .get(name)
            .or_else(|| self.modules[0].get(name))
    }

    /// The source text of a rule's definitions.
    pub fn rule_text(&self, id: RuleId) -> String {
        let rule = self.rule(id);
        rule.defs
            .iter()
            .map(|s| self.sources.snippet(*s).replace('\r', ""))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// 1-based line of a rule's first definition.
    pub fn rule_line(&self, id: RuleId) -> usize {
        let span = self.rule(id).name_span;
        self.sources.get(span.file).line_col(span.start).0
    }
}

/// A spec file to load: its name for diagnostics, where it came from, and
/// its bytes.
#[derive(Clone, Debug)]
pub struct SpecInput {
    /// The name shown in diagnostics (usually the path as given).
    pub name: String,
    /// The path on disk, used to resolve `@import`s relative to it.
    pub path: Option<PathBuf>,
    /// The raw bytes (checked for UTF-8 here).
    pub bytes: Vec<u8>,
}

/// Finds the file an `@import` names: given the importing spec and the name
/// as written, returns the imported spec or a message saying why not.
pub type ImportResolver<'a> = dyn FnMut(&SpecInput, &str) -> Result<SpecInput, String> + 'a;

/// Loads and resolves `roots` and everything they import.
///
/// Returns the grammar when there are no errors; the diagnostics (warnings
/// only, in that case) either way.
pub fn load(
    roots: Vec<SpecInput>,
    resolve_import: &mut ImportResolver<'_>,
) -> (Option<Grammar>, Diagnostics) {
    let mut loader = Loader {
        hidden: Vec::new(),
        sources: SourceMap::default(),
        diags: Vec::new(),
        modules: Vec::new(),
        specs: Vec::new(),
        inputs: Vec::new(),
        import_targets: HashMap::new(),
    };
    let core = loader.sources.add(core::CORE_FILE_NAME, core::CORE_RULES);
    let core_spec = syntax::parse_spec(&loader.sources, core, &mut loader.diags);
    loader.push_module(CORE_MODULE.into(), core, None, core_spec, None, false);
    for input in roots {
        loader.add_file(input, true);
    }
    // Imports may add modules as they are resolved; walk until none is new.
    let mut i = 1;
    while i < loader.modules.len() {
        let imports = loader.specs[i].imports.clone();
        for import in imports {
            loader.resolve_import_file(i, &import, resolve_import);
        }
        i += 1;
    }
    let grammar = loader.build();
    let hidden = std::mem::take(&mut loader.hidden);
    loader
        .diags
        .retain(|d| d.span.is_none_or(|s| !hidden.contains(&s.file)));
    let diags = Diagnostics {
        sources: grammar.sources.clone(),
        items: loader.diags,
    };
    if diags.has_errors() {
        (None, diags)
    } else {
        (Some(grammar), diags)
    }
}

struct Loader {
    /// Imported files that did not read as ABNF: nothing found in them later
    /// (an undefined name, say) is reported with an excerpt of them.
    hidden: Vec<FileId>,
    sources: SourceMap,
    diags: Vec<Diagnostic>,
    modules: Vec<Module>,
    specs: Vec<SpecFile>,
    inputs: Vec<Option<SpecInput>>,
    /// The module each `@import` line (importing module, file-name span)
    /// resolved to. An import that failed has none: its rules are not
    /// looked up in a loaded module that happens to have the same stem.
    import_targets: HashMap<(usize, Span), usize>,
}

fn stem(name: &str) -> String {
    let file = name.rsplit(['/', '\\']).next().unwrap_or(name);
    file.split('.').next().unwrap_or(file).to_string()
}

impl Loader {
    fn push_module(
        &mut self,
        name: String,
        file: FileId,
        path: Option<PathBuf>,
        spec: SpecFile,
        input: Option<SpecInput>,
        root: bool,
    ) -> usize {
        self.modules.push(Module {
            name,
            file,
            path,
            defined: Vec::new(),
            imported: Vec::new(),
            root,
            schemes: Vec::new(),
            components: Vec::new(),
            bidirectional: Vec::new(),
            scope: HashMap::new(),
        });
        self.specs.push(spec);
        self.inputs.push(input);
        self.modules.len() - 1
    }

    /// Decodes and parses one file; returns its module index.
    fn add_file(&mut self, input: SpecInput, root: bool) -> Option<usize> {
        let name = stem(&input.name);
        if let Some(i) = self.modules.iter().position(|m| m.name == name) {
            let same = self.inputs[i].as_ref().is_some_and(|known| {
                known.name == input.name
                    || (known.path.is_some() && known.path == input.path)
                    || known.bytes == input.bytes
            });
            if !same {
                let file = self
                    .sources
                    .add(&input.name, String::from_utf8_lossy(&input.bytes).into_owned());
                self.diags.push(
                    Diagnostic::error(
                        Code::SpecFile,
                        format!(
                            "`{}` and `{}` would both be the grammar `{name}`",
                            self.inputs[i].as_ref().map_or("", |k| k.name.as_str()),
                            input.name
                        ),
                        Some(Span::new(file, 0..0)),
                    )
                    .with_note("a grammar is named after its file's stem; rename one of the files"),
                );
                return None;
            }
            if root {
                self.modules[i].root = true;
            }
            return Some(i);
        }
        if input.bytes.len() > MAX_SPEC_BYTES {
            let file = self.sources.add(&input.name, "");
            self.diags.push(
                Diagnostic::error(
                    Code::SpecFile,
                    format!(
                        "spec file is too large: {} bytes, the limit is {} bytes",
                        input.bytes.len(),
                        MAX_SPEC_BYTES
                    ),
                    Some(Span::new(file, 0..0)),
                )
                .with_note("a grammar is a few kilobytes; is this the right file?"),
            );
            return None;
        }
        let text = match String::from_utf8(input.bytes.clone()) {
            // A byte order mark (editors on Windows write one) is not text.
            Ok(t) => match t.strip_prefix('\u{feff}') {
                Some(rest) => rest.to_string(),
                None => t,
            },
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let lossy = String::from_utf8_lossy(&input.bytes).into_owned();
                let file = self.sources.add(&input.name, lossy);
                self.diags.push(
                    Diagnostic::error(
                        Code::SpecFile,
                        format!(
                            "spec file is not UTF-8: invalid byte {:#04x} at offset {at}",
                            input.bytes[at]
                        ),
                        Some(Span::new(file, at..at + 1)),
                    )
                    .with_label("not UTF-8")
                    .with_note("ABNF is US-ASCII text; write other characters as `%x` values"),
                );
                return None;
            }
        };
        // An RFC as published: read the ABNF out of it.
        let mut starts = None;
        let text = if input.name.ends_with(".txt") {
            let extracted = syntax::rfc_text::extract(&text);
            if extracted.rules == 0 {
                let file = self.sources.add(&input.name, text);
                self.diags.push(
                    Diagnostic::error(
                        Code::SpecFile,
                        format!("no ABNF rules found in `{}`", input.name),
                        Some(Span::new(file, 0..0)),
                    )
                    .with_note(
                        "a `.txt` spec is read as an RFC: rules are lines like `   name = elements`, \
                             continued on deeper-indented lines",
                    ),
                );
                return None;
            }
            if !extracted.stray.is_empty() {
                // The extracted text blanks the lines it skipped: point into
                // the RFC as given.
                let original = self.sources.add(&input.name, text.clone());
                let file = self.sources.get(original);
                let line_starts: Vec<usize> = std::iter::once(0)
                    .chain(file.text.match_indices('\n').map(|(i, _)| i + 1))
                    .collect();
                for &(line, at, c) in &extracted.stray {
                    let start = line_starts[line] + at;
                    let end = (start + c.len_utf8()).min(file.text.len());
                    self.diags.push(
                        Diagnostic::warning(
                            Code::Prose,
                            format!(
                                "`{}` is not ABNF: this line is skipped as prose",
                                c.escape_debug()
                            ),
                            Some(Span::new(original, start..end)),
                        )
                        .with_label("not an ABNF element")
                        .with_note(
                            "a line of a `.txt` spec that is not all ABNF is read as the RFC's prose; \
                             if it is meant as a rule (or part of one), fix the character",
                        ),
                    );
                }
            }
            starts = Some(extracted.starts);
            extracted.text
        } else {
            text
        };
        let file = self.sources.add(&input.name, text);
        let spec = syntax::parse_spec_at(&self.sources, file, starts.as_deref(), &mut self.diags);
        let path = input.path.clone();
        Some(self.push_module(name, file, path, spec, Some(input), root))
    }

    fn resolve_import_file(
        &mut self,
        importer: usize,
        import: &syntax::Import,
        resolve: &mut ImportResolver<'_>,
    ) {
        let Some(from) = self.inputs[importer].clone() else {
            return;
        };
        match resolve(&from, &import.file) {
            Ok(input) => {
                let before = self.diags.len();
                let known = self.modules.len();
                let files = self.sources.len();
                let added = self.add_file(input, false);
                if let Some(target) = added.filter(|&t| t >= known) {
                    self.hide_if_not_a_spec(target, before, import);
                }
                if added.is_none() {
                    // Refused whole (too large, not UTF-8, a name clash):
                    // say so at the import, not in an excerpt of the file.
                    for d in &mut self.diags[before..] {
                        if d.span.is_some_and(|s| s.file.0 >= files) {
                            d.span = Some(import.file_span);
                            d.label = "imported here".into();
                        }
                    }
                }
                if let Some(target) = added {
                    self.import_targets.insert((importer, import.file_span), target);
                    if target == importer {
                        self.diags.push(
                            Diagnostic::error(
                                Code::Import,
                                "a spec file cannot import itself",
                                Some(import.file_span),
                            )
                            .with_label("this is the importing file"),
                        );
                    }
                }
            }
            Err(why) => self.diags.push(
                Diagnostic::error(
                    Code::Import,
                    format!("cannot import `{}`: {why}", import.file),
                    Some(import.file_span),
                )
                .with_label("imported here"),
            ),
        }
    }

    /// An imported file that does not read as ABNF (more syntax errors than
    /// rules that parsed) may be anything, secrets included: its errors,
    /// whose excerpts would quote it line by line, become one error at the
    /// import that quotes nothing of it.
    fn hide_if_not_a_spec(&mut self, module: usize, before: usize, import: &syntax::Import) {
        let file = self.modules[module].file;
        let errors = self.diags[before..]
            .iter()
            .filter(|d| d.is_error() && d.span.is_some_and(|s| s.file == file))
            .count();
        let parsed = self.specs[module]
            .rules
            .iter()
            .filter(|r| !r.tokens.is_empty())
            .count();
        if errors == 0 || errors <= parsed {
            return;
        }
        self.hidden.push(file);
        let later = self.diags.split_off(before);
        self.diags.extend(
            later
                .into_iter()
                .filter(|d| d.span.is_none_or(|s| s.file != file)),
        );
        self.diags.push(
            Diagnostic::error(
                Code::SpecFile,
                format!(
                    "`{}` does not read as an ABNF spec: {errors} of its {} definitions do not parse",
                    import.file,
                    errors + parsed
                ),
                Some(import.file_span),
            )
            .with_label("imported here")
            .with_note("its lines are not shown; check that the import names the right file"),
        );
    }

    fn build(&mut self) -> Grammar {
        let mut rules: Vec<Rule> = Vec::new();
        // Pass 1: give every definition a RuleId; merge `=/`; find duplicates.
        let mut bodies: Vec<Vec<(usize, usize)>> = Vec::new(); // per rule: (module, def index)
        for (m, spec) in self.specs.iter().enumerate() {
            for (d, def) in spec.rules.iter().enumerate() {
                let key = def.name.to_ascii_lowercase();
                match self.modules[m].scope.get(&key) {
                    Some(&id) if def.incremental => {
                        rules[id.0 as usize].defs.push(def.span);
                        bodies[id.0 as usize].push((m, d));
                    }
                    Some(&id) => {
                        let first = rules[id.0 as usize].name_span;
                        self.diags.push(
                            Diagnostic::error(
                                Code::DuplicateRule,
                                format!("rule `{}` is defined twice", def.name),
                                Some(def.name_span),
                            )
                            .with_label("second definition")
                            .with_secondary(first, "first defined here")
                            .with_note("use `=/` to add alternatives to a rule (RFC 5234 §3.3)"),
                        );
                    }
                    None => {
                        if def.incremental {
                            self.diags.push(
                                Diagnostic::error(
                                    Code::DuplicateRule,
                                    format!(
                                        "`{} =/` adds alternatives to a rule that is not defined before it",
                                        def.name
                                    ),
                                    Some(def.name_span),
                                )
                                .with_label("no earlier `=` definition in this file"),
                            );
                        }
                        let id = RuleId(rules.len() as u32);
                        rules.push(Rule {
                            name: def.name.clone(),
                            module: ModuleId(m as u32),
                            name_span: def.name_span,
                            defs: vec![def.span],
                            expr: Expr::Alt(Vec::new()),
                        });
                        bodies.push(vec![(m, d)]);
                        self.modules[m].scope.insert(key, id);
                        self.modules[m].defined.push(id);
                    }
                }
            }
        }
        // Pass 2: imports enter the importing module's scope.
        for m in 1..self.modules.len() {
            for import in self.specs[m].imports.clone() {
                let Some(&t) = self.import_targets.get(&(m, import.file_span)) else {
                    continue; // already reported
                };
                for (name, span) in &import.rules {
                    let Some(id) = self.modules[t].get(name) else {
                        self.diags.push(
                            Diagnostic::error(
                                Code::Import,
                                format!("`{}` defines no rule `{name}`", import.file),
                                Some(*span),
                            )
                            .with_label("not found in the imported file"),
                        );
                        continue;
                    };
                    let key = name.to_ascii_lowercase();
                    if let Some(&existing) = self.modules[m].scope.get(&key) {
                        if existing != id {
                            self.diags.push(
                                Diagnostic::error(
                                    Code::Import,
                                    format!("imported rule `{name}` is also defined in this file"),
                                    Some(*span),
                                )
                                .with_label("imported here")
                                .with_secondary(rules[existing.0 as usize].name_span, "defined here"),
                            );
                        }
                        continue;
                    }
                    self.modules[m].scope.insert(key, id);
                    self.modules[m].imported.push(id);
                }
            }
        }
        // Components directives too.
        for m in 1..self.modules.len() {
            let mut components_at: Vec<(RuleId, Span)> = Vec::new();
            for d in self.specs[m].components.clone() {
                let mut resolve = |name: &str, span| {
                    let found = self.modules[m].get(name);
                    if found.is_none() {
                        self.diags.push(
                            Diagnostic::error(
                                Code::Directive,
                                format!("`@components` names no rule `{name}`"),
                                Some(span),
                            )
                            .with_label("not defined in this file"),
                        );
                    }
                    found
                };
                let rule = resolve(&d.rule, d.rule_span);
                let mut fields = Vec::new();
                for (name, rules) in &d.fields {
                    let ids: Option<Vec<RuleId>> = rules.iter().map(|(r, span)| resolve(r, *span)).collect();
                    fields.extend(ids.map(|ids| (name.clone(), ids)));
                }
                if let (Some(rule), true) = (rule, fields.len() == d.fields.len()) {
                    if let Some(&(_, first)) = components_at.iter().find(|(r, _)| *r == rule) {
                        // One extraction type per rule: two would be two
                        // structs of one name.
                        self.diags.push(
                            Diagnostic::error(
                                Code::Directive,
                                format!("`@components` is given twice for rule `{}`", d.rule),
                                Some(d.rule_span),
                            )
                            .with_label("second `@components` for this rule")
                            .with_secondary(first, "first given here")
                            .with_note("list every field in one directive"),
                        );
                        continue;
                    }
                    components_at.push((rule, d.rule_span));
                    self.modules[m].components.push(Components { rule, fields });
                }
            }
        }
        for m in 1..self.modules.len() {
            for (name, span) in self.specs[m].bidirectional.clone() {
                match self.modules[m].get(&name) {
                    Some(id) => self.modules[m].bidirectional.push(id),
                    None => self.diags.push(
                        Diagnostic::error(
                            Code::Directive,
                            format!("`@bidirectional` names no rule `{name}`"),
                            Some(span),
                        )
                        .with_label("not defined in this file"),
                    ),
                }
            }
        }
        // Scheme directives name rules of their own file (or imported ones).
        // A scheme has one syntax: a second `@scheme` for it is an error.
        let mut scheme_at: HashMap<String, Span> = HashMap::new();
        for m in 1..self.modules.len() {
            for d in self.specs[m].schemes.clone() {
                if let Some(&first) = scheme_at.get(&d.scheme) {
                    self.diags.push(
                        Diagnostic::error(
                            Code::Directive,
                            format!("`@scheme {}` is given twice", d.scheme),
                            Some(d.scheme_span),
                        )
                        .with_label("second `@scheme` for this scheme")
                        .with_secondary(first, "first given here")
                        .with_note("a scheme has one syntax; keep one of the directives"),
                    );
                    continue;
                }
                scheme_at.insert(d.scheme.clone(), d.scheme_span);
                match self.modules[m].get(&d.rule) {
                    Some(id) => self.modules[m].schemes.push((d.scheme, id)),
                    None => self.diags.push(
                        Diagnostic::error(
                            Code::Directive,
                            format!("`@scheme {}` names no rule `{}`", d.scheme, d.rule),
                            Some(d.rule_span),
                        )
                        .with_label("not defined in this file"),
                    ),
                }
            }
        }
        // Pass 3: bodies → IR, resolving references.
        let mut suggestions = limits::MAX_SUGGESTIONS;
        for (id, defs) in bodies.iter().enumerate() {
            let mut alts = Vec::new();
            for &(m, d) in defs {
                let def = &self.specs[m].rules[d];
                let mut cx = Lower {
                    modules: &self.modules,
                    module: m,
                    tokens: def.tokens.iter(),
                    sources: &self.sources,
                    diags: &mut self.diags,
                    suggestions: &mut suggestions,
                };
                let expr = cx.node(&def.body);
                // `=/` alternatives are appended in order (RFC 5234 §3.3).
                match expr {
                    Expr::Alt(es) if defs.len() > 1 => alts.extend(es),
                    e => alts.push(e),
                }
            }
            rules[id].expr = if alts.len() == 1 {
                alts.pop().unwrap()
            } else {
                Expr::Alt(alts)
            };
        }
        let mut sources = SourceMap::default();
        std::mem::swap(&mut sources, &mut self.sources);
        Grammar {
            sources,
            modules: std::mem::take(&mut self.modules),
            rules,
            depths: Vec::new(),
            octets: Vec::new(),
        }
    }
}

/// Converts one `abnf` crate node tree to [`Expr`], pairing nodes with the
/// lexer's tokens (both are in textual order).
struct Lower<'a, 'd> {
    modules: &'a [Module],
    module: usize,
    tokens: std::slice::Iter<'a, Tok>,
    sources: &'a SourceMap,
    diags: &'d mut Vec<Diagnostic>,
    /// How many more "did you mean" lookups this load may make.
    suggestions: &'d mut usize,
}

impl Lower<'_, '_> {
    fn next_tok(&mut self, kind: TokKind) -> Span {
        let tok = self
            .tokens
            .next()
            .expect("the lexer and the abnf crate see the same elements");
        debug_assert_eq!(tok.kind, kind, "token order mismatch");
        tok.span
    }

    fn lookup(&self, name: &str) -> Option<RuleId> {
        self.modules[self.module]
            .get(name)
            .or_else(|| self.modules[0].get(name))
    }

    fn node(&mut self, node: &Node) -> Expr {
        match node {
            Node::Alternatives(ns) => Expr::Alt(ns.iter().map(|n| self.node(n)).collect()),
            Node::Concatenation(ns) => Expr::Concat(ns.iter().map(|n| self.node(n)).collect()),
            Node::Repetition { repeat, node } => {
                self.next_tok(TokKind::Repeat);
                let (min, max) = match repeat {
                    Repeat::Specific(n) => (*n, Some(*n)),
                    Repeat::Variable { min, max } => (min.unwrap_or(0), *max),
                };
                let expr = Box::new(self.node(node));
                let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
                Expr::Repeat {
                    min: clamp(min),
                    max: max.map(clamp),
                    expr,
                }
            }
            Node::Group(n) => self.node(n),
            Node::Optional(n) => Expr::Repeat {
                min: 0,
                max: Some(1),
                expr: Box::new(self.node(n)),
            },
            Node::Rulename(name) => {
                let span = self.next_tok(TokKind::Rulename);
                self.reference(name, span, false)
            }
            Node::Prose(text) => {
                let span = self.next_tok(TokKind::Prose);
                self.reference(text.trim(), span, true)
            }
            Node::String(lit) => {
                self.next_tok(TokKind::CharVal);
                Expr::Str {
                    text: lit.value().to_string(),
                    case_sensitive: lit.is_case_sensitive(),
                }
            }
            Node::TerminalValues(tv) => {
                let span = self.next_tok(TokKind::NumVal);
                match tv {
                    TerminalValues::Range(lo, hi) => Expr::Range(*lo, *hi, span),
                    TerminalValues::Concatenation(vs) => match vs.as_slice() {
                        [v] => Expr::Range(*v, *v, span),
                        vs => Expr::Concat(vs.iter().map(|&v| Expr::Range(v, v, span)).collect()),
                    },
                }
            }
        }
    }

    fn reference(&mut self, name: &str, span: Span, prose: bool) -> Expr {
        if let Some(id) = self.lookup(name) {
            return Expr::Ref(id, span);
        }
        let d = if prose {
            Diagnostic::error(
                Code::UndefinedRule,
                format!(
                    "prose value `{}` cannot be matched: it does not name a rule",
                    self.sources.snippet(span)
                ),
                Some(span),
            )
            .with_label("prose is text for people, not a pattern")
            .with_note(
                "a prose value is accepted only when it names a rule, like `<pchar>`; write the rule instead",
            )
        } else {
            let mut d = Diagnostic::error(
                Code::UndefinedRule,
                format!("undefined rule `{name}`"),
                Some(span),
            )
            .with_label("not defined");
            if let Some(close) = self.closest(name) {
                d = d.with_note(format!("a rule with a similar name exists: `{close}`"));
            } else {
                d = d.with_note("define it, or import it with `; @import FILE RULE`");
            }
            d
        };
        self.diags.push(d);
        Expr::Alt(Vec::new())
    }

    /// A defined name within edit distance 2, for "did you mean".
    ///
    /// Bounded: names longer than [`limits::MAX_SUGGEST_NAME_LEN`] get no
    /// suggestion, only candidates whose length is within the distance are
    /// compared, the distance is computed in a band of width `2 * max + 1`
    /// and given up as soon as it exceeds `max`, and after
    /// [`limits::MAX_SUGGESTIONS`] lookups in one load the rest go without.
    fn closest(&mut self, name: &str) -> Option<String> {
        let (modules, module) = (self.modules, self.module);
        {
            if name.len() > limits::MAX_SUGGEST_NAME_LEN || *self.suggestions == 0 {
                return None;
            }
            *self.suggestions -= 1;
            closest_name(
                name,
                modules[module]
                    .scope
                    .keys()
                    .chain(modules[0].scope.keys())
                    .map(String::as_str),
            )
        }
    }
}

/// The name of `candidates` closest to `name` (ignoring ASCII case, within
/// one edit for names of up to 4 bytes, two for longer ones), for "did you
/// mean"; none for names longer than [`limits::MAX_SUGGEST_NAME_LEN`].
/// `candidates` are compared lowercased; the one returned is as given.
pub fn closest_name<'c>(name: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<String> {
    if name.len() > limits::MAX_SUGGEST_NAME_LEN {
        return None;
    }
    let lname = name.to_ascii_lowercase();
    // One edit for short names, two for longer ones: `zz` is not a
    // typo of `a`.
    let max = if lname.len() <= 4 { 1 } else { 2 };
    candidates
        .into_iter()
        .filter(|k| k.len().abs_diff(lname.len()) <= max && k.len() <= limits::MAX_SUGGEST_NAME_LEN)
        .filter_map(|k| {
            bounded_edit_distance(lname.as_bytes(), k.to_ascii_lowercase().as_bytes(), max).map(|d| (d, k))
        })
        .min()
        .map(|(_, k)| k.to_string())
}

/// The edit distance of `a` and `b` if it is at most `max`: only the cells
/// within `max` of the diagonal are computed (O(len · max)), and the walk
/// stops once a whole row is above `max`. Rule names are ASCII.
fn bounded_edit_distance(a: &[u8], b: &[u8], max: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    const FAR: usize = usize::MAX / 2;
    let mut prev: Vec<usize> = (0..=b.len()).map(|j| if j <= max { j } else { FAR }).collect();
    let mut cur = vec![FAR; b.len() + 1];
    for (i, &ca) in a.iter().enumerate() {
        let row = i + 1;
        let lo = row.saturating_sub(max);
        let hi = (row + max).min(b.len());
        cur.fill(FAR);
        if lo == 0 {
            cur[0] = row;
        }
        let mut best = cur[0];
        for j in lo.max(1)..=hi {
            let sub = prev[j - 1] + usize::from(ca != b[j - 1]);
            let v = sub.min(prev[j] + 1).min(cur[j - 1] + 1);
            cur[j] = v;
            best = best.min(v);
        }
        if best > max {
            return None;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    Some(prev[b.len()]).filter(|&d| d <= max)
}

/// The rules reachable from `roots` through references.
pub fn reachable(grammar: &Grammar, roots: &[RuleId]) -> Vec<bool> {
    let mut seen = vec![false; grammar.rules.len()];
    let mut stack: Vec<RuleId> = roots.to_vec();
    while let Some(id) = stack.pop() {
        if std::mem::replace(&mut seen[id.0 as usize], true) {
            continue;
        }
        grammar.rule(id).expr.for_each_ref(&mut |r, _| stack.push(r));
    }
    seen
}

/// Warnings for rules of root modules that the exported rules never reach.
pub fn unused_rules(grammar: &Grammar, exported: &[RuleId]) -> Vec<Diagnostic> {
    let seen = reachable(grammar, exported);
    let mut out = Vec::new();
    for m in grammar.modules.iter().filter(|m| m.root) {
        for &id in &m.defined {
            if !seen[id.0 as usize] {
                let rule = grammar.rule(id);
                out.push(
                    Diagnostic::warning(
                        Code::UnusedRule,
                        format!("rule `{}` is never used", rule.name),
                        Some(rule.name_span),
                    )
                    .with_label("not exported and not referenced by an exported rule"),
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::bounded_edit_distance;

    fn levenshtein(a: &[u8], b: &[u8]) -> usize {
        let mut prev: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.iter().enumerate() {
            let mut cur = vec![i + 1];
            for (j, cb) in b.iter().enumerate() {
                cur.push(
                    (prev[j] + usize::from(ca != cb))
                        .min(prev[j + 1] + 1)
                        .min(cur[j] + 1),
                );
            }
            prev = cur;
        }
        prev[b.len()]
    }

    /// The banded distance agrees with the full one wherever that is at
    /// most the bound, and is `None` elsewhere: every pair of strings of up
    /// to 5 letters over a 3-letter alphabet.
    #[test]
    fn bounded_edit_distance_agrees_with_levenshtein() {
        let mut words = vec![Vec::new()];
        for len in 1..=5 {
            for k in 0..3usize.pow(len) {
                let mut w = Vec::new();
                let mut k = k;
                for _ in 0..len {
                    w.push(b"abc"[k % 3]);
                    k /= 3;
                }
                words.push(w);
            }
        }
        let sample: Vec<&Vec<u8>> = words.iter().step_by(7).collect();
        for a in &sample {
            for b in &sample {
                let full = levenshtein(a, b);
                for max in 0..=3 {
                    let want = (full <= max).then_some(full);
                    assert_eq!(bounded_edit_distance(a, b, max), want, "{a:?} {b:?} max {max}");
                }
            }
        }
    }
}
