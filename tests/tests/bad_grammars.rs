//! Malformed and abusive grammars.
//!
//! Every row of [`cases`] is a spec (one or more in-memory files) that must be
//! rejected (or warned about) with a diagnostic whose message, primary
//! position (`file:line:col`) and rendered caret excerpt are checked. Each
//! case runs on its own thread with a time limit, so a hang or a panic in the
//! generator shows up as a failed row instead of a stuck or aborted test.

use std::any::Any;
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use abnf_codegen::automata::Limits;
use abnf_codegen::{Config, Diagnostic, Diagnostics, Error, Severity};

/// How far the pipeline runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// `Config::load`: parse, resolve, check.
    Load,
    /// `Config::build`: lowering and automata too.
    Build,
    /// `Config::generate`: Rust code too.
    Generate,
}

/// Where the primary span must start.
#[derive(Clone, Debug)]
enum Pos {
    /// `file:line:col`.
    At(String),
    /// The diagnostic has no span (configuration problems).
    NoSpan,
    /// Anywhere (the message alone identifies the problem).
    Any,
}

#[derive(Clone, Debug)]
struct Case {
    name: &'static str,
    /// In-memory spec files: (file name, text).
    files: Vec<(String, String)>,
    /// Spec files on disk (for bytes that are not UTF-8).
    paths: Vec<PathBuf>,
    stage: Stage,
    exports: Vec<(&'static str, Vec<&'static str>)>,
    limits: Option<Limits>,
    severity: Severity,
    /// A substring of the expected diagnostic's message.
    message: &'static str,
    pos: Pos,
    /// Substrings of the primary label.
    label: Option<&'static str>,
    /// Substrings that some note must contain.
    notes: Vec<&'static str>,
    /// Locations of secondary spans that must be present.
    secondary: Vec<&'static str>,
    time_limit: Duration,
}

const FILE: &str = "t.abnf";

fn at(loc: &str) -> Pos {
    Pos::At(loc.to_string())
}

/// A row with one file named `t.abnf`, checked after `Config::load`.
fn case(name: &'static str, text: &str, message: &'static str, pos: Pos) -> Case {
    files(name, &[(FILE, text)], message, pos)
}

/// A row with several files.
fn files(name: &'static str, files: &[(&str, &str)], message: &'static str, pos: Pos) -> Case {
    Case {
        name,
        files: files
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect(),
        paths: Vec::new(),
        stage: Stage::Load,
        exports: Vec::new(),
        limits: None,
        severity: Severity::Error,
        message,
        pos,
        label: None,
        notes: Vec::new(),
        secondary: Vec::new(),
        time_limit: Duration::from_secs(20),
    }
}

impl Case {
    fn build(mut self) -> Case {
        self.stage = Stage::Build;
        self
    }
    fn generate(mut self) -> Case {
        self.stage = Stage::Generate;
        self
    }
    fn export(mut self, grammar: &'static str, rules: &[&'static str]) -> Case {
        self.exports.push((grammar, rules.to_vec()));
        self
    }
    fn limits(mut self, limits: Limits) -> Case {
        self.limits = Some(limits);
        self
    }
    fn warning(mut self) -> Case {
        self.severity = Severity::Warning;
        self
    }
    fn label(mut self, label: &'static str) -> Case {
        self.label = Some(label);
        self
    }
    fn note(mut self, note: &'static str) -> Case {
        self.notes.push(note);
        self
    }
    fn secondary(mut self, loc: &'static str) -> Case {
        self.secondary.push(loc);
        self
    }
    fn within(mut self, secs: u64) -> Case {
        self.time_limit = Duration::from_secs(secs);
        self
    }
}

/// `r0 = r1 r1 r1 r1`, `r1 = r2 r2 r2 r2`, ...: the inlined form of `r0`
/// has `4^(levels-1)` leaves.
fn inlining_chain(levels: usize, leaf: &str) -> String {
    let mut s = String::new();
    for i in 0..levels - 1 {
        let next = format!("r{}", i + 1);
        s.push_str(&format!("r{i} = {next} {next} {next} {next}\n"));
    }
    s.push_str(&format!("r{} = {leaf}\n", levels - 1));
    s
}

/// A spec file that is not UTF-8, on disk (in-memory sources are `String`s).
fn not_utf8_spec() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bad_grammars");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("not-utf8.abnf");
    // Offset 13 is the first byte of the second line's string, line 2 column 6.
    std::fs::write(&path, b"a = \"x\"\nb = \"\xff\xfe\"\n").unwrap();
    path
}

/// `t-import.abnf`, which imports a nested `comment` from `c.abnf` (on
/// disk, so that only the importing file is a root).
fn importing_spec() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bad_grammars");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("c.abnf"),
        "comment = \"(\" *(ctext / comment) \")\"\nctext = %x61-7A\n",
    )
    .unwrap();
    let path = dir.join("t-import.abnf");
    std::fs::write(
        &path,
        "; @import c.abnf comment\nh = \"<\" comment \">\"\nok = \"z\"\n",
    )
    .unwrap();
    path
}

fn small_limits() -> Limits {
    Limits {
        nfa_bytes: 16 << 10,
        dfa_bytes: 1 << 20,
        determinize_bytes: 1 << 20,
        ..Limits::default()
    }
}

