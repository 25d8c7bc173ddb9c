//! ABNF read straight from the RFC texts (`specs/rfc-text/*.txt`, as
//! published: page breaks in the middle of rules, prose, examples) defines
//! the same rules as the curated `specs/*.abnf` and recognizes the same
//! language on the test corpus.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use abnf_codegen::{Compiled, Config};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn build(path: PathBuf) -> Compiled {
    let mut config = Config::new();
    config.spec(&path).typed_ast(false);
    config
        .build()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every rule name a module can use: defined and imported, lower-cased.
fn names(c: &Compiled, module: &str) -> BTreeSet<String> {
    let g = &c.grammar;
    let m = g.module(g.module_by_name(module).expect("module"));
    m.defined
        .iter()
        .chain(&m.imported)
        .map(|&id| g.rule(id).name.to_ascii_lowercase())
        .collect()
}

/// Whole lines of the vector files, and the pieces between delimiters (so
/// that rules such as `IPv6address` or `segment` see inputs of their own).
fn corpus() -> Vec<String> {
    let dir = root().join("tests/data/vectors");
    let mut out = BTreeSet::new();
    for file in [
        "valid-iri.txt",
        "invalid-iri.txt",
        "valid-uri.txt",
        "invalid-uri.txt",
    ] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        for line in text.lines() {
            out.insert(line.to_string());
            for piece in line.split([':', '/', '?', '#', '@']) {
                out.insert(piece.to_string());
            }
            if let (Some(a), Some(b)) = (line.find('['), line.find(']')) {
                if a < b {
                    out.insert(line[a..=b].to_string());
                    out.insert(line[a + 1..b].to_string());
                }
            }
        }
    }
    out.into_iter().collect()
}

fn compare(txt: &str, curated: &str, module: &str) {
    let extracted = build(root().join("specs/rfc-text").join(txt));
    let reference = build(root().join("specs").join(curated));
    let (a, b) = (names(&extracted, module), names(&reference, module));
    assert_eq!(a, b, "rules of {txt} vs {curated}");
    let corpus = corpus();
    assert!(corpus.len() > 1500, "{} inputs", corpus.len());
    let mut differences = Vec::new();
    for rule in &b {
        let x = extracted.recognizer(module, rule).expect("exported");
        let y = reference.recognizer(module, rule).expect("exported");
        for input in &corpus {
            if x.is_match(input.as_bytes()) != y.is_match(input.as_bytes()) {
                differences.push(format!("{rule}: {input:?}"));
            }
        }
    }
    assert!(
        differences.is_empty(),
        "{} differences:\n{}",
        differences.len(),
        differences.join("\n")
    );
}

#[test]
fn rfc3986_text_matches_the_curated_spec() {
    compare("rfc3986.txt", "rfc3986.abnf", "rfc3986");
}

#[test]
fn rfc3987_text_matches_the_curated_spec() {
    compare("rfc3987.txt", "rfc3987.abnf", "rfc3987");
}

#[test]
fn text_without_abnf_is_an_error_that_says_so() {
    let mut config = Config::new();
    config.spec_source("notes.txt", "   This memo has prose only.\n\n   Really.\n");
    let err = config.load().unwrap_err();
    let d = err.diagnostics().expect("a diagnostic");
    assert!(
        d.items[0].message.contains("no ABNF rules found in `notes.txt`"),
        "{d}"
    );
}

#[test]
fn extraction_keeps_line_numbers_for_diagnostics() {
    // A rule split by a page break, with an undefined name after the break.
    let rfc = "   a = \"x\"\n       / b\n\nAuthor                 Standards Track                [Page 1]\n\x0c\nRFC 9999                 Title                 January 2005\n\n       / undefined-name\n   b = \"y\"\n";
    let mut config = Config::new();
    config.spec_source("rfc9999.txt", rfc);
    let err = config.load().unwrap_err();
    let d = err.diagnostics().expect("a diagnostic");
    let item = d.errors().next().expect("an error");
    assert!(item.message.contains("undefined rule `undefined-name`"), "{d}");
    assert_eq!(d.sources.location(item.span.unwrap()), "rfc9999.txt:8:10");
}
