//! Generates the RFC 3339 parsers into `OUT_DIR`.

fn main() {
    let out_dir = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    if let Err(e) = abnf_codegen::Config::new()
        .spec("grammars/rfc3339.abnf")
        // The rules to give recognizers. Below rules named here, every rule
        // with parts gets a type (without `export`, every rule gets a
        // recognizer and only the file's top rules and rules with structure
        // get types).
        .export("rfc3339", &["date-time", "full-date", "full-time"])
        .out_dir(out_dir)
        .compile()
    {
        // Diagnostics with file, line, column and a caret excerpt.
        eprintln!("{e}");
        std::process::exit(1);
    }
}
