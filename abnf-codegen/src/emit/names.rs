//! Rust names derived from ABNF rule names.
//!
//! Rule names may hold `-` (ABNF) and `_` or `+` (older BNF); every other
//! character becomes `_` and runs of separators collapse, so `IRI-reference`
//! becomes `IRI_REFERENCE` and `gopher+_string` becomes `GOPHER_STRING`.

fn words(name: &str) -> Vec<String> {
    name.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(constant_name("IRI-reference"), "IRI_REFERENCE");
        assert_eq!(constant_name("gopher+_string"), "GOPHER_STRING");
        assert_eq!(constant_name("IPv6address"), "IPV6ADDRESS");
        assert_eq!(file_stem_name("ipath-abempty"), "ipath_abempty");
    }
}
