//! The deterministic walk over stage 1's structural index against the
//! table's walk, on RFC 8259's `JSON-text` (from
//! `tests/data/rfc-grammars/rfc8259.abnf`, compiled once): any bytes, at
//! every vector level this CPU has, with the default nesting limit and with
//! a limit of 3. Both walks must give the same answer and the same failure
//! (offset, kind, expected bytes, open call). The first byte picks where a
//! valid prefix ends, so that inputs reach deep into documents.
#![no_main]

use std::sync::OnceLock;

use abnf_codegen::wire::{WireBytes, NATIVE_BIG_ENDIAN};
use abnf_codegen::Config;
use abnf_runtime::network::Limits;
use abnf_runtime::simd::{cap_level, Level};
use libfuzzer_sys::fuzz_target;

fn json() -> &'static (WireBytes, usize) {
    static JSON: OnceLock<(WireBytes, usize)> = OnceLock::new();
    JSON.get_or_init(|| {
        let spec = include_str!("../../tests/data/rfc-grammars/rfc8259.abnf");
        let c = Config::new().spec_source("rfc8259.abnf", spec).build().unwrap();
        let r = c.recognizer("rfc8259", "JSON-text").unwrap();
        let (net, index) = r.network().unwrap();
        (WireBytes::new(&net.to_bytes(NATIVE_BIG_ENDIAN)), index)
    })
}

/// A valid document to put before the fuzzer's bytes.
const PREFIX: &str = "{\"a\": [1, -2.5e3, true, null, \"x\\u00e9\\n\\\"y\\\" é日😀\"],\n  \"b\": {\"c\": [[], {}]}, \"d\": \"";

fuzz_target!(|data: &[u8]| {
    let (wire, index) = json();
    let walk = wire.network();
    let plan = walk.plan();
    let pairs = walk.loop_pairs();
    let (cut, rest) = match data.split_first() {
        Some((&c, rest)) => (usize::from(c) % (PREFIX.len() + 1), rest),
        None => (0, data),
    };
    let mut input = PREFIX.as_bytes()[..cut].to_vec();
    input.extend_from_slice(rest);
    let top = Level::detected();
    for limits in [Limits::DEFAULT, Limits { depth: 3, ..Limits::DEFAULT }] {
        let want = walk.walk_table(*index, &input, limits, &pairs);
        for level in Level::available() {
            cap_level(level);
            assert_eq!(
                walk.walk_planned(*index, &input, limits, &plan),
                want,
                "{level:?}, depth {}: {:?}",
                limits.depth,
                String::from_utf8_lossy(&input)
            );
        }
        cap_level(top);
    }
});
