//! The builder that drives the pipeline, in the `prost-build` style.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::ast::{self, AstModel, Shape};
use crate::automata::{self, Automaton, BuildError, Limits};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::emit::ast::{
    EmitComponents, EmitField, EmitShape, EmitTdfa, EmitType, EmitTypeKind, EmitVariant, Target,
};
use crate::emit::{self, EmitGrammar, EmitKind, EmitRule, IncludeStyle};

use crate::grammar::{self, Grammar, ModuleId, RuleId, SpecInput};
use crate::limits;
use crate::partial::{self, LeftOut};
use crate::regular::Lowerer;
use crate::tagged::TaggedDfa;

/// What to do about a typed AST whose automaton is too large.
const AST_TOO_BIG: &str = "make the rule a leaf with `Config::ast_leaves` to silence this, raise \
     `Limits::tagged_states`, or turn the typed AST off with `Config::typed_ast(false)`";

/// The stem of the generated index file (`grammars.rs`); no spec may be
/// named so, or its module would overwrite the index.
const INDEX_MODULE: &str = "grammars";

/// The most states a `@bidirectional` rule's reverse automaton may have; a
/// larger one is left out (the recognizer then walks forwards only).
const MAX_REVERSE_STATES: usize = 4096;

/// Configures and runs code generation.
///
/// Setters take `&mut self` and return `&mut Self`; [`Config::compile`] is
/// for build scripts, [`Config::generate`] returns the files without writing
/// them, and [`Config::build`] stops after the automata.
#[derive(Clone, Debug, Default)]
pub struct Config {
    spec_paths: Vec<PathBuf>,
    spec_dirs: Vec<PathBuf>,
    spec_sources: Vec<(String, String)>,
    exports: BTreeMap<String, Vec<String>>,
    out_dir: Option<PathBuf>,
    runtime: Option<String>,
    regenerate_command: Option<String>,
    include_style: IncludeStyle,
    limits: Limits,
    ast_rules: BTreeMap<String, Vec<String>>,
    ast_leaves: BTreeMap<String, Vec<String>>,
    no_ast: bool,
    no_unused_warnings: bool,
    depths: Vec<(String, String, u32)>,
    octets: Vec<String>,
    import_dirs: Vec<PathBuf>,
}

/// Why generation failed.
#[derive(Debug)]
pub enum Error {
    /// The grammar has errors (rendered with file, line, column and caret).
    Grammar(Diagnostics),
    /// Reading a spec or writing output failed.
    Io {
        /// The file involved.
        path: PathBuf,
        /// What happened.
        error: std::io::Error,
    },
    /// The configuration is incomplete (no `OUT_DIR`, no spec files, ...).
    Config(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Grammar(d) => write!(f, "{d}"),
            Error::Io { path, error } => write!(f, "error: {}: {error}", path.display()),
            Error::Config(msg) => write!(f, "error: {msg}"),
        }
    }
}

impl std::error::Error for Error {}

impl Error {
    /// The diagnostics, when the grammar was at fault.
    pub fn diagnostics(&self) -> Option<&Diagnostics> {
        match self {
            Error::Grammar(d) => Some(d),
            _ => None,
        }
    }
}

/// One generated file, its path relative to the output folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedFile {
    /// Relative path (`rfc3987.rs`, `rfc3987/iri_reference.le.dfa`).
    pub path: String,
    /// Contents.
    pub contents: Vec<u8>,
}

/// Measurements of one rule's automaton.
#[derive(Clone, Debug)]
pub struct RuleStats {
    /// Module (spec file stem).
    pub grammar: String,
    /// ABNF rule name.
    pub rule: String,
    /// Thompson NFA states.
    pub nfa_states: usize,
    /// Minimized DFA states (the dead state included).
    pub dfa_states: usize,
    /// Byte classes of the compact table.
    pub classes: usize,
    /// Bytes of the compact transition table the recognizer walks.
    pub table_bytes: usize,
    /// Bytes of the sparse `regex-automata` DFA (for search and errors).
    pub sparse_bytes: usize,
    /// Bytes of the tagged DFA for the typed AST (0 when the rule has none).
    pub extract_bytes: usize,
    /// Bytes of the tagged DFA of the rule's `@components` directive (0
    /// when it has none), its two-byte steps included.
    pub components_bytes: usize,
    /// Bytes of the reverse automaton and its sets (`@bidirectional`; 0
    /// when the rule has none).
    pub reverse_bytes: usize,
    /// Time to build and minimize.
    pub build_time: Duration,
}

/// What [`Config::generate`] produces.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The files.
    pub files: Vec<GeneratedFile>,
    /// Per-rule measurements.
    pub stats: Vec<RuleStats>,
    /// Warnings (generation succeeded).
    pub warnings: Diagnostics,
    /// Every spec file read from disk (for `rerun-if-changed`).
    pub inputs: Vec<PathBuf>,
}

impl Generated {
    /// The file at `path`, as text.
    pub fn file(&self, path: &str) -> Option<&str> {
        self.files
            .iter()
            .find(|f| f.path == path)
            .and_then(|f| std::str::from_utf8(&f.contents).ok())
    }
}

/// A grammar with the automata of its exported rules, in memory.
pub struct Compiled {
    /// The resolved grammar.
    pub grammar: Grammar,
    /// Warnings found on the way.
    pub warnings: Diagnostics,
    exports: Vec<(ModuleId, Vec<RuleId>)>,
    automata: HashMap<RuleId, Automaton>,
    /// The reverse automata of `@bidirectional` rules.
    reverses: HashMap<RuleId, automata::Reverse>,
    typed: TypedParts,
    left_out: Vec<LeftOut>,
}

/// The typed AST of each root module with its automata.
#[derive(Default)]
struct TypedParts {
    models: Vec<(ModuleId, AstModel)>,
    tdfas: HashMap<RuleId, TaggedDfa>,
    elements: HashMap<(RuleId, String), TaggedDfa>,
    /// Per root module, its `@components` extractions, in spec order.
    components: Vec<(ModuleId, Vec<BuiltComponents>)>,
}

/// One `@components` extraction: its fields and its tagged DFA (field `i`
/// is group `i + 1`).
struct BuiltComponents {
    rule: RuleId,
    fields: Vec<(String, Vec<RuleId>)>,
    tdfa: TaggedDfa,
}

/// An in-memory recognizer for one exported rule.
#[derive(Clone, Copy)]
pub struct Recognizer<'a> {
    /// The module that defines the rule.
    pub grammar: &'a str,
    /// The rule name as defined.
    pub rule: &'a str,
    /// The automaton.
    pub automaton: &'a Automaton,
}

impl Recognizer<'_> {
    /// Whether all of `input` matches the rule.
    pub fn is_match(&self, input: &[u8]) -> bool {
        self.automaton.full_match(input).is_ok()
    }

    /// `Err(offset)` of the first byte at which no match is possible any
    /// more (the input's length if it ended too early).
    pub fn full_match(&self, input: &[u8]) -> Result<(), usize> {
        self.automaton.full_match(input)
    }
}

impl Config {
    /// An empty configuration.
    pub fn new() -> Config {
        Config::default()
    }

    /// Adds a spec file. Its stem names the generated module; a `.bnf` file
    /// is read in the older notation of RFC 2396 and RFC 1738, a `.txt`
    /// file as an RFC's text (its ABNF is extracted).
    ///
    /// ```no_run
    /// // build.rs
    /// abnf_codegen::Config::new().spec("grammars/rfc3339.abnf").compile()?;
    /// # Ok::<(), abnf_codegen::Error>(())
    /// ```
    pub fn spec(&mut self, path: impl AsRef<Path>) -> &mut Config {
        self.spec_paths.push(path.as_ref().to_path_buf());
        self
    }

