//! The benchmark corpus and the contenders of the `iri-bench` suite.
//!
//! The corpus is generated, not downloaded: [`iri_corpus`] makes `n` IRI
//! references from a seed with a small PRNG ([`Rng`], SplitMix64), so every
//! run, machine and contender sees the same bytes. The mix aims at what an
//! IRI validator meets in practice:
//!
//! - schemes `http`, `https` (most), `ftp`, `mailto`, `urn`, `file`, `tag`,
//!   `data`, `tel`, `ldap`, `news` and `a+b`-style ones (`git+ssh`,
//!   `custom+scheme`, ...), and about a fifth relative references
//!   (`//host/x`, `/a/b?q`, `../x`, `a/b`, `?q`, `#f`);
//! - authorities with userinfo, ports (some empty), and hosts that are
//!   registered names (some percent-encoded or with `_`), IPv4 addresses, IPv6
//!   literals in every compressed form of RFC 3986 §3.2.2 (with and without a
//!   trailing IPv4 part) and IPvFuture literals;
//! - paths of several segments, `key=value&...` queries, fragments, and
//!   percent-encoding;
//! - about 17% with non-ASCII characters (`é`, `例え`, emoji, Old Italic
//!   `𐌀` U+10300, ...; a few private-use characters in queries, which
//!   RFC 3987 allows only there);
//! - about 10% invalid inputs, each with one deliberate ASCII flaw ([`Flaw`]):
//!   spaces, bad percent-encoding, `<>`-style delimiters, bad IPv6 and
//!   IPvFuture literals, control characters, bad schemes and ports, a second
//!   `#`, a second `@`, brackets outside a host;
//! - an average length near 48 bytes.
//!
//! [`uri_corpus`] is the same corpus mapped to URIs as RFC 3987 §3.1 does
//! (every non-ASCII character percent-encoded as UTF-8), so it is ASCII only
//! and the same inputs are invalid.
//!
//! [`long`] makes the long-input corpus (about 1.7 KB per IRI).
//!
//! [`rfc`] is the suite beyond IRIs (issue #29): RFC 3339 timestamps, RFC
//! 9562 UUIDs, RFC 5646 language tags, RFC 9112 request heads and RFC 8259
//! JSON, each compiled from its ABNF by the build script and timed against
//! the crates that do the same job (`grammars-table`, `benches/grammars.rs`).
//!
//! [`contenders`] holds what the benchmarks time: one function per
//! implementation and operation, each processing a whole corpus;
//! [`agreement`] finds where the peers and `iri-grammar` disagree.

pub mod agreement;
pub mod contenders;
pub mod json;
pub mod long;
pub mod rfc;

/// The corpus size the benchmarks use.
pub const DEFAULT_N: usize = 10_000;

/// The seed the benchmarks use.
pub const DEFAULT_SEED: u64 = 0x3987_3986_5EED;

/// SplitMix64: small, fast, and good enough to pick corpus parts.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `per_mille / 1000`.
    pub fn chance(&mut self, per_mille: usize) -> bool {
        self.below(1000) < per_mille
    }

    /// One element of a non-empty slice.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// One element of `(weight, item)` pairs, by weight.
    pub fn weighted<T: Copy>(&mut self, items: &[(usize, T)]) -> T {
        let total: usize = items.iter().map(|(w, _)| w).sum();
        let mut r = self.below(total);
        for &(w, item) in items {
            if r < w {
                return item;
            }
            r -= w;
        }
        unreachable!("weights add up")
    }
}

/// The deliberate flaw of an invalid corpus entry. Every flaw is made of
/// ASCII, so the entry stays invalid in [`uri_corpus`] too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Flaw {
    /// A space somewhere (`/my file.pdf`).
    Space,
    /// A `%` not followed by two hex digits (`%G1`, `%u00e9`, a trailing `%`).
    BadPercent,
    /// One of `<>"{}|\^` and the backquote, or the whole IRI in `<...>`.
    Delimiter,
    /// An IPv6 literal the grammar rejects (two `::`, nine groups, five hex
    /// digits, an IPv4 part out of range, an RFC 6874 zone ID, ...).
    BadIpv6,
    /// A tab, line feed, carriage return, DEL or NUL.
    ControlChar,
    /// A scheme that does not start with a letter (`1http:`, `+x:`, ...).
    BadScheme,
    /// A port that is not digits (`:8o80`, `:80:80`, `:-1`).
    BadPort,
    /// A `#` inside the fragment.
    ExtraHash,
    /// An `@` in the host (`user@host@other`).
    ExtraAt,
    /// `[` or `]` outside an IP literal.
    Bracket,
    /// An IPvFuture literal the grammar rejects (`[v.x]`, `[vG.1]`, `[v1.]`).
    BadIpvFuture,
}

/// What an entry was generated to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Intent {
    /// A valid RFC 3987 IRI reference (and, in [`uri_samples`], a valid
    /// RFC 3986 URI reference).
    Valid,
    /// Invalid because of one flaw.
    Invalid(Flaw),
}

