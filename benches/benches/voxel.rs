//! Voxel ray-marcher throughput against a naive reference renderer written here: the reference
//! projects every voxel centre to one z-tested pixel and shades it through the same VPL page table.
//!
//! Reported: voxels/s (model voxels drawn per second) and units/s for hmec (Tiberian Sun's Mammoth
//! Mk II) at 128x128 on 1 and 2 threads, and a scene of 100 units at 360x240. Without the sample
//! files a synthetic 9000-voxel unit stands in for hmec.
//!
//! At its end the bench times both renderers again, alternating frame by frame in the same run,
//! and prints one line per case (`hmec128`, `units100`) and thread count (1, 2):
//! `VOXRATIO <case> <threads> modex_ms=<t> splat_ms=<t> ratio=<splat/modex>` (ratio > 1: modex is
//! faster; the reference always runs on one thread), after a `COVERED <case> <threads>
//! modex_pixels=<n> splat_pixels=<n>` line per case with the pixels each drew in its last frame
//! (the reference's point per voxel leaves holes where voxels are larger than a pixel, and
//! widens the outline by up to half a pixel where they are smaller; modex covers the pixel
//! centres its faces cover). `MODEX_BENCH_QUICK=1` skips the criterion groups and gives each
//! ratio case about one second; `MODEX_BENCH_CASE=<case>` and `MODEX_BENCH_THREADS=<t>` keep only
//! that case or thread count.
//!
//! `cargo bench -p modex-benches --bench voxel -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, BenchmarkId, Criterion, Throughput};
use glam::{Mat4, Vec3, Vec4};
use modex::{Camera, DepthBuffer, IndexedFrame};
use modex_bench::scenes::voxel::Units;
use modex_voxel::{
    draw, frame_scene, game_camera, Instance, Pose, RenderOptions, Unit, VoxelModel,
};
use modex_vxl::{Vpl, VxlNormalTable};

/// hmec and the game's VPL from the samples, or a synthetic unit of its size: the unit `modex bench`
/// draws (`modex_bench::scenes::voxel::Units`), named as the model is.
fn load_unit() -> (VoxelModel, Vpl, String) {
    let units = Units::load().expect("the bench's voxel unit loads");
    let name = units.model.name.clone();
    (units.model, units.vpl, name)
}

/// Game-lighting VPL page per normal index for a limb whose normals turn by `m` (the reference's
/// own copy of the shading, so both renderers do equal work per pixel).
fn page_table(table: Option<VxlNormalTable>, m: &Mat4) -> [u8; 256] {
    let mut out = [8u8; 256];
    let Some(t) = table else { return out };
    let l = Vec3::new(
        -std::f32::consts::FRAC_1_SQRT_2,
        -std::f32::consts::FRAC_1_SQRT_2,
        0.0,
    );
    let h = (l + Vec3::Z).normalize();
    for (i, o) in out.iter_mut().enumerate() {
        let n = m
            .transform_vector3(Vec3::from(t.get(i as u8)))
            .normalize_or_zero();
        let nh = n.dot(h);
        let spec = (nh / (3.0 - 2.0 * nh)).max(0.0);
        *o = ((n.dot(l).max(0.0) + spec) * 16.0).clamp(0.0, 31.0) as u8;
    }
    out
}

