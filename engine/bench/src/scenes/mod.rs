//! The standard suite's scenes: what each one is, and building it once per process.
//!
//! Raster scenes (`raster`) are drawn by modex and by the Mesa peers; the voxel scenes (`voxel`)
//! and the cutscene decode (`cutscene`) have no Mesa counterpart and are measured for modex alone.
//! Every scene is generated in code with fixed seeds, except the textured model and the voxel
//! unit, which are the samples' minigun and Mammoth Mk II (hmec) when the sample folder is there
//! and generated stand-ins of the same size otherwise.

pub mod cutscene;
pub mod raster;
pub mod voxel;

use crate::case::Size;

/// Which part of modex a scene exercises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SceneKind {
    /// Triangles through `modex-raster` (peers: llvmpipe and softpipe).
    Raster,
    /// Voxel units through `modex-voxel`'s ray-marcher.
    Voxel,
    /// A Battle Isle 2 BBHD clip through `modex-cutscene`'s decoder.
    Cutscene,
}

/// A scene of the suite, by name.
#[derive(Debug, Clone, Copy)]
pub struct SceneName {
    /// The name in the table, the JSON and `--filter`.
    pub name: &'static str,
    /// Other `--filter` words that select it (`overdraw` selects both overdraw scenes).
    pub aliases: &'static [&'static str],
    /// What draws it.
    pub kind: SceneKind,
    /// Its own frame size, instead of `--sizes`.
    pub fixed_size: Option<Size>,
    /// Whether more threads can speed it up (else it runs once, on one thread).
    pub threaded: bool,
    /// One line for the report: what it measures.
    pub about: &'static str,
}

const fn raster(
    name: &'static str,
    aliases: &'static [&'static str],
    about: &'static str,
) -> SceneName {
    SceneName {
        name,
        aliases,
        kind: SceneKind::Raster,
        fixed_size: None,
        threaded: true,
        about,
    }
}

const fn voxel(
    name: &'static str,
    aliases: &'static [&'static str],
    about: &'static str,
) -> SceneName {
    SceneName {
        name,
        aliases,
        kind: SceneKind::Voxel,
        fixed_size: None,
        threaded: true,
        about,
    }
}

/// The standard suite, in the table's order.
pub const NAMES: &[SceneName] = &[
    raster(
        "fill",
        &[],
        "one textured quad over the whole frame: fill rate",
    ),
    raster(
        "floor",
        &[],
        "a 400x400 floor at a grazing angle, its texture repeated 100 times: texture cache",
    ),
    raster("mesh10k", &[], "a lit, textured sphere of 10 000 triangles"),
    raster(
        "small100k",
        &["small"],
        "100 000 small triangles: triangle setup and binning",
    ),
    raster(
        "overdraw4_f2b",
        &["overdraw"],
        "four full-frame quads front to back: depth test rejects",
    ),
    raster(
        "overdraw4_b2f",
        &["overdraw"],
        "four full-frame quads back to front: every layer written",
    ),
    raster(
        "model",
        &["minigun"],
        "a textured model: the samples' minigun, else a generated model of its size",
    ),
    voxel(
        "voxel",
        &["hmec"],
        "one voxel unit framed to fill the view: the samples' Mammoth Mk II, else a stand-in",
    ),
    voxel(
        "battlefield13",
        &["battlefield"],
        "13 voxel units on a grid, framed",
    ),
    voxel(
        "battlefield100",
        &["battlefield"],
        "100 voxel units on a grid, framed",
    ),
    voxel(
        "battlefield1000",
        &["battlefield"],
        "1000 voxel units on a grid, framed",
    ),
    SceneName {
        name: "cutscene",
        aliases: &[],
        kind: SceneKind::Cutscene,
        fixed_size: Some(Size::new(360, 240)),
        threaded: false,
        about: "decoding a 360x240 Battle Isle 2 BBHD clip of change frames (time per picture)",
    },
];

/// The suite entry of `name`.
pub fn find(name: &str) -> Option<&'static SceneName> {
    NAMES.iter().find(|n| n.name == name)
}
