//! A5-style plugins through the demo, as a user runs them: C plugins built with
//! `cc -shared -fPIC -I engine/plugin/include X.c -o X.so` (the examples in engine/plugin/examples
//! and the test plugins in tests/plugins), loaded by the headless demo with `--plugin`,
//! `--each-frame` and `--each-entity`; pixels, entity state and error lines checked. Each C example
//! gives the same frames as its Rust twin (`--plugin builtin`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use modex_demo::scene::assets::{data_dir, Assets};
use modex_demo::scene::World;
use modex_testkit::cplugin::{c_compiler, compile_plugin};

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/plugin/examples");
const TEST_PLUGINS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/plugins");
const INCLUDE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/plugin/include");

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("modex-plugins-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Build `dir/name.c` into a `.so` in `out`; `None` (skipped, said so) without a compiler.
fn build(dir: &str, name: &str, out: &Path) -> Option<PathBuf> {
    let cc = c_compiler()?;
    let so = out.join(format!("{name}.so"));
    compile_plugin(
        &cc,
        Path::new(INCLUDE),
        &Path::new(dir).join(format!("{name}.c")),
        &so,
    );
    Some(so)
}

fn demo(args: &[&str], out: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_modex"))
        .args(["demo", "--headless", "--out"])
        .arg(out)
        .args(args)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap()
}

fn demo_ok(args: &[&str], out: &Path) -> (String, String) {
    let o = demo(args, out);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    );
    assert!(o.status.success(), "demo {args:?} failed:\n{stderr}");
    (stdout, stderr)
}

fn indexed(dir: &Path, n: usize) -> Vec<u8> {
    let bytes = std::fs::read(dir.join(format!("{n:05}.png"))).unwrap();
    modex::pngio::decode_indexed(&bytes)
        .unwrap()
        .0
        .into_pixels()
}

fn rgba(dir: &Path, n: usize) -> Vec<u8> {
    let bytes = std::fs::read(dir.join(format!("{n:05}.png"))).unwrap();
    modex::pngio::decode_rgba(&bytes).unwrap().2
}

fn so(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn differing(a: &[u8], b: &[u8]) -> usize {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).filter(|(x, y)| x != y).count()
}

#[test]
fn paint_screen_white_fills_the_frame_in_both_formats() {
    let work = scratch("white");
    let Some(lib) = build(EXAMPLES, "paint_screen_white", &work) else {
        return;
    };
    for plugin in [so(&lib), "builtin"] {
        let out = work.join(format!("8-{}", plugin.len()));
        let args = [
            "--frames",
            "2",
            "--plugin",
            plugin,
            "--each-frame",
            "PaintScreenWhite",
        ];
        demo_ok(&args, &out);
        for n in 0..2 {
            assert!(
                indexed(&out, n).iter().all(|&p| p == 255),
                "{plugin}: 8-bit frame {n}"
            );
        }
        let out = work.join(format!("8888-{}", plugin.len()));
        let mut args = args.to_vec();
        args.extend(["--path", "8888"]);
        demo_ok(&args, &out);
        assert!(
            rgba(&out, 1).iter().all(|&p| p == 255),
            "{plugin}: 8888 frame is white"
        );
    }
    std::fs::remove_dir_all(&work).ok();
}

/// Runs the demo without plugins and with the C example and its Rust twin; returns the three
/// folders (plain, C, Rust) after checking C and Rust wrote identical frames.
fn c_and_rust(
    name: &str,
    hook: &str,
    function: &str,
    frames: usize,
    work: &Path,
) -> Option<[PathBuf; 3]> {
    let lib = build(EXAMPLES, name, work)?;
    let n = frames.to_string();
    let plain = work.join("plain");
    demo_ok(&["--frames", &n], &plain);
    let c = work.join("c");
    let (c_out, _) = demo_ok(&["--frames", &n, "--plugin", so(&lib), hook, function], &c);
    let rust = work.join("rust");
    let (r_out, _) = demo_ok(
        &["--frames", &n, "--plugin", "builtin", hook, function],
        &rust,
    );
    for f in 0..frames {
        assert_eq!(
            indexed(&c, f),
            indexed(&rust, f),
            "{name}: C and Rust frame {f}"
        );
    }
    let tail = |s: &str| {
        s.lines()
            .last()
            .unwrap()
            .split_once(':')
            .unwrap()
            .1
            .to_string()
    };
    assert_eq!(tail(&c_out), tail(&r_out), "same plugin summary");
    Some([plain, c, rust])
}

