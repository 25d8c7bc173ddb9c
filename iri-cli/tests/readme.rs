//! The README's shell lines, run: those of the `iri` command here (with the
//! binary this test builds in place of `iri` and of `cargo run -q -p
//! iri-cli --`), those of `abnf-codegen` by abnf-codegen's `readme` test,
//! and `cargo test --workspace` by CI (`.ci/run`, checked here). A line
//! whose comment says `# → TEXT` must print TEXT as its first line of
//! output (up to the first tab) and exit 0; any other line must exit 0 or 1
//! (1: an input was invalid) and print something.

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_iri");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every line of the README's ```sh blocks.
fn shell_lines() -> Vec<String> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut lines = Vec::new();
    let mut in_sh = false;
    for line in readme.lines() {
        if in_sh && line.starts_with("```") {
            in_sh = false;
        } else if in_sh {
            lines.push(line.to_string());
        } else if line == "```sh" {
            in_sh = true;
        }
    }
    lines
}

/// The command `line` runs: `iri`, `abnf-codegen` or `cargo`.
fn program(line: &str) -> &str {
    let command = line.rsplit("| ").next().unwrap_or(line);
    if command.starts_with("iri ") || command.starts_with("cargo run -q -p iri-cli -- ") {
        "iri"
    } else if command.starts_with("abnf-codegen ") || command.starts_with("cargo run -q -p abnf-codegen -- ")
    {
        "abnf-codegen"
    } else {
        "cargo"
    }
}

#[test]
fn every_readme_command_is_run_by_a_test() {
    let lines = shell_lines();
    assert!(
        lines.iter().filter(|l| program(l) == "iri").count() >= 5,
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| program(l) == "abnf-codegen"), "{lines:?}");
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    for line in lines.iter().filter(|l| program(l) == "cargo") {
        // The only other command: the test command, which CI runs.
        assert_eq!(
            line, "cargo test --workspace",
            "a README command that no test runs"
        );
        assert!(ci.lines().any(|l| l == line), ".ci/run does not run `{line}`");
    }
}

#[test]
fn the_readme_iri_commands_do_what_it_says() {
    let bin = format!("'{BIN}' ");
    for line in shell_lines().iter().filter(|l| program(l) == "iri") {
        let command =
            line.replacen("cargo run -q -p iri-cli -- ", &bin, 1)
                .replacen("| iri ", &format!("| {bin}"), 1);
        let command = match command.strip_prefix("iri ") {
            Some(rest) => format!("{bin}{rest}"),
            None => command,
        };
        let out = Command::new("bash")
            .args(["-c", &command])
            .current_dir(root())
            .output()
            .expect("run bash");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let first = stdout.lines().next().unwrap_or("");
        match line.split_once("# → ") {
            Some((_, expected)) => {
                let got = first.split('\t').next().unwrap_or("");
                assert_eq!(
                    got,
                    expected.trim_end(),
                    "{line}\nstdout: {stdout}\nstderr: {stderr}"
                );
                assert_eq!(out.status.code(), Some(0), "{line}\nstderr: {stderr}");
            }
            None => {
                assert!(
                    matches!(out.status.code(), Some(0 | 1)),
                    "{line}\nstderr: {stderr}"
                );
                assert!(!stdout.is_empty(), "{line} printed nothing\nstderr: {stderr}");
            }
        }
    }
}

/// The README says what its first command prints.
#[test]
fn the_readme_first_command_prints_one_verdict_per_input() {
    let first = shell_lines().into_iter().next().unwrap();
    assert!(first.starts_with("cargo run -q -p iri-cli -- check "), "{first}");
    let out = Command::new("bash")
        .args([
            "-c",
            &first.replacen("cargo run -q -p iri-cli -- ", &format!("'{BIN}' "), 1),
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let verdicts: Vec<&str> = stdout.lines().map(|l| l.split('\t').next().unwrap()).collect();
    assert_eq!(verdicts, ["valid", "valid", "valid"], "{stdout}");
    assert_eq!(out.status.code(), Some(0));
    // The first bidi example: valid, then invalid with an offset and reason.
    let out = Command::new(BIN)
        .args([
            "check",
            "https://example.org/résumé",
            "http://example.org/a\u{202E}b",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let second: Vec<&str> = stdout.lines().nth(1).unwrap().split('\t').collect();
    assert_eq!(
        &second[..3],
        ["invalid", "http://example.org/a\u{202E}b", "20"],
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(1));
}

/// The verbs `iri --help` lists.
fn verbs(bin: &str) -> Vec<String> {
    let out = Command::new(bin).arg("--help").output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    help.lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|v| *v != "help")
        .map(str::to_string)
        .collect()
}

/// Every verb's `--help` ends with examples, and they run: each exits 0
/// or 1 (an input was invalid, or had findings) and prints something.
#[test]
fn every_verb_help_has_examples_that_run() {
    let verbs = verbs(BIN);
    assert_eq!(verbs.len(), 9, "{verbs:?}");
    for verb in verbs {
        let out = Command::new(BIN)
            .args([verb.as_str(), "--help"])
            .output()
            .unwrap();
        let help = String::from_utf8(out.stdout).unwrap();
        let examples: Vec<&str> = help
            .lines()
            .skip_while(|l| *l != "Examples:")
            .skip(1)
            .take_while(|l| l.starts_with("  iri "))
            .collect();
        assert!(
            !examples.is_empty(),
            "`iri {verb} --help` has no example:\n{help}"
        );
        for example in examples {
            let command = example.trim_start().replacen("iri ", &format!("'{BIN}' "), 1);
            let out = Command::new("bash").args(["-c", &command]).output().unwrap();
            assert!(matches!(out.status.code(), Some(0 | 1)), "{example}: {out:?}");
            assert!(!out.stdout.is_empty(), "{example} printed nothing: {out:?}");
        }
        let version = Command::new(BIN)
            .args([verb.as_str(), "--version"])
            .output()
            .unwrap();
        assert!(String::from_utf8(version.stdout).unwrap().ends_with(concat!(
            " ",
            env!("CARGO_PKG_VERSION"),
            "\n"
        )));
    }
}
