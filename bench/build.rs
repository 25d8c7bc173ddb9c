//! Generates the JSON validator from RFC 8259's ABNF as published, as a
//! user's build script would (`tests/data/rfc-grammars/rfc8259.abnf`,
//! unedited), for the JSON benchmark (`src/json.rs`).

fn main() {
    let spec = "../tests/data/rfc-grammars/rfc8259.abnf";
    println!("cargo:rerun-if-changed={spec}");
    if let Err(e) = abnf_codegen::Config::new()
        .spec(spec)
        .export("rfc8259", &["JSON-text"])
        .typed_ast(false)
        .compile()
    {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