#[test]
fn flip_upside_down_rolls_every_entity() {
    let work = scratch("flip");
    let Some([plain, c, _]) = c_and_rust(
        "flip_upside_down",
        "--each-entity",
        "FlipUpsideDown",
        2,
        &work,
    ) else {
        return;
    };
    // The terrain turned over shows its (culled) underside: most of the picture changes.
    let changed = differing(&indexed(&plain, 1), &indexed(&c, 1));
    assert!(changed > 360 * 240 / 4, "only {changed} pixels changed");
    std::fs::remove_dir_all(&work).ok();
}

#[test]
fn each_entity_changes_are_seen_by_the_plugin_and_my_is_set() {
    let work = scratch("roll");
    let Some(lib) = build(TEST_PLUGINS, "check_roll", &work) else {
        return;
    };
    let out = work.join("out");
    let (_, stderr) = demo_ok(
        &[
            "--frames",
            "2",
            "--plugin",
            so(&lib),
            "--each-entity",
            "Flip",
            "--each-frame",
            "Count",
        ],
        &out,
    );
    // The terrain, every prop and every unit, each rolled before the frame and still rolled after
    // it; `Flip` reported no call whose MY was not its entity (no other line).
    let assets = Assets::load(&data_dir()).unwrap();
    let world = World::new(1, assets.terrain.model.frames[0].positions.clone());
    let n = 1 + world.props.len() + world.units.len();
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("check_roll.so: "))
        .collect();
    let want = format!("check_roll.so: entities {n} rolled {n}");
    assert_eq!(lines, [want.as_str(); 2], "{stderr}");
    std::fs::remove_dir_all(&work).ok();
}

#[test]
fn zoom_in_narrows_the_camera_from_the_next_frame() {
    let work = scratch("zoom");
    let Some([plain, c, _]) = c_and_rust("zoom_in", "--each-frame", "ZoomIn", 3, &work) else {
        return;
    };
    // Called after drawing: frame 0 is as without the plugin, later frames are zoomed.
    assert_eq!(indexed(&plain, 0), indexed(&c, 0));
    assert!(differing(&indexed(&plain, 2), &indexed(&c, 2)) > 1000);
    std::fs::remove_dir_all(&work).ok();
}

#[test]
fn sparks_spawn_and_remove_short_lived_entities() {
    let work = scratch("sparks");
    let Some([plain, c, _]) = c_and_rust("sparks", "--each-frame", "Sparks", 4, &work) else {
        return;
    };
    // One spark per frame, each living two frames: after 4 frames 4 made, 2 removed, 2 alive.
    let (stdout, _) = demo_ok(
        &[
            "--frames",
            "4",
            "--plugin",
            "builtin",
            "--each-frame",
            "Sparks",
        ],
        &work.join("again"),
    );
    assert!(
        stdout.contains("4 entities created, 2 removed, 2 alive"),
        "{stdout}"
    );
    // Spawned models are drawn: frame 0 is plain, frame 1 shows the first spark.
    assert_eq!(indexed(&plain, 0), indexed(&c, 0));
    assert!(differing(&indexed(&plain, 1), &indexed(&c, 1)) > 0);
    std::fs::remove_dir_all(&work).ok();
}

#[test]
fn an_unknown_object_gives_zero_and_one_error_line() {
    let work = scratch("unknown");
    let Some(lib) = build(EXAMPLES, "ask_unknown", &work) else {
        return;
    };
    for (plugin, name) in [(so(&lib), "ask_unknown.so"), ("builtin", "builtin")] {
        let (_, stderr) = demo_ok(
            &[
                "--frames",
                "1",
                "--plugin",
                plugin,
                "--each-frame",
                "AskUnknown",
            ],
            &work.join(format!("out-{name}")),
        );
        assert_eq!(
            stderr.lines().collect::<Vec<_>>(),
            [
                format!("{name}: unknown object 'no_such_object'"),
                format!("{name}: ok: unknown object gave 0"),
            ],
        );
    }
    std::fs::remove_dir_all(&work).ok();
}

/// A load error: exit code 1 and exactly one line on stderr containing every `needle`.
fn refused(args: &[&str], needles: &[&str], work: &Path) {
    let o = demo(args, &work.join("never"));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{args:?}: {stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "one line: {stderr}");
    for n in needles {
        assert!(lines[0].contains(n), "{:?} lacks {n:?}", lines[0]);
    }
    assert!(!work.join("never").join("00000.png").exists());
}

#[test]
fn load_errors_exit_non_zero_with_one_line() {
    let work = scratch("errors");
    let Some(no_attach) = build(TEST_PLUGINS, "no_attach", &work) else {
        return;
    };
    let newer = build(TEST_PLUGINS, "newer_version", &work).unwrap();
    let zoom = build(EXAMPLES, "zoom_in", &work).unwrap();
    let missing = work.join("missing.so");
    refused(
        &["--plugin", so(&missing)],
        &["missing.so", "cannot load"],
        &work,
    );
    refused(
        &["--plugin", so(&no_attach)],
        &["no_attach.so", "a5dll_attach"],
        &work,
    );
    refused(
        &["--plugin", so(&newer)],
        &["newer_version.so", "101", "100"],
        &work,
    );
    refused(
        &["--plugin", so(&zoom), "--each-frame", "ZoomOut"],
        &["zoom_in.so", "'ZoomOut'"],
        &work,
    );
    refused(
        &["--plugin", so(&zoom), "--each-entity", "Nothing"],
        &["zoom_in.so", "'Nothing'"],
        &work,
    );
    std::fs::remove_dir_all(&work).ok();
}

