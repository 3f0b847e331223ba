//! One test per loading rule of `vxl-hva.txt`, on tiny models built in code by `modex-vxl`'s writer.

use glam::{Vec3, Vec4};
use modex::{Camera, DepthBuffer, FileSource, IndexedFrame, MemorySource, OpenedFile, Palette};
use modex_voxel::{
    draw, lighting_for, DrawError, Instance, LoadProblem, NoFrames, Piece, Pose, Quirk,
    RenderOptions, TypeKind, Unit, VoxelModel, VoxelSet, VoxelType,
};
use modex_vxl::encode::{translation, HvaSpec, LimbSpec, VxlSpec};
use modex_vxl::{hva, vpl, vxl, Vpl};

fn cube_vxl() -> Vec<u8> {
    VxlSpec::single(LimbSpec::filled_box([2, 2, 2], 20, 0)).encode()
}

fn hva1() -> Vec<u8> {
    HvaSpec::identity(1, 1).encode()
}

/// A source holding a complete pair for each name.
fn source_with(names: &[&str]) -> MemorySource {
    let mut s = MemorySource::new();
    for n in names {
        s.insert(&format!("{n}.vxl"), cube_vxl());
        s.insert(&format!("{n}.hva"), hva1());
    }
    s
}

fn model(spec: VxlSpec, h: HvaSpec) -> VoxelModel {
    VoxelModel::new(
        "t",
        vxl::decode(&spec.encode()).unwrap(),
        Some(hva::decode(&h.encode()).unwrap()),
    )
    .unwrap()
}

// --- Which pieces a type looks for -------------------------------------------------------------

#[test]
fn body_is_always_looked_for() {
    for kind in [
        TypeKind::Vehicle,
        TypeKind::Aircraft,
        TypeKind::Infantry,
        TypeKind::Structure,
        TypeKind::Projectile,
    ] {
        let p = VoxelSet::pieces_for(&VoxelType::new("X", kind, false));
        assert_eq!(p[0], Piece::Body, "{kind:?}");
    }
}

#[test]
fn vehicle_without_turret_looks_for_body_only() {
    let t = VoxelType::new("HMEC", TypeKind::Vehicle, false);
    assert_eq!(VoxelSet::pieces_for(&t), vec![Piece::Body]);
    // Not by the files present: a TUR/BARL pair beside it is not loaded.
    let set = VoxelSet::load(&t, &source_with(&["HMEC", "HMECTUR", "HMECBARL"]));
    assert!(set.body.is_some() && set.turret.is_none() && set.barrel.is_none());
    assert_eq!(set.looked_for, vec!["HMEC"]);
}

#[test]
fn vehicle_with_turret_looks_for_tur_and_barl() {
    let t = VoxelType::new("MTNK", TypeKind::Vehicle, true);
    assert_eq!(
        VoxelSet::pieces_for(&t),
        vec![Piece::Body, Piece::Turret, Piece::Barrel]
    );
    let set = VoxelSet::load(&t, &source_with(&["MTNK", "MTNKTUR", "MTNKBARL"]));
    assert!(set.body.is_some() && set.turret.is_some() && set.barrel.is_some());
    assert!(set.failure.is_none());
}

#[test]
fn non_vehicles_look_for_turret_and_barrel_whatever_their_turret_setting() {
    for kind in [
        TypeKind::Aircraft,
        TypeKind::Infantry,
        TypeKind::Structure,
        TypeKind::Projectile,
    ] {
        let t = VoxelType::new("ORCA", kind, false);
        assert_eq!(
            VoxelSet::pieces_for(&t),
            vec![Piece::Body, Piece::Turret, Piece::Barrel],
            "{kind:?}"
        );
        // Absent optional pieces are fine.
        let set = VoxelSet::load(&t, &source_with(&["ORCA"]));
        assert!(set.body.is_some() && set.failure.is_none());
        assert_eq!(set.looked_for, vec!["ORCA", "ORCATUR", "ORCABARL"]);
    }
}

#[test]
fn w_model_only_for_a_turretless_vehicle_section_named_exactly_apc() {
    let apc = VoxelType::new("APC", TypeKind::Vehicle, false);
    assert_eq!(VoxelSet::pieces_for(&apc), vec![Piece::Body, Piece::W]);
    let set = VoxelSet::load(&apc, &source_with(&["APC", "APCW"]));
    assert!(set.w.is_some());
    // Not for "apc2", a turreted APC, or a non-vehicle named APC.
    for t in [
        VoxelType::new("APC2", TypeKind::Vehicle, false),
        VoxelType::new("APC", TypeKind::Vehicle, true),
        VoxelType::new("APC", TypeKind::Aircraft, false),
    ] {
        assert!(!VoxelSet::pieces_for(&t).contains(&Piece::W), "{t:?}");
    }
    // The section name decides, not the image.
    let mut t = VoxelType::new("APC", TypeKind::Vehicle, false);
    t.image_id = "LPST".into();
    assert!(VoxelSet::pieces_for(&t).contains(&Piece::W));
    let set = VoxelSet::load(&t, &source_with(&["LPST", "LPSTW"]));
    assert_eq!(set.looked_for, vec!["LPST", "LPSTW"]);
    assert!(set.w.is_some());
}

