//! The Rust mirrors in `modex_plugin::abi` have the layout of the structs in `include/a5dll.h`:
//! a C program compiled against the header prints every size and field offset, and each must
//! equal Rust's.

use std::mem::{offset_of, size_of};

use modex_plugin::abi::*;
use modex_testkit::cplugin::{c_compiler, run_c_program};

fn rust_layout() -> Vec<(String, usize)> {
    vec![
        ("WDL_LINK size".to_string(), size_of::<WdlLink>()),
        ("WDL_LINK.index".to_string(), offset_of!(WdlLink, index)),
        ("WDL_LINK.next".to_string(), offset_of!(WdlLink, next)),
        ("WDL_LINK.name".to_string(), offset_of!(WdlLink, name)),
        ("A4_ENTITY size".to_string(), size_of::<A4Entity>()),
        ("A4_ENTITY.link".to_string(), offset_of!(A4Entity, link)),
        (
            "A4_ENTITY.modelkey".to_string(),
            offset_of!(A4Entity, modelkey),
        ),
        ("A4_ENTITY.x".to_string(), offset_of!(A4Entity, x)),
        ("A4_ENTITY.y".to_string(), offset_of!(A4Entity, y)),
        ("A4_ENTITY.z".to_string(), offset_of!(A4Entity, z)),
        ("A4_ENTITY.pan".to_string(), offset_of!(A4Entity, pan)),
        ("A4_ENTITY.tilt".to_string(), offset_of!(A4Entity, tilt)),
        ("A4_ENTITY.roll".to_string(), offset_of!(A4Entity, roll)),
        (
            "A4_ENTITY.scale_x".to_string(),
            offset_of!(A4Entity, scale_x),
        ),
        (
            "A4_ENTITY.scale_y".to_string(),
            offset_of!(A4Entity, scale_y),
        ),
        (
            "A4_ENTITY.scale_z".to_string(),
            offset_of!(A4Entity, scale_z),
        ),
        ("A4_ENTITY.flags".to_string(), offset_of!(A4Entity, flags)),
        ("A4_ENTITY.frame".to_string(), offset_of!(A4Entity, frame)),
        (
            "A4_ENTITY.nextframe".to_string(),
            offset_of!(A4Entity, nextframe),
        ),
        ("A4_ENTITY.skin".to_string(), offset_of!(A4Entity, skin)),
        (
            "A4_ENTITY.ambient".to_string(),
            offset_of!(A4Entity, ambient),
        ),
        ("A4_ENTITY.albedo".to_string(), offset_of!(A4Entity, albedo)),
        ("A4_ENTITY.alpha".to_string(), offset_of!(A4Entity, alpha)),
        (
            "A4_ENTITY.lightrange".to_string(),
            offset_of!(A4Entity, lightrange),
        ),
        ("A4_ENTITY.red".to_string(), offset_of!(A4Entity, red)),
        ("A4_ENTITY.green".to_string(), offset_of!(A4Entity, green)),
        ("A4_ENTITY.blue".to_string(), offset_of!(A4Entity, blue)),
        ("A4_ENTITY.emask".to_string(), offset_of!(A4Entity, emask)),
        ("A4_ENTITY.eflags".to_string(), offset_of!(A4Entity, eflags)),
        ("A4_ENTITY.min".to_string(), offset_of!(A4Entity, min)),
        ("A4_ENTITY.max".to_string(), offset_of!(A4Entity, max)),
        (
            "A4_ENTITY.trigger_range".to_string(),
            offset_of!(A4Entity, trigger_range),
        ),
        ("A4_ENTITY.push".to_string(), offset_of!(A4Entity, push)),
        (
            "A4_ENTITY.shadow_range".to_string(),
            offset_of!(A4Entity, shadow_range),
        ),
        (
            "A4_ENTITY.floor_range".to_string(),
            offset_of!(A4Entity, floor_range),
        ),
        (
            "A4_ENTITY.client_id".to_string(),
            offset_of!(A4Entity, client_id),
        ),
        ("A4_ENTITY.skill".to_string(), offset_of!(A4Entity, skill)),
        ("A4_VIEW size".to_string(), size_of::<A4View>()),
        ("A4_VIEW.link".to_string(), offset_of!(A4View, link)),
        ("A4_VIEW.type".to_string(), offset_of!(A4View, kind)),
        ("A4_VIEW.layer".to_string(), offset_of!(A4View, layer)),
        ("A4_VIEW.pos_x".to_string(), offset_of!(A4View, pos_x)),
        ("A4_VIEW.pos_y".to_string(), offset_of!(A4View, pos_y)),
        ("A4_VIEW.flags".to_string(), offset_of!(A4View, flags)),
        ("A4_VIEW.size_x".to_string(), offset_of!(A4View, size_x)),
        ("A4_VIEW.size_y".to_string(), offset_of!(A4View, size_y)),
        ("A4_VIEW.x".to_string(), offset_of!(A4View, x)),
        ("A4_VIEW.y".to_string(), offset_of!(A4View, y)),
        ("A4_VIEW.z".to_string(), offset_of!(A4View, z)),
        ("A4_VIEW.pan".to_string(), offset_of!(A4View, pan)),
        ("A4_VIEW.tilt".to_string(), offset_of!(A4View, tilt)),
        ("A4_VIEW.roll".to_string(), offset_of!(A4View, roll)),
        ("A4_VIEW.offset_x".to_string(), offset_of!(A4View, offset_x)),
        ("A4_VIEW.offset_y".to_string(), offset_of!(A4View, offset_y)),
        ("A4_VIEW.arc".to_string(), offset_of!(A4View, arc)),
        ("A4_VIEW.aspect".to_string(), offset_of!(A4View, aspect)),
        ("A4_VIEW.ambient".to_string(), offset_of!(A4View, ambient)),
        ("A4_VIEW.fog".to_string(), offset_of!(A4View, fog)),
        ("A4_VIEW.diameter".to_string(), offset_of!(A4View, diameter)),
        ("A4_VIEW.genius".to_string(), offset_of!(A4View, genius)),
        (
            "FRAME_INTERFACE size".to_string(),
            size_of::<FrameInterface>(),
        ),
        (
            "FRAME_INTERFACE.bytes".to_string(),
            offset_of!(FrameInterface, bytes),
        ),
        (
            "FRAME_INTERFACE.pitch".to_string(),
            offset_of!(FrameInterface, pitch),
        ),
        (
            "FRAME_INTERFACE.width".to_string(),
            offset_of!(FrameInterface, width),
        ),
        (
            "FRAME_INTERFACE.height".to_string(),
            offset_of!(FrameInterface, height),
        ),
        (
            "FRAME_INTERFACE.bpp".to_string(),
            offset_of!(FrameInterface, bpp),
        ),
        (
            "FRAME_INTERFACE.Lock".to_string(),
            offset_of!(FrameInterface, lock),
        ),
        (
            "FRAME_INTERFACE.Unlock".to_string(),
            offset_of!(FrameInterface, unlock),
        ),
        (
            "FRAME_INTERFACE.pd3ddev".to_string(),
            offset_of!(FrameInterface, pd3ddev),
        ),
        ("WDL_INTERFACE size".to_string(), size_of::<WdlInterface>()),
        (
            "WDL_INTERFACE.GetObj".to_string(),
            offset_of!(WdlInterface, get_obj),
        ),
        (
            "WDL_INTERFACE.GetFunc".to_string(),
            offset_of!(WdlInterface, get_func),
        ),
        ("WDL_INTERFACE.my".to_string(), offset_of!(WdlInterface, my)),
        (
            "WDL_INTERFACE.you".to_string(),
            offset_of!(WdlInterface, you),
        ),
        (
            "WDL_INTERFACE.EntNext".to_string(),
            offset_of!(WdlInterface, ent_next),
        ),
        (
            "WDL_INTERFACE.ErrorMessage".to_string(),
            offset_of!(WdlInterface, error_message),
        ),
        (
            "ENGINE_INTERFACE size".to_string(),
            size_of::<EngineInterface>(),
        ),
        (
            "ENGINE_INTERFACE.save_block".to_string(),
            offset_of!(EngineInterface, save_block),
        ),
        (
            "ENGINE_INTERFACE.save_size".to_string(),
            offset_of!(EngineInterface, save_size),
        ),
        (
            "ENGINE_INTERFACE.Exec".to_string(),
            offset_of!(EngineInterface, exec),
        ),
        (
            "ENGINE_INTERFACE.SendPacket".to_string(),
            offset_of!(EngineInterface, send_packet),
        ),
        (
            "ENGINE_INTERFACE.ReceivePacket".to_string(),
            offset_of!(EngineInterface, receive_packet),
        ),
        ("A5_INTERFACE size".to_string(), size_of::<A5Interface>()),
        (
            "A5_INTERFACE.dll_version".to_string(),
            offset_of!(A5Interface, dll_version),
        ),
        ("A5_INTERFACE.wdl".to_string(), offset_of!(A5Interface, wdl)),
        ("A5_INTERFACE.fb".to_string(), offset_of!(A5Interface, fb)),
        ("A5_INTERFACE.eng".to_string(), offset_of!(A5Interface, eng)),
    ]
}

