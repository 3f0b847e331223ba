//! The child process: one peer (or none) and one thread count, every case of a job, results as
//! JSON lines on stdout.
//!
//! Mesa reads `GALLIUM_DRIVER` and `LP_NUM_THREADS` once per process, when it creates its screen,
//! so a run with two peers and two thread counts needs four processes. The parent
//! (`crate::run`) re-executes its own binary with the job in the environment variable
//! [`CHILD_ENV`]; the binary's `main` calls [`serve_if_child`] first, which runs the job and
//! exits instead of starting the program. `modex` (the `modex bench` subcommand) and the
//! `cargo bench` harnesses both do, so either can serve as its own child. Within a child every case
//! runs on a rayon pool of the job's thread count, modex and the peer alternating frame by frame.

use std::collections::HashMap;
use std::io::Write;

use base64::Engine as _;
use modex::{Argb4444, Argb8888, DepthBuffer, IndexedFrame, Palette, Rgb565, Surface, Target};
use serde::{Deserialize, Serialize};

use crate::case::{Case, Format};
use crate::check::{compare, Check, Picture};
use crate::error::BenchError;
use crate::osmesa::{Bound, OsMesa, GL_RENDERER, GL_UNSIGNED_BYTE, GL_VERSION, OSMESA_BGRA};
use crate::peer::{self, Buffer, GlMesh, Peer};
use crate::scenes::cutscene::Clip;
use crate::scenes::raster::{self, renderer};
use crate::scenes::voxel::{self, Units};
use crate::scenes::{self as suite, SceneKind};
use crate::timing::{self, Budget};

/// The environment variable that holds a child's job (JSON); its presence makes a process a child.
pub const CHILD_ENV: &str = "MODEX_BENCH_CHILD";
/// The prefix of every result line a child prints on stdout.
pub const LINE_PREFIX: &str = "MODEX-BENCH ";

/// What one child measures.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Job {
    /// The Mesa driver beside modex (its `GALLIUM_DRIVER` is set by the parent), or none.
    pub peer: Option<Peer>,
    /// Threads of modex's pool (and `LP_NUM_THREADS`).
    pub threads: usize,
    /// The cases, all of this thread count.
    pub cases: Vec<Case>,
    /// How long each case runs.
    pub budget: Budget,
    /// Cases whose pictures are sent back (for the HTML report).
    pub pictures: Vec<Case>,
}

/// One line from a child.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Message {
    /// The peer's `GL_RENDERER` and `GL_VERSION`.
    Mesa {
        /// Which peer.
        peer: Peer,
        /// e.g. `llvmpipe (LLVM 15.0.6, 256 bits)`.
        renderer: String,
        /// e.g. `4.5 (Compatibility Profile) Mesa 22.3.6`.
        version: String,
    },
    /// Something the user should read (a scene's stand-in, a format Mesa refuses).
    Notice(String),
    /// A case is measured.
    Done(Box<Measured>),
}

/// One case as a child measured it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Measured {
    /// Which case.
    pub case: Case,
    /// modex's frame times (ms).
    pub modex_samples: Vec<f64>,
    /// Pixels written per frame: covered pixels times the overdraw layers.
    pub pixels: u64,
    /// Triangles submitted per frame (raster scenes).
    pub triangles: Option<u64>,
    /// Where the scene's model came from.
    pub source: String,
    /// The peer's side, when the job has a peer and the scene is a raster scene.
    pub peer: Option<PeerMeasured>,
    /// modex's picture as a PNG, base64, when the case is one of the job's `pictures`.
    pub picture: Option<String>,
}

/// The peer's side of one case.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PeerMeasured {
    /// Which peer.
    pub peer: Peer,
    /// The format it drew into.
    pub format: Format,
    /// Its frame times (ms).
    pub samples: Vec<f64>,
    /// Its picture against modex's.
    pub check: Check,
    /// Its picture as a PNG, base64, when modex's is sent.
    pub picture: Option<String>,
}

/// Run the job in [`CHILD_ENV`] when this process is a child, and return the exit code the
/// process must end with; `None` when it is not a child. Call it first thing in `main`.
pub fn serve_if_child() -> Option<i32> {
    let job = std::env::var(CHILD_ENV).ok()?;
    // A child of a child would be a loop: the variable is for this process only.
    std::env::remove_var(CHILD_ENV);
    Some(match serve(&job) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("modex bench: {e}");
            1
        }
    })
}

