//! Prints the components of each argument, read through the generated
//! typed parse tree (`rfc3987::ast`) and the `IriRef` type built on it.
//!
//! ```sh
//! cargo run -p iri-grammar --example components -- 'http://[::1]:80/a/b?q#f' '//a:b@c:1'
//! ```

use iri_grammar::rfc3987::ast::{IriReference, IriReferenceKind};
use iri_grammar::IriRef;

fn main() {
    for input in std::env::args().skip(1) {
        let tree = match IriReference::parse(&input) {
            Ok(tree) => tree,
            Err(e) => {
                println!("{input}: {e}");
                continue;
            }
        };
        let kind = match tree.kind {
            IriReferenceKind::Iri(_) => "IRI",
            IriReferenceKind::IrelativeRef(_) => "relative reference",
        };
        let r = IriRef::parse(&input).expect("the typed tree parsed it");
        println!("{input}: {kind}");
        println!("  scheme    {:?}", r.scheme());
        println!("  userinfo  {:?}", r.userinfo());
        println!("  host      {:?}", r.host());
        println!("  port      {:?}", r.port().map(|p| p.as_str()));
        println!(
            "  path      {:?} {:?}",
            r.path(),
            r.path_segments().collect::<Vec<_>>()
        );
        println!("  query     {:?}", r.query());
        println!("  fragment  {:?}", r.fragment());
    }
}
