//! Rust names derived from ABNF rule names, and the namers that keep them
//! unique within a scope.
//!
//! Rule names may hold `-` (ABNF) and `_` or `+` (older BNF); every other
//! character becomes `_` and runs of separators collapse, so `IRI-reference`
//! becomes `IRI_REFERENCE` and `gopher+_string` becomes `GOPHER_STRING`.

/// The words of a rule name: split at anything that is not a letter or
/// digit, and where a lower-case letter meets an upper-case one (`tagURI`
/// is `tag` `URI`; `IPv6address` stays one word).
pub fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        let mut word = String::new();
        let mut prev_lower = false;
        for c in part.chars() {
            if prev_lower && c.is_ascii_uppercase() && !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            prev_lower = c.is_ascii_lowercase();
            word.push(c);
        }
        out.push(word);
    }
    out
}

/// `IRI-reference` → `IRI_REFERENCE`.
pub fn constant_name(name: &str) -> String {
    let mut s = words(name).join("_").to_ascii_uppercase();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert_str(0, "R_");
    }
    s
}

/// `IRI-reference` → `iri_reference` (file names and snake-case items).
pub fn file_stem_name(name: &str) -> String {
    constant_name(name).to_ascii_lowercase()
}

/// Unique names within one scope (the hidden items of a module, the files
/// of an output folder), in order of appearance: the first use of a name
/// keeps it, a later one gets the first free suffix `_2`, `_3`, ... This is
/// deterministic: the same grammar always gets the same names.
#[derive(Debug, Default)]
pub struct Namer {
    taken: std::collections::HashSet<String>,
}

impl Namer {
    /// Takes `base`, or `base_N` with the smallest free N ≥ 2.
    pub fn unique(&mut self, base: String) -> String {
        if self.taken.insert(base.clone()) {
            return base;
        }
        let mut n = 2;
        loop {
            let name = format!("{base}_{n}");
            if self.taken.insert(name.clone()) {
                return name;
            }
            n += 1;
        }
    }

    /// Marks `name` as taken (a name the scope uses for itself).
    pub fn reserve(&mut self, name: &str) {
        self.taken.insert(name.to_string());
    }
}

/// Unique names within one scope, in order of appearance: a name already
/// taken gets the first free numeric suffix, so the second `h16` field is
/// `h16_2`, the second `Alpha` variant `Alpha2`, and a later field `h16-2`
/// (also `h16_2`) becomes `h16_2_2` instead of colliding.
#[derive(Default)]
pub struct Names(std::collections::HashSet<String>);

impl Names {
    /// Takes `base`, or `base` with the first free numeric suffix.
    pub fn unique(&mut self, base: String) -> String {
        self.unique_with(base, &[])
    }

    /// A unique name such that the name followed by each of `suffixes` is
    /// free too (an enum `Host` brings `HostKind`); all of them are taken.
    pub fn unique_with(&mut self, base: String, suffixes: &[&str]) -> String {
        let free = |set: &std::collections::HashSet<String>, n: &str| {
            !set.contains(n) && suffixes.iter().all(|s| !set.contains(&format!("{n}{s}")))
        };
        let mut name = base.clone();
        let mut n = 1;
        while !free(&self.0, &name) {
            n += 1;
            name = if base.starts_with(|c: char| c.is_ascii_uppercase()) {
                format!("{base}{n}")
            } else {
                format!("{base}_{n}")
            };
        }
        for s in suffixes {
            self.0.insert(format!("{name}{s}"));
        }
        self.0.insert(name.clone());
        name
    }
}

const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern", "false",
    "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while",
    "abstract", "become", "box", "do", "final", "gen", "macro", "override", "priv", "try", "typeof",
    "unsized", "virtual", "yield", // Names the generated types use themselves.
    "span", "text",
];

/// `ihier-part` → `ihier_part`; keywords get a trailing `_`.
pub fn snake(name: &str) -> String {
    let mut s = words(name).join("_").to_ascii_lowercase();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert_str(0, "r_");
    }
    if KEYWORDS.contains(&s.as_str()) {
        s.push('_');
    }
    s
}

/// `IRI-reference` → `IriReference`, `IPv6address` → `Ipv6address`.
pub fn camel(name: &str) -> String {
    let mut s: String = words(name)
        .iter()
        .map(|w| {
            let lower = w.to_ascii_lowercase();
            let mut c = lower.chars();
            c.next()
                .map_or_else(String::new, |f| f.to_ascii_uppercase().to_string() + c.as_str())
        })
        .collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, 'R');
    }
    if s == "Self" {
        s.push('_');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(constant_name("IRI-reference"), "IRI_REFERENCE");
        assert_eq!(constant_name("gopher+_string"), "GOPHER_STRING");
        assert_eq!(constant_name("IPv6address"), "IPV6ADDRESS");
        assert_eq!(file_stem_name("ipath-abempty"), "ipath_abempty");
        assert_eq!(constant_name("tagURI"), "TAG_URI");
        assert_eq!(constant_name("absoluteURI"), "ABSOLUTE_URI");
        assert_eq!(constant_name("DNSname"), "DNSNAME");
    }

    #[test]
    fn type_and_field_names() {
        assert_eq!(camel("IRI-reference"), "IriReference");
        assert_eq!(snake("ihier-part"), "ihier_part");
        assert_eq!(snake("type"), "type_");
        assert_eq!(camel("gopher+_string"), "GopherString");
        assert_eq!(camel("absoluteURI"), "AbsoluteUri");
        assert_eq!(snake("taggingEntity"), "tagging_entity");
    }

    #[test]
    fn namer_is_deterministic_and_never_repeats() {
        let mut n = Namer::default();
        assert_eq!(n.unique("A_1".into()), "A_1");
        assert_eq!(n.unique("A".into()), "A");
        assert_eq!(n.unique("A".into()), "A_2");
        // `A_1` is taken, `A_2` too: the next `A` is `A_3`.
        assert_eq!(n.unique("A".into()), "A_3");
        assert_eq!(n.unique("A_2".into()), "A_2_2");
    }
}
