// A borrowed IRI reference cannot outlive the string it was parsed from.
use iri_grammar::IriRef;

fn main() {
    let r: IriRef<'_>;
    {
        let s = String::from("http://example.org/a");
        r = IriRef::parse(&s).unwrap();
    }
    println!("{}", r.path());
}
