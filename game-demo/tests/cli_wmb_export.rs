//! `modex export LEVEL.wmb --obj` on the shared LotterShock levels (`shared/data/wmb`): the MTL's
//! materials and PNGs are named after the level's textures, as `--skins` names its PNGs, so a
//! Blender user sees what each material is.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

use modex_mdl::wmb::{SkinType, WmbFile};

/// A texture name as the exporters make it safe: only ASCII letters, digits, `_`, `-` and `.`
/// (the `#` of `#default` removed).
fn safe(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        .collect::<String>()
        .trim_matches('.')
        .to_string()
}

#[test]
fn level_obj_materials_are_named_after_their_textures() {
    let Some(dir) = modex_testkit::samples_dir("wmb") else {
        return;
    };
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_wmb_export");
    std::fs::create_dir_all(&out).unwrap();
    // The two levels with block geometry (the others are made of entities only).
    for level in ["testlevel", "menue"] {
        let path = dir.join(format!("lottershock/Game/Level/{level}.wmb"));
        let file = WmbFile::parse(&std::fs::read(&path).unwrap()).unwrap();
        let used: BTreeSet<u16> = file
            .blocks
            .iter()
            .flat_map(|b| b.skins.iter())
            .filter(|s| s.kind() != SkinType::None)
            .map(|s| s.texture)
            .collect();
        let expected: BTreeSet<String> = used
            .iter()
            .map(|&t| safe(&file.textures[t as usize].name))
            .collect();
        assert!(expected.iter().all(|n| !n.is_empty()), "{expected:?}");
        let obj = out.join(format!("{level}.obj"));
        let run = Command::new(env!("CARGO_BIN_EXE_modex"))
            .arg("export")
            .arg(&path)
            .arg("--obj")
            .arg(&obj)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{level}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        let mtl = std::fs::read_to_string(obj.with_extension("mtl")).unwrap();
        let names: BTreeSet<String> = mtl
            .lines()
            .filter_map(|l| l.strip_prefix("newmtl "))
            .map(str::to_string)
            .collect();
        assert_eq!(names, expected, "{level}: {mtl}");
        for name in &names {
            assert!(!name.starts_with("part"), "{level}: {name}");
            let png = format!("{level}_{name}.png");
            assert!(mtl.contains(&format!("map_Kd {png}")), "{level}: {mtl}");
            assert!(out.join(&png).exists(), "{level}: {png} not written");
        }
        let text = std::fs::read_to_string(&obj).unwrap();
        for used in text.lines().filter_map(|l| l.strip_prefix("usemtl ")) {
            assert!(names.contains(used), "{level}: usemtl {used}");
        }
    }
}