// --- A piece loads only when its VXL exists, and then needs its HVA ------------------------------

#[test]
fn piece_without_vxl_is_simply_absent() {
    let t = VoxelType::new("MTNK", TypeKind::Vehicle, true);
    let mut s = source_with(&["MTNK"]);
    s.insert("MTNKTUR.hva", hva1()); // an HVA alone does not make a piece
    let set = VoxelSet::load(&t, &s);
    assert!(set.failure.is_none());
    assert!(set.body.is_some() && set.turret.is_none());
}

#[test]
fn present_vxl_without_hva_fails_the_set() {
    let t = VoxelType::new("MTNK", TypeKind::Vehicle, true);
    let mut s = source_with(&["MTNK", "MTNKBARL"]);
    s.insert("MTNKTUR.vxl", cube_vxl());
    let set = VoxelSet::load(&t, &s);
    assert_eq!(
        set.failure,
        Some(LoadProblem::HvaMissing {
            name: "MTNKTUR".into()
        })
    );
    assert!(set.body.is_none() && set.turret.is_none());
    assert!(set.barrel.is_some(), "a loaded barrel is kept");
}

// --- When a set fails ----------------------------------------------------------------------------

#[test]
fn missing_body_fails_the_set_and_keeps_the_barrel() {
    let t = VoxelType::new("MTNK", TypeKind::Vehicle, true);
    let set = VoxelSet::load(&t, &source_with(&["MTNKTUR", "MTNKBARL"]));
    assert_eq!(
        set.failure,
        Some(LoadProblem::BodyMissing {
            name: "MTNK".into()
        })
    );
    assert!(set.body.is_none() && set.turret.is_none());
    assert!(set.barrel.is_some());
}

#[test]
fn file_that_cannot_be_read_in_full_fails_the_set() {
    let t = VoxelType::new("APC", TypeKind::Vehicle, false);
    let mut s = source_with(&["APC"]);
    let w = cube_vxl();
    s.insert("APCW.vxl", w[..w.len() - 10].to_vec());
    s.insert("APCW.hva", hva1());
    let set = VoxelSet::load(&t, &s);
    assert!(
        matches!(set.failure, Some(LoadProblem::Invalid { ref file, .. }) if file == "APCW.VXL")
    );
    assert!(set.body.is_none() && set.w.is_none());

    // A truncated HVA too.
    let mut s = source_with(&["APC"]);
    let h = hva1();
    s.insert("APC.hva", h[..h.len() - 1].to_vec());
    let set = VoxelSet::load(&t, &s);
    assert!(
        matches!(set.failure, Some(LoadProblem::Invalid { ref file, .. }) if file == "APC.HVA")
    );
    assert!(set.body.is_none());
}

#[test]
fn failed_set_drops_body_turret_and_w_but_keeps_barrel() {
    // Everything present except the turret's HVA: body and turret go, the barrel stays.
    let t = VoxelType::new("ORCA", TypeKind::Aircraft, false);
    let mut s = source_with(&["ORCA", "ORCABARL"]);
    s.insert("ORCATUR.vxl", cube_vxl());
    let set = VoxelSet::load(&t, &s);
    assert!(set.failure.is_some());
    assert!(set.body.is_none() && set.turret.is_none() && set.w.is_none());
    assert!(set.barrel.is_some());
    let u = set.unit();
    assert!(u.body.is_none() && u.barrel.is_some());
}

// --- Other objects -------------------------------------------------------------------------------

#[test]
fn shape_vehicle_draws_only_the_barrel_and_failures_stay_local() {
    let mut s = source_with(&["TANKBARL"]);
    s.insert("TANKTUR.vxl", cube_vxl()); // turret without HVA: fails alone
    let set = VoxelSet::load_shape_vehicle("TANK", &s);
    assert!(set.barrel.is_some());
    assert!(set.turret.is_none());
    assert_eq!(set.problems.len(), 1);
    assert!(set.failure.is_none());
    let full = VoxelSet::load_shape_vehicle("TANK", &source_with(&["TANKTUR", "TANKBARL"]));
    assert!(full.turret.is_some());
    let u = full.unit();
    assert!(u.turret.is_none() && u.barrel.is_some() && u.body.is_none());
}

