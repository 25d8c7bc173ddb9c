// A generated parse tree borrows its input: it cannot outlive it.
use iri_grammar::rfc3987::ast::IriReference;

fn main() {
    let tree: IriReference<'_>;
    {
        let s = String::from("http://example.org/a?q");
        tree = IriReference::parse(&s).unwrap();
    }
    println!("{}", tree.text);
}
