//! Compile-time guarantees of the API, pinned with `trybuild`: what must not
//! compile (`ui/fail/*.rs` in this package, with the expected errors in the `.stderr`
//! files beside them) and the intended use (`ui/pass/*.rs`).
//!
//! Regenerate the `.stderr` files with
//! `TRYBUILD=overwrite cargo test -p tests --test ui` and check the diff.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/*.rs");
    t.pass("ui/pass/*.rs");
}
