//! # modex-desktop — the desktop backends
//!
//! What a program on a desktop machine needs to show modex's frames and play its sound, kept out of
//! the core so that no format crate, renderer or fuzz target ever builds a window system or a sound
//! library:
//! - [`WindowPresenter`]: a [`modex::Present`] that shows frames in a minifb window, scaled by an
//!   integer factor and optionally corrected to 4:3 (the sizing rule is the core's
//!   [`modex::present::output_size`]).
//! - [`AudioOutput`]: plays a core [`modex::Mixer`] on the machine's audio device through
//!   rodio/cpal; with no device it logs one line and runs silent, never failing the program.
//! - [`minifb`], re-exported so a frontend reads keys with the same types the window uses, and
//!   [`QUIT_KEY`], the key every window closes on.
//! - [`screen`]: the screen's size and the largest integer scale whose window fits it
//!   ([`scale_to_fit`]).
//!
//! Only frontends (the `modex` binary) depend on this crate; `.ci/run` checks that on the
//! dependency graph.

#![deny(unsafe_code)]
#![warn(missing_docs)]

#[cfg(target_os = "linux")]
mod alsa_quiet;
mod audio;
pub mod screen;
mod window;

pub use audio::AudioOutput;
pub use screen::scale_to_fit;
pub use window::{WindowPresenter, QUIT_KEY};

/// The window library, re-exported so binaries read keys with the same types the presenter uses.
pub use minifb;
