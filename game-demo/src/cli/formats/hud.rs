//! What the viewers draw over their picture: the statistics ([`Action::Stats`]) and the key list
//! ([`Action::Keys`], from the one key table), in the engine's own font
//! (`modex_demo::scene::overlay`, the demo's statistics overlay), into whichever target format the
//! viewer draws in. Drawn into the picture itself, so 8-bit frames keep their palette indices.

use modex::{DrawStats, Palette, Target, TargetFormat};
use modex_demo::scene::overlay;
use modex_raster::RasterPixel;
use modex_view::target::Drawing;
use modex_view::ViewError;
use modex_voxel::VoxelPixel;

use super::keys::{overlay_lines, Action, KeyState, Viewer};

/// The text's colour (the demo overlay's yellow).
const INK: [u8; 3] = [255, 243, 27];

/// The overlays a viewer shows and the frame rate they report.
#[derive(Debug)]
pub struct Hud {
    viewer: Viewer,
    /// Whether the key list is shown.
    pub keys: bool,
    /// Whether the statistics are shown.
    pub stats: bool,
    /// Frames per second, smoothed.
    fps: f32,
    /// Seconds per frame, smoothed.
    frame_time: f32,
    /// What the last frame drew.
    drawn: DrawStats,
}

impl Hud {
    /// Nothing shown yet, for `viewer`'s keys.
    pub fn new(viewer: Viewer) -> Hud {
        Hud {
            viewer,
            keys: false,
            stats: false,
            fps: 0.0,
            frame_time: 0.0,
            drawn: DrawStats::default(),
        }
    }

    /// The F1 and F keys of this frame.
    pub fn read_keys(&mut self, keys: &impl KeyState) {
        if Action::Keys.pressed(keys) {
            self.keys = !self.keys;
        }
        if Action::Stats.pressed(keys) {
            self.stats = !self.stats;
        }
    }

    /// A frame took `dt` seconds and drew `drawn` (shown from the next frame on).
    pub fn frame(&mut self, dt: f32, drawn: DrawStats) {
        let dt = dt.max(1e-4);
        if self.frame_time == 0.0 {
            self.frame_time = dt;
        }
        self.frame_time = self.frame_time * 0.9 + dt * 0.1;
        self.fps = 1.0 / self.frame_time;
        self.drawn = drawn;
    }

    /// The statistics' lines: the frame rate, the format, what was drawn, then `extra` (the
    /// viewer's own counters).
    fn stats_lines(&self, format: TargetFormat, extra: &[String]) -> Vec<String> {
        let d = &self.drawn;
        let mut lines = vec![format!(
            "{:.0} fps, {:.1} ms, {}",
            self.fps,
            self.frame_time * 1000.0,
            match format {
                TargetFormat::Indexed8 => "8-bit".to_string(),
                f => f.name().to_string(),
            }
        )];
        if d.triangles > 0 {
            lines.push(format!("{} triangles, {} drawn", d.triangles, d.rasterized));
        }
        if d.limbs > 0 {
            lines.push(format!("{} voxel limbs, {} rays", d.limbs, d.rays));
        }
        lines.extend(extra.iter().cloned());
        lines
    }

    /// `picture` with what is shown drawn over it: the statistics at the top, the key list
    /// under them.
    pub fn over<'a, D: Drawing>(
        &self,
        picture: &'a mut D,
        format: TargetFormat,
        palette: &'a Palette,
        extra: &[String],
    ) -> WithHud<'a, D> {
        let stats = if self.stats {
            self.stats_lines(format, extra)
        } else {
            Vec::new()
        };
        let keys = if self.keys {
            overlay_lines(self.viewer)
        } else {
            Vec::new()
        };
        WithHud {
            picture,
            palette,
            stats,
            keys,
        }
    }
}

/// A picture with the overlays over it ([`Hud::over`]).
pub struct WithHud<'a, D> {
    picture: &'a mut D,
    palette: &'a Palette,
    stats: Vec<String>,
    keys: Vec<String>,
}

impl<D: Drawing> Drawing for WithHud<'_, D> {
    fn draw<T: Target>(&mut self, target: &mut T) -> Result<(), ViewError>
    where
        T::Px: RasterPixel + VoxelPixel,
    {
        self.picture.draw(target)?;
        let ink = T::flat(INK, self.palette);
        let dark = T::flat([0, 0, 0], self.palette);
        overlay::text(target, 4, &self.stats, ink, dark);
        if !self.keys.is_empty() {
            let top =
                4 + (self.stats.len() + usize::from(!self.stats.is_empty())) * overlay::LINE_HEIGHT;
            overlay::backdrop(target, top, &self.keys, dark);
            overlay::text(target, top, &self.keys, ink, dark);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::formats::keys::Held;
    use modex::{Argb8888, Surface};

    struct Grey;

    impl Drawing for Grey {
        fn draw<T: Target>(&mut self, target: &mut T) -> Result<(), ViewError>
        where
            T::Px: RasterPixel + VoxelPixel,
        {
            target.fill(T::flat([128, 128, 128], &Palette::quake()));
            Ok(())
        }
    }

    /// Pixels of the overlay's yellow in `hud`'s picture.
    fn inked(hud: &Hud) -> usize {
        let palette = Palette::quake();
        let mut s = Surface::<Argb8888>::new(640, 480);
        hud.over(&mut Grey, TargetFormat::Argb8888, &palette, &[])
            .draw(&mut s)
            .unwrap();
        let ink = <Surface<Argb8888> as Target>::flat(INK, &palette);
        s.pixels().iter().filter(|&&p| p == ink).count()
    }

    #[test]
    fn f1_and_f_draw_the_key_list_and_the_statistics_over_the_picture() {
        let mut hud = Hud::new(Viewer::Level);
        assert_eq!(inked(&hud), 0);
        hud.read_keys(&Held(vec![modex_desktop::minifb::Key::F1]));
        assert!(hud.keys && !hud.stats);
        let keys_only = inked(&hud);
        assert!(keys_only > 0);
        hud.read_keys(&Held(vec![modex_desktop::minifb::Key::F]));
        hud.frame(
            0.02,
            DrawStats {
                triangles: 10,
                rasterized: 5,
                ..DrawStats::default()
            },
        );
        assert!(inked(&hud) > keys_only);
        let lines = hud.stats_lines(TargetFormat::Argb8888, &["walking".into()]);
        assert_eq!(
            lines,
            ["50 fps, 20.0 ms, 8888", "10 triangles, 5 drawn", "walking"]
        );
        hud.read_keys(&Held(vec![modex_desktop::minifb::Key::F1]));
        assert!(!hud.keys);
    }
}
