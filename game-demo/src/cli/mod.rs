//! Command-line arguments of `modex`. Every subcommand and flag is declared here, so `--help` is
//! complete and reviewed in one place. The commands' modules beside this one (`info`, `view`,
//! `render`, `play`, `export`, `net`) map the arguments to library calls, through the per-format
//! helpers in `formats/`; the demo's runs are `crate::demo`'s.

pub mod bench;
pub mod export;
mod formats;
pub mod info;
pub mod net;
pub mod play;
pub mod render;
pub mod view;

use std::path::PathBuf;

use clap::builder::TypedValueParser;
use clap::{Args, Parser, Subcommand};
use modex_demo::scene::DrawPath;

/// modex: 1990s game formats on a modern CPU, no GPU. Software rasterizer, voxel ray-marcher and a
/// Battle Isle 2 cutscene player drawing into an 8-bit mode-X framebuffer.
///
/// With no subcommand, runs the demo scene in a window; the demo's flags (e.g. `--headless --frames 10
/// --out DIR`) may be given without the `demo` word.
#[derive(Debug, Parser)]
#[command(
    name = "modex",
    version,
    about,
    long_about,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Demo options when no subcommand is given.
    #[command(flatten)]
    pub demo: DemoArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the demo scene (the default), in a window or headless.
    Demo(DemoArgs),
    /// Detect each file's format by its magic and print a summary.
    Info(InfoArgs),
    /// Open a file in an interactive viewer window (models, terrain, voxels, levels).
    #[command(after_help = formats::keys::help())]
    View(ViewArgs),
    /// Render a model, terrain or voxel unit headless to a PNG.
    Render(RenderArgs),
    /// Play a Battle Isle 2 cutscene (a game install or the project's own sample scene).
    Play(PlayArgs),
    /// Export skins, clip pictures, GIFs or sound from a file.
    Export(ExportArgs),
    /// The Acknex A5 network protocol: decode captured datagrams, encode messages.
    Net(NetArgs),
    /// Benchmark modex's software rendering on this machine, side by side with Mesa's llvmpipe
    /// and softpipe when libOSMesa.so.8 is installed; a table on stdout, reports as JSON and HTML.
    #[command(after_help = bench::SCENES_HELP)]
    Bench(BenchArgs),
}

/// `modex bench`: what to measure and where the reports go (docs/benchmarks.md has the method).
#[derive(Debug, Args, Clone)]
pub struct BenchArgs {
    /// A short run: 0.25 s per case instead of 1 s (the same cases).
    #[arg(long)]
    pub quick: bool,
    /// Run only these scenes (names below; `overdraw`, `battlefield` select their groups).
    #[arg(long, value_name = "SCENE,..", value_delimiter = ',')]
    pub filter: Vec<String>,
    /// Thread counts [default: 1 and every core].
    #[arg(long, value_name = "N,..", value_delimiter = ',')]
    pub threads: Vec<usize>,
    /// Frame sizes, WIDTHxHEIGHT [default: 640x480,1920x1080].
    #[arg(long, value_name = "WxH,..", value_delimiter = ',')]
    pub sizes: Vec<String>,
    /// Pixel formats: 8, 565, 4444, 8888 [default: all four].
    #[arg(long, value_name = "FMT,..", value_delimiter = ',')]
    pub formats: Vec<String>,
    /// Seconds of timed frames per case (and per peer) [default: 1, with --quick 0.25].
    #[arg(long, value_name = "SECONDS")]
    pub seconds: Option<f64>,
    /// Mesa drivers to compare with: llvmpipe, softpipe, or none [default: both].
    #[arg(long, value_name = "PEER,..", value_delimiter = ',')]
    pub peers: Vec<String>,
    /// Write the report as JSON (machine, versions, every case with its samples' summary).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the report as one self-contained HTML page: charts, and the pictures of modex and
    /// each peer side by side at 640x480.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Compare every case with an earlier --json report: the change, marked significant only when
    /// outside both runs' p10..p90.
    #[arg(long, value_name = "OLD.json")]
    pub baseline: Option<PathBuf>,
}

