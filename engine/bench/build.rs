//! Records the commit and the compiler the benchmark was built from, for its reports.

use std::process::Command;

fn output(cmd: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(cmd).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}

fn main() {
    let commit = output("git", &["rev-parse", "--short=12", "HEAD"]).map(|c| {
        let dirty = output("git", &["status", "--porcelain", "--untracked-files=no"]).is_some();
        if dirty {
            format!("{c}-dirty")
        } else {
            c
        }
    });
    println!(
        "cargo:rustc-env=MODEX_BENCH_COMMIT={}",
        commit.unwrap_or_else(|| "unknown".into())
    );
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    println!(
        "cargo:rustc-env=MODEX_BENCH_RUSTC={}",
        output(&rustc, &["--version"]).unwrap_or_else(|| "unknown".into())
    );
    // A new commit changes HEAD's log; the build is redone then, not on every change of a file.
    if let Some(head) = output("git", &["rev-parse", "--git-path", "logs/HEAD"]) {
        println!("cargo:rerun-if-changed={head}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
