// Nor is a `Uri` an `IriRef` without a conversion.
use iri_grammar::{IriRef, Uri};

fn path_of(r: IriRef<'_>) -> &str {
    r.path()
}

fn main() {
    let uri = Uri::parse("http://example.org/a").unwrap();
    println!("{}", path_of(uri));
}