#[derive(Debug, Args, Clone)]
pub struct DemoArgs {
    /// Render without a window or audio device, writing PNG frames to --out.
    #[arg(long)]
    pub headless: bool,
    /// Number of frames to render (headless); the window runs until ESC.
    #[arg(long, default_value_t = 300)]
    pub frames: u32,
    /// Folder for headless frames.
    #[arg(long, default_value = "out/demo")]
    pub out: PathBuf,
    /// Run headless for this many seconds without writing frames, printing memory use at start and end.
    #[arg(long, value_name = "SECONDS")]
    pub soak: Option<u64>,
    /// Integer window scale.
    #[arg(long, default_value_t = 3)]
    pub scale: usize,
    /// Stretch to 4:3 like a CRT showed mode X.
    #[arg(long)]
    pub aspect: bool,
    /// Skip the intro cutscene.
    #[arg(long)]
    pub no_intro: bool,
    /// Run the battlefield as an A5 protocol server on this UDP address (e.g. 127.0.0.1:7000),
    /// sending the units to every client that joins.
    #[arg(long, value_name = "ADDR", conflicts_with_all = ["connect", "soak"])]
    pub serve: Option<std::net::SocketAddr>,
    /// Join the A5 protocol server at this UDP address and draw the units where it says.
    #[arg(long, value_name = "ADDR", conflicts_with = "soak")]
    pub connect: Option<std::net::SocketAddr>,
    /// Most clients the server serves at once; further joins are refused until a place is free
    /// (docs/network.md says why 64).
    #[arg(long, value_name = "N", default_value_t = 64, requires = "serve")]
    pub max_clients: usize,
    /// Units on the served battlefield (13: the demo's own; more are drawn from the same mix, as
    /// `--bench-units` does).
    #[arg(long, value_name = "N", default_value_t = 13, requires = "serve")]
    pub units: usize,
    /// Load an A5-style plugin: a shared library built against engine/plugin/include/a5dll.h, or
    /// `builtin` for the Rust example effects (repeatable; docs/plugins.md).
    #[arg(long = "plugin", value_name = "LIB.so")]
    pub plugins: Vec<PathBuf>,
    /// Call the plugin function NAME(0) once per frame after the scene is drawn and before it is
    /// presented (the frame buffer is lockable).
    #[arg(long, value_name = "NAME")]
    pub each_frame: Vec<String>,
    /// Call the plugin function NAME(entity) once per frame for every entity, before drawing.
    #[arg(long, value_name = "NAME")]
    pub each_entity: Vec<String>,
    /// Benchmark the battlefield headless: every unit count x size x path (8, 8888) x threads
    /// (1, 2) for --bench-seconds each, one `BENCH units=.. size=.. path=.. threads=.. fps=..` line
    /// per case; no PNGs are written.
    #[arg(long, requires = "headless", conflicts_with_all = ["serve", "connect", "soak"])]
    pub bench: bool,
    /// Seconds each bench case runs (at least one frame is drawn).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 2.0,
        requires = "bench"
    )]
    pub bench_seconds: f64,
    /// Unit counts the bench runs.
    #[arg(long, value_name = "N,..", value_delimiter = ',', default_values_t = [13, 100, 1000], requires = "bench")]
    pub bench_units: Vec<usize>,
    /// Frame sizes the bench runs, WIDTHxHEIGHT.
    #[arg(long, value_name = "WxH,..", value_delimiter = ',', default_values = ["360x240", "1280x720", "1920x1080"], requires = "bench")]
    pub bench_sizes: Vec<String>,
    /// Run only the bench cases whose BENCH line has these fields, e.g.
    /// `units=1000,size=1920x1080,path=8,threads=2` (any subset of the four keys).
    #[arg(
        long,
        value_name = "KEY=VALUE,..",
        value_delimiter = ',',
        requires = "bench"
    )]
    pub bench_case: Vec<String>,
    /// Look through an orthographic camera (the Westwood games' projection) with the same orbit,
    /// headless and in the bench: the units are then blitted from the voxel draw cache.
    #[arg(long, requires = "headless")]
    pub orthographic: bool,
    /// Memory budget of the voxel draw cache in MiB (least recently used sprites go first); 0
    /// turns the cache off and draws every unit directly.
    #[arg(
        long,
        value_name = "MIB",
        default_value_t = modex_voxel::DEFAULT_BUDGET_BYTES >> 20,
        requires = "headless"
    )]
    pub cache_mib: usize,
    /// Levels of detail in the perspective view: `on` draws far units from coarser copies of
    /// their voxels (each coarse cell at most about a pixel, units near the eye exact; the error
    /// bound is in docs/benchmarks.md), `off` draws every unit exactly.
    #[arg(long, value_name = "on|off", value_enum, default_value = "on")]
    pub lod: LodArg,
    /// Draw path: 8 (the 8-bit mode-X frame) or 8888 (true colour; headless frames are RGBA PNGs).
    /// The window's T key switches too.
    #[arg(long, value_name = "8|8888", value_enum, default_value = "8")]
    pub path: PathArg,
}

