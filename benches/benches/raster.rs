//! Software rasterizer throughput, side by side with `euc` 0.5.3 and `retrofire-core` 0.4.
//!
//! Scenes are generated in code with fixed seeds (plus the real minigun model when the samples are
//! present): full-screen textured quads (fill rate), a 10k-triangle lit sphere, 100k small
//! triangles (setup-bound), 4x overdraw front-to-back and back-to-front, a grazing-angle floor, and
//! the minigun. Every measured frame is a whole frame: clear colour and depth, then draw.
//!
//! Matrix (kept to a few minutes on a shared 2-core machine):
//! - `raster/<scene>/<fmt>/<size>/<threads>`: every scene at 320x200, 640x480, 1920x1080 in 8-bit
//!   with 1 thread; at 640x480 also 565 and 8888 with 1 thread and 8-bit with 2 threads; the fill
//!   scene gets the full sizes x formats x threads product.
//! - `peers/<scene>/<renderer>/640x480`: modex, euc and retrofire on the same triangles, 8888, one
//!   thread.
//! - `clear/<fmt>/<size>`: the full-frame clear alone, the denominator of "frame / clear".
//!
//! Throughput is reported in pixels (criterion's "elem/s"); the scene sizes printed at start give
//! triangles per frame for Mtris/s. Run: `cargo bench -p modex-benches --bench raster`
//! (`docs/benchmarks.md` has the table and the exact command).

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use glam::{Mat4, Vec2, Vec3, Vec4};
use modex::{Argb8888, Camera, DepthBuffer, IndexedFrame, Rgb565, Surface};
use modex_raster::{Material, PreparedModel, Renderer, LIGHT_ONE};

use modex_bench::scenes::raster::{frame, renderer, Scene};

/// The raster scenes of `modex bench` (`modex_bench::scenes::raster`).
fn scenes() -> Vec<Scene> {
    modex_bench::scenes::raster::all().expect("the raster scenes build")
}

const SIZES: [(usize, usize); 3] = [(320, 200), (640, 480), (1920, 1080)];
const PEER_SIZE: (usize, usize) = (640, 480);

/// Pixels a scene covers (measured once with modex, 8-bit).
fn covered(r: &Renderer, cam: &Camera, m: &PreparedModel, w: usize, h: usize) -> usize {
    let mut f = IndexedFrame::new(w, h);
    let mut d = DepthBuffer::new(w, h);
    frame(r, &mut f, &mut d, cam, m);
    d.values().iter().filter(|z| z.is_finite()).count()
}

fn pool(n: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .unwrap()
}

fn bench_modex(c: &mut Criterion) {
    let pools = [pool(1), pool(2)];
    for scene in scenes() {
        let mut g = c.benchmark_group(format!("raster/{}", scene.name));
        for &(w, h) in &SIZES {
            let cam = (scene.camera)(&scene.model, w, h);
            let r = renderer(&cam);
            let m = r.prepare(&scene.model);
            let px = covered(&r, &cam, &m, w, h) * scene.layers;
            println!(
                "SCENE {} {w}x{h}: {} triangles, {px} pixels per frame",
                scene.name,
                scene.model.triangles.len()
            );
            g.throughput(Throughput::Elements(px as u64));
            let full = scene.name == "fill";
            for (fmt, threads) in [
                ("8", 1),
                ("565", 1),
                ("8888", 1),
                ("8", 2),
                ("565", 2),
                ("8888", 2),
            ] {
                let wanted = full
                    || (fmt == "8" && threads == 1)
                    || ((w, h) == PEER_SIZE && (threads == 1 || fmt == "8"));
                if !wanted {
                    continue;
                }
                let id = BenchmarkId::new(format!("{fmt}/{threads}t"), format!("{w}x{h}"));
                let p = &pools[threads - 1];
                let mut d = DepthBuffer::new(w, h);
                match fmt {
                    "8" => {
                        let mut t = IndexedFrame::new(w, h);
                        g.bench_function(id, |b| {
                            p.install(|| b.iter(|| frame(&r, &mut t, &mut d, &cam, &m)))
                        });
                    }
                    "565" => {
                        let mut t = Surface::<Rgb565>::new(w, h);
                        g.bench_function(id, |b| {
                            p.install(|| b.iter(|| frame(&r, &mut t, &mut d, &cam, &m)))
                        });
                    }
                    _ => {
                        let mut t = Surface::<Argb8888>::new(w, h);
                        g.bench_function(id, |b| {
                            p.install(|| b.iter(|| frame(&r, &mut t, &mut d, &cam, &m)))
                        });
                    }
                }
            }
        }
        g.finish();
    }
}