/// One corpus entry with what it was generated to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The text.
    pub text: String,
    /// Valid, or the flaw that makes it invalid.
    pub intent: Intent,
}

/// `n` IRI references from `seed` (see the crate documentation for the mix).
///
/// ```
/// let corpus = iri_bench::iri_corpus(100, 1);
/// assert_eq!(corpus.len(), 100);
/// assert_eq!(corpus, iri_bench::iri_corpus(100, 1));
/// ```
pub fn iri_corpus(n: usize, seed: u64) -> Vec<String> {
    iri_samples(n, seed).into_iter().map(|s| s.text).collect()
}

/// [`iri_corpus`] mapped to URI references (ASCII only): every non-ASCII
/// character percent-encoded as UTF-8 (RFC 3987 §3.1).
pub fn uri_corpus(n: usize, seed: u64) -> Vec<String> {
    uri_samples(n, seed).into_iter().map(|s| s.text).collect()
}

/// [`iri_corpus`] with what each entry was generated to be.
pub fn iri_samples(n: usize, seed: u64) -> Vec<Sample> {
    let mut rng = Rng::new(seed);
    (0..n).map(|_| sample(&mut rng)).collect()
}

/// [`uri_corpus`] with what each entry was generated to be.
pub fn uri_samples(n: usize, seed: u64) -> Vec<Sample> {
    iri_samples(n, seed)
        .into_iter()
        .map(|s| Sample {
            text: iri_to_uri(&s.text),
            intent: s.intent,
        })
        .collect()
}

/// Percent-encodes every non-ASCII character (its UTF-8 bytes, `%XX` with
/// upper-case hex digits), as RFC 3987 §3.1 maps an IRI to a URI.
///
/// ```
/// assert_eq!(iri_bench::iri_to_uri("/résumé"), "/r%C3%A9sum%C3%A9");
/// ```
pub fn iri_to_uri(iri: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(iri.len() * 2);
    for c in iri.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut buf = [0; 4];
            for &b in c.encode_utf8(&mut buf).as_bytes() {
                out.push('%');
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 15)]));
            }
        }
    }
    out
}

/// Figures about a corpus.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CorpusStats {
    /// Entries.
    pub n: usize,
    /// Total bytes.
    pub bytes: usize,
    /// Entries with a non-ASCII character.
    pub non_ascii: usize,
}

impl CorpusStats {
    /// Counts `corpus`.
    pub fn of<S: AsRef<str>>(corpus: &[S]) -> CorpusStats {
        CorpusStats {
            n: corpus.len(),
            bytes: corpus.iter().map(|s| s.as_ref().len()).sum(),
            non_ascii: corpus.iter().filter(|s| !s.as_ref().is_ascii()).count(),
        }
    }

    /// Mean length in bytes.
    pub fn mean_len(&self) -> f64 {
        self.bytes as f64 / self.n.max(1) as f64
    }
}

// ---------------------------------------------------------------------------
// Generation
// ---------------------------------------------------------------------------

/// How often (per mille) an entry has non-ASCII characters, and how often it
/// is invalid.
const NON_ASCII_PER_MILLE: usize = 170;
const INVALID_PER_MILLE: usize = 100;

/// An IRI reference in parts, rendered by [`Parts::render`].
#[derive(Clone, Debug, Default)]
struct Parts {
    scheme: Option<String>,
    authority: Option<Authority>,
    path: String,
    query: Option<String>,
    fragment: Option<String>,
}

#[derive(Clone, Debug)]
struct Authority {
    userinfo: Option<String>,
    host: String,
    /// Whether `host` is a registered name (not an IP literal or IPv4).
    reg_name: bool,
    port: Option<String>,
}

impl Parts {
    fn render(&self) -> String {
        let mut s = String::with_capacity(64);
        if let Some(scheme) = &self.scheme {
            s.push_str(scheme);
            s.push(':');
        }
        if let Some(a) = &self.authority {
            s.push_str("//");
            if let Some(u) = &a.userinfo {
                s.push_str(u);
                s.push('@');
            }
            s.push_str(&a.host);
            if let Some(p) = &a.port {
                s.push(':');
                s.push_str(p);
            }
        }
        s.push_str(&self.path);
        if let Some(q) = &self.query {
            s.push('?');
            s.push_str(q);
        }
        if let Some(f) = &self.fragment {
            s.push('#');
            s.push_str(f);
        }
        s
    }
}