    /// Adds every `*.abnf` and `*.bnf` file of a folder (sorted by name);
    /// [`Config::compile`] also asks cargo to rerun when a file is added.
    ///
    /// ```
    /// let dir = std::env::temp_dir().join("abnf-codegen-doc-specs-dir");
    /// std::fs::create_dir_all(&dir)?;
    /// std::fs::write(dir.join("num.abnf"), "num = 1*DIGIT\n")?;
    /// let compiled = abnf_codegen::Config::new().specs_dir(&dir).build()?;
    /// assert!(compiled.recognizer("num", "num").unwrap().is_match(b"42"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn specs_dir(&mut self, dir: impl AsRef<Path>) -> &mut Config {
        self.spec_dirs.push(dir.as_ref().to_path_buf());
        self
    }

    /// Adds a spec given as text; `name` is its file name (imports find it
    /// by that name).
    ///
    /// ```
    /// let compiled = abnf_codegen::Config::new()
    ///     .spec_source("hex.abnf", "hex = 1*HEXDIG\n")
    ///     .build()?;
    /// let hex = compiled.recognizer("hex", "hex").unwrap();
    /// assert!(hex.is_match(b"c0FFee"));
    /// assert_eq!(hex.full_match(b"c0g"), Err(2));
    /// # Ok::<(), abnf_codegen::Error>(())
    /// ```
    pub fn spec_source(&mut self, name: impl Into<String>, text: impl Into<String>) -> &mut Config {
        self.spec_sources.push((name.into(), text.into()));
        self
    }

    /// Exports only these rules of `grammar` (a spec file stem). Without
    /// this, every rule the file defines or imports is exported. Below the
    /// rules named here, every rule with parts gets a typed node (see
    /// [`crate::ast`]).
    ///
    /// ```
    /// let compiled = abnf_codegen::Config::new()
    ///     .spec_source("t.abnf", "time = hour \":\" minute\nhour = 2DIGIT\nminute = 2DIGIT\n")
    ///     .export("t", &["time"])
    ///     .build()?;
    /// assert!(compiled.recognizer("t", "time").is_some());
    /// assert!(compiled.recognizer("t", "hour").is_none());
    /// # Ok::<(), abnf_codegen::Error>(())
    /// ```
    pub fn export<S: AsRef<str>>(&mut self, grammar: &str, rules: &[S]) -> &mut Config {
        self.exports
            .entry(grammar.to_string())
            .or_default()
            .extend(rules.iter().map(|r| r.as_ref().to_string()));
        self
    }

    /// Where [`Config::compile`] writes (default: `$OUT_DIR`).
    ///
    /// ```
    /// let out = std::env::temp_dir().join("abnf-codegen-doc-out-dir");
    /// abnf_codegen::Config::new()
    ///     .spec_source("num.abnf", "num = 1*DIGIT\n")
    ///     .out_dir(&out)
    ///     .compile()?;
    /// assert!(out.join("grammars.rs").is_file() && out.join("num.rs").is_file());
    /// # Ok::<(), abnf_codegen::Error>(())
    /// ```
    pub fn out_dir(&mut self, dir: impl AsRef<Path>) -> &mut Config {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// The path of the runtime crate in generated code (default
    /// `::abnf_runtime`): a crate that re-exports `abnf-runtime` under another
    /// name sets it.
    ///
    /// ```
    /// let files = abnf_codegen::Config::new()
    ///     .spec_source("num.abnf", "num = 1*DIGIT\n")
    ///     .runtime_crate("crate::rt")
    ///     .generate()?;
    /// let module = files.file("num.rs").unwrap();
    /// assert!(module.contains("pub static NUM: crate::rt::Recognizer"));
    /// # Ok::<(), abnf_codegen::Error>(())
    /// ```
    pub fn runtime_crate(&mut self, path: impl Into<String>) -> &mut Config {
        self.runtime = Some(path.into());
        self
    }

    /// The command that regenerates checked-in output, named in each
    /// generated file's header (by default the header says that the build
    /// script regenerates it).
    ///
    /// ```
    /// let files = abnf_codegen::Config::new()
    ///     .spec_source("digits.abnf", "digits = 1*DIGIT\n")
    ///     .regenerate_command("cargo xtask codegen")
    ///     .generate()?;
    /// assert!(files.file("digits.rs").unwrap().contains("then run `cargo xtask codegen`"));
    /// # Ok::<(), abnf_codegen::Error>(())
    /// ```
    pub fn regenerate_command(&mut self, command: impl Into<String>) -> &mut Config {
        self.regenerate_command = Some(command.into());
        self
    }

    /// How generated code finds the serialized DFAs: `concat!(env!("OUT_DIR"),
    /// ...)` for build scripts (the default), or paths relative to the
    /// generated file for output that is checked in.
    ///
    /// ```
    /// use abnf_codegen::emit::IncludeStyle;
    ///
    /// let files = abnf_codegen::Config::new()
    ///     .spec_source("num.abnf", "num = 1*DIGIT\n")
    ///     .include_style(IncludeStyle::Relative)
    ///     .generate()?;
    /// assert!(files.file("num.rs").unwrap().contains(r#"include_bytes!("num/num.le.table")"#));
    /// # Ok::<(), abnf_codegen::Error>(())
    /// ```
    pub fn include_style(&mut self, style: IncludeStyle) -> &mut Config {
        self.include_style = style;
        self
    }

    /// Gives these rules of `grammar` a typed AST node even where the default
    /// choice (see [`crate::ast`]) would make them leaves.
    ///
    /// ```
    /// let files = abnf_codegen::Config::new()
    ///     .spec_source("v.abnf", "v = major \".\" minor\nmajor = 1*DIGIT\nminor = 1*DIGIT\nip = v \"/\" v\n")
    ///     .ast_rules("v", &["v"])
    ///     .generate()?;
    /// assert!(files.file("v.rs").unwrap().contains("pub struct V<'a>"));
    /// # Ok::<(), abnf_codegen::Error>(())
    /// ```
    pub fn ast_rules<S: AsRef<str>>(&mut self, grammar: &str, rules: &[S]) -> &mut Config {
        self.ast_rules
            .entry(grammar.to_string())
            .or_default()
            .extend(rules.iter().map(|r| r.as_ref().to_string()));
        self
    }

    /// Makes these rules of `grammar` leaves (their text) in the typed AST.
    ///
    /// ```
    /// let files = abnf_codegen::Config::new()
    ///     .spec_source("kv.abnf", "pair = key \"=\" value\nkey = 1*ALPHA\nvalue = 1*ALPHA\n")
    ///     .ast_leaves("kv", &["pair"])
    ///     .generate()?;
    /// assert!(!files.file("kv.rs").unwrap().contains("pub struct Pair"));
    /// # Ok::<(), abnf_codegen::Error>(())
    /// ```
    pub fn ast_leaves<S: AsRef<str>>(&mut self, grammar: &str, rules: &[S]) -> &mut Config {
        self.ast_leaves
            .entry(grammar.to_string())
            .or_default()
            .extend(rules.iter().map(|r| r.as_ref().to_string()));
        self
    }

    /// Whether to generate the typed AST and its tagged DFAs (default: yes).
    /// Recognizers alone build faster and embed less.
    ///
    /// ```
    /// let files = abnf_codegen::Config::new()
    ///     .spec_source("kv.abnf", "pair = key \"=\" value\nkey = 1*ALPHA\nvalue = 1*ALPHA\n")
    ///     .typed_ast(false)
    ///     .generate()?;
    /// assert!(!files.file("kv.rs").unwrap().contains("pub mod ast"));
    /// # Ok::<(), abnf_codegen::Error>(())
    /// ```
    pub fn typed_ast(&mut self, enabled: bool) -> &mut Config {
        self.no_ast = !enabled;
        self
    }

    /// Whether to warn about rules that no exported rule uses (default:
    /// yes). `check --rule` turns it off: the user asked about one rule.
    ///
    /// ```
    /// let compiled = abnf_codegen::Config::new()
    ///     .spec_source("t.abnf", "x = \"1\"\nunused = \"2\"\n")
    ///     .export("t", &["x"])
    ///     .unused_warnings(false)
    ///     .build()?;
    /// assert!(compiled.warnings.items.is_empty());
    /// # Ok::<(), abnf_codegen::Error>(())
    /// ```
    pub fn unused_warnings(&mut self, enabled: bool) -> &mut Config {
        self.no_unused_warnings = !enabled;
        self
    }

    /// Bounds the recursive rule `rule` of `grammar` to `depth` levels of
    /// nesting, as a `; @depth RULE N` line does: the rule is unrolled and
    /// compiled as a regular language; deeper nesting is rejected.
    ///
    /// ```
    /// let compiled = abnf_codegen::Config::new()
    ///     .spec_source("c.abnf", "comment = \"(\" *(%x61-7A / comment) \")\"\n")
    ///     .depth("c", "comment", 2)
    ///     .build()?;
    /// let comment = compiled.recognizer("c", "comment").unwrap();
    /// assert!(comment.is_match(b"(a(b))"));
    /// assert!(!comment.is_match(b"(a(b(c)))"));
    /// # Ok::<(), abnf_codegen::Error>(())
    /// ```
    pub fn depth(&mut self, grammar: &str, rule: &str, depth: u32) -> &mut Config {
        self.depths.push((grammar.to_string(), rule.to_string(), depth));
        self
    }

    /// Reads the terminal values of `grammar` (a spec file stem) as octets,
    /// as a `; @terminals octets` line does (see [`crate::terminals`]).
    ///
    /// ```
    /// let compiled = abnf_codegen::Config::new()
    ///     .spec_source("o.abnf", "obs-text = 1*%x80-FF\n")
    ///     .octets("o")
    ///     .build()?;
    /// let r = compiled.recognizer("o", "obs-text").unwrap();
    /// assert!(r.is_match(b"\xe9\xff"));
    /// assert!(r.is_match("é".as_bytes()), "é is two bytes, both in %x80-FF");
    /// # Ok::<(), abnf_codegen::Error>(())
    /// ```
    pub fn octets(&mut self, grammar: &str) -> &mut Config {
        self.octets.push(grammar.to_string());
        self
    }

    /// Size limits for the automata; a rule over a limit is an error that
    /// names it when it was asked for by name, else it is left out with a
    /// warning (see [`crate::partial`]).
    ///
    /// ```
    /// use abnf_codegen::automata::Limits;
    ///
    /// let result = abnf_codegen::Config::new()
    ///     .spec_source("big.abnf", "big = *(\"a\" / \"b\") \"a\" 12(\"a\" / \"b\")\n")
    ///     // Asked for by name: an error (exported with its whole file, it
    ///     // would be left out with a warning).
    ///     .export("big", &["big"])
    ///     .limits(Limits { dfa_bytes: 4096, determinize_bytes: 1 << 20, ..Limits::default() })
    ///     .build();
    /// assert!(result.is_err());
    /// # Ok::<(), abnf_codegen::Error>(())
    /// ```
    pub fn limits(&mut self, limits: Limits) -> &mut Config {
        self.limits = limits;
        self
    }

    /// Lets `@import` read spec files anywhere under `dir` too. By default an
    /// import must stay inside the folder of a spec given with
    /// [`Config::spec`] or a folder given with [`Config::specs_dir`] (see
    /// [`crate::limits`] and the README's "Limits" section).
    ///
    /// ```
    /// let root = std::env::temp_dir().join("abnf-codegen-doc-import-dir");
    /// let (specs, shared) = (root.join("specs"), root.join("shared"));
    /// std::fs::create_dir_all(&specs)?;
    /// std::fs::create_dir_all(&shared)?;
    /// std::fs::write(shared.join("core.abnf"), "word = 1*ALPHA\n")?;
    /// std::fs::write(specs.join("list.abnf"), "; @import ../shared/core.abnf word\nlist = word *(\",\" word)\n")?;
    /// // `../shared` is outside the spec's folder: refused unless allowed.
    /// assert!(abnf_codegen::Config::new().spec(specs.join("list.abnf")).build().is_err());
    /// let compiled = abnf_codegen::Config::new()
    ///     .spec(specs.join("list.abnf"))
    ///     .import_dir(&shared)
    ///     .build()?;
    /// assert!(compiled.recognizer("list", "list").unwrap().is_match(b"a,bc"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn import_dir(&mut self, dir: impl AsRef<Path>) -> &mut Config {
        self.import_dirs.push(dir.as_ref().to_path_buf());
        self
    }

    /// The folder trees `@import` may read from: each root spec's folder,
    /// each spec folder, each [`Config::import_dir`]; the current folder when
    /// every spec is in memory.
    fn import_roots(&self) -> Vec<PathBuf> {
        let mut roots: Vec<PathBuf> = self
            .spec_paths
            .iter()
            .map(|p| match p.parent() {
                Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                _ => PathBuf::from("."),
            })
            .chain(self.spec_dirs.iter().cloned())
            .chain(self.import_dirs.iter().cloned())
            .collect();
        if roots.is_empty() {
            roots.push(PathBuf::from("."));
        }
        roots.iter().filter_map(|r| r.canonicalize().ok()).collect()
    }

    fn inputs(&self) -> Result<Vec<SpecInput>, Error> {
        let mut paths = self.spec_paths.clone();
        for dir in &self.spec_dirs {
            let entries = std::fs::read_dir(dir).map_err(|error| Error::Io {
                path: dir.clone(),
                error,
            })?;
            let mut found: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "abnf" || e == "bnf"))
                .collect();
            found.sort();
            paths.extend(found);
        }
        let mut inputs = Vec::new();
        for path in paths {
            let bytes = read_capped(&path).map_err(|error| Error::Io {
                path: path.clone(),
                error,
            })?;
            inputs.push(SpecInput {
                name: path.display().to_string(),
                path: Some(path),
                bytes,
            });
        }
        for (name, text) in &self.spec_sources {
            inputs.push(SpecInput {
                name: name.clone(),
                path: None,
                bytes: text.clone().into_bytes(),
            });
        }
        if inputs.is_empty() {
            return Err(Error::Config("no spec files given".into()));
        }
        Ok(inputs)
    }

    /// Runs the front end only: parse, resolve and check.
    pub fn load(&self) -> Result<(Grammar, Diagnostics), Error> {
        let inputs = self.inputs()?;
        let in_memory = self.spec_sources.clone();
        let import_roots = self.import_roots();
        let mut resolve = |from: &SpecInput, name: &str| -> Result<SpecInput, String> {
            if let Some((n, t)) = in_memory.iter().find(|(n, _)| n == name) {
                return Ok(SpecInput {
                    name: n.clone(),
                    path: None,
                    bytes: t.clone().into_bytes(),
                });
            }
            let base = from.path.as_ref().and_then(|p| p.parent());
            let path = match base {
                Some(dir) => dir.join(name),
                None => PathBuf::from(name),
            };
            let bytes = read_import(&path, &import_roots)?;
            Ok(SpecInput {
                name: path.display().to_string(),
                path: Some(path),
                bytes,
            })
        };
        let (grammar, mut diags) = grammar::load(inputs, &mut resolve);
        let Some(mut g) = grammar else {
            return Err(Error::Grammar(diags));
        };
        // Bounded recursion rewrites the rules before anything reads them.
        let mut found = Vec::new();
        let mut bounds = crate::depth::directives(&g, &mut found);
        for (module, rule, depth) in &self.depths {
            match g.module_by_name(module).and_then(|m| g.module(m).get(rule)) {
                Some(id) if (1..=crate::depth::MAX_DEPTH).contains(depth) => bounds.push((id, *depth, None)),
                Some(_) => found.push(Diagnostic::error(
                    format!(
                        "`Config::depth` bounds `{rule}` to {depth}; a depth is from 1 to {}",
                        crate::depth::MAX_DEPTH
                    ),
                    None,
                )),
                None => found.push(Diagnostic::error(
                    format!("`Config::depth` names `{rule}`, which `{module}` neither defines nor imports"),
                    None,
                )),
            }
        }
        crate::depth::apply(&mut g, &bounds, &mut found);
        let mut octets = crate::terminals::directives(&g, &mut found);
        for name in &self.octets {
            match g.module_by_name(name) {
                Some(m) => octets.push(m),
                None => found.push(Diagnostic::error(
                    format!("`Config::octets` names `{name}`, which is not one of the spec files"),
                    None,
                )),
            }
        }
        crate::terminals::apply(&mut g, &octets, &mut found);
        let failed = found
            .iter()
            .any(|d| d.severity == crate::diagnostic::Severity::Error);
        diags.items.extend(found);
        if failed {
            return Err(Error::Grammar(diags));
        }
        Ok((g, diags))
    }

    /// Front end, checks, and an automaton per exported rule.
    pub fn build(&self) -> Result<Compiled, Error> {
        let (grammar, mut warnings) = self.load()?;
        let mut errors = Vec::new();
        let mut exports = self.resolve_exports(&grammar, &mut errors);
        let all: Vec<RuleId> = exports.iter().flat_map(|(_, rs)| rs.iter().copied()).collect();
        if !self.no_unused_warnings {
            warnings.items.extend(grammar::unused_rules(&grammar, &all));
        }
        warnings.items.extend(grammar::lints(&grammar));
        let explicit = partial::explicit_rules(&grammar, &exports, &self.exports);

        let mut lowerer = Lowerer::new(&grammar);
        let mut failed = Vec::new();
        let mut left_out = Vec::new();
        let automata = partial::build_automata(
            &grammar,
            &mut lowerer,
            &all,
            &explicit,
            self.limits,
            &mut failed,
            &mut errors,
            &mut warnings.items,
            &mut left_out,
        );
        partial::lowering_failures(
            &grammar,
            &lowerer,
            failed,
            &explicit,
            &mut errors,
            &mut warnings.items,
            &mut left_out,
        );
        for (_, ids) in &mut exports {
            ids.retain(|id| !left_out.iter().any(|(l, _)| l == id));
        }
        let reverses = reverse_automata(&grammar, &automata, &mut warnings);
        let mut typed = TypedParts::default();
        if !self.no_ast && errors.is_empty() {
            typed = self.build_ast(&grammar, &exports, &mut lowerer, &mut errors, &mut warnings.items);
        }
        if !errors.is_empty() {
            warnings.items.extend(errors);
            return Err(Error::Grammar(warnings));
        }
        Ok(Compiled {
            grammar,
            warnings,
            exports,
            automata,
            reverses,
            typed,
            left_out: left_out.into_iter().map(|(_, l)| l).collect(),
        })
    }

    fn rule_set(
        &self,
        g: &Grammar,
        m: ModuleId,
        names: Option<&Vec<String>>,
        errors: &mut Vec<Diagnostic>,
    ) -> BTreeSet<RuleId> {
        names
            .into_iter()
            .flatten()
            .filter_map(|n| {
                let found = g.module(m).get(n);
                if found.is_none() {
                    errors.push(Diagnostic::error(
                        format!(
                            "the AST configuration names `{n}`, which `{}` neither defines nor imports",
                            g.module(m).name
                        ),
                        None,
                    ));
                }
                found
            })
            .collect()
    }

    /// The AST model of each root module, and a tagged DFA for every typed
    /// rule and every repeated field's element.
    ///
    /// A typed rule whose tagged DFA would be too large falls back to a leaf
    /// (its text, `&str`) with a warning, and the model is made again
    /// without it: the recognizers and the other types are unaffected.
    fn build_ast(
        &self,
        g: &Grammar,
        exports: &[(ModuleId, Vec<RuleId>)],
        lowerer: &mut Lowerer<'_>,
        errors: &mut Vec<Diagnostic>,
        warnings: &mut Vec<Diagnostic>,
    ) -> TypedParts {
        let mut parts = TypedParts::default();
        // Rules whose typed tree could not be built, with why.
        let mut too_big: HashMap<RuleId, Diagnostic> = HashMap::new();
        for (m, ids) in exports {
            let name = &g.module(*m).name;
            let forced = self.rule_set(g, *m, self.ast_rules.get(name), errors);
            let mut leaves = self.rule_set(g, *m, self.ast_leaves.get(name), errors);
            leaves.extend(too_big.keys().copied());
            let explicit = self.exports.contains_key(name);
            let model = loop {
                let model = ast::model(g, ids, explicit, &forced, &leaves);
                let mut demoted = Vec::new();
                for ty in &model.types {
                    if parts.tdfas.contains_key(&ty.rule) {
                        continue;
                    }
                    let built = lowerer
                        .lower_captured(&model, ty.rule)
                        .and_then(|(hir, _)| self.tagged(g, ty.rule, &hir, false));
                    match built {
                        Ok(d) => {
                            parts.tdfas.insert(ty.rule, d);
                        }
                        Err(d) => {
                            demoted.push((ty.rule, d));
                            continue;
                        }
                    }
                    let fields: Vec<&ast::Field> = match &ty.shape {
                        Shape::Struct(fs) => fs.iter().collect(),
                        Shape::Enum(vs) => vs.iter().flat_map(|v| &v.fields).collect(),
                        Shape::List(f) => vec![f],
                    };
                    for f in fields {
                        let Some(element) = &f.element else { continue };
                        let built = lowerer
                            .lower_element(element, f.rule)
                            .and_then(|hir| self.tagged(g, ty.rule, &hir, false));
                        match built {
                            Ok(d) => {
                                parts.elements.insert((ty.rule, f.name.clone()), d);
                            }
                            Err(d) => {
                                parts.tdfas.remove(&ty.rule);
                                demoted.push((ty.rule, d));
                                break;
                            }
                        }
                    }
                }
                if demoted.is_empty() {
                    break model;
                }
                for (rule, d) in demoted {
                    leaves.insert(rule);
                    too_big.entry(rule).or_insert(d);
                }
            };
            parts.models.push((*m, model));
            let built = self.build_components(g, *m, lowerer, errors);
            parts.components.push((*m, built));
        }
        let mut demoted: Vec<(RuleId, Diagnostic)> = too_big.into_iter().collect();
        demoted.sort_by_key(|(r, _)| *r);
        for (_, d) in demoted {
            let mut d = d
                .with_label("its typed tree falls back to its text")
                .with_note(format!("the rule's recognizer is unaffected; {AST_TOO_BIG}"));
            d.severity = crate::diagnostic::Severity::Warning;
            warnings.push(d);
        }
        parts
    }

    /// The tagged DFAs of module `m`'s `@components` directives.
    fn build_components(
        &self,
        g: &Grammar,
        m: ModuleId,
        lowerer: &mut Lowerer<'_>,
        errors: &mut Vec<Diagnostic>,
    ) -> Vec<BuiltComponents> {
        let mut out = Vec::new();
        for c in &g.module(m).components {
            let r = g.rule(c.rule);
            let mut seen: HashMap<String, ()> = HashMap::new();
            let mut targets = Vec::new();
            let mut share = Vec::new();
            let mut bad = false;
            for (i, (name, rules)) in c.fields.iter().enumerate() {
                if seen.insert(ast::snake(name), ()).is_some() {
                    errors.push(Diagnostic::error(
                        format!("`@components {}` names field `{name}` twice", r.name),
                        Some(r.name_span),
                    ));
                    bad = true;
                }
                for &t in rules {
                    if targets.contains(&t) {
                        errors.push(Diagnostic::error(
                            format!(
                                "`@components {}` puts rule `{}` in two fields",
                                r.name,
                                g.rule(t).name
                            ),
                            Some(g.rule(t).name_span),
                        ));
                        bad = true;
                    }
                    targets.push(t);
                    share.push(i);
                }
            }
            if bad {
                continue;
            }
            let built = lowerer
                .lower_components(c.rule, &targets, &share)
                .and_then(|(hir, groups)| {
                    // Every field must occur somewhere outside repetitions.
                    for (i, (name, _)) in c.fields.iter().enumerate() {
                        if !groups.iter().any(|&t| share[t] == i) {
                            return Err(Diagnostic::error(
                                format!(
                                    "`@components {}`: no match of `{}` holds field `{name}` (its rules do not occur in it, or only inside a repetition)",
                                    r.name, r.name
                                ),
                                Some(r.name_span),
                            ));
                        }
                    }
                    self.tagged(g, c.rule, &hir, true)
                        .map_err(|d| d.with_note("ask for fewer fields in its `@components` directive"))
                });
            match built {
                Ok(tdfa) => out.push(BuiltComponents {
                    rule: c.rule,
                    fields: c.fields.clone(),
                    tdfa,
                }),
                Err(d) => errors.push(d),
            }
        }
        out
    }

    /// The tagged DFA of `hir`, or why it is too large: `rule`'s `@components`
    /// extraction when `components`, else a parse-tree extraction.
    fn tagged(
        &self,
        g: &Grammar,
        rule: RuleId,
        hir: &regex_syntax::hir::Hir,
        components: bool,
    ) -> Result<TaggedDfa, Diagnostic> {
        let what = if components { "components" } else { "extraction" };
        if g.octets.contains(&g.rule(rule).module) && crate::terminals::splits_characters(hir) {
            return Err(Diagnostic::error(
                format!("the {what} automaton for rule `{}` would cut a UTF-8 character: one of its parts can start or end inside one (its spec's terminals are octets), and parts are `&str`s", g.rule(rule).name),
                Some(g.rule(rule).name_span),
            ));
        }
        automata::tagged(hir, self.limits, components).map_err(|e| {
            let r = g.rule(rule);
            let detail = match e {
                BuildError::NfaTooBig(m) | BuildError::DfaTooBig(m) => m,
            };
            Diagnostic::error(
                format!(
                    "the {what} automaton for rule `{}` is too large: {detail}",
                    r.name
                ),
                Some(r.name_span),
            )
        })
    }

    fn resolve_exports(&self, g: &Grammar, errors: &mut Vec<Diagnostic>) -> Vec<(ModuleId, Vec<RuleId>)> {
        let mut out = Vec::new();
        for (i, m) in g.modules.iter().enumerate() {
            if !m.root {
                continue;
            }
            let ids = match self.exports.get(&m.name) {
                Some(names) => names
                    .iter()
                    .filter_map(|n| {
                        let found = m.get(n);
                        if found.is_none() {
                            errors.push(
                                Diagnostic::error(
                                    format!("the configuration exports `{n}`, which `{}` neither defines nor imports", m.name),
                                    None,
                                )
                                .with_note("check the rule name in `Config::export`"),
                            );
                        }
                        found
                    })
                    .collect(),
                None => m.defined.iter().chain(&m.imported).copied().collect(),
            };
            out.push((ModuleId(i as u32), ids));
        }
        for name in self.exports.keys() {
            if !g.modules.iter().any(|m| m.root && &m.name == name) {
                errors.push(Diagnostic::error(
                    format!(
                        "the configuration exports rules of `{name}`, which is not one of the spec files"
                    ),
                    None,
                ));
            }
        }
        out
    }

    /// Runs the whole pipeline and returns the generated files without
    /// writing anything.
    pub fn generate(&self) -> Result<Generated, Error> {
        let runtime = self.runtime.as_deref().unwrap_or("::abnf_runtime");
        check_runtime_path(runtime)?;
        let compiled = self.build()?;
        let regenerate = match (&self.regenerate_command, self.include_style) {
            (Some(command), _) => format!("then run `{command}`"),
            (None, IncludeStyle::OutDir) => "the build script regenerates this file".to_string(),
            (None, IncludeStyle::Relative) => {
                "then regenerate this file with `abnf-codegen generate`".to_string()
            }
        };
        compiled.emit(runtime, self.include_style, &regenerate, self.limits)
    }

    /// For build scripts: generates, writes the files that changed to the
    /// output folder, and prints `cargo:rerun-if-changed` for every input.
    pub fn compile(&self) -> Result<Generated, Error> {
        for dir in &self.spec_dirs {
            println!("cargo:rerun-if-changed={}", dir.display());
        }
        let generated = self.generate()?;
        for path in &generated.inputs {
            println!("cargo:rerun-if-changed={}", path.display());
        }
        let out = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR").map(PathBuf::from).ok_or_else(|| {
                Error::Config("no output folder: set `Config::out_dir` or run from a build script".into())
            })?,
        };
        write_if_changed(&out, &generated.files)?;
        Ok(generated)
    }
}

