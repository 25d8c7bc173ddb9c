use abnf_codegen::{automata::Limits, Config, Error};

fn show(name: &str, files: &[(&str, &str)], build: bool, limits: Option<Limits>) {
    let mut c = Config::new();
    for (n, t) in files { c.spec_source(*n, *t); }
    if let Some(l) = limits { c.limits(l); }
    let t0 = std::time::Instant::now();
    let r = if build { c.build().map(|_| ()) } else { c.load().map(|_| ()) };
    println!("===== {name} ({:?})", t0.elapsed());
    match r {
        Ok(()) => println!("OK"),
        Err(Error::Grammar(d)) => {
            for i in &d.items {
                println!("- {:?} {:?} @ {:?}", i.severity, i.message, i.span.map(|s| d.sources.location(s)));
            }
            println!("{}", d.render(false));
        }
        Err(e) => println!("other: {e}"),
    }
}

#[test]
fn probe() {
    let cases: &[(&str, &[(&str, &str)], bool)] = &[
        ("unterminated", &[("t.abnf", "a = \"abc\n")], false),
        ("zz", &[("t.abnf", "a = %xZZ\n")], false),
        ("big", &[("t.abnf", "a = %x110000\n")], false),
        ("rev", &[("t.abnf", "a = %x39-30\n")], false),
        ("rep", &[("t.abnf", "a = 5*3\"x\"\n")], false),
        ("noeq", &[("t.abnf", "a \"x\"\n")], false),
        ("pipe", &[("t.abnf", "a = \"x\" | \"y\"\n")], false),
        ("prose", &[("t.abnf", "a = <foo\n")], false),
        ("undef", &[("t.abnf", "a = bc\nabc = \"x\"\n")], false),
        ("dup", &[("t.abnf", "a = \"x\"\nA = \"y\"\n")], false),
        ("incr", &[("t.abnf", "a =/ \"x\"\n")], false),
        ("impfile", &[("t.abnf", "; @import nope.abnf x\na = x\n")], false),
        ("imprule", &[("t.abnf", "; @import b.abnf x\na = \"a\"\n"), ("b.abnf", "y = \"y\"\n")], false),
        ("impconf", &[("t.abnf", "; @import b.abnf y\ny = \"a\"\n"), ("b.abnf", "y = \"y\"\n")], false),
        ("paren", &[("t.abnf", "a = \"(\" a \")\" / \"x\"\n")], true),
        ("comment", &[("t.abnf", "comment = \"(\" *(ctext / comment) \")\"\nctext = %x21-27 / %x2A-5B / %x5D-7E\n")], true),
        ("mutual", &[("t.abnf", "a = \"x\" b \"y\" / \"z\"\nb = a\n")], true),
        ("nobase", &[("t.abnf", "a = \"x\" a\n")], true),
        ("prose2", &[("t.abnf", "a = <some prose>\n")], false),
        ("empty", &[("t.abnf", "")], false),
        ("comments", &[("t.abnf", "; hello\n  ; more\n\n")], false),
        ("paren-unbal", &[("t.abnf", "a = (\"x\"\n")], false),
        ("trailing-slash", &[("t.abnf", "a = \"x\" /\n")], false),
        ("bracket", &[("t.abnf", "a = ]\n")], false),
        ("digitname", &[("t.abnf", "1a = \"x\"\n")], false),
        ("nonascii", &[("t.abnf", "a = \"é\"\n")], false),
        ("pctq", &[("t.abnf", "a = %q41\n")], false),
        ("pctx-nodigits", &[("t.abnf", "a = %x\n")], false),
        ("bigrep", &[("t.abnf", "a = 99999999999*ALPHA\n")], false),
        ("pct-s-noquote", &[("t.abnf", "a = %sabc\n")], false),
        ("two-on-line", &[("t.abnf", "a = \"x\" b = \"y\"\n")], false),
        ("self-import", &[("t.abnf", "; @import t.abnf a\na = \"x\"\n")], false),
        ("import-norules", &[("t.abnf", "; @import b.abnf\na = \"x\"\n"), ("b.abnf", "y = \"y\"\n")], false),
        ("import-nofile", &[("t.abnf", "; @import\na = \"x\"\n")], false),
        ("surrogate", &[("t.abnf", "a = %xD800-DFFF\n")], true),
        ("cont-unterminated", &[("t.abnf", "a = \"x\"\n    / \"y\n")], false),
        ("crlf", &[("t.abnf", "a = \"x\"\r\nb = %x39-30\r\n")], false),
        ("unindented-cont", &[("t.abnf", "a = \"x\"\n/ \"y\"\n")], false),
        ("b-digit", &[("t.abnf", "a = %b102\n")], false),
        ("d-overflow", &[("t.abnf", "a = %d99999999999\n")], false),
        ("star-noelem", &[("t.abnf", "a = 1*\n")], false),
        ("nonascii-name", &[("t.abnf", "é = \"x\"\n")], false),
        ("mid-error-line3", &[("t.abnf", "a = \"x\"\nb = \"y\"\nc = \"z\" $\n")], false),
        ("prose-name-cycle", &[("t.abnf", "a = \"x\" <a> \"y\" / \"z\"\n")], true),
        ("undefined-in-import", &[("t.abnf", "; @import b.abnf y\na = y\n"), ("b.abnf", "y = zz\n")], false),
    ];
    for (n, f, b) in cases { show(n, f, *b, None); }
}

