//! Rasterizer behaviour on meshes built in code: fill rule, clipping, culling, perspective, depth,
//! overlay, animation, thread independence.

use glam::{Vec2, Vec3};
use modex::{
    with_threads, Argb4444, Argb8888, Camera, DepthBuffer, IndexedFrame, Palette, Pixel,
    Projection, Rgb565, Rng, Surface, Target,
};
use modex_mdl::{Model, SkinPixels, Triangle};
use modex_raster::{Cull, DepthMode, Entity, Light, RasterPixel, Renderer, LIGHT_ONE};
use modex_testkit::models::{checker_skin, floor, frame, indexed_skin, model, quad, skin, sphere};

/// Light that leaves skins unchanged: ambient 1, no sun.
fn flat_renderer() -> Renderer {
    let mut r = Renderer::new(&Palette::quake());
    r.light = Light {
        direction: -Vec3::Z,
        ambient: 1.0,
        diffuse: 0.0,
    };
    r
}

fn front_camera(distance: f32, w: usize, h: usize) -> Camera {
    Camera::look_at(
        Vec3::new(0.0, -distance, 0.0),
        Vec3::ZERO,
        60f32.to_radians(),
        w,
        h,
    )
}

/// A half-transparent red texel: drawn with depth off over opaque black, a 4444 pixel painted
/// once, twice or more shows a different colour each time, so the picture counts coverage.
const HALF_RED: u16 = 0x8f00;

/// How often each pixel of `s` (cleared to opaque black, then drawn in [`HALF_RED`] by a flat
/// renderer) was painted: 0, 1, or 2 for anything else.
fn coverage(s: &Surface<Argb4444>) -> Vec<u8> {
    // Source over destination at alpha 0x88 of full red on black: red 0x88, opaque.
    let once = Argb4444::from_rgba([0x88, 0, 0, 255]);
    s.pixels()
        .iter()
        .map(|&p| match p {
            Argb4444(0xf000) => 0,
            p if p == once => 1,
            _ => 2,
        })
        .collect()
}

#[test]
fn shared_edges_cover_every_pixel_exactly_once() {
    // An orthographic camera looking along +Y sees the XZ plane 1:1 in pixels: a grid of jittered
    // vertices (inner ones at random sub-pixel spots, some exactly on pixel centres and edges) split
    // into triangles of both diagonal directions and both windings must paint each pixel once.
    let (w, h) = (97usize, 61usize);
    let mut cam = Camera::look_at(
        Vec3::new(w as f32 / 2.0, -10.0, -(h as f32) / 2.0),
        Vec3::new(w as f32 / 2.0, 0.0, -(h as f32) / 2.0),
        1.0,
        w,
        h,
    );
    cam.projection = Projection::Orthographic { height: h as f32 };
    for seed in 1..6u64 {
        let mut rng = Rng::new(seed);
        let (gx, gy) = (9usize, 7usize);
        let mut positions = Vec::new();
        for j in 0..=gy {
            for i in 0..=gx {
                let mut x = i as f32 * w as f32 / gx as f32;
                let mut y = j as f32 * h as f32 / gy as f32;
                if i > 0 && i < gx && j > 0 && j < gy {
                    match seed % 3 {
                        0 => {
                            // Exactly on pixel centres: the fill rule decides every edge pixel.
                            x = x.floor() + 0.5;
                            y = y.floor() + 0.5;
                        }
                        _ => {
                            x += rng.range(-3.0, 3.0);
                            y += rng.range(-3.0, 3.0);
                        }
                    }
                }
                positions.push(Vec3::new(x, 0.0, -y));
            }
        }
        let idx = |i: usize, j: usize| (j * (gx + 1) + i) as u32;
        let mut triangles = Vec::new();
        for j in 0..gy {
            for i in 0..gx {
                let (a, b, c, d) = (idx(i, j), idx(i + 1, j), idx(i + 1, j + 1), idx(i, j + 1));
                let quads = if (i + j) % 2 == 0 {
                    [[a, d, c], [a, c, b]]
                } else {
                    [[a, d, b], [b, d, c]]
                };
                for t in quads {
                    triangles.push(Triangle {
                        vertices: t,
                        uvs: [0; 3],
                    });
                }
            }
        }
        let n = positions.len();
        let grid = model(
            frame("grid", positions, vec![Vec3::Y; n]),
            vec![Vec2::ZERO],
            triangles,
            skin(1, 1, SkinPixels::Argb4444(vec![HALF_RED].into())),
        );
        let mut r = flat_renderer();
        r.cull = Cull::None;
        r.depth_mode = DepthMode::Off;
        let prepared = r.prepare(&grid);
        let mut target = Surface::<Argb4444>::new(w, h);
        target.clear(Argb4444(0xf000));
        let mut depth = DepthBuffer::new(w, h);
        let stats = r
            .draw(&mut target, &mut depth, &cam, &prepared, &Entity::default())
            .unwrap();
        assert_eq!(stats.rasterized, gx * gy * 2);
        let bad: Vec<(usize, usize, u8)> = coverage(&target)
            .iter()
            .enumerate()
            .filter(|(_, &c)| c != 1)
            .map(|(i, &c)| (i % w, i / w, c))
            .collect();
        assert!(
            bad.is_empty(),
            "seed {seed}: pixels not covered exactly once: {:?}",
            &bad[..bad.len().min(10)]
        );
    }
}

