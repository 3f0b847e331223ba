//! The voxel scenes: one unit framed to fill the view, and battlefields of 13, 100 and 1000
//! units on a grid, drawn by `modex-voxel`'s ray-marcher with the game's lighting.
//!
//! The units are the samples' Mammoth Mk II (`vxl/vengi/hmec.vxl` with its HVA and the game's VPL)
//! when the sample folder is there, else a generated hull with four legs of about hmec's voxel
//! count, shaded through a grey ramp. The battlefield is the demo's unit counts on a plain grid
//! (60 world units apart, each turned and animated differently), without its terrain: what is
//! measured is the voxel draw alone.

use glam::Vec3;
use modex::{DepthBuffer, Palette, Target};
use modex_voxel::{
    draw, frame_scene, game_camera, Instance, Pose, RenderOptions, Unit, VoxelModel,
};
use modex_vxl::encode::{HvaSpec, LimbSpec, VxlSpec};
use modex_vxl::{hva, vpl, vxl, Vpl};

use crate::error::BenchError;

/// The unit and its pages.
pub struct Units {
    /// The model every unit of a scene is.
    pub model: VoxelModel,
    /// The lighting pages (and palette) it is shaded through.
    pub vpl: Vpl,
    /// Where it came from, for the report.
    pub source: String,
}

fn scene_error(e: impl std::fmt::Display) -> BenchError {
    BenchError::Scene {
        scene: "voxel".into(),
        message: e.to_string(),
    }
}

impl Units {
    /// hmec from the samples, or the generated stand-in.
    pub fn load() -> Result<Units, BenchError> {
        if let Some(dir) = crate::samples::dir("vxl") {
            let read = |name: &str| {
                let path = dir.join(name);
                std::fs::read(&path).map_err(|source| BenchError::Read { path, source })
            };
            let v = vxl::decode(&read("vengi/hmec.vxl")?).map_err(scene_error)?;
            let h = hva::decode(&read("vengi/hmec.hva")?).map_err(scene_error)?;
            let p = vpl::decode(&read("vengi/test.vpl")?).map_err(scene_error)?;
            return Ok(Units {
                model: VoxelModel::new("hmec", v, Some(h)).map_err(scene_error)?,
                vpl: p,
                source: "hmec.vxl (Mammoth Mk II) from the samples".into(),
            });
        }
        // A hull with a hollow inside plus four legs: about the size and voxel count of hmec.
        let mut body = LimbSpec::filled_box([53, 31, 20], 144, 5);
        body.voxels
            .retain(|v| v.0 < 2 || v.0 > 50 || v.1 < 2 || v.1 > 28 || v.2 < 2 || v.2 > 17);
        let mut limbs = vec![body];
        for _ in 0..4 {
            limbs.push(LimbSpec::filled_box([8, 8, 12], 45, 20));
        }
        let spec = VxlSpec {
            limbs,
            ..VxlSpec::default()
        };
        let v = vxl::decode(&spec.encode()).map_err(scene_error)?;
        let h = hva::decode(&HvaSpec::identity(5, 1).encode()).map_err(scene_error)?;
        Ok(Units {
            model: VoxelModel::new("synthetic", v, Some(h)).map_err(scene_error)?,
            vpl: Vpl::from_palette(&Palette::grey_ramp(), 32),
            source: "a generated unit of hmec's size (the samples' hmec.vxl was not found)".into(),
        })
    }

    /// The palette the 8-bit pictures are shown through.
    pub fn palette(&self) -> &Palette {
        &self.vpl.palette
    }
}

/// Units placed for one scene.
pub struct Placed<'m> {
    /// What is drawn.
    pub instances: Vec<Instance<'m>>,
    /// Voxels of all units (the model's count times the units).
    pub voxels: usize,
}

/// `count` units on a grid, 10 to a row.
pub fn place(units: &Units, count: usize) -> Placed<'_> {
    let instances = (0..count)
        .map(|i| Instance {
            unit: Unit::single(&units.model),
            pose: Pose {
                position: Vec3::new((i % 10) as f32 * 60.0, (i / 10) as f32 * 60.0, 0.0),
                facing: (i * 37 % 256) as f32,
                frame: i,
                ..Pose::default()
            },
        })
        .collect();
    Placed {
        instances,
        voxels: units.model.vxl.voxel_count() * count,
    }
}

/// The unit count of a voxel scene's name.
pub fn unit_count(name: &str) -> Option<usize> {
    match name {
        "voxel" => Some(1),
        _ => name.strip_prefix("battlefield")?.parse().ok(),
    }
}

/// A placed scene and its camera at one size.
pub struct View<'m> {
    placed: Placed<'m>,
    camera: modex::Camera,
    opts: RenderOptions,
}

impl<'m> View<'m> {
    /// The scene `placed` framed at `width` x `height`, drawn on `threads` threads.
    pub fn new(
        placed: Placed<'m>,
        width: usize,
        height: usize,
        threads: usize,
    ) -> Result<View<'m>, BenchError> {
        let camera = frame_scene(
            &placed.instances,
            &game_camera(Vec3::ZERO, 100.0, width, height),
        )
        .map_err(scene_error)?;
        Ok(View {
            placed,
            camera,
            opts: RenderOptions {
                parallel: threads > 1,
                ..RenderOptions::default()
            },
        })
    }

    /// Voxels of all units.
    pub fn voxels(&self) -> usize {
        self.placed.voxels
    }

    /// One frame: clear colour and depth, draw every unit.
    pub fn frame<T: Target>(&self, vpl: &Vpl, t: &mut T, d: &mut DepthBuffer)
    where
        T::Px: modex_voxel::VoxelPixel,
    {
        let black = T::flat([0, 0, 0], &vpl.palette);
        t.fill(black);
        d.clear();
        draw(&self.placed.instances, &self.camera, vpl, &self.opts, t, d)
            .expect("bench targets, depth and camera share one size");
    }
}
