//! RFC 3339 `date-time` (§5.6) against jiff, time, chrono and speedate.
//!
//! The corpus: timestamps as logs and APIs write them, `Z` or a numeric
//! offset, whole seconds or 3, 6 or 9 fraction digits (a few with 1 or 2),
//! real calendar dates from 1970 to 2037, a few with a lower-case `t` or `z`
//! (RFC 3339 §5.6 allows them). 5% are invalid: 4% with a syntax flaw
//! anywhere ([`Flaw`]), 1% well-formed but out of range (month 13, 30
//! February, hour 24, minute 60), which the ABNF accepts and every crate
//! rejects: the operation "validate + ranges" does that work on top of the
//! generated parser.

use super::generated::rfc3339::{self, ast};
use super::{c, digits, insert_at, Grammar, Operation, Role};
use crate::{validator, Rng};

/// What an entry was generated to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flaw {
    /// A byte dropped from the fixed-width part, doubled there, or replaced
    /// by a byte the grammar has no place for; or a byte inserted anywhere.
    Syntax,
    /// Well-formed, with a field out of its range.
    Range,
}

/// `n` timestamps from `seed`, with what each was generated to be.
pub fn samples(n: usize, seed: u64) -> Vec<(String, Option<Flaw>)> {
    let mut rng = Rng::new(seed ^ 0x3339);
    (0..n).map(|_| sample(&mut rng)).collect()
}

/// `n` timestamps from `seed`.
pub fn corpus(n: usize, seed: u64) -> Vec<String> {
    samples(n, seed).into_iter().map(|s| s.0).collect()
}

fn days_in(year: u32, month: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

fn sample(rng: &mut Rng) -> (String, Option<Flaw>) {
    let flaw = match rng.below(1000) {
        0..=39 => Some(Flaw::Syntax),
        40..=49 => Some(Flaw::Range),
        _ => None,
    };
    let year = rng.range(1970, 2037) as u32;
    let mut month = rng.range(1, 12) as u32;
    let mut day = rng.range(1, days_in(year, month) as usize) as u32;
    let mut hour = rng.below(24) as u32;
    let mut minute = rng.below(60) as u32;
    let second = rng.below(60) as u32;
    if flaw == Some(Flaw::Range) {
        match rng.below(4) {
            0 => month = rng.range(13, 19) as u32,
            1 => {
                month = rng.pick(&[2, 4, 6, 9, 11]);
                day = days_in(year, month) + 1;
            }
            2 => hour = rng.range(24, 29) as u32,
            _ => minute = rng.range(60, 99) as u32,
        }
    }
    let t = if rng.chance(8) { 't' } else { 'T' };
    let mut s = format!("{year:04}-{month:02}-{day:02}{t}{hour:02}:{minute:02}:{second:02}");
    let frac = rng.weighted(&[(450, 0), (300, 3), (150, 6), (70, 9), (30, 1)]);
    if frac > 0 {
        s.push('.');
        for _ in 0..frac {
            s.push(char::from(b'0' + rng.below(10) as u8));
        }
    }
    if rng.chance(650) {
        s.push(if rng.chance(8) { 'z' } else { 'Z' });
    } else {
        let sign = if rng.chance(600) { '+' } else { '-' };
        let (h, m) = rng.pick(&[
            (0, 0),
            (1, 0),
            (2, 0),
            (5, 0),
            (5, 30),
            (8, 0),
            (9, 0),
            (3, 30),
            (10, 0),
            (12, 45),
        ]);
        s.push_str(&format!("{sign}{h:02}:{m:02}"));
    }
    if flaw == Some(Flaw::Syntax) {
        spoil(rng, &mut s);
    }
    (s, flaw)
}

/// A syntax flaw anywhere: every one of these the grammar rejects.
fn spoil(rng: &mut Rng, s: &mut String) {
    // The first 19 bytes are fixed-width fields and separators: dropping or
    // doubling one of them shifts every field after it.
    let at = rng.below(19);
    match rng.below(4) {
        0 => {
            s.remove(at);
        }
        1 => {
            let b = s[at..=at].to_string();
            s.insert_str(at, &b);
        }
        2 => {
            let at = rng.below(s.len());
            s.replace_range(at..=at, rng.pick(&[" ", "/", "x", "_", ","]));
        }
        _ => {
            let (len, what) = (s.len(), rng.pick(&[" ", "/", "x", "_", ",", "\n"]));
            insert_at(rng, s, 0, len, what);
        }
    }
}

/// The integers of a timestamp, as every contender reports them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fields {
    /// Year.
    pub year: i32,
    /// Month, 1-12.
    pub month: u32,
    /// Day, 1-31.
    pub day: u32,
    /// Hour, 0-23.
    pub hour: u32,
    /// Minute, 0-59.
    pub minute: u32,
    /// Second, 0-60.
    pub second: u32,
    /// Nanoseconds of the fraction.
    pub nanos: u32,
    /// Offset from UTC in seconds (0 for `Z`).
    pub offset: i32,
}