#[test]
fn back_faces_are_culled() {
    let model = quad(0.0, 1.0, checker_skin(8, 8, 2, 15, 79));
    let r = flat_renderer();
    let p = r.prepare(&model);
    let mut f = IndexedFrame::new(64, 64);
    let mut d = DepthBuffer::new(64, 64);
    // From the front the quad is drawn; from behind it is not.
    let front = r
        .draw(
            &mut f,
            &mut d,
            &front_camera(4.0, 64, 64),
            &p,
            &Entity::default(),
        )
        .unwrap();
    assert_eq!(front.rasterized, 2);
    assert!(f.pixels().iter().any(|&c| c != 0));
    let back_cam = Camera::look_at(Vec3::new(0.0, 4.0, 0.0), Vec3::ZERO, 1.0, 64, 64);
    let mut f2 = IndexedFrame::new(64, 64);
    let mut d2 = DepthBuffer::new(64, 64);
    assert_eq!(
        r.draw(&mut f2, &mut d2, &back_cam, &p, &Entity::default())
            .unwrap()
            .rasterized,
        0
    );
    assert!(f2.pixels().iter().all(|&c| c == 0));
}

#[test]
fn texture_is_upright_not_mirrored_and_perspective_correct() {
    // A floor seen at a grazing angle: for pixels well inside a texel, the drawn texel must be the
    // one the exact ray/plane intersection hits.
    let size = 16usize;
    let idx: Vec<u8> = (0..size * size).map(|i| (i % 251 + 1) as u8).collect();
    let half = 10.0;
    // On the floor z = 0, UV (0, 0) at the far left corner (+Y).
    let model = floor(0.0, half, 1.0, indexed_skin(size, size, idx.clone()));
    let (w, h) = (160usize, 120usize);
    let cam = Camera::look_at(
        Vec3::new(1.3, -12.0, 2.0),
        Vec3::new(0.0, 0.0, 0.0),
        70f32.to_radians(),
        w,
        h,
    );
    let r = flat_renderer();
    let p = r.prepare(&model);
    let mut f = IndexedFrame::new(w, h);
    let mut d = DepthBuffer::new(w, h);
    r.draw(&mut f, &mut d, &cam, &p, &Entity::default())
        .unwrap();
    let mut checked = 0;
    for y in 0..h {
        for x in 0..w {
            let (o, dir) = cam.ray(x as f32 + 0.5, y as f32 + 0.5);
            if dir.z.abs() < 1e-6 {
                continue;
            }
            let t = -o.z / dir.z;
            if t <= 0.0 {
                continue;
            }
            let hit = o + dir * t;
            // Texture u grows with x; v = 0 at the far edge (+Y), as the quad's top edge.
            let uv_at = |sx: f32, sy: f32| {
                let (o, dir) = cam.ray(sx, sy);
                let p = o + dir * (-o.z / dir.z);
                (
                    (p.x + half) / (2.0 * half) * size as f32,
                    (half - p.y) / (2.0 * half) * size as f32,
                )
            };
            let (u, v) = uv_at(x as f32 + 0.5, y as f32 + 0.5);
            // Only pixels whose whole footprint (with a margin) lies inside one texel.
            let corners = [(-0.2, -0.2), (1.2, -0.2), (-0.2, 1.2), (1.2, 1.2)]
                .map(|(dx, dy)| uv_at(x as f32 + dx, y as f32 + dy));
            let same = corners
                .iter()
                .all(|&(cu, cv)| cu.floor() == u.floor() && cv.floor() == v.floor());
            if !same || !(0.0..size as f32).contains(&u) || !(0.0..size as f32).contains(&v) {
                continue;
            }
            let expect = idx[v as usize * size + u as usize];
            assert_eq!(f.get(x, y), Some(expect), "pixel ({x},{y}) u={u} v={v}");
            let z = d.get(x, y).unwrap();
            let view_depth = (hit - cam.eye).dot(cam.forward());
            assert!(
                (z - view_depth).abs() < view_depth * 1e-3,
                "depth {z} vs {view_depth}"
            );
            checked += 1;
        }
    }
    assert!(checked > 2000, "only {checked} pixels checked");
}

#[test]
fn nearer_surface_wins_whatever_the_order() {
    let near = quad(-1.0, 1.0, checker_skin(4, 4, 4, 40, 40));
    let far = quad(1.0, 8.0, checker_skin(4, 4, 4, 200, 200));
    let r = flat_renderer();
    let (pn, pf) = (r.prepare(&near), r.prepare(&far));
    let cam = front_camera(6.0, 80, 60);
    for order in [[&pn, &pf], [&pf, &pn]] {
        let mut f = IndexedFrame::new(80, 60);
        let mut d = DepthBuffer::new(80, 60);
        for m in order {
            r.draw(&mut f, &mut d, &cam, m, &Entity::default()).unwrap();
        }
        assert_eq!(f.get(40, 30), Some(40));
        assert_eq!(f.get(2, 2), Some(200));
        assert!((d.get(40, 30).unwrap() - 5.0).abs() < 1e-3);
    }
}