fn sample(rng: &mut Rng) -> Sample {
    let non_ascii = rng.chance(NON_ASCII_PER_MILLE);
    let invalid = rng.chance(INVALID_PER_MILLE);
    let flaw = invalid.then(|| rng.weighted(FLAWS));
    // Flaws of the authority need one.
    let needs_authority = matches!(
        flaw,
        Some(Flaw::BadIpv6 | Flaw::BadPort | Flaw::ExtraAt | Flaw::BadIpvFuture)
    );
    let mut parts = if needs_authority {
        web(rng)
    } else {
        valid_parts(rng)
    };
    if non_ascii {
        add_non_ascii(rng, &mut parts);
    }
    let text = match flaw {
        None => parts.render(),
        Some(f) => spoil(rng, parts, f),
    };
    Sample {
        text,
        intent: flaw.map_or(Intent::Valid, Intent::Invalid),
    }
}

const FLAWS: &[(usize, Flaw)] = &[
    (20, Flaw::Space),
    (16, Flaw::BadPercent),
    (14, Flaw::Delimiter),
    (12, Flaw::BadIpv6),
    (8, Flaw::ControlChar),
    (8, Flaw::BadScheme),
    (6, Flaw::BadPort),
    (5, Flaw::ExtraHash),
    (4, Flaw::ExtraAt),
    (4, Flaw::Bracket),
    (3, Flaw::BadIpvFuture),
];

#[derive(Clone, Copy)]
enum Form {
    Web,
    Ftp,
    PlusScheme,
    File,
    Mailto,
    Urn,
    Tag,
    Data,
    Tel,
    Ldap,
    News,
    NetworkPath,
    AbsolutePath,
    RelativePath,
    DotPath,
    QueryOnly,
    FragmentOnly,
    Empty,
}

const FORMS: &[(usize, Form)] = &[
    (520, Form::Web),
    (25, Form::Ftp),
    (35, Form::PlusScheme),
    (40, Form::File),
    (50, Form::Mailto),
    (50, Form::Urn),
    (25, Form::Tag),
    (25, Form::Data),
    (10, Form::Tel),
    (10, Form::Ldap),
    (5, Form::News),
    (30, Form::NetworkPath),
    (80, Form::AbsolutePath),
    (40, Form::RelativePath),
    (40, Form::DotPath),
    (20, Form::QueryOnly),
    (20, Form::FragmentOnly),
    (5, Form::Empty),
];

fn valid_parts(rng: &mut Rng) -> Parts {
    match rng.weighted(FORMS) {
        Form::Web => web(rng),
        Form::Ftp => {
            let mut p = with_authority(rng, "ftp");
            p.query = None;
            p.fragment = None;
            p
        }
        Form::PlusScheme => {
            let scheme = rng.pick(&[
                "git+ssh",
                "svn+ssh",
                "custom+scheme",
                "coap+tcp",
                "web+app",
                "z39.50r",
            ]);
            let mut p = with_authority(rng, scheme);
            if scheme.ends_with("ssh") && rng.chance(700) {
                p.authority.as_mut().unwrap().userinfo = Some("git".into());
                p.path = format!(
                    "/{}/{}.git",
                    rng.pick(&["rust-lang", "org", "team-a"]),
                    rng.pick(&["rust", "repo", "iri-tools"])
                );
            }
            p
        }
        Form::File => file(rng),
        Form::Mailto => mailto(rng),
        Form::Urn => urn(rng),
        Form::Tag => Parts {
            scheme: Some("tag".into()),
            path: format!(
                "{},{}:{}",
                rng.pick(&[
                    "example.com",
                    "timothy@hpl.hp.com",
                    "blogger.com",
                    "kb.example.org"
                ]),
                rng.pick(&["2004", "2001-04", "2020-01-31", "1999"]),
                segments(rng, 1, 2, false).trim_start_matches('/')
            ),
            fragment: rng.chance(200).then(|| fragment(rng)),
            ..Parts::default()
        },
        Form::Data => data(rng),
        Form::Tel => Parts {
            scheme: Some("tel".into()),
            path: format!("+1-{}-555-{:04}", rng.range(200, 999), rng.below(10_000)),
            ..Parts::default()
        },
        Form::Ldap => {
            let mut p = with_authority(rng, "ldap");
            p.path = "/c=GB".into();
            p.query = Some("objectClass?one".into());
            p.fragment = None;
            p
        }
        Form::News => Parts {
            scheme: Some("news".into()),
            path: rng
                .pick(&["comp.infosystems.www.servers.unix", "rec.arts.books", "alt.test"])
                .into(),
            ..Parts::default()
        },
        Form::NetworkPath => {
            let mut p = with_authority(rng, "");
            p.scheme = None;
            p
        }
        Form::AbsolutePath => Parts {
            path: segments(rng, 2, 5, true),
            query: rng.chance(350).then(|| query(rng)),
            fragment: rng.chance(100).then(|| fragment(rng)),
            ..Parts::default()
        },
        Form::RelativePath => Parts {
            // A first segment without ':' (RFC 3986 path-noscheme).
            path: segments(rng, 1, 4, true).trim_start_matches('/').to_string(),
            query: rng.chance(200).then(|| query(rng)),
            fragment: rng.chance(100).then(|| fragment(rng)),
            ..Parts::default()
        },
        Form::DotPath => {
            let up = ["./", "../", "../../", "./../"][rng.below(4)];
            Parts {
                path: format!("{up}{}", segments(rng, 1, 3, true).trim_start_matches('/')),
                query: rng.chance(150).then(|| query(rng)),
                ..Parts::default()
            }
        }
        Form::QueryOnly => Parts {
            query: Some(query(rng)),
            ..Parts::default()
        },
        Form::FragmentOnly => Parts {
            fragment: Some(fragment(rng)),
            ..Parts::default()
        },
        Form::Empty => Parts::default(),
    }
}

