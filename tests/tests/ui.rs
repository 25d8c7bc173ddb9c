//! Compile-time guarantees of the API, pinned with `trybuild`: what must not
//! compile (`ui/fail/*.rs` in this package, with the expected errors in the `.stderr`
//! files beside them) and the intended use (`ui/pass/*.rs`).
//!
//! Regenerate the `.stderr` files with
//! `TRYBUILD=overwrite cargo test -p tests ui::` and check the diff.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/*.rs");
    t.pass("ui/pass/*.rs");
    t.pass(collision_corpus());
    t.pass(octets_corpus());
    t.pass(typed_shapes_corpus());
    t.pass(stack_trees_corpus());
    t.pass(first_alternative_corpus());
    t.pass(byte_choices_corpus());
}

/// Choices whose every alternative is one byte (RFC 9562's `HEXDIG`, a
/// letter or digit or symbol, a high octet or a letter): the generated
/// trees read the variant off the byte (the first alternative that holds
/// it, as a parse prefers), a typed part of such a choice in turn, and
/// their lists are cut by offset. The variants, parts, texts and spans are
/// those a walk would give.
fn byte_choices_corpus() -> std::path::PathBuf {
    generated_program_with(
        "byte_choices",
        &[
            "data/byte_choices/byte_choices.abnf",
            "data/byte_choices/octets.abnf",
        ],
        |c| {
            c.export("byte_choices", &["code", "first"])
                .export("octets", &["word"]);
        },
        r##"use grammars::byte_choices::ast::{AlnumKind as A, Code, First, FirstKind as F, HexdigKind as H, SymKind as S};
use grammars::octets::ast::{OctetKind as O, Word};
fn main() {
    let c = Code::parse("0aF9-x1~+-").unwrap();
    let hex: Vec<(H, H, &str)> = c.hex_octets.map(|o| (o.hexdig.kind, o.hexdig_2.kind, o.text)).collect();
    assert_eq!(hex, [(H::Digit("0"), H::A, "0a"), (H::F, H::Digit("9"), "F9")]);
    let items: Vec<(A, &str, usize)> = c.alnums.map(|a| (a.kind, a.text, a.span.start)).collect();
    assert_eq!(items.len(), 5, "{items:?}");
    assert_eq!(items[0], (A::Alpha, "x", 5));
    assert_eq!(items[1], (A::Digit("1"), "1", 6));
    let syms: Vec<(S, &str, usize)> = items[2..]
        .iter()
        .map(|(a, _, _)| match a {
            A::Sym(s) => (s.kind, s.text, s.span.start),
            a => panic!("{a:?}"),
        })
        .collect();
    assert_eq!(syms, [(S::Alt3, "~", 7), (S::Plus("+"), "+", 8), (S::Minus, "-", 9)]);
    let kinds: Vec<F> = ["a", "A", "f", "7", "x", "X"].iter().map(|s| First::parse(s).unwrap().kind).collect();
    assert_eq!(kinds, [F::Alt1, F::A, F::Alt1, F::Digit("7"), F::X, F::X]);
    assert_eq!(First::parse("g").unwrap_err().offset(), 0);
    assert_eq!(Code::parse("0aF9-").unwrap_err().offset(), 5);
    let w = Word::parse(b"A\xe9 Z").unwrap();
    let o: Vec<(O, &[u8])> = w.octets.map(|o| (o.kind, o.text)).collect();
    assert_eq!(o, [(O::Alt2, &b"A"[..]), (O::Alt1, b"\xe9"), (O::Sp(b" "), b" "), (O::Alt2, b"Z")]);
}
"##,
    )
}

