// The borrowed view of an owned IRI cannot outlive the owned value.
use iri_grammar::{Iri, IriBuf};

fn main() {
    let view: Iri<'_>;
    {
        let owned = IriBuf::parse(String::from("http://example.org/")).unwrap();
        view = owned.as_ref();
    }
    println!("{}", view.path());
}