#[test]
fn structure_loads_turret_and_barrel_under_given_names() {
    let s = source_with(&["GTGCANTUR", "GTGCANBARL"]);
    let set = VoxelSet::load_structure(Some("GTGCANTUR"), Some("GTGCANBARL"), &s);
    assert!(set.turret.is_some() && set.barrel.is_some() && set.body.is_none());
    let set = VoxelSet::load_structure(None, Some("GTGCANBARL"), &s);
    assert!(set.turret.is_none() && set.barrel.is_some());
}

#[test]
fn voxel_animation_loads_a_vxl_without_motion_file() {
    let mut s = MemorySource::new();
    s.insert("DEBRIS.vxl", cube_vxl());
    let set = VoxelSet::load_animation("DEBRIS", &s);
    let body = set.body.as_ref().unwrap();
    assert!(body.hva.is_none());
    assert_eq!(body.frame_count(), 1);
    assert!(body.limb_matrix(0, 5).unwrap().is_some());
}

#[test]
fn dpod_loads_under_its_fixed_name() {
    assert!(VoxelSet::load_dpod(&source_with(&["DPOD"])).is_some());
    assert!(VoxelSet::load_dpod(&source_with(&["POD"])).is_none());
}

// --- A unit the user opened ----------------------------------------------------------------------

#[test]
fn opened_unit_takes_the_given_body_bytes_and_its_pieces_from_the_folder() {
    let mut s = source_with(&["TANKBARL"]);
    s.insert("tank.hva", hva1());
    s.insert("TANKTUR.vxl", cube_vxl()); // without its HVA: reported, the rest still loads
    let set = VoxelSet::load_unit_from("TANK", &cube_vxl(), &s).unwrap();
    assert!(set.body.is_some() && set.turret.is_none() && set.barrel.is_some());
    assert_eq!(set.looked_for, vec!["TANK", "TANKTUR", "TANKBARL"]);
    assert_eq!(
        set.problems,
        vec![LoadProblem::HvaMissing {
            name: "TANKTUR".into()
        }]
    );
    // The body's own HVA is required, and its bytes must decode.
    assert_eq!(
        VoxelSet::load_unit_from("X", &cube_vxl(), &MemorySource::new()).unwrap_err(),
        LoadProblem::HvaMissing { name: "X".into() }
    );
    let e = VoxelSet::load_unit_from("TANK", b"Voxel Animation\0", &s).unwrap_err();
    assert!(
        matches!(e, LoadProblem::Invalid { ref file, .. } if file == "TANK.VXL"),
        "{e}"
    );
}

