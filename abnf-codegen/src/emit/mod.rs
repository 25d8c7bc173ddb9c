//! Compiled grammar → emit model → tokens → formatted Rust.
//!
//! [`plan`] turns a [`crate::Compiled`] grammar into a small model of what to
//! emit ([`EmitGrammar`], [`typed::EmitType`]) and the table files; the code
//! here and in [`typed`] only walks that model with `quote!` and formats the
//! result with `prettyplease`.

pub mod direct;
pub mod exits;
pub mod plan;
pub mod typed;

pub use crate::config::IncludeStyle;
pub use plan::{Generated, GeneratedFile};

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

/// Everything emitted for one spec file.
#[derive(Clone, Debug)]
pub struct EmitGrammar {
    /// The module name (the file stem).
    pub name: String,
    /// The spec file name as shown to users.
    pub source: String,
    /// The rules, in spec order.
    pub rules: Vec<EmitRule>,
    /// The network of the rules that need a stack, if any.
    pub network: Option<EmitNetwork>,
    /// The grammar's one-character rules by name, as the words of the set
    /// of bytes their characters start with, largest first
    /// (`abnf_runtime::Recognizer::classes`).
    pub classes: Vec<(String, [u64; 4])>,
}

/// The network of a grammar's rules that need a stack
/// ([`crate::network`]): its table files and the rules walked in it.
#[derive(Clone, Debug)]
pub struct EmitNetwork {
    /// Path of the table files, without the `.le.net` / `.be.net` suffix.
    pub path: String,
    /// Every rule of the network (its automata's names, for errors).
    pub names: Vec<String>,
    /// The exported rules: ABNF name, Rust constant, index in the
    /// network, doc lines.
    pub rules: Vec<(String, String, usize, Vec<String>)>,
    /// How many calls may nest.
    pub nesting_limit: usize,
}

/// One exported rule.
#[derive(Clone, Debug)]
pub struct EmitRule {
    /// The ABNF name (the lookup key).
    pub name: String,
    /// The Rust constant name.
    pub ident: String,
    /// Where the DFA comes from.
    pub kind: EmitKind,
}

/// How a rule's recognizer is provided.
#[derive(Clone, Debug)]
pub enum EmitKind {
    /// Its own DFA, embedded from `{dfa_path}.le.dfa` / `.be.dfa`.
    Own {
        /// The grammar that defines the rule (differs from the module when an
        /// imported rule's file is not generated itself).
        grammar: String,
        /// Path of the table files, without the `.le.table` (`.le.sparse`,
        /// ...) suffix, relative to the output folder.
        dfa_path: String,
        /// Doc lines: the ABNF text, where it came from, the DFA's size.
        doc: Vec<String>,
        /// Whether it has a reverse automaton for matching from both ends
        /// (`@bidirectional`), in the files `.le.rev`/`.be.rev`.
        bidirectional: bool,
        /// Whether its table is also walked as code ([`direct`]): a
        /// function named `__{ident}_direct` (lower case) in the file
        /// `.direct.rs`.
        direct: bool,
    },
    /// A rule imported from a sibling generated module.
    Reexport {
        /// The sibling module.
        module: String,
    },
}

/// `use RUNTIME::__private as __rt;`: generated code reaches the runtime's
/// hidden items (table loaders, tag readers) through this short alias, once
/// per generated module.
pub(crate) fn private_alias(rt: &TokenStream) -> TokenStream {
    quote! {
        #[allow(unused_imports)]
        use #rt::__private as __rt;
    }
}

/// `static NAME: &Aligned<[u8]>` holding the little- or big-endian file,
/// whichever the target is (through [`private_alias`]).
pub(crate) fn aligned_static(name: &Ident, le: TokenStream, be: TokenStream) -> TokenStream {
    quote! {
        #[cfg(target_endian = "little")]
        static #name: &__rt::Aligned<[u8]> = &__rt::Aligned::new(*include_bytes!(#le));
        #[cfg(target_endian = "big")]
        static #name: &__rt::Aligned<[u8]> = &__rt::Aligned::new(*include_bytes!(#be));
    }
}

