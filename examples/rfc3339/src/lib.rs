//! RFC 3339 timestamps, parsed by code that `abnf-codegen` generates from
//! `grammars/rfc3339.abnf` in this crate's build script: an example of using
//! the generator in a crate of your own (see `docs/using-abnf-codegen.md`).
//!
//! ```
//! use rfc3339_example::rfc3339::{self, ast};
//!
//! assert!(rfc3339::DATE_TIME.is_match("1985-04-12T23:20:50.52Z"));
//! assert!(!rfc3339::DATE_TIME.is_match("1985-04-12 23:20:50Z"));
//!
//! let t = ast::DateTime::parse("1996-12-19T16:39:57-08:00")?;
//! assert_eq!(t.full_date.date_month, "12");
//! assert_eq!(t.full_time.partial_time.time_second, "57");
//! match t.full_time.time_offset.kind {
//!     ast::TimeOffsetKind::Z => unreachable!(),
//!     ast::TimeOffsetKind::TimeNumoffset(o) => {
//!         // `time-numoffset = ("+" / "-") time-hour ":" time-minute`: the
//!         // choice between literals is a field named from them.
//!         assert_eq!((o.plus_or_minus, o.time_hour, o.time_minute), ("-", "08", "00"));
//!     }
//! }
//!
//! // `@components`: the parts as spans, in one pass, no tree.
//! let c = rfc3339::components::DateTime::parse("1985-04-12T23:20:50.52Z")?;
//! let text = "1985-04-12T23:20:50.52Z";
//! assert_eq!(&text[c.date.unwrap().range()], "1985-04-12");
//! assert_eq!(&text[c.secfrac.unwrap().range()], ".52");
//! assert_eq!(&text[c.offset.unwrap().range()], "Z");
//!
//! let err = rfc3339::DATE_TIME.validate("1985-04-12T23:20:5Z").unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "invalid rfc3339:date-time at byte offset 18: found 'Z', expected a digit"
//! );
//! # Ok::<(), abnf_runtime::MatchError>(())
//! ```

// One module per grammar file (`rfc3339`), and the `GRAMMARS` index.
include!(concat!(env!("OUT_DIR"), "/grammars.rs"));

#[cfg(test)]
mod tests {
    use super::rfc3339::{self, ast};

    /// RFC 3339 §5.8's examples.
    const EXAMPLES: [&str; 5] = [
        "1985-04-12T23:20:50.52Z",
        "1996-12-19T16:39:57-08:00",
        "1990-12-31T23:59:60Z",
        "1990-12-31T15:59:60-08:00",
        "1937-01-01T12:00:27.87+00:20",
    ];

    #[test]
    fn the_rfc_examples_match_and_parse() {
        for s in EXAMPLES {
            assert!(rfc3339::DATE_TIME.is_match(s), "{s}");
            let t = ast::DateTime::parse(s).unwrap();
            assert_eq!(t.text, s);
            assert_eq!(format!("{}T{}", t.full_date.text, t.full_time.text), s);
            let p = &t.full_time.partial_time;
            assert_eq!(
                format!("{}:{}:{}", p.time_hour, p.time_minute, p.time_second),
                &s[11..19]
            );
        }
        let t = ast::DateTime::parse(EXAMPLES[0]).unwrap();
        assert_eq!(t.full_time.partial_time.time_secfrac, Some(".52"));
        assert_eq!(t.full_time.time_offset.kind, ast::TimeOffsetKind::Z);
    }

    #[test]
    fn the_offset_sign_is_a_field() {
        for (s, sign, hour, minute) in [(EXAMPLES[1], "-", "08", "00"), (EXAMPLES[4], "+", "00", "20")] {
            let t = ast::DateTime::parse(s).unwrap();
            let ast::TimeOffsetKind::TimeNumoffset(o) = t.full_time.time_offset.kind else {
                panic!("{s}: not a numeric offset");
            };
            assert_eq!(
                (o.plus_or_minus, o.time_hour, o.time_minute),
                (sign, hour, minute),
                "{s}"
            );
        }
    }

    #[test]
    fn errors_say_where_and_what_was_expected() {
        for (input, offset, text) in [
            // `"T"` is case-insensitive, as RFC 3339 §5.6 says it is.
            ("1985-04-12 23:20:50Z", 10, "found ' ', expected 'T', 't'"),
            (
                "1985-04-12T23:20:50",
                19,
                "found the end of the input, expected '+', '-', '.', 'Z', 'z'",
            ),
            ("85-04-12T23:20:50Z", 2, "found '-', expected a digit"),
        ] {
            let e = rfc3339::DATE_TIME.validate(input).unwrap_err();
            assert_eq!(e.offset(), offset, "{input}");
            assert!(e.to_string().ends_with(text), "{input}: {e}");
            // The typed tree reports the same error.
            assert_eq!(ast::DateTime::parse(input).unwrap_err(), e, "{input}");
        }
    }

    /// The generated exit walk (`components::DateTime::parse`, and at
    /// each vector level) against the table walk of the same tagged DFA:
    /// on the examples, every prefix of them, and every one-byte change
    /// of them over the bytes the grammar cares about.
    #[test]
    fn the_exit_walk_agrees_with_the_table_walk() {
        use abnf_runtime::simd::Level;
        use rfc3339::components::DateTime;
        let mut inputs: Vec<String> = Vec::new();
        for s in EXAMPLES {
            for end in 0..=s.len() {
                inputs.push(s[..end].to_string());
            }
            for at in 0..s.len() {
                for c in ["0", "9", "-", ":", ".", "T", "t", "Z", "+", " ", "é", "55", ""] {
                    inputs.push(format!("{}{c}{}", &s[..at], &s[at + 1..]));
                }
            }
        }
        let mut valid = 0;
        for s in &inputs {
            let want = DateTime::__parse_by_table(s);
            assert_eq!(DateTime::parse(s), want, "{s:?}");
            for level in Level::available() {
                assert_eq!(
                    DateTime::__parse_by_exits(s, level),
                    want.ok(),
                    "{s:?} at {level:?}"
                );
            }
            valid += usize::from(want.is_ok());
        }
        assert!(valid > 50, "{valid} of {}", inputs.len());
        let c = DateTime::parse(EXAMPLES[4]).unwrap();
        let part = |p: Option<abnf_runtime::Span>| p.map(|p| &EXAMPLES[4][p.range()]);
        assert_eq!(
            (part(c.date), part(c.time), part(c.secfrac), part(c.offset)),
            (
                Some("1937-01-01"),
                Some("12:00:27.87"),
                Some(".87"),
                Some("+00:20")
            )
        );
    }

    #[test]
    fn only_the_exported_rules_have_recognizers() {
        let names: Vec<&str> = rfc3339::GRAMMAR.rules().iter().map(|r| r.rule()).collect();
        assert_eq!(names, ["date-time", "full-date", "full-time"]);
        assert!(super::GRAMMARS.iter().any(|g| g.name() == "rfc3339"));
    }
}
