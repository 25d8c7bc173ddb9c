// A parse tree of a local string cannot be returned.
use iri_grammar::rfc3986::ast::Uri;

fn parse_local() -> Uri<'static> {
    let s = String::from("http://example.org/");
    Uri::parse(&s).unwrap()
}

fn main() {
    println!("{:?}", parse_local().scheme);
}
