//! # modex-cutscene — Battle Isle 2 cutscenes
//!
//! LIB archives, TPWM compression, BBHD clips, ASCR scripts, ATXT text, VOC sound and palettes, and
//! the sequencer that plays them.
//!
//! Every loader takes `&[u8]` and answers with a [`modex::FormatResult`]; none panics on bad input
//! (each has a cargo-fuzz target under `fuzz/`). No real game file ships with the project: the
//! encoders here ([`tpwm::compress`], [`bbhd_encode::encode_clip`], [`lib_archive::write_lib`],
//! [`voc::write_voc`]) make the sample scene in `data/cutscene/` and the round-trip tests.

pub mod apal;
pub mod ascr;
pub mod atxt;
pub mod bbhd;
pub mod bbhd_encode;
pub mod change_stream;
pub mod cp437;
pub mod export;
pub mod font;
pub mod lib_archive;
#[cfg(feature = "player")]
pub mod player;
pub mod sample_scene;
pub mod scene;
pub mod sequencer;
pub mod text_layout;
pub mod tpwm;
pub mod voc;

pub use bbhd::{BbhdClip, BbhdHeader, ClipDecoder, FrameType};
pub use change_stream::ChangeStream;
pub use lib_archive::{LibArchive, LibEntry};
pub use scene::{ClipPictures, GameDir, Scene};
pub use sequencer::{Sequencer, Timeline};
