//! The hot paths of `iri-grammar` never allocate: checked with a counting
//! global allocator over the whole benchmark corpus (valid and invalid
//! inputs, ASCII and not).
//!
//! One test, in phases, because the order matters: the recognizers' sparse
//! DFA (`Recognizer::dfa`, a `OnceBox`) is loaded on first use, with one
//! allocation, and only error reports use it. So:
//!
//! 1. cold (nothing has loaded the DFA): `is_match`, `is_match_many`,
//!    `validate` and the generated `ast::IriReference::parse` make no
//!    allocation, not even the first call;
//! 2. `IriRef::parse` with every accessor and its error reports make none
//!    either, cold; only the first `Recognizer::dfa()` call allocates (a
//!    `Box`, plus the `BTreeSet` with which `regex-automata`'s checked
//!    `DFA::from_bytes` verifies the states — that it allocates at all shows
//!    that nothing before loaded the DFA);
//! 3. warm: all of the above, `IriRef::parse` with every accessor, and the
//!    error's accessors, make none.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;

use iri_bench::{iri_corpus, uri_corpus, DEFAULT_N, DEFAULT_SEED};
use iri_grammar::{rfc3986, rfc3987, IriRef};

/// Counts the allocations of the current thread (the counter is a
/// const-initialized thread local, so reading it allocates nothing, and the
/// test harness's other threads do not disturb it).
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn bump() {
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

// SAFETY: every method forwards to `System` with the same arguments.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        bump();
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        bump();
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        bump();
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// How many allocations `f` makes on this thread.
fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

fn is_match(corpus: &[String]) {
    for s in corpus {
        black_box(rfc3987::IRI_REFERENCE.is_match(black_box(s)));
        black_box(rfc3986::URI_REFERENCE.is_match(black_box(s)));
        black_box(rfc3987::IRI_REFERENCE.is_match_bytes(black_box(s.as_bytes())));
    }
}

fn is_match_many(corpus: &[String], out: &mut [bool]) {
    rfc3987::IRI_REFERENCE.is_match_many(black_box(corpus), out);
    black_box(&*out);
    rfc3986::URI_REFERENCE.is_match_many(black_box(corpus), out);
    black_box(&*out);
}

fn validate(corpus: &[String]) {
    for s in corpus {
        let r = rfc3987::IRI_REFERENCE.validate(black_box(s));
        black_box(r.map_err(|e| (e.offset(), e.rule(), e.grammar())).ok());
    }
}

fn ast_parse(corpus: &[String]) {
    for s in corpus {
        if let Ok(t) = rfc3987::ast::IriReference::parse(black_box(s)) {
            black_box((t.span, t.text));
        }
    }
}

/// `IriRef::parse` and every accessor; errors' accessors too.
fn parse_and_read(corpus: &[String]) {
    for s in corpus {
        match IriRef::parse(black_box(s)) {
            Ok(r) => {
                black_box(r.as_str());
                black_box(r.scheme());
                black_box(r.authority());
                black_box(r.userinfo());
                black_box(r.host().map(|h| (h.as_str(), h.kind())));
                black_box(r.host_str());
                black_box(r.port().map(|p| (p.as_str(), p.as_u16())));
                black_box(r.path());
                for seg in r.path_segments() {
                    black_box(seg);
                }
                black_box(r.query());
                black_box(r.fragment());
                black_box(r.is_absolute());
            }
            Err(e) => {
                black_box((e.offset(), e.rule(), e.grammar(), e.found(), e.expects(b'/')));
            }
        }
    }
}

#[test]
fn hot_paths_do_not_allocate() {
    let mut corpus = iri_corpus(DEFAULT_N, DEFAULT_SEED);
    corpus.extend(uri_corpus(DEFAULT_N, DEFAULT_SEED));
    let mut out = vec![false; corpus.len()];
    let mut failures = Vec::new();
    // `want`: `Some(n)` exactly n allocations, `None` at least one.
    let mut expect = |what: &str, got: usize, want: Option<usize>| {
        println!("{what}: {got} allocations");
        let ok = match want {
            Some(n) => got == n,
            None => got > 0,
        };
        if !ok {
            let want = want.map_or("some".to_string(), |n| n.to_string());
            failures.push(format!("{what}: {got} allocations, expected {want}"));
        }
    };

    // 1. Cold: the first calls in this process.
    expect("cold is_match", allocations(|| is_match(&corpus)), Some(0));
    expect(
        "cold is_match_many",
        allocations(|| is_match_many(&corpus, &mut out)),
        Some(0),
    );
    expect("cold validate", allocations(|| validate(&corpus)), Some(0));
    expect(
        "cold ast::IriReference::parse",
        allocations(|| ast_parse(&corpus)),
        Some(0),
    );

    // 2. Extraction and error reports (which read the compact table, not
    // the sparse DFA) allocate nothing even cold; only the first `dfa()`
    // call loads IRI_REFERENCE's sparse DFA.
    expect(
        "cold IriRef::parse + all accessors",
        allocations(|| parse_and_read(&corpus)),
        Some(0),
    );
    expect(
        "first IRI_REFERENCE.dfa() (loads it)",
        allocations(|| {
            black_box(rfc3987::IRI_REFERENCE.dfa());
        }),
        None,
    );
    expect(
        "IRI_REFERENCE.dfa() once loaded",
        allocations(|| {
            black_box(rfc3987::IRI_REFERENCE.dfa());
        }),
        Some(0),
    );

    // 3. Warm.
    expect("is_match", allocations(|| is_match(&corpus)), Some(0));
    expect(
        "is_match_many",
        allocations(|| is_match_many(&corpus, &mut out)),
        Some(0),
    );
    expect("validate", allocations(|| validate(&corpus)), Some(0));
    expect(
        "ast::IriReference::parse",
        allocations(|| ast_parse(&corpus)),
        Some(0),
    );
    expect(
        "IriRef::parse + all accessors",
        allocations(|| parse_and_read(&corpus)),
        Some(0),
    );

    // The counter works.
    expect(
        "a Vec (control)",
        allocations(|| drop(black_box(vec![1u8; 3]))),
        Some(1),
    );

    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
