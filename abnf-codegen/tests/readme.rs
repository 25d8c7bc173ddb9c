//! The README's `abnf-codegen` lines, run with the binary this test builds
//! in place of `abnf-codegen` (and of `cargo run -q -p abnf-codegen --`),
//! from the workspace's root. A line whose comment says `# → TEXT` must
//! print TEXT as its first line and exit 0; any other line must exit 0 and
//! print something (on standard output, or for `generate` on standard
//! error). iri-cli's `readme` test runs the `iri` lines and checks that no
//! README command is left unrun.

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_abnf-codegen");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The README's ```sh lines that run `abnf-codegen`.
fn abnf_codegen_lines() -> Vec<String> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut lines = Vec::new();
    let mut in_sh = false;
    for line in readme.lines() {
        if in_sh && line.starts_with("```") {
            in_sh = false;
        } else if in_sh {
            let command = line.rsplit("| ").next().unwrap_or(line);
            if command.starts_with("abnf-codegen ") || command.starts_with("cargo run -q -p abnf-codegen -- ")
            {
                lines.push(line.to_string());
            }
        } else if line == "```sh" {
            in_sh = true;
        }
    }
    lines
}

#[test]
fn the_readme_abnf_codegen_commands_do_what_it_says() {
    let lines = abnf_codegen_lines();
    assert!(lines.len() >= 4, "{lines:?}");
    let bin = format!("'{BIN}' ");
    for line in &lines {
        let command = line
            .replacen("cargo run -q -p abnf-codegen -- ", &bin, 1)
            .replacen("| abnf-codegen ", &format!("| {bin}"), 1);
        let command = match command.strip_prefix("abnf-codegen ") {
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
        assert_eq!(
            out.status.code(),
            Some(0),
            "{line}\nstdout: {stdout}\nstderr: {stderr}"
        );
        match line.split_once("# → ") {
            Some((_, expected)) => {
                assert_eq!(
                    stdout.lines().next(),
                    Some(expected.trim_end()),
                    "{line}\nstderr: {stderr}"
                )
            }
            None => assert!(!stdout.is_empty() || !stderr.is_empty(), "{line} printed nothing"),
        }
    }
}

/// The verbs `abnf-codegen --help` lists.
fn verbs() -> Vec<String> {
    let out = Command::new(BIN).arg("--help").output().unwrap();
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

/// Every verb's `--help` ends with examples, and they run from a folder
/// that has the repository's `specs/` and `examples/` (so what they write
/// stays there): each exits 0 and prints something.
#[test]
fn every_verb_help_has_examples_that_run() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("abnf-codegen-help-examples");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for link in ["specs", "examples"] {
        std::os::unix::fs::symlink(root().join(link), dir.join(link)).unwrap();
    }
    let verbs = verbs();
    assert_eq!(verbs.len(), 9, "{verbs:?}");
    for verb in verbs {
        let out = Command::new(BIN)
            .args([verb.as_str(), "--help"])
            .output()
            .unwrap();
        let help = String::from_utf8(out.stdout).unwrap();
        let examples: Vec<&str> = help
            .lines()
            .skip_while(|l| !l.starts_with("Examples"))
            .skip(1)
            .take_while(|l| l.starts_with("  ") && l.contains("abnf-codegen "))
            .collect();
        assert!(
            !examples.is_empty(),
            "`abnf-codegen {verb} --help` has no example:\n{help}"
        );
        for example in examples {
            let bin = format!("'{BIN}' ");
            let command = example
                .trim_start()
                .replacen("| abnf-codegen ", &format!("| {bin}"), 1);
            let command = match command.strip_prefix("abnf-codegen ") {
                Some(rest) => format!("{bin}{rest}"),
                None => command,
            };
            let out = Command::new("bash")
                .args(["-c", &command])
                .current_dir(&dir)
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(0), "{example}: {out:?}");
            let written = dir.join("IPv4address.svg");
            assert!(
                !out.stdout.is_empty() || !out.stderr.is_empty() || written.is_file(),
                "{example} printed nothing"
            );
        }
    }
}

/// `--import-dir DIR` is `Config::import_dir`: a spec may import from a
/// folder beside its own only when that folder is given.
#[test]
fn import_dir_lets_imports_leave_the_specs_folder() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("abnf-codegen-import-dir");
    // DIR/specs/list.abnf imports DIR/common.abnf, outside its folder.
    let specs = dir.join("specs");
    std::fs::create_dir_all(&specs).unwrap();
    std::fs::write(dir.join("common.abnf"), "word = 1*ALPHA\n").unwrap();
    let list = specs.join("list.abnf");
    std::fs::write(
        &list,
        "; @import ../common.abnf word\nlist = word *(\",\" word)\n",
    )
    .unwrap();
    let check = |extra: &[&Path]| {
        let mut c = Command::new(BIN);
        c.arg("check");
        for d in extra {
            c.arg("--import-dir").arg(d);
        }
        c.arg(&list).output().unwrap()
    };
    let refused = check(&[]);
    assert_eq!(refused.status.code(), Some(1), "{refused:?}");
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("common.abnf"),
        "{refused:?}"
    );
    let ok = check(&[&dir]);
    assert_eq!(ok.status.code(), Some(0), "{ok:?}");
    assert!(String::from_utf8_lossy(&ok.stdout).starts_with("ok: 1 spec file checked, 2 rules compiled"));
    // After the verb too, and for the other verbs.
    let out = Command::new(BIN)
        .args(["match", "--rule", "list"])
        .arg(&list)
        .arg("--import-dir")
        .arg(&dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(b"a,bc\na,,b\n")?;
            child.wait_with_output()
        })
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "valid\ta,bc\ninvalid\ta,,b\t2\n"
    );
}
