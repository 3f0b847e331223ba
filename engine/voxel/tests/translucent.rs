//! Per-unit translucency ([`Pose::alpha`]): a translucent unit is depth-tested, writes no depth,
//! mixes over the frame (8-bit through the palette's blend table, true colour channel by
//! channel), is drawn after every opaque unit whatever the scene order, translucent ones far to
//! near; an invisible one draws nothing; opaque drawing is unchanged.

use glam::Vec3;
use modex::blend::mix_channel;
use modex::{
    Argb4444, Argb8888, BlendTables, Camera, DepthBuffer, IndexedFrame, Opacity, Palette, Pixel,
    Rgb565, Surface, Target,
};
use modex_voxel::{
    draw, frame_scene, game_camera, Instance, Pose, RenderOptions, Unit, VoxelModel, VoxelPixel,
};
use modex_vxl::encode::{HvaSpec, LimbSpec, VxlSpec};
use modex_vxl::{hva, vxl, Vpl};

fn model(colour: u8) -> VoxelModel {
    let v =
        vxl::decode(&VxlSpec::single(LimbSpec::filled_box([8, 8, 8], colour, 0)).encode()).unwrap();
    let h = hva::decode(&HvaSpec::identity(1, 1).encode()).unwrap();
    VoxelModel::new("m", v, Some(h)).unwrap()
}

/// A target format under test: how to make one and how the expected mix is computed.
trait Format: Target<Px: VoxelPixel + PartialEq + std::fmt::Debug> {
    fn blank(w: usize, h: usize) -> Self;
    fn expected_mix(src: Self::Px, dst: Self::Px, alpha: Opacity, tables: &BlendTables)
        -> Self::Px;
}

impl Format for IndexedFrame {
    fn blank(w: usize, h: usize) -> Self {
        IndexedFrame::new(w, h)
    }
    fn expected_mix(src: u8, dst: u8, alpha: Opacity, tables: &BlendTables) -> u8 {
        tables.table(alpha).unwrap().mix(src, dst)
    }
}

macro_rules! surface_format {
    ($($p:ty),*) => {$(
        impl Format for Surface<$p> {
            fn blank(w: usize, h: usize) -> Self {
                Surface::<$p>::new(w, h)
            }
            fn expected_mix(src: $p, dst: $p, alpha: Opacity, _: &BlendTables) -> $p {
                let (s, d) = (src.to_rgba(), dst.to_rgba());
                <$p>::from_rgba(std::array::from_fn(|c| {
                    mix_channel(u32::from(s[c]), u32::from(d[c]), alpha.weight256()) as u8
                }))
            }
        }
    )*};
}
surface_format!(Rgb565, Argb4444, Argb8888);

struct Drawn<T: Target> {
    frame: T,
    depth: DepthBuffer,
}