#[test]
fn probe2() {
    let huge = format!("a = \"x\"\n{}", "; padding padding padding padding padding padding padding\n".repeat(80_000));
    println!("huge len {}", huge.len());
    let cases: Vec<(&str, Vec<(&str, String)>, bool)> = vec![
        ("huge", vec![("t.abnf", huge.clone())], false),
        ("dots", vec![("t.abnf", "a = %x41.42.ZZ\n".into())], false),
        ("dash-nohi", vec![("t.abnf", "a = %x41-\n".into())], false),
        ("dash2", vec![("t.abnf", "a = %x41-42-43\n".into())], false),
        ("mix", vec![("t.abnf", "a = %x41-42.43\n".into())], false),
        ("tab", vec![("t.abnf", "a =\t\"x\"\t|\n".into())], false),
        ("longline", vec![("t.abnf", format!("a = {} $\n", "\"x\" ".repeat(2000)))], false),
        ("right", vec![("t.abnf", "list = item [\",\" list]\nitem = 1*DIGIT\n".into())], true),
        ("left", vec![("t.abnf", "l = l \"a\" / \"b\"\n".into())], true),
        ("mutual-right", vec![("t.abnf", "even = \"\" / \"a\" odd\nodd = \"a\" even\n".into())], true),
        ("collision", vec![("t.abnf", "a-b = \"x\"\na--b = \"y\"\n".into())], true),
        ("quote-in-prose", vec![("t.abnf", "a = <\"x\n".into())], false),
        ("string-with-semicolon", vec![("t.abnf", "a = \";\" / \"x\n".into())], false),
        ("empty-string", vec![("t.abnf", "a = \"\"\n".into())], true),
        ("zero-rep", vec![("t.abnf", "a = 0\"x\"\n".into())], true),
        ("import-cycle", vec![("t.abnf", "; @import b.abnf y\na = y\n".into()), ("b.abnf", "; @import t.abnf a\ny = \"y\"\n".into())], true),
        ("nested-deep", vec![("t.abnf", format!("a = {}\"x\"{}\n", "(".repeat(200), ")".repeat(200)))], true),
    ];
    for (n, f, b) in &cases {
        let f: Vec<(&str, &str)> = f.iter().map(|(a, b)| (*a, b.as_str())).collect();
        show(n, &f, *b, None);
    }
}


fn chain(levels: usize, leaf: &str) -> String {
    let names: Vec<String> = (0..levels).map(|i| format!("r{i}")).collect();
    let mut s = String::new();
    for i in 0..levels - 1 {
        let n = &names[i + 1];
        s.push_str(&format!("{} = {n} {n} {n} {n}\n", names[i]));
    }
    s.push_str(&format!("{} = {leaf}\n", names[levels - 1]));
    s
}

#[test]
fn p_nonutf8() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let p = dir.join("bad-utf8.abnf");
    std::fs::write(&p, b"a = \"x\"\nb = \"\xff\xfe\"\n").unwrap();
    let mut c = Config::new();
    c.spec(&p);
    match c.load() { Err(Error::Grammar(d)) => { for i in &d.items { println!("{} @ {:?}", i.message, i.span.map(|s| d.sources.location(s))); } println!("{}", d.render(false)); } Err(e) => println!("other {e}"), Ok(_) => println!("OK") }
}
#[test]
fn p_collision() {
    for src in ["a-b = \"x\"\na--b = \"y\"\n", "GRAMMAR = \"x\"\ngrammar-rule = \"y\"\n", "a = \"x\"\na- = \"y\"\n"] {
    let mut c = Config::new();
    c.spec_source("t.abnf", src);
    match c.generate() { Err(Error::Grammar(d)) => { for i in &d.items { println!("{} @ {:?}", i.message, i.span.map(|s| d.sources.location(s))); } println!("{}", d.render(false)); } Err(e) => println!("other {e}"), Ok(_) => println!("OK") }
    }
}
#[test]
fn p_explode1000() {
    show("1000x1000 default", &[("t.abnf", "x = 1000*1000ALPHA\n")], true, None);
}
#[test]
fn p_explode1000_nested() {
    show("1000x1000 nested", &[("t.abnf", "x = 1000*1000(1000ALPHA)\n")], true, None);
}
#[test]
fn p_expdfa_default() {
    show("expdfa default", &[("t.abnf", "x = *(\"a\" / \"b\") \"a\" 20(\"a\" / \"b\")\n")], true, None);
}
#[test]
fn p_expdfa_small() {
    show("expdfa small", &[("t.abnf", "x = *(\"a\" / \"b\") \"a\" 20(\"a\" / \"b\")\n")], true, Some(Limits { nfa_bytes: 1 << 20, dfa_bytes: 1 << 20, determinize_bytes: 1 << 20 }));
}
#[test]
fn p_chain12() {
    show("chain12", &[("t.abnf", &chain(12, "ALPHA"))], true, None);
}
#[test]
fn p_chain12_lit() {
    show("chain12lit", &[("t.abnf", &chain(12, "\"x\""))], true, None);
}
#[test]
fn p_deep_nest() {
    let n = 5000;
    let src = format!("a = {}\"x\"{}\n", "(".repeat(n), ")".repeat(n));
    show("deep nest", &[("t.abnf", &src)], true, None);
}