/// An `http`/`https` IRI (upper-case scheme now and then).
fn web(rng: &mut Rng) -> Parts {
    let scheme = rng.weighted(&[(55, "https"), (43, "http"), (1, "HTTP"), (1, "Https")]);
    with_authority(rng, scheme)
}

/// `scheme://authority/path?query#fragment`, with a typical mix of parts.
fn with_authority(rng: &mut Rng, scheme: &str) -> Parts {
    let host_kind = rng.weighted(&[(820, 'r'), (80, '4'), (80, '6'), (20, 'f')]);
    let host = match host_kind {
        'r' => reg_name(rng),
        '4' => ipv4(rng),
        '6' => format!("[{}]", ipv6(rng)),
        _ => format!("[{}]", ipvfuture(rng)),
    };
    let port = if rng.chance(130) {
        Some(rng.weighted(PORTS).to_string())
    } else if rng.chance(20) {
        Some(rng.range(1, 65535).to_string())
    } else if rng.chance(3) {
        // `http://host:/` has an empty port.
        Some(String::new())
    } else {
        None
    };
    let userinfo = rng.chance(60).then(|| rng.pick(USERINFO).to_string());
    let path = match rng.below(100) {
        0..=9 => String::new(),
        10..=17 => "/".into(),
        _ => segments(rng, 2, 6, false),
    };
    Parts {
        scheme: Some(scheme.into()),
        authority: Some(Authority {
            userinfo,
            host,
            reg_name: host_kind == 'r',
            port,
        }),
        path,
        query: rng.chance(450).then(|| query(rng)),
        fragment: rng.chance(110).then(|| fragment(rng)),
    }
}

const PORTS: &[(usize, &str)] = &[
    (30, "8080"),
    (20, "443"),
    (15, "80"),
    (10, "8443"),
    (10, "3000"),
    (5, "21"),
    (5, "5683"),
    (5, "22"),
];

const USERINFO: &[&str] = &[
    "user",
    "user:pass",
    "john.doe",
    "anonymous:",
    "a%40b:p%3Ass",
    "git",
    "admin:s3cr3t!",
    "x;y=z",
];

const TLDS: &[(usize, &str)] = &[
    (40, "com"),
    (15, "org"),
    (10, "net"),
    (5, "io"),
    (5, "de"),
    (5, "co.uk"),
    (3, "jp"),
    (3, "fr"),
    (2, "example"),
    (2, "test"),
];

const LABELS: &[&str] = &[
    "example",
    "foo",
    "github",
    "cdn",
    "static",
    "my-site",
    "bar-baz",
    "w3",
    "archive",
    "shop",
    "news",
    "mail",
    "EXAMPLE",
    "host_name",
    "xn--bcher-kva",
    "a1b2",
    "wikipedia",
    "stackoverflow",
    "developer.mozilla",
    "example-domain",
    "static-assets",
];

fn reg_name(rng: &mut Rng) -> String {
    match rng.below(100) {
        0..=2 => "localhost".into(),
        3 => "%65xample.com".into(),
        _ => {
            let mut s = String::new();
            if rng.chance(600) {
                s.push_str(rng.pick(&["www", "api", "docs", "en", "m", "blog", "s3.eu-west-1"]));
                s.push('.');
            }
            s.push_str(rng.pick(LABELS));
            s.push('.');
            s.push_str(rng.weighted(TLDS));
            s
        }
    }
}

fn ipv4(rng: &mut Rng) -> String {
    match rng.below(10) {
        0 => "127.0.0.1".into(),
        1 => "192.168.0.1".into(),
        2 => format!("10.{}.{}.{}", rng.below(256), rng.below(256), rng.range(1, 254)),
        _ => format!(
            "{}.{}.{}.{}",
            rng.range(1, 255),
            rng.below(256),
            rng.below(256),
            rng.range(1, 254)
        ),
    }
}

fn h16(rng: &mut Rng) -> String {
    const HEX: &[u8] = b"0123456789abcdef0123456789ABCDEF";
    match rng.below(10) {
        0..=2 => "0".into(),
        3 => "db8".into(),
        _ => {
            let upper = rng.chance(150);
            (0..rng.range(1, 4))
                .map(|_| char::from(HEX[rng.below(16) + if upper { 16 } else { 0 }]))
                .collect()
        }
    }
}

