//! Golden images of `modex render` on the four shared LotterShock levels (`shared/data/wmb`), from
//! each level's default camera, with their placed entities.
//!
//! These guard against change only; what makes them right was checked by eye (the textured floor
//! slab of testlevel, menue's weapons in their dark menu room, bestiary's row of cages) and by the
//! independent tests: the decoder's length checks (`engine/mdl/tests/wmb.rs`) and the nearest
//! surface seen from inside (`engine/raster/tests/wmb_inside.rs`).
//!
//! The 8-bit images are compared byte for byte; the 8888 ones allow what a different float unit
//! may change (0.1 % of pixels by 2 per channel). Regenerate after an intended change with
//! `MODEX_BLESS=1 cargo test -p modex-demo --test cli_wmb_golden`, then look at every changed image.

use std::path::{Path, PathBuf};
use std::process::Command;

use modex_testkit::{Golden, Tolerance};

const LEVELS: &[&str] = &["testlevel", "menue", "testlevel_doors", "bestiary"];
const SIZE: &str = "320x180";

const TRUE_COLOUR: Tolerance = Tolerance {
    max_channel: 2,
    per_mille: 1,
};

fn golden() -> Golden {
    Golden::new(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden"),
        "modex-demo",
    )
}

fn render(level: &Path, out: &Path, format: &str) {
    let run = Command::new(env!("CARGO_BIN_EXE_modex"))
        .arg("render")
        .arg(level)
        .arg("-o")
        .arg(out)
        .args(["--size", SIZE, "--format", format, "--threads", "2"])
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "render {}: {}",
        level.display(),
        String::from_utf8_lossy(&run.stderr)
    );
}

#[test]
fn shared_levels_render_as_their_golden_images() {
    let Some(dir) = modex_testkit::samples_dir("wmb") else {
        return;
    };
    let levels = dir.join("lottershock/Game/Level");
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_wmb_golden");
    std::fs::create_dir_all(&out).unwrap();
    let golden = golden();
    let mut failures = Vec::new();
    for level in LEVELS {
        let file = levels.join(format!("{level}.wmb"));
        let png8 = out.join(format!("{level}-8.png"));
        render(&file, &png8, "8");
        let bytes = std::fs::read(&png8).unwrap();
        let (frame, palette) = modex::pngio::decode_indexed(&bytes).unwrap();
        if let Err(e) = golden.check_indexed(&format!("wmb-{level}-8.png"), &frame, &palette) {
            failures.push(e.to_string());
        }
        let png32 = out.join(format!("{level}-8888.png"));
        render(&file, &png32, "8888");
        let bytes = std::fs::read(&png32).unwrap();
        let (w, h, rgba) = modex::pngio::decode_rgba(&bytes).unwrap();
        // A level drawn as nothing (every entity lost, the blocks culled) would match an empty
        // golden just as well: each of these shows something.
        let drawn = rgba.chunks_exact(4).filter(|p| p[..3] != [0, 0, 0]).count();
        assert!(drawn * 100 > w * h, "{level}: only {drawn} pixels drawn");
        if let Err(e) =
            golden.check_rgba(&format!("wmb-{level}-8888.png"), w, h, &rgba, TRUE_COLOUR)
        {
            failures.push(e.to_string());
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
