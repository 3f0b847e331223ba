//! Every real file in the sample folder decodes, with the facts measured on it (the sample README
//! and an independent parse of the bytes): layer counts, sizes, normals modes, filled voxels, HVA
//! frames and sections, file sizes, and the oddities the files are known for. Skipped with a
//! notice without the samples. (How the game assembles them is `modex-voxel`'s conformance test.)

use std::path::Path;

use modex_vxl::{hva, vpl, vxl, Hva, Vxl};

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

fn load(dir: &Path, base: &str) -> (Vxl, Hva) {
    let v = vxl::decode(&std::fs::read(dir.join(format!("{base}.vxl"))).unwrap())
        .unwrap_or_else(|e| panic!("{base}.vxl: {e}"));
    let h = hva::decode(&std::fs::read(dir.join(format!("{base}.hva"))).unwrap())
        .unwrap_or_else(|e| panic!("{base}.hva: {e}"));
    (v, h)
}

#[test]
fn known_models_have_their_measured_layers_frames_and_voxels() {
    let Some(dir) = modex_testkit::samples_dir("vxl") else {
        return;
    };
    for e in EXPECT {
        let (v, h) = load(&dir, e.file);
        assert_eq!(v.limbs.len(), e.limbs.len(), "{}", e.file);
        for (i, (l, want)) in v.limbs.iter().zip(e.limbs).enumerate() {
            assert_eq!(
                (l.size, l.normals_mode, l.voxel_count()),
                *want,
                "{} layer {i}",
                e.file
            );
        }
        assert_eq!(
            (h.frame_count(), h.section_count()),
            (e.frames, e.sections),
            "{}",
            e.file
        );
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
fn known_oddities_of_real_files_decode() {
    let Some(dir) = modex_testkit::samples_dir("vxl") else {
        return;
    };
    // buoy says mode 4 but only uses indices up to 35 (the Tiberian Sun table's range).
    let (buoy, _) = load(&dir, "romanovs-vengeance/buoy");
    assert_eq!(buoy.limbs[0].normals_mode, 4);
    assert_eq!(buoy.limbs[0].max_normal_index(), 35);
    // jeep's HVA name field holds junk (a 3ds Max path) and still loads.
    let (_, jeep) = load(&dir, "romanovs-vengeance/jeep");
    assert!(jeep.name.starts_with("C:\\3DSMAX"));
    // Repeated section names ("Copy Of Body" twice) decode as stored.
    let (derpy, derpy_hva) = load(&dir, "romanovs-vengeance/derpy_hooves");
    assert_eq!(derpy_hva.section_names[3], derpy_hva.section_names[4]);
    assert_eq!(derpy.limbs.len(), 16);
    // cc was built at scale 0.8333 rather than 1/12.
    let (cc, _) = load(&dir, "vengi/cc");
    assert!((cc.limbs[0].scale - 0.83333).abs() < 1e-4);
}
