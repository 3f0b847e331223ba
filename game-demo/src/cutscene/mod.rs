//! The cutscene frontends of the `modex` binary: what plays a Battle Isle 2 scene to a person or
//! writes it to files.
//!
//! - [`player`]: the interactive window (keys, wall clock, audio device) for `modex play`.
//! - [`export`]: PNG sequences, animated GIFs and WAV sound with a terminal progress bar for
//!   `modex export`.
//!
//! Everything they show comes from the `modex-cutscene` library (scenes, the sequencer's frames,
//! [`modex_cutscene::Playback`]'s sounds, [`modex_cutscene::Transport`]); these modules only own the
//! window, the terminal and the file encoders. The arguments are mapped to them in
//! `formats/cutscene.rs`.

pub mod export;
pub mod player;
