//! Every real file in the sample folder loads, with the facts measured on it (the sample README and
//! an independent parse of the bytes): layer counts, sizes, normals modes, filled voxels, HVA frames
//! and sections, and the quirks the files are known for. Skipped with a notice without the samples.

use std::path::Path;

use modex_voxel::{Quirk, VoxelModel, VoxelSet};
use modex_vxl::{hva, vpl, vxl};

struct Expect {
    file: &'static str,
    /// (size, normals mode, filled voxels) per layer.
    limbs: &'static [([u8; 3], u8, usize)],
    frames: usize,
    sections: usize,
}

const EXPECT: &[Expect] = &[
    Expect {
        file: "vengi/hmec",
        limbs: &[
            ([14, 13, 5], 2, 160),
            ([9, 9, 13], 2, 277),
            ([10, 4, 12], 2, 293),
            ([14, 13, 6], 2, 169),
            ([8, 9, 12], 2, 254),
            ([8, 4, 13], 2, 266),
            ([14, 13, 5], 2, 160),
            ([10, 9, 12], 2, 286),
            ([10, 4, 12], 2, 273),
            ([14, 13, 6], 2, 164),
            ([6, 9, 12], 2, 252),
            ([10, 4, 12], 2, 254),
            ([53, 31, 20], 2, 6200),
        ],
        frames: 17,
        sections: 13,
    },
    Expect {
        file: "vengi/cc",
        limbs: &[([69, 39, 17], 2, 33005)],
        frames: 1,
        sections: 1,
    },
    Expect {
        file: "romanovs-vengeance/jeep",
        limbs: &[([32, 14, 13], 2, 2220)],
        frames: 1,
        sections: 1,
    },
    Expect {
        file: "romanovs-vengeance/buoy",
        limbs: &[([15, 15, 24], 4, 806)],
        frames: 1,
        sections: 1,
    },
    Expect {
        file: "romanovs-vengeance/3tnkbarl",
        limbs: &[([61, 27, 15], 2, 122)],
        frames: 1,
        sections: 1,
    },
    Expect {
        file: "romanovs-vengeance/htnkbarl",
        limbs: &[([26, 3, 3], 4, 210)],
        frames: 1,
        sections: 1,
    },
    Expect {
        file: "romanovs-vengeance/fvtur_gatling",
        limbs: &[
            ([21, 5, 10], 4, 239),
            ([21, 5, 9], 4, 218),
            ([67, 14, 67], 4, 1465),
        ],
        frames: 2,
        sections: 3,
    },
];

fn load(dir: &Path, base: &str) -> VoxelModel {
    let v = vxl::decode(&std::fs::read(dir.join(format!("{base}.vxl"))).unwrap())
        .unwrap_or_else(|e| panic!("{base}.vxl: {e}"));
    let h = hva::decode(&std::fs::read(dir.join(format!("{base}.hva"))).unwrap())
        .unwrap_or_else(|e| panic!("{base}.hva: {e}"));
    VoxelModel::new(base, v, Some(h)).unwrap()
}

#[test]
fn known_models_have_their_measured_layers_frames_and_voxels() {
    let Some(dir) = modex_testkit::samples_dir("vxl") else {
        return;
    };
    for e in EXPECT {
        let m = load(&dir, e.file);
        assert_eq!(m.vxl.limbs.len(), e.limbs.len(), "{}", e.file);
        for (i, (l, want)) in m.vxl.limbs.iter().zip(e.limbs).enumerate() {
            assert_eq!(
                (l.size, l.normals_mode, l.voxel_count()),
                *want,
                "{} layer {i}",
                e.file
            );
            assert_eq!(m.volumes()[i].voxel_count(), want.2);
        }
        let h = m.hva.as_ref().unwrap();
        assert_eq!(
            (h.frame_count(), h.section_count()),
            (e.frames, e.sections),
            "{}",
            e.file
        );
        // Every frame of every layer has a finite placement.
        for f in 0..e.frames {
            for l in 0..e.limbs.len() {
                assert!(m.limb_matrix(l, f).unwrap().is_some(), "{} {l} {f}", e.file);
            }
        }
    }
}

#[test]
fn every_sample_file_loads() {
    let Some(dir) = modex_testkit::samples_dir("vxl") else {
        return;
    };
    let mut n = 0;
    for sub in std::fs::read_dir(&dir).unwrap() {
        for f in std::fs::read_dir(sub.unwrap().path()).unwrap() {
            let p = f.unwrap().path();
            let bytes = std::fs::read(&p).unwrap();
            let ext = p
                .extension()
                .unwrap()
                .to_str()
                .unwrap()
                .to_ascii_lowercase();
            match ext.as_str() {
                "vxl" => {
                    let v = vxl::decode(&bytes).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                    // File size = header + palettes + 28 per layer + body + 92 per info record.
                    assert_eq!(
                        bytes.len(),
                        32 + 770 * v.palette_count as usize
                            + 28 * v.limbs.len()
                            + v.body_size as usize
                            + 92 * v.tailer_count as usize
                    );
                }
                "hva" => {
                    let h = hva::decode(&bytes).unwrap();
                    assert_eq!(
                        bytes.len(),
                        24 + 16 * h.section_count() + 48 * h.transforms().len()
                    );
                }
                "vpl" => {
                    let v = vpl::decode(&bytes).unwrap();
                    assert_eq!(v.page_count(), 32);
                    // Page 8 is (about) the identity.
                    let same = (0..256).filter(|&c| v.page(8)[c] == c as u8).count();
                    assert!(same > 200, "{same}");
                }
                other => panic!("unexpected sample {other}"),
            }
            n += 1;
        }
    }
    assert!(n >= 15, "only {n} sample files");
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
    // jeep's HVA name field holds junk (a 3ds Max path) and still loads.
    let jeep = load(&dir, "romanovs-vengeance/jeep");
    assert!(jeep.hva.as_ref().unwrap().name.starts_with("C:\\3DSMAX"));
    // Repeated section names ("Copy Of Body" twice) are matched by position.
    let derpy = load(&dir, "romanovs-vengeance/derpy_hooves");
    let names = &derpy.hva.as_ref().unwrap().section_names;
    assert_eq!(names[3], names[4]);
    assert_eq!(derpy.vxl.limbs.len(), 16);
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
