//! RFC 9112's request head (`request-line CRLF *( field-line CRLF ) CRLF`,
//! octets) against httparse.
//!
//! The corpus: request heads as browsers, API clients and proxies send
//! them: `GET` most, then `POST`, `PUT`, `DELETE`, `HEAD`, `OPTIONS`,
//! `PATCH`; origin-form targets with paths and queries, a few
//! absolute-form (to a proxy), authority-form (`CONNECT`) and `*`; 4 to 20
//! field lines (`Host`, `User-Agent`, `Accept*`, `Cookie`, `sec-ch-ua` with
//! its quotes, `Authorization`, ...), some with UTF-8 in a value (RFC 9110's
//! `obs-text`); about 500 bytes a head. 5% are invalid, each with one flaw
//! anywhere ([`spoil`]).
//!
//! httparse checks less than the grammar (its request target is any run of
//! visible bytes; it takes a bare LF as a line end) and does more: every
//! validation also records the method, target, version and every field's
//! name and value in its header array. The "parts" operation does that work
//! with the typed tree.

use super::generated::rfc9112::{self, ast};
use super::{c, Grammar, Operation, Role};
use crate::{validator, Rng};

/// `n` request heads from `seed`, with whether each was generated valid.
pub fn samples(n: usize, seed: u64) -> Vec<(String, bool)> {
    let mut rng = Rng::new(seed ^ 0x9112);
    (0..n).map(|_| sample(&mut rng)).collect()
}

/// `n` request heads from `seed`.
pub fn corpus(n: usize, seed: u64) -> Vec<String> {
    samples(n, seed).into_iter().map(|s| s.0).collect()
}

const HOSTS: &[&str] = &[
    "example.com",
    "api.example.com",
    "www.rust-lang.org",
    "localhost:8080",
    "10.0.0.12:3000",
    "[2001:db8::1]:443",
    "cdn.example.net",
];
const SEGMENTS: &[&str] = &[
    "api",
    "v1",
    "v2",
    "users",
    "42",
    "orders",
    "static",
    "js",
    "app.min.js",
    "images",
    "logo%20large.png",
    "search",
    "items",
    "caf%C3%A9",
    "_next",
    "index.html",
    "~alice",
    "a:b",
    "feed.xml",
];
const AGENTS: &[&str] = &[
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
    "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
    "curl/8.11.0",
    "python-requests/2.32.3",
    "okhttp/4.12.0",
    "Go-http-client/1.1",
];

fn path(rng: &mut Rng) -> String {
    let mut p = String::new();
    for _ in 0..rng.range(1, 5) {
        p.push('/');
        p.push_str(rng.pick(SEGMENTS));
    }
    if rng.chance(100) {
        p.push('/');
    }
    if rng.chance(350) {
        p.push('?');
        for i in 0..rng.range(1, 4) {
            if i > 0 {
                p.push('&');
            }
            p.push_str(rng.pick(&["q", "page", "sort", "utm_source", "id", "filter%5Bname%5D", "ts"]));
            p.push('=');
            p.push_str(rng.pick(&[
                "rust",
                "2",
                "desc",
                "newsletter",
                "a%2Fb",
                "x,y",
                "1732650000",
                "%E6%97%A5",
            ]));
        }
    }
    p
}