/// An IPv6 address in one of the nine forms of RFC 3986 §3.2.2: `a` 16-bit
/// pieces before the `::`, `r` after it (`a + r <= 7`), or eight pieces
/// without one; the last two pieces may be an IPv4 address.
pub fn ipv6(rng: &mut Rng) -> String {
    match rng.below(12) {
        0 => return "::1".into(),
        1 => return "::".into(),
        2 => return format!("2001:db8::{}", h16(rng)),
        3 => return format!("fe80::{}:{}:{}:{}", h16(rng), h16(rng), h16(rng), h16(rng)),
        4 => return format!("::ffff:{}", ipv4(rng)),
        _ => {}
    }
    let compressed = rng.chance(800);
    let (a, r) = if compressed {
        let a = rng.below(8);
        (a, rng.below(8 - a))
    } else {
        (8, 0)
    };
    let ipv4_tail = (if compressed { r } else { 8 }) >= 2 && rng.chance(200);
    let right_pieces = if compressed { r } else { 8 } - if ipv4_tail { 2 } else { 0 };
    let left: Vec<String> = (0..if compressed { a } else { 0 }).map(|_| h16(rng)).collect();
    let mut right: Vec<String> = (0..right_pieces).map(|_| h16(rng)).collect();
    if ipv4_tail {
        right.push(ipv4(rng));
    }
    if compressed {
        format!("{}::{}", left.join(":"), right.join(":"))
    } else {
        right.join(":")
    }
}

fn ipvfuture(rng: &mut Rng) -> String {
    rng.pick(&[
        "v1.fe80::a+en1",
        "v7.abc",
        "vF.x:y",
        "v1A.a-b_c~d!$&'()*+,;=:",
        "v9.1",
    ])
    .into()
}

const SEGMENTS: &[(usize, &str)] = &[
    (30, "index.html"),
    (25, "api"),
    (25, "v1"),
    (25, "v2"),
    (30, "users"),
    (20, "docs"),
    (20, "img"),
    (20, "static"),
    (20, "blog"),
    (20, "getting-started"),
    (15, "how-to-validate-an-iri"),
    (15, "release-notes-2024"),
    (15, "category"),
    (15, "articles"),
    (10, "download"),
    (10, "en-US"),
    (10, "photos"),
    (5, "8f14e45fceea167a5a36dedd4bea2543"),
    (15, "search"),
    (15, "2024"),
    (15, "07"),
    (15, "42"),
    (10, "products"),
    (10, "item-1234"),
    (10, "file.tar.gz"),
    (10, "logo.png"),
    (10, "style.css"),
    (10, "app.js"),
    (8, "wiki"),
    (8, "en"),
    (8, "a-b_c.~d"),
    (5, "README.md"),
    (5, "~user"),
    (4, "hello%20world"),
    (4, "%E2%82%AC"),
    (4, "a%2Fb"),
    (3, "100%25"),
    (3, "a;b=c"),
    (3, "@me"),
    (3, "name:value"),
    (2, "!$&'()*+,;="),
    (2, ""),
];

/// `/seg/seg...` with `min..=max` segments; `no_colon` keeps `:` out of the
/// segments (a relative path's first one may not have it).
fn segments(rng: &mut Rng, min: usize, max: usize, no_colon: bool) -> String {
    let n = rng.range(min, max);
    let mut s = String::new();
    for _ in 0..n {
        s.push('/');
        let mut seg = rng.weighted(SEGMENTS);
        while no_colon && seg.contains(':') || seg.is_empty() && s.len() == 1 {
            seg = rng.weighted(SEGMENTS);
        }
        s.push_str(seg);
    }
    if rng.chance(120) {
        s.push('/');
    }
    s
}

const KEYS: &[&str] = &[
    "q",
    "id",
    "page",
    "lang",
    "utm_source",
    "utm_campaign",
    "sort",
    "ref",
    "s",
    "v",
    "format",
    "session_id",
];
const VALUES: &[&str] = &[
    "1",
    "42",
    "en",
    "rust",
    "asc",
    "newsletter",
    "hello+world",
    "a%20b",
    "",
    "true",
    "1,2,3",
    "x/y",
    "2024-07-01",
    "dQw4w9WgXcQ",
    "%7B%7D",
    "?",
    "json",
    "summer-sale-2024",
    "2024-07-01T12:00:00Z",
];

fn query(rng: &mut Rng) -> String {
    if rng.chance(40) {
        return String::new();
    }
    if rng.chance(40) {
        return rng.pick(&["v=1", "wsdl", "objectClass?one", "a=1;b=2"]).into();
    }
    let n = rng.weighted(&[(45, 1), (33, 2), (16, 3), (6, 4)]);
    let mut s = String::new();
    for i in 0..n {
        if i > 0 {
            s.push('&');
        }
        s.push_str(rng.pick(KEYS));
        s.push('=');
        s.push_str(rng.pick(VALUES));
    }
    s
}

