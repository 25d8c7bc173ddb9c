fn main() {
    let corpus = iri_bench::iri_corpus(10000, iri_bench::DEFAULT_SEED);
    let mut sum = 0usize;
    for _ in 0..300 {
        for s in &corpus {
            if let Ok(r) = iri_grammar::IriRef::parse(std::hint::black_box(s)) {
                sum += r.scheme().map_or(0, str::len)
                    + r.host_str().map_or(0, str::len)
                    + r.path().len()
                    + r.query().map_or(0, str::len)
                    + r.fragment().map_or(0, str::len);
            }
        }
    }
    println!("{sum}");
}
