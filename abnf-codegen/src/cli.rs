//! The `abnf-codegen` command's arguments, apart from what it does with
//! them, so that `cargo xtask man` can write its man pages and shell
//! completions from the same definitions (xtask includes this file).

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// Build-time ABNF code generator: checks grammars and runs their recognizers.
#[derive(Parser)]
#[command(name = "abnf-codegen", version, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Let `@import` read spec files under DIR too (by default only under
    /// the folders of the spec files given). Repeatable.
    #[arg(long = "import-dir", value_name = "DIR", global = true)]
    pub import_dirs: Vec<PathBuf>,
}

#[derive(Subcommand)]
pub enum Command {
    /// Check spec files: print every diagnostic, exit 1 on errors.
    #[command(
        after_help = "Examples (from a clone of the repository):\n  abnf-codegen check specs/rfc3986.abnf specs/rfc3987.abnf\n  abnf-codegen check --rule rfc3987:IRI-reference --deny-warnings specs/rfc3987.abnf\n"
    )]
    Check {
        /// Check only these rules (`RULE` or `GRAMMAR:RULE`) and what they
        /// use; each must compile. Without it every rule is checked, and
        /// rules that cannot become a DFA are left out with a warning.
        #[arg(long = "rule", value_name = "RULE")]
        rules: Vec<String>,
        /// Exit 1 on warnings too (rules left out included).
        #[arg(long)]
        deny_warnings: bool,
        #[command(flatten)]
        limits: LimitArgs,
        /// Spec files.
        #[arg(required = true)]
        specs: Vec<PathBuf>,
    },
    /// Per exported rule: NFA and DFA states, byte classes, table bytes,
    /// extraction automaton bytes, build time.
    #[command(
        after_help = "Examples (from a clone of the repository):\n  abnf-codegen stats specs/rfc3986.abnf\n"
    )]
    Stats {
        /// Spec files.
        #[arg(required = true)]
        specs: Vec<PathBuf>,
    },
    /// Write the generated Rust modules and tables to DIR, for projects that
    /// do not use a build script (include `DIR/grammars.rs` as a module).
    #[command(
        after_help = "Examples (from a clone of the repository):\n  abnf-codegen generate --out target/abnf-generated examples/rfc3339/grammars/rfc3339.abnf\n"
    )]
    Generate {
        /// Output folder.
        #[arg(long)]
        out: PathBuf,
        /// The runtime crate's path in generated code.
        #[arg(long, default_value = "::abnf_runtime")]
        runtime: String,
        /// Spec files.
        #[arg(required = true)]
        specs: Vec<PathBuf>,
    },
    /// Show RULE with its dependencies inlined, and why it is or is not
    /// regular (how it is walked if not); with `--types`, the Rust types its
    /// typed tree gets.
    #[command(
        after_help = "Examples (from a clone of the repository):\n  abnf-codegen explain --rule ihost specs/rfc3987.abnf\n"
    )]
    Explain {
        /// The rule (`RULE` or `GRAMMAR:RULE`).
        #[arg(long)]
        rule: String,
        /// Print the Rust types of RULE's typed tree (and of the types it
        /// holds) as a build with no `Config::export` makes them, instead
        /// of the explanation.
        #[arg(long)]
        types: bool,
        /// Spec files.
        #[arg(required = true)]
        specs: Vec<PathBuf>,
    },
    /// Render RULE as a railroad diagram (SVG on standard output).
    #[command(
        after_help = "Examples (from a clone of the repository):\n  abnf-codegen diagram --rule IPv4address specs/rfc3986.abnf > IPv4address.svg\n"
    )]
    Diagram {
        /// The rule (`RULE` or `GRAMMAR:RULE`).
        #[arg(long)]
        rule: String,
        /// Spec files.
        #[arg(required = true)]
        specs: Vec<PathBuf>,
    },
    /// Write RULE's minimized DFA as Graphviz (byte classes as character
    /// sets).
    #[command(
        after_help = "Examples (from a clone of the repository):\n  abnf-codegen dot --rule IPv4address specs/rfc3986.abnf\n"
    )]
    Dot {
        /// The rule (`RULE` or `GRAMMAR:RULE`).
        #[arg(long)]
        rule: String,
        /// Spec files.
        #[arg(required = true)]
        specs: Vec<PathBuf>,
    },
    /// Generate strings from RULE: matching ones, or with `--invalid` near
    /// misses (one boundary-crossing mutation) that the reference matcher
    /// rejects. One per line (`-0`: NUL-terminated; `--json`: JSON strings).
    #[command(
        after_help = "Examples (from a clone of the repository):\n  abnf-codegen sample --rule IRI -n 3 specs/rfc3987.abnf\n  abnf-codegen sample --rule IRI -n 3 --invalid specs/rfc3987.abnf\n"
    )]
    Sample {
        /// The rule (`RULE` or `GRAMMAR:RULE`).
        #[arg(long)]
        rule: String,
        /// How many.
        #[arg(short = 'n', default_value_t = 10)]
        n: usize,
        /// Seed (the same seed gives the same strings).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Near misses instead of matching strings.
        #[arg(long)]
        invalid: bool,
        #[command(flatten)]
        framing: FramingArgs,
        /// Spec files.
        #[arg(required = true)]
        specs: Vec<PathBuf>,
    },
    /// Print the ABNF rules found in an RFC's text (page breaks joined,
    /// prose and examples skipped), so a maintainer can check them.
    #[command(
        after_help = "Examples (from a clone of the repository):\n  abnf-codegen extract specs/rfc-text/rfc3987.txt\n"
    )]
    Extract {
        /// The RFC as published (a `.txt` file).
        rfc: PathBuf,
    },
    /// Build RULE's recognizer in memory and match each line of standard
    /// input against it (lines split on `\n` only; `-0` or `--json` for
    /// inputs that hold line feeds or any byte).
    #[command(
        after_help = "Examples (from a clone of the repository):\n  printf 'HTTP://A\\n//[V1F.x]\\n' | abnf-codegen match --rule IRI-reference specs/rfc3987.abnf\n"
    )]
    Match {
        /// The rule (`RULE` or `GRAMMAR:RULE`).
        #[arg(long)]
        rule: String,
        #[command(flatten)]
        limits: LimitArgs,
        #[command(flatten)]
        framing: FramingArgs,
        /// Spec files.
        #[arg(required = true)]
        specs: Vec<PathBuf>,
    },
}