fn fragment(rng: &mut Rng) -> String {
    rng.pick(&[
        "top",
        "section-2",
        "L10-L20",
        "",
        "/path/in/fragment",
        "!bang",
        "a%20b",
        "fn:main",
        "page=3",
        "?x",
        "intro",
    ])
    .into()
}

fn file(rng: &mut Rng) -> Parts {
    let path = match rng.below(4) {
        0 => "/etc/hosts".into(),
        1 => "/C:/Users/me/Documents/report.pdf".into(),
        _ => format!("/home/user{}", segments(rng, 1, 3, false)),
    };
    let host = if rng.chance(150) {
        rng.pick(&["server", "localhost", "nas.local"])
    } else {
        ""
    };
    if host.is_empty() && rng.chance(200) {
        // `file:/tmp/x`: no authority.
        return Parts {
            scheme: Some("file".into()),
            path,
            ..Parts::default()
        };
    }
    Parts {
        scheme: Some("file".into()),
        authority: Some(Authority {
            userinfo: None,
            host: host.into(),
            reg_name: !host.is_empty(),
            port: None,
        }),
        path,
        ..Parts::default()
    }
}

fn mailto(rng: &mut Rng) -> Parts {
    let user = rng.pick(&["user", "john.doe", "info", "a+tag", "x_y", "%22quoted%22"]);
    let host = rng.pick(&["example.com", "example.org", "mail.example.net"]);
    Parts {
        scheme: Some("mailto".into()),
        path: format!("{user}@{host}"),
        query: rng.chance(250).then(|| {
            rng.pick(&["subject=Hello", "subject=Re%3A%20hi&body=ok", "cc=b@example.com"])
                .into()
        }),
        ..Parts::default()
    }
}

fn urn(rng: &mut Rng) -> Parts {
    const HEX: &[u8] = b"0123456789abcdef";
    let path = match rng.below(5) {
        0 => format!("isbn:{}", 978_000_000_000u64 + rng.below(1_000_000_000) as u64),
        1 => {
            let mut s = String::from("uuid:");
            for (i, n) in [8, 4, 4, 4, 12].into_iter().enumerate() {
                if i > 0 {
                    s.push('-');
                }
                s.extend((0..n).map(|_| char::from(HEX[rng.below(16)])));
            }
            s
        }
        2 => format!("ietf:rfc:{}", rng.range(1000, 9999)),
        3 => "oasis:names:specification:docbook:dtd:xml:4.1.2".into(),
        _ => format!("example:a{}/b?+c", rng.below(100)),
    };
    Parts {
        scheme: Some(if rng.chance(50) { "URN" } else { "urn" }.into()),
        path,
        ..Parts::default()
    }
}

fn data(rng: &mut Rng) -> Parts {
    Parts {
        scheme: Some("data".into()),
        path: rng
            .pick(&[
                "text/plain;base64,SGVsbG8sIFdvcmxkIQ==",
                ",Hello%2C%20World%21",
                "text/html,%3Ch1%3EHi%3C%2Fh1%3E",
                "image/png;base64,iVBORw0KGgo=",
                "application/json,%7B%7D",
            ])
            .into(),
        ..Parts::default()
    }
}

// ---------------------------------------------------------------------------
// Non-ASCII
// ---------------------------------------------------------------------------

const NON_ASCII_HOSTS: &[&str] = &[
    "例え.jp",
    "bücher.example",
    "münchen.de",
    "пример.рф",
    "δοκιμή.gr",
    "日本語.jp",
    "café.fr",
    "ñandú.es",
    "☃.net",
];

const NON_ASCII_SEGMENTS: &[&str] = &[
    "résumé",
    "引き出し",
    "naïve",
    "Привет",
    "ñandú",
    "😀",
    "🎉party",
    "𐌀𐌁𐌂",
    "straße",
    "crème-brûlée",
    "数据",
    "ü",
    "例え",
    "عربي",
    "हिन्दी",
];

const NON_ASCII_VALUES: &[&str] = &["café", "東京", "😀", "Zürich", "𐌰𐌱", "naïve", "例え", "€10"];

const NON_ASCII_FRAGMENTS: &[&str] = &["résumé", "章1", "🚀", "Straße", "𐌀"];