#[test]
fn rust_and_c_layouts_agree() {
    let Some(cc) = c_compiler() else { return };
    let dir = std::env::temp_dir().join(format!("modex-plugin-layout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/layout.c");
    let out = run_c_program(
        &cc,
        std::path::Path::new(modex_plugin::INCLUDE_DIR),
        &source,
        &dir.join("layout"),
    );
    let c: Vec<(String, usize)> = out
        .lines()
        .map(|l| {
            let (name, value) = l.rsplit_once(' ').unwrap();
            (name.to_string(), value.parse().unwrap())
        })
        .collect();
    let rust = rust_layout();
    assert_eq!(
        c.len(),
        rust.len(),
        "the C program and the test list the same fields"
    );
    for ((cn, cv), (rn, rv)) in c.iter().zip(&rust) {
        assert_eq!(cn, rn);
        assert_eq!(cv, rv, "{cn}: C says {cv}, Rust {rv}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn header_version_is_the_engines() {
    let header = std::fs::read_to_string(format!("{}/a5dll.h", modex_plugin::INCLUDE_DIR)).unwrap();
    assert!(header.contains(&format!("#define A5DLL_VERSION {}", A5DLL_VERSION)));
    for (name, bit) in [
        ("A4_TRANSPARENT", modex_plugin::abi::A4_TRANSPARENT),
        ("A4_INVISIBLE", modex_plugin::abi::A4_INVISIBLE),
    ] {
        let shift = bit.trailing_zeros();
        assert_eq!(bit, 1 << shift);
        assert!(
            header.contains(&format!("#define {name} (1 << {shift})")),
            "{name} is (1 << {shift}) in the header"
        );
    }
}

#[test]
fn the_header_and_examples_compile_as_cpp_too() {
    let Some(cc) = c_compiler() else { return };
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut sources: Vec<_> = std::fs::read_dir(&examples)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    sources.sort();
    assert_eq!(sources.len(), 6, "the six examples");
    for src in sources {
        let out = std::process::Command::new(&cc)
            .args([
                "-x",
                "c++",
                "-fsyntax-only",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-I",
            ])
            .arg(modex_plugin::INCLUDE_DIR)
            .arg(&src)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{} as C++:\n{}",
            src.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
