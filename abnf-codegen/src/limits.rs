//! Every limit the generator enforces, in one place, with why.
//!
//! The configurable ones are fields of [`Limits`] (set with
//! [`crate::Config::limits`]); the others are constants, chosen far above
//! what any real grammar needs and far below what exhausts a build machine.
//! What the generator refuses, and with which message, is listed in the
//! table in `docs/grammars.md` ("Limits").

pub use abnf_runtime::wire::MAX_REGISTERS;

/// The largest spec file read, in bytes (a root spec or an import). Imports
/// are read through this cap, so `/dev/zero` cannot exhaust memory.
pub const MAX_SPEC_BYTES: usize = 4 << 20;

/// How deep `(` and `[` may nest in one rule (the `abnf` crate parses
/// recursively).
pub const MAX_NESTING: usize = 64;

/// Rule names longer than this get no "did you mean" suggestion (edit
/// distance is quadratic in the length).
pub const MAX_SUGGEST_NAME_LEN: usize = 64;

/// How many undefined names of one load get a "did you mean" lookup (each
/// compares the name with every rule in scope); the rest get the plain note.
pub const MAX_SUGGESTIONS: usize = 200;

/// The most characters of a source line a diagnostic shows around its caret;
/// longer lines are cut, with `…` where text was left out.
pub const MAX_EXCERPT_CHARS: usize = 120;

/// The most states a `@bidirectional` rule's reverse automaton may have; a
/// larger one is left out (the recognizer then walks forwards only).
pub const MAX_REVERSE_STATES: usize = 4096;

/// The most bytes the two-byte steps of an `@components` extraction may
/// take (they are emitted only for small automata, such as the splitting
/// grammar of RFC 3986 Appendix B: 20 KB of its 31 KB).
pub const MAX_PAIR_BYTES: usize = 64 * 1024;

/// The most HIR nodes one rule may expand to once every reference is inlined.
/// Bounds memory on grammars such as `a = b b`, `b = c c`, ... whose inlined
/// form doubles at every level.
pub const MAX_HIR_NODES: usize = 1 << 20;

/// How deep a rule's regular expression may nest once inlined; the
/// Thompson compiler recurses on it.
pub const MAX_HIR_DEPTH: usize = 400;

/// How deep rule references may nest (`a = b`, `b = c`, ...) before
/// lowering stops; keeps the lowering's own recursion off the stack limit.
pub const MAX_REFERENCE_DEPTH: usize = 500;

/// The most states a tagged DFA may have (its state numbers are 16 bits
/// in the runtime's two-byte steps); [`Limits::tagged_states`] may only
/// lower it.
pub const MAX_TAGGED_STATES: usize = 0xFFFF;

/// DFAs with more states than this (before minimization) are not
/// minimized. RFC 3987's `IRI-reference` has about 1,600.
pub const MAX_MINIMIZE_STATES: usize = 20_000;

/// Size limits for building automata. A grammar that exceeds one gets an
/// error naming the rule and the limit, not an out-of-memory.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Bytes of heap the Thompson NFA may use.
    pub nfa_bytes: usize,
    /// Bytes the final (minimized) DFA may use.
    pub dfa_bytes: usize,
    /// Bytes the subset construction may use while determinizing.
    pub determinize_bytes: usize,
    /// States a tagged (typed-tree or `@components`) DFA may have; past
    /// it the builder stops at once. At most [`MAX_TAGGED_STATES`].
    pub tagged_states: usize,
    /// Bytes of generated tables one rule's recognizer may take (its
    /// transition table and sparse DFA, in both byte orders).
    pub rule_output_bytes: usize,
    /// Bytes all generated files of one run may take together.
    pub output_bytes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        // Generous for URI grammars (RFC 3987's IRI-reference needs about
        // 1 MB to determinize and 160 KB minimized) while keeping a
        // pathological grammar well inside this machine's memory.
        Limits {
            nfa_bytes: 64 << 20,
            // 8 MiB is about 16,000 states of 128 byte classes before
            // minimizing (RFC 3261's `challenge` needs 5 MiB for 10,000
            // determinized whole, 326 once minimized): a recognizer table
            // no one embeds. Rules built part by part (`compose`) reach it,
            // if at all, in well under a second.
            dfa_bytes: 8 << 20,
            determinize_bytes: 64 << 20,
            tagged_states: 16 * 1024,
            // RFC 3987's largest recognizer takes about 700 KB in all; the
            // whole of iri-grammar's output is about 8 MB.
            rule_output_bytes: 16 << 20,
            output_bytes: 64 << 20,
        }
    }
}

/// The most characters of a message, label or note that are rendered.
pub const MAX_MESSAGE_CHARS: usize = 300;

/// The deepest bound `@depth` (and `Config::depth`) accepts: each level
/// copies the rule's cycle.
pub const MAX_BOUNDED_DEPTH: u32 = 64;