fn bench_clear(c: &mut Criterion) {
    let mut g = c.benchmark_group("clear");
    for &(w, h) in &SIZES {
        g.throughput(Throughput::Elements((w * h) as u64));
        let mut d = DepthBuffer::new(w, h);
        let mut f = IndexedFrame::new(w, h);
        g.bench_function(BenchmarkId::new("8", format!("{w}x{h}")), |b| {
            b.iter(|| {
                f.clear(0);
                d.clear();
            })
        });
        let mut s = Surface::<Rgb565>::new(w, h);
        g.bench_function(BenchmarkId::new("565", format!("{w}x{h}")), |b| {
            b.iter(|| {
                s.clear(Rgb565(0));
                d.clear();
            })
        });
        let mut s = Surface::<Argb8888>::new(w, h);
        g.bench_function(BenchmarkId::new("8888", format!("{w}x{h}")), |b| {
            b.iter(|| {
                s.clear(Argb8888(0xff00_0000));
                d.clear();
            })
        });
    }
    g.finish();
}

/// A scene flattened for the peers: per corner the world position, texel coordinates and the same
/// Gouraud intensity modex computes, so every renderer does the same work per pixel (perspective
/// texture lookup with wrap, multiply by light, depth test).
pub struct Soup {
    corners: Vec<Corner>,
    tex: Texels,
    mvp: Mat4,
}

/// A skin's texels packed as modex's true-colour path reads them (`r | g << 8 | b << 16 | a << 24`).
pub struct Texels {
    width: u32,
    height: u32,
    rgba: Vec<u32>,
}

