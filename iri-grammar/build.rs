//! Runs the generator over the grammar files in `specs/`.
//!
//! In the workspace the specs live in `../specs` (`iri-grammar/specs` is a
//! symbolic link to it, which `cargo package` follows, so a packaged crate
//! carries its own copy of the `*.abnf` files).

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let specs = [manifest.join("../specs"), manifest.join("specs")]
        .into_iter()
        .find(|p| p.is_dir())
        .expect("iri-grammar needs its specs/ folder");
    let result = abnf_codegen::Config::new()
        .specs_dir(&specs)
        .runtime_crate("::iri_grammar")
        .compile();
    match result {
        Ok(generated) => {
            for d in &generated.warnings.items {
                println!("cargo:warning={}", d.message);
            }
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
