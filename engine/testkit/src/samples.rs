//! Where conformance tests find the real third-party sample files.
//!
//! The samples are never part of the repository. Tests read them from `$MODEX_SAMPLES` when set (a
//! relative path counts from the workspace root), else from `../shared/data` beside the workspace.
//! On a user's fresh clone the folder is missing: the tests then say plainly that they were
//! skipped. In CI (`CI` set) a missing folder is a failure, because CI always has it and a silent
//! skip would hide a broken test.

use std::path::{Path, PathBuf};

/// The sample folder `sub` (e.g. `"mdl"`), or `None` (after printing a notice) when the samples are
/// not on this machine. Panics when the variable `CI` is set and the folder is missing.
pub fn samples_dir(sub: &str) -> Option<PathBuf> {
    // This crate lives at `<workspace>/engine/testkit`. Cargo runs each test in its own crate's
    // folder, so a relative `MODEX_SAMPLES` (as a user types it at the workspace root) is taken
    // from the workspace root, not from wherever the test happens to run.
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let root = match std::env::var_os("MODEX_SAMPLES") {
        Some(p) if PathBuf::from(&p).is_absolute() => PathBuf::from(p),
        Some(p) => workspace.join(p),
        None => workspace.join("../shared/data"),
    };
    let dir = root.join(sub);
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var_os("CI").is_some() {
        panic!(
            "sample folder {} is missing, and CI is set: conformance tests must run in CI",
            dir.display()
        );
    }
    eprintln!(
        "SKIPPED: sample folder {} not found (set MODEX_SAMPLES to run the conformance tests)",
        dir.display()
    );
    None
}

/// Every file below `dir`, in every subfolder, in path order (folder by folder, names sorted): the
/// one walk the sample-reading tests share, each filtering what it reads.
pub fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let entries =
            std::fs::read_dir(&d).unwrap_or_else(|e| panic!("cannot list {}: {e}", d.display()));
        for e in entries {
            let p = e
                .unwrap_or_else(|e| panic!("cannot list {}: {e}", d.display()))
                .path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.push(p);
            }
        }
    }
    // Paths compare part by part, so this is the order of a sorted depth-first walk.
    out.sort();
    out
}
