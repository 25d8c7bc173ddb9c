//! The generator's file-system edge: the spec files and imports it reads
//! (with the caps and folder checks that keep a hostile `@import` harmless),
//! and the spec fingerprint. (Writing the generated files is the driver's:
//! `driver.rs`.)

use std::path::{Path, PathBuf};

use crate::config::{Config, Error};
use crate::grammar::SpecInput;
use crate::limits;

/// The folder trees `@import` may read from: each root spec's folder,
/// each spec folder, each [`Config::import_dir`]; the current folder when
/// every spec is in memory.
pub(crate) fn import_roots(config: &Config) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = config
        .spec_paths
        .iter()
        .map(|p| match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        })
        .chain(config.spec_dirs.iter().cloned())
        .chain(config.import_dirs.iter().cloned())
        .collect();
    if roots.is_empty() {
        roots.push(PathBuf::from("."));
    }
    roots.iter().filter_map(|r| r.canonicalize().ok()).collect()
}

pub(crate) fn inputs(config: &Config) -> Result<Vec<SpecInput>, Error> {
    let mut paths = config.spec_paths.clone();
    for dir in &config.spec_dirs {
        let entries = std::fs::read_dir(dir).map_err(|error| Error::Io {
            path: dir.clone(),
            error,
        })?;
        let mut found: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "abnf" || e == "bnf"))
            .collect();
        found.sort();
        paths.extend(found);
    }
    let mut inputs = Vec::new();
    for path in paths {
        let bytes = read_capped(&path).map_err(|error| Error::Io {
            path: path.clone(),
            error,
        })?;
        inputs.push(SpecInput {
            name: path.display().to_string(),
            path: Some(path),
            bytes,
        });
    }
    for (name, text) in &config.spec_sources {
        inputs.push(SpecInput {
            name: name.clone(),
            path: None,
            bytes: text.clone().into_bytes(),
        });
    }
    if inputs.is_empty() {
        return Err(Error::Config("no spec files given".into()));
    }
    Ok(inputs)
}

/// How `@import` finds a file: a spec given in memory by name, else the
/// path relative to the importing file, read by [`read_import`] within the
/// folders of [`import_roots`].
pub(crate) fn import_resolver(config: &Config) -> impl FnMut(&SpecInput, &str) -> Result<SpecInput, String> {
    let in_memory = config.spec_sources.clone();
    let import_roots = import_roots(config);
    move |from: &SpecInput, name: &str| -> Result<SpecInput, String> {
        if let Some((n, t)) = in_memory.iter().find(|(n, _)| n == name) {
            return Ok(SpecInput {
                name: n.clone(),
                path: None,
                bytes: t.clone().into_bytes(),
            });
        }
        let base = from.path.as_ref().and_then(|p| p.parent());
        let path = match base {
            Some(dir) => dir.join(name),
            None => PathBuf::from(name),
        };
        let bytes = read_import(&path, &import_roots)?;
        Ok(SpecInput {
            name: path.display().to_string(),
            path: Some(path),
            bytes,
        })
    }
}

/// Reads at most one byte more than [`limits::MAX_SPEC_BYTES`] (enough for
/// the loader to say the file is too large), so that a device such as
/// `/dev/zero` cannot exhaust memory.
fn read_capped(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(limits::MAX_SPEC_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Reads the file an `@import` names, if it may be read: a regular file
/// (not a device, FIFO or folder, which could block or never end) with a
/// spec extension (`.abnf`, `.bnf`, `.txt`), inside one of `roots` once
/// symbolic links and `..` are resolved. The reason for a refusal never
/// quotes the file's contents.
fn read_import(path: &Path, roots: &[PathBuf]) -> Result<Vec<u8>, String> {
    let shown = path.display();
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if !matches!(ext, "abnf" | "bnf" | "txt") {
        return Err(format!(
            "{shown}: only `.abnf`, `.bnf` and `.txt` spec files can be imported"
        ));
    }
    let meta = std::fs::metadata(path).map_err(|e| format!("{shown}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("{shown}: not a regular file"));
    }
    let real = path.canonicalize().map_err(|e| format!("{shown}: {e}"))?;
    if !roots.iter().any(|r| real.starts_with(r)) {
        return Err(format!(
            "{shown} is outside the folders of the specs being compiled; add its folder with \
             `Config::import_dir` to allow it"
        ));
    }
    read_capped(&real).map_err(|e| format!("{shown}: {e}"))
}

/// A fingerprint of every `*.abnf` and `*.bnf` file of `dir` (sorted by name): FNV-1a
/// over each file's name, a NUL, its contents and a NUL, as 16 hex digits.
/// `iri-grammar`'s build script computes the same value to check that its
/// checked-in generated code matches the specs.
pub fn specs_hash(dir: &Path) -> std::io::Result<String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
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