/// `--path`: the demo's two draw paths by the names the BENCH lines and the README give them.
///
/// The scene's own `DrawPath` stays free of clap (the scene is a library the generator and the
/// golden tests use); this enum only names its values on the command line. The variants carry no
/// doc comments on purpose: clap would print them as a list and change `--help`.
/// `--lod`: whether the demo draws far units from their levels of detail (variants without doc
/// comments, as [`PathArg`]'s).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LodArg {
    On,
    Off,
}

impl From<LodArg> for modex_voxel::Lod {
    fn from(l: LodArg) -> modex_voxel::Lod {
        match l {
            LodArg::On => modex_voxel::Lod::Auto,
            LodArg::Off => modex_voxel::Lod::Off,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PathArg {
    #[value(name = "8")]
    Indexed,
    #[value(name = "8888")]
    TrueColour,
}

impl From<PathArg> for DrawPath {
    fn from(path: PathArg) -> DrawPath {
        match path {
            PathArg::Indexed => DrawPath::Indexed,
            PathArg::TrueColour => DrawPath::TrueColour,
        }
    }
}

#[derive(Debug, Args, Clone)]
pub struct NetArgs {
    #[command(subcommand)]
    pub command: NetCommand,
}

#[derive(Debug, Subcommand, Clone)]
pub enum NetCommand {
    /// Decode each argument (hex bytes, spaces allowed) as one datagram and print its messages.
    Decode(NetDecodeArgs),
    /// Encode one message given as a JSON object (as `decode --json` prints it) and print its hex.
    Encode(NetEncodeArgs),
}

/// Who sent a datagram: several codes mean different messages in the two directions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum NetSide {
    /// `svc_*` messages.
    Server,
    /// `cls_*` messages.
    Client,
}

#[derive(Debug, Args, Clone)]
pub struct NetDecodeArgs {
    /// Print one JSON object per message, one per line.
    #[arg(long)]
    pub json: bool,
    /// Who sent the datagrams.
    #[arg(long, value_enum, default_value = "server")]
    pub from: NetSide,
    /// Datagrams as hex, one per argument (e.g. "43 07 00 80 00 00 00 01 00 80 01 00 80 00").
    #[arg(required = true, value_name = "HEX")]
    pub hex: Vec<String>,
}

#[derive(Debug, Args, Clone)]
pub struct NetEncodeArgs {
    /// The message, e.g. '{"message":"svc_update1","entity":7,"position":[1,2,3],"pan":180}'.
    #[arg(value_name = "JSON")]
    pub json: String,
}

#[derive(Debug, Args, Clone)]
pub struct InfoArgs {
    /// Files to describe.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print one JSON object per file (one per line) for scripts.
    #[arg(long)]
    pub json: bool,
    /// Code page of frame names that are not UTF-8 (default: Windows-1252).
    #[arg(long, value_enum)]
    pub codepage: Option<Codepage>,
    /// A folder searched for the entity files of a WMB level (repeatable; after the level's folder and its scripts' PATH folders).
    #[arg(long = "path", value_name = "DIR")]
    pub path: Vec<PathBuf>,
}

/// `--codepage`: the code pages GameStudio frame names were seen in, by the names users type.
/// No doc comments on the variants, so `--help` lists the values as before.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Codepage {
    #[value(name = "gbk")]
    Gbk,
    #[value(name = "1252")]
    Windows1252,
    #[value(name = "1251")]
    Windows1251,
    #[value(name = "437")]
    Cp437,
}

/// Target pixel format of a render: the engine's own (`8`, `565`, `4444`, `8888`).
pub use modex::TargetFormat;

/// `--format`: one of the engine's target formats by name, listed in `--help`.
fn target_format() -> impl clap::builder::TypedValueParser<Value = TargetFormat> {
    clap::builder::PossibleValuesParser::new(TargetFormat::ALL.map(TargetFormat::name))
        .map(|name| TargetFormat::from_name(&name).expect("one of the listed names"))
}

#[derive(Debug, Args, Clone)]
pub struct ViewArgs {
    /// The file to view (.mdl, .hmp, .vxl, .wmb).
    pub file: PathBuf,
    /// Palette for 8-bit skins and voxels: a VGA .pal (6- or 8-bit), a .pcx, an APAL or a .vpl (one rule, see `modex info FILE`).
    #[arg(long)]
    pub palette: Option<PathBuf>,
    /// Integer window scale [default: the largest whose window fits the screen, whose size is
    /// MODEX_SCREEN=WxH if set, else the first mode of a connected display, else 1280x800].
    #[arg(long)]
    pub scale: Option<usize>,
    /// Window size in pixels before scaling, WIDTHxHEIGHT.
    #[arg(long, default_value = "640x480")]
    pub size: String,
    /// Folder searched for external skin files not found beside the model (MDL7).
    #[arg(long, value_name = "DIR")]
    pub skins: Option<std::path::PathBuf>,
    /// A folder searched for the entity files of a WMB level (repeatable; after the level's folder and its scripts' PATH folders).
    #[arg(long = "path", value_name = "DIR")]
    pub path: Vec<PathBuf>,
    /// Fly a fixed path through a WMB level and print one BENCH line instead of opening a window.
    #[arg(long)]
    pub bench: bool,
    /// Render threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Camera yaw, degrees: models turn by it; levels orbit their centre by it from the overview.
    #[arg(long, allow_hyphen_values = true)]
    pub yaw: Option<f32>,
    /// Camera pitch above the horizon, degrees (models; levels: the orbit's elevation).
    #[arg(long, allow_hyphen_values = true)]
    pub pitch: Option<f32>,
    /// Where a level's camera stands.
    #[command(flatten)]
    pub place: LevelCamera,
    /// Target pixel format of a WMB level's walk-through (Tab changes it in the window; --bench uses it).
    #[arg(long, value_parser = target_format(), default_value = "8888")]
    pub format: TargetFormat,
}

impl ViewArgs {
    /// The window's scale for `width`x`height` pictures: `--scale`, else the largest that fits
    /// the screen (`modex_desktop::scale_to_fit`, which says it in a log line).
    pub fn window_scale(&self, width: usize, height: usize) -> usize {
        self.scale
            .unwrap_or_else(|| modex_desktop::scale_to_fit(width, height))
    }
}

#[derive(Debug, Args, Clone)]
pub struct RenderArgs {
    /// The file to render (.mdl, .hmp, .vxl, .wmb).
    pub file: PathBuf,
    /// Output PNG (indexed for the 8-bit format).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Animation frame (models) or HVA frame (voxels).
    #[arg(long, default_value_t = 0)]
    pub frame: u32,
    /// Interpolate towards this frame (models).
    #[arg(long)]
    pub nextframe: Option<u32>,
    /// Interpolation fraction 0..1 between --frame and --nextframe.
    #[arg(long, default_value_t = 0.0)]
    pub fraction: f32,
    /// Target pixel format [default: the content's: 8 for palettized content (8-bit skins,
    /// voxel units), 8888 for true colour (levels; 565/4444/888/8888, DDS and image-file skins)].
    /// 8-bit of true-colour content is drawn with the --palette given, else the file's own, else
    /// one built from its textures.
    #[arg(long, value_parser = target_format())]
    pub format: Option<TargetFormat>,
    /// Image size, WIDTHxHEIGHT.
    #[arg(long, default_value = "640x480")]
    pub size: String,
    /// Camera yaw around the model, degrees [default: 30]; a level orbits its centre by it, from
    /// the overview.
    #[arg(long, allow_hyphen_values = true)]
    pub yaw: Option<f32>,
    /// Camera pitch above the horizon, degrees [default: 10; flat models 45, so they are seen
    /// from above, not edge-on]; a level's orbit rises to it.
    #[arg(long, allow_hyphen_values = true)]
    pub pitch: Option<f32>,
    /// Where a level's camera stands.
    #[command(flatten)]
    pub place: LevelCamera,
    /// Unit facing for voxels, 0..255 (0 = north, 64 = east, as in the game).
    #[arg(long, default_value_t = 0)]
    pub facing: u32,
    /// Skin number (models).
    #[arg(long, default_value_t = 0)]
    pub skin: usize,
    /// Palette file: a VGA .pal (6- or 8-bit), a .pcx, an APAL or a .vpl (one rule, see `modex info FILE`).
    #[arg(long)]
    pub palette: Option<PathBuf>,
    /// Render threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Folder searched for external skin files not found beside the model (MDL7).
    #[arg(long, value_name = "DIR")]
    pub skins: Option<PathBuf>,
    /// A folder searched for the entity files of a WMB level (repeatable; after the level's folder and its scripts' PATH folders).
    #[arg(long = "path", value_name = "DIR")]
    pub path: Vec<PathBuf>,
}

/// Where a level's camera stands, for `render` and `view`. With neither flag nor `--yaw`/`--pitch`,
/// a level is seen from its start when it has one, else from the overview.
#[derive(Debug, Args, Clone, Default)]
pub struct LevelCamera {
    /// Levels: stand at X,Y,Z (engine units) looking along PAN,TILT (degrees: pan 0 along +X, 90
    /// along +Y; tilt up positive), as WED and the scripts give a camera. The level viewer's C key
    /// prints its own.
    #[arg(
        long,
        value_name = "X,Y,Z,PAN,TILT",
        value_parser = parse_camera,
        allow_hyphen_values = true,
        conflicts_with_all = ["yaw", "pitch", "start"]
    )]
    pub camera: Option<modex_view::level::Start>,
    /// Levels: stand at the player's start: the first POSITION object, else the entity whose
    /// action or name names the player; else the overview.
    #[arg(long, conflicts_with_all = ["yaw", "pitch"])]
    pub start: bool,
}

