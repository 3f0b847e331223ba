//! Walking through levels written by the WMB writer and read back as a frontend reads them
//! (`Level::load`): gravity lands the eye at its height above the floor, walls and placed models'
//! boxes stop the body, steps up to `STEP_HEIGHT` are climbed and higher ones are not, flying
//! passes through.

use glam::Vec3;
use modex::Palette;
use modex_mdl::mdl_encode::{FrameSpec, MdlSpec, SkinData, SkinSpec};
use modex_mdl::wmb::encode::encode;
use modex_mdl::wmb::{Block, BlockSkin, BlockTriangle, BlockVertex, Entity, Object};
use modex_mdl::wmb::{WmbFile, ENTITY_PASSABLE, ENTITY_POLYGON};
use modex_view::level::{
    Collider, Level, MemoryFiles, Mode, Motion, Start, Walker, BODY_RADIUS, EYE_ABOVE_FEET,
    STEP_HEIGHT,
};

type Tri = [Vec3; 3];

/// The quad `a b c d` (corners in order around it) as two triangles.
fn quad(a: Vec3, b: Vec3, c: Vec3, d: Vec3) -> [Tri; 2] {
    [[a, b, c], [a, c, d]]
}

/// The floor: a 4000-unit square at z = 0 around the origin.
fn floor() -> Vec<Tri> {
    let s = 2000.0;
    quad(
        Vec3::new(-s, -s, 0.0),
        Vec3::new(s, -s, 0.0),
        Vec3::new(s, s, 0.0),
        Vec3::new(-s, s, 0.0),
    )
    .to_vec()
}

/// The six faces of the box `lo..=hi`.
fn cuboid(lo: Vec3, hi: Vec3) -> Vec<Tri> {
    let c = |i: usize| {
        Vec3::new(
            if i & 1 == 0 { lo.x } else { hi.x },
            if i & 2 == 0 { lo.y } else { hi.y },
            if i & 4 == 0 { lo.z } else { hi.z },
        )
    };
    [
        [0, 1, 3, 2],
        [4, 5, 7, 6],
        [0, 1, 5, 4],
        [2, 3, 7, 6],
        [0, 2, 6, 4],
        [1, 3, 7, 5],
    ]
    .iter()
    .flat_map(|f| quad(c(f[0]), c(f[1]), c(f[2]), c(f[3])))
    .collect()
}

/// A level of one block holding `triangles` and the `objects`, written and read back.
fn level(triangles: &[Tri], objects: Vec<Object>, files: &MemoryFiles) -> Level {
    let vertex = |p: Vec3| BlockVertex {
        position: p,
        texture_uv: glam::Vec2::ZERO,
        lightmap_uv: glam::Vec2::ZERO,
    };
    let block = Block {
        mins: Vec3::splat(-2000.0),
        maxs: Vec3::splat(2000.0),
        content: 0xFFFF_FF80,
        vertices: triangles.iter().flatten().map(|&p| vertex(p)).collect(),
        triangles: (0..triangles.len() as u16)
            .map(|i| BlockTriangle {
                vertices: [3 * i, 3 * i + 1, 3 * i + 2],
                skin: 0,
                face: i as u32,
            })
            .collect(),
        skins: vec![BlockSkin {
            texture: 0,
            lightmap: 0,
            material: 0,
            ambient: 0.0,
            albedo: 50.0,
            flags: 0,
        }],
    };
    let file = WmbFile {
        blocks: vec![block],
        objects,
        ..Default::default()
    };
    Level::load("walk.wmb", &encode(&file), files, &Palette::quake()).unwrap()
}

/// A walker with its eye `EYE_ABOVE_FEET` above `feet`, looking along +X.
fn walker_at(feet: Vec3, mode: Mode) -> Walker {
    let start = Start {
        eye: feet + Vec3::Z * EYE_ABOVE_FEET,
        pan: 0.0,
        tilt: 0.0,
    };
    Walker::at(&start, mode)
}

/// `seconds` of 60 Hz steps asking for `motion`; the lowest the feet went.
fn run(walker: &mut Walker, world: &Collider, motion: Motion, seconds: f32) -> f32 {
    let mut lowest = walker.feet.z;
    for _ in 0..(seconds * 60.0) as usize {
        walker.step(world, motion, 1.0 / 60.0);
        lowest = lowest.min(walker.feet.z);
    }
    lowest
}

