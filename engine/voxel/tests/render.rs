//! Renderer behaviour on models built in code: depth mixing with other renderers, perspective,
//! facing, turret and recoil, unlit layers, VPL pages.

use glam::Vec3;
use modex::{Argb8888, Camera, DepthBuffer, IndexedFrame, Palette, Pixel, Projection, Surface};
use modex_voxel::{
    draw, frame_scene, game_camera, world_bounds, DrawError, Instance, Pose, RenderOptions,
    Shading, Unit, VoxelModel,
};
use modex_vxl::encode::{HvaSpec, LimbSpec, VxlSpec};
use modex_vxl::{hva, vxl, Vpl};

fn model(limb: LimbSpec) -> VoxelModel {
    let v = vxl::decode(&VxlSpec::single(limb).encode()).unwrap();
    let h = hva::decode(&HvaSpec::identity(1, 1).encode()).unwrap();
    VoxelModel::new("m", v, Some(h)).unwrap()
}

fn draw_frame(
    scene: &[Instance<'_>],
    cam: &Camera,
    vpl: &Vpl,
    depth: &mut DepthBuffer,
) -> IndexedFrame {
    let mut f = IndexedFrame::new(cam.width, cam.height);
    modex_voxel::draw(scene, cam, vpl, &RenderOptions::default(), &mut f, depth).unwrap();
    f
}

fn covered(f: &IndexedFrame) -> usize {
    f.pixels().iter().filter(|&&p| p != 0).count()
}

#[test]
fn voxels_depth_test_against_what_is_already_in_the_buffer() {
    let m = model(LimbSpec::filled_box([8, 8, 8], 200, 0));
    let scene = [Instance {
        unit: Unit::single(&m),
        pose: Pose::default(),
    }];
    let cam = frame_scene(&scene, &game_camera(Vec3::ZERO, 50.0, 64, 64)).unwrap();
    let vpl = Vpl::identity(&Palette::grey_ramp());
    let mut open = DepthBuffer::new(64, 64);
    let full = draw_frame(&scene, &cam, &vpl, &mut open);
    assert!(covered(&full) > 500);
    // Depths written are view distances, as the triangle rasterizer writes them.
    let centre = cam.project(Vec3::new(0.0, 0.0, 4.0)).unwrap();
    let d = open.get(centre.x as usize, centre.y as usize).unwrap();
    assert!(
        d.is_finite() && d > 0.0 && d < centre.z + 1.0,
        "{d} vs {}",
        centre.z
    );

    // Something nearer (an MDL model, say) already covers the left half: voxels stay behind it.
    let mut depth = DepthBuffer::new(64, 64);
    for y in 0..64 {
        for x in 0..32 {
            depth.test_and_set(x, y, 0.5);
        }
    }
    let f = draw_frame(&scene, &cam, &vpl, &mut depth);
    for y in 0..64 {
        for x in 0..64 {
            let p = f.get(x, y).unwrap();
            if x < 32 {
                assert_eq!(p, 0, "({x},{y}) drawn over a nearer surface");
            } else {
                assert_eq!(p, full.get(x, y).unwrap());
            }
        }
    }
}

#[test]
fn perspective_and_orthographic_both_draw_the_unit() {
    let m = model(LimbSpec::filled_box([10, 6, 4], 200, 0));
    let scene = [Instance {
        unit: Unit::single(&m),
        pose: Pose::default(),
    }];
    let mut base = Camera::orbit(Vec3::ZERO, 50.0, 0.5, 0.5, 0.8, 80, 60);
    base.projection = Projection::Perspective { fov_y: 0.8 };
    let persp = frame_scene(&scene, &base).unwrap();
    let ortho = frame_scene(&scene, &game_camera(Vec3::ZERO, 50.0, 80, 60)).unwrap();
    let vpl = Vpl::identity(&Palette::grey_ramp());
    for cam in [persp, ortho] {
        let f = draw_frame(&scene, &cam, &vpl, &mut DepthBuffer::new(80, 60));
        let n = covered(&f);
        assert!(n > 400, "{:?}: {n} pixels", cam.projection);
        // The unit's centre pixel is covered.
        let c = cam.project(Vec3::new(0.0, 0.0, 2.0)).unwrap();
        assert_ne!(f.get(c.x as usize, c.y as usize), Some(0));
    }
    // A camera inside the unit's box still renders (the whole screen is marched), without panic.
    let mut inside = persp;
    inside.eye = Vec3::new(0.0, 0.0, 2.0);
    inside.target = Vec3::new(1.0, 0.0, 2.0);
    inside.near = 0.01;
    draw_frame(&scene, &inside, &vpl, &mut DepthBuffer::new(80, 60));
}

/// A5's tilt, roll and scale turn and stretch the whole unit about its origin, in its own axes
/// (front = +X): checked on the box the unit occupies, then on the picture.
#[test]
fn tilt_roll_and_scale_turn_the_whole_unit() {
    let body = model(LimbSpec::filled_box([12, 4, 2], 100, 0));
    let unit = Unit {
        body: Some(&body),
        turret: None,
        barrel: None,
    };
    // Facing 64 keeps the model's front on +X, so its axes are the world's.
    let pose = |tilt: f32, roll: f32, scale: Vec3| Pose {
        facing: 64.0,
        tilt,
        roll,
        scale,
        ..Pose::default()
    };
    let bounds = |p: Pose| {
        world_bounds(&[Instance { unit, pose: p }])
            .unwrap()
            .expect("the box is drawn")
    };
    let close = |a: Vec3, b: Vec3| (a - b).abs().max_element() < 1e-3;
    let (lo, hi) = bounds(pose(0.0, 0.0, Vec3::ONE));
    // Roll 180 about the front axis mirrors Y and Z.
    let (rlo, rhi) = bounds(pose(0.0, 180.0, Vec3::ONE));
    assert!(close(rlo, Vec3::new(lo.x, -hi.y, -hi.z)) && close(rhi, Vec3::new(hi.x, -lo.y, -lo.z)));
    // Tilt 90 (nose up) stands the front on +Z.
    let (tlo, thi) = bounds(pose(90.0, 0.0, Vec3::ONE));
    assert!(close(tlo, Vec3::new(-hi.z, lo.y, lo.x)) && close(thi, Vec3::new(-lo.z, hi.y, hi.x)));
    // Scale stretches each model axis about the origin.
    let s = Vec3::new(2.0, 1.0, 0.5);
    let (slo, shi) = bounds(pose(0.0, 0.0, s));
    assert!(close(slo, lo * s) && close(shi, hi * s));
    // And the picture follows; an upright unit is drawn exactly as before the fields existed.
    let cam = game_camera(Vec3::ZERO, 40.0, 96, 96);
    let vpl = Vpl::identity(&Palette::grey_ramp());
    let render = |p: Pose| {
        draw_frame(
            &[Instance { unit, pose: p }],
            &cam,
            &vpl,
            &mut DepthBuffer::new(96, 96),
        )
    };
    let upright = render(pose(0.0, 0.0, Vec3::ONE));
    assert_ne!(upright, render(pose(0.0, 0.0, s)));
    assert_ne!(upright, render(pose(30.0, 0.0, Vec3::ONE)));
    assert_eq!(upright, render(pose(0.0, 360.0, Vec3::ONE)));
}

#[test]
fn facing_turret_and_recoil_move_the_pieces() {
    let body = model(LimbSpec::filled_box([12, 4, 2], 100, 0));
    let barrel = model(LimbSpec::filled_box([10, 1, 1], 150, 0));
    let unit = Unit {
        body: Some(&body),
        turret: None,
        barrel: Some(&barrel),
    };
    let cam = game_camera(Vec3::ZERO, 40.0, 96, 96);
    let vpl = Vpl::identity(&Palette::grey_ramp());
    let render = |pose: Pose| {
        let scene = [Instance { unit, pose }];
        draw_frame(&scene, &cam, &vpl, &mut DepthBuffer::new(96, 96))
    };
    let base = render(Pose::default());
    let turned = render(Pose {
        facing: 64.0,
        ..Pose::default()
    });
    let turret = render(Pose {
        turret_facing: 64.0,
        ..Pose::default()
    });
    let recoil = render(Pose {
        recoil: 3.0,
        ..Pose::default()
    });
    assert_ne!(base, turned);
    assert_ne!(base, turret);
    assert_ne!(base, recoil);
    // Turning the turret moves only the barrel: body pixels (colour 100) stay where they were
    // unless the barrel now covers them.
    for (a, b) in base.pixels().iter().zip(turret.pixels()) {
        if *a == 100 {
            assert!(*b == 100 || *b == 150);
        }
    }
    // A full turn is the identity.
    assert_eq!(
        base,
        render(Pose {
            facing: 256.0,
            ..Pose::default()
        })
    );
}

#[test]
fn unlit_layers_and_shading_modes() {
    let mut limb = LimbSpec::filled_box([6, 6, 6], 120, 3);
    let lit = model(limb.clone());
    limb.normals_mode = 0;
    let unlit = model(limb);
    let cam = frame_scene(
        &[Instance {
            unit: Unit::single(&lit),
            pose: Pose::default(),
        }],
        &game_camera(Vec3::ZERO, 40.0, 48, 48),
    )
    .unwrap();
    // Pages that add 1 per page: page p maps colour c to c + p - 8.
    let pages: Vec<[u8; 256]> = (0..32u8)
        .map(|p| std::array::from_fn(|c| (c as u8).wrapping_add(p).wrapping_sub(8)))
        .collect();
    let mut bytes = Vec::new();
    for v in [16u32, 31, 32, 0] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    bytes.extend_from_slice(&Palette::grey_ramp().to_rgb_bytes());
    for p in &pages {
        bytes.extend_from_slice(p);
    }
    let vpl = modex_vxl::vpl::decode(&bytes).unwrap();
    let inst = |m| {
        [Instance {
            unit: Unit::single(m),
            pose: Pose::default(),
        }]
    };
    let f = draw_frame(&inst(&unlit), &cam, &vpl, &mut DepthBuffer::new(48, 48));
    assert!(
        f.pixels().iter().all(|&p| p == 0 || p == 120),
        "unlit = colour as stored"
    );
    let f = draw_frame(&inst(&lit), &cam, &vpl, &mut DepthBuffer::new(48, 48));
    assert!(
        f.pixels().iter().any(|&p| p != 0 && p != 120),
        "lit goes through the pages"
    );
    let opts = |shading| RenderOptions {
        shading,
        ..RenderOptions::default()
    };
    let depth = || DepthBuffer::new(48, 48);
    let mut f = IndexedFrame::new(48, 48);
    draw(
        &inst(&lit),
        &cam,
        &vpl,
        &opts(Shading::Unlit),
        &mut f,
        &mut depth(),
    )
    .unwrap();
    assert!(f.pixels().iter().all(|&p| p == 0 || p == 120));
    // True colour, game shading: each lit pixel is the palette colour of the 8-bit pixel (the
    // same page lookup), not the voxel's own colour.
    let lit_frame = draw_frame(&inst(&lit), &cam, &vpl, &mut depth());
    let true_colour = |shading| {
        let mut s = Surface::<Argb8888>::new(48, 48);
        draw(
            &inst(&lit),
            &cam,
            &vpl,
            &opts(shading),
            &mut s,
            &mut depth(),
        )
        .unwrap();
        s
    };
    let game = true_colour(Shading::Game);
    let mut paged = 0;
    for (p, &i) in game.pixels().iter().zip(lit_frame.pixels()) {
        if p.0 != 0 {
            let [r, g, b] = vpl.palette.colors[i as usize];
            assert_eq!(p.0, Argb8888::from_rgba([r, g, b, 255]).0, "index {i}");
            paged += usize::from(i != 120);
        }
    }
    assert!(paged > 0, "some pixels are off the identity page");
    // Free shading: lit pixels are the palette colour scaled by ambient + diffuse (0.6..1.0).
    let free = true_colour(Shading::Free);
    for p in free.pixels().iter().filter(|p| p.0 != 0) {
        let r = (p.0 >> 16) & 0xff;
        assert!((72..=120).contains(&r), "{r}");
    }
}

#[test]
fn mismatched_target_sizes_are_an_error_not_a_panic() {
    let m = model(LimbSpec::filled_box([2, 2, 2], 1, 0));
    let scene = [Instance {
        unit: Unit::single(&m),
        pose: Pose::default(),
    }];
    let cam = game_camera(Vec3::ZERO, 10.0, 32, 32);
    let mut f = IndexedFrame::new(32, 32);
    let e = draw(
        &scene,
        &cam,
        &Vpl::identity(&Palette::grey_ramp()),
        &RenderOptions::default(),
        &mut f,
        &mut DepthBuffer::new(16, 16),
    );
    assert_eq!(
        e,
        Err(DrawError::SizeMismatch(modex::SizeMismatch {
            camera: (32, 32),
            target: (32, 32),
            depth: (16, 16)
        }))
    );
    let mut s = Surface::<Argb8888>::new(32, 16);
    let e = draw(
        &scene,
        &cam,
        &Vpl::identity(&Palette::grey_ramp()),
        &RenderOptions::default(),
        &mut s,
        &mut DepthBuffer::new(32, 32),
    )
    .unwrap_err();
    assert!(e.to_string().contains("target 32x16"), "{e}");
}

/// What is asserted is that nothing panics, loops or aborts on non-finite, huge or degenerate
/// placements, bounds and poses (the renderer skips what it cannot place).
#[test]
fn hostile_transforms_and_bounds_never_panic() {
    let specials = [
        0.0,
        -0.0,
        1e-30,
        1e30,
        -1e38,
        f32::MAX,
        f32::INFINITY,
        f32::NAN,
        1.0,
        -7.5,
    ];
    let vpl = Vpl::identity(&Palette::grey_ramp());
    let mut k = 0usize;
    for &a in &specials {
        for &b in &specials {
            k += 1;
            let mut limb = LimbSpec::filled_box([3, 2, 4], 9, 200);
            limb.min = [a, -1.0, 0.0];
            limb.max = [b, 1.0, 4.0];
            limb.scale = if k % 3 == 0 { a } else { 1.0 / 12.0 };
            let v = vxl::decode(&VxlSpec::single(limb).encode()).unwrap();
            let mut h = HvaSpec::identity(1, 1);
            h.frames[0][0] = [a, b, 0.0, a, 0.0, 1.0, b, 0.0, 0.0, 0.0, 1.0, b];
            let h = hva::decode(&h.encode()).unwrap();
            let m = VoxelModel::new("hostile", v, Some(h)).unwrap();
            let scene = [Instance {
                unit: Unit::single(&m),
                pose: Pose {
                    facing: a,
                    recoil: b,
                    ..Pose::default()
                },
            }];
            for cam in [
                game_camera(Vec3::ZERO, 20.0, 24, 16),
                Camera::look_at(Vec3::new(0.0, -20.0, 5.0), Vec3::ZERO, 0.9, 24, 16),
            ] {
                let _ = draw_frame(&scene, &cam, &vpl, &mut DepthBuffer::new(24, 16));
                let _ = frame_scene(&scene, &cam);
                let mut s = Surface::<Argb8888>::new(24, 16);
                let _ = draw(
                    &scene,
                    &cam,
                    &vpl,
                    &RenderOptions::default(),
                    &mut s,
                    &mut DepthBuffer::new(24, 16),
                );
            }
        }
    }
}

#[test]
fn a_sun_direction_replaces_the_game_light() {
    // A box whose faces carry different normals from the mode-2 table (entries 0..36).
    let mut limb = LimbSpec::empty([8, 8, 8]);
    for x in 0..8u8 {
        for y in 0..8u8 {
            for z in 0..8u8 {
                limb.voxels.push((x, y, z, 200, (x + y * 3 + z * 5) % 36));
            }
        }
    }
    let m = model(limb);
    let scene = [Instance {
        unit: Unit::single(&m),
        pose: Pose::default(),
    }];
    let cam = frame_scene(&scene, &game_camera(Vec3::ZERO, 50.0, 64, 64)).unwrap();
    let vpl = Vpl::from_palette(&Palette::grey_ramp(), 32);
    let render = |sun: Option<Vec3>| {
        let mut f = IndexedFrame::new(64, 64);
        let opts = RenderOptions {
            sun,
            ..RenderOptions::default()
        };
        draw(
            &scene,
            &cam,
            &vpl,
            &opts,
            &mut f,
            &mut DepthBuffer::new(64, 64),
        )
        .unwrap();
        f
    };
    let game = render(None);
    let game_dir = modex_voxel::LightSource::Auto.direction(2);
    // The game's own direction given as a sun gives the game's picture.
    assert_eq!(render(Some(game_dir)), game);
    // Suns from opposite sides light the box differently; the covered pixels stay the same.
    let (east, west) = (render(Some(Vec3::X)), render(Some(-Vec3::X)));
    assert_ne!(east, west);
    let mask = |f: &IndexedFrame| f.pixels().iter().map(|&p| p != 0).collect::<Vec<_>>();
    assert_eq!(mask(&east), mask(&west));
}