/// Puts non-ASCII characters into one part of `p` that can hold them.
fn add_non_ascii(rng: &mut Rng, p: &mut Parts) {
    let reg_name = p
        .authority
        .as_ref()
        .is_some_and(|a| a.reg_name && !a.host.is_empty());
    let userinfo = p.authority.as_ref().is_some_and(|a| a.userinfo.is_some());
    let has_path_segment = !p.path.trim_matches('/').is_empty();
    let mut choices: Vec<(usize, char)> = vec![(10, 'f')];
    if reg_name {
        choices.push((25, 'h'));
    }
    if userinfo {
        choices.push((20, 'u'));
    }
    if has_path_segment || p.authority.is_some() || p.query.is_none() && p.fragment.is_none() {
        choices.push((45, 'p'));
    }
    if p.query.is_some() {
        choices.push((15, 'q'));
    }
    match rng.weighted(&choices) {
        'h' => p.authority.as_mut().unwrap().host = rng.pick(NON_ASCII_HOSTS).into(),
        'u' => p.authority.as_mut().unwrap().userinfo = Some(rng.pick(&["josé", "ユーザー:pw"]).into()),
        'q' => {
            let q = p.query.as_mut().unwrap();
            if !q.is_empty() {
                q.push('&');
            }
            q.push_str(rng.pick(KEYS));
            q.push('=');
            if rng.chance(40) {
                // Private use: RFC 3987 allows it in queries only.
                q.push('\u{E000}');
            } else {
                q.push_str(rng.pick(NON_ASCII_VALUES));
            }
        }
        'p' => {
            let new = rng.pick(NON_ASCII_SEGMENTS);
            p.path = replace_segment(rng, &p.path, new, p.authority.is_some());
        }
        _ => p.fragment = Some(rng.pick(NON_ASCII_FRAGMENTS).into()),
    }
}

/// `path` with one of its segments (not `.` or `..`) replaced by `new`, or
/// `new` as its only segment.
fn replace_segment(rng: &mut Rng, path: &str, new: &str, authority: bool) -> String {
    let segs: Vec<&str> = path.split('/').collect();
    let candidates: Vec<usize> = (0..segs.len())
        .filter(|&i| !segs[i].is_empty() && segs[i] != "." && segs[i] != "..")
        .collect();
    if candidates.is_empty() {
        return if authority || path.starts_with('/') {
            format!("/{new}{}", path.trim_start_matches('/'))
        } else {
            format!("{path}{new}")
        };
    }
    let i = rng.pick(&candidates);
    let mut segs: Vec<String> = segs.into_iter().map(String::from).collect();
    segs[i] = new.into();
    segs.join("/")
}

// ---------------------------------------------------------------------------
// Flaws
// ---------------------------------------------------------------------------

/// Renders `p` with flaw `f`.
fn spoil(rng: &mut Rng, mut p: Parts, f: Flaw) -> String {
    match f {
        Flaw::Space => {
            let s = p.render();
            if rng.chance(150) {
                // A trailing or leading space, as pasted.
                return if rng.chance(500) {
                    format!(" {s}")
                } else {
                    format!("{s} ")
                };
            }
            insert_after_scheme(rng, &s, &[" "])
        }
        Flaw::BadPercent => {
            let s = p.render();
            if rng.chance(200) {
                return format!("{s}{}", rng.pick(&["%", "%2", "%A"]));
            }
            insert_after_scheme(rng, &s, &["%G1", "%zz", "%%41", "%u00e9", "% 20", "%.5"])
        }
        Flaw::Delimiter => {
            let s = p.render();
            if rng.chance(250) {
                return format!("<{s}>");
            }
            insert_after_scheme(rng, &s, &["<", ">", "\"", "{", "}", "|", "\\", "^", "`"])
        }
        Flaw::ControlChar => {
            let s = p.render();
            if rng.chance(300) {
                return format!("{s}{}", rng.pick(&["\n", "\r\n", "\t"]));
            }
            insert_after_scheme(rng, &s, &["\t", "\n", "\r", "\u{7f}", "\0"])
        }
        Flaw::BadIpv6 => {
            p.authority.as_mut().unwrap().host = bad_ipv6(rng);
            p.render()
        }
        Flaw::BadIpvFuture => {
            p.authority.as_mut().unwrap().host = rng
                .pick(&[
                    "[v.abc]", "[vG.1]", "[v1.]", "[v1]", "[v1.a/b]", "[v.]", "[v1.a b]",
                ])
                .into();
            p.render()
        }
        Flaw::BadPort => {
            p.authority.as_mut().unwrap().port =
                Some(rng.pick(&["8o80", "80:80", "-1", "http", "443a", "8 0"]).into());
            p.render()
        }
        Flaw::ExtraAt => {
            let a = p.authority.as_mut().unwrap();
            a.userinfo = Some(rng.pick(&["user@evil.com", "a@b", "@"]).into());
            p.render()
        }
        Flaw::BadScheme => {
            // The first segment then has a ':' and cannot be a relative
            // path either.
            p.scheme = Some(
                rng.pick(&["1http", "+x", "-abc", ".web", "9p", "h_ttp", "ht~tp"])
                    .into(),
            );
            p.render()
        }
        Flaw::ExtraHash => {
            let f = p.fragment.take().unwrap_or_else(|| "top".into());
            p.fragment = Some(format!("{f}#{}", rng.pick(&["", "x", "section"])));
            p.render()
        }
        Flaw::Bracket => {
            let s = p.render();
            let br = rng.pick(&["[", "]", "[0]", "[]"]);
            // Not in the authority, where it could make an IP literal.
            let from = authority_end(&s);
            let at = char_boundary_in(rng, &s, from);
            let mut s = s;
            s.insert_str(at, br);
            s
        }
    }
}