#[test]
fn opened_file_is_not_read_again() {
    // The bytes in hand are the body, whatever the disk holds (here: nothing at that path).
    let dir = std::env::temp_dir().join(format!("modex-voxel-opened-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("UNIT.HVA"), hva1()).unwrap();
    let file = OpenedFile::from_bytes(dir.join("unit.vxl"), cube_vxl());
    let set = VoxelSet::load_file(&file).unwrap();
    assert_eq!(set.body.as_ref().unwrap().name, "unit");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Files that exist but cannot be read.
struct Unreadable;

impl FileSource for Unreadable {
    fn read(&self, _: &str) -> std::io::Result<Option<Vec<u8>>> {
        Err(std::io::ErrorKind::PermissionDenied.into())
    }
}

#[test]
fn a_file_that_exists_but_cannot_be_read_fails_the_set() {
    let set = VoxelSet::load(
        &VoxelType::new("HMEC", TypeKind::Vehicle, false),
        &Unreadable,
    );
    assert_eq!(
        set.failure,
        Some(LoadProblem::Unreadable {
            file: "HMEC.VXL".into(),
            kind: std::io::ErrorKind::PermissionDenied
        })
    );
}

// --- Which lighting pages shade a model shown on its own -------------------------------------

/// A VPL of `pages` identity pages over a grey ramp whose colour 1 is `colour_1`.
fn vpl_bytes(pages: u32, colour_1: [u8; 3]) -> Vec<u8> {
    let mut out = Vec::new();
    for v in [16u32, 31, pages, 0] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    let mut pal = Palette::grey_ramp().to_rgb_bytes();
    pal[3..6].copy_from_slice(&colour_1);
    out.extend_from_slice(&pal);
    for _ in 0..pages {
        out.extend((0..=255u8).collect::<Vec<_>>());
    }
    out
}

#[test]
fn lighting_comes_from_the_given_file_then_the_folder_then_the_models_palette() {
    let mut folder = MemorySource::new();
    folder.insert("T.hva", hva1());
    // The model's own palette (colour 1 made recognisable), made into the game's 32 pages.
    let mut vxl_bytes = cube_vxl();
    vxl_bytes[32 + 2 + 3..32 + 2 + 6].copy_from_slice(&[200, 0, 0]);
    let set = VoxelSet::load_unit_from("T", &vxl_bytes, &folder).unwrap();
    let v = lighting_for(&set, None, &folder).unwrap();
    assert_eq!((v.palette.colors[1], v.page_count()), ([200, 0, 0], 32));
    // voxels.vpl in the folder (any case) comes first.
    folder.insert("VOXELS.VPL", vpl_bytes(2, [0, 200, 0]));
    let v = lighting_for(&set, None, &folder).unwrap();
    assert_eq!((v.palette.colors[1], v.page_count()), ([0, 200, 0], 2));
    // Lighting the user gave (read by the frontend's palette rule) comes before both.
    let given = vpl::decode(&vpl_bytes(3, [0, 0, 200])).unwrap();
    let v = lighting_for(&set, Some(given), &folder).unwrap();
    assert_eq!((v.palette.colors[1], v.page_count()), ([0, 0, 200], 3));
    // A broken voxels.vpl is an error that names it, never a fallback.
    folder.insert("voxels.vpl", vec![1, 2, 3]);
    let e = lighting_for(&set, None, &folder).unwrap_err();
    assert!(e.to_string().contains("voxels.vpl"), "{e}");
    // A model without a palette of its own and nothing beside it: a grey ramp.
    let bare = VxlSpec {
        palette_count: 0,
        ..VxlSpec::single(LimbSpec::filled_box([2, 2, 2], 20, 0))
    };
    let mut folder = MemorySource::new();
    folder.insert("T.hva", hva1());
    let set = VoxelSet::load_unit_from("T", &bare.encode(), &folder).unwrap();
    let v = lighting_for(&set, None, &folder).unwrap();
    assert_eq!(v.palette, Palette::grey_ramp());
}

// --- What the model file holds -----------------------------------------------------------------

#[test]
fn first_layer_selector_above_4_is_refused() {
    let mut l = LimbSpec::filled_box([1, 1, 1], 1, 0);
    l.normals_mode = 5;
    let v = vxl::decode(&VxlSpec::single(l).encode()).unwrap();
    let e = VoxelModel::new("x", v, None).unwrap_err();
    assert!(e.field.contains("normals_mode"), "{e}");
}

#[test]
fn selector_0_is_unlit_and_1_to_4_are_lit() {
    for mode in 0..=4u8 {
        let mut l = LimbSpec::filled_box([1, 1, 1], 1, 0);
        l.normals_mode = mode;
        let v = vxl::decode(&VxlSpec::single(l).encode()).unwrap();
        let m = VoxelModel::new("x", v, None).unwrap();
        assert_eq!(m.limb_is_lit(0), mode != 0);
        assert_eq!(
            m.normal_table(Default::default()).map(|t| t.mode),
            (mode != 0).then_some(mode)
        );
    }
}

#[test]
fn all_lit_layers_shade_with_the_first_layers_table() {
    let mut a = LimbSpec::filled_box([1, 1, 1], 1, 0);
    a.normals_mode = 2;
    let mut b = LimbSpec::filled_box([1, 1, 1], 1, 0);
    b.normals_mode = 4;
    let mut c = LimbSpec::filled_box([1, 1, 1], 1, 0);
    c.normals_mode = 0;
    let spec = VxlSpec {
        limbs: vec![a, b, c],
        ..VxlSpec::default()
    };
    let m = model(spec, HvaSpec::identity(3, 1));
    assert_eq!(m.normal_table(Default::default()).unwrap().mode, 2);
    assert!(m.limb_is_lit(1) && !m.limb_is_lit(2));
    assert!(m.quirks().contains(&Quirk::LitLayerTableDiffers {
        limb: 1,
        selector: 4,
        first: 2
    }));
}

#[test]
fn unlit_first_layer_with_lit_others_is_reported() {
    let mut a = LimbSpec::filled_box([1, 1, 1], 1, 0);
    a.normals_mode = 0;
    let b = LimbSpec::filled_box([1, 1, 1], 1, 100);
    let spec = VxlSpec {
        limbs: vec![a, b],
        ..VxlSpec::default()
    };
    let m = model(spec, HvaSpec::identity(2, 1));
    assert!(m
        .quirks()
        .contains(&Quirk::FirstLayerUnlitOthersLit { fallback: 4 }));
    assert_eq!(m.normal_table(Default::default()).unwrap().mode, 4);
}

// --- What the motion file holds ------------------------------------------------------------------

#[test]
fn translations_are_scaled_by_the_first_layers_scale() {
    let mut a = LimbSpec::filled_box([1, 1, 1], 1, 0);
    a.scale = 0.5;
    let mut b = LimbSpec::filled_box([1, 1, 1], 1, 0);
    b.scale = 0.25; // ignored: the first layer's scale applies to every layer
    let mut h = HvaSpec::identity(2, 1);
    h.frames[0][0] = translation([10.0, 0.0, 0.0]);
    h.frames[0][1] = translation([0.0, 8.0, 0.0]);
    let m = model(
        VxlSpec {
            limbs: vec![a, b],
            ..VxlSpec::default()
        },
        h,
    );
    assert_eq!(m.translation_scale(), 0.5);
    // Voxel (0,0,0) centre is the cell centre (0.5, 0.5, 0.5) in grid space; the box min is
    // (-0.5, -0.5, 0) so the centre sits at the model origin plus the scaled translation.
    let centre = |limb| {
        m.limb_matrix(limb, 0)
            .unwrap()
            .unwrap()
            .transform_point3(Vec3::splat(0.5))
    };
    assert!((centre(0) - Vec3::new(4.5, -0.5, 0.0)).length() < 1e-5);
    assert!((centre(1) - Vec3::new(-0.5, 3.5, 0.0)).length() < 1e-5);
}

#[test]
fn frames_wrap_modulo_the_frame_count() {
    let mut h = HvaSpec::identity(1, 3);
    for f in 0..3 {
        h.frames[f][0] = translation([f as f32 * 12.0, 0.0, 0.0]);
    }
    let m = model(VxlSpec::single(LimbSpec::filled_box([1, 1, 1], 1, 0)), h);
    assert_eq!(m.frame_count(), 3);
    for f in 0..10 {
        assert_eq!(
            m.limb_matrix(0, f).unwrap(),
            m.limb_matrix(0, f % 3).unwrap(),
            "frame {f}"
        );
    }
    assert_ne!(m.limb_matrix(0, 1).unwrap(), m.limb_matrix(0, 0).unwrap());
}

#[test]
fn hva_without_frames_loads_but_refuses_to_draw() {
    let m = model(
        VxlSpec::single(LimbSpec::filled_box([1, 1, 1], 1, 0)),
        HvaSpec::identity(1, 0),
    );
    assert!(m.quirks().contains(&Quirk::NoFrames));
    assert_eq!(
        m.limb_matrix(0, 0),
        Err(NoFrames {
            name: "t".to_string()
        })
    );
    let cam = Camera::look_at(Vec3::new(0.0, -10.0, 5.0), Vec3::ZERO, 1.0, 16, 16);
    let mut f = IndexedFrame::new(16, 16);
    let mut d = DepthBuffer::new(16, 16);
    let e = draw(
        &[Instance {
            unit: Unit::single(&m),
            pose: Pose::default(),
        }],
        &cam,
        &Vpl::identity(&Palette::grey_ramp()),
        &RenderOptions::default(),
        &mut f,
        &mut d,
    )
    .unwrap_err();
    assert!(matches!(e, DrawError::NoFrames(_)));
    assert!(e.to_string().contains("no frames"), "{e}");
}

#[test]
fn hva_section_count_mismatch_is_reported_and_never_reads_past_the_file() {
    let spec = VxlSpec {
        limbs: vec![
            LimbSpec::filled_box([1, 1, 1], 1, 0),
            LimbSpec::filled_box([1, 1, 1], 2, 0),
            LimbSpec::filled_box([1, 1, 1], 3, 0),
        ],
        ..VxlSpec::default()
    };
    let mut h = HvaSpec::identity(2, 2);
    h.frames[1][0] = translation([24.0, 0.0, 0.0]);
    let m = model(spec, h);
    assert!(m.quirks().contains(&Quirk::SectionCountMismatch {
        vxl_layers: 3,
        hva_sections: 2
    }));
    // Layer 2 in frame 0 gets the transform the game would use: frame 1's first section.
    let at = |limb, frame| {
        m.limb_matrix(limb, frame)
            .unwrap()
            .map(|x| x * Vec4::new(0.5, 0.5, 0.5, 1.0))
    };
    assert_eq!(at(2, 0), at(0, 1));
    // In frame 1 it would be past the end of the transforms: not drawn, no read outside the file.
    assert_eq!(at(2, 1), None);
}
