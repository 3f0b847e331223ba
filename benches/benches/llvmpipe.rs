//! modex against Mesa's llvmpipe (through OSMesa) on the raster bench's scenes, side by side.
//!
//! llvmpipe is what a user would run instead of modex for CPU rendering: it JIT-compiles the
//! fixed-function pipeline for the host's vector units, bins triangles into tiles and uses
//! `LP_NUM_THREADS` threads. Both renderers get the same triangles (the model's vertices with their
//! texture coordinates, indexed), the same skin, the same camera and the same per-vertex light:
//! llvmpipe draws with GL 1.x fixed function (texture MODULATE vertex colour through
//! `GL_COMBINE` with `GL_RGB_SCALE` 2, since modex's light goes up to 2x the texel, nearest
//! filtering, `GL_REPEAT`, back faces culled, depth test `GL_LESS`), into `OSMESA_BGRA` (the
//! byte order of modex's `Argb8888`) or `OSMESA_RGB_565`. A frame is clear + draw + `glFinish`,
//! which includes OSMesa's copy into the caller's buffer; a modex frame is clear + draw.
//!
//! `LP_NUM_THREADS` is read when llvmpipe's screen is created, once per process, so the bench runs
//! itself once per thread count (the environment variable `MODEX_LLVMPIPE_THREADS` marks the
//! child) and modex uses the same number of rayon threads there. Within a child every case
//! alternates one modex frame and one llvmpipe frame until its time is up and reports the medians,
//! so load from other processes hits both alike. The parent prints every case's `RATIO` line at
//! the end.
//!
//! Run: `cargo bench -p modex-benches --bench llvmpipe` (`MODEX_BENCH_QUICK=1`: about one second
//! per case). Optional arguments filter the cases by substring of `scene/format/WxH`. For
//! instruction counts of modex alone, run the bench binary directly as a one-thread child with a
//! fixed frame count: `MODEX_LLVMPIPE_THREADS=1 MODEX_BENCH_FRAMES=20 valgrind --tool=callgrind
//! target/release/deps/llvmpipe-<hash> fill/565/640`. Both sample the skin's mip levels (modex's,
//! given to GL as its levels, `GL_NEAREST_MIPMAP_NEAREST`); `MODEX_BENCH_MIPMAPS=0` draws both
//! from level 0 alone (`GL_NEAREST`). Images of
//! both renderers side by side (modex left) go to `target/llvmpipe/` for the 640x480 cases.

#[path = "common/osmesa.rs"]
mod osmesa;
#[path = "common/raster_scenes.rs"]
mod raster_scenes;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use glam::{Mat4, Vec3};
use modex::SurfacePixel;
use modex::{Argb8888, Camera, DepthBuffer, Pixel, Rgb565, Surface};
use modex_raster::{PreparedModel, RasterPixel, Renderer, LIGHT_ONE};
use osmesa::*;
use raster_scenes::{frame, renderer, scenes, Scene};

const SIZES: [(usize, usize); 2] = [(640, 480), (1920, 1080)];
const THREADS: [usize; 2] = [1, 2];
const CHILD_ENV: &str = "MODEX_LLVMPIPE_THREADS";
/// Covered-pixel counts of the two renderers must agree within this fraction.
const COVERAGE_TOLERANCE: f64 = 0.02;

fn main() {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    match std::env::var(CHILD_ENV) {
        Ok(t) => child(t.parse().unwrap_or(1), &filters),
        Err(_) => parent(),
    }
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// Run one child per thread count, echo its output and collect its result lines.
fn parent() {
    println!("LOAD at start: {}", load_average());
    let exe = std::env::current_exe().expect("the bench knows its own path");
    let mut results = Vec::new();
    for t in THREADS {
        let mut child = Command::new(&exe)
            .args(std::env::args().skip(1))
            .env(CHILD_ENV, t.to_string())
            .env("LP_NUM_THREADS", t.to_string())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the bench can run itself");
        let out = child.stdout.take().expect("piped stdout");
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            // The per-case summary lines are printed once, together at the end, so a script
            // reading the RATIO lines sees each case exactly once.
            if line.starts_with("RATIO ") || line.starts_with("MODEX ") {
                results.push(line);
            } else {
                println!("{line}");
            }
        }
        let status = child.wait().expect("child runs");
        assert!(status.success(), "the {t}-thread run failed: {status}");
    }
    println!("LOAD at end: {}", load_average());
    for line in results {
        println!("{line}");
    }
}

