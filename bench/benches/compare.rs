//! `cargo bench -p iri-bench`: iri-grammar against oxiri, iri-string,
//! fluent-uri (and url, for reference) with criterion, on the same generated
//! corpus in the same run.
//!
//! One criterion group per operation ([`iri_bench::contenders::operations`]),
//! one benchmark per contender. Each iteration processes the whole corpus
//! (10,000 IRIs), so criterion's times are per corpus and its throughput is
//! in corpus bytes; the time per IRI is the corpus time / 10,000. (The
//! `bench-table` binary prints per-IRI times and ratios directly, at every
//! vector level.) `IRI_BENCH_LEVEL=avx2 cargo bench -p iri-bench` caps the
//! vector level (`scalar`, `SSSE3`, `AVX2`, `AVX-512`, `VBMI`; see
//! `abnf_runtime::simd::Level`).

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use iri_bench::contenders::{operations, Corpus};
use iri_bench::long::{long_iri_corpus, long_uri_corpus, LONG_N};
use iri_bench::{iri_corpus, uri_corpus, CorpusStats, DEFAULT_N, DEFAULT_SEED};
use iri_grammar::abnf_runtime::simd::{cap_level, Level};

fn compare(c: &mut Criterion) {
    if let Ok(name) = std::env::var("IRI_BENCH_LEVEL") {
        match Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(&name))
        {
            Some(l) => cap_level(l),
            None => panic!("IRI_BENCH_LEVEL: unknown level {name:?}"),
        }
    }
    let iri = iri_corpus(DEFAULT_N, DEFAULT_SEED);
    let uri = uri_corpus(DEFAULT_N, DEFAULT_SEED);
    let long_iri = long_iri_corpus(LONG_N, DEFAULT_SEED);
    let long_uri = long_uri_corpus(LONG_N, DEFAULT_SEED);
    for op in operations() {
        let corpus = match op.corpus {
            Corpus::Iri => &iri,
            Corpus::Uri => &uri,
            Corpus::LongIri => &long_iri,
            Corpus::LongUri => &long_uri,
        };
        let stats = CorpusStats::of(corpus);
        let mut out = vec![false; corpus.len()];
        let mut group = c.benchmark_group(op.name);
        group.throughput(Throughput::Bytes(stats.bytes as u64));
        for contender in &op.contenders {
            group.bench_function(contender.name, |b| {
                b.iter(|| (contender.run)(black_box(corpus), black_box(&mut out)))
            });
        }
        group.finish();
    }
}

fn config() -> Criterion {
    // A corpus pass takes 0.1-10 ms: 30 samples in 2 s are plenty, and keep
    // the whole run near a minute on a 2-core machine.
    Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = benches;
    config = config();
    targets = compare
}
criterion_main!(benches);
