//! Placed models in a drawn level: lit as GameStudio's fixed-function engine lit them (the INFO
//! sun and ambient through the default model material, `MTL_MODEL`: ambient and diffuse 200 of
//! 255, applied with the engine's doubled texture modulation), checked against what Ackmania's
//! own screenshots show (`docs/lighting.md`); and kept by the view culling wherever their model's
//! box lies from their origin and however they are turned.

use glam::Vec3;
use modex::{Argb8888, DepthBuffer, Palette, Surface, Target};
use modex_mdl::mdl_encode::{FrameSpec, MdlSpec, SkinData, SkinSpec};
use modex_mdl::wmb::encode::encode;
use modex_mdl::wmb::{Entity, EntityKind, Object, WmbFile};
use modex_raster::LIGHT_ONE;
use modex_view::level::{
    info_light, Level, LevelScene, MemoryFiles, Start, Viewpoint, MTL_MODEL, SKY_COLOR,
};

/// Ackmania's INFO (all four tracks): sun #939393 from azimuth 0, elevation 60; ambient #303030.
fn ackmania_info() -> Object {
    Object::Info(modex_testkit::level::info(0x0093_9393, 0x0030_3030))
}

/// An old-style entity (no albedo field: GameStudio's 50) placing `file` at the origin, turned
/// by `pan` degrees.
fn placed(file: &str, pan: f32) -> Object {
    Object::Entity(Entity {
        kind: EntityKind::Old,
        angle: Vec3::new(pan, 0.0, 0.0),
        name: "floor_mdl_000".into(),
        skills: vec![0.0; 8],
        albedo: 0.0,
        ..modex_testkit::level::entity(file)
    })
}

/// A level of no blocks holding `objects`, written and read back as a frontend reads it.
fn level(objects: Vec<Object>, files: &MemoryFiles) -> Level {
    let file = WmbFile {
        objects,
        ..Default::default()
    };
    Level::load("lit.wmb", &encode(&file), files, &Palette::quake()).unwrap()
}

/// A 200-unit horizontal square facing up round `(x, 0, 0)`, painted with palette entry `index`.
fn floor_mdl(index: u8, x: f32) -> Vec<u8> {
    let s = 100.0;
    MdlSpec {
        skins: vec![SkinSpec {
            width: 2,
            height: 2,
            data: SkinData::Indexed(vec![index; 4]),
        }],
        skin_vertices: vec![[0, 0], [2, 0], [2, 2], [0, 2]],
        triangles: vec![([0, 1, 2], [0, 1, 2]), ([0, 2, 3], [0, 2, 3])],
        frames: vec![FrameSpec {
            name: "floor".into(),
            positions: vec![
                Vec3::new(x - s, -s, 0.0),
                Vec3::new(x + s, -s, 0.0),
                Vec3::new(x + s, s, 0.0),
                Vec3::new(x - s, s, 0.0),
            ],
            normals: vec![Vec3::Z; 4],
        }],
    }
    .encode()
}

/// The light (1.0 = the texel as painted) GameStudio gives an upward face under Ackmania's INFO.
fn upward_light(level: &Level) -> f32 {
    let light = info_light(level);
    let n_dot_l = light.towards_sun().dot(Vec3::Z);
    light.intensity(n_dot_l, 0.0, 50.0, MTL_MODEL) / LIGHT_ONE as f32
}

#[test]
fn the_default_model_material_gives_what_ackmanias_screenshots_show() {
    let files = MemoryFiles::default();
    let level = level(vec![ackmania_info()], &files);
    let lit = upward_light(&level);
    // Ackmania's track models paint the asphalt in two greys, 67 and 60, that its 2014
    // screenshots (Icenex, `screenshots/ice/`) show on the flat road as exactly 72 and 65.
    for (painted, shown) in [(67.0f32, 72.0f32), (60.0, 65.0)] {
        let modex = painted * lit;
        assert!(
            (modex - shown).abs() <= 0.5,
            "texel {painted} lit to {modex}, the game showed {shown}"
        );
    }
}

/// `level` drawn in 8888 from 80 units above `(x, 0, 0)`, looking down.
fn draw_from_above(level: &Level, palette: &Palette, x: f32) -> (Surface<Argb8888>, usize) {
    let scene = LevelScene::new(level, palette);
    let (w, h) = (32, 24);
    let camera = scene.camera(
        Viewpoint::At(Start {
            eye: Vec3::new(x, 0.0, 80.0),
            pan: 0.0,
            tilt: -90.0,
        }),
        w,
        h,
    );
    let mut target: Surface<Argb8888> = Surface::new(w, h);
    let mut depth = DepthBuffer::new(w, h);
    let (_, culled) = scene.draw(&mut target, &mut depth, &camera).unwrap();
    (target, culled)
}

#[test]
fn a_placed_model_is_drawn_with_the_default_material() {
    // Palette entry 10 of Quake's palette: a grey.
    let palette = Palette::quake();
    let index = 10u8;
    let files = MemoryFiles::new([("floor.mdl", floor_mdl(index, 0.0))]);
    let level = level(vec![ackmania_info(), placed("floor.mdl", 0.0)], &files);
    assert_eq!(level.placed.len(), 1);
    let (target, _) = draw_from_above(&level, &palette, 0.0);
    let (w, h) = (target.width(), target.height());
    let centre = target.pixels()[h / 2 * w + w / 2].0;
    let painted = palette.colors[index as usize];
    let lit = upward_light(&level);
    for (k, shift) in [(0, 16), (1, 8), (2, 0)] {
        let shown = ((centre >> shift) & 255) as f32;
        let expected = painted[k] as f32 * lit;
        // modex truncates the product of texel and light; one step either way.
        assert!(
            (shown - expected).abs() <= 1.0,
            "channel {k}: {shown}, expected {expected} (texel {}, light {lit})",
            painted[k]
        );
    }
    // Brighter than the light without a material: the factor is 400/255.
    let light = info_light(&level);
    let plain = light.intensity(
        light.towards_sun().dot(Vec3::Z),
        0.0,
        50.0,
        modex_raster::Material::PLAIN,
    ) / LIGHT_ONE as f32;
    assert!((lit / plain - 400.0 / 255.0).abs() < 1e-4);
}

#[test]
fn a_turned_model_whose_box_lies_off_its_origin_is_not_culled() {
    // LotterShock's rooms: the model's box lies 600 units along +X of its origin, and the entity
    // is turned by 180 degrees, so the room stands along -X. Seen from above its middle, it fills
    // the view; a culling sphere left unturned lies behind the camera's back and drops it.
    let palette = Palette::quake();
    let files = MemoryFiles::new([("room.mdl", floor_mdl(10, 600.0))]);
    let level = level(vec![ackmania_info(), placed("room.mdl", 180.0)], &files);
    let (target, culled) = draw_from_above(&level, &palette, -600.0);
    assert_eq!(culled, 0);
    let sky = <Surface<Argb8888> as Target>::flat(SKY_COLOR, &palette);
    let drawn = target.pixels().iter().filter(|&&p| p != sky).count();
    assert_eq!(drawn, target.pixels().len(), "{drawn} pixels drawn");
    // And seen from above its origin's other side, where it is not, nothing is drawn.
    let (target, culled) = draw_from_above(&level, &palette, 600.0);
    assert_eq!(culled, 1);
    assert!(target.pixels().iter().all(|&p| p == sky));
}