fn raw_triangle_model(p: [Vec3; 3]) -> Model {
    model(
        frame("t", p.to_vec(), vec![-Vec3::Y; 3]),
        vec![Vec2::ZERO, Vec2::X, Vec2::Y],
        vec![Triangle {
            vertices: [0, 1, 2],
            uvs: [0, 1, 2],
        }],
        checker_skin(4, 4, 1, 100, 200),
    )
}

#[test]
fn triangle_crossing_the_near_plane_is_clipped_not_dropped() {
    // The camera sits at y = -1 looking along +Y; one vertex is behind it.
    let r = {
        let mut r = flat_renderer();
        r.cull = Cull::None;
        r
    };
    let m = raw_triangle_model([
        Vec3::new(-1.0, 3.0, -0.5),
        Vec3::new(1.0, 3.0, -0.5),
        Vec3::new(0.0, -5.0, 2.0),
    ]);
    let p = r.prepare(&m);
    let cam = front_camera(1.0, 64, 48);
    let mut f = IndexedFrame::new(64, 48);
    let mut d = DepthBuffer::new(64, 48);
    let stats = r
        .draw(&mut f, &mut d, &cam, &p, &Entity::default())
        .unwrap();
    assert!(stats.rasterized >= 1);
    let drawn = f.pixels().iter().filter(|&&c| c != 0).count();
    assert!(drawn > 100, "{drawn}");
    // Every stored depth is in front of the near plane.
    assert!(d
        .values()
        .iter()
        .all(|&z| z == f32::INFINITY || z >= cam.near * 0.999));
}

#[test]
fn triangle_fully_behind_draws_nothing() {
    let mut r = flat_renderer();
    r.cull = Cull::None;
    let m = raw_triangle_model([
        Vec3::new(-1.0, -3.0, 0.0),
        Vec3::new(1.0, -3.0, 0.0),
        Vec3::new(0.0, -5.0, 1.0),
    ]);
    let p = r.prepare(&m);
    let mut f = IndexedFrame::new(64, 48);
    let mut d = DepthBuffer::new(64, 48);
    assert_eq!(
        r.draw(
            &mut f,
            &mut d,
            &front_camera(1.0, 64, 48),
            &p,
            &Entity::default()
        )
        .unwrap()
        .rasterized,
        0
    );
    assert!(f.pixels().iter().all(|&c| c == 0));
}

