//! The demo battlefield.

pub mod assets;
pub mod draw;
mod ground;
pub mod overlay;
pub mod props;
pub mod terrain;
pub mod units;
pub mod world;

pub use assets::{Assets, DEMO_DATA_DIR};
pub use draw::{DrawPath, FrameStats, Look, Overrides, SceneRenderer};
pub use world::World;
