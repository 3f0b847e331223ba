//! The terrain as last drawn, kept between frames: a frame whose camera, light, terrain placement
//! and pixel path are those it was drawn with starts from a copy of it instead of rasterising the
//! terrain again.
//!
//! Why: the terrain (2 048 textured triangles under every pixel of the frame) is redrawn the same
//! in every frame while the camera stands still, and it was about 40 M instructions of each
//! 1000-unit 1080p frame, a quarter of the orthographic one (docs/benchmarks.md, issue 43). The
//! sun is the only other thing it depends on, and it moves in light steps
//! ([`super::world::LIGHT_STEP`]), so between two steps nothing about the terrain changes.
//!
//! Exact: the layer is the frame and depth buffer right after the terrain was drawn into them
//! cleared to the sky, so copying it back leaves every pixel and depth as drawing it again would;
//! the props, units and translucent models are then drawn over it as before. The key holds
//! everything the terrain's draw reads that can change between frames (the renderer's other
//! settings are fixed when the scene renderer is made); a NaN anywhere in it never matches, so such
//! a frame is drawn.

use modex::{Argb8888, Camera, DepthBuffer, IndexedFrame, Surface};
use modex_raster::{Entity, Light};
use rayon::prelude::*;

/// What the kept terrain was drawn with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct GroundKey {
    pub camera: Camera,
    pub light: Light,
    pub entity: Entity,
    /// Drawn into the 8888 surface (else the 8-bit frame).
    pub true_colour: bool,
}

/// The terrain's pixels and depths for one [`GroundKey`].
#[derive(Debug, Default)]
pub(super) struct Ground {
    key: Option<GroundKey>,
    /// The camera of the last terrain drawn: a terrain is kept only when the camera stood still
    /// since, so frames of a moving camera do not pay for a copy that no frame could use.
    last_camera: Option<Camera>,
    indexed: Vec<u8>,
    true_colour: Vec<Argb8888>,
    depth: Vec<f32>,
}

/// Rows copied per parallel piece: a few hundred KiB, so both cores share a 1080p copy.
const ROWS_PER_PIECE: usize = 64;

impl Ground {
    /// Copy the kept terrain into the path's target and `depth` if it was drawn with `key` into
    /// buffers of their size; `false` (nothing written) otherwise.
    pub fn restore(
        &self,
        key: &GroundKey,
        (frame, surface, depth): (&mut IndexedFrame, &mut Surface<Argb8888>, &mut DepthBuffer),
    ) -> bool {
        if self.key.as_ref() != Some(key) || self.depth.len() != depth.values().len() {
            return false;
        }
        let width = depth.width().max(1);
        match key.true_colour {
            false if self.indexed.len() == frame.pixels().len() => {
                copy_rows(&self.indexed, frame.pixels_mut(), width);
            }
            true if self.true_colour.len() == surface.pixels().len() => {
                copy_rows(&self.true_colour, surface.pixels_mut(), width);
            }
            _ => return false,
        }
        copy_rows(&self.depth, depth.values_mut(), width);
        true
    }

    /// Keep what the path's target and `depth` hold now (the terrain just drawn with `key`),
    /// when the camera has not moved since the terrain was last drawn. (A frame that restored
    /// the terrain had the kept camera, so only drawn frames need to note theirs.)
    pub fn keep(
        &mut self,
        key: GroundKey,
        (frame, surface, depth): (&IndexedFrame, &Surface<Argb8888>, &DepthBuffer),
    ) {
        if self.last_camera.replace(key.camera) != Some(key.camera) {
            return;
        }
        let width = depth.width().max(1);
        if key.true_colour {
            keep_rows(&mut self.true_colour, surface.pixels(), width);
        } else {
            keep_rows(&mut self.indexed, frame.pixels(), width);
        }
        keep_rows(&mut self.depth, depth.values(), width);
        self.key = Some(key);
    }
}

/// `dst` = `src`, in pieces of [`ROWS_PER_PIECE`] rows of `width` on the pool's threads.
fn copy_rows<T: Copy + Send + Sync>(src: &[T], dst: &mut [T], width: usize) {
    let piece = width * ROWS_PER_PIECE;
    dst.par_chunks_mut(piece)
        .zip(src.par_chunks(piece))
        .for_each(|(d, s)| d.copy_from_slice(s));
}

/// [`copy_rows`] into `kept`, resized to `src` (its memory reused from frame to frame).
fn keep_rows<T: Copy + Default + Send + Sync>(kept: &mut Vec<T>, src: &[T], width: usize) {
    kept.resize(src.len(), T::default());
    copy_rows(src, kept, width);
}
