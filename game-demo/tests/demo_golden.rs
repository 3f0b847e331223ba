//! Golden frames of the demo scene: the fixed-step world drawn headless through the 8-bit path must
//! match the checked-in indexed PNGs byte for byte (palette indices compared, not colours).
//!
//! After an intended change to the scene or a renderer, regenerate with
//! `MODEX_BLESS=1 cargo test -p modex-demo --test demo_golden` and look at the new PNGs before
//! committing them.

use modex_demo::scene::assets::{generate, Assets};
use modex_demo::scene::world::DEFAULT_UNITS;
use modex_demo::scene::{DrawPath, SceneRenderer, World};
use modex_testkit::Golden;

/// Scene steps (1/60 s each) at which frames are compared.
const STEPS: [u64; 3] = [0, 150, 420];

#[test]
fn demo_frames_match_golden_images() {
    let assets = Assets::from_files(&generate()).unwrap();
    let mut world = World::demo(&assets, DEFAULT_UNITS);
    let mut scene = SceneRenderer::new(&assets, 360, 240);
    let golden = Golden::new(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden"),
        "modex-demo",
    );
    let mut mismatches = Vec::new();
    for &step in &STEPS {
        while world.steps < step {
            world.step();
        }
        scene.draw(&world, DrawPath::Indexed).unwrap();
        let name = format!("demo_{step:04}.png");
        if let Err(e) = golden.check_indexed(&name, &scene.frame, &assets.palette) {
            mismatches.push(format!("step {step}: {e}"));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn both_paths_draw_units_over_terrain() {
    let assets = Assets::from_files(&generate()).unwrap();
    let world = World::demo(&assets, DEFAULT_UNITS);
    // Each path through its own (cold) voxel draw cache, so both record the same sprites.
    let s8 = SceneRenderer::new(&assets, 360, 240)
        .draw(&world, DrawPath::Indexed)
        .unwrap();
    let mut scene = SceneRenderer::new(&assets, 360, 240);
    let s32 = scene.draw(&world, DrawPath::TrueColour).unwrap();
    assert_eq!(
        s8.drawn, s32.drawn,
        "both paths draw the same triangles, limbs and rays"
    );
    assert!(
        s8.drawn.triangles >= 2 * 32 * 32,
        "terrain and props submitted"
    );
    assert!(s8.voxels > 10_000, "a dozen units' voxels");
    assert!(s8.drawn.rays > 0 && s32.drawn.rays > 0);
    // The true-colour frame is not the sky colour everywhere.
    let distinct: std::collections::HashSet<u32> =
        scene.surface.pixels().iter().map(|p| p.0).collect();
    assert!(distinct.len() > 50);
}
