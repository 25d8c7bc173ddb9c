//! The driver: runs the pipeline that a [`Config`] describes, from the
//! spec files to the files written (load and check, [`crate::compile`],
//! [`crate::emit`], then writing what changed). It reads every stage and no
//! stage reads it; [`Config`] itself is settings only.

use std::path::{Path, PathBuf};

use crate::compile::Compiled;
use crate::config::{Config, Error};
use crate::diagnostic::Diagnostics;
use crate::emit::{Generated, GeneratedFile, IncludeStyle};
use crate::grammar::Grammar;

impl Config {
    /// Runs the front end only: parse, resolve and check.
    pub fn load(&self) -> Result<(Grammar, Diagnostics), Error> {
        crate::compile::load(self)
    }

    /// Front end, checks, and an automaton per exported rule (see
    /// [`crate::compile`]).
    pub fn build(&self) -> Result<Compiled, Error> {
        crate::compile::build(self)
    }

    /// Runs the whole pipeline and returns the generated files without
    /// writing anything.
    pub fn generate(&self) -> Result<Generated, Error> {
        let runtime = self.runtime.as_deref().unwrap_or("::abnf_runtime");
        crate::emit::plan::check_runtime_path(runtime)?;
        let compiled = self.build()?;
        let regenerate = match (&self.regenerate_command, self.include_style) {
            (Some(command), _) => format!("then run `{command}`"),
            (None, None | Some(IncludeStyle::OutDir)) => "the build script regenerates this file".to_string(),
            (None, Some(IncludeStyle::Relative)) => {
                "then regenerate this file with `abnf-codegen generate`".to_string()
            }
        };
        // Paths under `$OUT_DIR` only hold for files written there: output
        // written elsewhere (a subfolder, say) names its files relatively.
        let style = self.include_style.unwrap_or(match self.out_dir {
            Some(_) => IncludeStyle::Relative,
            None => IncludeStyle::OutDir,
        });
        compiled.emit(runtime, style, &regenerate, self.limits)
    }

    /// For build scripts: generates, writes the files that changed to the
    /// output folder, and prints `cargo:rerun-if-changed` for every input.
    pub fn compile(&self) -> Result<Generated, Error> {
        for dir in &self.spec_dirs {
            println!("cargo:rerun-if-changed={}", dir.display());
        }
        let generated = self.generate()?;
        for path in &generated.inputs {
            println!("cargo:rerun-if-changed={}", path.display());
        }
        let out = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR").map(PathBuf::from).ok_or_else(|| {
                Error::Config("no output folder: set `Config::out_dir` or run from a build script".into())
            })?,
        };
        write_if_changed(&out, &generated.files)?;
        Ok(generated)
    }
}

/// Writes files whose bytes differ from what is on disk, so that unchanged
/// output does not make dependants rebuild.
pub fn write_if_changed(out: &Path, files: &[GeneratedFile]) -> Result<(), Error> {
    for f in files {
        let path = out.join(&f.path);
        if std::fs::read(&path).ok().as_deref() == Some(&f.contents[..]) {
            continue;
        }
        let io = |error| Error::Io {
            path: path.clone(),
            error,
        };
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        std::fs::write(&path, &f.contents).map_err(io)?;
    }
    Ok(())
}