fn cases() -> Vec<Case> {
    let huge = format!(
        "a = \"x\"\n{}",
        "; a comment line that pads the file beyond the size limit ........\n".repeat(70_000)
    );
    assert!(huge.len() > 4 << 20);
    let not_utf8 = not_utf8_spec();
    let not_utf8_loc = format!("{}:2:6", not_utf8.display());
    let importing = importing_spec();

    vec![
        // ---- lexical errors ------------------------------------------------
        case(
            "unterminated string",
            "a = \"abc\n",
            "unterminated quoted string",
            at("t.abnf:1:5"),
        )
        .label("no closing `\"`")
        .note("%x22"),
        case(
            "unterminated string on a continuation line",
            "a = \"x\"\n    / \"y\n",
            "unterminated quoted string",
            at("t.abnf:2:7"),
        ),
        case(
            "unterminated string before a semicolon",
            "a = \";\" / \"x\n",
            "unterminated quoted string",
            at("t.abnf:1:11"),
        ),
        case(
            "bad %x digits",
            "a = %xZZ\n",
            "bad numeric value `%xZZ`: `Z` is not a base-16 digit",
            at("t.abnf:1:7"),
        ),
        case(
            "bad %x digits in a concatenation",
            "a = %x41.42.ZZ\n",
            "`Z` is not a base-16 digit",
            at("t.abnf:1:13"),
        ),
        case(
            "bad %b digit",
            "a = %b102\n",
            "`2` is not a base-2 digit",
            at("t.abnf:1:7"),
        ),
        case(
            "%d value overflows 32 bits",
            "a = %d99999999999\n",
            "does not fit in 32 bits",
            at("t.abnf:1:7"),
        ),
        case(
            "value above U+10FFFF",
            "a = %x110000\n",
            "above U+10FFFF",
            at("t.abnf:1:7"),
        )
        .label("not a Unicode code point"),
        case(
            "reversed range",
            "a = %x39-30\n",
            "reversed range `%x39-30`",
            at("t.abnf:1:5"),
        )
        .note("low to high"),
        case(
            "reversed range on line 2 of a CRLF file",
            "a = \"x\"\r\nb = %x39-30\r\n",
            "reversed range `%x39-30`",
            at("t.abnf:2:5"),
        ),
        case(
            "numeric value without digits",
            "a = %x\n",
            "expected digits after `%x`",
            at("t.abnf:1:5"),
        ),
        case(
            "unknown % base",
            "a = %q41\n",
            "`%` must be followed by `x`, `d`, `b`, `s` or `i`",
            at("t.abnf:1:5"),
        ),
        case(
            "%s without a string",
            "a = %sabc\n",
            "`%s` and `%i` must be followed by a quoted string",
            at("t.abnf:1:5"),
        ),
        case(
            "repetition min above max",
            "a = 5*3\"x\"\n",
            "repetition `5*3` has a minimum above its maximum",
            at("t.abnf:1:5"),
        )
        .note("did you mean `3*5`?"),
        case(
            "repetition count too large",
            "a = 99999999999*ALPHA\n",
            "repetition count is too large",
            at("t.abnf:1:5"),
        ),
        case(
            "missing =",
            "a \"x\"\n",
            "expected `=` or `=/` after the rule name `a`",
            at("t.abnf:1:3"),
        )
        .label("expected `=` here"),
        case(
            "BNF ::=",
            "a ::= \"x\"\n",
            "expected `=` or `=/` after the rule name `a`, found `:`",
            at("t.abnf:1:3"),
        ),
        case(
            "| instead of /",
            "a = \"x\" | \"y\"\n",
            "unexpected character `|`",
            at("t.abnf:1:9"),
        )
        .label("ABNF separates alternatives with `/`, not `|`"),
        case(
            "two rules on one line",
            "a = \"x\" b = \"y\"\n",
            "unexpected character `=`",
            at("t.abnf:1:11"),
        )
        .label("beginning of a line"),
        case(
            "stray character on line 3",
            "a = \"x\"\nb = \"y\"\nc = \"z\" $\n",
            "unexpected character `$`",
            at("t.abnf:3:9"),
        ),
        case(
            "unterminated prose",
            "a = <foo\n",
            "unterminated prose value: `<` without `>` on the same line",
            at("t.abnf:1:5"),
        ),
        case(
            "non-ASCII in a quoted string",
            "a = \"é\"\n",
            "printable US-ASCII only",
            at("t.abnf:1:6"),
        )
        .note("%xE9"),
        case(
            "rule name starting with a digit",
            "1a = \"x\"\n",
            "expected a rule name, found `1`",
            at("t.abnf:1:1"),
        ),
        case(
            "non-ASCII rule name",
            "é = \"x\"\n",
            "expected a rule name, found `é`",
            at("t.abnf:1:1"),
        ),
        case(
            "unindented continuation line",
            "a = \"x\"\n/ \"y\"\n",
            "expected a rule name, found `/`",
            at("t.abnf:2:1"),
        ),
        // ---- syntax errors reported by the abnf crate -----------------------
        case(
            "trailing /",
            "a = \"x\" /\n",
            "syntax error in rule `a`: the rule ends early; expected an element",
            at("t.abnf:1:10"),
        ),
        case(
            "extra )",
            "a = \"x\")\n",
            "syntax error in rule `a`: `)` closes no group",
            at("t.abnf:1:8"),
        ),
        case(
            "rule with no elements",
            "a = ; nothing\n",
            "syntax error in rule `a`: the rule ends early",
            at("t.abnf:1:4"),
        ),
        case("unclosed (", "a = (\"x\"\n", "`)`", at("t.abnf:1:5")),
        case(
            "empty alternative",
            "a = (\"x\" / )\n",
            "syntax error in rule `a`",
            at("t.abnf:1:12"),
        ),
        case(
            "repetition with no element",
            "a = 1*\n",
            "the rule ends early",
            at("t.abnf:1:7"),
        ),
        // ---- names ------------------------------------------------------------
        case(
            "undefined rule with a similar name",
            "a = bc\nabc = \"x\"\n",
            "undefined rule `bc`",
            at("t.abnf:1:5"),
        )
        .label("not defined")
        .note("a rule with a similar name exists: `abc`"),
        case(
            "undefined rule with no similar name",
            "a = zz\n",
            "undefined rule `zz`",
            at("t.abnf:1:5"),
        )
        .note("define it, or import it"),
        files(
            "undefined rule inside an imported file",
            &[(FILE, "; @import b.abnf y\na = y\n"), ("b.abnf", "y = zz\n")],
            "undefined rule `zz`",
            at("b.abnf:1:5"),
        ),
        case(
            "duplicate definition",
            "a = \"x\"\nA = \"y\"\n",
            "rule `A` is defined twice",
            at("t.abnf:2:1"),
        )
        .label("second definition")
        .secondary("t.abnf:1:1")
        .note("=/"),
        case(
            "=/ without a definition",
            "a =/ \"x\"\n",
            "`a =/` adds alternatives to a rule that is not defined before it",
            at("t.abnf:1:1"),
        ),
        case(
            "prose that names nothing",
            "a = <some prose>\n",
            "prose value `<some prose>` cannot be matched: it does not name a rule",
            at("t.abnf:1:5"),
        ),
        // ---- imports ------------------------------------------------------------
        case(
            "@bidirectional rule whose reverse automaton is too large",
            // "The 13th character is `a`": small forwards, but read from the
            // end the count is unknown.
            "; @bidirectional a\na = 12( \"a\" / \"b\" ) \"a\" *( \"a\" / \"b\" )\n",
            "rule `a` is marked `@bidirectional`, but its reverse automaton would have more than 4096 states",
            at("t.abnf:2:1"),
        )
        .build()
        .label("its recognizer walks forwards only")
        .warning(),
        case(
            "@bidirectional naming an undefined rule",
            "; @bidirectional a nope\na = \"a\"\n",
            "`@bidirectional` names no rule `nope`",
            at("t.abnf:1:20"),
        ),
        case(
            "@components without fields",
            "; @components a\na = \"a\"\n",
            "`@components` takes a rule and the fields to extract from it",
            at("t.abnf:1:1"),
        ),
        case(
            "@components naming an undefined rule",
            "; @components a b=c|zz\na = b\nb = c / zz\nc = \"c\"\nzz = \"z\"\n; @components a q=nope\n",
            "`@components` names no rule `nope`",
            at("t.abnf:6:19"),
        ),
        case(
            "@components with an empty rule in a field",
            "; @components a b=\na = \"a\"\n",
            "`b=` is not a field of `@components`",
            at("t.abnf:1:17"),
        ),
        case(
            "@components field only inside a repetition",
            "; @components a b\na = 1*b\nb = \"b\"\n",
            "no match of `a` holds field `b`",
            at("t.abnf:2:1"),
        )
        .build(),
        case(
            "@components rule in two fields",
            "; @components a x=b y=b\na = b\nb = \"b\"\n",
            "puts rule `b` in two fields",
            at("t.abnf:3:1"),
        )
        .build(),
        case(
            "import of a missing file",
            "; @import nope.abnf x\na = \"a\"\n",
            "cannot import `nope.abnf`",
            at("t.abnf:1:11"),
        )
        .label("imported here"),
        files(
            "import of a missing rule",
            &[
                (FILE, "; @import b.abnf x\na = \"a\"\n"),
                ("b.abnf", "y = \"y\"\n"),
            ],
            "`b.abnf` defines no rule `x`",
            at("t.abnf:1:18"),
        ),
        files(
            "import conflicting with a local definition",
            &[
                (FILE, "; @import b.abnf y\ny = \"a\"\n"),
                ("b.abnf", "y = \"y\"\n"),
            ],
            "imported rule `y` is also defined in this file",
            at("t.abnf:1:18"),
        )
        .secondary("t.abnf:2:1"),
        case(
            "import of itself",
            "; @import t.abnf a\na = \"x\"\n",
            "a spec file cannot import itself",
            at("t.abnf:1:11"),
        ),
        files(
            "import naming no rules",
            &[(FILE, "; @import b.abnf\na = \"x\"\n"), ("b.abnf", "y = \"y\"\n")],
            "`@import` names no rules",
            at("t.abnf:1:11"),
        ),
        case(
            "import without a file",
            "; @import\na = \"x\"\n",
            "`@import` needs a file name",
            at("t.abnf:1:1"),
        ),
        // ---- recursion ------------------------------------------------------------
        case(
            "nested recursion",
            "a = \"(\" a \")\" / \"x\"\n",
            "rule `a` is recursive in a way no DFA can recognize: a → a",
            at("t.abnf:1:1"),
        )
        .build()
        .export("t", &["a"])
        .secondary("t.abnf:1:9")
        .note("needs a stack"),
        case(
            "RFC 5322 comment",
            "comment = \"(\" *(ctext / comment) \")\"\nctext = %x21-27 / %x2A-5B / %x5D-7E\n",
            "rule `comment` is recursive in a way no DFA can recognize: comment → comment",
            at("t.abnf:1:1"),
        )
        .build()
        .export("t", &["comment"])
        .secondary("t.abnf:1:25"),
        case(
            "mutual nested recursion (first rule)",
            "a = \"x\" b \"y\" / \"z\"\nb = a\n",
            "rule `a` is recursive in a way no DFA can recognize: a → b → a",
            at("t.abnf:1:1"),
        )
        .build()
        .export("t", &["a"])
        .secondary("t.abnf:1:9")
        .secondary("t.abnf:2:5"),
        case(
            "mutual nested recursion (second rule)",
            "a = \"x\" b \"y\" / \"z\"\nb = a\n",
            "rule `b` is recursive in a way no DFA can recognize: b → a → b",
            at("t.abnf:2:1"),
        )
        .build()
        .export("t", &["b"]),
        case(
            "nested recursion through prose",
            "a = \"x\" <a> \"y\" / \"z\"\n",
            "a → a",
            at("t.abnf:1:1"),
        )
        .build()
        .export("t", &["a"])
        .secondary("t.abnf:1:9"),
        case(
            "nested recursion in a whole-file export is left out",
            "a = \"(\" a \")\" / \"x\"\nb = \"[\" a \"]\"\nc = \"y\"\n",
            "rule `a` is recursive in a way no DFA can recognize: a → a",
            at("t.abnf:1:1"),
        )
        .build()
        .warning()
        .secondary("t.abnf:1:9")
        .note("`a` is left out of the output")
        .note("left out with it, because they use it: `b` (1 rule)")
        .note("@depth a 8"),
        case(
            "a rule asked for that uses a nested recursion",
            "a = \"(\" a \")\" / \"x\"\nb = \"[\" a \"]\"\nc = \"y\"\n",
            "rule `b` uses `a`, which is recursive in a way no DFA can recognize: b → a → a",
            at("t.abnf:2:1"),
        )
        .build()
        .export("t", &["b"])
        .secondary("t.abnf:2:9")
        .secondary("t.abnf:1:9"),
        Case {
            files: Vec::new(),
            paths: vec![importing.clone()],
            ..case(
                "a cycle in an imported file is reported from the local rule",
                "",
                "rule `h` uses `comment`, which is recursive in a way no DFA can recognize: h → comment → comment",
                Pos::At(format!("{}:2:1", importing.display())),
            )
        }
        .build()
        .warning(),
        case(
            "exponential DFA in a whole-file export is left out",
            "x = *(\"a\" / \"b\") \"a\" 20(\"a\" / \"b\")\ny = \"<\" x \">\"\nz = \"z\"\n",
            "the DFA for rule `x` exceeds its size limit",
            at("t.abnf:1:1"),
        )
        .build()
        .limits(small_limits())
        .warning()
        .note("`x` is left out of the output")
        .note("left out with it, not tried, because they use it: `y` (1 rule)"),
        case(
            "a typed tree too large falls back to text",
            "x = a \"=\" b\na = 1*ALPHA\nb = 1*DIGIT\n",
            "the extraction automaton for rule `x` is too large: the tagged DFA has more than 2 states",
            at("t.abnf:1:1"),
        )
        .generate()
        .limits(Limits {
            tagged_states: 2,
            ..Limits::default()
        })
        .warning()
        .label("its typed tree falls back to its text")
        .note("the rule's recognizer is unaffected"),
        case(
            "@depth with a bad depth",
            "; @depth a 0\na = \"(\" a \")\" / \"x\"\n",
            "`@depth` needs a depth from 1 to 64, not `0`",
            at("t.abnf:1:12"),
        ),
        case(
            "@depth of an unknown rule",
            "; @depth b 3\na = \"(\" a \")\" / \"x\"\n",
            "`@depth` names `b`, which `t` neither defines nor imports",
            at("t.abnf:1:10"),
        ),
        case(
            "@depth of a rule that is not recursive",
            "; @depth a 3\na = \"x\"\n",
            "`@depth` bounds rule `a`, which is not recursive",
            at("t.abnf:1:10"),
        )
        .warning(),
        case(
            "@terminals with an unknown encoding",
            "; @terminals bytes\na = %x41\n",
            "`@terminals` is `octets` or `code-points`, not `bytes`",
            at("t.abnf:1:14"),
        ),
        case(
            "a value above %xFF in an octet grammar",
            "; @terminals octets\na = %x41 / %x100\n",
            "%x100 is not an octet",
            at("t.abnf:2:12"),
        ),
        case(
            "upper-case numeric values are accepted",
            "a = %X41 / %D66 / %B1000011\nb = %x4G\n",
            "bad numeric value `%x4G`",
            at("t.abnf:2:7"),
        ),
        case(
            "recursion without a base case",
            "a = \"x\" a\n",
            "rule `a` matches no string: its recursion never ends",
            at("t.abnf:1:1"),
        )
        .build()
        .note("add an alternative that does not recurse"),
        // ---- files ------------------------------------------------------------
        case("empty file", "", "no rules found", at("t.abnf:1:1")),
        case(
            "only comments",
            "; hello\n  ; more\n\n",
            "no rules found",
            at("t.abnf:1:1"),
        ),
        Case {
            files: Vec::new(),
            paths: vec![not_utf8],
            ..case(
                "not UTF-8",
                "",
                "spec file is not UTF-8: invalid byte 0xff at offset 13",
                Pos::At(not_utf8_loc),
            )
        }
        .label("not UTF-8"),
        Case {
            files: vec![(FILE.to_string(), huge)],
            ..case(
                "larger than 4 MiB",
                "",
                "spec file is too large",
                at("t.abnf:1:1"),
            )
        }
        .note("is this the right file?"),
        // ---- lowering and automata --------------------------------------------
        case(
            "only surrogates",
            "a = %xD800-DFFF\n",
            "holds only surrogate code points",
            at("t.abnf:1:5"),
        )
        .build(),
        case(
            "counted repetition over a small NFA limit",
            "x = 1000*1000ALPHA\n",
            "the NFA for rule `x` exceeds its size limit",
            at("t.abnf:1:1"),
        )
        .build()
        .export("t", &["x"])
        .limits(small_limits())
        .note("raise the limit with `Config::limits`")
        .note("Limits::nfa_bytes"),
        case(
            "nested counted repetition over the default NFA limit",
            "x = 1000*1000(1000ALPHA)\n",
            "the NFA for rule `x` exceeds its size limit",
            at("t.abnf:1:1"),
        )
        .build()
        .export("t", &["x"])
        .note("Limits::nfa_bytes"),
        case(
            "exponential DFA",
            "x = *(\"a\" / \"b\") \"a\" 20(\"a\" / \"b\")\n",
            "the DFA for rule `x` exceeds its size limit",
            at("t.abnf:1:1"),
        )
        .build()
        .export("t", &["x"])
        .limits(small_limits())
        .label("automaton is too large")
        .note("raise the limit with `Config::limits`")
        .note("determinize_bytes"),
        Case {
            files: vec![(FILE.to_string(), inlining_chain(12, "ALPHA"))],
            ..case(
                "exponential inlining chain (r0 exported)",
                "",
                "rule `r1` expands to more than 1048576 regular-expression nodes",
                at("t.abnf:2:1"),
            )
        }
        .build()
        .export("t", &["r0"])
        .within(10),
        Case {
            files: vec![(FILE.to_string(), inlining_chain(12, "\"x\""))],
            ..case(
                "exponential inlining chain (every rule exported)",
                "",
                // Exported whole, the first rule of the chain too large to
                // compile is left out, and the rules that use it without
                // being tried (`r1` would expand to more than 1048576
                // regular-expression nodes: the row above, which exports
                // `r0`, checks that error). `r2` is a chain of 4^9 `x`s:
                // built part by part it fits the DFA limit, and its tables
                // do not fit theirs.
                "the generated tables for rule `r2` would take",
                at("t.abnf:3:1"),
            )
        }
        .build()
        .warning()
        .note("left out with it, not tried, because they use it: `r1`, `r0` (2 rules)")
        // 2.7 s of CPU, as before partial compilation; the margin is for a
        // shared machine.
        .within(30),
        // ---- exports and generated names ---------------------------------------
        case(
            "unused rule",
            "x = \"1\"\nunused = \"2\"\n",
            "rule `unused` is never used",
            at("t.abnf:2:1"),
        )
        .build()
        .export("t", &["x"])
        .warning()
        .label("not exported"),
        case(
            "export of an unknown rule",
            "x = \"1\"\n",
            "the configuration exports `nope`, which `t` neither defines nor imports",
            Pos::NoSpan,
        )
        .build()
        .export("t", &["nope"]),
        case(
            "export from an unknown grammar",
            "x = \"1\"\n",
            "the configuration exports rules of `u`, which is not one of the spec files",
            Pos::NoSpan,
        )
        .build()
        .export("u", &["x"]),
        case(
            "Rust name collision a-b / a--b",
            "a-b = \"x\"\na--b = \"y\"\n",
            "rules `a-b` and `a--b` both become the Rust name `A_B`",
            at("t.abnf:2:1"),
        )
        .generate()
        .secondary("t.abnf:1:1")
        .note("rename one of the rules"),
        case(
            "Rust name collision a / a-",
            "a = \"x\"\na- = \"y\"\n",
            "rules `a` and `a-` both become the Rust name `A`",
            at("t.abnf:2:1"),
        )
        .generate(),
        case(
            "Rust name collision GRAMMAR / grammar-rule",
            "GRAMMAR = \"x\"\ngrammar-rule = \"y\"\n",
            "both become the Rust name `GRAMMAR_RULE`",
            at("t.abnf:2:1"),
        )
        .generate(),
        files(
            "spec file name that is not a Rust identifier",
            &[("my-spec.abnf", "x = \"1\"\n")],
            "my-spec",
            Pos::Any,
        )
        .generate(),
        files(
            "spec file name starting with a digit",
            &[("1.abnf", "x = \"1\"\n")],
            "`1`",
            Pos::Any,
        )
        .generate(),
        files(
            "spec file name that is a Rust keyword",
            &[("fn.abnf", "x = \"1\"\n")],
            "`fn`",
            Pos::Any,
        )
        .generate(),
    ]
}