/// The naive reference: every voxel centre projected to one pixel, z-tested, VPL-shaded.
fn reference_draw(
    scene: &[(&VoxelModel, Pose)],
    camera: &Camera,
    vpl: &Vpl,
    frame: &mut IndexedFrame,
    depth: &mut DepthBuffer,
) {
    let vp = camera.view_projection();
    let view = camera.view();
    let (w, h) = (camera.width as f32, camera.height as f32);
    let width = camera.width;
    for (model, pose) in scene {
        let unit = Mat4::from_translation(pose.position)
            * Mat4::from_rotation_z((64.0 - pose.facing) * std::f32::consts::TAU / 256.0);
        let table = model.normal_table(Default::default());
        for (i, limb) in model.vxl.limbs.iter().enumerate() {
            let Ok(Some(m)) = model.limb_matrix(i, pose.frame) else {
                continue;
            };
            let g = unit * m;
            let pages = page_table(table, &g);
            let to_clip = vp * g;
            let to_view = view * g;
            for (x, y, v) in limb.iter_voxels() {
                let p = Vec4::new(x as f32 + 0.5, y as f32 + 0.5, v.z as f32 + 0.5, 1.0);
                let c = to_clip * p;
                if c.w <= 0.0 {
                    continue;
                }
                let sx = (c.x / c.w + 1.0) * 0.5 * w;
                let sy = (1.0 - c.y / c.w) * 0.5 * h;
                if sx < 0.0 || sy < 0.0 || sx >= w || sy >= h {
                    continue;
                }
                let z = -(to_view * p).z;
                let idx = sy as usize * width + sx as usize;
                let d = &mut depth.values_mut()[idx];
                if z < *d {
                    *d = z;
                    frame.pixels_mut()[idx] =
                        vpl.page(pages[v.normal as usize] as usize)[v.colour as usize];
                }
            }
        }
    }
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// Run `frames`, a timed loop of draws on `threads` threads. One thread draws with
/// `parallel: false`, which touches no pool, so on the calling thread, as the reference does and
/// as a one-thread caller would (handing each frame to a one-thread pool's worker cost 10-20 us
/// per draw here, 5-10 % of hmec128; round 8). More threads run the whole loop inside `pool`, as
/// the demo's frame loop runs inside its pool (`modex::with_threads`): the reference then draws on
/// the same pool thread, and a parallel draw shares its work from there instead of handing every
/// frame to a worker and waiting for it (round 9; that hand-over was 0.05-0.1 ms of a 0.13 ms
/// hmec128 frame, a cost of the bench's framing, not of the draw).
fn on_threads<R: Send>(
    pool: &rayon::ThreadPool,
    threads: usize,
    frames: impl FnOnce() -> R + Send,
) -> R {
    if threads == 1 {
        frames()
    } else {
        pool.install(frames)
    }
}

fn scene_of(model: &VoxelModel, n: usize) -> Vec<(&VoxelModel, Pose)> {
    (0..n)
        .map(|i| {
            let pose = Pose {
                position: Vec3::new((i % 10) as f32 * 60.0, (i / 10) as f32 * 60.0, 0.0),
                facing: (i * 37 % 256) as f32,
                frame: i,
                ..Pose::default()
            };
            (model, pose)
        })
        .collect()
}

fn bench_group(
    c: &mut Criterion,
    name: &str,
    model: &VoxelModel,
    vpl: &Vpl,
    units: usize,
    size: (usize, usize),
) {
    let scene = scene_of(model, units);
    let instances: Vec<Instance> = scene
        .iter()
        .map(|(m, pose)| Instance {
            unit: Unit::single(m),
            pose: *pose,
        })
        .collect();
    let camera = frame_scene(&instances, &game_camera(Vec3::ZERO, 100.0, size.0, size.1)).unwrap();
    {
        let mut f = IndexedFrame::new(size.0, size.1);
        let mut d = DepthBuffer::new(size.0, size.1);
        let stats = draw(
            &instances,
            &camera,
            vpl,
            &RenderOptions::default(),
            &mut f,
            &mut d,
        )
        .unwrap();
        let covered = f.pixels().iter().filter(|&&p| p != 0).count();
        eprintln!(
            "{name}: {} limbs on screen, {} rays, {covered} pixels covered",
            stats.limbs, stats.rays
        );
    }
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(
        (model.vxl.voxel_count() * units) as u64,
    ));
    let (w, h) = size;
    for threads in [1usize, 2] {
        let p = pool(threads);
        let opts = RenderOptions {
            parallel: threads > 1,
            ..RenderOptions::default()
        };
        g.bench_function(BenchmarkId::new("raymarch", format!("{threads}t")), |b| {
            let mut f = IndexedFrame::new(w, h);
            let mut d = DepthBuffer::new(w, h);
            on_threads(&p, threads, || {
                b.iter(|| {
                    f.clear(0);
                    d.clear();
                    draw(black_box(&instances), &camera, vpl, &opts, &mut f, &mut d).unwrap();
                })
            });
            black_box(&f);
        });
    }
    g.bench_function(BenchmarkId::new("reference_splat", "1t"), |b| {
        let mut f = IndexedFrame::new(w, h);
        let mut d = DepthBuffer::new(w, h);
        b.iter(|| {
            f.clear(0);
            d.clear();
            reference_draw(black_box(&scene), &camera, vpl, &mut f, &mut d);
        });
        black_box(&f);
    });
    g.finish();
}

