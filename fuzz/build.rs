//! Generates the RFC grammars of the benchmarks (RFC 3339 `date-time`, RFC
//! 5646 `Language-Tag`, RFC 9562 `UUID`, RFC 9112's request head) twice,
//! with the defaults (their top rules walked as code too) and with every
//! walk on the tables (`Config::direct_walks(false)`), for the
//! `direct_walks` target, which compares the two.

use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let specs = [
        "../tests/data/rfc-grammars/rfc3339.abnf",
        "../tests/data/rfc-grammars/rfc5646.abnf",
        "../bench/grammars/rfc9562.abnf",
        "../bench/grammars/rfc9112.abnf",
    ];
    for s in specs {
        println!("cargo:rerun-if-changed={s}");
    }
    for (dir, direct) in [("code", true), ("tables", false)] {
        let mut config = abnf_codegen::Config::new();
        for s in specs {
            config.spec(s);
        }
        let result = config
            .export("rfc3339", &["date-time"])
            .export("rfc5646", &["Language-Tag"])
            .export("rfc9562", &["UUID"])
            .export("rfc9112", &["request-head"])
            .direct_walks(direct)
            .out_dir(out.join(dir))
            .compile();
        if let Err(e) = result {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
