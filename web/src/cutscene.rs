//! A Battle Isle 2 cutscene from a dropped game folder: the engine's [`Playback`] drawing each
//! tick, its sounds mixed for Web Audio, and the player's [`Transport`] for pause, step and seek.

use std::time::Duration;

use modex::Mixer;
use modex_cutscene::{ascr, Action, GameDir, Playback, Scene, SceneError, Transport};

use crate::error::ShowError;
use crate::files::Dropped;

self_cell::self_cell!(
    /// A scene with the playback that borrows it, owned together, so the next file shown frees
    /// both.
    struct Played {
        owner: Scene,
        #[covariant]
        dependent: Playback,
    }
);

/// A scene being played.
pub struct ShownCutscene {
    played: Played,
    transport: Transport,
    /// The sound mixed since the page last took it, mono at [`modex::OUTPUT_RATE`].
    samples: Vec<f32>,
    /// Wall-clock time not yet turned into samples, in samples (fractional).
    pending: f64,
}

impl ShownCutscene {
    /// The scene of the script `name` (the text of a dropped `.ascr` file, or of a script of the
    /// install's archive by number: `bytes`) with the assets it names among `dropped`: the files
    /// of the install's `ANI` and `ENG` folders, found by name whatever folder they were dropped
    /// in.
    pub fn load(name: &str, bytes: &[u8], dropped: &Dropped) -> Result<ShownCutscene, ShowError> {
        let dir = GameDir::from_sources(name, dropped.shared(), dropped.shared());
        let script = ascr::parse_script(bytes).map_err(|e| SceneError::ScriptFile {
            path: name.into(),
            cause: Box::new(e),
        })?;
        let scene = Scene::load(script, &dir);
        for w in &scene.warnings {
            modex_log(&format!("warning: {w}"));
        }
        let played = Played::new(scene, |scene| Playback::new(scene, Mixer::default()));
        let transport = Transport::new(played.borrow_dependent().length(), 1.0);
        Ok(ShownCutscene {
            played,
            transport,
            samples: Vec::new(),
            pending: 0.0,
        })
    }

    /// The scene's length in ticks.
    pub fn length(&self) -> u32 {
        self.played.borrow_dependent().length()
    }

    /// The tick shown.
    pub fn tick(&self) -> u32 {
        self.transport.tick()
    }

    /// Whether the clock stands still.
    pub fn paused(&self) -> bool {
        self.transport.paused
    }

    /// Let `ms` milliseconds of wall-clock time pass: the clock moves, the sounds of the ticks
    /// passed start, and that much sound is mixed into [`ShownCutscene::take_samples`].
    pub fn advance(&mut self, ms: f64) {
        let ms = ms.clamp(0.0, 250.0);
        let was_paused = self.transport.paused;
        self.transport.advance(Duration::from_secs_f64(ms / 1000.0));
        let tick = self.transport.tick();
        self.played.with_dependent_mut(|_, p| p.sound_to(tick));
        if !was_paused {
            let mixer = self.played.borrow_dependent().mixer();
            self.pending += ms / 1000.0 * mixer.rate() as f64;
            let n = self.pending as usize;
            self.pending -= n as f64;
            self.samples.extend(mixer.render(n));
        }
    }

    /// Apply a transport action (pause, step, seek); a jump silences the sound.
    pub fn apply(&mut self, action: Action) {
        if self.transport.apply(action) {
            let tick = self.transport.tick();
            self.played.with_dependent_mut(|_, p| p.jump(tick));
        }
    }

    /// The sound mixed since the last call.
    pub fn take_samples(&mut self) -> Vec<f32> {
        std::mem::take(&mut self.samples)
    }

    /// The tick shown, drawn, as RGBA8 through the tick's palette into `out` (kept between ticks).
    pub fn draw(&mut self, out: &mut Vec<u8>) -> (usize, usize) {
        use modex::Target;
        let tick = self.transport.tick();
        self.played.with_dependent_mut(|_, playback| {
            let palette = playback.palette_at(tick);
            let frame = playback.frame_at(tick);
            frame.write_rgba8(&palette, out);
            frame.size()
        })
    }
}

/// Loading warnings go to the browser console (the page has no terminal).
fn modex_log(line: &str) {
    crate::console::log(line);
}
