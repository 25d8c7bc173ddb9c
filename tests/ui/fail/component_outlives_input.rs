// A component (a `&str` into the input) cannot outlive the input either.
use iri_grammar::Uri;

fn main() {
    let host: &str;
    {
        let s = String::from("http://example.org/a");
        host = Uri::parse(&s).unwrap().host_str().unwrap();
    }
    println!("{host}");
}
