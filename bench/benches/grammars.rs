//! `cargo bench -p iri-bench --bench grammars`: the RFC grammars beyond IRIs
//! (`iri_bench::rfc`: RFC 3339 timestamps, RFC 9562 UUIDs, RFC 5646
//! language tags, RFC 9112 request heads, RFC 8259 JSON) against their
//! crates, with criterion, on the same seeded corpora as `grammars-table`.
//!
//! One criterion group per grammar and operation, one benchmark per
//! contender; each iteration processes the whole corpus, so criterion's
//! throughput is in corpus bytes. Ours runs at the CPU's vector level;
//! `IRI_BENCH_LEVEL=avx2` caps it (`scalar`, `SSSE3`, `AVX2`, `AVX-512`,
//! `VBMI`). The `grammars-table` binary times every level in one run and
//! prints the ratios.

use std::collections::HashMap;
use std::hint::black_box;
use std::time::Duration;

use abnf_runtime::simd::{cap_level, Level};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use iri_bench::rfc::{operations, Grammar};
use iri_bench::DEFAULT_SEED;

fn grammars(c: &mut Criterion) {
    if let Ok(name) = std::env::var("IRI_BENCH_LEVEL") {
        match Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(&name))
        {
            Some(l) => cap_level(l),
            None => panic!("IRI_BENCH_LEVEL: unknown level {name:?}"),
        }
    }
    let corpora: HashMap<Grammar, Vec<String>> = Grammar::ALL
        .into_iter()
        .map(|g| (g, g.corpus(g.default_n(), DEFAULT_SEED)))
        .collect();
    for op in operations() {
        let corpus = &corpora[&op.grammar];
        let bytes: usize = corpus.iter().map(String::len).sum();
        let mut group = c.benchmark_group(format!("{} {}", op.grammar.name(), op.name));
        group.throughput(Throughput::Bytes(bytes as u64));
        for contender in &op.contenders {
            group.bench_function(contender.name, |b| b.iter(|| (contender.run)(black_box(corpus))));
        }
        group.finish();
    }
}

fn config() -> Criterion {
    // A corpus pass takes 0.1-100 ms: 20 samples in 1.5 s each keep the
    // whole run near two minutes on a 2-core machine.
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1500))
}

criterion_group! {
    name = benches;
    config = config();
    targets = grammars
}
criterion_main!(benches);
