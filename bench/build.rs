//! Generates the benchmarked parsers from their RFCs' ABNF, as a user's
//! build script would, with the defaults:
//!
//! - RFC 8259's JSON (`tests/data/rfc-grammars/rfc8259.abnf`, unedited) into
//!   `$OUT_DIR`, with no typed trees (its `value` needs a stack, and only
//!   validation is timed), for `src/json.rs`;
//! - RFC 3339's `date-time` and RFC 5646's `Language-Tag`
//!   (`tests/data/rfc-grammars/`, unedited), RFC 9562's `UUID` and RFC 9112's
//!   request head (`grammars/`) into `$OUT_DIR/rfc`, typed trees on, for
//!   `src/grammars.rs`. Each exports its top rule only, so every rule below
//!   it that has parts gets a type;
//! - the same four again into `$OUT_DIR/rfc-tables` with no walks as code
//!   (`Config::direct_walks(false)`), for the tests that compare the two.

use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let json = "../tests/data/rfc-grammars/rfc8259.abnf";
    println!("cargo:rerun-if-changed={json}");
    println!("cargo:rerun-if-changed=grammars");
    let result = abnf_codegen::Config::new()
        .spec(json)
        .export("rfc8259", &["JSON-text"])
        .typed_ast(false)
        .compile()
        // A folder of its own (the JSON build's `grammars.rs` is in
        // `$OUT_DIR`): its files name each other relatively.
        .and_then(|_| rfc_grammars(true).out_dir(out.join("rfc")).compile())
        // The same with every walk on the tables (no walks as code), for the
        // tests that check the two give the same answers.
        .and_then(|_| rfc_grammars(false).out_dir(out.join("rfc-tables")).compile());
    if let Err(e) = result {
        eprintln!("{e}");
        std::process::exit(1);
    }
}

/// The four RFC grammars, each exporting its top rule; `direct`: with walks
/// as code (the default).
fn rfc_grammars(direct: bool) -> abnf_codegen::Config {
    let mut config = abnf_codegen::Config::new();
    config
        .spec("../tests/data/rfc-grammars/rfc3339.abnf")
        .spec("../tests/data/rfc-grammars/rfc5646.abnf")
        .spec("grammars/rfc9562.abnf")
        .spec("grammars/rfc9112.abnf")
        .export("rfc3339", &["date-time"])
        .export("rfc5646", &["Language-Tag"])
        .export("rfc9562", &["UUID"])
        .export("rfc9112", &["request-head"])
        .direct_walks(direct);
    config
}
