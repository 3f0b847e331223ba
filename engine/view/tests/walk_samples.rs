//! Every shared level walks (issue 40): from its start (or, without one, dropped above its first
//! placed entity or the middle of its blocks) a walker falls onto a floor of the level and stands there, then walks a square
//! (forward, then turning a quarter each side) without passing through the floor or leaving the
//! level's bounds, and the whole walk stays finite. The levels and their entity files are the
//! shared LotterShock samples (`wmb/lottershock`), read through `modex_testkit::samples_dir`.

use std::path::{Path, PathBuf};

use glam::Vec3;
use modex::Palette;
use modex_view::level::{name_key, Collider, EntityFiles, Level, Mode, Motion, Start, Walker};

/// The game's files by name, any case, anywhere below its root (what the binary's disk search
/// finds for these levels, which need no PATH).
struct Tree(Vec<PathBuf>);

impl Tree {
    fn new(root: &Path) -> Tree {
        let mut files = Vec::new();
        let mut dirs = vec![root.to_path_buf()];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    dirs.push(p);
                } else {
                    files.push(p);
                }
            }
        }
        files.sort();
        Tree(files)
    }

    fn path(&self, name: &str) -> Option<&PathBuf> {
        let key = name_key(name);
        self.0.iter().find(|p| {
            p.file_name()
                .is_some_and(|n| name_key(&n.to_string_lossy()) == key)
        })
    }
}

impl EntityFiles for Tree {
    fn find(&self, name: &str) -> Option<String> {
        self.path(name).map(|p| p.display().to_string())
    }
    fn root(&self) -> String {
        "the sample tree".into()
    }
    fn read(&self, name: &str) -> std::io::Result<Option<(String, Vec<u8>)>> {
        match self.path(name) {
            Some(p) => Ok(Some((p.display().to_string(), std::fs::read(p)?))),
            None => Ok(None),
        }
    }
    fn read_beside(&self, name: &str, _model: &str) -> Option<(String, Vec<u8>)> {
        let p = self.path(name)?;
        let bytes = std::fs::read(p).ok()?;
        Some((p.display().to_string(), bytes))
    }
}

fn motion(forward: f32, right: f32) -> Motion {
    Motion {
        forward,
        right,
        up: 0.0,
        run: false,
    }
}

#[test]
fn every_shared_level_is_walked_on_its_floor() {
    let Some(root) = modex_testkit::samples_dir("wmb/lottershock") else {
        return;
    };
    let tree = Tree::new(&root);
    let levels: Vec<&PathBuf> = tree
        .0
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("wmb")))
        .collect();
    assert!(levels.len() >= 4, "the shared levels: {levels:?}");
    let mut walked = 0;
    for path in levels {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let bytes = std::fs::read(path).unwrap();
        let level = Level::load(&name, &bytes, &tree, &Palette::quake()).unwrap();
        let world = Collider::of_level(&level);
        let Some((lo, hi)) = world.bounds() else {
            // Nothing solid to stand on (no blocks, no solid entity): nothing to walk.
            eprintln!("{name}: no solid geometry, not walked");
            continue;
        };
        if (hi - lo).truncate().min_element() < 256.0 {
            // testlevel_doors: its rooms are concept_01.mdl, which the shared tree lacks; what is
            // left is a keypad, too small to walk on.
            eprintln!("{name}: solid geometry {lo:?}..{hi:?} too small to walk, not walked");
            continue;
        }
        // Without a start: dropped from a little above the first placed entity (bestiary's
        // corridors and rooms), else above the middle of the blocks.
        let start = level.start().unwrap_or_else(|| {
            let above = match level.placed.first() {
                Some(p) => p.origin + Vec3::Z * 100.0,
                None => ((lo + hi) * 0.5).with_z(hi.z + 100.0),
            };
            Start {
                eye: above,
                pan: 0.0,
                tilt: 0.0,
            }
        });
        let mut w = Walker::at(&start, Mode::Walk);
        for _ in 0..240 {
            w.step(&world, motion(0.0, 0.0), 1.0 / 60.0);
        }
        assert!(
            w.on_ground(),
            "{name}: the walker stands on a floor ({:?})",
            w.feet
        );
        let floor = w.feet.z;
        let mut lowest = floor;
        for side in 0..4 {
            for _ in 0..90 {
                w.step(&world, motion(1.0, 0.0), 1.0 / 60.0);
                assert!(w.feet.is_finite(), "{name}: side {side}");
                lowest = lowest.min(w.feet.z);
            }
            w.pan += 90.0;
        }
        let slack = Vec3::splat(64.0);
        assert!(
            w.feet.cmpge(lo - slack).all() && w.feet.cmple(hi + slack).all(),
            "{name}: the walk stays within the level ({:?} not in {lo:?}..{hi:?})",
            w.feet
        );
        assert!(
            lowest >= lo.z - 1.0,
            "{name}: never below the level's lowest surface ({lowest} < {})",
            lo.z
        );
        eprintln!(
            "{name}: stood at z {floor:.1}, walked to {:?}, lowest {lowest:.1}",
            w.feet
        );
        walked += 1;
    }
    assert!(
        walked >= 3,
        "at least the levels with blocks or solid entities walk"
    );
}