#[test]
fn huge_and_non_finite_coordinates_never_panic() {
    let mut r = flat_renderer();
    r.cull = Cull::None;
    let cam = front_camera(3.0, 50, 40);
    let cases = [
        [
            Vec3::new(-1e30, 5.0, -1e30),
            Vec3::new(1e30, 5.0, -1e30),
            Vec3::new(0.0, 5.0, 1e30),
        ],
        [
            Vec3::new(-1e7, 1e-3, 0.0),
            Vec3::new(1e7, 1e-3, 0.0),
            Vec3::new(0.0, 1e7, 1e7),
        ],
        [
            Vec3::new(f32::INFINITY, 1.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(0.0, 1.0, 1.0),
        ],
        [
            Vec3::new(f32::NAN, 1.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(0.0, 1.0, 1.0),
        ],
        [
            Vec3::new(0.0, -2.9999, 0.0),
            Vec3::new(1e6, -2.99, 0.0),
            Vec3::new(0.0, -2.99, 1e6),
        ],
        [
            Vec3::splat(f32::MAX),
            Vec3::splat(f32::MIN),
            Vec3::new(0.0, 1.0, f32::MAX),
        ],
    ];
    for tri in cases {
        let m = raw_triangle_model(tri);
        let p = r.prepare(&m);
        let mut f = IndexedFrame::new(50, 40);
        let mut d = DepthBuffer::new(50, 40);
        r.draw(&mut f, &mut d, &cam, &p, &Entity::default())
            .unwrap();
        let mut s = Surface::<Argb4444>::new(50, 40);
        d.clear();
        r.draw(&mut s, &mut d, &cam, &p, &Entity::default())
            .unwrap();
        assert!(d.values().iter().all(|z| !z.is_nan()));
    }
    // A huge on-screen triangle fills the whole frame and nothing else.
    let m = raw_triangle_model([
        Vec3::new(-1e6, 5.0, -1e6),
        Vec3::new(1e6, 5.0, -1e6),
        Vec3::new(0.0, 5.0, 1e6),
    ]);
    let p = r.prepare(&m);
    let mut f = IndexedFrame::new(50, 40);
    let mut d = DepthBuffer::new(50, 40);
    r.draw(&mut f, &mut d, &cam, &p, &Entity::default())
        .unwrap();
    assert!(f.pixels().iter().all(|&c| c == 100 || c == 200));
    // Mismatched depth buffer: an error naming the sizes, nothing drawn, no panic.
    let mut small = DepthBuffer::new(10, 10);
    let mut f = IndexedFrame::new(50, 40);
    let e = r
        .draw(&mut f, &mut small, &cam, &p, &Entity::default())
        .unwrap_err();
    assert_eq!((e.target, e.depth), ((50, 40), (10, 10)));
    assert!(f.pixels().iter().all(|&c| c == 0));
}

#[test]
fn overlay_skips_index_zero_and_black_565() {
    let mut idx = vec![7u8; 16];
    idx[..8].fill(0); // top half transparent in overlay mode
    for skin in [
        indexed_skin(4, 4, idx.clone()),
        skin(
            4,
            4,
            SkinPixels::Rgb565(
                idx.iter()
                    .map(|&i| if i == 0 { 0 } else { 0xf800 })
                    .collect(),
            ),
        ),
    ] {
        let model = quad(0.0, 1.0, skin);
        let r = flat_renderer();
        let p = r.prepare(&model);
        let cam = front_camera(2.5, 40, 40);
        for overlay in [false, true] {
            let ent = Entity {
                overlay,
                ..Entity::default()
            };
            let mut f = IndexedFrame::new(40, 40);
            f.clear(3);
            let mut d = DepthBuffer::new(40, 40);
            r.draw(&mut f, &mut d, &cam, &p, &ent).unwrap();
            let mut s = Surface::<Rgb565>::new(40, 40);
            s.clear(Rgb565(0x1234));
            d.clear();
            r.draw(&mut s, &mut d, &cam, &p, &ent).unwrap();
            // Top half of the quad (texture rows 0..2) vs bottom half.
            let top = (20, 14);
            let bottom = (20, 26);
            assert_ne!(f.get(bottom.0, bottom.1), Some(3));
            assert_ne!(s.get(bottom.0, bottom.1), Some(Rgb565(0x1234)));
            if overlay {
                assert_eq!(f.get(top.0, top.1), Some(3));
                assert_eq!(s.get(top.0, top.1), Some(Rgb565(0x1234)));
                assert_eq!(d.get(top.0, top.1), Some(f32::INFINITY));
            } else {
                assert_ne!(f.get(top.0, top.1), Some(3));
                assert_ne!(s.get(top.0, top.1), Some(Rgb565(0x1234)));
            }
        }
    }
}

#[test]
fn argb4444_target_blends_by_texel_alpha() {
    let model = quad(
        0.0,
        1.0,
        skin(2, 2, SkinPixels::Argb4444(vec![HALF_RED; 4].into())),
    );
    let r = flat_renderer();
    let p = r.prepare(&model);
    let mut s = Surface::<Argb4444>::new(20, 20);
    s.clear(Argb4444(0xf00f)); // opaque blue
    let mut d = DepthBuffer::new(20, 20);
    r.draw(
        &mut s,
        &mut d,
        &front_camera(2.0, 20, 20),
        &p,
        &Entity::default(),
    )
    .unwrap();
    let c = s.get(10, 10).unwrap().to_rgba();
    assert!(c[0] > 100 && c[2] > 100 && c[3] == 255, "{c:?}");
}

#[test]
fn lighting_follows_the_normal_table_and_entity_fields() {
    // A sphere lit from +X: its +X side is brighter than its -X side; more ambient is brighter.
    let model = sphere(1.0, 12, 24, Vec2::ONE, checker_skin(8, 8, 8, 254, 254));
    let mut r = Renderer::new(&Palette::quake());
    r.light = Light {
        direction: -Vec3::X,
        ambient: 0.2,
        diffuse: 1.6,
    };
    let p = r.prepare(&model);
    let cam = front_camera(4.0, 80, 80);
    let lum = |s: &Surface<Argb8888>, x, y| s.get(x, y).unwrap().to_rgba()[0] as i32;
    let render = |ent: &Entity| {
        let mut s = Surface::<Argb8888>::new(80, 80);
        let mut d = DepthBuffer::new(80, 80);
        r.draw(&mut s, &mut d, &cam, &p, ent).unwrap();
        s
    };
    let plain = render(&Entity::default());
    assert!(lum(&plain, 52, 40) > lum(&plain, 28, 40) + 60);
    let bright = render(&Entity {
        ambient: 50.0,
        ..Entity::default()
    });
    assert!(lum(&bright, 28, 40) > lum(&plain, 28, 40) + 60);
    let dull = render(&Entity {
        albedo: 0.0,
        ..Entity::default()
    });
    assert!((lum(&dull, 52, 40) - lum(&dull, 28, 40)).abs() < 8);
    // Same through the 162-entry table: give each vertex its nearest table normal.
    let mut indexed = model.clone();
    let table = modex_mdl::normals::mdl_normals();
    let idx = indexed.frames[0]
        .normals
        .iter()
        .map(|n| {
            (0..table.len())
                .max_by(|&a, &b| {
                    Vec3::from(table[a])
                        .dot(*n)
                        .total_cmp(&Vec3::from(table[b]).dot(*n))
                })
                .unwrap() as u8
        })
        .collect();
    indexed.frames[0].normal_indices = Some(idx);
    let pi = r.prepare(&indexed);
    let mut s = Surface::<Argb8888>::new(80, 80);
    let mut d = DepthBuffer::new(80, 80);
    r.draw(&mut s, &mut d, &cam, &pi, &Entity::default())
        .unwrap();
    assert!((lum(&s, 52, 40) - lum(&plain, 52, 40)).abs() < 30);
    assert!(lum(&s, 52, 40) > lum(&s, 28, 40) + 60);
    // The 8-bit path shades through the table: white at full light, darker at the shadowed side.
    let mut f = IndexedFrame::new(80, 80);
    let mut d = DepthBuffer::new(80, 80);
    r.draw(&mut f, &mut d, &cam, &p, &Entity::default())
        .unwrap();
    let pal = Palette::quake();
    let bright_i = pal.colors[f.get(52, 40).unwrap() as usize][0];
    let dark_i = pal.colors[f.get(28, 40).unwrap() as usize][0];
    assert!(bright_i as i32 > dark_i as i32 + 60, "{bright_i} {dark_i}");
    assert_eq!(LIGHT_ONE, 256);
}

#[test]
fn frames_interpolate_and_skins_select() {
    let mut model = quad(0.0, 1.0, checker_skin(4, 4, 4, 50, 50));
    model.skins.push(checker_skin(4, 4, 4, 90, 90));
    let mut f1 = model.frames[0].clone();
    for p in &mut f1.positions {
        p.x += 2.0;
    }
    let mut mid = model.frames[0].clone();
    for p in &mut mid.positions {
        p.x += 1.0;
    }
    let mut half_model = model.clone();
    half_model.frames = vec![mid];
    model.frames.push(f1);
    let r = flat_renderer();
    let (p, ph) = (r.prepare(&model), r.prepare(&half_model));
    let cam = front_camera(6.0, 64, 48);
    let draw = |m, e: &Entity| {
        let mut f = IndexedFrame::new(64, 48);
        let mut d = DepthBuffer::new(64, 48);
        r.draw(&mut f, &mut d, &cam, m, e).unwrap();
        f
    };
    let a = draw(
        &p,
        &Entity {
            frame: 0.5,
            ..Entity::default()
        },
    );
    let b = draw(&ph, &Entity::default());
    assert_eq!(a, b);
    let c = draw(
        &p,
        &Entity {
            frame: 0.5,
            nextframe: Some(0),
            ..Entity::default()
        },
    );
    assert_eq!(c, draw(&p, &Entity::default()));
    assert_ne!(
        draw(
            &p,
            &Entity {
                frame: 1.0,
                ..Entity::default()
            }
        ),
        draw(&p, &Entity::default())
    );
    let s1 = draw(
        &p,
        &Entity {
            skin: 1,
            ..Entity::default()
        },
    );
    assert!(s1.pixels().contains(&90) && !s1.pixels().contains(&50));
}

/// A ball on a floor whose 16x16 checker repeats 40 times, so the floor far off is minified and
/// drawn from several mip levels (when `mipmaps`).
fn scene_in<T: Target + Send>(
    make: impl Fn() -> T + Send + Sync,
    threads: usize,
    mipmaps: bool,
) -> (T, DepthBuffer)
where
    T::Px: RasterPixel,
{
    with_threads(threads, || {
        let mut r = Renderer::new(&Palette::quake());
        r.mipmaps = mipmaps;
        let ball = sphere(1.0, 40, 80, Vec2::ONE, checker_skin(64, 32, 4, 15, 250));
        let ground = floor(-1.0, 6.0, 40.0, checker_skin(16, 16, 2, 100, 180));
        let (pb, pf) = (r.prepare(&ball), r.prepare(&ground));
        let mut t = make();
        let (w, h) = t.size();
        let mut d = DepthBuffer::new(w, h);
        let cam = Camera::orbit(Vec3::ZERO, 5.0, 0.4, 0.3, 1.0, w, h);
        r.draw(&mut t, &mut d, &cam, &pf, &Entity::default())
            .unwrap();
        r.draw(
            &mut t,
            &mut d,
            &cam,
            &pb,
            &Entity {
                pan: 33.0,
                ..Entity::default()
            },
        )
        .unwrap();
        (t, d)
    })
    .unwrap()
}

#[test]
fn one_and_many_threads_give_identical_pixels() {
    let (w, h) = (203, 157);
    let base8 = scene_in(|| IndexedFrame::new(w, h), 1, true);
    let base565 = scene_in(|| Surface::<Rgb565>::new(w, h), 1, true);
    let base4444 = scene_in(|| Surface::<Argb4444>::new(w, h), 1, true);
    let base8888 = scene_in(|| Surface::<Argb8888>::new(w, h), 1, true);
    assert!(base8.0.pixels().iter().filter(|&&c| c != 0).count() > w * h / 2);
    // The scene does sample mip levels: without them many floor pixels differ.
    let level0 = scene_in(|| Surface::<Argb8888>::new(w, h), 1, false);
    let moved = (level0.0.pixels().iter())
        .zip(base8888.0.pixels())
        .filter(|(a, b)| a != b)
        .count();
    assert!(moved > w * h / 20, "only {moved} pixels read another level");
    for n in [2, 3, 5] {
        let s8 = scene_in(|| IndexedFrame::new(w, h), n, true);
        assert_eq!(s8.0, base8.0, "8-bit, {n} threads");
        assert_eq!(s8.1, base8.1, "depth, {n} threads");
        assert_eq!(
            scene_in(|| Surface::<Rgb565>::new(w, h), n, true).0,
            base565.0
        );
        assert_eq!(
            scene_in(|| Surface::<Argb4444>::new(w, h), n, true).0,
            base4444.0
        );
        assert_eq!(
            scene_in(|| Surface::<Argb8888>::new(w, h), n, true).0,
            base8888.0
        );
    }
}

/// A frame too large to stay in the cache is binned by band on one thread too (`entity::streams`:
/// above 4 MiB of colour and depth), so this size runs the one-thread binned path in every
/// format; it must give the pixels and depths of several threads, as the streamed path does at
/// the size above.
#[test]
fn one_thread_bins_a_large_frame_with_the_pixels_of_many() {
    let (w, h) = (1280, 720);
    let one8 = scene_in(|| IndexedFrame::new(w, h), 1, true);
    let one8888 = scene_in(|| Surface::<Argb8888>::new(w, h), 1, true);
    assert!(one8.0.pixels().iter().filter(|&&c| c != 0).count() > w * h / 2);
    let two8 = scene_in(|| IndexedFrame::new(w, h), 2, true);
    assert_eq!(two8.0, one8.0, "8-bit");
    assert_eq!(two8.1, one8.1, "depth");
    assert_eq!(
        scene_in(|| Surface::<Argb8888>::new(w, h), 3, true).0,
        one8888.0,
        "8888"
    );
    assert_eq!(
        scene_in(|| Surface::<Rgb565>::new(w, h), 2, true).0,
        scene_in(|| Surface::<Rgb565>::new(w, h), 1, true).0,
        "565"
    );
}

/// A translucent near square over an opaque far one: the middle mixes both (8-bit through the
/// palette's mixing table, true colour per channel), the depth buffer keeps the far square's
/// depth, and invisible draws nothing.
#[test]
fn translucent_entity_mixes_over_what_is_behind_and_keeps_its_depth() {
    use modex::{BlendTables, Opacity};
    let pal = Palette::quake();
    // Quake palette: 254 is a light yellow, 32 a dark blue-ish grey; any two distinct colours do.
    let (front_i, back_i) = (254u8, 32u8);
    let near = quad(-1.0, 1.0, checker_skin(4, 4, 4, front_i, front_i));
    let far = quad(1.0, 8.0, checker_skin(4, 4, 4, back_i, back_i));
    let r = flat_renderer();
    let (pn, pf) = (r.prepare(&near), r.prepare(&far));
    let cam = front_camera(6.0, 80, 60);
    let half = Entity {
        alpha: Opacity::from_percent(50.0),
        ..Entity::default()
    };

    // 8-bit: the mixed index is the table's.
    let mut f = IndexedFrame::new(80, 60);
    let mut d = DepthBuffer::new(80, 60);
    r.draw(&mut f, &mut d, &cam, &pf, &Entity::default())
        .unwrap();
    r.draw(&mut f, &mut d, &cam, &pn, &half).unwrap();
    let want = BlendTables::new(&pal)
        .table(Opacity::from_percent(50.0))
        .unwrap()
        .mix(front_i, back_i);
    assert_ne!(want, front_i);
    assert_ne!(want, back_i);
    assert_eq!(f.get(40, 30), Some(want));
    assert_eq!(f.get(2, 2), Some(back_i), "outside the near square");
    assert!(
        (d.get(40, 30).unwrap() - 7.0).abs() < 1e-3,
        "far depth kept"
    );

    // 8888: channel mix of the two lit colours.
    let mut s = Surface::<Argb8888>::new(80, 60);
    let mut d = DepthBuffer::new(80, 60);
    r.draw(&mut s, &mut d, &cam, &pf, &Entity::default())
        .unwrap();
    let back = s.get(40, 30).unwrap().to_rgba();
    let mut opaque = Surface::<Argb8888>::new(80, 60);
    r.draw(
        &mut opaque,
        &mut DepthBuffer::new(80, 60),
        &cam,
        &pn,
        &Entity::default(),
    )
    .unwrap();
    let front = opaque.get(40, 30).unwrap().to_rgba();
    r.draw(&mut s, &mut d, &cam, &pn, &half).unwrap();
    let got = s.get(40, 30).unwrap().to_rgba();
    for c in 0..3 {
        let want = (u32::from(front[c]) + u32::from(back[c])).div_ceil(2);
        assert!(
            u32::from(got[c]).abs_diff(want) <= 1,
            "channel {c}: {got:?} from {front:?} over {back:?}"
        );
    }

    // 565 as well, and invisible changes nothing.
    let mut s = Surface::<Rgb565>::new(80, 60);
    let mut d = DepthBuffer::new(80, 60);
    r.draw(&mut s, &mut d, &cam, &pf, &Entity::default())
        .unwrap();
    let before = s.pixels().to_vec();
    let gone = Entity {
        alpha: Opacity::from_percent(0.0),
        ..Entity::default()
    };
    assert_eq!(
        r.draw(&mut s, &mut d, &cam, &pn, &gone).unwrap().rasterized,
        0
    );
    assert_eq!(s.pixels(), &before[..]);
    r.draw(&mut s, &mut d, &cam, &pn, &half).unwrap();
    assert_ne!(s.get(40, 30), Some(before[30 * 80 + 40]));
    assert_eq!(s.get(2, 2), Some(before[2 * 80 + 2]));
}

/// The scene of [`scene_in`] drawn into a frame full of leftovers from an earlier one, its first
/// draw either clearing (`clear_and_draw`) or after `fill` and `DepthBuffer::clear`.
fn cleared_scene_in<T: Target + Send>(
    make: impl Fn() -> T + Send + Sync,
    threads: usize,
    fused: bool,
    background: T::Px,
    leftover: T::Px,
) -> (T, DepthBuffer)
where
    T::Px: RasterPixel,
{
    with_threads(threads, || {
        let r = Renderer::new(&Palette::quake());
        let ball = sphere(1.0, 40, 80, Vec2::ONE, checker_skin(64, 32, 4, 15, 250));
        let ground = floor(-1.0, 6.0, 40.0, checker_skin(16, 16, 2, 100, 180));
        let (pb, pf) = (r.prepare(&ball), r.prepare(&ground));
        let mut t = make();
        let (w, h) = t.size();
        t.fill(leftover);
        let mut d = DepthBuffer::new(w, h);
        d.values_mut().iter_mut().for_each(|z| *z = 0.5);
        let cam = Camera::orbit(Vec3::ZERO, 5.0, 0.4, 0.3, 1.0, w, h);
        let ball_entity = Entity {
            pan: 33.0,
            ..Entity::default()
        };
        if fused {
            r.clear_and_draw(&mut t, &mut d, &cam, &pf, &Entity::default(), background)
                .unwrap();
        } else {
            t.fill(background);
            d.clear();
            r.draw(&mut t, &mut d, &cam, &pf, &Entity::default())
                .unwrap();
        }
        r.draw(&mut t, &mut d, &cam, &pb, &ball_entity).unwrap();
        (t, d)
    })
    .unwrap()
}

/// Clearing inside the fill's bands gives the pixels and depths of a clear before the draw, on
/// one thread and several, for a height that is not a whole number of bands.
#[test]
fn clear_and_draw_equals_clearing_first() {
    let (w, h) = (203, 157);
    for threads in [1, 2, 3] {
        let want = cleared_scene_in(|| IndexedFrame::new(w, h), threads, false, 7, 200);
        let got = cleared_scene_in(|| IndexedFrame::new(w, h), threads, true, 7, 200);
        assert!(want.0.pixels().contains(&7), "some background shows");
        assert!(!want.0.pixels().contains(&200), "no leftover shows");
        assert_eq!(got.0, want.0, "8-bit, {threads} threads");
        assert_eq!(got.1, want.1, "depth, {threads} threads");
        let (bg, old) = (Argb8888(0xff10_2030), Argb8888(0xffff_00ff));
        let want = cleared_scene_in(|| Surface::<Argb8888>::new(w, h), threads, false, bg, old);
        let got = cleared_scene_in(|| Surface::<Argb8888>::new(w, h), threads, true, bg, old);
        assert_eq!(got.0.pixels(), want.0.pixels(), "8888, {threads} threads");
        assert_eq!(got.1, want.1, "8888 depth, {threads} threads");
    }
}

/// A clearing draw that draws nothing (an invisible entity, every face culled) still clears.
#[test]
fn clear_and_draw_clears_when_nothing_is_drawn() {
    use modex::Opacity;
    let r = flat_renderer();
    let far = quad(1.0, 8.0, checker_skin(4, 4, 4, 32, 32));
    let p = r.prepare(&far);
    let cam = front_camera(6.0, 80, 60);
    let invisible = Entity {
        alpha: Opacity::from_percent(0.0),
        ..Entity::default()
    };
    let mut back = flat_renderer();
    back.cull = Cull::Front;
    for threads in [1, 2] {
        for (r, e) in [(&r, &invisible), (&back, &Entity::default())] {
            let (f, d) = with_threads(threads, || {
                let mut f = IndexedFrame::new(80, 60);
                f.clear(9);
                let mut d = DepthBuffer::new(80, 60);
                d.values_mut().iter_mut().for_each(|z| *z = 1.0);
                r.clear_and_draw(&mut f, &mut d, &cam, &p, e, 3).unwrap();
                (f, d)
            })
            .unwrap();
            assert!(f.pixels().iter().all(|&c| c == 3), "{threads} threads");
            assert!(d.values().iter().all(|z| *z == f32::INFINITY));
        }
    }
}

/// Models showing one skin (clones of one decoded skin: the parts of an MDL7, a texture file
/// named by many models of a level) get one texture through `SharedTextures`: their mip levels
/// are the same memory. A skin with other texels, or one that shares the buffer but stores other
/// pixels, gets its own; the pictures are those of separately prepared models.
#[test]
fn models_showing_one_skin_share_one_texture() {
    use modex_raster::SharedTextures;
    let image = modex_mdl::external::Image::new(8, 8, vec![90u8; 8 * 8 * 4]);
    let a = quad(0.0, 1.0, image.skin(5));
    let b = quad(0.0, 1.0, image.skin(5));
    let other = quad(0.0, 1.0, checker_skin(8, 8, 2, 10, 20));
    // Shares the buffer, stores 8-bit pixels: not the same skin.
    let mut odd_skin = image.skin(0);
    odd_skin.pixels = SkinPixels::Indexed(vec![7; 64].into());
    let odd = quad(0.0, 1.0, odd_skin);
    let r = flat_renderer();
    let shared = SharedTextures::new();
    let mip = |m: &modex_raster::PreparedModel| m.skin_levels(0).nth(1).unwrap().2.as_ptr();
    let (pa, pb) = (
        r.prepare_sharing(&a, &shared),
        r.prepare_sharing(&b, &shared),
    );
    let (po, pd) = (
        r.prepare_sharing(&other, &shared),
        r.prepare_sharing(&odd, &shared),
    );
    assert_eq!(mip(&pa), mip(&pb), "one skin, one texture");
    assert_ne!(mip(&pa), mip(&po));
    assert_ne!(mip(&pa), mip(&pd));
    // Prepared alone, each draws the same picture as when shared.
    let cam = front_camera(3.0, 64, 48);
    let draw = |m: &modex_raster::PreparedModel| {
        let mut s = Surface::<Argb8888>::new(64, 48);
        let mut d = DepthBuffer::new(64, 48);
        r.draw(&mut s, &mut d, &cam, m, &Entity::default()).unwrap();
        s.pixels().to_vec()
    };
    for (m, p) in [(&b, &pb), (&odd, &pd)] {
        assert_eq!(draw(p), draw(&r.prepare(m)));
    }
    assert_ne!(
        draw(&pb),
        draw(&pd),
        "the odd skin is drawn from its own pixels"
    );
}

/// A true-colour skin drawn from its RGBA alone (`Skin::drop_stored`, as a level holds its
/// skins) draws the bytes the stored form draws, in overlay mode too: black, a 565 or 888 skin's
/// stored 0, stays its key, and a 4444/8888 skin's all-zero texel stays cut.
#[test]
fn skins_without_their_stored_copy_draw_the_same() {
    let rgb565: Vec<u16> = (0..64u16)
        .map(|i| if i % 5 == 0 { 0 } else { i * 1031 })
        .collect();
    let rgb888: Vec<[u8; 3]> = (0..64u8)
        .map(|i| {
            if i % 5 == 0 {
                [0; 3]
            } else {
                [i * 4, 255 - i, i]
            }
        })
        .collect();
    let argb: Vec<[u8; 4]> = (0..64u8)
        .map(|i| {
            if i % 5 == 0 {
                [0; 4]
            } else {
                [i * 4, 9, i, 255]
            }
        })
        .collect();
    let cam = front_camera(3.0, 64, 48);
    for pixels in [
        SkinPixels::Rgb565(rgb565.into()),
        SkinPixels::Rgb888(rgb888.into()),
        SkinPixels::Argb8888(argb.into()),
    ] {
        let stored = quad(0.0, 1.0, skin(8, 8, pixels));
        let mut dropped = stored.clone();
        dropped.skins[0].drop_stored();
        assert!(matches!(
            dropped.skins[0].pixels,
            SkinPixels::Rgba | SkinPixels::RgbaBlackKey
        ));
        let draw = |m: &Model, overlay: bool| {
            let r = flat_renderer();
            let mut s = Surface::<Argb8888>::new(64, 48);
            s.clear(Argb8888(0xff12_3456));
            let mut d = DepthBuffer::new(64, 48);
            let e = Entity {
                overlay,
                ..Entity::default()
            };
            r.draw(&mut s, &mut d, &cam, &r.prepare(m), &e).unwrap();
            s.pixels().to_vec()
        };
        let background = |p: &[Argb8888]| p.iter().filter(|&&c| c == Argb8888(0xff12_3456)).count();
        let mut shown = [0; 2];
        for overlay in [false, true] {
            let (a, b) = (draw(&stored, overlay), draw(&dropped, overlay));
            assert_eq!(a, b, "{:?} overlay {overlay}", stored.skins[0].pixels);
            shown[overlay as usize] = background(&a);
        }
        // A fifth of the texels are keys: 565 and 888 ones let the background through in overlay
        // mode only; 8888 ones (alpha 0) are cut by the alpha test in both modes.
        if matches!(stored.skins[0].pixels, SkinPixels::Argb8888(_)) {
            assert_eq!(shown[0], shown[1]);
        } else {
            assert!(shown[1] > shown[0] + 50, "{shown:?}");
        }
    }
}
