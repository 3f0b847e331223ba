//! Golden renders of real MDL7 samples (`shared/data/mdl/lottershock`): a skeletal model in an
//! animated frame with its external TGA skins, a several-group model with BMP/TGA skins, and an
//! embedded 888 skin with mipmaps. Skipped, saying so, when the samples are absent (failing under
//! `CI`), as every sample test.

use std::path::{Path, PathBuf};

use modex::{DepthBuffer, FileSource, IndexedFrame, Palette, Target};
use modex_mdl::mdl7::Mdl7File;
use modex_mdl::{Frame, Model};
use modex_raster::{Entity, Light, Renderer};
use modex_testkit::Golden;

/// (sample under `mdl/`, golden name, frame, yaw)
const SAMPLES: &[(&str, &str, f32, f32)] = &[
    (
        "lottershock/Assets/griechin.mdl",
        "mdl7-griechin-f120_8.png",
        120.0,
        60.0,
    ),
    (
        "lottershock/Assets/zorroLotti.mdl",
        "mdl7-zorrolotti-f30_8.png",
        30.0,
        60.0,
    ),
    (
        "lottershock/Assets/keycard.mdl",
        "mdl7-keycard_8.png",
        0.0,
        60.0,
    ),
];

fn render(path: &Path, frame: f32, yaw: f32) -> (IndexedFrame, Palette) {
    let mut file = Mdl7File::parse(&std::fs::read(path).unwrap()).unwrap();
    let folder = modex::DirSource::new(path.parent().unwrap());
    file.resolve_skins(&mut |n| folder.read(n).unwrap());
    let parts: Vec<Model> = file.parts().into_iter().map(|p| p.model).collect();
    let index = frame as usize;
    let positions: Vec<glam::Vec3> = parts
        .iter()
        .flat_map(|m| m.frames[index % m.frames.len()].positions.clone())
        .collect();
    let (lo, hi) = Frame::compute_bbox(&positions);
    let bounds = Model {
        frames: vec![Frame {
            name: String::new(),
            normals: vec![glam::Vec3::Z; positions.len()],
            positions,
            normal_indices: None,
            bbox_min: lo,
            bbox_max: hi,
        }],
        uvs: vec![],
        triangles: vec![],
        skins: vec![],
    };
    let (w, h) = (160, 120);
    let palette = Palette::quake();
    let mut renderer = Renderer::new(&palette);
    let camera = modex_raster::framing_camera(&bounds, 0, yaw, 20.0, w, h);
    renderer.light = Light::over_shoulder(&camera, 0.35, 1.3);
    let mut target = IndexedFrame::new(w, h);
    target.fill(IndexedFrame::flat([0, 0, 0], renderer.palette()));
    let mut depth = DepthBuffer::new(w, h);
    let entity = Entity {
        frame,
        ..Entity::default()
    };
    for m in &parts {
        let prepared = renderer.prepare(m);
        renderer
            .draw(&mut target, &mut depth, &camera, &prepared, &entity)
            .unwrap();
    }
    (target, palette)
}

#[test]
fn mdl7_sample_golden_renders() {
    let Some(dir) = modex_testkit::samples_dir("mdl") else {
        return;
    };
    let golden = Golden::new(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden"),
        "modex-raster",
    );
    for &(sample, name, frame, yaw) in SAMPLES {
        let (img, pal) = render(&dir.join(sample), frame, yaw);
        // Not a blank picture: the model covers a good part of the view.
        let drawn = img
            .pixels()
            .iter()
            .filter(|&&p| p != img.pixels()[0])
            .count();
        assert!(drawn > 500, "{sample}: only {drawn} pixels drawn");
        golden
            .check_indexed(name, &img, &pal)
            .unwrap_or_else(|e| panic!("{e}"));
    }
}

/// Every MDL7 file below `dir`, recursively.
fn mdl7_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            mdl7_files(&p, out);
        } else if std::fs::read(&p).is_ok_and(|b| modex_mdl::mdl7::sniff(&b)) {
            out.push(p);
        }
    }
}

#[test]
fn every_mdl7_sample_draws_in_its_first_middle_and_last_frame() {
    let Some(dir) = modex_testkit::samples_dir("mdl") else {
        return;
    };
    let mut files = Vec::new();
    mdl7_files(&dir, &mut files);
    files.sort();
    assert!(
        files.len() >= 26,
        "expected the MDL7 samples, found {}",
        files.len()
    );
    for path in &files {
        let file = Mdl7File::parse(&std::fs::read(path).unwrap()).unwrap();
        let last = file.frame_count().saturating_sub(1);
        for frame in [0, last / 2, last] {
            let (img, _) = render(path, frame as f32, 60.0);
            let drawn = img
                .pixels()
                .iter()
                .filter(|&&p| p != img.pixels()[0])
                .count();
            // Thin models (a trident, a trail, a flat tile) cover little of the view, but
            // every one covers some.
            assert!(
                drawn > 50,
                "{}: frame {frame}: {drawn} pixels",
                path.display()
            );
        }
    }
}