const FORWARD: Motion = Motion {
    forward: 1.0,
    right: 0.0,
    up: 0.0,
    run: false,
};

const STILL: Motion = Motion {
    forward: 0.0,
    right: 0.0,
    up: 0.0,
    run: false,
};

#[test]
fn a_walk_begun_in_the_air_falls_to_the_floor_and_stands_at_eye_height() {
    let files = MemoryFiles::default();
    let world = Collider::of_level(&level(&floor(), Vec::new(), &files));
    assert_eq!(world.len(), 2);
    // G in the viewer: flying at a camera 300 units up, then walking from there.
    let mut walker = walker_at(Vec3::new(10.0, 20.0, 300.0), Mode::Fly);
    run(&mut walker, &world, STILL, 0.5);
    assert_eq!(walker.feet.z, 300.0, "flying has no gravity");
    walker.toggle();
    assert_eq!(walker.mode, Mode::Walk);
    let lowest = run(&mut walker, &world, STILL, 2.0);
    assert!(walker.on_ground());
    assert!(lowest > -0.5, "went {lowest} into the floor");
    assert!(
        (walker.eye().z - EYE_ABOVE_FEET).abs() < 0.5,
        "{}",
        walker.eye()
    );
    assert!((walker.eye().truncate() - glam::Vec2::new(10.0, 20.0)).length() < 1e-3);
    // Standing still keeps it there.
    let before = walker.feet;
    run(&mut walker, &world, STILL, 1.0);
    assert!(
        (walker.feet - before).length() < 0.1,
        "{before} {}",
        walker.feet
    );
}

#[test]
fn walking_into_a_wall_stops_at_the_wall_and_flying_passes_through() {
    let files = MemoryFiles::default();
    let mut tris = floor();
    tris.extend(quad(
        Vec3::new(200.0, -500.0, 0.0),
        Vec3::new(200.0, 500.0, 0.0),
        Vec3::new(200.0, 500.0, 300.0),
        Vec3::new(200.0, -500.0, 300.0),
    ));
    let world = Collider::of_level(&level(&tris, Vec::new(), &files));
    let mut walker = walker_at(Vec3::ZERO, Mode::Walk);
    run(
        &mut walker,
        &world,
        Motion {
            run: true,
            ..FORWARD
        },
        3.0,
    );
    let stop = 200.0 - BODY_RADIUS;
    assert!((walker.feet.x - stop).abs() < 0.5, "{}", walker.feet);
    assert!(
        walker.feet.z.abs() < 0.5 && walker.on_ground(),
        "{}",
        walker.feet
    );
    // Turned half right into the wall, it slides along it.
    walker.pan = -45.0;
    let y = walker.feet.y;
    run(&mut walker, &world, FORWARD, 1.0);
    assert!((walker.feet.x - stop).abs() < 0.5, "{}", walker.feet);
    assert!(walker.feet.y < y - 100.0, "{}", walker.feet);
    // Flying goes through.
    walker.pan = 0.0;
    walker.toggle();
    run(&mut walker, &world, FORWARD, 1.0);
    assert!(walker.feet.x > 300.0, "{}", walker.feet);
}

/// Where a walker from the origin ends, walking 2 seconds along +X towards a block of `height`
/// whose face is at x = 100.
fn walk_at_a_block(height: f32) -> Walker {
    let files = MemoryFiles::default();
    let mut tris = floor();
    tris.extend(cuboid(
        Vec3::new(100.0, -500.0, 0.0),
        Vec3::new(600.0, 500.0, height),
    ));
    let world = Collider::of_level(&level(&tris, Vec::new(), &files));
    let mut walker = walker_at(Vec3::ZERO, Mode::Walk);
    run(&mut walker, &world, FORWARD, 2.0);
    walker
}

