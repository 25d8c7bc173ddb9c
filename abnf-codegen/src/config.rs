//! The builder, in the `prost-build` style: what to compile and how, and
//! the [`Error`] a run ends with. Settings only: every stage may read them,
//! and the driver that runs the stages (`load`, `build`, `generate`,
//! `compile`) is in `driver.rs`.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use crate::diagnostic::Diagnostics;
use crate::limits::Limits;

/// Configures and runs code generation.
///
/// Setters take `&mut self` and return `&mut Self`; [`Config::compile`] is
/// for build scripts, [`Config::generate`] returns the files without writing
/// them, and [`Config::build`] stops after the automata.
#[derive(Clone, Debug, Default)]
pub struct Config {
    pub(crate) spec_paths: Vec<PathBuf>,
    pub(crate) spec_dirs: Vec<PathBuf>,
    pub(crate) spec_sources: Vec<(String, String)>,
    pub(crate) exports: BTreeMap<String, Vec<String>>,
    pub(crate) out_dir: Option<PathBuf>,
    pub(crate) runtime: Option<String>,
    pub(crate) regenerate_command: Option<String>,
    /// `None`: [`IncludeStyle::OutDir`], or [`IncludeStyle::Relative`]
    /// with an [`Config::out_dir`] of its own.
    pub(crate) include_style: Option<IncludeStyle>,
    pub(crate) limits: Limits,
    pub(crate) ast_rules: BTreeMap<String, Vec<String>>,
    pub(crate) ast_leaves: BTreeMap<String, Vec<String>>,
    pub(crate) no_ast: bool,
    pub(crate) nesting_limit: Option<usize>,
    pub(crate) no_unused_warnings: bool,
    pub(crate) no_direct_walks: bool,
    pub(crate) depths: Vec<(String, String, u32)>,
    pub(crate) octets: Vec<String>,
    pub(crate) import_dirs: Vec<PathBuf>,
}

/// Why generation failed.
#[derive(Debug)]
#[non_exhaustive]
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

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { error, .. } => Some(error),
            // The diagnostics are the error's text itself, not a cause.
            Error::Grammar(_) | Error::Config(_) => None,
        }
    }
}

impl Error {
    /// The diagnostics, when the grammar was at fault.
    pub fn diagnostics(&self) -> Option<&Diagnostics> {
        match self {
            Error::Grammar(d) => Some(d),
            _ => None,
        }
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
    /// [`crate::typed`]).
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

    /// Where [`Config::compile`] writes (default: `$OUT_DIR`). Files written
    /// elsewhere name the tables beside them by relative paths (unless
    /// [`Config::include_style`] says otherwise), so a folder under
    /// `$OUT_DIR` works too: `include!(concat!(env!("OUT_DIR"), "/sub/grammars.rs"))`.
    ///
    /// ```
    /// let out = std::env::temp_dir().join("abnf-codegen-doc-out-dir");
    /// abnf_codegen::Config::new()
    ///     .spec_source("num.abnf", "num = 1*DIGIT\n")
    ///     .out_dir(&out)
    ///     .compile()?;
    /// assert!(out.join("grammars.rs").is_file() && out.join("num.rs").is_file());
    /// let module = std::fs::read_to_string(out.join("num.rs")).unwrap();
    /// assert!(module.contains(r#"include_bytes!("num/num.le.table")"#));
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
    /// generated file for output that is checked in (the default with a
    /// [`Config::out_dir`] of its own, which may be a folder under
    /// `$OUT_DIR`).
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
        self.include_style = Some(style);
        self
    }

    /// Gives these rules of `grammar` a typed AST node even where the default
    /// choice (see [`crate::typed`]) would make them leaves.
    ///
    /// A `grammar` that is not one of the spec files, or a rule it neither
    /// defines nor imports, is an error (`Code::Config`) with the closest
    /// name, as for [`Config::export`]; so is an unknown name in
    /// [`Config::ast_leaves`].
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

    /// Whether the grammar's top rules (those no other rule uses) are also
    /// written as code (default: yes): their recognizers' walk of long
    /// inputs and their typed trees' walks, one block of code per state of
    /// the automaton, where the transitions are jumps that the CPU predicts
    /// instead of loads it waits on. Same results, faster on inputs whose
    /// structure repeats (RFC 9112 request heads: 0.62x the time to
    /// validate, 0.52x for the typed tree, AVX2), about the same elsewhere;
    /// about 14 lines of Rust a state, which the crate that includes them
    /// compiles. Turned off, every walk reads the
    /// tables alone (`iri-grammar` does so: its operations use walks that
    /// gain nothing from it, and its build would take 45% longer).
    ///
    /// ```
    /// let spec = "pair = key \"=\" value\nkey = 1*ALPHA\nvalue = 1*ALPHA\n";
    /// let files = abnf_codegen::Config::new().spec_source("kv.abnf", spec).generate()?;
    /// assert!(files.file("kv/pair.direct.rs").is_some());
    /// let files = abnf_codegen::Config::new()
    ///     .spec_source("kv.abnf", spec)
    ///     .direct_walks(false)
    ///     .generate()?;
    /// assert!(files.file("kv/pair.direct.rs").is_none());
    /// # Ok::<(), abnf_codegen::Error>(())
    /// ```
    pub fn direct_walks(&mut self, enabled: bool) -> &mut Config {
        self.no_direct_walks = !enabled;
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

    /// How many rule calls may be open at once when a rule that needs a
    /// stack (a recursive rule, compiled as a network of rule automata; see
    /// [`crate::network`]) is matched: input that nests deeper is rejected
    /// with `abnf_runtime::ErrorKind::TooDeep`. The default is 1,024 (the
    /// runtime's `network::Limits::DEFAULT`); memory stays proportional to
    /// it, not to the input.
    ///
    /// ```
    /// let compiled = abnf_codegen::Config::new()
    ///     .spec_source("c.abnf", "comment = \"(\" *(%x61-7A / comment) \")\"\n")
    ///     .nesting_limit(2)
    ///     .build()?;
    /// // The outer comment is the rule itself; two more may nest in it.
    /// let comment = compiled.recognizer("c", "comment").unwrap();
    /// assert!(comment.is_match(b"(a(b(c)))"));
    /// assert!(!comment.is_match(b"(a(b(c(d))))"));
    /// # Ok::<(), abnf_codegen::Error>(())
    /// ```
    pub fn nesting_limit(&mut self, depth: usize) -> &mut Config {
        self.nesting_limit = Some(depth);
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
    /// use abnf_codegen::limits::Limits;
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
    /// [`crate::limits`] and `docs/grammars.md`).
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
}

/// How generated code names the files it embeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum IncludeStyle {
    /// `concat!(env!("OUT_DIR"), "/...")`: for build scripts.
    #[default]
    OutDir,
    /// A path relative to the generated `.rs` file: for checked-in output.
    Relative,
}
