// A `Uri` is not an `Iri`: `From<Uri> for Iri` exists, but the conversion
// must be asked for (`.into()` or `Iri::from`).
use iri_grammar::{Iri, Uri};

fn scheme_of(iri: Iri<'_>) -> &str {
    iri.scheme()
}

fn main() {
    let uri = Uri::parse("mailto:a@example.org").unwrap();
    println!("{:?}", scheme_of(uri));
}