/// The scene as llvmpipe gets it: one vertex per distinct (position, texture coordinate) pair of
/// the model, with the light modex computes for that vertex, and the triangles as indices.
struct GlMesh {
    /// x, y, z, s, t, r, g, b, a per vertex.
    vertices: Vec<[f32; 9]>,
    indices: Vec<u32>,
    /// The skin's mip levels as modex draws them (level 0 first, down to 1x1): width, height and
    /// RGBA8 texels, top row first. Only level 0 when modex draws without mip levels.
    levels: Vec<(usize, usize, Vec<u8>)>,
}

fn gl_mesh(scene: &Scene, r: &Renderer, prepared: &PreparedModel) -> GlMesh {
    let m = &scene.model;
    let f = &m.frames[0];
    let to_sun = r.light.towards_sun();
    let mut ids = std::collections::HashMap::new();
    let mut vertices = Vec::new();
    let mut indices = Vec::with_capacity(m.triangles.len() * 3);
    for t in &m.triangles {
        for k in 0..3 {
            let key = (t.vertices[k], t.uvs[k]);
            let id = *ids.entry(key).or_insert_with(|| {
                let vi = key.0 as usize;
                let uv = m.uvs[key.1 as usize];
                let n = match &f.normal_indices {
                    Some(idx) => Vec3::from(modex_mdl::normals::mdl_normal(idx[vi] as usize)),
                    None => f.normals[vi],
                };
                // modex multiplies the texel by light / LIGHT_ONE (up to ~2); GL's colour stops at
                // 1, so it gets half and the texture stage doubles the product.
                let l = (r.light.intensity(n.dot(to_sun), 0.0, 50.0) / LIGHT_ONE as f32 * 0.5)
                    .clamp(0.0, 1.0);
                let p = f.positions[vi];
                vertices.push([p.x, p.y, p.z, uv.x, uv.y, l, l, l, 1.0]);
                (vertices.len() - 1) as u32
            });
            indices.push(id);
        }
    }
    GlMesh {
        vertices,
        indices,
        levels: prepared
            .skin_levels(0)
            .take(if r.mipmaps { usize::MAX } else { 1 })
            .map(|(w, h, texels)| {
                let bytes = texels.iter().flat_map(|t| t.to_le_bytes()).collect();
                (w as usize, h as usize, bytes)
            })
            .collect(),
    }
}

/// glam's projection maps depth to 0..1 of w; GL clips and maps -w..w: z' = 2z - w.
fn gl_projection(cam: &Camera) -> Mat4 {
    let fix = Mat4::from_cols_array(&[
        1.0, 0.0, 0.0, 0.0, //
        0.0, 1.0, 0.0, 0.0, //
        0.0, 0.0, 2.0, 0.0, //
        0.0, 0.0, -1.0, 1.0,
    ]);
    fix * cam.view_projection()
}

/// GL objects of one case, in the current context.
struct Uploaded {
    texture: u32,
    buffers: [u32; 2],
    count: i32,
}

