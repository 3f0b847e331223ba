//! Every real model in the sample folder assembles the way the game assembles it: each layer's
//! occupancy holds the layer's voxels, every frame places every layer, and the quirks the files
//! are known for are reported; the game's loading rules on real files. Skipped with a notice
//! without the samples. (What the files hold is `modex-vxl`'s conformance test.)

use std::path::Path;

use modex_voxel::{Quirk, VoxelModel, VoxelSet};
use modex_vxl::{hva, vxl};

fn load(dir: &Path, base: &str) -> VoxelModel {
    let v = vxl::decode(&std::fs::read(dir.join(format!("{base}.vxl"))).unwrap())
        .unwrap_or_else(|e| panic!("{base}.vxl: {e}"));
    let h = hva::decode(&std::fs::read(dir.join(format!("{base}.hva"))).unwrap())
        .unwrap_or_else(|e| panic!("{base}.hva: {e}"));
    VoxelModel::new(base, v, Some(h)).unwrap()
}

/// The sample models whose HVA has one section per layer.
const MODELS: [&str; 7] = [
    "vengi/hmec",
    "vengi/cc",
    "romanovs-vengeance/jeep",
    "romanovs-vengeance/buoy",
    "romanovs-vengeance/3tnkbarl",
    "romanovs-vengeance/htnkbarl",
    "romanovs-vengeance/fvtur_gatling",
];

#[test]
fn known_models_assemble_with_every_voxel_and_every_placement() {
    let Some(dir) = modex_testkit::samples_dir("vxl") else {
        return;
    };
    for file in MODELS {
        let m = load(&dir, file);
        for (i, l) in m.vxl.limbs.iter().enumerate() {
            assert_eq!(
                m.volumes()[i].voxel_count(),
                l.voxel_count(),
                "{file} layer {i}"
            );
        }
        // Every frame of every layer has a finite placement.
        for f in 0..m.frame_count() {
            for l in 0..m.vxl.limbs.len() {
                assert!(m.limb_matrix(l, f).unwrap().is_some(), "{file} {l} {f}");
            }
        }
    }
}

#[test]
fn known_quirks_of_real_files_are_reported() {
    let Some(dir) = modex_testkit::samples_dir("vxl") else {
        return;
    };
    // buoy says mode 4 but only uses indices up to 35: the Tiberian Sun table.
    let buoy = load(&dir, "romanovs-vengeance/buoy");
    assert!(buoy.quirks().contains(&Quirk::ModeDisagreesWithIndices {
        declared: 4,
        max_index: 35,
        suggested: 2
    }));
    // cc was built at scale 0.8333 rather than 1/12: its translations scale by that.
    let cc = load(&dir, "vengi/cc");
    assert!((cc.translation_scale() - 0.83333).abs() < 1e-4);
    // simple.vxl has no HVA beside it: as a rules-driven type its set fails, as an animation it loads.
    let src = modex::DirSource::new(dir.join("vengi"));
    let t = modex_voxel::VoxelType::new("SIMPLE", modex_voxel::TypeKind::Vehicle, false);
    let set = VoxelSet::load(&t, &src);
    assert!(set.failure.is_some() && set.body.is_none());
    assert!(VoxelSet::load_animation("SIMPLE", &src).body.is_some());
    // hmec as the game would load it (case-insensitive names, a vehicle without turret).
    let t = modex_voxel::VoxelType::new("HMEC", modex_voxel::TypeKind::Vehicle, false);
    let set = VoxelSet::load(&t, &src);
    assert!(set.failure.is_none());
    assert_eq!(set.body.unwrap().frame_count(), 17);
}