fn send(m: &Message) {
    let line = serde_json::to_string(m).expect("messages serialise");
    let mut out = std::io::stdout().lock();
    // The parent reads until the pipe closes; a failed write means it is gone.
    let _ = writeln!(out, "{LINE_PREFIX}{line}");
    let _ = out.flush();
}

fn serve(job: &str) -> Result<(), BenchError> {
    let job: Job = serde_json::from_str(job).map_err(|source| BenchError::Job {
        var: CHILD_ENV,
        source,
    })?;
    let mesa = match job.peer {
        Some(p) => match OsMesa::load() {
            Ok(m) => Some((p, m)),
            Err(why) => {
                send(&Message::Notice(peer::install_hint(&why)));
                None
            }
        },
        None => None,
    };
    if let Some((p, mesa)) = &mesa {
        let mut buf = vec![0u32; 4];
        if let Some(ctx) = mesa.context(OSMESA_BGRA) {
            if let Some(b) = ctx.bind(&mut buf, GL_UNSIGNED_BYTE, 2, 2) {
                send(&Message::Mesa {
                    peer: *p,
                    renderer: b.string(GL_RENDERER),
                    version: b.string(GL_VERSION),
                });
            }
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(job.threads)
        .build()
        .map_err(|e| BenchError::Scene {
            scene: "(thread pool)".into(),
            message: e.to_string(),
        })?;
    let mut scenes = Scenes::default();
    for case in &job.cases {
        let info = suite::find(&case.scene).ok_or_else(|| BenchError::UnknownScene {
            name: case.scene.clone(),
            known: suite::NAMES
                .iter()
                .map(|n| n.name)
                .collect::<Vec<_>>()
                .join(", "),
        })?;
        scenes.prepare(info.kind, &case.scene)?;
        let picture = job.pictures.contains(case);
        let run = || -> Result<Measured, BenchError> {
            let peer = mesa.as_ref().filter(|_| info.kind == SceneKind::Raster);
            let c = Ctx {
                case,
                budget: &job.budget,
                scenes: &scenes,
                peer: peer.map(|(p, m)| (*p, m)),
                picture,
                threads: job.threads,
            };
            match case.format {
                Format::Indexed8 => c.run::<IndexedFrame>(),
                Format::Rgb565 => c.run::<Surface<Rgb565>>(),
                Format::Argb4444 => c.run::<Surface<Argb4444>>(),
                Format::Argb8888 => c.run::<Surface<Argb8888>>(),
            }
        };
        // The whole case runs inside the job's pool, one thread too, as the demo's frame loop
        // does (`modex::with_threads`): modex's frame starts on a pool thread and shares its
        // bands from there, as llvmpipe's calling thread hands its tiles to its own threads, and
        // `rayon::current_num_threads()`, which the rasterizer splits its work by, is the job's
        // (outside a pool it is the global pool's: every core). The OSMesa context is made current
        // on that same thread.
        let (measured, drawn_on) = pool.install(|| (run(), rayon::current_num_threads()));
        if drawn_on != job.threads {
            return Err(BenchError::Scene {
                scene: case.id(),
                message: format!(
                    "drew on {drawn_on} threads instead of {}: the case ran outside its pool",
                    job.threads
                ),
            });
        }
        let measured = measured?;
        send(&Message::Done(Box::new(measured)));
    }
    Ok(())
}

/// The scenes one child needs, each built once.
#[derive(Default)]
struct Scenes {
    raster: HashMap<String, raster::Scene>,
    units: Option<Units>,
    clip: Option<Clip>,
}

impl Scenes {
    fn prepare(&mut self, kind: SceneKind, name: &str) -> Result<(), BenchError> {
        match kind {
            SceneKind::Raster if !self.raster.contains_key(name) => {
                let s = raster::build(name)?.ok_or_else(|| BenchError::Scene {
                    scene: name.into(),
                    message: "not a raster scene".into(),
                })?;
                self.raster.insert(name.into(), s);
            }
            SceneKind::Voxel if self.units.is_none() => self.units = Some(Units::load()?),
            SceneKind::Cutscene if self.clip.is_none() => self.clip = Some(Clip::build()?),
            _ => {}
        }
        Ok(())
    }
}

/// A target modex draws into in the suite's formats.
pub trait Canvas: Target + Send
where
    Self::Px: modex_raster::RasterPixel + modex_voxel::VoxelPixel,
{
    /// A cleared target of `w` x `h`.
    fn new(w: usize, h: usize) -> Self;
}

impl Canvas for IndexedFrame {
    fn new(w: usize, h: usize) -> Self {
        IndexedFrame::new(w, h)
    }
}

impl<P> Canvas for Surface<P>
where
    Surface<P>: Target<Px = P> + Send,
    P: modex::Pixel + modex_raster::RasterPixel + modex_voxel::VoxelPixel,
{
    fn new(w: usize, h: usize) -> Self {
        Surface::new(w, h)
    }
}

/// modex's picture: covered pixels from the depth buffer, colours through `palette`.
fn picture_of<T: Target>(t: &T, d: Option<&DepthBuffer>, palette: &Palette) -> Picture {
    let (width, height) = t.size();
    Picture {
        width,
        height,
        covered: match d {
            Some(d) => d.values().iter().map(|z| z.is_finite()).collect(),
            None => vec![true; width * height],
        },
        rgb: t
            .pixels()
            .iter()
            .map(|&p| {
                let [r, g, b, _] = T::rgba(p, palette);
                [r, g, b]
            })
            .collect(),
    }
}

/// A picture as a base64 PNG, for the report's `<img>` data URIs.
pub fn png_base64(p: &Picture) -> Result<String, BenchError> {
    let mut bytes = Vec::new();
    {
        let mut e = png::Encoder::new(&mut bytes, p.width as u32, p.height as u32);
        e.set_color(png::ColorType::Rgba);
        e.set_depth(png::BitDepth::Eight);
        let mut w = e.write_header()?;
        w.write_image_data(&p.rgba())?;
    }
    Ok(base64::engine::general_purpose::STANDARD.encode(bytes))
}

/// One case in a child.
struct Ctx<'a> {
    case: &'a Case,
    budget: &'a Budget,
    scenes: &'a Scenes,
    peer: Option<(Peer, &'a OsMesa)>,
    picture: bool,
    threads: usize,
}

impl Ctx<'_> {
    fn run<T: Canvas>(&self) -> Result<Measured, BenchError>
    where
        T::Px: modex_raster::RasterPixel + modex_voxel::VoxelPixel,
    {
        let (w, h) = (self.case.size.width, self.case.size.height);
        match suite::find(&self.case.scene).map(|n| n.kind) {
            Some(SceneKind::Raster) => self.raster::<T>(w, h),
            Some(SceneKind::Voxel) => self.voxel::<T>(w, h),
            _ => self.cutscene(),
        }
    }

    fn raster<T: Canvas>(&self, w: usize, h: usize) -> Result<Measured, BenchError>
    where
        T::Px: modex_raster::RasterPixel + modex_voxel::VoxelPixel,
    {
        let scene = &self.scenes.raster[&self.case.scene];
        let cam = (scene.camera)(&scene.model, w, h);
        let r = renderer(&cam);
        let m = r.prepare(&scene.model);
        let (mut t, mut d) = (T::new(w, h), DepthBuffer::new(w, h));
        let mut peer_side = None;
        let modex_samples = match self.peer {
            None => timing::alone(self.budget, || raster::frame(&r, &mut t, &mut d, &cam, &m)),
            Some((p, mesa)) => {
                let (os_format, gl_type, drawn) = peer::peer_format(self.case.format);
                let Some(ctx) = mesa.context(os_format) else {
                    send(&Message::Notice(format!(
                        "{} refuses format {} here: {} is measured for modex alone",
                        p.name(),
                        drawn.label(),
                        self.case.id()
                    )));
                    return self.raster_alone::<T>(w, h);
                };
                let mut buffer = Buffer::new(self.case.format, w, h);
                let mut run = |bound: Bound| {
                    let mesh = GlMesh::new(scene, &r, &m);
                    let up = peer::upload(&bound, &mesh, &cam, (w, h));
                    let (tm, tp) = timing::alternating(
                        self.budget,
                        || raster::frame(&r, &mut t, &mut d, &cam, &m),
                        || peer::frame(&bound, &up),
                    );
                    let covered = peer::covered(&bound, w, h);
                    peer::release(&bound, &up);
                    (tm, tp, covered)
                };
                let bound = match &mut buffer {
                    Buffer::Bgra(v) => ctx.bind(v, gl_type, w, h).map(&mut run),
                    Buffer::Rgb565(v) => ctx.bind(v, gl_type, w, h).map(&mut run),
                };
                let Some((tm, tp, covered)) = bound else {
                    send(&Message::Notice(format!(
                        "OSMesaMakeCurrent failed for {}: measured for modex alone",
                        self.case.id()
                    )));
                    return self.raster_alone::<T>(w, h);
                };
                let peer_picture = buffer.picture(w, h, covered);
                let modex_picture = picture_of(&t, Some(&d), r.palette());
                let check = compare(self.case.format, &modex_picture, &peer_picture);
                peer_side = Some(PeerMeasured {
                    peer: p,
                    format: drawn,
                    samples: tp,
                    check,
                    picture: self
                        .picture
                        .then(|| png_base64(&peer_picture))
                        .transpose()?,
                });
                tm
            }
        };
        let covered = d.values().iter().filter(|z| z.is_finite()).count();
        Ok(Measured {
            case: self.case.clone(),
            modex_samples,
            pixels: (covered * scene.layers) as u64,
            triangles: Some(scene.model.triangles.len() as u64),
            source: scene.source.clone(),
            peer: peer_side,
            picture: self
                .picture
                .then(|| png_base64(&picture_of(&t, Some(&d), r.palette())))
                .transpose()?,
        })
    }

    fn raster_alone<T: Canvas>(&self, w: usize, h: usize) -> Result<Measured, BenchError>
    where
        T::Px: modex_raster::RasterPixel + modex_voxel::VoxelPixel,
    {
        Ctx {
            peer: None,
            ..*self
        }
        .raster::<T>(w, h)
    }

    fn voxel<T: Canvas>(&self, w: usize, h: usize) -> Result<Measured, BenchError>
    where
        T::Px: modex_raster::RasterPixel + modex_voxel::VoxelPixel,
    {
        let units = self.scenes.units.as_ref().expect("prepared");
        let count = voxel::unit_count(&self.case.scene).unwrap_or(1);
        let view = voxel::View::new(voxel::place(units, count), w, h, self.threads)?;
        let (mut t, mut d) = (T::new(w, h), DepthBuffer::new(w, h));
        let modex_samples = timing::alone(self.budget, || view.frame(&units.vpl, &mut t, &mut d));
        let covered = d.values().iter().filter(|z| z.is_finite()).count();
        Ok(Measured {
            case: self.case.clone(),
            modex_samples,
            pixels: covered as u64,
            triangles: None,
            source: format!("{count} x {} ({} voxels)", units.source, view.voxels()),
            peer: None,
            picture: self
                .picture
                .then(|| png_base64(&picture_of(&t, Some(&d), units.palette())))
                .transpose()?,
        })
    }

    fn cutscene(&self) -> Result<Measured, BenchError> {
        let clip = self.scenes.clip.as_ref().expect("prepared");
        let (w, h) = Clip::SIZE;
        let mut out = IndexedFrame::new(w, h);
        let mut result = Ok(());
        let clips = timing::alone(self.budget, || {
            if let Err(e) = clip.decode(&mut out) {
                result = Err(e);
            }
        });
        result?;
        let per_picture = clips.iter().map(|ms| ms / clip.pictures as f64).collect();
        Ok(Measured {
            case: self.case.clone(),
            modex_samples: per_picture,
            pixels: (w * h) as u64,
            triangles: None,
            source: format!(
                "{} pictures of the sample scene, encoded by modex",
                clip.pictures
            ),
            peer: None,
            picture: self
                .picture
                .then(|| png_base64(&picture_of(&out, None, &clip.palette)))
                .transpose()?,
        })
    }
}
