//! The demo scene behind `cargo run`: a small battlefield of voxel units, MDL props and an HMP terrain,
//! all made by the project's own generators (`scene::assets`), simulated with a fixed time step
//! (`scene::world`) and drawn by the engine's rasterizer and ray-marcher (`scene::draw`).
//!
//! This is a library so the `modex` binary stays thin, and so the asset generator
//! (`cargo run -p modex-demo --example make_demo_data`) and the tests share the same code.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod scene;
