//! Getting frames in front of a person: the [`Present`] contract every frontend draws through, the
//! headless presenter that writes every frame as PNG, and the sizing rule a window follows (integer
//! scaling and optional 4:3 aspect correction). The window itself is a desktop backend
//! (`modex-desktop`'s `WindowPresenter`), so the core builds without a window system.
//!
//! Mode-X 360x240 was shown on 4:3 monitors, so its pixels were taller than wide: 240 lines filled the
//! height of a 4:3 screen that 360 columns filled the width of. [`output_size`] with `aspect_4_3`
//! makes the output `width * 3 / 4` lines tall, and [`scale_nearest`] stretches with whole source
//! rows so the picture stays crisp.

use std::path::PathBuf;

use crate::frame::IndexedFrame;
use crate::palette::Palette;
use crate::pngio::{self, PngError};
use crate::target::Target;

/// A frame could not be shown.
#[derive(Debug, thiserror::Error)]
pub enum PresentError {
    /// The headless presenter could not write its PNG.
    #[error(transparent)]
    Png(#[from] PngError),
    /// A window could not be updated. The backend's own error is the source: the core names no
    /// window library.
    #[error("window")]
    Window(#[source] Box<dyn std::error::Error + Send + Sync>),
}

/// Window or file size for a `width`x`height` frame at integer `scale`, with optional 4:3 correction.
pub fn output_size(width: usize, height: usize, scale: usize, aspect_4_3: bool) -> (usize, usize) {
    let scale = scale.max(1);
    let w = width * scale;
    let h = if aspect_4_3 {
        // Round to nearest: a 4:3 screen `w` pixels wide is `w * 3 / 4` lines tall.
        (w * 3 + 2) / 4
    } else {
        height * scale
    };
    (w, h.max(1))
}

/// Nearest-neighbour scale of `src` (`sw`x`sh`) into `dst` (`dw`x`dh`). Each destination pixel takes
/// the source pixel whose area covers its centre, so integer scales duplicate pixels exactly.
pub fn scale_nearest(src: &[u32], sw: usize, sh: usize, dst: &mut Vec<u32>, dw: usize, dh: usize) {
    dst.clear();
    dst.resize(dw * dh, 0);
    if sw == 0 || sh == 0 || src.len() < sw * sh {
        return;
    }
    let xmap: Vec<usize> = (0..dw).map(|x| ((2 * x + 1) * sw) / (2 * dw)).collect();
    for y in 0..dh {
        let sy = ((2 * y + 1) * sh) / (2 * dh);
        let srow = &src[sy * sw..(sy + 1) * sw];
        let drow = &mut dst[y * dw..(y + 1) * dw];
        for (d, &sx) in drow.iter_mut().zip(&xmap) {
            *d = srow[sx];
        }
    }
}

/// What a presenter is told each frame.
pub trait Present {
    /// Show an 8-bit frame through a palette. Returns `false` once the user asked to quit.
    fn present_indexed(
        &mut self,
        frame: &IndexedFrame,
        palette: &Palette,
    ) -> Result<bool, PresentError>;
    /// Show RGBA8 pixels. Returns `false` once the user asked to quit.
    fn present_rgba(
        &mut self,
        width: usize,
        height: usize,
        rgba: &[u8],
    ) -> Result<bool, PresentError>;

    /// Show any render target: an 8-bit frame through `palette` (indices kept, as
    /// [`Present::present_indexed`]), a true-colour surface as its RGBA colours. Viewers that let the
    /// user switch pixel formats call this one method whatever the format.
    fn present_target<T: Target>(
        &mut self,
        target: &T,
        palette: &Palette,
    ) -> Result<bool, PresentError>
    where
        Self: Sized,
    {
        if let Some(frame) = target.as_indexed() {
            return self.present_indexed(frame, palette);
        }
        let (w, h) = target.size();
        self.present_rgba(w, h, &target.to_rgba8(palette))
    }
}

/// Writes each presented frame to `DIR/NNNNN.png` (indexed PNG for 8-bit frames).
#[derive(Debug)]
pub struct HeadlessPresenter {
    dir: PathBuf,
    next: usize,
}

impl HeadlessPresenter {
    /// Creates `dir` if needed.
    pub fn new(dir: impl Into<PathBuf>) -> Result<Self, PngError> {
        let dir = dir.into();
        std::fs::create_dir_all(&dir).map_err(|source| PngError::Io {
            path: dir.display().to_string(),
            source,
        })?;
        Ok(HeadlessPresenter { dir, next: 0 })
    }

    /// Frames written so far.
    pub fn frames_written(&self) -> usize {
        self.next
    }

    fn next_path(&mut self) -> PathBuf {
        let p = self.dir.join(format!("{:05}.png", self.next));
        self.next += 1;
        p
    }
}

impl Present for HeadlessPresenter {
    fn present_indexed(
        &mut self,
        frame: &IndexedFrame,
        palette: &Palette,
    ) -> Result<bool, PresentError> {
        let p = self.next_path();
        pngio::save_indexed(&p, frame, palette)?;
        Ok(true)
    }

    fn present_rgba(
        &mut self,
        width: usize,
        height: usize,
        rgba: &[u8],
    ) -> Result<bool, PresentError> {
        let p = self.next_path();
        pngio::save_rgba(&p, width, height, rgba)?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(output_size(360, 240, 3, false), (1080, 720));
        assert_eq!(output_size(360, 240, 3, true), (1080, 810));
        assert_eq!(output_size(320, 200, 1, true), (320, 240));
        assert_eq!(output_size(320, 200, 0, false), (320, 200));
    }

    #[test]
    fn integer_scale_duplicates_pixels() {
        let src = vec![1, 2, 3, 4];
        let mut dst = Vec::new();
        scale_nearest(&src, 2, 2, &mut dst, 4, 4);
        assert_eq!(dst, vec![1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4]);
    }

    #[test]
    fn aspect_stretch_repeats_whole_rows() {
        // 8 rows to 9: exactly one source row is shown twice, none is dropped.
        let src: Vec<u32> = (0..8).collect();
        let mut dst = Vec::new();
        scale_nearest(&src, 1, 8, &mut dst, 1, 9);
        let mut seen = dst.clone();
        seen.dedup();
        assert_eq!(seen, (0..8).collect::<Vec<u32>>());
        assert!(dst.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn headless_writes_numbered_indexed_pngs() {
        let dir = std::env::temp_dir().join(format!("modex-headless-{}", std::process::id()));
        let mut p = HeadlessPresenter::new(&dir).unwrap();
        let mut f = IndexedFrame::new(8, 4);
        f.set(3, 2, 200);
        assert!(p.present_indexed(&f, &Palette::quake()).unwrap());
        assert!(p.present_rgba(1, 1, &[1, 2, 3, 4]).unwrap());
        assert!(p.present_target(&f, &Palette::quake()).unwrap());
        let mut s = crate::Surface::<crate::Rgb565>::new(2, 1);
        s.clear(crate::Rgb565(0xf800));
        assert!(p.present_target(&s, &Palette::quake()).unwrap());
        assert_eq!(p.frames_written(), 4);
        let (g2, _) =
            crate::pngio::decode_indexed(&std::fs::read(dir.join("00002.png")).unwrap()).unwrap();
        assert_eq!(g2, f, "8-bit targets stay indexed");
        let (w, h, rgba) =
            crate::pngio::decode_rgba(&std::fs::read(dir.join("00003.png")).unwrap()).unwrap();
        assert_eq!((w, h, &rgba[..4]), (2, 1, &[255u8, 0, 0, 255][..]));
        let bytes = std::fs::read(dir.join("00000.png")).unwrap();
        let (g, _) = crate::pngio::decode_indexed(&bytes).unwrap();
        assert_eq!(g, f);
        assert!(dir.join("00001.png").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
