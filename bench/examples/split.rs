use iri_grammar::rfc3986_appendix_b::components::Reference;
use std::hint::black_box;
use std::time::Instant;
fn main() {
    let corpus: Vec<String> = iri_bench::iri_corpus(10000, iri_bench::DEFAULT_SEED)
        .into_iter()
        .filter(|s| s.len() < 96 && iri_grammar::rfc3987::IRI_REFERENCE.is_match(s))
        .collect();
    for _ in 0..3 {
        let t0 = Instant::now();
        let mut k = 0usize;
        for _ in 0..100 {
            for s in black_box(&corpus) {
                k += Reference::parse(s).map_or(0, |r| r.path.map_or(0, |p| p.end));
            }
        }
        let a = t0.elapsed().as_nanos() as f64 / 100.0 / corpus.len() as f64;
        let t0 = Instant::now();
        for _ in 0..100 {
            for s in black_box(&corpus) {
                k += Reference::parse_checked(&iri_grammar::rfc3987::IRI_REFERENCE, s)
                    .map_or(0, |r| r.path.map_or(0, |p| p.end));
            }
        }
        let b = t0.elapsed().as_nanos() as f64 / 100.0 / corpus.len() as f64;
        let t0 = Instant::now();
        for _ in 0..100 {
            for s in black_box(&corpus) {
                k += iri_grammar::IriRef::parse(s).map_or(0, |r| r.path().len());
            }
        }
        let c = t0.elapsed().as_nanos() as f64 / 100.0 / corpus.len() as f64;
        let t0 = Instant::now();
        for _ in 0..100 {
            for s in black_box(&corpus) {
                k += iri_grammar::rfc3987::IRI_REFERENCE.is_match(s) as usize;
            }
        }
        let d = t0.elapsed().as_nanos() as f64 / 100.0 / corpus.len() as f64;
        println!("valid short: splitter alone {a:.1} ns, splitter+recognizer {b:.1}, IriRef::parse {c:.1}, is_match {d:.1} ({k})");
    }
}
