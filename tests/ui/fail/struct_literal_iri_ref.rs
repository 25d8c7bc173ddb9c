// An IRI reference cannot be built without validation: its fields are
// private, so struct literal syntax is rejected, even to copy the parts of
// a valid one onto other text.
use iri_grammar::IriRef;

fn main() {
    let valid = IriRef::parse("http://example.org/").unwrap();
    let forged = IriRef { text: "not an IRI", ..valid };
    println!("{forged}");
}