#[test]
fn a_step_of_16_is_climbed_and_a_wall_of_40_is_not() {
    let up = walk_at_a_block(16.0);
    assert!(up.feet.x > 300.0 && up.on_ground(), "{}", up.feet);
    assert!((up.feet.z - 16.0).abs() < 0.5, "{}", up.feet);
    let up = walk_at_a_block(STEP_HEIGHT);
    assert!((up.feet.z - STEP_HEIGHT).abs() < 0.5, "{}", up.feet);
    for height in [STEP_HEIGHT + 2.0, 40.0] {
        let stopped = walk_at_a_block(height);
        assert!(
            (stopped.feet.x - (100.0 - BODY_RADIUS)).abs() < 0.5,
            "{height}: {}",
            stopped.feet
        );
        assert!(stopped.feet.z.abs() < 0.5, "{height}: {}", stopped.feet);
    }
    // Down again: walking off the step follows it rather than falling.
    let files = MemoryFiles::default();
    let mut tris = floor();
    tris.extend(cuboid(
        Vec3::new(-500.0, -500.0, 0.0),
        Vec3::new(0.0, 500.0, 16.0),
    ));
    let world = Collider::of_level(&level(&tris, Vec::new(), &files));
    let mut walker = walker_at(Vec3::new(-100.0, 0.0, 16.0), Mode::Walk);
    run(&mut walker, &world, STILL, 0.2);
    assert!(walker.on_ground());
    for _ in 0..60 {
        walker.step(&world, FORWARD, 1.0 / 60.0);
        assert!(walker.on_ground(), "fell at {}", walker.feet);
    }
    assert!(
        walker.feet.x > 50.0 && walker.feet.z.abs() < 0.5,
        "{}",
        walker.feet
    );
}

/// An MDL5 model of the quads `faces` (corner indices into `positions`), written by the crate's
/// writer.
fn mdl(positions: Vec<Vec3>, faces: &[[u16; 4]]) -> Vec<u8> {
    MdlSpec {
        skins: vec![SkinSpec {
            width: 2,
            height: 2,
            data: SkinData::Indexed(vec![15; 4]),
        }],
        skin_vertices: vec![[0, 0]],
        triangles: faces
            .iter()
            .flat_map(|f| [([f[0], f[1], f[2]], [0; 3]), ([f[0], f[2], f[3]], [0; 3])])
            .collect(),
        frames: vec![FrameSpec {
            name: "stand".into(),
            normals: positions.iter().map(|_| Vec3::Z).collect(),
            positions,
        }],
    }
    .encode()
}

/// A box model from `lo` to `hi`.
fn box_model(lo: Vec3, hi: Vec3) -> Vec<u8> {
    let corners: Vec<Vec3> = (0..8)
        .map(|i| {
            Vec3::new(
                if i & 1 == 0 { lo.x } else { hi.x },
                if i & 2 == 0 { lo.y } else { hi.y },
                if i & 4 == 0 { lo.z } else { hi.z },
            )
        })
        .collect();
    mdl(
        corners,
        &[
            [0, 2, 3, 1],
            [4, 5, 7, 6],
            [0, 1, 5, 4],
            [2, 6, 7, 3],
            [0, 4, 6, 2],
            [1, 3, 7, 5],
        ],
    )
}

fn entity(file: &str, origin: Vec3, action: &str, flags: u32) -> Object {
    Object::Entity(Entity {
        origin,
        action: action.into(),
        flags,
        ..modex_testkit::level::entity(file)
    })
}

#[test]
fn a_placed_models_box_blocks_and_the_players_own_does_not() {
    let crate_box = box_model(Vec3::new(-32.0, -32.0, 0.0), Vec3::new(32.0, 32.0, 64.0));
    let hero = box_model(Vec3::new(-16.0, -16.0, -30.0), Vec3::new(16.0, 16.0, 30.0));
    let files = MemoryFiles::new([("crate.mdl", crate_box), ("hero.mdl", hero)]);
    let level = level(
        &floor(),
        vec![
            entity("crate.mdl", Vec3::new(300.0, 0.0, 0.0), "", 0),
            // The player stands where the walk begins: its box holds the walker.
            entity("hero.mdl", Vec3::new(0.0, 0.0, 30.0), "player_walk", 0),
        ],
        &files,
    );
    assert_eq!(level.found, 2);
    let world = Collider::of_level(&level);
    // The floor and the crate's twelve; not the hero's.
    assert_eq!(world.len(), 2 + 12);
    // The player's start is its eye; a walk from there stands on the floor, where it stood.
    let start = level.start().unwrap();
    let mut walker = Walker::at(&start, Mode::Walk);
    run(&mut walker, &world, STILL, 1.0);
    assert!(
        walker.on_ground() && walker.feet.z.abs() < 0.5,
        "{}",
        walker.feet
    );
    run(&mut walker, &world, FORWARD, 3.0);
    let stop = 300.0 - 32.0 - BODY_RADIUS;
    assert!((walker.feet.x - stop).abs() < 0.5, "{}", walker.feet);
}

