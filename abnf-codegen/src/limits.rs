//! Every limit the generator enforces, in one place, with why.
//!
//! The configurable ones are fields of [`Limits`] (set with
//! [`crate::Config::limits`]); the others are constants, chosen far above
//! what any real grammar needs and far below what exhausts a build machine.
//! What the generator refuses, and with which message, is listed in the
//! README's "Limits" section.

pub use crate::automata::{Limits, MAX_MINIMIZE_STATES};
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