/// `TRANSPARENT` with `alpha` 50 on the terrain mixes it over what is behind it (the sky and the
/// units it hid), through the palette's mixing table in 8-bit and per channel in 8888; `INVISIBLE`
/// hides it. Where the terrain overlaps itself (a hill in front of a slope) a translucent terrain
/// is mixed twice, as in every engine that does not sort triangles, so that share of pixels is
/// allowed to differ from the single mix.
#[test]
fn transparent_and_invisible_flags_are_drawn() {
    alpha_case("alpha_flags", "Ghost", "Vanish", 20_000, 99);
}

/// The same for the voxel units (the ray-marcher's translucency). Here 78-85 % of the pixels are the
/// single mix (measured): a tank's turret over its body and units over units are translucent
/// over translucent (mixed twice), and translucent limbs are always marched while the opaque frame
/// splats the small ones, which picks a different voxel's shade on about 1 % of pixels.
#[test]
fn transparent_and_invisible_units_are_drawn() {
    alpha_case("alpha_flags", "GhostUnits", "VanishUnits", 1_000, 75);
}

/// Run the demo's first frame plain, with `vanish` and with `ghost` (plugin `plugin`), in 8-bit
/// and 8888, and check the ghost frame is the half mix of the other two where they differ.
fn alpha_case(plugin: &str, ghost_fn: &str, vanish_fn: &str, min_pixels: usize, percent: usize) {
    use modex::{BlendTables, Opacity};
    let work = scratch(ghost_fn);
    let Some(lib) = build(TEST_PLUGINS, plugin, &work) else {
        return;
    };
    let palette = Assets::load(&data_dir()).unwrap().palette;
    let half = BlendTables::new(&palette);
    let half = half.table(Opacity::from_percent(50.0)).unwrap();
    for path in ["8", "8888"] {
        let run = |hook: Option<&str>| {
            let out = work.join(format!("{path}-{}", hook.unwrap_or("none")));
            // Drawn directly (no draw cache), so the opaque frame is exactly the direct draw
            // the translucent units (always drawn directly) mix over.
            let mut args = vec!["--frames", "1", "--path", path, "--cache-mib", "0"];
            if let Some(h) = hook {
                args.extend(["--plugin", so(&lib), "--each-entity", h]);
            }
            demo_ok(&args, &out);
            if path == "8" {
                indexed(&out, 0)
            } else {
                rgba(&out, 0)
            }
        };
        let (opaque, vanished, ghost) = (run(None), run(Some(vanish_fn)), run(Some(ghost_fn)));
        let bpp = if path == "8" { 1 } else { 4 };
        let px = |v: &[u8], i: usize| v[i * bpp..(i + 1) * bpp].to_vec();
        let (mut covered, mut mixed, mut same_elsewhere, mut elsewhere) = (0, 0, 0, 0);
        for i in 0..opaque.len() / bpp {
            let (o, v, g) = (px(&opaque, i), px(&vanished, i), px(&ghost, i));
            if o == v {
                elsewhere += 1;
                same_elsewhere += usize::from(g == o);
                continue;
            }
            covered += 1;
            let want: Vec<u8> = if bpp == 1 {
                vec![half.mix(o[0], v[0])]
            } else {
                (0..4)
                    .map(|c| (u32::from(o[c]) + u32::from(v[c])).div_ceil(2) as u8)
                    .collect()
            };
            let close = g.iter().zip(&want).all(|(a, b)| a.abs_diff(*b) <= 1);
            mixed += usize::from(close);
        }
        assert!(
            covered > min_pixels,
            "{path}: {ghost_fn}'s entities cover {covered} pixels"
        );
        assert!(
            mixed * 100 >= covered * percent,
            "{path}: {mixed} of {covered} pixels are the half mix of {ghost_fn}'s entities and background"
        );
        assert!(
            same_elsewhere * 1000 >= elsewhere * 995,
            "{path}: {same_elsewhere} of {elsewhere} pixels without {ghost_fn}'s entities unchanged"
        );
        eprintln!(
            "{path} {ghost_fn}: {mixed} of {covered} pixels mixed once, {same_elsewhere} of {elsewhere} others unchanged"
        );
    }
    std::fs::remove_dir_all(&work).ok();
}