/// What one case produced, checked against the row.
fn check(case: &Case) -> Result<(), String> {
    let mut config = Config::new();
    for (name, text) in &case.files {
        config.spec_source(name.clone(), text.clone());
    }
    for path in &case.paths {
        config.spec(path);
    }
    for (grammar, rules) in &case.exports {
        config.export(grammar, rules);
    }
    if let Some(limits) = case.limits {
        config.limits(limits);
    }
    let (failed, diags) = match case.stage {
        Stage::Load => match config.load() {
            Ok((_, warnings)) => (false, warnings),
            Err(Error::Grammar(d)) => (true, d),
            Err(e) => return Err(format!("expected grammar diagnostics, got: {e}")),
        },
        Stage::Build => match config.build() {
            Ok(compiled) => (false, compiled.warnings),
            Err(Error::Grammar(d)) => (true, d),
            Err(e) => return Err(format!("expected grammar diagnostics, got: {e}")),
        },
        Stage::Generate => match config.generate() {
            Ok(generated) => (false, generated.warnings),
            Err(Error::Grammar(d)) => (true, d),
            Err(e) => return Err(format!("expected grammar diagnostics, got: {e}")),
        },
    };
    let expect_failure = case.severity == Severity::Error;
    if failed != expect_failure {
        return Err(format!(
            "generation {} but the row expects it to {}; diagnostics:\n{}",
            if failed { "failed" } else { "succeeded" },
            if expect_failure { "fail" } else { "succeed" },
            summary(&diags)
        ));
    }
    let Some(item) = diags
        .items
        .iter()
        .find(|d| d.severity == case.severity && d.message.contains(case.message))
    else {
        return Err(format!(
            "no {:?} whose message contains {:?}; diagnostics:\n{}",
            case.severity,
            case.message,
            summary(&diags)
        ));
    };
    check_item(case, &diags, item)
}

