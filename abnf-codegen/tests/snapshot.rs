//! The generated Rust for one small grammar, pinned so that any change to the
//! emitter shows up in review (`cargo insta review`, or
//! `INSTA_UPDATE=always cargo test -p abnf-codegen snapshot::`).

const GRAMMAR: &str = r#"; A small grammar with every shape the emitter knows.
; @components pair key value
; @bidirectional list
pair      = key "=" value
key       = 1*ALPHA
value     = quoted / number
quoted    = DQUOTE *( %x20-21 / %x23-7E ) DQUOTE
number    = 1*DIGIT [ "." 1*DIGIT ]
list      = pair *( "," pair ) [ ";" comment ]
comment   = *VCHAR
tags      = *( key / "," number )
attrs     = *( ";" [ key ] "=" value )
lines     = key CRLF *( key ":" value CRLF ) CRLF
"#;

#[test]
fn generated_module() {
    let mut config = abnf_codegen::Config::new();
    config.spec_source("pairs.abnf", GRAMMAR);
    let generated = config.generate().expect("the grammar is valid");
    let module = generated.file("pairs.rs").expect("a module per grammar");
    insta::assert_snapshot!("pairs_rs", module);
    let index = generated.file("grammars.rs").expect("an index");
    insta::assert_snapshot!("grammars_rs", index);
    // A top rule's walks as code: its recognizer's (it loops on `VCHAR`
    // in `comment`) and its typed tree's.
    let walk = generated
        .file("pairs/list.direct.rs")
        .expect("`list` is a top rule");
    insta::assert_snapshot!("list_direct_rs", walk);
    let tree = generated
        .file("pairs/ast/list.direct.rs")
        .expect("and has a typed tree");
    insta::assert_snapshot!("list_tree_direct_rs", tree);
    // A top rule whose list's items its walk reads with their own walk,
    // logging them for the list.
    let lines = generated
        .file("pairs/ast/lines.direct.rs")
        .expect("`lines` is a top rule");
    assert!(lines.contains("log.push("), "{lines}");
    insta::assert_snapshot!("lines_tree_direct_rs", lines);
}
