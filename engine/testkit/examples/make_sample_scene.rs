//! Writes the project's sample scene to `data/cutscene/` (or the folder given as the first argument).
//! The bytes are deterministic; `engine/cutscene/tests/sample_scene.rs` checks the committed files match.
//!
//! `cargo run -p modex-testkit --example make_sample_scene`

use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let root = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/cutscene"));
    let mut total = 0;
    for f in modex_testkit::sample_scene::generate() {
        let path = root.join(f.path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(&path, &f.bytes)?;
        total += f.bytes.len();
        println!("{:>8} bytes  {}", f.bytes.len(), path.display());
    }
    println!("{total:>8} bytes in all");
    Ok(())
}
