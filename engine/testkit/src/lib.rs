//! # modex-testkit — what the tests and benches of every modex crate share
//!
//! Dev-only (never a normal dependency of a library or the binary):
//! - [`golden`]: compare a render with its checked-in PNG, or rewrite it with `MODEX_BLESS=1`;
//!   one rule for every crate (8-bit frames byte-exact, true colour within a stated tolerance,
//!   the actual image always written to the same place on a mismatch).
//! - [`samples`]: where the real third-party sample files are (`$MODEX_SAMPLES`, else
//!   `../shared/data`), skipping loudly on a user's clone and failing in CI.
//! - [`cplugin`]: build C plugins with the system compiler as a user would, skipping loudly
//!   without one and failing in CI.
//! - [`models`]: the scene builders the rasterizer's tests and the benches share (quads, spheres,
//!   floors, small-triangle soups, checker and noise skins, a synthetic MDL5), one copy each.
//! - [`sample_scene`]: the project's own Battle Isle 2 scene, which `data/cutscene/` holds.
//! - [`stories`]: GTA Stories sample models (a cube, a long band, two atomics, a skinned terrain).
//! - [`mdl7`]: an MDL7 writer following the measured layout, and a two-bone test model.
//! - [`level`]: WMB level objects (an entity, an INFO object) with the samples' values.
//! - [`Rng`]: the engine's seeded generator, so random test and bench scenes are the same
//!   everywhere.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod cplugin;
pub mod golden;
pub mod level;
pub mod mdl7;
pub mod models;
pub mod sample_scene;
pub mod samples;
pub mod stories;

pub use golden::{Golden, Tolerance};
pub use modex::Rng;
pub use samples::{files_below, samples_dir};
