use iri_grammar::rfc3987::ast::*;
fn main() {
    for s in [
        "//a:b@c:1",
        "a/b:c",
        "http://[::1]:80/a/b/c?q#f",
        "http://[v7.x]/",
        "foo:/x/y",
        "?q",
    ] {
        let r = IriReference::parse(s).unwrap();
        match r.kind {
            IriReferenceKind::Iri(i) => println!(
                "{s}: IRI scheme={} hier={:?} q={:?} f={:?}",
                i.scheme, i.ihier_part.kind, i.iquery, i.ifragment
            ),
            IriReferenceKind::IrelativeRef(i) => println!(
                "{s}: REL part={:?} q={:?} f={:?}",
                i.irelative_part.kind, i.iquery, i.ifragment
            ),
        }
    }
}