/// What a generated grammar module holds, in its order: the header's map
/// for a reader who opens the file.
const MODULE_MAP: &str = "\
// In this file: one `Recognizer` static per exported rule, in spec order,
// documented with its line and ABNF text, and followed by the tables it
// walks (`include_bytes!` of files beside this one, in the runtime's
// format); `GRAMMAR`, the recognizers by rule name; then, where the spec
// has them, `ast` (a typed parse tree per rule with structure) and
// `components` (the spans its `@components` directives ask for, in one
// pass). Items whose names start with `__` are the tables and hooks that
// generated code needs and users do not.
";

/// Renders one grammar module; `ast` is its typed AST module, if any.
pub fn grammar_module(
    g: &EmitGrammar,
    ast: Option<TokenStream>,
    runtime: &str,
    style: IncludeStyle,
    regenerate: &str,
) -> String {
    let rt: TokenStream = runtime.parse().expect("runtime path is a Rust path");
    let mut items = Vec::new();
    let mut consts = Vec::new();
    let classes = if g.classes.is_empty() {
        quote!(&[])
    } else {
        let entries = g
            .classes
            .iter()
            .map(|(name, words)| quote!((#name, #rt::ByteSet::__from_words([#(#words),*]))));
        items.push(quote! {
            /// The rules of this grammar that match one character, as the
            /// bytes their characters start with, largest first: errors
            /// name what they expected by them.
            static __CLASSES: &[(&str, #rt::ByteSet)] = &[#(#entries),*];
        });
        quote!(__CLASSES)
    };
    for r in &g.rules {
        let ident = Ident::new(&r.ident, Span::call_site());
        consts.push(ident.clone());
        match &r.kind {
            EmitKind::Reexport { module } => {
                let m = format_ident!("{}", module);
                let doc = format!(
                    " Imported: the recognizer of `{}` from [`super::{}`].",
                    r.name, module
                );
                items.push(quote! {
                    #[doc = #doc]
                    pub use super::#m::#ident;
                });
            }
            EmitKind::Own {
                grammar,
                dfa_path,
                doc,
                bidirectional,
                direct,
            } => {
                let table = format_ident!("__{}_TABLE", r.ident);
                let sparse = format_ident!("__{}_SPARSE", r.ident);
                let path = |s: &str| include_path(&format!("{dfa_path}.{s}"), style);
                let (sparse_le, sparse_be) = (path("le.sparse"), path("be.sparse"));
                let name = &r.name;
                let rev = format_ident!("__{}_REV", r.ident);
                let reverse = if *bidirectional {
                    quote!(::core::option::Option::Some(#rev))
                } else {
                    quote!(::core::option::Option::None)
                };
                // The documented recognizer first, then the tables it reads:
                // a reader meets the rule before its bytes.
                let with_direct = direct.then(|| {
                    let f = format_ident!("__{}_direct", r.ident.to_lowercase());
                    quote!(.__with_direct(#f))
                });
                items.push(quote! {
                    #(#[doc = #doc])*
                    pub static #ident: #rt::Recognizer = #rt::Recognizer::__new(#grammar, #name, #table, #reverse, #sparse, #classes)#with_direct;
                });
                items.push(aligned_static(&table, path("le.table"), path("be.table")));
                if *bidirectional {
                    items.push(aligned_static(&rev, path("le.rev"), path("be.rev")));
                }
                items.push(quote! {
                    #[cfg(target_endian = "little")]
                    static #sparse: &[u8] = include_bytes!(#sparse_le);
                    #[cfg(target_endian = "big")]
                    static #sparse: &[u8] = include_bytes!(#sparse_be);
                });
                if *direct {
                    let p = path("direct.rs");
                    items.push(quote!(include!(#p);));
                }
            }
        }
    }
    let gname = &g.name;
    let gdoc = format!(" Every exported rule of `{}`, in spec order.", g.source);
    let alias = private_alias(&rt);
    let grammar = match &g.network {
        None => quote!(#rt::Grammar::__new(#gname, &[#(&#consts),*])),
        Some(net) => {
            let table = format_ident!("__NETWORK");
            let names_ident = format_ident!("__NETWORK_RULES");
            let path = |s: &str| include_path(&format!("{}.{s}", net.path), style);
            items.push(aligned_static(&table, path("le.net"), path("be.net")));
            let names = &net.names;
            items.push(quote! {
                /// The rules of this grammar's network of rule automata, by index.
                static #names_ident: &[&str] = &[#(#names),*];
            });
            let depth = net.nesting_limit;
            let mut idents = Vec::new();
            for (name, ident, index, doc) in &net.rules {
                let ident = Ident::new(ident, Span::call_site());
                items.push(quote! {
                    #(#[doc = #doc])*
                    pub static #ident: #rt::NetworkRecognizer =
                        #rt::NetworkRecognizer::__new(#gname, #name, #table, #index, #names_ident, #depth);
                });
                idents.push(ident);
            }
            quote!(#rt::Grammar::__with_networks(#gname, &[#(&#consts),*], &[#(&#idents),*]))
        }
    };
    let tokens = quote! {
        #alias
        #(#items)*
        #[doc = #gdoc]
        pub static GRAMMAR: #rt::Grammar = #grammar;
        #ast
    };
    let header = format!(
        "// @generated by abnf-codegen {} from `{}`.\n// Do not edit: edit the spec file; {regenerate}.\n//\n{}\n",
        env!("CARGO_PKG_VERSION"),
        // A file name may hold a line feed: it must not end the comment.
        crate::diagnostic::escape_text(&g.source, false),
        MODULE_MAP,
    );
    header + &format_tokens(tokens)
}

/// Renders the index of all generated grammars (for lookups by name).
///
/// It declares one module per grammar, documented with the comment lines
/// that open its spec file, so that adding a spec file adds a module with no
/// Rust code to write: include this file where the modules should live.
/// `schemes` lists (URI scheme, module, recognizer constant) from the specs'
/// `@scheme` directives.
pub fn index_module(
    grammars: &[(&str, Vec<String>)],
    schemes: &[(String, String, String)],
    runtime: &str,
    style: IncludeStyle,
    regenerate: &str,
) -> String {
    let rt: TokenStream = runtime.parse().expect("runtime path is a Rust path");
    let decls = grammars.iter().map(|(g, doc)| {
        let m = format_ident!("{}", g);
        let file = format!("{g}.rs");
        match style {
            IncludeStyle::OutDir => {
                let path = format!("/{file}");
                quote! {
                    #(#[doc = #doc])*
                    pub mod #m {
                        include!(concat!(env!("OUT_DIR"), #path));
                    }
                }
            }
            IncludeStyle::Relative => quote! {
                #(#[doc = #doc])*
                #[path = #file]
                pub mod #m;
            },
        }
    });
    let mods = grammars.iter().map(|(g, _)| format_ident!("{}", g));
    let scheme_entries = schemes.iter().map(|(scheme, m, ident)| {
        let (m, ident) = (format_ident!("{}", m), format_ident!("{}", ident));
        quote!((#scheme, &#m::#ident))
    });
    // Only specs that name URI schemes (`@scheme`) get the table.
    let schemes = (!schemes.is_empty()).then(|| {
        quote! {
            /// URI schemes with a grammar of their own (`; @scheme` in the specs):
            /// the scheme, lower-case, and the rule its URIs follow.
            pub static SCHEMES: &[(&str, &#rt::Recognizer)] = &[#(#scheme_entries),*];
        }
    });
    let tokens = quote! {
        #(#decls)*
        /// Every generated grammar, for lookups by name.
        pub static GRAMMARS: &[&#rt::Grammar] = &[#(&#mods::GRAMMAR),*];
        #schemes
    };
    format!(
        "// @generated by abnf-codegen {}.\n// Do not edit: edit the spec files; {regenerate}.\n\n{}",
        env!("CARGO_PKG_VERSION"),
        format_tokens(tokens)
    )
}

pub(crate) fn include_path(path: &str, style: IncludeStyle) -> TokenStream {
    match style {
        IncludeStyle::OutDir => {
            let p = format!("/{path}");
            quote!(concat!(env!("OUT_DIR"), #p))
        }
        IncludeStyle::Relative => quote!(#path),
    }
}

fn format_tokens(tokens: TokenStream) -> String {
    let file: syn::File = syn::parse2(tokens).expect("generated code parses");
    prettyplease::unparse(&file)
}
