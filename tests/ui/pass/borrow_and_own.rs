// Intended use: borrow while the input lives; own (or copy the parts out)
// to keep an IRI longer than its input.
use iri_grammar::rfc3987::ast::{IhostKind, IriReference, IriReferenceKind};
use iri_grammar::{Host, Iri, IriBuf, IriRef};

fn host_of(input: &str) -> Option<&str> {
    // Components borrow from the input, not from the parsed value.
    IriRef::parse(input).ok()?.host_str()
}

fn main() {
    let input = String::from("http://user@example.org:8080/a/b?q#f");
    let r = IriRef::parse(&input).unwrap();
    assert_eq!(r.host(), Some(Host::RegName("example.org")));
    assert_eq!(host_of(&input), Some("example.org"));

    // An owned copy outlives the input.
    let owned: IriBuf;
    {
        let s = String::from("https://example.org/x");
        owned = IriBuf::parse(s).unwrap();
    }
    let view: Iri<'_> = owned.as_ref();
    assert_eq!(view.path(), "/x");

    let kept = {
        let s = String::from("http://a/");
        Iri::parse(&s).unwrap().to_owned()
    };
    assert_eq!(kept.as_str(), "http://a/");

    // The generated trees borrow in the same way.
    let tree = IriReference::parse(&input).unwrap();
    let IriReferenceKind::Iri(iri) = tree.kind else { panic!() };
    assert_eq!(iri.scheme, "http");
    assert_eq!(&input[tree.span.range()], tree.text);
    let host = iri_grammar::rfc3987::ast::Ihost::parse("192.0.2.1").unwrap();
    assert!(matches!(host.kind, IhostKind::Ipv4address("192.0.2.1")));
}
