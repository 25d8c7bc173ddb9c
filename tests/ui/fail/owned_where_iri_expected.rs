// A `UriBuf` is not an `IriBuf` without the explicit conversion.
use iri_grammar::{IriBuf, UriBuf};

fn keep(iri: IriBuf) -> String {
    iri.into_string()
}

fn main() {
    let uri = UriBuf::parse(String::from("http://example.org/")).unwrap();
    println!("{}", keep(uri));
}
