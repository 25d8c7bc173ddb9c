// The two grammars' trees are distinct types: an RFC 3986 node is not
// accepted where an RFC 3987 node is required.
use iri_grammar::{rfc3986, rfc3987};

fn wants_iri_reference(tree: &rfc3987::ast::IriReference<'_>) -> usize {
    tree.text.len()
}

fn main() {
    let uri = rfc3986::ast::UriReference::parse("http://example.org/").unwrap();
    println!("{}", wants_iri_reference(&uri));
}