impl Fields {
    fn sum(&self) -> u64 {
        (self.year as u64)
            .wrapping_mul(31)
            .wrapping_add(u64::from(
                self.month * 37 + self.day * 41 + self.hour * 43 + self.minute * 47 + self.second,
            ))
            .wrapping_add(u64::from(self.nanos))
            .wrapping_add(self.offset as i64 as u64)
    }
}

/// The fields of a typed tree as integers, with the ranges every crate
/// checks (RFC 3339 §5.7: the month's days, leap years; hours, minutes,
/// seconds up to 60 for a leap second); `None` when one is out of range.
pub fn fields(t: &ast::DateTime<'_>) -> Option<Fields> {
    let d = &t.full_date;
    let p = &t.full_time.partial_time;
    let year = digits(d.date_fullyear.as_bytes());
    let month = digits(d.date_month.as_bytes());
    let day = digits(d.date_mday.as_bytes());
    let hour = digits(p.time_hour.as_bytes());
    let minute = digits(p.time_minute.as_bytes());
    let second = digits(p.time_second.as_bytes());
    if !(1..=12).contains(&month)
        || day == 0
        || day > days_in(year, month)
        || hour > 23
        || minute > 59
        || second > 60
    {
        return None;
    }
    let mut nanos = 0;
    if let Some(f) = p.time_secfrac {
        let f = &f.as_bytes()[1..];
        let take = f.len().min(9);
        nanos = digits(&f[..take]) * 10u32.pow(9 - take as u32);
    }
    let offset = match &t.full_time.time_offset.kind {
        ast::TimeOffsetKind::Z => 0,
        ast::TimeOffsetKind::TimeNumoffset(o) => {
            let (h, m) = (digits(o.time_hour.as_bytes()), digits(o.time_minute.as_bytes()));
            if h > 23 || m > 59 {
                return None;
            }
            let s = (h * 3600 + m * 60) as i32;
            if o.plus_or_minus == "-" {
                -s
            } else {
                s
            }
        }
    };
    Some(Fields {
        year: year as i32,
        month,
        day,
        hour,
        minute,
        second,
        nanos,
        offset,
    })
}

/// Ours: the typed tree, its fields as integers, their ranges.
pub fn ours_fields(s: &str) -> Option<Fields> {
    // (Read in place: `.ok()` would copy the tree into an `Option` first.)
    match ast::DateTime::parse(s) {
        Ok(t) => fields(&t),
        Err(_) => None,
    }
}

/// jiff: `Pieces::parse` (the parts of a Temporal/RFC 9557 string).
pub fn jiff_fields(s: &str) -> Option<Fields> {
    let p = jiff::fmt::temporal::Pieces::parse(s).ok()?;
    let (d, t) = (p.date(), p.time()?);
    Some(Fields {
        year: i32::from(d.year()),
        month: d.month() as u32,
        day: d.day() as u32,
        hour: t.hour() as u32,
        minute: t.minute() as u32,
        second: t.second() as u32,
        nanos: t.subsec_nanosecond() as u32,
        offset: p.to_numeric_offset()?.seconds(),
    })
}

/// time: `OffsetDateTime::parse` with `Rfc3339`.
pub fn time_fields(s: &str) -> Option<Fields> {
    let t = time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339).ok()?;
    Some(Fields {
        year: t.year(),
        month: u8::from(t.month()) as u32,
        day: u32::from(t.day()),
        hour: u32::from(t.hour()),
        minute: u32::from(t.minute()),
        second: u32::from(t.second()),
        nanos: t.nanosecond(),
        offset: t.offset().whole_seconds(),
    })
}

/// chrono: `DateTime::parse_from_rfc3339`.
pub fn chrono_fields(s: &str) -> Option<Fields> {
    use chrono::{Datelike, Timelike};
    let t = chrono::DateTime::parse_from_rfc3339(s).ok()?;
    Some(Fields {
        year: t.year(),
        month: t.month(),
        day: t.day(),
        hour: t.hour(),
        minute: t.minute(),
        second: t.second(),
        nanos: t.nanosecond(),
        offset: t.offset().local_minus_utc(),
    })
}

/// speedate: `DateTime::parse_str_rfc3339` (microseconds only).
pub fn speedate_fields(s: &str) -> Option<Fields> {
    let t = speedate::DateTime::parse_str_rfc3339(s).ok()?;
    Some(Fields {
        year: i32::from(t.date.year),
        month: u32::from(t.date.month),
        day: u32::from(t.date.day),
        hour: u32::from(t.time.hour),
        minute: u32::from(t.time.minute),
        second: u32::from(t.time.second),
        nanos: t.time.microsecond * 1000,
        offset: t.time.tz_offset.unwrap_or(0),
    })
}

fn sum_fields(corpus: &[String], f: fn(&str) -> Option<Fields>) -> u64 {
    corpus
        .iter()
        .map(|s| f(std::hint::black_box(s)).map_or(0, |x| x.sum().wrapping_add(1)))
        .fold(0, u64::wrapping_add)
}

