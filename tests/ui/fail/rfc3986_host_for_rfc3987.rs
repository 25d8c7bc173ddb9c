// Same for inner nodes: `rfc3986::ast::Host` is not `rfc3987::ast::Ihost`.
use iri_grammar::{rfc3986, rfc3987};

fn host_text(host: rfc3987::ast::Ihost<'_>) -> &str {
    host.text
}

fn main() {
    let host = rfc3986::ast::Host::parse("example.org").unwrap();
    println!("{}", host_text(host));
}