fn upload(b: &Bound, mesh: &GlMesh, cam: &Camera, (w, h): (usize, usize)) -> Uploaded {
    let gl = b.gl();
    let proj = gl_projection(cam).to_cols_array();
    let mut texture = 0;
    let mut buffers = [0; 2];
    // SAFETY: a context is current (`b`); every pointer passed is valid for the size given and
    // GL copies the data before returning (glTexImage2D, glBufferData, glLoadMatrixf).
    unsafe {
        (gl.glViewport)(0, 0, w as i32, h as i32);
        (gl.glMatrixMode)(GL_PROJECTION);
        (gl.glLoadMatrixf)(proj.as_ptr());
        (gl.glMatrixMode)(GL_MODELVIEW);
        (gl.glLoadIdentity)();
        (gl.glClearColor)(0.0, 0.0, 0.0, 1.0);
        (gl.glClearDepth)(1.0);
        (gl.glEnable)(GL_DEPTH_TEST);
        (gl.glDepthFunc)(GL_LESS);
        (gl.glEnable)(GL_CULL_FACE);
        (gl.glCullFace)(GL_BACK);
        (gl.glFrontFace)(GL_CCW);
        (gl.glEnable)(GL_TEXTURE_2D);
        (gl.glGenTextures)(1, &mut texture);
        (gl.glBindTexture)(GL_TEXTURE_2D, texture);
        (gl.glPixelStorei)(GL_UNPACK_ALIGNMENT, 1);
        (gl.glPixelStorei)(GL_PACK_ALIGNMENT, 1);
        for (level, (lw, lh, texels)) in mesh.levels.iter().enumerate() {
            (gl.glTexImage2D)(
                GL_TEXTURE_2D,
                level as i32,
                GL_RGBA as i32,
                *lw as i32,
                *lh as i32,
                0,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                texels.as_ptr().cast(),
            );
        }
        // The same levels modex samples, picked per pixel by GL's own rule (round(log2 ρ)).
        let min_filter = if mesh.levels.len() > 1 {
            GL_NEAREST_MIPMAP_NEAREST
        } else {
            GL_NEAREST
        };
        (gl.glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, min_filter);
        (gl.glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        (gl.glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
        (gl.glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
        (gl.glTexEnvi)(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_COMBINE);
        (gl.glTexEnvi)(GL_TEXTURE_ENV, GL_COMBINE_RGB, GL_MODULATE);
        (gl.glTexEnvi)(GL_TEXTURE_ENV, GL_SOURCE0_RGB, GL_TEXTURE);
        (gl.glTexEnvi)(GL_TEXTURE_ENV, GL_SOURCE1_RGB, GL_PRIMARY_COLOR);
        (gl.glTexEnvf)(GL_TEXTURE_ENV, GL_RGB_SCALE, 2.0);
        (gl.glGenBuffers)(2, buffers.as_mut_ptr());
        (gl.glBindBuffer)(GL_ARRAY_BUFFER, buffers[0]);
        (gl.glBufferData)(
            GL_ARRAY_BUFFER,
            std::mem::size_of_val(&mesh.vertices[..]) as isize,
            mesh.vertices.as_ptr().cast(),
            GL_STATIC_DRAW,
        );
        (gl.glBindBuffer)(GL_ELEMENT_ARRAY_BUFFER, buffers[1]);
        (gl.glBufferData)(
            GL_ELEMENT_ARRAY_BUFFER,
            std::mem::size_of_val(&mesh.indices[..]) as isize,
            mesh.indices.as_ptr().cast(),
            GL_STATIC_DRAW,
        );
        let stride = std::mem::size_of::<[f32; 9]>() as i32;
        // With a buffer bound, the "pointers" are byte offsets into it.
        (gl.glEnableClientState)(GL_VERTEX_ARRAY);
        (gl.glVertexPointer)(3, GL_FLOAT, stride, std::ptr::null());
        (gl.glEnableClientState)(GL_TEXTURE_COORD_ARRAY);
        (gl.glTexCoordPointer)(2, GL_FLOAT, stride, 12 as *const _);
        (gl.glEnableClientState)(GL_COLOR_ARRAY);
        (gl.glColorPointer)(4, GL_FLOAT, stride, 20 as *const _);
    }
    Uploaded {
        texture,
        buffers,
        count: mesh.indices.len() as i32,
    }
}

fn release(b: &Bound, u: &Uploaded) {
    let gl = b.gl();
    // SAFETY: a context is current; the names were generated in it.
    unsafe {
        (gl.glDeleteTextures)(1, &u.texture);
        (gl.glDeleteBuffers)(2, u.buffers.as_ptr());
    }
}

/// One llvmpipe frame: clear, draw, finish (which copies into the caller's buffer).
fn gl_frame(b: &Bound, u: &Uploaded) {
    let gl = b.gl();
    // SAFETY: a context is current with the case's buffers bound; the index buffer holds `count`
    // indices, all below the vertex count.
    unsafe {
        (gl.glClear)(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        (gl.glDrawElements)(GL_TRIANGLES, u.count, GL_UNSIGNED_INT, std::ptr::null());
        (gl.glFinish)();
    }
}

/// Which llvmpipe pixels were drawn (depth below the cleared 1.0), top row first.
fn gl_covered(b: &Bound, w: usize, h: usize) -> Vec<bool> {
    let mut z = vec![0f32; w * h];
    // SAFETY: a context is current; `z` holds w x h floats, the size glReadPixels writes.
    unsafe {
        (b.gl().glReadPixels)(
            0,
            0,
            w as i32,
            h as i32,
            GL_DEPTH_COMPONENT,
            GL_FLOAT,
            z.as_mut_ptr().cast(),
        )
    };
    // glReadPixels returns the bottom row first.
    let mut out = Vec::with_capacity(w * h);
    for y in (0..h).rev() {
        out.extend(z[y * w..(y + 1) * w].iter().map(|&d| d < 1.0));
    }
    out
}

/// A modex pixel format with its OSMesa twin.
trait Format: Pixel + RasterPixel + SurfacePixel {
    const LABEL: &'static str;
    const OSMESA: GLenum;
    const GL_TYPE: GLenum;
    type Raw: Copy + Default;
    fn rgb_of_raw(raw: Self::Raw) -> [u8; 3];
}

impl Format for Argb8888 {
    const LABEL: &'static str = "8888";
    const OSMESA: GLenum = OSMESA_BGRA;
    const GL_TYPE: GLenum = GL_UNSIGNED_BYTE;
    type Raw = u32;
    fn rgb_of_raw(raw: u32) -> [u8; 3] {
        let [r, g, b, _] = Argb8888(raw).to_rgba();
        [r, g, b]
    }
}

impl Format for Rgb565 {
    const LABEL: &'static str = "565";
    const OSMESA: GLenum = OSMESA_RGB_565;
    const GL_TYPE: GLenum = GL_UNSIGNED_SHORT_5_6_5;
    type Raw = u16;
    fn rgb_of_raw(raw: u16) -> [u8; 3] {
        let [r, g, b, _] = Rgb565(raw).to_rgba();
        [r, g, b]
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn output_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .or_else(|| {
            // target/<profile>/deps/llvmpipe-<hash>
            let exe = std::env::current_exe().ok()?;
            Some(exe.parent()?.parent()?.parent()?.to_path_buf())
        })
        .unwrap_or_else(|| PathBuf::from("target"));
    target.join("llvmpipe")
}

struct Case<'a> {
    scene: &'a Scene,
    size: (usize, usize),
    threads: usize,
    budget: Duration,
    save_images: bool,
    /// `MODEX_BENCH_FRAMES`: draw this many modex frames and nothing else.
    fixed_frames: Option<usize>,
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn run_case<P: Format>(case: &Case, mesa: Option<&OsMesa>) {
    let (w, h) = case.size;
    let name = case.scene.name;
    let cam = (case.scene.camera)(&case.scene.model, w, h);
    let mut r = renderer(&cam);
    // `MODEX_BENCH_MIPMAPS=0`: both renderers sample level 0 only (the before of "Mip levels" in
    // docs/benchmarks-history.md).
    r.mipmaps = std::env::var("MODEX_BENCH_MIPMAPS").map_or(true, |v| v != "0");
    let m: PreparedModel = r.prepare(&case.scene.model);
    let mut target = Surface::<P>::new(w, h);
    let mut depth = DepthBuffer::new(w, h);
    let modex_frame = |t: &mut Surface<P>, d: &mut DepthBuffer| -> Duration {
        let start = Instant::now();
        frame(&r, t, d, &cam, &m);
        start.elapsed()
    };
    let label = format!("{name} {} {w}x{h} {}", P::LABEL, case.threads);
    if let Some(n) = case.fixed_frames {
        // A fixed amount of modex work, for instruction counts under callgrind. The fastest
        // frame is also printed: on a shared machine it is the one least disturbed by other
        // processes, the figure to compare thread counts by when the medians are all load.
        let mut t: Vec<f64> = (0..n)
            .map(|_| ms(modex_frame(&mut target, &mut depth)))
            .collect();
        let fastest = t.iter().copied().fold(f64::INFINITY, f64::min);
        let med = if t.is_empty() { 0.0 } else { median(&mut t) };
        println!(
            "FRAMES {label} {n} modex frames drawn, fastest_ms={fastest:.3} median_ms={med:.3}"
        );
        return;
    }
    let ctx = mesa.and_then(|mesa| {
        let c = mesa.context(P::OSMESA);
        if c.is_none() {
            println!(
                "NOTICE: OSMesa refuses format {} here; {label} is measured for modex only",
                P::LABEL
            );
        }
        c
    });
    let Some(ctx) = ctx else {
        let mut t = Vec::new();
        let start = Instant::now();
        while start.elapsed() < case.budget || t.len() < 5 {
            t.push(ms(modex_frame(&mut target, &mut depth)));
        }
        println!("MODEX {label} modex_ms={:.3}", median(&mut t));
        return;
    };
    let mut buffer = vec![P::Raw::default(); w * h];
    let Some(bound) = ctx.bind(&mut buffer, P::GL_TYPE, w, h) else {
        println!("NOTICE: OSMesaMakeCurrent failed for {label}");
        return;
    };
    let mesh = gl_mesh(case.scene, &r, &m);
    let up = upload(&bound, &mesh, &cam, case.size);
    // Warm up both (llvmpipe compiles its shaders on the first draws).
    for _ in 0..3 {
        modex_frame(&mut target, &mut depth);
        gl_frame(&bound, &up);
    }
    let (mut tm, mut tl) = (Vec::new(), Vec::new());
    let start = Instant::now();
    while start.elapsed() < case.budget || tm.len() < 5 {
        tm.push(ms(modex_frame(&mut target, &mut depth)));
        let s = Instant::now();
        gl_frame(&bound, &up);
        tl.push(ms(s.elapsed()));
    }
    // Compare the last frames of both.
    let covered_gl = gl_covered(&bound, w, h);
    release(&bound, &up);
    drop(bound);
    let covered_mx: Vec<bool> = depth.values().iter().map(|z| z.is_finite()).collect();
    let n_mx = covered_mx.iter().filter(|&&c| c).count();
    let n_gl = covered_gl.iter().filter(|&&c| c).count();
    let (mut diff, mut both) = (0u64, 0u64);
    for i in 0..w * h {
        if covered_mx[i] && covered_gl[i] {
            let a = target.pixels()[i].to_rgba();
            let b = P::rgb_of_raw(buffer[i]);
            diff += (0..3).map(|c| a[c].abs_diff(b[c]) as u64).sum::<u64>();
            both += 1;
        }
    }
    let mad = diff as f64 / (3 * both.max(1)) as f64;
    let rel = (n_mx as f64 - n_gl as f64).abs() / n_mx.max(1) as f64;
    let verdict = if rel <= COVERAGE_TOLERANCE {
        "same picture"
    } else {
        "COVERAGE MISMATCH"
    };
    println!(
        "COMPARE {label}: covered modex {n_mx} llvmpipe {n_gl} ({:.2} %), mean abs colour diff {mad:.2} / 255 over {both} pixels: {verdict}",
        rel * 100.0
    );
    if case.save_images {
        let dir = output_dir();
        let path = dir.join(format!("{name}_{}_{w}x{h}.png", P::LABEL));
        let mut rgba = Vec::with_capacity(w * h * 8);
        for y in 0..h {
            for x in 0..w {
                rgba.extend_from_slice(&target.pixels()[y * w + x].to_rgba());
            }
            for x in 0..w {
                let [r, g, b] = P::rgb_of_raw(buffer[y * w + x]);
                rgba.extend_from_slice(&[r, g, b, 255]);
            }
        }
        let saved = std::fs::create_dir_all(&dir)
            .map_err(|e| e.to_string())
            .and_then(|_| {
                modex::pngio::save_rgba(&path, 2 * w, h, &rgba).map_err(|e| e.to_string())
            });
        match saved {
            Ok(()) => println!("IMAGE {} (modex left, llvmpipe right)", path.display()),
            Err(e) => println!("NOTICE: could not save {}: {e}", path.display()),
        }
    }
    let (a, b) = (median(&mut tm), median(&mut tl));
    println!(
        "RATIO {name} {} {w}x{h} {} modex_ms={a:.3} llvmpipe_ms={b:.3} ratio={:.2}",
        P::LABEL,
        case.threads,
        b / a
    );
}

fn child(threads: usize, filters: &[String]) {
    let quick = std::env::var_os("MODEX_BENCH_QUICK").is_some();
    let budget = Duration::from_millis(if quick { 1000 } else { 4000 });
    let fixed_frames = std::env::var("MODEX_BENCH_FRAMES")
        .ok()
        .and_then(|n| n.parse().ok());
    let load = if fixed_frames.is_some() {
        Err(String::new())
    } else {
        OsMesa::load()
    };
    let mesa = match load {
        _ if fixed_frames.is_some() => None,
        Ok(m) => Some(m),
        Err(e) => {
            println!(
                "NOTICE: {LIBRARY} could not be loaded ({e}): the llvmpipe half is skipped. Install it with `sudo sh benches/install-osmesa.sh` (apt-get install -y libosmesa6)."
            );
            None
        }
    };
    if let Some(mesa) = &mesa {
        let mut buf = vec![0u32; 4];
        if let Some(ctx) = mesa.context(OSMESA_BGRA) {
            if let Some(b) = ctx.bind(&mut buf, GL_UNSIGNED_BYTE, 2, 2) {
                println!(
                    "LLVMPIPE {} / {} with LP_NUM_THREADS={}, modex on {threads} thread(s)",
                    b.string(GL_RENDERER),
                    b.string(GL_VERSION),
                    std::env::var("LP_NUM_THREADS").unwrap_or_default()
                );
            }
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    for scene in scenes() {
        for size in SIZES {
            for format in ["8888", "565"] {
                let id = format!("{}/{format}/{}x{}", scene.name, size.0, size.1);
                if !filters.is_empty() && !filters.iter().any(|f| id.contains(f.as_str())) {
                    continue;
                }
                let case = Case {
                    scene: &scene,
                    size,
                    threads,
                    budget,
                    save_images: threads == 1 && size == (640, 480),
                    fixed_frames,
                };
                // The whole case runs inside the pool, as the demo's frame loop does
                // (`modex::with_threads`): modex's frame starts on a pool thread and shares its
                // bands from there, as llvmpipe's calling thread hands its tiles to its own
                // threads. Installing each frame instead handed it to a worker and back, two
                // wake-ups in a row where llvmpipe pays one (round 9). The OSMesa context is
                // made current on that same thread, inside the case.
                pool.install(|| match format {
                    "8888" => run_case::<Argb8888>(&case, mesa.as_ref()),
                    _ => run_case::<Rgb565>(&case, mesa.as_ref()),
                });
            }
        }
    }
}