/// RFC 5646's `Language-Tag = langtag / privateuse / grandfathered`,
/// exported alone as a user would: its automaton does not read
/// `langtag`'s parts in its own walk (the tables would be too large), so
/// a parse tries `langtag` on its own first, and walks `Language-Tag`
/// only for the other alternatives and for errors. The trees and errors
/// are those of the one walk.
fn first_alternative_corpus() -> std::path::PathBuf {
    let path = generated_program_with(
        "first_alternative",
        &["data/rfc-grammars/rfc5646.abnf"],
        |c| {
            c.export("rfc5646", &["Language-Tag"]);
        },
        r##"use grammars::rfc5646::ast::{GrandfatheredKind, LanguageKind, LanguageTag, LanguageTagKind as K};
fn main() {
    let t = LanguageTag::parse("zh-Hant-CN-x-private").unwrap();
    let K::Langtag(l) = t.kind else { panic!("{t:?}") };
    assert!(matches!(l.language.kind, LanguageKind::Alphas { alphas: "zh", extlang: None }), "{l:?}");
    assert_eq!((l.script, l.region, l.privateuse), (Some("Hant"), Some("CN"), Some("x-private")));
    let l = match LanguageTag::parse("sl-rozaj-biske-1994").unwrap().kind {
        K::Langtag(l) => l,
        k => panic!("{k:?}"),
    };
    let variants: Vec<&str> = l.variants.map(|v| v.text).collect();
    assert_eq!(variants, ["rozaj", "biske", "1994"]);
    assert_eq!(LanguageTag::parse("x-whatever").unwrap().kind, K::Privateuse("x-whatever"));
    let g = match LanguageTag::parse("i-klingon").unwrap().kind {
        K::Grandfathered(g) => g,
        k => panic!("{k:?}"),
    };
    assert_eq!(g.kind, GrandfatheredKind::Irregular("i-klingon"));
    // `en-GB-oed` is grandfathered, not a `langtag` (`oed` is no variant).
    assert!(matches!(LanguageTag::parse("en-GB-oed").unwrap().kind, K::Grandfathered(_)));
    for (bad, at) in [("de-", 3), ("a-DE", 1), ("en-US-", 6), ("", 0)] {
        let e = LanguageTag::parse(bad).unwrap_err();
        assert_eq!(e.offset(), at, "{bad:?}: {e}");
        assert_eq!(e.rule(), "Language-Tag");
    }
}
"##,
    );
    let code = std::fs::read_to_string(path.with_file_name("gen").join("rfc5646.rs")).unwrap();
    assert!(
        code.contains("Langtag::__try_walked("),
        "`Language-Tag` no longer tries `langtag` first: this corpus tests nothing"
    );
    path
}

