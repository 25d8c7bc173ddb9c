/// FNV-1a over every `*.abnf` and `*.bnf` file of `dir` (sorted by name):
/// its name, a NUL, its contents and a NUL, as 16 hex digits. Equal to
/// `abnf_codegen::specs_hash` (included by `build.rs` and by the tests crate,
/// which checks that).
fn specs_hash(dir: &std::path::Path) -> std::io::Result<String> {
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "abnf" || e == "bnf"))
        .collect();
    files.sort();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for f in files {
        let name = f.file_name().unwrap_or_default().to_string_lossy().into_owned();
        let text = std::fs::read(&f)?;
        for &b in name.as_bytes().iter().chain(&[0]).chain(&text).chain(&[0]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    Ok(format!("{h:016x}"))
}
