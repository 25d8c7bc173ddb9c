// A `Port` only comes from a parsed authority: its field is private.
use iri_grammar::Port;

fn main() {
    let p = Port("not digits");
    println!("{:?}", p.as_u16());
}
