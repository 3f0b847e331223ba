//! Golden renders of a skinned two-bone MDL7 model (`modex_testkit::mdl7::bent_bar`) in its rest
//! pose, bent, and half way: the pose step's skinning drawn by the rasterizer.

use std::path::PathBuf;

use glam::Vec3;
use modex::{DepthBuffer, IndexedFrame, Palette, Target};
use modex_mdl::mdl7::Mdl7File;
use modex_raster::{framing_camera, Entity, Light, Renderer};
use modex_testkit::mdl7::bent_bar;
use modex_testkit::Golden;

fn render_frame(file: &Mdl7File, frame: f32) -> (IndexedFrame, Palette) {
    let (w, h) = (160, 120);
    let palette = Palette::quake();
    let mut renderer = Renderer::new(&palette);
    let parts = file.parts();
    // Frame the inner half's rest pose, moved to the joint.
    let rest = &parts[0].model;
    let camera = framing_camera(rest, 0, 60.0, 30.0, w, h);
    let mut camera = camera;
    // Centre on the joint, far enough out for the bent half.
    let shift = Vec3::new(40.0, 0.0, 0.0) - camera.target;
    camera.target += shift;
    camera.eye = camera.target + (camera.eye + shift - camera.target) * 1.8;
    renderer.light = Light::over_shoulder(&camera, 0.35, 1.3);
    let mut target = IndexedFrame::new(w, h);
    target.fill(IndexedFrame::flat([0, 0, 0], renderer.palette()));
    let mut depth = DepthBuffer::new(w, h);
    let entity = Entity {
        frame,
        ..Entity::default()
    };
    for p in &parts {
        let prepared = renderer.prepare(&p.model);
        renderer
            .draw(&mut target, &mut depth, &camera, &prepared, &entity)
            .unwrap();
    }
    (target, palette)
}

#[test]
fn bent_bar_golden_renders() {
    let file = Mdl7File::parse(&bent_bar()).unwrap();
    assert_eq!(file.parts().len(), 2);
    let golden = Golden::new(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden"),
        "modex-raster",
    );
    for (name, frame) in [
        ("mdl7-bar-rest_8.png", 0.0),
        ("mdl7-bar-bent_8.png", 1.0),
        ("mdl7-bar-half_8.png", 0.5),
    ] {
        let (img, pal) = render_frame(&file, frame);
        golden
            .check_indexed(name, &img, &pal)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    // The bend moves the outer bar's far end off the X axis: by 40 sin 60 in y.
    let pose = modex_mdl::mdl7::pose_group(&file, 1, Some(1));
    let far = pose.positions[4];
    let (sin, cos) = 60f32.to_radians().sin_cos();
    let want = Vec3::new(40.0 + 40.0 * cos + 5.0 * sin, 40.0 * sin - 5.0 * cos, -5.0);
    assert!(far.distance(want) < 1e-3, "{far} vs {want}");
}