fn bad_ipv6(rng: &mut Rng) -> String {
    let lit = match rng.below(13) {
        0 => "2001:db8::1::2".into(),
        1 => "1:2:3:4:5:6:7:8:9".into(),
        2 => "12345::1".into(),
        3 => format!("::ffff:{}.{}.{}", rng.below(256), rng.below(256), rng.below(256)),
        4 => format!("::ffff:{}.1.1.1", rng.range(256, 999)),
        5 => format!("fe80::{}%25eth0", h16(rng)),
        6 => "fe80::1%eth0".into(),
        7 => "1:2:3:4:5:6:7".into(),
        8 => "g::1".into(),
        9 => ":1:2::3".into(),
        10 => "1:2:3:4:5:6:7:8::".into(),
        11 => ":::".into(),
        _ => format!(
            "{}:{}:{}:{}:{}:{}::1.2.3.4",
            h16(rng),
            h16(rng),
            h16(rng),
            h16(rng),
            h16(rng),
            h16(rng)
        ),
    };
    match rng.below(20) {
        0 => format!("[{lit}"),
        1 => lit,
        _ => format!("[{lit}]"),
    }
}

/// Where the scheme (with its `:`) ends, or 0.
fn scheme_end(s: &str) -> usize {
    let b = s.as_bytes();
    if b.first().is_some_and(u8::is_ascii_alphabetic) {
        for (i, &c) in b.iter().enumerate() {
            match c {
                b':' => return i + 1,
                b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'+' | b'-' | b'.' => {}
                _ => return 0,
            }
        }
    }
    0
}

/// Where the authority (if any) ends.
fn authority_end(s: &str) -> usize {
    let start = scheme_end(s);
    if s[start..].starts_with("//") {
        let rest = &s[start + 2..];
        start + 2 + rest.find(['/', '?', '#']).unwrap_or(rest.len())
    } else {
        start
    }
}

/// A character boundary of `s` in `from..=len`.
fn char_boundary_in(rng: &mut Rng, s: &str, from: usize) -> usize {
    let bounds: Vec<usize> = (from..=s.len()).filter(|&i| s.is_char_boundary(i)).collect();
    rng.pick(&bounds)
}

/// `s` with one of `choices` inserted at a character boundary after the
/// scheme.
fn insert_after_scheme(rng: &mut Rng, s: &str, choices: &[&str]) -> String {
    let what = rng.pick(choices);
    let at = char_boundary_in(rng, s, scheme_end(s));
    let mut s = s.to_string();
    s.insert_str(at, what);
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use iri_grammar::{rfc3986, rfc3987};

    #[test]
    fn deterministic() {
        assert_eq!(iri_corpus(500, 7), iri_corpus(500, 7));
        assert_ne!(iri_corpus(500, 7), iri_corpus(500, 8));
    }

    #[test]
    fn mix() {
        let samples = iri_samples(DEFAULT_N, DEFAULT_SEED);
        let texts: Vec<&str> = samples.iter().map(|s| s.text.as_str()).collect();
        let stats = CorpusStats::of(&texts);
        let invalid = samples.iter().filter(|s| s.intent != Intent::Valid).count();
        let share = |k: usize| k as f64 / DEFAULT_N as f64;
        assert!((0.15..0.19).contains(&share(stats.non_ascii)), "{stats:?}");
        assert!((0.08..0.12).contains(&share(invalid)), "{invalid}");
        assert!((44.0..52.0).contains(&stats.mean_len()), "{}", stats.mean_len());
        let uri = uri_corpus(DEFAULT_N, DEFAULT_SEED);
        assert!(uri.iter().all(|s| s.is_ascii()));
    }

    /// The grammar agrees with what each entry was generated to be.
    #[test]
    fn intents_match_the_grammar() {
        let mut wrong = Vec::new();
        for s in iri_samples(DEFAULT_N, DEFAULT_SEED) {
            if rfc3987::IRI_REFERENCE.is_match(&s.text) != (s.intent == Intent::Valid) {
                wrong.push(format!("IRI {:?} {:?}", s.text, s.intent));
            }
        }
        for s in uri_samples(DEFAULT_N, DEFAULT_SEED) {
            if rfc3986::URI_REFERENCE.is_match(&s.text) != (s.intent == Intent::Valid) {
                wrong.push(format!("URI {:?} {:?}", s.text, s.intent));
            }
        }
        assert!(wrong.is_empty(), "{} wrong:\n{}", wrong.len(), wrong.join("\n"));
    }

    #[test]
    fn ipv6_forms_are_valid() {
        let mut rng = Rng::new(1);
        for _ in 0..5000 {
            let a = ipv6(&mut rng);
            assert!(rfc3986::IPV6ADDRESS.is_match(&a), "{a}");
        }
    }
}
