//! Building C plugins in tests with the system C compiler (`$CC`, else `cc`), the way a user builds
//! one: `cc -shared -fPIC -I INCLUDE plugin.c -o plugin.so`.
//!
//! Without a compiler the tests say plainly why they are skipped; when `CI` is set that is a
//! failure (`.ci/run` makes sure `cc` exists).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The C compiler, or `None` (after printing `SKIPPED` and the reason) when there is none. Panics
/// when `CI` is set and there is none.
pub fn c_compiler() -> Option<PathBuf> {
    let cc = std::env::var_os("CC").unwrap_or_else(|| "cc".into());
    let ok = Command::new(&cc)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return Some(PathBuf::from(cc));
    }
    let why = format!("no C compiler: `{} --version` failed", cc.to_string_lossy());
    if std::env::var_os("CI").is_some() {
        panic!("{why}, and CI is set: the C plugin tests must run in CI");
    }
    eprintln!("SKIPPED: {why}");
    None
}

/// Compile `source` into the shared library `out` against the headers in `include`, as
/// `cc -shared -fPIC -I include source -o out` (plus warnings as errors, so the header stays
/// clean). Panics with the compiler's output on failure.
pub fn compile_plugin(cc: &Path, include: &Path, source: &Path, out: &Path) {
    let output = Command::new(cc)
        .args(["-shared", "-fPIC", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(include)
        .arg(source)
        .arg("-o")
        .arg(out)
        .output()
        .expect("run the C compiler");
    assert!(
        output.status.success(),
        "{} failed:\n{}",
        source.display(),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Compile and run a C program (tests that print layouts); returns its standard output.
pub fn run_c_program(cc: &Path, include: &Path, source: &Path, exe: &Path) -> String {
    let status = Command::new(cc)
        .args(["-Wall", "-Werror", "-I"])
        .arg(include)
        .arg(source)
        .arg("-o")
        .arg(exe)
        .output()
        .expect("run the C compiler");
    assert!(
        status.status.success(),
        "{} failed:\n{}",
        source.display(),
        String::from_utf8_lossy(&status.stderr)
    );
    let run = Command::new(exe)
        .output()
        .expect("run the compiled program");
    assert!(run.status.success(), "{} failed", exe.display());
    String::from_utf8_lossy(&run.stdout).into_owned()
}
