// Intended use: the only ways in are the validating ones.
use std::str::FromStr;

use iri_grammar::{IriRef, IriRefBuf, ParseError, Uri, UriBuf};

fn main() -> Result<(), ParseError> {
    let a = IriRef::parse("http://example.org/")?;
    let b = IriRef::try_from("http://example.org/")?;
    let c: IriRefBuf = "http://example.org/".parse()?;
    let d = IriRefBuf::from_str("http://example.org/")?;
    let e = UriBuf::try_from(String::from("urn:isbn:0451450523"))?;
    assert_eq!(a, b);
    assert_eq!(c, d);
    assert_eq!(c.as_ref(), a);
    assert_eq!(e.as_ref().path(), "isbn:0451450523");
    let err = Uri::parse("http://exa mple/").unwrap_err();
    assert_eq!(err.offset(), 10);
    assert!(IriRefBuf::try_from("a b").is_err());
    Ok(())
}
