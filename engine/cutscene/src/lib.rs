//! # modex-cutscene — Battle Isle 2 cutscenes
//!
//! LIB archives, TPWM compression, BBHD clips, ASCR scripts, ATXT text, VOC sound and palettes, and
//! the sequencer that plays them. A library only: it draws into the core's 8-bit frame and mixes
//! into the core's deterministic [`modex::Mixer`], and never opens a window, an audio device or a
//! file encoder. The `modex` binary holds the frontends (the player window, the exporter).
//!
//! - Formats: [`lib_archive`], [`tpwm`], [`bbhd`], [`ascr`], [`atxt`], [`voc`], [`apal`]. Every
//!   loader takes `&[u8]` and answers with a [`modex::FormatResult`]; none panics on bad input
//!   (each has a cargo-fuzz target under `fuzz/`).
//! - Scenes: [`Scene`] loads a script and its assets from a [`GameDir`] (typed [`SceneError`]s;
//!   a broken asset is a [`SceneWarning`] and its command is skipped).
//! - Playing: [`Timeline`] compiles a scene, [`Sequencer`] draws its frames tick by tick,
//!   [`Playback`] adds its sounds on a mixer as the ticks pass, [`mix_sound`] gives the whole
//!   scene's sound as samples, [`Transport`] is a player's position and speed. The play rules a
//!   tool may want on their own: [`picture_for_step`] (PMO), [`layer_view`] (where a layer is and
//!   what it shows at a tick), and the limits and defaults ([`TICKS_PER_SECOND`],
//!   [`MAX_FADE_TICKS`], [`MAX_SCENE_TICKS`], [`DEFAULT_TEXT_COLOUR`], [`VOICE_CHANNEL`]).
//! - Detection for frontends: [`Input`] (what a path holds), [`clip_data`] (the clip in it).
//! - The project's own data: no real game file ships with the project; the encoders
//!   ([`tpwm::compress`], [`bbhd_encode::encode_clip`], [`lib_archive::encode_lib`],
//!   [`voc::encode_voc`]) make the sample scene in `data/cutscene/` (`modex_testkit::sample_scene`) and the
//!   round-trip tests.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod apal;
pub mod ascr;
pub mod atxt;
pub mod bbhd;
pub mod bbhd_encode;
mod change_stream;
mod detect;
pub mod font;
pub mod lib_archive;
mod playback;
mod scene;
mod sequencer;
mod text_layout;
pub mod tpwm;
mod transport;
pub mod voc;

pub use ascr::{Command, Script, TICKS_PER_SECOND};
pub use bbhd::{BbhdClip, BbhdHeader, ClipDecoder, FrameType};
pub use change_stream::ChangeStream;
pub use detect::{clip_data, ClipError, EntryKind, Input};
pub use lib_archive::{LibArchive, LibEntry};
pub use playback::{mix_sound, Playback};
pub use scene::{
    ClipPictures, Folder, GameDir, Scene, SceneAssets, SceneError, SceneWarning, ScriptEntry,
    MAX_SCRIPTS, REPLACED_PALETTE,
};
pub use sequencer::{
    layer_view, picture_for_step, LayerView, Sequencer, SoundEvent, Timeline, DEFAULT_TEXT_COLOUR,
    MAX_FADE_TICKS, MAX_SCENE_TICKS, VOICE_CHANNEL,
};
pub use transport::{Action, Transport, SPEED_RANGE};
