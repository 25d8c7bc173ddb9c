// The conversions only widen: an IRI is not converted into a URI (it may
// hold non-ASCII characters), and a reference not into an absolute IRI.
use iri_grammar::{Iri, IriRef, Uri};

fn main() {
    let iri = Iri::parse("http://example.org/").unwrap();
    let uri: Uri<'_> = iri.into();
    let r = IriRef::parse("/relative").unwrap();
    let abs: Iri<'_> = Iri::from(r);
    println!("{uri} {abs}");
}