impl LevelCamera {
    /// Whether either flag was given (refused for files that are not levels).
    pub fn given(&self) -> bool {
        self.camera.is_some() || self.start
    }
}

/// `--camera X,Y,Z,PAN,TILT`: five finite numbers.
pub fn parse_camera(s: &str) -> Result<modex_view::level::Start, String> {
    let numbers: Vec<f32> = s
        .split(',')
        .map(|n| n.trim().parse::<f32>())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("`{s}`: {e} (want X,Y,Z,PAN,TILT)"))?;
    match numbers[..] {
        [x, y, z, pan, tilt] if numbers.iter().all(|n| n.is_finite()) => {
            Ok(modex_view::level::Start {
                eye: glam::Vec3::new(x, y, z),
                pan,
                tilt,
            })
        }
        _ => Err(format!("`{s}` is not five finite numbers X,Y,Z,PAN,TILT")),
    }
}

/// The `--camera` argument that puts a level's camera at `start` (the viewer's C key prints it):
/// whole units and tenths of degrees, which `parse_camera` reads back.
pub fn camera_arg(start: &modex_view::level::Start) -> String {
    format!(
        "--camera {:.0},{:.0},{:.0},{:.1},{:.1}",
        start.eye.x, start.eye.y, start.eye.z, start.pan, start.tilt
    )
}