fn check_item(case: &Case, diags: &Diagnostics, item: &Diagnostic) -> Result<(), String> {
    let location = item.span.map(|s| diags.sources.location(s));
    match (&case.pos, &location) {
        (Pos::At(want), Some(got)) if want == got => {}
        (Pos::NoSpan, None) | (Pos::Any, _) => {}
        (want, got) => {
            return Err(format!(
                "diagnostic {:?} is at {got:?}, expected {want:?}",
                item.message
            ))
        }
    }
    if let Some(label) = case.label {
        if !item.label.contains(label) {
            return Err(format!("label {:?} does not contain {label:?}", item.label));
        }
    }
    for note in &case.notes {
        if !item.notes.iter().any(|n| n.contains(note)) {
            return Err(format!("no note contains {note:?}; notes: {:?}", item.notes));
        }
    }
    for want in &case.secondary {
        let got: Vec<String> = item
            .secondary
            .iter()
            .map(|(s, _)| diags.sources.location(*s))
            .collect();
        if !got.iter().any(|g| g == want) {
            return Err(format!("no secondary span at {want}; secondary spans: {got:?}"));
        }
    }
    check_rendered(diags, item)
}

/// The item rendered on its own shows the message, `┌─ file:line:col`, the
/// source line and a `^` under the primary span's first column.
fn check_rendered(diags: &Diagnostics, item: &Diagnostic) -> Result<(), String> {
    let one = Diagnostics {
        sources: diags.sources.clone(),
        items: vec![item.clone()],
    };
    let rendered = one.render(false);
    let head = match item.severity {
        Severity::Error => format!("error: {}", item.message),
        Severity::Warning => format!("warning: {}", item.message),
    };
    if !rendered.starts_with(&head) {
        return Err(format!(
            "rendered output does not start with {head:?}:\n{rendered}"
        ));
    }
    if !item.label.is_empty() && !rendered.contains(&item.label) {
        return Err(format!(
            "rendered output lacks the label {:?}:\n{rendered}",
            item.label
        ));
    }
    let Some(span) = item.span else {
        return match rendered.contains('│') {
            false => Ok(()),
            true => Err(format!(
                "a diagnostic without a span renders an excerpt:\n{rendered}"
            )),
        };
    };
    let location = diags.sources.location(span);
    if !rendered.contains(&format!("┌─ {location}\n")) {
        return Err(format!("rendered output lacks `┌─ {location}`:\n{rendered}"));
    }
    let file = diags.sources.get(span.file);
    let (line, col) = file.line_col(span.start);
    let source_line = file.text.split('\n').nth(line - 1).unwrap_or("").trim_end();
    let lines: Vec<&str> = rendered.lines().collect();
    let excerpt = lines.iter().position(|l| {
        l.trim_start()
            .strip_prefix(&format!("{line} │"))
            .is_some_and(|rest| rest.trim() == source_line.trim())
    });
    let Some(excerpt) = excerpt else {
        return Err(format!(
            "rendered output lacks the excerpt `{line} │ {source_line}`:\n{rendered}"
        ));
    };
    // The caret: the first line after the excerpt holding `^`, with the `^`
    // under the primary span's column (checked where columns are simple).
    let Some(caret) = lines[excerpt + 1..].iter().find(|l| l.contains('^')) else {
        return Err(format!(
            "rendered output has no `^` under the excerpt:\n{rendered}"
        ));
    };
    let prefix: String = source_line.chars().take(col - 1).collect();
    if prefix.is_ascii() && !prefix.contains('\t') {
        let gutter = |l: &str| l.chars().position(|c| c == '│');
        let want = gutter(lines[excerpt]).map(|g| g + 2 + (col - 1));
        let got = caret.chars().position(|c| c == '^');
        if want.is_none() || want != got {
            return Err(format!(
                "the caret is not a `^` under column {col} of line {line}:\n{rendered}"
            ));
        }
    }
    Ok(())
}