/// How `match` reads its inputs and `sample` writes its strings.
#[derive(clap::Args, Clone, Copy)]
pub struct FramingArgs {
    /// NUL-terminated records instead of lines: any other byte (CR, LF)
    /// is data. `match` writes its results NUL-terminated too.
    #[arg(short = '0', long = "null", conflicts_with = "json")]
    pub null: bool,
    /// JSON lines: one JSON string per line (`"GET / HTTP/1.1\r\n"`);
    /// `match` writes one JSON object per line. Characters stand for
    /// their UTF-8 bytes; a byte that is not UTF-8 (an octet rule's 0xE9)
    /// is the lone surrogate `\udcXX` (`\udce9`), so records round-trip.
    #[arg(long)]
    pub json: bool,
}

/// Size limits of the automata (`Config::limits`).
#[derive(clap::Args, Clone, Copy)]
pub struct LimitArgs {
    /// Bytes of heap a rule's Thompson NFA may use.
    #[arg(long, value_name = "BYTES", value_parser = parse_size)]
    pub nfa_bytes: Option<usize>,
    /// Bytes a rule's DFA may use.
    #[arg(long, value_name = "BYTES", value_parser = parse_size)]
    pub dfa_bytes: Option<usize>,
    /// Bytes determinizing a rule may use.
    #[arg(long, value_name = "BYTES", value_parser = parse_size)]
    pub determinize_bytes: Option<usize>,
    /// States a typed-tree (tagged) automaton may have.
    #[arg(long, value_name = "N")]
    pub tagged_states: Option<usize>,
}

/// `1000`, `64K`, `16M`, `1G` (powers of 1024).
pub fn parse_size(s: &str) -> Result<usize, String> {
    let (digits, shift) = match s.as_bytes().last() {
        Some(b'k' | b'K') => (&s[..s.len() - 1], 10),
        Some(b'm' | b'M') => (&s[..s.len() - 1], 20),
        Some(b'g' | b'G') => (&s[..s.len() - 1], 30),
        _ => (s, 0),
    };
    let n: usize = digits
        .parse()
        .map_err(|_| format!("`{s}` is not a size (write 4096, 64K, 16M or 1G)"))?;
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("`{s}` is too large"))
}