#[derive(Debug, Args, Clone)]
pub struct PlayArgs {
    /// A Battle Isle 2 install folder (with ANI/ and ENG/), a scene folder, or a clip.
    pub path: PathBuf,
    /// Scene script number (ASCRnnn), e.g. 12.
    #[arg(long)]
    pub script: Option<u32>,
    /// Integer window scale.
    #[arg(long, default_value_t = 3)]
    pub scale: usize,
    /// Start with 4:3 aspect correction on.
    #[arg(long)]
    pub aspect: bool,
    /// Playback speed, 0.25 to 4.
    #[arg(long, default_value_t = 1.0)]
    pub speed: f32,
}

#[derive(Debug, Args, Clone)]
pub struct ExportArgs {
    /// The input: a model, a clip (.bbhd), an archive (.LIB), or a scene.
    pub input: PathBuf,
    /// Write each skin as PNG into this folder (models).
    #[arg(long, value_name = "DIR")]
    pub skins: Option<PathBuf>,
    /// Write the chosen --frame as Wavefront OBJ + MTL beside it: MDL2..MDL7 with their skins as PNG, GTA Stories models with pre-light vertex colours.
    #[arg(long, value_name = "FILE")]
    pub obj: Option<PathBuf>,
    /// Animation frame written by --obj.
    #[arg(long, default_value_t = 0)]
    pub frame: u32,
    /// Write one indexed PNG per picture into this folder (clips, scenes).
    #[arg(long, value_name = "DIR")]
    pub png: Option<PathBuf>,
    /// Write an animated GIF (clips, scenes).
    #[arg(long, value_name = "FILE")]
    pub gif: Option<PathBuf>,
    /// Write the mixed sound as WAV (scenes).
    #[arg(long, value_name = "FILE")]
    pub wav: Option<PathBuf>,
    /// Archive entry number, counted in the name-sorted entry list (LIB archives).
    #[arg(long)]
    pub entry: Option<usize>,
    /// Scene script number (game installs).
    #[arg(long)]
    pub script: Option<u32>,
    /// Palette file for 8-bit output.
    #[arg(long)]
    pub palette: Option<PathBuf>,
    /// Write each lightmap page as lightmap_NNN.png into this folder (WMB levels).
    #[arg(long, value_name = "DIR")]
    pub lightmaps: Option<PathBuf>,
    /// With --obj: add the level's placed models, posed at frame 0 (WMB levels).
    #[arg(long)]
    pub entities: bool,
    /// A folder searched for the entity files of a WMB level (repeatable; after the level's folder and its scripts' PATH folders).
    #[arg(long = "path", value_name = "DIR")]
    pub path: Vec<PathBuf>,
}

