//! The README's `build.rs` and `include!` examples are not doctests (they
//! need a build script); they must be what `examples/rfc3339`, which the
//! workspace builds and tests, does. The README's other Rust examples are
//! doctests of this crate (`lib.rs`); its shell lines are run by the
//! `readme` tests of iri-cli and abnf-codegen.

use std::path::Path;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The README's ```rust,ignore blocks.
fn ignored_blocks() -> Vec<String> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut blocks = Vec::new();
    let mut block: Option<String> = None;
    for line in readme.lines() {
        match &mut block {
            Some(b) if line.starts_with("```") => blocks.push(std::mem::take(b)),
            Some(b) => {
                b.push_str(line);
                b.push('\n');
                continue;
            }
            None => {}
        }
        block = (line == "```rust,ignore").then(String::new);
    }
    blocks
}

/// The lines of `text` that are code: no comment lines, no blank lines,
/// trimmed.
fn code_lines(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .collect()
}

#[test]
fn the_readme_build_script_is_the_example_crates() {
    let blocks = ignored_blocks();
    assert_eq!(
        blocks.len(),
        2,
        "the README's build.rs and include! examples: {blocks:?}"
    );
    let build_rs = std::fs::read_to_string(root().join("examples/rfc3339/build.rs")).unwrap();
    assert_eq!(code_lines(&blocks[0]), code_lines(&build_rs));
    let lib_rs = std::fs::read_to_string(root().join("examples/rfc3339/src/lib.rs")).unwrap();
    for line in code_lines(&blocks[1]) {
        assert!(
            lib_rs.lines().any(|l| l == line),
            "examples/rfc3339/src/lib.rs has no `{line}`"
        );
    }
    // The dependencies the README's comments name.
    let manifest = std::fs::read_to_string(root().join("examples/rfc3339/Cargo.toml")).unwrap();
    assert!(blocks[0].contains("default-features = false") && manifest.contains("default-features = false"));
}