/// The operations on this corpus.
pub fn operations() -> Vec<Operation> {
    use Role::*;
    let g = Grammar::Timestamp;
    vec![
        Operation {
            grammar: g,
            name: "validate",
            contenders: vec![
                validator!("abnf-codegen DATE_TIME.is_match", Ours, |s| rfc3339::DATE_TIME
                    .is_match(s)),
                validator!("abnf-codegen ast::DateTime::parse + ranges", Ours, |s| {
                    ours_fields(s).is_some()
                }),
                validator!("jiff Timestamp::from_str", Peer, |s| s
                    .parse::<jiff::Timestamp>()
                    .is_ok()),
                validator!("time OffsetDateTime::parse(Rfc3339)", Peer, |s| {
                    time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339).is_ok()
                }),
                validator!("chrono DateTime::parse_from_rfc3339", Peer, |s| {
                    chrono::DateTime::parse_from_rfc3339(s).is_ok()
                }),
                validator!("speedate DateTime::parse_str_rfc3339", Peer, |s| {
                    speedate::DateTime::parse_str_rfc3339(s).is_ok()
                }),
            ],
            note: "every crate also checks the ranges (month, day of the month, hour, minute): \
                   `is_match` checks the ABNF only, `+ ranges` does the crates' work",
        },
        Operation {
            grammar: g,
            name: "typed tree",
            contenders: vec![
                c("abnf-codegen ast::DateTime::parse", Ours, |corpus| {
                    corpus
                        .iter()
                        .filter_map(|s| ast::DateTime::parse(std::hint::black_box(s)).ok())
                        .map(|t| {
                            let p = &t.full_time.partial_time;
                            (t.full_date.date_fullyear.len()
                                + t.full_date.date_month.len()
                                + t.full_date.date_mday.len()
                                + p.time_hour.len()
                                + p.time_minute.len()
                                + p.time_second.len()
                                + p.time_secfrac.map_or(0, str::len)
                                + t.full_time.time_offset.text.len()) as u64
                        })
                        .sum()
                }),
                c("jiff Pieces::parse", Peer, |corpus| {
                    corpus
                        .iter()
                        .filter(|s| {
                            jiff::fmt::temporal::Pieces::parse(std::hint::black_box(s.as_str())).is_ok()
                        })
                        .count() as u64
                }),
                c("time OffsetDateTime::parse(Rfc3339)", Peer, |corpus| {
                    corpus
                        .iter()
                        .filter(|s| {
                            time::OffsetDateTime::parse(
                                std::hint::black_box(s),
                                &time::format_description::well_known::Rfc3339,
                            )
                            .is_ok()
                        })
                        .count() as u64
                }),
                c("chrono DateTime::parse_from_rfc3339", Peer, |corpus| {
                    corpus
                        .iter()
                        .filter(|s| chrono::DateTime::parse_from_rfc3339(std::hint::black_box(s)).is_ok())
                        .count() as u64
                }),
                c("speedate DateTime::parse_str_rfc3339", Peer, |corpus| {
                    corpus
                        .iter()
                        .filter(|s| speedate::DateTime::parse_str_rfc3339(std::hint::black_box(s)).is_ok())
                        .count() as u64
                }),
            ],
            note: "ours: a tree of text fields (no ranges checked); the crates: their typed value \
                   (integers, ranges checked), which is more work: see `fields`",
        },
        Operation {
            grammar: g,
            name: "fields to integers",
            contenders: vec![
                c("abnf-codegen ast::DateTime::parse + integers", Ours, |c| {
                    sum_fields(c, ours_fields)
                }),
                c("jiff Pieces::parse", Peer, |c| sum_fields(c, jiff_fields)),
                c("time OffsetDateTime::parse(Rfc3339)", Peer, |c| {
                    sum_fields(c, time_fields)
                }),
                c("chrono DateTime::parse_from_rfc3339", Peer, |c| {
                    sum_fields(c, chrono_fields)
                }),
                c("speedate DateTime::parse_str_rfc3339", Peer, |c| {
                    sum_fields(c, speedate_fields)
                }),
            ],
            note: "the same work everywhere: year, month, day, hour, minute, second, nanoseconds \
                   and offset as integers, ranges checked (speedate keeps microseconds)",
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intents_match_the_grammar() {
        let mut wrong = Vec::new();
        let all = samples(10_000, 1);
        // The benchmarks' corpus too.
        for (s, flaw) in all.iter().chain(&samples(10_000, crate::DEFAULT_SEED)) {
            let ok = rfc3339::DATE_TIME.is_match(s);
            let fields_ok = ours_fields(s).is_some();
            if ok != (*flaw != Some(Flaw::Syntax)) || fields_ok != flaw.is_none() {
                wrong.push(format!("{s:?} {flaw:?}"));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        let invalid = all.iter().filter(|s| s.1.is_some()).count();
        assert!((400..600).contains(&invalid), "{invalid}");
    }
}