fn voxel_benches(c: &mut Criterion) {
    let (model, vpl, name) = load_unit();
    eprintln!(
        "unit: {name}, {} voxels in {} limbs",
        model.vxl.voxel_count(),
        model.vxl.limbs.len()
    );
    bench_group(
        c,
        &format!("voxel_{name}_128x128"),
        &model,
        &vpl,
        1,
        (128, 128),
    );
    bench_group(
        c,
        &format!("voxel_100_{name}_360x240"),
        &model,
        &vpl,
        100,
        (360, 240),
    );
}

/// One VOXRATIO case's result.
struct Ratio {
    /// Median milliseconds per frame of modex and of the reference splat.
    modex_ms: f64,
    splat_ms: f64,
    /// Pixels each drew (finite depth) in its last frame: the reference's point per voxel leaves
    /// holes where a voxel covers more than one pixel, modex's faces do not.
    modex_covered: usize,
    splat_covered: usize,
}

/// Median milliseconds per frame of `modex` (on `threads`) and of the reference splat, drawn
/// alternately so both see the same machine load, for about `budget` together.
fn ratio_case(
    model: &VoxelModel,
    vpl: &Vpl,
    units: usize,
    size: (usize, usize),
    threads: usize,
    budget: Duration,
) -> Ratio {
    let scene = scene_of(model, units);
    let instances: Vec<Instance> = scene
        .iter()
        .map(|(m, pose)| Instance {
            unit: Unit::single(m),
            pose: *pose,
        })
        .collect();
    let camera = frame_scene(&instances, &game_camera(Vec3::ZERO, 100.0, size.0, size.1)).unwrap();
    let (w, h) = size;
    let p = pool(threads);
    let opts = RenderOptions {
        parallel: threads > 1,
        ..RenderOptions::default()
    };
    let (mut f, mut d) = (IndexedFrame::new(w, h), DepthBuffer::new(w, h));
    on_threads(&p, threads, || {
        let (mut modex, mut reference) = (Vec::new(), Vec::new());
        let covered = |d: &DepthBuffer| d.values().iter().filter(|z| z.is_finite()).count();
        let (mut modex_covered, mut splat_covered) = (0, 0);
        let start = Instant::now();
        while start.elapsed() < budget || modex.len() < 5 {
            let t = Instant::now();
            f.clear(0);
            d.clear();
            draw(black_box(&instances), &camera, vpl, &opts, &mut f, &mut d).unwrap();
            modex.push(t.elapsed().as_secs_f64() * 1e3);
            modex_covered = covered(&d);
            let t = Instant::now();
            f.clear(0);
            d.clear();
            reference_draw(black_box(&scene), &camera, vpl, &mut f, &mut d);
            reference.push(t.elapsed().as_secs_f64() * 1e3);
            splat_covered = covered(&d);
        }
        black_box(&f);
        Ratio {
            modex_ms: median(&mut modex),
            splat_ms: median(&mut reference),
            modex_covered,
            splat_covered,
        }
    })
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn voxel_ratios() {
    let quick = std::env::var_os("MODEX_BENCH_QUICK").is_some();
    let budget = Duration::from_millis(if quick { 1000 } else { 4000 });
    // `MODEX_BENCH_CASE=hmec128` / `MODEX_BENCH_THREADS=1` time one case alone (for profiling
    // one lever under perf or callgrind without the other cases in the samples).
    let only_case = std::env::var("MODEX_BENCH_CASE").ok();
    let only_threads = std::env::var("MODEX_BENCH_THREADS").ok();
    let (model, vpl, _) = load_unit();
    let mut lines = Vec::new();
    for (case, units, size) in [("hmec128", 1, (128, 128)), ("units100", 100, (360, 240))] {
        if only_case.as_deref().is_some_and(|c| c != case) {
            continue;
        }
        for threads in [1, 2] {
            if only_threads
                .as_deref()
                .is_some_and(|t| t != threads.to_string())
            {
                continue;
            }
            let r = ratio_case(&model, &vpl, units, size, threads, budget);
            let (m, s) = (r.modex_ms, r.splat_ms);
            println!(
                "COVERED {case} {threads} modex_pixels={} splat_pixels={}",
                r.modex_covered, r.splat_covered
            );
            lines.push(format!(
                "VOXRATIO {case} {threads} modex_ms={m:.3} splat_ms={s:.3} ratio={:.2}",
                s / m
            ));
        }
    }
    for l in lines {
        println!("{l}");
    }
}

criterion_group!(benches, voxel_benches);

fn main() {
    if std::env::var_os("MODEX_BENCH_QUICK").is_none() {
        benches();
        Criterion::default().configure_from_args().final_summary();
    }
    voxel_ratios();
}