impl Texels {
    fn of(skin: &modex_mdl::Skin) -> Texels {
        Texels {
            width: skin.width as u32,
            height: skin.height as u32,
            rgba: skin
                .rgba
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Corner {
    pos: Vec3,
    u: f32,
    v: f32,
    light: f32,
}

fn soup(scene: &Scene, r: &Renderer, cam: &Camera) -> Soup {
    let m = &scene.model;
    let tex = Texels::of(&m.skins[0]);
    let f = &m.frames[0];
    let to_sun = r.light.towards_sun();
    let mut corners = Vec::with_capacity(m.triangles.len() * 3);
    for t in &m.triangles {
        for k in 0..3 {
            let vi = t.vertices[k] as usize;
            let uv = m.uvs[t.uvs[k] as usize] * Vec2::new(tex.width as f32, tex.height as f32);
            let n = match &f.normal_indices {
                Some(idx) => Vec3::from(modex_mdl::normals::mdl_normal(idx[vi] as usize)),
                None => f.normals[vi],
            };
            let light =
                r.light.intensity(n.dot(to_sun), 0.0, 50.0, Material::PLAIN) / LIGHT_ONE as f32;
            corners.push(Corner {
                pos: f.positions[vi],
                u: uv.x,
                v: uv.y,
                light,
            });
        }
    }
    Soup {
        corners,
        tex,
        mvp: cam.view_projection(),
    }
}

#[inline(always)]
fn shade(tex: &Texels, u: f32, v: f32, light: f32) -> u32 {
    let (w, h) = (tex.width as i32, tex.height as i32);
    let (mut x, mut y) = (u as i32, v as i32);
    if x < 0 || x >= w {
        x = x.rem_euclid(w);
    }
    if y < 0 || y >= h {
        y = y.rem_euclid(h);
    }
    let t = tex.rgba[(y * w + x) as usize];
    let l = (light * LIGHT_ONE as f32) as u32;
    let ch = |s: u32| ((((t >> s) & 255) * l) >> 8).min(255);
    0xff00_0000 | ch(0) << 16 | ch(8) << 8 | ch(16)
}

mod peer_euc {
    use super::*;
    use euc::{buffer::Buffer2d, rasterizer, DepthStrategy, Pipeline, Target as _};

    pub struct Pipe<'a>(pub &'a Soup);

    impl Pipeline for Pipe<'_> {
        type Vertex = Corner;
        type VsOut = (f32, f32, f32);
        type Pixel = u32;

        #[inline]
        fn vert(&self, c: &Corner) -> ([f32; 4], Self::VsOut) {
            let p = self.0.mvp * Vec4::new(c.pos.x, c.pos.y, c.pos.z, 1.0);
            (p.to_array(), (c.u, c.v, c.light))
        }

        #[inline]
        fn frag(&self, &(u, v, l): &Self::VsOut) -> u32 {
            shade(&self.0.tex, u, v, l)
        }

        fn get_depth_strategy(&self) -> DepthStrategy {
            DepthStrategy::IfLessWrite
        }
    }

    pub struct Buffers {
        pub color: Buffer2d<u32>,
        pub depth: Buffer2d<f32>,
    }

    impl Buffers {
        pub fn new(w: usize, h: usize) -> Self {
            Buffers {
                color: Buffer2d::new([w, h], 0),
                depth: Buffer2d::new([w, h], 1.0),
            }
        }
    }

    /// euc culls by its own winding rule; `cull` picks the variant that keeps modex's front faces
    /// (checked at start-up against a known triangle).
    pub fn draw(s: &Soup, b: &mut Buffers, cull: bool) {
        b.color.clear(0xff00_0000);
        b.depth.clear(1.0);
        if cull {
            Pipe(s).draw::<rasterizer::Triangles<_, rasterizer::BackfaceCullingEnabled>, _>(
                &s.corners,
                &mut b.color,
                Some(&mut b.depth),
            );
        } else {
            Pipe(s).draw::<rasterizer::Triangles<_, rasterizer::BackfaceCullingDisabled>, _>(
                &s.corners,
                &mut b.color,
                Some(&mut b.depth),
            );
        }
    }

    pub fn drawn(b: &Buffers) -> usize {
        b.color
            .as_ref()
            .iter()
            .filter(|&&c| c != 0xff00_0000)
            .count()
    }
}

mod peer_retrofire {
    use super::*;
    use retrofire_core::geom::{vertex, Tri, Vertex};
    use retrofire_core::math::{mat::viewport, pt2, rgba, Color4, ProjVec3};
    use retrofire_core::render::raster::Frag;
    use retrofire_core::render::{ctx::FaceCull, shader, Colorbuf, Context, Framebuf};
    use retrofire_core::util::pixfmt::Argb8888 as RfArgb;
    use retrofire_core::util::Buf2;

    pub struct Buffers {
        pub fb: Framebuf<Colorbuf<Buf2<u32>, RfArgb>, Buf2<f32>>,
        pub tris: Vec<Tri<usize>>,
        w: u32,
        h: u32,
    }

    impl Buffers {
        pub fn new(s: &Soup, w: usize, h: usize) -> Self {
            let dims = retrofire_core::util::Dims(w as u32, h as u32);
            Buffers {
                fb: Framebuf {
                    color_buf: Colorbuf::new(Buf2::new(dims)),
                    depth_buf: Buf2::new(dims),
                },
                tris: (0..s.corners.len() / 3)
                    .map(|i| Tri([3 * i, 3 * i + 1, 3 * i + 2]))
                    .collect(),
                w: w as u32,
                h: h as u32,
            }
        }
    }

