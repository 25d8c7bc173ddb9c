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