/// Typed trees of rules with a stack (issue 27), as a user's crate meets
/// them: RFC 8259 and RFC 5322 as published. A JSON document is walked
/// whole with an explicit stack through `Nested::get`, and RFC 5322's own
/// example of an address list with nested comments (Appendix A.5) is read
/// down to its comments.
fn stack_trees_corpus() -> std::path::PathBuf {
    generated_program(
        "stack_trees",
        &[
            "data/rfc-grammars/rfc8259.abnf",
            "data/rfc-grammars/rfc5322.abnf",
            "data/typed/list.abnf",
        ],
        r##"use grammars::{list, rfc5322::ast as mail, rfc8259::ast as json};
fn main() {
    // A right-recursive, regular list, walked with a loop (each `get`
    // parses the rest again: a whole walk is quadratic in the items).
    let input = (0..2_000).map(|i| i.to_string()).collect::<Vec<_>>().join(",");
    let mut next = Some(list::ast::List::parse(&input).unwrap());
    let mut items = 0;
    while let Some(l) = next {
        assert_eq!(l.item, items.to_string());
        items += 1;
        next = l.list.map(|rest| rest.get());
    }
    assert_eq!(items, 2_000);

    let doc = r#"{"a": [1, {"b": null}, "xA"], "c": {"d": [[], [true, -2.5e3]]}}"#;
    let mut todo = vec![json::Value::parse(doc).unwrap()];
    let (mut values, mut names) = (0, Vec::new());
    while let Some(v) = todo.pop() {
        values += 1;
        match v.kind {
            json::ValueKind::Object(o) => {
                let o = o.get();
                for m in o.member.into_iter().chain(o.members.iter().map(|i| i.member)) {
                    let m = m.get();
                    names.push(m.string);
                    todo.push(m.value.get());
                }
            }
            json::ValueKind::Array(a) => {
                let a = a.get();
                todo.extend(a.value.into_iter().chain(a.values.iter().map(|i| i.value)).map(|v| v.get()));
            }
            json::ValueKind::Number(n) => assert!(["1", "-2.5e3"].contains(&n.text)),
            _ => {}
        }
    }
    assert_eq!(values, 12);
    names.sort();
    assert_eq!(names, [r#""a""#, r#""b""#, r#""c""#, r#""d""#]);
    let deep = "[".repeat(2000) + &"]".repeat(2000);
    let e = json::Value::parse(&deep).unwrap_err();
    assert_eq!(e.kind(), abnf_runtime::ErrorKind::TooDeep);

    // RFC 5322, Appendix A.5.
    let list = concat!(
        "Pete(A nice \\) chap) <pete(his account)@silly.test(his host)>, ",
        "A Group(Some people)\r\n     :Chris Jones <c@(Chris's host.)public.example>,\r\n",
        "         joe@example.org,\r\n  John <jdoe@one.test> (my dear friend); (the end of the group)",
    );
    let l = mail::AddressList::parse(list).unwrap();
    let mail::AddressListKind::Address { address, addresss } = l.kind else { panic!("{l:?}") };
    assert_eq!(addresss.len(), 1);
    assert!(matches!(address.get().kind, mail::AddressKind::Mailbox(_)));
    let mail::AddressKind::Group(group) = addresss[0].get().kind else { panic!() };
    assert!(group.get().group_list.is_some());
    // The comments of `Pete(A nice \\) chap)`, read down from the list.
    let mail::AddressKind::Mailbox(m) = address.get().kind else { panic!() };
    let mail::MailboxKind::NameAddr(na) = m.get().kind else { panic!() };
    let na = na.get();
    // The comment may end the display name (its last `atom`'s `[CFWS]`)
    // or start the angle address: first-match-wins gives it to the part
    // on the left, as a one-DFA tree would.
    assert_eq!(na.display_name, Some("Pete(A nice \\) chap) "));
    assert!(na.angle_addr.text().starts_with("<pete("));
    let c = mail::Comment::parse("(a (b (c) d) \\( (e))").unwrap();
    let mut todo = vec![c];
    let mut comments = Vec::new();
    while let Some(c) = todo.pop() {
        comments.push(c.text);
        for item in &c.ccontents {
            if let mail::CcontentKind::Comment(inner) = item.ccontent.get().kind {
                todo.push(inner.get());
            }
        }
    }
    comments.sort();
    assert_eq!(comments, ["(a (b (c) d) \\( (e))", "(b (c) d)", "(c)", "(e)"]);
}
"##,
    )
}

/// The shapes of issue 26 (`data/typed/`), as a user's crate meets them:
/// a list of a choice (it panicked on iteration and yielded one
/// alternative), a repeated group of several parts (only its first rule
/// was kept), a named repetition (it was text), literal variants (`Alt1`,
/// the value lost); in text and in octets. Every list is iterated to its
/// end and its items must tile its text.
fn typed_shapes_corpus() -> std::path::PathBuf {
    generated_program(
        "typed_shapes",
        &[
            "data/typed/qs.abnf",
            "data/typed/qsoctets.abnf",
            "data/typed/ctype.abnf",
            "data/typed/named.abnf",
            "data/typed/cmd.abnf",
            "data/typed/lines.abnf",
        ],
        r##"use grammars::{cmd, ctype, lines, named, qs, qsoctets};
fn tiles<T>(list_span: (usize, usize), items: &[T], span: impl Fn(&T) -> abnf_runtime::Span) {
    let mut at = list_span.0;
    for item in items {
        assert_eq!(span(item).start, at);
        at = span(item).end;
    }
    assert_eq!(at, list_span.1);
}
fn main() {
    use qs::ast::QuotedStringItemKind as K;
    let t = qs::ast::QuotedString::parse(r#""a\"b""#).unwrap();
    let items: Vec<_> = t.qdtext_or_quoted_pairs.collect();
    tiles((1, 5), &items, |i| i.span);
    let kinds: Vec<K<'_>> = items.iter().map(|i| i.kind).collect();
    assert_eq!(kinds, [K::Qdtext("a"), K::QuotedPair("\\\""), K::Qdtext("b")]);

    use qsoctets::ast::QuotedStringItemKind as B;
    let t = qsoctets::ast::QuotedString::parse(b"\"\xe9\\\xff\"").unwrap();
    let kinds: Vec<B<'_>> = t.qdtext_or_quoted_pairs.map(|i| i.kind).collect();
    assert_eq!(kinds, [B::Qdtext(b"\xe9"), B::QuotedPair(b"\\\xff")]);

    let input: &[u8] = b"text/html; charset=utf-8 ;q=\"x\";";
    let ct = ctype::ast::ContentType::parse(input).unwrap();
    let params: Vec<ctype::ast::ParametersItem<'_>> = ct.media_type.parameters.parameters.collect();
    tiles((9, input.len()), &params, |p| p.span);
    let names: Vec<Option<&[u8]>> = params.iter().map(|p| p.parameter.map(|p| p.parameter_name)).collect();
    assert_eq!(names, [Some(&b"charset"[..]), Some(&b"q"[..]), None]);
    let p = params[1].parameter.unwrap();
    assert!(matches!(p.parameter_value.kind, ctype::ast::ParameterValueKind::QuotedString(b"\"x\"")));
    assert_eq!((params[1].ows, params[1].ows_2), (&b" "[..], &b""[..]));

    let h = named::ast::Header::parse("a:  b").unwrap();
    assert_eq!((h.text, h.token, h.text_, h.token_2), ("a:  b", "a", "  ", "b"));
    let ps = named::ast::Params::parse("; a=b;c=d").unwrap();
    let pairs: Vec<_> = ps.param_items.map(|i| i.parameter.map(|p| (p.token, p.token_2))).collect();
    assert_eq!(pairs, [Some(("a", "b")), Some(("c", "d"))]);

    assert_eq!(cmd::ast::Param::parse("COUNT=10").unwrap().kind, cmd::ast::ParamKind::Count("10"));
    assert_eq!(cmd::ast::Param::parse("NAME=abc").unwrap().kind, cmd::ast::ParamKind::Name("abc"));

    // Lines logged by the head's walk: more than its log holds, one past
    // 64 KiB, and the list read twice (a copy, then the original).
    let long = format!("\"{}\"", "a b".repeat(25_000));
    let mut input = String::from("GET\r\n");
    let mut expected = Vec::new();
    for k in 0..40 {
        let (name, value) = match k {
            7 => ("Long".to_string(), long.clone()),
            k if k % 3 == 0 => (format!("N-{}", "x".repeat(k % 5 + 1)), format!("\"v {k}\"").replace(|c: char| c.is_ascii_digit(), "d")),
            k if k % 3 == 1 => (format!("W-{}", "z".repeat(k % 4 + 1)), ["ab", "c", "def"][..k % 4].join(&" ".repeat(k % 3 + 1))),
            k => (format!("N-{}", "y".repeat(k % 4 + 1)), k.to_string()),
        };
        if value.is_empty() {
            continue;
        }
        input.push_str(&format!("{name}:{}{value}{}\r\n", " ".repeat(k % 3), " ".repeat(k % 2)));
        expected.push((name, value));
    }
    input.push_str("\r\n");
    let h = lines::ast::Head::parse(&input).unwrap();
    assert_eq!(h.word, "GET");
    for list in [h.values, h.values] {
        let items: Vec<_> = list.collect();
        tiles((5, input.len() - 2), &items, |i| i.span);
        let got: Vec<(String, String)> = items.iter().map(|i| (i.name.to_string(), i.value.to_string())).collect();
        assert_eq!(got, expected);
    }
    let mut bad = input.clone();
    bad.insert(input.len() - 30, '!');
    assert!(lines::ast::Head::parse(&bad).is_err());

    // Phrases walked as code at every vector level against the table.
    let pieces = ["ab", " ", "   ", "xyzzy", ".", "1", "\t", "Q"];
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for n in 0..600 {
        let mut s = String::new();
        for _ in 0..n % 150 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            s.push_str(pieces[(seed % 100) as usize % pieces.len() * usize::from(seed % 100 < 90)]);
        }
        s.push('.');
        let table = lines::PHRASE.table().full_match(s.as_bytes());
        for level in abnf_runtime::simd::Level::available() {
            assert_eq!(lines::PHRASE.__direct_match(s.as_bytes(), level), Some(table), "{s:?} at {level:?}");
        }
        assert_eq!(lines::PHRASE.is_match(&s), table.is_ok());
    }
}
"##,
    )
}

/// The generator's collision corpus (`data/collisions/`, names that collide
/// once mapped to Rust; `bad_grammars.rs` checks how they are
/// disambiguated), generated into a temporary folder with a `main` that
/// uses it: the generated code must compile and parse.
fn collision_corpus() -> std::path::PathBuf {
    generated_program(
        "collisions",
        &[
            "data/collisions/collisions.abnf",
            "data/collisions/upper.abnf",
            "data/collisions/lower.abnf",
        ],
        "fn main() {\n\
             for g in grammars::GRAMMARS { let _ = g; }\n\
             let t = grammars::collisions::ast::F::parse(\"abac\").unwrap();\n\
             assert_eq!((t.x, t.y, t.x_2, t.x_2_2), (\"a\", \"b\", \"a\", \"c\"));\n\
             let r = grammars::upper::ast::R::parse(\"zzzz\").unwrap();\n\
             let (_, _): (grammars::upper::ast::A12<'_>, grammars::upper::ast::A1<'_>) = (r.a_1, r.a1);\n\
         }\n",
    )
}

/// A spec whose terminals are octets (`data/octets/`): its typed trees read
/// `&[u8]`, so bytes that are not UTF-8 parse, and their parts are byte
/// slices.
fn octets_corpus() -> std::path::PathBuf {
    generated_program(
        "octets",
        &["data/octets/octets.abnf"],
        "use grammars::octets::{self, ast};\n\
         fn main() {\n\
             let input: &[u8] = b\"X-Name: caf\\xe9,na\\xefve,b\";\n\
             assert!(octets::FIELD.is_match_bytes(input));\n\
             let f: ast::Field<'_> = ast::Field::parse(input).unwrap();\n\
             let name: &[u8] = f.name;\n\
             assert_eq!(name, b\"X-Name\");\n\
             assert_eq!(f.value.item, b\"caf\\xe9\");\n\
             let rest: Vec<&[u8]> = f.value.items.collect();\n\
             assert_eq!(rest, [&b\"na\\xefve\"[..], &b\"b\"[..]]);\n\
             assert_eq!(ast::Field::parse(b\"X-Name: \\x01\").unwrap_err().offset(), 8);\n\
         }\n",
    )
}

/// Generates `specs` into a temporary folder named `name`, with a
/// `main.rs` that declares the generated `grammars` module and then holds
/// `main`: the program trybuild compiles and runs.
fn generated_program(name: &str, specs: &[&str], main: &str) -> std::path::PathBuf {
    generated_program_with(name, specs, |_| {}, main)
}

/// [`generated_program`] with the configuration changed by `setup`.
fn generated_program_with(
    name: &str,
    specs: &[&str],
    setup: impl FnOnce(&mut abnf_codegen::Config),
    main: &str,
) -> std::path::PathBuf {
    let out = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&out);
    let mut config = abnf_codegen::Config::new();
    for spec in specs {
        config.spec(spec);
    }
    setup(&mut config);
    let generated = config
        .include_style(abnf_codegen::emit::IncludeStyle::Relative)
        .generate()
        .unwrap_or_else(|e| panic!("{specs:?} were refused:\n{e}"));
    abnf_codegen::write_if_changed(&out.join("gen"), &generated.files).unwrap();
    let path = out.join("main.rs");
    std::fs::write(
        &path,
        format!("#[path = \"gen/grammars.rs\"]\nmod grammars;\n{main}"),
    )
    .unwrap();
    path
}
