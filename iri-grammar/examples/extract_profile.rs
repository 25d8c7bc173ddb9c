fn main() {
    let inputs = [
        "http://user@example.org:8080/a/b/c?q=1#frag",
        "https://例え.jp/引き出し?x",
        "//a:b@c:1",
        "a/b:c",
        "mailto:x@y.example",
    ];
    let mut n = 0usize;
    let t = std::time::Instant::now();
    for _ in 0..200_000 {
        for s in inputs {
            let r = iri_grammar::IriRef::parse(std::hint::black_box(s)).unwrap();
            n += r.path().len() + r.host_str().map_or(0, |h| h.len());
        }
    }
    println!("{n} {:?} per parse", t.elapsed() / 1_000_000);
    let t = std::time::Instant::now();
    for _ in 0..200_000 {
        for s in inputs {
            let r = iri_grammar::rfc3987::ast::IriReference::parse(std::hint::black_box(s)).unwrap();
            n += r.text.len();
        }
    }
    println!("{n} {:?} per ast parse", t.elapsed() / 1_000_000);
}