/// Bytes of the tables written for one recognizer, estimated from above
/// without building them (converting a DFA of a million states takes
/// longer than building it): its compact table and sparse DFA, each in both
/// byte orders, are each at most the size of the dense DFA.
fn recognizer_bytes(a: &Automaton) -> usize {
    4 * a.dfa.memory_usage()
}

/// Reads at most one byte more than [`limits::MAX_SPEC_BYTES`] (enough for
/// the loader to say the file is too large), so that a device such as
/// `/dev/zero` cannot exhaust memory.
fn read_capped(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(limits::MAX_SPEC_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Reads the file an `@import` names, if it may be read: a regular file
/// (not a device, FIFO or folder, which could block or never end) with a
/// spec extension (`.abnf`, `.bnf`, `.txt`), inside one of `roots` once
/// symbolic links and `..` are resolved. The reason for a refusal never
/// quotes the file's contents.
fn read_import(path: &Path, roots: &[PathBuf]) -> Result<Vec<u8>, String> {
    let shown = path.display();
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if !matches!(ext, "abnf" | "bnf" | "txt") {
        return Err(format!(
            "{shown}: only `.abnf`, `.bnf` and `.txt` spec files can be imported"
        ));
    }
    let meta = std::fs::metadata(path).map_err(|e| format!("{shown}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("{shown}: not a regular file"));
    }
    let real = path.canonicalize().map_err(|e| format!("{shown}: {e}"))?;
    if !roots.iter().any(|r| real.starts_with(r)) {
        return Err(format!(
            "{shown} is outside the folders of the specs being compiled; add its folder with \
             `Config::import_dir` to allow it"
        ));
    }
    read_capped(&real).map_err(|e| format!("{shown}: {e}"))
}

/// A grammar module's docs: the comment lines that open its spec file
/// (directives left out), then where it came from.
fn module_doc(text: &str, source: &str) -> Vec<String> {
    let mut doc: Vec<String> = text
        .lines()
        .map(str::trim)
        .take_while(|l| l.is_empty() || l.starts_with(';'))
        .filter_map(|l| l.strip_prefix(';'))
        .filter(|l| !l.trim_start().starts_with('@'))
        .map(|l| format!(" {}", doc_text(l.trim())).trim_end().to_string())
        .collect();
    while doc.last().is_some_and(|l| l.is_empty()) {
        doc.pop();
    }
    if !doc.is_empty() {
        doc.push(String::new());
    }
    doc.push(format!(" Generated from `{source}`."));
    doc
}

/// A comment line as Markdown: brackets (ABNF's options) are not links,
/// addresses are.
fn doc_text(line: &str) -> String {
    line.split(' ')
        .map(|w| {
            if w.starts_with("http://") || w.starts_with("https://") {
                format!("<{w}>")
            } else {
                w.replace('[', "\\[").replace(']', "\\]")
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The runtime crate's path is pasted into every generated file: it must be
/// a plain Rust path (`::iri_grammar`, `crate::rt`), not empty, not tokens
/// that fail to parse, and without generic arguments.
fn check_runtime_path(runtime: &str) -> Result<(), Error> {
    let why = match syn::parse_str::<syn::Path>(runtime) {
        Err(e) => Some(e.to_string()),
        Ok(p) if p.segments.iter().any(|s| !s.arguments.is_none()) => {
            Some("generic arguments are not allowed".to_string())
        }
        Ok(_) => None,
    };
    match why {
        None => Ok(()),
        Some(why) => Err(Error::Config(format!(
            "the runtime crate path {:?} is not a Rust path ({why}); write it like `::iri_grammar`",
            crate::diagnostic::escape_text(runtime, false)
        ))),
    }
}

/// Why `name` cannot be a Rust module name, if it cannot.
fn not_a_module_name(name: &str) -> Option<&'static str> {
    let mut chars = name.chars();
    let first = chars.next()?;
    if !(first.is_ascii_alphabetic() || first == '_') {
        return Some("it must start with a letter");
    }
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Some("it may hold only ASCII letters, digits and `_`");
    }
    if syn::parse_str::<syn::Ident>(name).is_err() {
        return Some("it is a Rust keyword");
    }
    if name == INDEX_MODULE {
        return Some("`grammars.rs` is the generated index of all modules");
    }
    None
}

/// The last component of a path, for docs that must not depend on where the
/// workspace was checked out.
fn file_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map_or_else(|| path.to_string(), |f| f.to_string_lossy().into_owned())
}

/// A fingerprint of every `*.abnf` and `*.bnf` file of `dir` (sorted by name): FNV-1a
/// over each file's name, a NUL, its contents and a NUL, as 16 hex digits.
/// `iri-grammar`'s build script computes the same value to check that its
/// checked-in generated code matches the specs.
pub fn specs_hash(dir: &Path) -> std::io::Result<String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "abnf" || e == "bnf"))
        .collect();
    files.sort();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for f in files {
        let name = f.file_name().unwrap_or_default().to_string_lossy().into_owned();
        let text = std::fs::read(&f)?;
        for &b in name.as_bytes().iter().chain(&[0]).chain(&text).chain(&[0]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    Ok(format!("{h:016x}"))
}

/// Writes files whose bytes differ from what is on disk, so that unchanged
/// output does not make dependants rebuild.
pub fn write_if_changed(out: &Path, files: &[GeneratedFile]) -> Result<(), Error> {
    for f in files {
        let path = out.join(&f.path);
        if std::fs::read(&path).ok().as_deref() == Some(&f.contents[..]) {
            continue;
        }
        let io = |error| Error::Io {
            path: path.clone(),
            error,
        };
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        std::fs::write(&path, &f.contents).map_err(io)?;
    }
    Ok(())
}

impl Compiled {
    /// The rules of a whole-file export that partial compilation left out
    /// (see [`crate::partial`]), in the order they were met.
    pub fn left_out(&self) -> &[LeftOut] {
        &self.left_out
    }

    /// The recognizer of an exported rule, by module name and rule name
    /// (case-insensitive, as in ABNF).
    pub fn recognizer(&self, grammar: &str, rule: &str) -> Option<Recognizer<'_>> {
        let m = self.grammar.module_by_name(grammar)?;
        let id = self.grammar.module(m).get(rule)?;
        let automaton = self.automata.get(&id)?;
        let r = self.grammar.rule(id);
        Some(Recognizer {
            grammar: &self.grammar.module(r.module).name,
            rule: &r.name,
            automaton,
        })
    }

    /// The typed-AST shape and tagged DFA of a typed rule, by module and
    /// rule name.
    pub fn tagged(&self, grammar: &str, rule: &str) -> Option<(&ast::AstType, &TaggedDfa)> {
        let m = self.grammar.module_by_name(grammar)?;
        let id = self.grammar.module(m).get(rule)?;
        let (_, model) = self.typed.models.iter().find(|(mm, _)| *mm == m)?;
        Some((model.get(id)?, self.typed.tdfas.get(&id)?))
    }

    /// The tagged DFA of an `@components` extraction, by module and rule
    /// name.
    pub fn components(&self, grammar: &str, rule: &str) -> Option<&TaggedDfa> {
        let m = self.grammar.module_by_name(grammar)?;
        let id = self.grammar.module(m).get(rule)?;
        let (_, built) = self.typed.components.iter().find(|(mm, _)| *mm == m)?;
        Some(&built.iter().find(|c| c.rule == id)?.tdfa)
    }

    /// How many rules got a recognizer.
    pub fn rule_count(&self) -> usize {
        self.automata.len()
    }

    /// Measurements of every automaton, in export order.
    pub fn stats(&self) -> Vec<RuleStats> {
        let mut seen = Vec::new();
        let mut out = Vec::new();
        for (_, ids) in &self.exports {
            for id in ids {
                if seen.contains(id) {
                    continue;
                }
                seen.push(*id);
                let a = &self.automata[id];
                let r = self.grammar.rule(*id);
                let compact = a.compact();
                out.push(RuleStats {
                    grammar: self.grammar.module(r.module).name.clone(),
                    rule: r.name.clone(),
                    nfa_states: a.nfa_states,
                    dfa_states: compact.states(),
                    classes: compact.alphabet,
                    table_bytes: compact.to_bytes(false).len(),
                    sparse_bytes: a.sparse_bytes().0.len(),
                    extract_bytes: self
                        .typed
                        .tdfas
                        .get(id)
                        .and_then(|d| d.to_bytes(None, false))
                        .map_or(0, |b| b.len()),
                    reverse_bytes: self.reverses.get(id).map_or(0, |rev| rev.to_bytes(false).len()),
                    components_bytes: self
                        .typed
                        .components
                        .iter()
                        .flat_map(|(_, cs)| cs)
                        .find(|c| c.rule == *id)
                        .and_then(|c| c.tdfa.to_bytes(Some(MAX_PAIR_BYTES), false))
                        .map_or(0, |b| b.len()),
                    build_time: a.build_time,
                });
            }
        }
        out
    }

    fn emit(
        &self,
        runtime: &str,
        style: IncludeStyle,
        regenerate: &str,
        limits: Limits,
    ) -> Result<Generated, Error> {
        let g = &self.grammar;
        let mut files = Vec::new();
        let mut errors = Vec::new();
        let mut module_names = Vec::new();
        let mut schemes: Vec<(String, String, String)> = Vec::new();
        let exported_by: HashMap<RuleId, ModuleId> = self
            .exports
            .iter()
            .flat_map(|(m, ids)| {
                ids.iter()
                    .filter(|id| g.rule(**id).module == *m)
                    .map(|id| (*id, *m))
            })
            .collect();
        for (m, _) in &self.exports {
            let module = g.module(*m);
            if let Some(why) = not_a_module_name(&module.name) {
                errors.push(
                    Diagnostic::error(
                        format!("the spec file name `{}` cannot name a Rust module: {why}", module.name),
                        Some(crate::diagnostic::Span::new(module.file, 0..0)),
                    )
                    .with_note(format!(
                        "each spec becomes a module named after its file; rename the file, for example to `{}.abnf`",
                        match emit::file_stem_name(&module.name).trim_start_matches("r_") {
                            INDEX_MODULE => format!("{INDEX_MODULE}_spec"),
                            other => other.to_string(),
                        }
                    )),
                );
            }
        }
        if !errors.is_empty() {
            return Err(Error::Grammar(Diagnostics {
                sources: g.sources.clone(),
                items: errors,
            }));
        }
        for (m, ids) in &self.exports {
            let module = g.module(*m);
            let mut rules = Vec::new();
            let mut idents: HashMap<String, RuleId> = HashMap::new();
            for &id in ids {
                let r = g.rule(id);
                let mut ident = emit::constant_name(&r.name);
                if ident == "GRAMMAR" {
                    ident.push_str("_RULE");
                }
                if let Some(&other) = idents.get(&ident) {
                    errors.push(
                        Diagnostic::error(
                            format!(
                                "rules `{}` and `{}` both become the Rust name `{ident}`",
                                g.rule(other).name,
                                r.name
                            ),
                            Some(r.name_span),
                        )
                        .with_label("this rule's Rust name collides")
                        .with_secondary(g.rule(other).name_span, "with this rule's")
                        .with_note("rename one of the rules, or export only one of them"),
                    );
                    continue;
                }
                idents.insert(ident.clone(), id);
                let home = exported_by.get(&id).filter(|home| *home != m);
                let kind = if let Some(home) = home {
                    EmitKind::Reexport {
                        module: g.module(*home).name.clone(),
                    }
                } else {
                    let a = &self.automata[&id];
                    let home_name = &g.module(r.module).name;
                    let dfa_path = format!("{}/{}", module.name, emit::file_stem_name(&r.name));
                    let compact = a.compact();
                    let (sparse_le, sparse_be) = a.sparse_bytes();
                    let reverse = self.reverses.get(&id);
                    let mut doc = rule_doc(g, id, "Recognizer for");
                    for (b, depth) in crate::depth::bounds_reached(g, id) {
                        doc.push(String::new());
                        doc.push(format!(
                            " Bounded recursion (`@depth {} {depth}`): `{}` nests at most {depth} levels deep \
                             here; input that nests it deeper is rejected.",
                            g.rule(b).name,
                            g.rule(b).name
                        ));
                    }
                    doc.push(String::new());
                    doc.push(format!(
                        " Minimized DFA: {} states × {} byte classes, a {}-byte table; {} bytes as a sparse \
                         `regex-automata` DFA.",
                        compact.states(),
                        compact.alphabet,
                        compact.to_bytes(false).len(),
                        sparse_le.len()
                    ));
                    if !compact.skip.sets.is_empty() {
                        doc.push(String::new());
                        let n = compact.skip.sets.len();
                        doc.push(format!(
                            " Bit-parallel: {n} {} on 32 or more ASCII bytes; inputs of 96 bytes or more skip \
                             their runs a vector block at a time ({} bytes of loop sets in the table).",
                            if n == 1 { "state loops" } else { "states loop" },
                            compact.skip.bytes()
                        ));
                    }
                    let mut tables = vec![
                        ("le.table", compact.to_bytes(false)),
                        ("be.table", compact.to_bytes(true)),
                        ("le.sparse", sparse_le),
                        ("be.sparse", sparse_be),
                    ];
                    if let Some(rev) = reverse {
                        let bytes = rev.to_bytes(false);
                        doc.push(String::new());
                        doc.push(format!(
                            " Matched from both ends (`@bidirectional`): a reverse automaton of {} states, \
                             {} bytes with its sets.",
                            rev.states(),
                            bytes.len()
                        ));
                        tables.extend([("le.rev", bytes), ("be.rev", rev.to_bytes(true))]);
                    }
                    for (suffix, contents) in tables {
                        files.push(GeneratedFile {
                            path: format!("{dfa_path}.{suffix}"),
                            contents,
                        });
                    }
                    EmitKind::Own {
                        grammar: home_name.clone(),
                        dfa_path,
                        doc,
                        bidirectional: reverse.is_some(),
                    }
                };
                rules.push(EmitRule {
                    name: r.name.clone(),
                    ident,
                    kind,
                });
            }
            for (scheme, id) in &module.schemes {
                match idents.iter().find(|(_, r)| *r == id) {
                    Some((ident, _)) => schemes.push((scheme.clone(), module.name.clone(), ident.clone())),
                    None => errors.push(Diagnostic::error(
                        format!(
                            "`@scheme {scheme}` names rule `{}`, which is not exported",
                            g.rule(*id).name
                        ),
                        Some(g.rule(*id).name_span),
                    )),
                }
            }
            let source = file_name(&g.sources.get(module.file).name);
            let eg = EmitGrammar {
                name: module.name.clone(),
                source: source.clone(),
                rules,
            };
            let ast = self
                .typed
                .models
                .iter()
                .find(|(mm, _)| mm == m)
                .map(|(_, model)| self.ast_emit(*m, model, runtime, style, &mut files));
            let components = self.components_emit(*m, runtime, style, &mut files);
            let ast = match (ast, components) {
                (Some(a), Some(c)) => Some(quote::quote!(#a #c)),
                (a, c) => a.or(c),
            };
            files.push(GeneratedFile {
                path: format!("{}.rs", module.name),
                contents: emit::grammar_module(&eg, ast, runtime, style, regenerate).into_bytes(),
            });
            module_names.push((
                module.name.as_str(),
                module_doc(&g.sources.get(module.file).text, &source),
            ));
        }
        if !errors.is_empty() {
            return Err(Error::Grammar(Diagnostics {
                sources: g.sources.clone(),
                items: errors,
            }));
        }
        let total: usize = files.iter().map(|f| f.contents.len()).sum();
        if total > limits.output_bytes {
            // Name the rule with the largest recognizer: the likely cause.
            let largest = self
                .automata
                .iter()
                .map(|(id, a)| (recognizer_bytes(a), *id))
                .max_by_key(|&(bytes, id)| (bytes, std::cmp::Reverse(id)));
            let (span, what) = match largest {
                Some((bytes, id)) => (
                    Some(g.rule(id).name_span),
                    format!(
                        "the largest recognizer, `{}`, takes up to {bytes} bytes",
                        g.rule(id).name
                    ),
                ),
                None => (None, String::new()),
            };
            return Err(Error::Grammar(Diagnostics {
                sources: g.sources.clone(),
                items: vec![Diagnostic::error(
                    format!(
                        "the generated files would take {total} bytes, above the limit of {} bytes",
                        limits.output_bytes
                    ),
                    span,
                )
                .with_label(what)
                .with_note(
                    "raise the limit with `Config::limits` (`Limits::output_bytes`), or export fewer rules",
                )],
            }));
        }
        files.push(GeneratedFile {
            path: format!("{INDEX_MODULE}.rs"),
            contents: emit::index_module(&module_names, &schemes, runtime, style, regenerate).into_bytes(),
        });
        let inputs = g.modules.iter().filter_map(|m| m.path.clone()).collect();
        Ok(Generated {
            files,
            stats: self.stats(),
            warnings: self.warnings.clone(),
            inputs,
        })
    }
}

/// The reverse automaton of every exported rule a spec marks
/// `@bidirectional`; a warning for each one that would be too large.
fn reverse_automata(
    g: &Grammar,
    automata: &HashMap<RuleId, Automaton>,
    warnings: &mut Diagnostics,
) -> HashMap<RuleId, automata::Reverse> {
    let mut out = HashMap::new();
    for &id in g.modules.iter().flat_map(|m| &m.bidirectional) {
        let Some(a) = automata.get(&id) else { continue };
        if out.contains_key(&id) {
            continue;
        }
        match a.compact().reverse(MAX_REVERSE_STATES) {
            Some(rev) => {
                out.insert(id, rev);
            }
            None => {
                let r = g.rule(id);
                warnings.items.push(
                    Diagnostic::warning(
                        format!(
                            "rule `{}` is marked `@bidirectional`, but its reverse automaton would have more \
                             than {MAX_REVERSE_STATES} states",
                            r.name
                        ),
                        Some(r.name_span),
                    )
                    .with_label("its recognizer walks forwards only"),
                );
            }
        }
    }
    out
}

/// `Recognizer for the rule `X` of `file` (line N):` and the rule's ABNF.
fn rule_doc(g: &Grammar, id: RuleId, what: &str) -> Vec<String> {
    let r = g.rule(id);
    let mut doc = vec![format!(
        " {what} the rule `{}` of `{}` (line {}):",
        r.name,
        file_name(&g.sources.get(r.name_span.file).name),
        g.rule_line(id)
    )];
    doc.push(String::new());
    doc.push(" ```text".into());
    doc.extend(g.rule_text(id).lines().map(|l| format!(" {l}")));
    doc.push(" ```".into());
    doc
}

/// The most bytes the two-byte steps of an `@components` extraction may
/// take (they are emitted only for small automata, such as the splitting
/// grammar of RFC 3986 Appendix B: 20 KB of its 31 KB).
const MAX_PAIR_BYTES: usize = 64 * 1024;

fn emit_tdfa(
    ident: String,
    path: String,
    d: &TaggedDfa,
    pairs: bool,
    files: &mut Vec<GeneratedFile>,
) -> EmitTdfa {
    let pair_bytes = pairs.then_some(MAX_PAIR_BYTES);
    for (ext, big_endian) in [("le.tdfa", false), ("be.tdfa", true)] {
        files.push(GeneratedFile {
            path: format!("{path}.{ext}"),
            contents: d
                .to_bytes(pair_bytes, big_endian)
                .expect("tables fit: state and list counts were checked when building"),
        });
    }
    EmitTdfa {
        ident,
        path,
        tags: d.tags as u32,
    }
}

impl Compiled {
    /// The `components` module of root module `m`, if its spec asks for any.
    fn components_emit(
        &self,
        m: ModuleId,
        runtime: &str,
        style: IncludeStyle,
        files: &mut Vec<GeneratedFile>,
    ) -> Option<proc_macro2::TokenStream> {
        let g = &self.grammar;
        let module = &g.module(m).name;
        let built = &self.typed.components.iter().find(|(mm, _)| *mm == m)?.1;
        if built.is_empty() {
            return None;
        }
        let mut names = ast::Names::default();
        let mut hidden = emit::Namer::default();
        let mut paths = emit::Namer::default();
        let items: Vec<EmitComponents> = built
            .iter()
            .map(|c| {
                let r = g.rule(c.rule);
                let stem = paths.unique(emit::file_stem_name(&r.name));
                EmitComponents {
                    name: names.unique(ast::camel(&r.name)),
                    rule: r.name.clone(),
                    grammar: module.clone(),
                    doc: rule_doc(g, c.rule, "Components of"),
                    fields: c
                        .fields
                        .iter()
                        .map(|(f, rules)| {
                            (
                                ast::snake(f),
                                rules.iter().map(|&t| g.rule(t).name.clone()).collect(),
                            )
                        })
                        .collect(),
                    tdfa: emit_tdfa(
                        hidden.unique(format!("__{}_COMPONENTS", emit::constant_name(&r.name))),
                        format!("{module}/components/{stem}"),
                        &c.tdfa,
                        true,
                        files,
                    ),
                }
            })
            .collect();
        Some(emit::ast::components_module(&items, runtime, style))
    }

    /// The typed AST module of root module `m`.
    fn ast_emit(
        &self,
        m: ModuleId,
        model: &AstModel,
        runtime: &str,
        style: IncludeStyle,
        files: &mut Vec<GeneratedFile>,
    ) -> proc_macro2::TokenStream {
        let g = &self.grammar;
        let module = &g.module(m).name;
        let target = |rule: RuleId| match model.get(rule) {
            Some(t) => Target::Typed(t.name.clone()),
            None => Target::Leaf,
        };
        let mut types = Vec::new();
        // Hidden items and table files get unique names in order of
        // appearance (`__A_B_CS_ITEM` of rule `a-b` field `cs` and of rule
        // `a` field `b-cs`; the same field in two variants).
        let hidden = std::cell::RefCell::new(emit::Namer::default());
        let paths = std::cell::RefCell::new(emit::Namer::default());
        for ty in &model.types {
            let r = g.rule(ty.rule);
            let home = r.module;
            let home_type = (home != m)
                .then(|| {
                    self.typed
                        .models
                        .iter()
                        .find(|(hm, _)| *hm == home)
                        .and_then(|(_, hmodel)| hmodel.get(ty.rule))
                })
                .flatten();
            let kind = if let Some(home_type) = home_type {
                EmitTypeKind::Reexport {
                    module: g.module(home).name.clone(),
                    is_enum: matches!(ty.shape, Shape::Enum(_)),
                    home_name: (home_type.name != ty.name).then(|| home_type.name.clone()),
                }
            } else {
                let stem = paths.borrow_mut().unique(emit::file_stem_name(&r.name));
                let tdfa_name = hidden
                    .borrow_mut()
                    .unique(format!("__{}_TDFA", emit::constant_name(&r.name)));
                // Groups in the order `regular::captures` numbers them.
                let next_group = std::cell::Cell::new(1);
                let take_group = || next_group.replace(next_group.get() + 1);
                let element_files = std::cell::RefCell::new(Vec::new());
                let field = |f: &ast::Field| {
                    let group = take_group();
                    let element = self.typed.elements.get(&(ty.rule, f.name.clone())).map(|d| {
                        emit_tdfa(
                            hidden.borrow_mut().unique(format!(
                                "__{}_{}_ITEM",
                                emit::constant_name(&r.name),
                                emit::constant_name(&f.name)
                            )),
                            paths
                                .borrow_mut()
                                .unique(format!("{module}/ast/{stem}.{}", f.name)),
                            d,
                            false,
                            &mut element_files.borrow_mut(),
                        )
                    });
                    EmitField {
                        name: f.name.clone(),
                        rule: g.rule(f.rule).name.clone(),
                        group,
                        card: f.card,
                        target: target(f.rule),
                        element,
                    }
                };
                let shape = match &ty.shape {
                    Shape::Struct(fs) => EmitShape::Struct(fs.iter().map(&field).collect()),
                    Shape::List(f) => EmitShape::Struct(vec![field(f)]),
                    Shape::Enum(vs) => EmitShape::Enum(
                        vs.iter()
                            .map(|v| EmitVariant {
                                name: v.name.clone(),
                                group: take_group(),
                                fields: v.fields.iter().map(&field).collect(),
                            })
                            .collect(),
                    ),
                };
                files.extend(element_files.into_inner());
                let tdfa = emit_tdfa(
                    tdfa_name,
                    format!("{module}/ast/{stem}"),
                    &self.typed.tdfas[&ty.rule],
                    false,
                    files,
                );
                let diagram = format!("{module}/ast/{stem}.svg");
                files.push(GeneratedFile {
                    path: diagram.clone(),
                    contents: crate::tools::diagram_svg(g, ty.rule).into_bytes(),
                });
                EmitTypeKind::Local {
                    doc: rule_doc(g, ty.rule, "Parse tree of"),
                    diagram,
                    shape,
                    tdfa,
                }
            };
            types.push(EmitType {
                name: ty.name.clone(),
                rule: r.name.clone(),
                grammar: g.module(home).name.clone(),
                kind,
            });
        }
        emit::ast::ast_module(module, &types, runtime, style)
    }
}

impl fmt::Debug for Compiled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Compiled")
            .field("modules", &self.grammar.modules.len())
            .field("automata", &self.automata.len())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spans of `@components` extraction `rule` on `input`, per field.
    fn components(spec: &str, rule: &str, input: &str) -> Vec<Option<(usize, usize)>> {
        let compiled = Config::new().spec_source("t.abnf", spec).build().unwrap();
        let id = compiled.grammar.modules[1].get(rule).unwrap();
        let built = compiled.typed.components[0]
            .1
            .iter()
            .find(|c| c.rule == id)
            .unwrap();
        let tags = built.tdfa.run(input.as_bytes()).unwrap();
        (1..=built.fields.len())
            .map(|g| Some((tags[2 * g]?, tags[2 * g + 1]?)))
            .collect()
    }

    #[test]
    fn components_at_any_depth_and_shared_fields() {
        let spec = "; @components pair key value=num|word\n\
                    pair = key \"=\" val\nkey = 1*ALPHA\nval = num / word\n\
                    num = 1*DIGIT\nword = 1*ALPHA\n";
        assert_eq!(components(spec, "pair", "ab=12"), [Some((0, 2)), Some((3, 5))]);
        assert_eq!(components(spec, "pair", "ab=cd"), [Some((0, 2)), Some((3, 5))]);
    }

    #[test]
    fn a_recursive_target_is_captured_whole() {
        // `list` refers to itself: it is lowered once (Arden's lemma), not
        // unrolled into nested captures.
        let spec = "; @components doc head list\n\
                    doc = head \":\" list\nhead = 1*ALPHA\n\
                    list = item [ \",\" list ]\nitem = 1*DIGIT\n";
        assert_eq!(components(spec, "doc", "ab:1,22,3"), [Some((0, 2)), Some((3, 9))]);
    }
}
