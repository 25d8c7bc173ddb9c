//! The `iri` command's arguments, apart from what it does with them, so
//! that `cargo xtask man` can write its man pages and shell completions
//! from the same definitions (xtask includes this file).

use std::ffi::OsString;

use clap::{Parser, Subcommand, ValueEnum};

/// What every verb's help ends with.
macro_rules! exit_codes {
    () => {
        "\
Inputs: the arguments, or else standard input, one input per line. \
Results go to standard output, one line (or with --json one JSON object) per input; \
without --json, an input that gives no result is reported on standard error instead.

Exit codes:
  0  every input was valid, converted, equal (compare) or without findings (lint)
  1  at least one input was invalid or could not be converted, was not equal (compare)
     or had findings (lint)
  2  usage error, unreadable input, or an input compare could not read
A closed standard output (`iri ... | head`) ends the command quietly with status 0."
    };
}

/// IRIs and URIs (RFC 3987, RFC 3986), checked by DFAs generated from the
/// RFC grammars.
#[derive(Parser)]
#[command(name = "iri", version, propagate_version = true, after_help = exit_codes!())]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Check inputs. Without options: is it an IRI reference per RFC 3987
    /// (the grammar and §4.1: no bidi formatting characters). Prints
    /// `valid<TAB>INPUT` or `invalid<TAB>INPUT<TAB>OFFSET<TAB>REASON` per
    /// input; exits 1 if any is invalid.
    #[command(after_help = concat!("Examples:\n  iri check 'https://example.org/résumé' 'http://[2001:db8::7]:8080/'\n  iri check --rule rfc3986:URI 'http://a/b'\n  iri check --scheme 'mailto:a@example.org'\n\n", exit_codes!()))]
    Check {
        /// Check the bare grammar rule instead, as `GRAMMAR:RULE` (for
        /// example `rfc3986:URI` or `rfc3987:IRI-reference`).
        #[arg(long, conflicts_with = "scheme")]
        rule: Option<String>,
        /// Check an IRI, and then its scheme's own grammar when specs/ has
        /// one (the IRI mapped to a URI, RFC 3987 §2). A scheme without a
        /// grammar gives `unknown-scheme<TAB>INPUT` (not an error).
        #[arg(long)]
        scheme: bool,
        /// One JSON object per input: input, valid, and offset and reason
        /// when invalid.
        #[arg(long)]
        json: bool,
        /// Inputs; without any, standard input is read one input per line.
        /// `--` ends the options.
        inputs: Vec<OsString>,
    },
    /// Parse inputs and print the components of each as a JSON object with
    /// the keys scheme, userinfo, host, host_kind, port, path, query,
    /// fragment (null when absent).
    #[command(after_help = concat!("Examples:\n  iri parse '//user@[::1]:80/p?q#f'\n\n", exit_codes!()))]
    Parse {
        /// `rfc3987:IRI-reference` (default), `rfc3987:IRI`,
        /// `rfc3986:URI-reference` or `rfc3986:URI`.
        #[arg(long, default_value = "rfc3987:IRI-reference")]
        rule: String,
        /// Accepted as every verb accepts it: the output is JSON anyway.
        #[arg(long)]
        json: bool,
        /// Inputs; without any, standard input is read one input per line.
        inputs: Vec<OsString>,
    },
    /// Resolve IRI references against a base IRI (RFC 3986 §5.2, strict;
    /// RFC 3987 §6.5) and print the target IRIs.
    #[command(after_help = concat!("Examples:\n  iri resolve 'http://a/b/c/d;p?q' '../g' '?y'\n\n", exit_codes!()))]
    Resolve {
        /// One JSON object per reference: input and output, or error.
        #[arg(long)]
        json: bool,
        /// The base IRI (with a scheme; a fragment is ignored).
        base: OsString,
        /// References; without any, standard input is read one per line.
        references: Vec<OsString>,
    },
    /// Make each TARGET IRI relative to BASE: the shortest reference that
    /// resolves against BASE to TARGET (the target whole if none does).
    #[command(after_help = concat!("Examples:\n  iri relativize 'http://a/b/c/d;p?q' 'http://a/b/g'\n\n", exit_codes!()))]
    Relativize {
        /// One JSON object per target: input and output, or error.
        #[arg(long)]
        json: bool,
        /// The base IRI.
        base: OsString,
        /// Target IRIs; without any, standard input is read one per line.
        targets: Vec<OsString>,
    },
    /// Map IRI references to URI references (RFC 3987 §3.1:
    /// percent-encode every ucschar and iprivate as UTF-8).
    #[command(after_help = concat!("Examples:\n  iri to-uri --idna 'http://résumé.example.org/ré'\n\n", exit_codes!()))]
    ToUri {
        /// Convert the host with IDNA ToASCII (UTS #46) for schemes that
        /// use DNS names (http, https, ws, wss, ftp), the optional step of
        /// §3.1.
        #[arg(long)]
        idna: bool,
        /// One JSON object per input: input and output, or error.
        #[arg(long)]
        json: bool,
        /// IRI references; without any, standard input is read one per line.
        inputs: Vec<OsString>,
    },
    /// Convert URI references to IRI references for display (RFC 3987
    /// §3.2, keeping look-alike, invisible and bidi control characters
    /// percent-encoded as §6.1 and §8 advise).
    #[command(after_help = concat!("Examples:\n  iri to-iri --unicode-labels 'http://xn--99zt52a.example.org/a%E2%88%95b'\n\n", exit_codes!()))]
    ToIri {
        /// The literal §3.2 conversion: decode every character an IRI may
        /// hold, look-alikes too.
        #[arg(long)]
        literal: bool,
        /// Show IDNA labels (xn--...) of DNS hosts as Unicode (§3.2.1);
        /// a label that is not valid or that would show look-alike
        /// characters stays as it is.
        #[arg(long)]
        unicode_labels: bool,
        /// One JSON object per input: input and output, or error.
        #[arg(long)]
        json: bool,
        /// URI references; without any, standard input is read one per line.
        inputs: Vec<OsString>,
    },
    /// Normalize IRI references (RFC 3987 §5.3; RFC 3986 §6.2).
    #[command(after_help = concat!("Examples:\n  iri normalize 'HTTP://Example.COM:80/a/./b/%7e'\n\n", exit_codes!()))]
    Normalize {
        /// `scheme` (default): syntax-based and scheme-based (default
        /// ports of http, https, ws, wss, ftp; empty path `/`; file
        /// localhost; mailto domains); `syntax`: syntax-based only (case,
        /// percent-encodings, dot segments, IPv6 form).
        #[arg(long, value_enum, default_value_t = NormalizeRung::Scheme)]
        rung: NormalizeRung,
        /// Apply Unicode NFC too (§5.3.2.2).
        #[arg(long)]
        nfc: bool,
        /// Print a URI: the normalized IRI mapped to a URI (§3.1) and
        /// normalized as a URI (RFC 3986 §6.2.2).
        #[arg(long)]
        uri: bool,
        /// One JSON object per input: input and output, or error.
        #[arg(long)]
        json: bool,
        /// IRI references; without any, standard input is read one per line.
        inputs: Vec<OsString>,
    },
    /// Compare two IRI references on a rung of the comparison ladder (RFC
    /// 3987 §5.3). Prints `equal` or `different`; exits 0 if equal, 1 if
    /// not, 2 if an input is not an IRI reference. Without A and B, reads
    /// pairs `A<TAB>B` from standard input, one per line.
    #[command(after_help = concat!("Examples:\n  iri compare 'http://example.com' 'HTTP://example.com:80/'\n\n", exit_codes!()))]
    Compare {
        /// `simple` (§5.3.1: the same characters), `syntax` (§5.3.2) or
        /// `scheme` (§5.3.3, default).
        #[arg(long, value_enum, default_value_t = CompareRung::Scheme)]
        rung: CompareRung,
        /// Apply Unicode NFC too (§5.3.2.2; with `syntax` or `scheme`).
        #[arg(long)]
        nfc: bool,
        /// One JSON object per pair: a, b, rung, equal, and the normalized
        /// forms.
        #[arg(long)]
        json: bool,
        /// A and B; without them, pairs are read from standard input.
        pair: Vec<OsString>,
    },
    /// Lint IRI references: bidi formatting characters (RFC 3987 §4.1),
    /// the §4.2 bidi component rules, look-alike and invisible characters
    /// (§6.1, §8), host percent-encoding that is not UTF-8 (RFC 3986
    /// §3.2.2), components not in NFC (§5.3.2.2). Prints `ok<TAB>INPUT`, or
    /// one `KIND<TAB>INPUT<TAB>OFFSET<TAB>MESSAGE` line per finding; exits 1
    /// if any input has findings or is invalid.
    #[command(after_help = concat!("Examples:\n  iri lint 'http://abגד.example/a∕b'\n\n", exit_codes!()))]
    Lint {
        /// One JSON object per input: input, valid, findings (kind, start,
        /// end, text, message).
        #[arg(long)]
        json: bool,
        /// IRI references; without any, standard input is read one per line.
        inputs: Vec<OsString>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
pub enum NormalizeRung {
    Syntax,
    Scheme,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompareRung {
    Simple,
    Syntax,
    Scheme,
}