/// Parse `WIDTHxHEIGHT`.
// Used by the render and view commands as their formats land.
#[allow(dead_code)]
pub fn parse_size(s: &str) -> anyhow::Result<(usize, usize)> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| anyhow::anyhow!("size `{s}` is not WIDTHxHEIGHT"))?;
    let (w, h): (usize, usize) = (w.trim().parse()?, h.trim().parse()?);
    anyhow::ensure!(
        (1..=16384).contains(&w) && (1..=16384).contains(&h),
        "size `{s}` out of range 1..=16384"
    );
    Ok((w, h))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn camera_reads_five_numbers_and_prints_itself_back() {
        let s = parse_camera("-1472,16.6,32,-90,10").unwrap();
        assert_eq!(s.eye, glam::Vec3::new(-1472.0, 16.6, 32.0));
        assert_eq!((s.pan, s.tilt), (-90.0, 10.0));
        assert!(parse_camera("1,2,3,4").is_err());
        assert!(parse_camera("1,2,3,4,x").is_err());
        assert!(parse_camera("1,2,3,4,inf").is_err());
        let printed = camera_arg(&s);
        assert_eq!(printed, "--camera -1472,17,32,-90.0,10.0");
        let back = parse_camera(printed.trim_start_matches("--camera ")).unwrap();
        assert_eq!((back.pan, back.tilt), (s.pan, s.tilt));
        // Given as flags: --camera excludes --yaw and --start.
        let cli = Cli::try_parse_from([
            "modex",
            "render",
            "l.wmb",
            "-o",
            "o.png",
            "--camera",
            "1,2,3,4,5",
        ])
        .unwrap();
        assert!(matches!(cli.command, Some(Command::Render(ref a)) if a.place.camera.is_some()));
        assert!(Cli::try_parse_from([
            "modex",
            "render",
            "l.wmb",
            "-o",
            "o.png",
            "--camera",
            "1,2,3,4,5",
            "--yaw",
            "3"
        ])
        .is_err());
        assert!(
            Cli::try_parse_from(["modex", "view", "l.wmb", "--start", "--pitch", "3"]).is_err()
        );
    }

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn demo_flags_work_without_the_subcommand() {
        let cli =
            Cli::try_parse_from(["modex", "--headless", "--frames", "10", "--out", "d"]).unwrap();
        assert!(cli.command.is_none());
        assert!(cli.demo.headless);
        assert_eq!(cli.demo.frames, 10);
        assert_eq!(cli.demo.out, PathBuf::from("d"));
        let cli = Cli::try_parse_from(["modex"]).unwrap();
        assert!(!cli.demo.headless);
    }

    #[test]
    fn net_commands_from_the_issue_parse() {
        let cli = Cli::try_parse_from([
            "modex",
            "net",
            "decode",
            "--json",
            "--from",
            "client",
            "02 01 00 00 00 00",
            "01",
        ])
        .unwrap();
        let Some(Command::Net(NetArgs {
            command: NetCommand::Decode(d),
        })) = cli.command
        else {
            panic!("not net decode")
        };
        assert!(d.json);
        assert_eq!(d.from, NetSide::Client);
        assert_eq!(d.hex.len(), 2);
        let cli = Cli::try_parse_from([
            "modex",
            "demo",
            "--serve",
            "127.0.0.1:7000",
            "--headless",
            "--frames",
            "5",
        ])
        .unwrap();
        let Some(Command::Demo(a)) = cli.command else {
            panic!("not demo")
        };
        assert_eq!(a.serve, Some("127.0.0.1:7000".parse().unwrap()));
        assert!(Cli::try_parse_from([
            "modex",
            "--serve",
            "127.0.0.1:1",
            "--connect",
            "127.0.0.1:2"
        ])
        .is_err());
    }

    #[test]
    fn path_and_codepage_take_the_old_values() {
        let path = |args: &[&str]| Cli::try_parse_from(args).map(|c| c.demo.path);
        assert_eq!(path(&["modex"]).unwrap(), PathArg::Indexed);
        assert_eq!(
            path(&["modex", "--path", "8888"]).unwrap(),
            PathArg::TrueColour
        );
        assert!(path(&["modex", "--path", "16"]).is_err());
        assert_eq!(DrawPath::from(PathArg::TrueColour), DrawPath::TrueColour);
        for (name, codepage) in [
            ("gbk", Codepage::Gbk),
            ("1252", Codepage::Windows1252),
            ("1251", Codepage::Windows1251),
            ("437", Codepage::Cp437),
        ] {
            let cli = Cli::try_parse_from(["modex", "info", "f.mdl", "--codepage", name]).unwrap();
            let Some(Command::Info(info)) = cli.command else {
                panic!("not info")
            };
            assert_eq!(info.codepage, Some(codepage));
        }
        assert!(Cli::try_parse_from(["modex", "info", "f.mdl", "--codepage", "850"]).is_err());
    }

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("640x480").unwrap(), (640, 480));
        assert_eq!(parse_size("1920X1080").unwrap(), (1920, 1080));
        assert!(parse_size("640").is_err());
        assert!(parse_size("0x10").is_err());
        assert!(parse_size("axb").is_err());
    }

    #[test]
    fn render_flags_from_the_issue_parse() {
        let cli = Cli::try_parse_from([
            "modex", "render", "m.mdl", "-o", "out.png", "--frame", "3", "--format", "8888",
            "--size", "640x480", "--yaw", "-30", "--pitch", "10",
        ])
        .unwrap();
        let Some(Command::Render(r)) = cli.command else {
            panic!("not render")
        };
        assert_eq!(r.format, Some(TargetFormat::Argb8888));
        assert_eq!(r.frame, 3);
        assert_eq!(r.yaw, Some(-30.0));
    }
}