    pub fn draw(s: &Soup, b: &mut Buffers, cull: Option<FaceCull>) {
        // retrofire's depth is 1/w, larger = nearer: clear to 0.
        b.fb.color_buf.buf.fill(0xff00_0000);
        b.fb.depth_buf.fill(0.0);
        let ctx = Context {
            face_cull: cull,
            color_clear: None,
            depth_clear: None,
            ..Context::default()
        };
        let vs = |c: Corner, mvp: &Mat4| -> Vertex<ProjVec3, (f32, (f32, f32))> {
            let p = *mvp * Vec4::new(c.pos.x, c.pos.y, c.pos.z, 1.0);
            vertex(ProjVec3::new(p.to_array()), (c.light, (c.u, c.v)))
        };
        let fs = |f: Frag<(f32, (f32, f32))>, _: &Mat4| -> Color4 {
            let (l, (u, v)) = f.var;
            let c = shade(&s.tex, u, v, l);
            rgba((c >> 16) as u8, (c >> 8) as u8, c as u8, 255)
        };
        let sh = shader::new(vs, fs);
        // NDC y = +1 is the top row, as in glam's (and modex's) convention.
        let vp = viewport(pt2(0, b.h)..pt2(b.w, 0));
        retrofire_core::render::render(&b.tris, &s.corners, &sh, &s.mvp, vp, &mut b.fb, &ctx);
    }

    pub fn drawn(b: &Buffers) -> usize {
        b.fb.color_buf
            .buf
            .data()
            .iter()
            .filter(|&&c| c != 0xff00_0000)
            .count()
    }
}

fn bench_peers(c: &mut Criterion) {
    let (w, h) = PEER_SIZE;
    for scene in scenes() {
        let cam = (scene.camera)(&scene.model, w, h);
        let r = renderer(&cam);
        let m = r.prepare(&scene.model);
        let px = covered(&r, &cam, &m, w, h);
        let s = soup(&scene, &r, &cam);
        // Each peer's back-face rule was matched to modex's on the single-sided fill quad (euc:
        // its `BackfaceCullingEnabled`; retrofire: `FaceCull::Front` with our y-down viewport);
        // the coverage printed below shows they draw the same faces.
        let euc_cull = true;
        let rf_cull = Some(retrofire_core::render::ctx::FaceCull::Front);
        let mut eb = peer_euc::Buffers::new(w, h);
        let mut rb = peer_retrofire::Buffers::new(&s, w, h);
        peer_euc::draw(&s, &mut eb, euc_cull);
        peer_retrofire::draw(&s, &mut rb, rf_cull);
        println!(
            "PEERS {} {w}x{h}: modex covers {px}, euc {} (cull {euc_cull}), retrofire {} ({rf_cull:?})",
            scene.name,
            peer_euc::drawn(&eb),
            peer_retrofire::drawn(&rb)
        );
        let mut g = c.benchmark_group(format!("peers/{}", scene.name));
        g.throughput(Throughput::Elements((px * scene.layers) as u64));
        let size = format!("{w}x{h}");
        let p1 = pool(1);
        let mut t = Surface::<Argb8888>::new(w, h);
        let mut d = DepthBuffer::new(w, h);
        g.bench_function(BenchmarkId::new("modex-8888", &size), |b| {
            p1.install(|| b.iter(|| frame(&r, &mut t, &mut d, &cam, &m)))
        });
        let mut f = IndexedFrame::new(w, h);
        g.bench_function(BenchmarkId::new("modex-8", &size), |b| {
            p1.install(|| b.iter(|| frame(&r, &mut f, &mut d, &cam, &m)))
        });
        g.bench_function(BenchmarkId::new("euc-8888", &size), |b| {
            b.iter(|| peer_euc::draw(&s, &mut eb, euc_cull))
        });
        g.bench_function(BenchmarkId::new("retrofire-8888", &size), |b| {
            b.iter(|| peer_retrofire::draw(&s, &mut rb, rf_cull))
        });
        g.finish();
    }
}

/// CPU time of the whole process (sum over its threads, from `/proc/self/task/*/schedstat`), so
/// the single-thread numbers mean "per core" even on a loaded machine where wall time stretches with
/// the load. Linux only; elsewhere it reads 0 and the wall-time groups are the ones to read.
mod cpu_time {
    use criterion::measurement::{Measurement, ValueFormatter};
    use criterion::Throughput;

    pub struct ProcessCpu;

    fn now_ns() -> u64 {
        let Ok(dir) = std::fs::read_dir("/proc/self/task") else {
            return 0;
        };
        dir.flatten()
            .filter_map(|e| std::fs::read_to_string(e.path().join("schedstat")).ok())
            .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
            .sum()
    }

