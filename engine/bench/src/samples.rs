//! Where the bench finds the real sample files (the minigun, hmec).
//!
//! `$MODEX_SAMPLES` when set (relative to the current folder, as the user typed it), else
//! `../shared/data` beside the workspace the binary was built from. Unlike the tests' lookup
//! (`modex_testkit::samples_dir`), a missing folder is never an error here: a user's machine
//! usually has no samples, and the scenes then use generated stand-ins of the same size, which the
//! report names.

use std::path::PathBuf;

/// The sample folder `sub` (e.g. `"mdl"`), or `None` when it is not on this machine.
pub fn dir(sub: &str) -> Option<PathBuf> {
    let root = match std::env::var_os("MODEX_SAMPLES") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
    };
    let dir = root.join(sub);
    dir.is_dir().then_some(dir)
}
