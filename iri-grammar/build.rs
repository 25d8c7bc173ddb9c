//! Provides the generated recognizers and parse trees in `OUT_DIR`.
//!
//! The generated code is checked in under `generated/` (written by `cargo
//! xtask codegen`) with a hash of the specs it came from. When the specs are
//! as they were, the build script copies it: a crate that depends on
//! `iri-grammar` neither compiles the generator nor builds automata.
//!
//! When the specs changed (a maintainer edited `specs/` in this workspace),
//! the build script runs the generator instead, so that `cargo build`,
//! `cargo run` and `cargo test` use parsers generated from the specs as they
//! are now, with no flag: it runs `cargo xtask codegen --out $OUT_DIR` with a
//! target folder of its own (`target/spec-codegen`, so that the nested cargo
//! does not wait on this build's lock), and warns that the checked-in copy
//! needs `cargo xtask codegen`. The `regenerate` feature runs the generator
//! as a library instead (always; the workspace's tests turn it on).
//!
//! In the workspace the specs live in `../specs` (`iri-grammar/specs` is a
//! symbolic link to it, which `cargo package` follows, so a packaged crate
//! carries its own copy of the `*.abnf` files).

use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    let specs = [manifest.join("../specs"), manifest.join("specs")]
        .into_iter()
        .find(|p| p.is_dir())
        .expect("iri-grammar needs its specs/ folder");
    println!("cargo:rerun-if-changed={}", specs.display());
    if let Err(e) = generate(&specs, &out, &manifest.join("generated")) {
        eprintln!("{e}");
        std::process::exit(1);
    }
}

#[cfg(feature = "regenerate")]
fn generate(specs: &Path, out: &Path, _prebuilt: &Path) -> Result<(), String> {
    let generated = abnf_codegen::Config::new()
        .specs_dir(specs)
        .regenerate_command("cargo xtask codegen")
        // As `cargo xtask codegen` writes it (see there).
        .direct_walks(false)
        .out_dir(out)
        .compile()
        .map_err(|e| e.to_string())?;
    for d in &generated.warnings.items {
        println!("cargo:warning={}", d.message);
    }
    Ok(())
}

#[cfg(not(feature = "regenerate"))]
fn generate(specs: &Path, out: &Path, prebuilt: &Path) -> Result<(), String> {
    println!("cargo:rerun-if-changed={}", prebuilt.display());
    let recorded = std::fs::read_to_string(prebuilt.join("SPECS_HASH")).unwrap_or_default();
    let current = specs_hash(specs).map_err(|e| format!("error: {}: {e}", specs.display()))?;
    if recorded.trim() == current {
        return copy_dir(prebuilt, out).map_err(|e| format!("error: copying {}: {e}", prebuilt.display()));
    }
    // The specs changed. In the workspace, generate from them.
    let workspace = specs.parent().filter(|w| w.join("xtask/Cargo.toml").is_file());
    let Some(workspace) = workspace else {
        return Err(format!(
            "error: the generated code in {} was not generated from the specs in {} as they are now \
             (specs hash {current}, recorded {}).\n\
             Build with `--features iri-grammar/regenerate` to generate it from the specs.",
            prebuilt.display(),
            specs.display(),
            recorded.trim()
        ));
    };
    println!(
        "cargo:warning=specs/ changed since iri-grammar/generated was written: using code generated from \
         the specs as they are now; run `cargo xtask codegen` to update the checked-in copy"
    );
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = std::process::Command::new(cargo)
        .current_dir(workspace)
        .args(["run", "--quiet", "--package", "xtask", "--target-dir"])
        .arg(workspace.join("target/spec-codegen"))
        .args(["--", "codegen", "--out"])
        .arg(out)
        // The nested build is the generator's own, not this one's target.
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET")
        .env_remove("RUSTC_WRAPPER")
        .status()
        .map_err(|e| format!("error: running `cargo xtask codegen`: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "error: `cargo xtask codegen --out {}` failed ({status})",
            out.display()
        ))
    }
}

#[cfg(not(feature = "regenerate"))]
fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else if std::fs::read(&target).ok() != Some(std::fs::read(entry.path())?) {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

// `specs_hash`: the same function as `abnf_codegen::specs_hash`, which this
// build script cannot call without compiling the generator (the point of the
// checked-in code is not to). The tests crate includes this file too and
// checks that the two agree.
#[cfg(not(feature = "regenerate"))]
include!("build/specs_hash.rs");
