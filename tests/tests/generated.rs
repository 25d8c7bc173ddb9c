//! The checked-in generated code of `iri-grammar` and the build script that
//! decides whether to use it.

use std::path::Path;

// The build script's copy of the spec fingerprint (it cannot call the
// generator's without compiling the generator).
include!("../../iri-grammar/build/specs_hash.rs");

/// The build script and the generator fingerprint the specs alike: on the
/// real specs, and on a folder where one byte of one spec changed.
#[test]
fn the_build_script_and_the_generator_hash_specs_alike() {
    let specs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../specs");
    assert_eq!(
        specs_hash(&specs).unwrap(),
        abnf_codegen::specs_hash(&specs).unwrap()
    );
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("specs-hash");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.abnf"), "a = \"x\"\n").unwrap();
    std::fs::write(dir.join("b.bnf"), "b ::= \"y\"\n").unwrap();
    std::fs::write(dir.join("notes.txt"), "not a spec").unwrap();
    let before = specs_hash(&dir).unwrap();
    assert_eq!(before, abnf_codegen::specs_hash(&dir).unwrap());
    std::fs::write(dir.join("a.abnf"), "a = \"z\"\n").unwrap();
    let after = specs_hash(&dir).unwrap();
    assert_eq!(after, abnf_codegen::specs_hash(&dir).unwrap());
    assert_ne!(before, after);
    // The recorded fingerprint is the specs' own (`cargo xtask codegen`
    // writes it; the freshness test checks the rest of the files).
    let recorded = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../iri-grammar/generated/SPECS_HASH"),
    )
    .unwrap();
    assert_eq!(recorded.trim(), specs_hash(&specs).unwrap());
}
