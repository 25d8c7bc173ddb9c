//! Compile-time guarantees of the API, pinned with `trybuild`: what must not
//! compile (`ui/fail/*.rs` in this package, with the expected errors in the `.stderr`
//! files beside them) and the intended use (`ui/pass/*.rs`).
//!
//! Regenerate the `.stderr` files with
//! `TRYBUILD=overwrite cargo test -p tests ui::` and check the diff.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/*.rs");
    t.pass("ui/pass/*.rs");
    t.pass(collision_corpus());
    t.pass(octets_corpus());
}

/// The generator's collision corpus (`data/collisions/`, names that collide
/// once mapped to Rust; `bad_grammars.rs` checks how they are
/// disambiguated), generated into a temporary folder with a `main` that
/// uses it: the generated code must compile and parse.
fn collision_corpus() -> std::path::PathBuf {
    generated_program(
        "collisions",
        &[
            "data/collisions/collisions.abnf",
            "data/collisions/upper.abnf",
            "data/collisions/lower.abnf",
        ],
        "fn main() {\n\
             for g in grammars::GRAMMARS { let _ = g; }\n\
             let t = grammars::collisions::ast::F::parse(\"abac\").unwrap();\n\
             assert_eq!((t.x, t.y, t.x_2, t.x_2_2), (\"a\", \"b\", \"a\", \"c\"));\n\
             let r = grammars::upper::ast::R::parse(\"zzzz\").unwrap();\n\
             let (_, _): (grammars::upper::ast::A12<'_>, grammars::upper::ast::A1<'_>) = (r.a_1, r.a1);\n\
         }\n",
    )
}

/// A spec whose terminals are octets (`data/octets/`): its typed trees read
/// `&[u8]`, so bytes that are not UTF-8 parse, and their parts are byte
/// slices.
fn octets_corpus() -> std::path::PathBuf {
    generated_program(
        "octets",
        &["data/octets/octets.abnf"],
        "use grammars::octets::{self, ast};\n\
         fn main() {\n\
             let input: &[u8] = b\"X-Name: caf\\xe9,na\\xefve,b\";\n\
             assert!(octets::FIELD.is_match_bytes(input));\n\
             let f: ast::Field<'_> = ast::Field::parse(input).unwrap();\n\
             let name: &[u8] = f.name;\n\
             assert_eq!(name, b\"X-Name\");\n\
             assert_eq!(f.value.item, b\"caf\\xe9\");\n\
             let rest: Vec<&[u8]> = f.value.items.collect();\n\
             assert_eq!(rest, [&b\"na\\xefve\"[..], &b\"b\"[..]]);\n\
             assert_eq!(ast::Field::parse(b\"X-Name: \\x01\").unwrap_err().offset(), 8);\n\
         }\n",
    )
}

/// Generates `specs` into a temporary folder named `name`, with a
/// `main.rs` that declares the generated `grammars` module and then holds
/// `main`: the program trybuild compiles and runs.
fn generated_program(name: &str, specs: &[&str], main: &str) -> std::path::PathBuf {
    let out = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&out);
    let mut config = abnf_codegen::Config::new();
    for spec in specs {
        config.spec(spec);
    }
    let generated = config
        .include_style(abnf_codegen::emit::IncludeStyle::Relative)
        .generate()
        .unwrap_or_else(|e| panic!("{specs:?} were refused:\n{e}"));
    abnf_codegen::write_if_changed(&out.join("gen"), &generated.files).unwrap();
    let path = out.join("main.rs");
    std::fs::write(
        &path,
        format!("#[path = \"gen/grammars.rs\"]\nmod grammars;\n{main}"),
    )
    .unwrap();
    path
}