#[test]
fn stairs_and_ramps_are_walked_up_at_a_walk_and_a_run() {
    let files = MemoryFiles::default();
    let mut tris = floor();
    // Five steps of 16, 48 deep, from x = 100; then a landing.
    for i in 0..5 {
        let x = 100.0 + 48.0 * i as f32;
        tris.extend(cuboid(
            Vec3::new(x, -200.0, 0.0),
            Vec3::new(1000.0, -50.0, 16.0 * (i + 1) as f32),
        ));
    }
    // A ramp of 30 degrees up to 80, beside the stairs.
    let rise = 80.0;
    let run_x = rise / 30f32.to_radians().tan();
    tris.extend(quad(
        Vec3::new(100.0, 50.0, 0.0),
        Vec3::new(100.0 + run_x, 50.0, rise),
        Vec3::new(100.0 + run_x, 200.0, rise),
        Vec3::new(100.0, 200.0, 0.0),
    ));
    tris.extend(cuboid(
        Vec3::new(100.0 + run_x, 50.0, 0.0),
        Vec3::new(1000.0, 200.0, rise),
    ));
    let world = Collider::of_level(&level(&tris, Vec::new(), &files));
    for (y, running) in [
        (-125.0, false),
        (-125.0, true),
        (125.0, false),
        (125.0, true),
    ] {
        let mut walker = walker_at(Vec3::new(0.0, y, 0.0), Mode::Walk);
        let motion = Motion {
            run: running,
            ..FORWARD
        };
        run(&mut walker, &world, motion, if running { 1.2 } else { 3.5 });
        assert!(
            walker.feet.x > 500.0 && (walker.feet.z - 80.0).abs() < 0.5,
            "y {y}, running {running}: {}",
            walker.feet
        );
    }
}

#[test]
fn polygon_entities_block_by_their_triangles_and_passable_ones_not_at_all() {
    // A room model: a floor and, 300 units on, a wall 200 high. Its box would be a block 200
    // high standing on the floor.
    let room = mdl(
        vec![
            Vec3::new(-500.0, -500.0, 0.0),
            Vec3::new(300.0, -500.0, 0.0),
            Vec3::new(300.0, 500.0, 0.0),
            Vec3::new(-500.0, 500.0, 0.0),
            Vec3::new(300.0, -500.0, 200.0),
            Vec3::new(300.0, 500.0, 200.0),
        ],
        &[[0, 1, 2, 3], [1, 4, 5, 2]],
    );
    let crate_box = box_model(Vec3::new(-32.0, -32.0, 0.0), Vec3::new(32.0, 32.0, 64.0));
    let files = MemoryFiles::new([("room.mdl", room), ("crate.mdl", crate_box)]);
    let objects = |room_flags: u32| {
        vec![
            entity("room.mdl", Vec3::ZERO, "", room_flags),
            entity("crate.mdl", Vec3::new(150.0, 0.0, 0.0), "", ENTITY_PASSABLE),
        ]
    };
    // POLYGON: on the room's floor, through the passable crate, stopped by the room's wall.
    let world = Collider::of_level(&level(&[], objects(ENTITY_POLYGON), &files));
    assert_eq!(world.len(), 4);
    let mut walker = walker_at(Vec3::new(0.0, 0.0, 100.0), Mode::Walk);
    run(&mut walker, &world, STILL, 1.0);
    assert!(
        walker.on_ground() && walker.feet.z.abs() < 0.5,
        "{}",
        walker.feet
    );
    run(&mut walker, &world, FORWARD, 3.0);
    assert!(
        (walker.feet.x - (300.0 - BODY_RADIUS)).abs() < 0.5,
        "{}",
        walker.feet
    );
    // Without the flag the room is its box: the walk begins on its top.
    let world = Collider::of_level(&level(&[], objects(0), &files));
    assert_eq!(world.len(), 12);
    let mut walker = walker_at(Vec3::new(0.0, 0.0, 300.0), Mode::Walk);
    run(&mut walker, &world, STILL, 1.0);
    assert!((walker.feet.z - 200.0).abs() < 0.5, "{}", walker.feet);
}