fn sample(rng: &mut Rng) -> (String, bool) {
    let method = rng.weighted(&[
        (700, "GET"),
        (150, "POST"),
        (40, "PUT"),
        (30, "DELETE"),
        (30, "HEAD"),
        (25, "OPTIONS"),
        (20, "PATCH"),
        (5, "CONNECT"),
    ]);
    let host = rng.pick(HOSTS);
    let target = match method {
        "CONNECT" => rng
            .pick(&[
                "example.com:443",
                "api.example.com:443",
                "10.0.0.12:3000",
                "[2001:db8::1]:443",
            ])
            .to_string(),
        "OPTIONS" if rng.chance(300) => "*".to_string(),
        _ if rng.chance(20) => format!("http://{host}{}", path(rng)),
        _ => path(rng),
    };
    let version = if rng.chance(30) { "HTTP/1.0" } else { "HTTP/1.1" };
    let mut h = format!("{method} {target} {version}\r\n");
    let mut fields: Vec<String> = vec![format!("Host: {host}")];
    let browser = rng.chance(600);
    let agent = if browser {
        rng.pick(&AGENTS[..3])
    } else {
        rng.pick(&AGENTS[3..])
    };
    fields.push(format!("User-Agent: {agent}"));
    if browser {
        fields.push(
            "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"
                .into(),
        );
        fields.push(format!(
            "Accept-Language: {}",
            rng.pick(&[
                "en-US,en;q=0.5",
                "de-DE,de;q=0.9,en;q=0.8",
                "fr-CH, fr;q=0.9, en;q=0.8, *;q=0.5",
                "ja"
            ])
        ));
        fields.push("Accept-Encoding: gzip, deflate, br, zstd".into());
        if rng.chance(500) {
            fields.push(r#"sec-ch-ua: "Chromium";v="131", "Not_A Brand";v="24""#.into());
            fields.push("sec-ch-ua-mobile: ?0".into());
            fields.push(r#"sec-ch-ua-platform: "Windows""#.into());
        }
        if rng.chance(600) {
            fields.push(format!(
                "Cookie: session={:016x}; theme=dark; _ga=GA1.2.{}.{}",
                rng.next_u64(),
                rng.below(1 << 30),
                rng.below(1 << 30)
            ));
        }
        if rng.chance(500) {
            fields.push(format!("Referer: https://{}/", rng.pick(HOSTS)));
        }
        fields.push("Connection: keep-alive".into());
        if rng.chance(400) {
            fields.push("Upgrade-Insecure-Requests: 1".into());
        }
    } else {
        fields.push("Accept: */*".into());
        if rng.chance(500) {
            fields.push(format!(
                "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.{:016x}{:016x}.sig",
                rng.next_u64(),
                rng.next_u64()
            ));
        }
    }
    if matches!(method, "POST" | "PUT" | "PATCH") {
        fields.push(format!(
            "Content-Type: {}",
            rng.pick(&[
                "application/json",
                "application/x-www-form-urlencoded",
                "multipart/form-data; boundary=----x1234"
            ])
        ));
        fields.push(format!("Content-Length: {}", rng.range(2, 20000)));
    }
    if rng.chance(200) {
        fields.push(format!(
            "X-Forwarded-For: 203.0.113.{}, 198.51.100.{}",
            rng.below(256),
            rng.below(256)
        ));
    }
    if rng.chance(150) {
        fields.push(format!(
            "Cache-Control: {}",
            rng.pick(&["no-cache", "max-age=0", "no-store,  private"])
        ));
    }
    if rng.chance(50) {
        // UTF-8 in a value: obs-text to RFC 9110.
        fields.push("Content-Disposition: attachment; filename=\"résumé.pdf\"".into());
    }
    if rng.chance(50) {
        // Optional whitespace at both ends of a value, and an empty value.
        fields.push(format!("X-Request-Id: \t{:08x} ", rng.below(1 << 32)));
        fields.push("X-Empty:".into());
    }
    for f in &fields {
        h.push_str(f);
        h.push_str("\r\n");
    }
    h.push_str("\r\n");
    let invalid = rng.chance(50);
    if invalid {
        spoil(rng, &mut h);
    }
    (h, !invalid)
}

/// One flaw anywhere, each of which RFC 9112 rejects: a control byte
/// inserted anywhere; a delimiter in the method or a field name; a space,
/// `"` or `<` in the request target; a field line's colon dropped; a line
/// ending without its CR.
pub fn spoil(rng: &mut Rng, h: &mut String) {
    let line_ends: Vec<usize> = h.match_indices("\r\n").map(|(i, _)| i).collect();
    match rng.below(5) {
        0 => {
            let at = rng.below(h.len() + 1);
            let at = (0..=at).rev().find(|&i| h.is_char_boundary(i)).unwrap_or(0);
            h.insert(at, rng.pick(&['\0', '\u{1}', '\u{b}', '\u{7f}', '\u{1b}']));
        }
        1 => {
            // Inside a token: the method, or a field name.
            let starts: Vec<usize> = std::iter::once(0)
                .chain(line_ends[..line_ends.len() - 2].iter().map(|&i| i + 2))
                .collect();
            let line = rng.pick(&starts);
            let token_end = line + h[line..].find([' ', ':']).unwrap_or(1);
            let at = rng.range(line + 1, token_end.max(line + 1));
            h.insert(at, rng.pick(&['(', '@', ',', ';', '"', '{', '/', '[']));
        }
        2 => {
            let start = h.find(' ').unwrap_or(0) + 1;
            let end = start + h[start..].find(' ').unwrap_or(0);
            let at = rng.range(start + 1, end.max(start + 1));
            h.insert(at, rng.pick(&[' ', '"', '<', '|', '`']));
        }
        3 => {
            let colons: Vec<usize> = line_ends[..line_ends.len() - 1]
                .iter()
                .map(|&i| i + 2 + h[i + 2..].find(':').unwrap_or(0))
                .collect();
            let at = rng.pick(&colons[..colons.len() - 1]);
            h.remove(at);
        }
        _ => {
            let at = rng.pick(&line_ends);
            h.remove(at);
        }
    }
}

/// The parts every contender reads, as a checksum over the method, the
/// target, the minor version, and every field's name and value.
fn fold(sum: u64, len: usize) -> u64 {
    sum.wrapping_mul(31).wrapping_add(len as u64)
}

fn parts_ours(h: &[u8]) -> Option<u64> {
    let t = ast::RequestHead::parse(h).ok()?;
    let l = &t.request_line;
    let mut sum = fold(0, l.method.len());
    sum = fold(sum, l.request_target.text.len());
    sum = fold(sum, usize::from(l.http_version[7] - b'0'));
    for f in t.field_lines {
        sum = fold(sum, f.field_name.len());
        sum = fold(sum, f.field_value.text.len());
    }
    Some(sum)
}

fn parts_httparse(h: &[u8]) -> Option<u64> {
    let mut headers = [httparse::EMPTY_HEADER; 64];
    let mut req = httparse::Request::new(&mut headers);
    match req.parse(h) {
        Ok(httparse::Status::Complete(n)) if n == h.len() => {}
        _ => return None,
    }
    let mut sum = fold(0, req.method?.len());
    sum = fold(sum, req.path?.len());
    sum = fold(sum, usize::from(req.version?));
    for f in req.headers.iter() {
        sum = fold(sum, f.name.len());
        sum = fold(sum, f.value.len());
    }
    Some(sum)
}

/// Whether httparse parses the whole head.
pub fn httparse_accepts(h: &[u8]) -> bool {
    let mut headers = [httparse::EMPTY_HEADER; 64];
    matches!(httparse::Request::new(&mut headers).parse(h), Ok(httparse::Status::Complete(n)) if n == h.len())
}

/// The operations on this corpus.
pub fn operations() -> Vec<Operation> {
    use Role::*;
    let g = Grammar::HttpHead;
    vec![
        Operation {
            grammar: g,
            name: "validate",
            contenders: vec![
                validator!("abnf-codegen REQUEST_HEAD.is_match_bytes", Ours, |s| {
                    rfc9112::REQUEST_HEAD.is_match_bytes(s.as_bytes())
                }),
                validator!(
                    "httparse Request::parse (64 headers)",
                    Peer,
                    |s| httparse_accepts(s.as_bytes())
                ),
            ],
            note: "httparse records every part while it validates (the `parts` work), \
                   and checks the request target less (any visible bytes)",
        },
        Operation {
            grammar: g,
            name: "parts",
            contenders: vec![
                c("abnf-codegen ast::RequestHead::parse", Ours, |corpus| {
                    corpus
                        .iter()
                        .filter_map(|s| parts_ours(std::hint::black_box(s.as_bytes())))
                        .fold(0, u64::wrapping_add)
                }),
                c("httparse Request::parse + fields", Peer, |corpus| {
                    corpus
                        .iter()
                        .filter_map(|s| parts_httparse(std::hint::black_box(s.as_bytes())))
                        .fold(0, u64::wrapping_add)
                }),
            ],
            note: "method, target, version, every field name and value",
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intents_match_the_grammar() {
        let all = samples(4_000, 1);
        // The benchmarks' corpus too.
        let default = samples(2_000, crate::DEFAULT_SEED);
        let wrong: Vec<_> = all
            .iter()
            .chain(&default)
            .filter(|(s, ok)| rfc9112::REQUEST_HEAD.is_match_bytes(s.as_bytes()) != *ok)
            .collect();
        assert!(
            wrong.is_empty(),
            "{} wrong: {:?}",
            wrong.len(),
            &wrong[..wrong.len().min(5)]
        );
        let invalid = all.iter().filter(|s| !s.1).count();
        assert!((150..250).contains(&invalid), "{invalid}");
        let mean = all.iter().map(|s| s.0.len()).sum::<usize>() / all.len();
        assert!((300..800).contains(&mean), "{mean}");
    }
}
