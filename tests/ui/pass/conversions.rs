// Intended use: every URI is an IRI and every absolute IRI a reference;
// the widening conversions are explicit and keep the components.
use iri_grammar::{Iri, IriBuf, IriRef, IriRefBuf, Uri, UriBuf, UriRef, UriRefBuf};

fn scheme_of(iri: Iri<'_>) -> &str {
    iri.scheme()
}

fn path_of<'a>(r: impl Into<IriRef<'a>>) -> &'a str {
    r.into().path()
}

fn main() {
    let uri = Uri::parse("mailto:a@example.org").unwrap();
    assert_eq!(scheme_of(uri.into()), "mailto");
    assert_eq!(scheme_of(Iri::from(uri)), "mailto");
    assert_eq!(path_of(UriRef::from(uri)), "a@example.org");
    assert_eq!(path_of(Iri::from(uri)), "a@example.org");
    assert_eq!(path_of(UriRef::parse("../x").unwrap()), "../x");
    assert_eq!(path_of(IriRef::parse("/é").unwrap()), "/é");
    let uri_ref: UriRef<'_> = uri.into();
    assert_eq!(uri_ref.scheme(), Some("mailto"));

    let owned: IriBuf = UriBuf::parse("http://a/b".to_string()).unwrap().into();
    assert_eq!(owned.as_ref().path(), "/b");
    let owned: IriRefBuf = IriRefBuf::from(UriRefBuf::parse("//h".to_string()).unwrap());
    assert_eq!(owned.as_ref().host_str(), Some("h"));
}
