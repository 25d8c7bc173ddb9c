//! Malformed and abusive grammars.
//!
//! Most cases are fixture files, `data/bad-grammars/NNNN-name.abnf` or a
//! folder `NNNN-name/`, each with the generator's whole expected output
//! beside it (`NNNN-name.stderr`, rewritten by `UPDATE_EXPECT=1`): see
//! [`fixtures`]. The few that cannot be files in the repository (a spec of
//! over 4 MiB, bytes that are not UTF-8, a configuration that names a grammar
//! that is not there) are rows of [`cases`], whose message, primary position
//! (`file:line:col`) and rendered caret excerpt are checked. Every case runs
//! on its own thread with a time limit, so a hang or a panic in the generator
//! shows up as a failed case instead of a stuck or aborted test.

use std::any::Any;
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use abnf_codegen::limits::Limits;
use abnf_codegen::{Config, Diagnostic, Diagnostics, Error, Severity};

/// How far the pipeline runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// `Config::load`: parse, resolve, check.
    Load,
    /// `Config::build`: lowering and automata too.
    Build,
}

/// Where the primary span must start.
#[derive(Clone, Debug)]
enum Pos {
    /// `file:line:col`.
    At(String),
    /// The diagnostic has no span (configuration problems).
    NoSpan,
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
    /// `Config::ast_rules` and `Config::ast_leaves` calls.
    ast_rules: Vec<(&'static str, Vec<&'static str>)>,
    ast_leaves: Vec<(&'static str, Vec<&'static str>)>,
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
        ast_rules: Vec::new(),
        ast_leaves: Vec::new(),
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
    fn export(mut self, grammar: &'static str, rules: &[&'static str]) -> Case {
        self.exports.push((grammar, rules.to_vec()));
        self
    }
    fn ast_rules(mut self, grammar: &'static str, rules: &[&'static str]) -> Case {
        self.ast_rules.push((grammar, rules.to_vec()));
        self
    }
    fn ast_leaves(mut self, grammar: &'static str, rules: &[&'static str]) -> Case {
        self.ast_leaves.push((grammar, rules.to_vec()));
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

fn cases() -> Vec<Case> {
    let huge = format!(
        "a = \"x\"\n{}",
        "; a comment line that pads the file beyond the size limit ........\n".repeat(70_000)
    );
    assert!(huge.len() > 4 << 20);
    let not_utf8 = not_utf8_spec();
    let not_utf8_loc = format!("{}:2:6", not_utf8.display());

    vec![
        // The other rows are fixtures: data/bad-grammars/ (see `fixtures`).
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
        case(
            "export from an unknown grammar",
            "x = \"1\"\n",
            "`Config::export` names the grammar `u`, which is not one of the spec files",
            Pos::NoSpan,
        )
        .build()
        .export("u", &["x"])
        .note("did you mean `t`?"),
        case(
            "export from a grammar with no similar name",
            "x = \"1\"\n",
            "`Config::export` names the grammar `unknown`, which is not one of the spec files",
            Pos::NoSpan,
        )
        .build()
        .export("unknown", &["x"])
        .note("a grammar is named after its spec file's stem: `t`"),
        // Issue 26: a misspelt grammar name in `ast_rules` built without a
        // word; misspelt names get the closest one.
        files(
            "AST rules of a misspelt grammar",
            &[(
                "content_type.abnf",
                "content-type = a \";\" b\na = \"x\"\nb = \"y\"\n",
            )],
            "`Config::ast_rules` names the grammar `contenttype`, which is not one of the spec files",
            Pos::NoSpan,
        )
        .build()
        .ast_rules("contenttype", &["a"])
        .note("did you mean `content_type`?"),
        files(
            "AST leaves of a misspelt grammar",
            &[(
                "content_type.abnf",
                "content-type = a \";\" b\na = \"x\"\nb = \"y\"\n",
            )],
            "`Config::ast_leaves` names the grammar `content-typ`",
            Pos::NoSpan,
        )
        .build()
        .ast_leaves("content-typ", &["a"])
        .note("did you mean `content_type`?"),
        case(
            "AST rules with a misspelt rule",
            "parameters = *( \";\" parameter )\nparameter = 1*ALPHA \"=\" 1*ALPHA\n",
            "the AST configuration names `paramter`, which `t` neither defines nor imports",
            Pos::NoSpan,
        )
        .build()
        .ast_rules("t", &["paramter"])
        .note("did you mean `parameter`?"),
        case(
            "export of a misspelt rule",
            "parameters = *( \";\" parameter )\nparameter = 1*ALPHA \"=\" 1*ALPHA\n",
            "the configuration exports `Parameter_s`, which `t` neither defines nor imports",
            Pos::NoSpan,
        )
        .build()
        .export("t", &["Parameter_s"])
        .note("did you mean `parameters`?"),
        case(
            "values in %x80-FF without @terminals",
            "; RFC 9110\nfield-vchar = VCHAR / obs-text\nobs-text = %x80-FF\n",
            "`obs-text` uses %x80-FF",
            at("t.abnf:3:12"),
        )
        .warning()
        .note("; @terminals octets"),
        // Mutual recursion that never ends: a network would match nothing.
        case(
            "a recursion that never ends",
            "s = \"a\" t\nt = s \"bc\"\n",
            "rule `s` matches no string: its recursion never ends",
            at("t.abnf:1:1"),
        )
        .build()
        .export("t", &["s"]),
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
    for (grammar, rules) in &case.ast_rules {
        config.ast_rules(grammar, rules);
    }
    for (grammar, rules) in &case.ast_leaves {
        config.ast_leaves(grammar, rules);
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
        (Pos::NoSpan, None) => {}
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
        Severity::Error => format!("error[{}]: {}", item.code, item.message),
        Severity::Warning => format!("warning[{}]: {}", item.code, item.message),
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
    assert!(all.len() >= 4, "the table has {} rows", all.len());
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
            concat!(module_path!(), "::deep_nesting_is_a_diagnostic_not_a_crash")
                .split_once("::")
                .map_or("", |(_crate, path)| path),
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
/// A line `; test: KEY=VALUE ...` in a root spec sets `runtime`, a limit
/// (`nfa_bytes`, `dfa_bytes`, `determinize_bytes`, `tagged_states`,
/// `rule_output_bytes`, `output_bytes`), `export` (`RULE,RULE`) or the time
/// limit (`seconds`, 20 by default) for the case. Each case runs on its own
/// thread.
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
        let limit = fixture_seconds(case);
        let got = match run_limited(&name, limit, move || Ok(fixture_output(&path))) {
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

/// A fixture's time limit: `seconds=N` on its `; test:` line, else 20 s.
fn fixture_seconds(case: &std::path::Path) -> Duration {
    let secs = fixture_roots(case)
        .iter()
        .flat_map(|root| fixture_options(root))
        .find_map(|(k, v)| (k == "seconds").then(|| v.parse().unwrap()));
    Duration::from_secs(secs.unwrap_or(20))
}

/// The `KEY=VALUE` options of a root spec's `; test:` lines.
fn fixture_options(root: &std::path::Path) -> Vec<(String, String)> {
    let text = String::from_utf8_lossy(&std::fs::read(root).unwrap()).into_owned();
    text.lines()
        .filter_map(|l| l.strip_prefix("; test:"))
        .flat_map(str::split_whitespace)
        .map(|opt| {
            let (k, v) = opt.split_once('=').unwrap_or((opt, ""));
            (k.to_string(), v.to_string())
        })
        .collect()
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
        let stem = root.file_stem().unwrap().to_string_lossy().into_owned();
        for (k, v) in fixture_options(&root) {
            let v = v.as_str();
            match k.as_str() {
                "runtime" => {
                    config.runtime_crate(v);
                }
                "rule_output_bytes" => limits.rule_output_bytes = v.parse().unwrap(),
                "output_bytes" => limits.output_bytes = v.parse().unwrap(),
                "nfa_bytes" => limits.nfa_bytes = v.parse().unwrap(),
                "dfa_bytes" => limits.dfa_bytes = v.parse().unwrap(),
                "determinize_bytes" => limits.determinize_bytes = v.parse().unwrap(),
                "tagged_states" => limits.tagged_states = v.parse().unwrap(),
                // Read by `fixture_seconds`.
                "seconds" => {}
                "export" => {
                    config.export(&stem, &v.split(',').collect::<Vec<_>>());
                }
                other => panic!("{}: unknown test option `{other}`", root.display()),
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