    impl Measurement for ProcessCpu {
        type Intermediate = u64;
        type Value = u64;
        fn start(&self) -> u64 {
            now_ns()
        }
        fn end(&self, i: u64) -> u64 {
            now_ns().saturating_sub(i)
        }
        fn add(&self, a: &u64, b: &u64) -> u64 {
            a + b
        }
        fn zero(&self) -> u64 {
            0
        }
        fn to_f64(&self, v: &u64) -> f64 {
            *v as f64
        }
        fn formatter(&self) -> &dyn ValueFormatter {
            &CpuFormatter
        }
    }

    struct CpuFormatter;

    impl ValueFormatter for CpuFormatter {
        fn scale_values(&self, typical: f64, values: &mut [f64]) -> &'static str {
            let (div, unit) = if typical < 1e3 {
                (1.0, "ns cpu")
            } else if typical < 1e6 {
                (1e3, "µs cpu")
            } else if typical < 1e9 {
                (1e6, "ms cpu")
            } else {
                (1e9, "s cpu")
            };
            values.iter_mut().for_each(|v| *v /= div);
            unit
        }
        fn scale_throughputs(
            &self,
            _typical: f64,
            t: &Throughput,
            values: &mut [f64],
        ) -> &'static str {
            let n = match t {
                Throughput::Elements(n) | Throughput::Bytes(n) | Throughput::BytesDecimal(n) => {
                    *n as f64
                }
                Throughput::ElementsAndBytes { elements, .. } => *elements as f64,
                Throughput::Bits(n) => *n as f64,
            };
            values.iter_mut().for_each(|v| *v = n / *v * 1e3);
            "Melem/s per core"
        }
        fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
            "ns"
        }
    }
}

/// The fill scene and the peers again, timed in process CPU time (one thread each).
fn bench_cpu(c: &mut Criterion<cpu_time::ProcessCpu>) {
    let p1 = pool(1);
    for scene in scenes() {
        let (w, h) = PEER_SIZE;
        let sizes: &[(usize, usize)] = if scene.name == "fill" {
            &SIZES
        } else {
            &[PEER_SIZE]
        };
        let mut g = c.benchmark_group(format!("cpu/{}", scene.name));
        for &(w, h) in sizes {
            let cam = (scene.camera)(&scene.model, w, h);
            let r = renderer(&cam);
            let m = r.prepare(&scene.model);
            g.throughput(Throughput::Elements(
                (covered(&r, &cam, &m, w, h) * scene.layers) as u64,
            ));
            let size = format!("{w}x{h}");
            let mut d = DepthBuffer::new(w, h);
            let mut f = IndexedFrame::new(w, h);
            g.bench_function(BenchmarkId::new("modex-8", &size), |b| {
                p1.install(|| b.iter(|| frame(&r, &mut f, &mut d, &cam, &m)))
            });
            let mut t = Surface::<Argb8888>::new(w, h);
            g.bench_function(BenchmarkId::new("modex-8888", &size), |b| {
                p1.install(|| b.iter(|| frame(&r, &mut t, &mut d, &cam, &m)))
            });
        }
        let cam = (scene.camera)(&scene.model, w, h);
        let r = renderer(&cam);
        let s = soup(&scene, &r, &cam);
        let size = format!("{w}x{h}");
        let mut eb = peer_euc::Buffers::new(w, h);
        let mut rb = peer_retrofire::Buffers::new(&s, w, h);
        let rf_cull = Some(retrofire_core::render::ctx::FaceCull::Front);
        g.bench_function(BenchmarkId::new("euc-8888", &size), |b| {
            b.iter(|| peer_euc::draw(&s, &mut eb, true))
        });
        g.bench_function(BenchmarkId::new("retrofire-8888", &size), |b| {
            b.iter(|| peer_retrofire::draw(&s, &mut rb, rf_cull))
        });
        g.finish();
    }
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(400))
        .measurement_time(Duration::from_millis(1500))
        .sample_size(10)
}

fn cpu_config() -> Criterion<cpu_time::ProcessCpu> {
    config().with_measurement(cpu_time::ProcessCpu)
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_clear, bench_modex, bench_peers
}
criterion_group! {
    name = cpu_benches;
    config = cpu_config();
    targets = bench_cpu
}
criterion_main!(benches, cpu_benches);