fn summary(d: &Diagnostics) -> String {
    d.items
        .iter()
        .map(|i| {
            format!(
                "  {:?} {:?} at {:?}\n",
                i.severity,
                i.message,
                i.span.map(|s| d.sources.location(s))
            )
        })
        .collect()
}

fn panic_message(p: &(dyn Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(non-string panic)".into())
}

/// Runs `f` on a thread with a build script's main-thread stack (8 MiB),
/// turning a panic or a hang into an error.
fn run_limited<T: Send + 'static>(
    name: &str,
    limit: Duration,
    f: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> Result<T, String> {
    let (tx, rx) = mpsc::channel();
    let handle = thread::Builder::new()
        .name(name.to_string())
        .stack_size(8 << 20)
        .spawn(move || {
            let _ = tx.send(f());
        })
        .expect("spawn a test thread");
    match rx.recv_timeout(limit) {
        Ok(result) => {
            let _ = handle.join();
            result
        }
        // The thread is left behind; the test process ends without it.
        Err(RecvTimeoutError::Timeout) => Err(format!("did not finish within {limit:?}")),
        Err(RecvTimeoutError::Disconnected) => match handle.join() {
            Err(p) => Err(format!("the generator panicked: {}", panic_message(&*p))),
            Ok(()) => Err("the case thread ended without a result".into()),
        },
    }
}

fn run_case(case: Case) -> Result<(), String> {
    let name = case.name;
    let limit = case.time_limit;
    run_limited(name, limit, move || check(&case))
}

#[test]
fn table() {
    let all = cases();
    assert!(all.len() >= 30, "the table has {} rows", all.len());
    let mut names = std::collections::HashSet::new();
    for c in &all {
        assert!(names.insert(c.name), "duplicate row name {:?}", c.name);
    }
    let mut failures = Vec::new();
    let mut ran = 0;
    for case in all {
        let name = case.name;
        ran += 1;
        if let Err(e) = run_case(case) {
            failures.push(format!("[{name}] {e}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {ran} rows failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// A long counted repetition has a small NFA and DFA (both far below the
/// limits), so nothing stops the build; it must still finish quickly or be
/// rejected with a diagnostic.
#[test]

fn long_counted_repetition_is_fast_or_rejected() {
    let result = run_limited("long repetition", Duration::from_secs(10), || {
        let mut config = Config::new();
        config.spec_source(FILE, "x = 65536\"x\"\n");
        match config.build() {
            Ok(compiled) => {
                let x = compiled.recognizer("t", "x").ok_or("no recognizer for `x`")?;
                let input = vec![b'X'; 65536];
                match x.is_match(&input) && !x.is_match(&input[1..]) {
                    true => Ok(()),
                    false => Err("wrong language".to_string()),
                }
            }
            Err(Error::Grammar(d)) => {
                let item = d.errors().next().ok_or("no error")?;
                match item.message.contains("`x`")
                    && item.span.map(|s| d.sources.location(s)).as_deref() == Some("t.abnf:1:1")
                {
                    true => Ok(()),
                    false => Err(format!("unhelpful diagnostic:\n{}", summary(&d))),
                }
            }
            Err(e) => Err(e.to_string()),
        }
    });
    result.unwrap();
}

/// Deeply nested groups: the grammar is regular (it is just `"x"`), so it
/// must compile, or be rejected with a diagnostic; it must not overflow the
/// stack, which aborts the whole process (a build script dies with no
/// message). Runs in a child process so that an abort fails only this test.
#[test]

fn deep_nesting_is_a_diagnostic_not_a_crash() {
    const CHILD: &str = "BAD_GRAMMARS_DEEP_NESTING_CHILD";
    if std::env::var_os(CHILD).is_some() {
        let depth = 1000;
        let text = format!("a = {}\"x\"{}\n", "(".repeat(depth), ")".repeat(depth));
        let outcome = run_limited("deep nesting", Duration::from_secs(60), move || {
            let mut config = Config::new();
            config.spec_source(FILE, text);
            Ok(match config.build() {
                Ok(c) => match c.recognizer("t", "a").is_some_and(|a| a.is_match(b"X")) {
                    true => "compiled".to_string(),
                    false => "compiled to the wrong language".to_string(),
                },
                Err(Error::Grammar(d)) => format!("diagnostics:\n{}", summary(&d)),
                Err(e) => format!("other error: {e}"),
            })
        });
        println!("CHILD OUTCOME: {outcome:?}");
        return;
    }
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "deep_nesting_is_a_diagnostic_not_a_crash",
            "--exact",
            "--nocapture",
        ])
        .env(CHILD, "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the child process died ({}):\n{stdout}\n{stderr}",
        output.status
    );
    assert!(
        stdout.contains("CHILD OUTCOME: Ok(\"compiled\")") || stdout.contains("t.abnf:1:"),
        "neither compiled nor a positioned diagnostic:\n{stdout}"
    );
}

/// Two spec files with the same stem (`a/t.abnf`, `b/t.abnf`) would both be
/// the module `t`: that must be an error, not a file silently dropped.
#[test]

fn same_stem_files_are_an_error() {
    let mut config = Config::new();
    config
        .spec_source("a/t.abnf", "x = \"1\"\n")
        .spec_source("b/t.abnf", "y = \"2\"\n");
    match config.build() {
        Err(Error::Grammar(d)) => assert!(
            d.errors().any(|e| e.message.contains("b/t.abnf")),
            "the error does not name the second file:\n{}",
            summary(&d)
        ),
        Ok(c) => panic!(
            "both files were accepted as module `t`; its rule `y` exists: {}",
            c.recognizer("t", "y").is_some()
        ),
        Err(e) => panic!("{e}"),
    }
}

/// A user's `core.abnf` must not be confused with the built-in core rules.
#[test]

fn core_abnf_is_an_ordinary_spec() {
    let mut config = Config::new();
    config.spec_source("core.abnf", "x = \"1\"\n");
    match config.build() {
        Err(Error::Grammar(d)) => assert!(
            d.errors().any(|e| e.message.contains("core")),
            "the error does not explain the name:\n{}",
            summary(&d)
        ),
        Ok(c) => {
            let x = c.recognizer("core", "x");
            assert!(
                x.is_some_and(|x| x.is_match(b"1")),
                "the user's rule `x` of core.abnf was not built"
            );
        }
        Err(e) => panic!("{e}"),
    }
}

/// Editors on Windows save UTF-8 with a byte order mark. Either accept it,
/// or say what it is, with a visible caret.
#[test]

fn byte_order_mark_is_accepted() {
    let mut config = Config::new();
    config.spec_source(FILE, "\u{feff}x = \"1\"\n");
    match config.build() {
        Ok(c) => assert!(c.recognizer("t", "x").is_some_and(|x| x.is_match(b"1"))),
        Err(Error::Grammar(d)) => {
            let item = d.errors().next().unwrap();
            assert!(
                item.message.to_ascii_lowercase().contains("byte order mark") || item.message.contains("BOM"),
                "the message does not say what is wrong: {:?}",
                item.message
            );
            check_rendered(&d, item).unwrap();
        }
        Err(e) => panic!("{e}"),
    }
}

// ---- positive cases: regular recursion compiles ---------------------------

fn compile(text: &str) -> abnf_codegen::Compiled {
    let mut config = Config::new();
    config.spec_source(FILE, text);
    match config.build() {
        Ok(c) => c,
        Err(e) => panic!("{text:?} does not compile:\n{e}"),
    }
}

fn assert_language(c: &abnf_codegen::Compiled, rule: &str, yes: &[&str], no: &[&str]) {
    let r = c
        .recognizer("t", rule)
        .unwrap_or_else(|| panic!("no recognizer for {rule}"));
    for y in yes {
        assert!(r.is_match(y.as_bytes()), "{rule} should match {y:?}");
    }
    for n in no {
        assert!(!r.is_match(n.as_bytes()), "{rule} should not match {n:?}");
    }
}

#[test]
fn right_linear_recursion_compiles() {
    let c = compile("list = item [\",\" list]\nitem = 1*DIGIT\n");
    assert_language(
        &c,
        "list",
        &["1", "12", "1,2", "1,22,333", "0,0,0,0,0,0,0,0"],
        &["", "1,", ",1", "1,,2", "a", "1, 2"],
    );
    assert_eq!(c.recognizer("t", "list").unwrap().full_match(b"1,x"), Err(2));
}

#[test]
fn left_linear_recursion_compiles() {
    let c = compile("l = l \"a\" / \"b\"\n");
    assert_language(
        &c,
        "l",
        &["b", "ba", "BAAA", "baaaaaaaaa"],
        &["", "a", "ab", "bb", "bab"],
    );
}

#[test]
fn mutual_right_linear_recursion_compiles() {
    let c = compile("even = \"\" / \"a\" odd\nodd = \"a\" even\n");
    assert_language(&c, "even", &["", "aa", "aaaa"], &["a", "aaa", "b"]);
    assert_language(&c, "odd", &["a", "aaa", "aaaaa"], &["", "aa", "aaaa"]);

    let c = compile("s = \"x\" t / \"y\"\nt = \"z\" s\n");
    assert_language(&c, "s", &["y", "xzy", "xzxzy"], &["", "x", "xy", "xzxy", "xzyy"]);
    assert_language(&c, "t", &["zy", "zxzy"], &["y", "z"]);
}

#[test]
fn mutual_left_linear_recursion_compiles() {
    let c = compile("a = b \"x\" / \"y\"\nb = a \"z\"\n");
    assert_language(&c, "a", &["y", "yzx", "yzxzx"], &["", "x", "yx", "yzxz"]);
    assert_language(&c, "b", &["yz", "yzxz"], &["y", "yzx"]);
}

#[test]
fn no_unused_warning_when_every_rule_is_exported() {
    let c = compile("x = \"1\"\nunused = \"2\"\n");
    assert!(
        c.warnings.items.is_empty(),
        "unexpected warnings:\n{}",
        summary(&c.warnings)
    );
}

#[test]
fn unused_warning_only_for_unreachable_rules() {
    let mut config = Config::new();
    config
        .spec_source(FILE, "x = y\ny = \"1\"\nunused = \"2\"\n")
        .export("t", &["x"]);
    let c = config.build().unwrap();
    let warnings: Vec<&str> = c.warnings.items.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(warnings, ["rule `unused` is never used"]);
    assert!(c.recognizer("t", "x").unwrap().is_match(b"1"));
    assert!(
        c.recognizer("t", "unused").is_none(),
        "an unexported rule has no recognizer"
    );
}

// ---- fixtures: tests/data/bad-grammars ------------------------------------

/// Every fixture in `data/bad-grammars/` is a spec file `NNNN-name.abnf`
/// (`.bnf`, `.txt`) or a folder `NNNN-name/` of spec files (files whose
/// name starts with `_`, here and in the folders, are only imported); the generator's whole output
/// for it (rendered diagnostics, or the configuration error) must equal
/// `NNNN-name.stderr` beside it. `UPDATE_EXPECT=1` rewrites the `.stderr`
/// files (check the diff).
///
/// A line `; test: KEY=VALUE ...` in a root spec sets `runtime`,
/// `rule_output_bytes`, `output_bytes` or `export` (`RULE,RULE`) for the
/// case. Each case runs with the table's time limit on its own thread.
#[test]
fn fixtures() {
    let dir = PathBuf::from("data/bad-grammars");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('_'))
        .filter(|p| p.is_dir() || p.extension().is_some_and(|e| e != "stderr"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 20, "only {} fixtures", cases.len());
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    for case in &cases {
        let expect_path = case.with_extension("stderr");
        let name = case.display().to_string();
        let path = case.clone();
        let got = match run_limited(&name, Duration::from_secs(20), move || Ok(fixture_output(&path))) {
            Ok(got) => got,
            Err(e) => {
                failures.push(format!("[{name}] {e}"));
                continue;
            }
        };
        if update {
            std::fs::write(&expect_path, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&expect_path).unwrap_or_default();
        if got != want {
            failures.push(format!(
                "[{name}] output differs from {}:\n--- expected\n{want}\n--- got\n{got}",
                expect_path.display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} fixtures failed (UPDATE_EXPECT=1 rewrites them):\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

/// The root spec files of a fixture.
fn fixture_roots(case: &std::path::Path) -> Vec<PathBuf> {
    if !case.is_dir() {
        return vec![case.to_path_buf()];
    }
    let mut roots: Vec<PathBuf> = std::fs::read_dir(case)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && !p.file_name().unwrap().to_string_lossy().starts_with('_'))
        .collect();
    roots.sort();
    roots
}

/// What `Config::generate` says about a fixture, as the CLI would print it.
fn fixture_output(case: &std::path::Path) -> String {
    let mut config = Config::new();
    let mut limits = Limits::default();
    for root in fixture_roots(case) {
        let text = String::from_utf8_lossy(&std::fs::read(&root).unwrap()).into_owned();
        let stem = root.file_stem().unwrap().to_string_lossy().into_owned();
        for line in text.lines() {
            let Some(opts) = line.strip_prefix("; test:") else {
                continue;
            };
            for opt in opts.split_whitespace() {
                let (k, v) = opt.split_once('=').unwrap_or((opt, ""));
                match k {
                    "runtime" => {
                        config.runtime_crate(v);
                    }
                    "rule_output_bytes" => limits.rule_output_bytes = v.parse().unwrap(),
                    "output_bytes" => limits.output_bytes = v.parse().unwrap(),
                    "export" => {
                        config.export(&stem, &v.split(',').collect::<Vec<_>>());
                    }
                    other => panic!("{}: unknown test option `{other}`", root.display()),
                }
            }
        }
        config.spec(&root);
    }
    config.limits(limits);
    match config.generate() {
        Ok(g) if g.warnings.items.is_empty() => "generated without diagnostics\n".into(),
        Ok(g) => g.warnings.render(false),
        Err(Error::Grammar(d)) => d.render(false),
        Err(e) => format!("{e}\n"),
    }
}

/// The collision corpus (`data/collisions/`): names that collide once
/// mapped to Rust (types, variants, fields, their `Kind` enums, hidden
/// items and item functions, components structs, a type imported under a
/// name taken here) are disambiguated. `tests/ui.rs` compiles and runs the
/// generated code (with the `ui/pass` cases, in one trybuild run).
#[test]
fn collision_corpus_names() {
    let mut config = Config::new();
    config
        .spec("data/collisions/collisions.abnf")
        .spec("data/collisions/upper.abnf")
        .spec("data/collisions/lower.abnf")
        .include_style(abnf_codegen::emit::IncludeStyle::Relative);
    let generated = match config.generate() {
        Ok(g) => g,
        Err(e) => panic!("the collision corpus was refused:\n{e}"),
    };
    let code = generated.file("collisions.rs").unwrap();
    // The corpus reaches every namer: these are the disambiguated names.
    for name in [
        "pub struct A1<",
        "pub struct A12<",
        "pub struct A122<",
        "pub struct HostKind2<",
        "pub enum HostKind<",
        "X12(",
        "X122(",
        "pub x_2:",
        "pub x_2_2:",
        "__A_B_CS_ITEM_2",
        "fn __ab_xs_item_2(",
        "fn __v_zs_item_2(",
    ] {
        assert!(code.contains(name), "generated code lacks `{name}`");
    }
    let upper = generated.file("upper.rs").unwrap();
    assert!(
        upper.contains("pub use super::super::lower::ast::A1 as A12;"),
        "the imported type is not re-exported under its local name"
    );
}
