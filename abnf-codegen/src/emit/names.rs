//! Rust names derived from ABNF rule names.
//!
//! Rule names may hold `-` (ABNF) and `_` or `+` (older BNF); every other
//! character becomes `_` and runs of separators collapse, so `IRI-reference`
//! becomes `IRI_REFERENCE` and `gopher+_string` becomes `GOPHER_STRING`.

/// The words of a rule name: split at anything that is not a letter or
/// digit, and where a lower-case letter meets an upper-case one (`tagURI`
/// is `tag` `URI`; `IPv6address` stays one word).
pub(crate) fn words(name: &str) -> Vec<String> {
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
