// There is no infallible conversion from a string: only `parse`,
// `TryFrom` and `FromStr`, which validate.
use iri_grammar::IriRef;

fn main() {
    let r: IriRef<'_> = "a b".into();
    println!("{r}");
}
