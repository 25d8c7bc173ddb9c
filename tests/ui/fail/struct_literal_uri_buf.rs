// Nor can an owned URI: its fields are private.
use iri_grammar::UriBuf;

fn main() {
    let u = UriBuf { text: String::from("http://exa mple/") };
    println!("{u}");
}