fn render<T: Format>(scene: &[Instance<'_>], cam: &Camera, vpl: &Vpl, parallel: bool) -> Drawn<T> {
    let mut frame = T::blank(cam.width, cam.height);
    let mut depth = DepthBuffer::new(cam.width, cam.height);
    let opts = RenderOptions {
        parallel,
        ..RenderOptions::default()
    };
    draw(scene, cam, vpl, &opts, &mut frame, &mut depth).unwrap();
    Drawn { frame, depth }
}

fn at(position: Vec3, alpha: Opacity) -> Pose {
    Pose {
        position,
        alpha,
        ..Pose::default()
    }
}

/// The camera and, in world units, a step towards it and one to the side of it, so units can be
/// placed in front of and beside each other.
fn setup(scene: &[Instance<'_>]) -> (Camera, Vec3, Vec3) {
    let cam = frame_scene(scene, &game_camera(Vec3::ZERO, 80.0, 96, 96)).unwrap();
    let towards = (cam.eye - cam.target).normalize();
    let side = towards.cross(Vec3::Z).normalize();
    (cam, towards, side)
}

/// Translucent `front` over opaque `back`: every pixel is the back's where the front is not in
/// front of it, else the mix of the front's own pixel over it; the depth is the back's alone.
fn check_mix_over_opaque<T: Format>(alpha: Opacity) {
    let (a, b) = (model(200), model(60));
    let probe = [Instance {
        unit: Unit::single(&a),
        pose: Pose::default(),
    }];
    let (_, towards, side) = setup(&probe);
    let back_pose = at(Vec3::ZERO, Opacity::OPAQUE);
    // In front of the back unit and shifted sideways, so some of it covers the back unit, some
    // covers nothing, and some of the back unit is left uncovered.
    let front_pos = towards * 30.0 + side * 3.0;
    let both = [
        // The translucent unit first: it must still be drawn after the opaque one.
        Instance {
            unit: Unit::single(&b),
            pose: at(front_pos, alpha),
        },
        Instance {
            unit: Unit::single(&a),
            pose: back_pose,
        },
    ];
    let (cam, _, _) = setup(&both);
    let vpl = Vpl::identity(&Palette::grey_ramp());
    let tables = BlendTables::new(&vpl.palette);
    let back = render::<T>(&both[1..], &cam, &vpl, false);
    let front = render::<T>(
        &[Instance {
            pose: at(front_pos, Opacity::OPAQUE),
            ..both[0]
        }],
        &cam,
        &vpl,
        false,
    );
    for parallel in [false, true] {
        let got = render::<T>(&both, &cam, &vpl, parallel);
        assert_eq!(
            got.depth.values(),
            back.depth.values(),
            "a translucent unit wrote depth"
        );
        let (mut mixed, mut over_empty, mut untouched) = (0, 0, 0);
        for i in 0..cam.width * cam.height {
            let (fd, bd) = (front.depth.values()[i], back.depth.values()[i]);
            let (fp, bp) = (front.frame.pixels()[i], back.frame.pixels()[i]);
            let want = if fd < bd {
                if bd.is_finite() {
                    mixed += 1;
                } else {
                    over_empty += 1;
                }
                T::expected_mix(fp, bp, alpha, &tables)
            } else {
                untouched += usize::from(bd.is_finite());
                bp
            };
            assert_eq!(
                got.frame.pixels()[i],
                want,
                "pixel {i}, parallel {parallel}"
            );
        }
        assert!(
            mixed > 50 && over_empty > 50 && untouched > 50,
            "the scene must exercise every case: {mixed} mixed over the unit, {over_empty} over \
             nothing, {untouched} of the back unit uncovered"
        );
    }

    // Behind the opaque unit it only shows where the opaque one does not cover it.
    let behind = [
        Instance {
            unit: Unit::single(&a),
            pose: back_pose,
        },
        Instance {
            unit: Unit::single(&b),
            pose: at(-front_pos, alpha),
        },
    ];
    let back2 = render::<T>(&behind[..1], &cam, &vpl, false);
    let hidden = render::<T>(
        &[Instance {
            pose: at(-front_pos, Opacity::OPAQUE),
            ..behind[1]
        }],
        &cam,
        &vpl,
        false,
    );
    let got = render::<T>(&behind, &cam, &vpl, true);
    let mut blocked = 0;
    for i in 0..cam.width * cam.height {
        let (hd, bd) = (hidden.depth.values()[i], back2.depth.values()[i]);
        let bp = back2.frame.pixels()[i];
        let want = if hd < bd {
            T::expected_mix(hidden.frame.pixels()[i], bp, alpha, &tables)
        } else {
            blocked += usize::from(hd.is_finite());
            bp
        };
        assert_eq!(got.frame.pixels()[i], want, "behind, pixel {i}");
    }
    assert!(blocked > 50, "only {blocked} pixels of the far unit hidden");
}

#[test]
fn translucent_units_mix_over_opaque_ones_in_8_bit() {
    for percent in [25.0, 50.0, 87.5] {
        check_mix_over_opaque::<IndexedFrame>(Opacity::from_percent(percent));
    }
}

#[test]
fn translucent_units_mix_over_opaque_ones_in_true_colour() {
    let half = Opacity::from_percent(50.0);
    check_mix_over_opaque::<Surface<Argb8888>>(half);
    check_mix_over_opaque::<Surface<Rgb565>>(half);
    check_mix_over_opaque::<Surface<Argb4444>>(half);
    check_mix_over_opaque::<Surface<Argb8888>>(Opacity::from_percent(12.5));
}

/// Two translucent units in a line: the far one mixes first, whatever the scene order.
fn check_far_to_near<T: Format>() {
    let (a, b, c) = (model(200), model(60), model(120));
    let probe = [Instance {
        unit: Unit::single(&a),
        pose: Pose::default(),
    }];
    let (_, towards, _) = setup(&probe);
    let (half, quarter) = (Opacity::from_percent(50.0), Opacity::from_percent(25.0));
    let (near, far) = (towards * 60.0, towards * 30.0);
    let scene = [
        Instance {
            unit: Unit::single(&c),
            pose: at(near, quarter),
        },
        Instance {
            unit: Unit::single(&b),
            pose: at(far, half),
        },
        Instance {
            unit: Unit::single(&a),
            pose: Pose::default(),
        },
    ];
    let (cam, _, _) = setup(&scene);
    let vpl = Vpl::identity(&Palette::grey_ramp());
    let tables = BlendTables::new(&vpl.palette);
    let alone = |i: usize| {
        render::<T>(
            &[Instance {
                pose: Pose {
                    alpha: Opacity::OPAQUE,
                    ..scene[i].pose
                },
                ..scene[i]
            }],
            &cam,
            &vpl,
            false,
        )
    };
    let (cn, bf, base) = (alone(0), alone(1), alone(2));
    let got = render::<T>(&scene, &cam, &vpl, true);
    let mut both = 0;
    for i in 0..cam.width * cam.height {
        let bd = base.depth.values()[i];
        let mut want = base.frame.pixels()[i];
        if bf.depth.values()[i] < bd {
            want = T::expected_mix(bf.frame.pixels()[i], want, half, &tables);
        }
        if cn.depth.values()[i] < bd {
            both += usize::from(bf.depth.values()[i] < bd && bd.is_finite());
            want = T::expected_mix(cn.frame.pixels()[i], want, quarter, &tables);
        }
        assert_eq!(got.frame.pixels()[i], want, "pixel {i}");
    }
    assert!(both > 50, "only {both} pixels where both mix over the unit");
}

#[test]
fn translucent_units_mix_far_to_near() {
    check_far_to_near::<IndexedFrame>();
    check_far_to_near::<Surface<Argb8888>>();
}

#[test]
fn invisible_units_draw_nothing_and_opaque_ones_are_unchanged() {
    let (a, b) = (model(200), model(60));
    let probe = [Instance {
        unit: Unit::single(&a),
        pose: Pose::default(),
    }];
    let (_, towards, side) = setup(&probe);
    let pos = towards * 30.0 + side * 3.0;
    let scene = |alpha| {
        [
            Instance {
                unit: Unit::single(&a),
                pose: Pose::default(),
            },
            Instance {
                unit: Unit::single(&b),
                pose: at(pos, alpha),
            },
        ]
    };
    let (cam, _, _) = setup(&scene(Opacity::OPAQUE));
    let vpl = Vpl::identity(&Palette::grey_ramp());
    let only_a = render::<IndexedFrame>(&scene(Opacity::OPAQUE)[..1], &cam, &vpl, true);
    let invisible = render::<IndexedFrame>(&scene(Opacity::from_percent(0.0)), &cam, &vpl, true);
    assert_eq!(invisible.frame.pixels(), only_a.frame.pixels());
    assert_eq!(invisible.depth.values(), only_a.depth.values());
    // Opaque is the default, and drawing it explicitly is drawing it as before: both units
    // depth-tested and writing depth, the nearer one in front.
    assert_eq!(Pose::default().alpha, Opacity::OPAQUE);
    let opaque = render::<IndexedFrame>(&scene(Opacity::OPAQUE), &cam, &vpl, true);
    let b_only = render::<IndexedFrame>(&scene(Opacity::OPAQUE)[1..], &cam, &vpl, true);
    for i in 0..cam.width * cam.height {
        let (ad, bd) = (only_a.depth.values()[i], b_only.depth.values()[i]);
        let (want_px, want_d) = if bd < ad {
            (b_only.frame.pixels()[i], bd)
        } else {
            (only_a.frame.pixels()[i], ad)
        };
        assert_eq!(opaque.frame.pixels()[i], want_px);
        assert_eq!(opaque.depth.values()[i].to_bits(), want_d.to_bits());
    }
}
