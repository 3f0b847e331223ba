//! The window presenter: frames in a minifb window.
//!
//! The picture is sized by the core's rule ([`output_size`]: an integer scale, optionally 4:3 as
//! mode-X was seen on its monitors) and stretched with whole source rows ([`scale_nearest`]), so
//! it stays crisp; only the drawing surface and the keyboard are minifb's.

use minifb::{Key, Window, WindowOptions};
use modex::present::{output_size, scale_nearest};
use modex::{IndexedFrame, Palette, Present, PresentError};

/// The key that closes every window ([`WindowPresenter::is_open`] turns false while it is held);
/// frontends list it with their own keys.
pub const QUIT_KEY: Key = Key::Escape;

/// A window showing frames scaled by an integer factor, optionally corrected to 4:3. ESC or
/// closing the window ends it.
pub struct WindowPresenter {
    window: Window,
    scale: usize,
    aspect_4_3: bool,
    src: Vec<u32>,
    dst: Vec<u32>,
}

impl WindowPresenter {
    /// Open a window for `width`x`height` frames.
    pub fn open(
        title: &str,
        width: usize,
        height: usize,
        scale: usize,
        aspect_4_3: bool,
    ) -> Result<Self, minifb::Error> {
        let (w, h) = output_size(width, height, scale, aspect_4_3);
        let mut window = Window::new(title, w, h, WindowOptions::default())?;
        // The engine paces itself; minifb's own limiter would only add latency.
        window.set_target_fps(0);
        Ok(WindowPresenter {
            window,
            scale: scale.max(1),
            aspect_4_3,
            src: Vec::new(),
            dst: Vec::new(),
        })
    }

    /// The underlying window, for keyboard and mouse input.
    pub fn window(&self) -> &Window {
        &self.window
    }

    /// The underlying window, for input handling that changes it.
    pub fn window_mut(&mut self) -> &mut Window {
        &mut self.window
    }

    /// Toggle 4:3 correction; the window keeps its size and the picture is rescaled to fit.
    pub fn set_aspect_4_3(&mut self, on: bool) {
        self.aspect_4_3 = on;
    }

    /// Whether 4:3 correction is on.
    pub fn aspect_4_3(&self) -> bool {
        self.aspect_4_3
    }

    /// Whether the window is still open and [`QUIT_KEY`] is not held.
    pub fn is_open(&self) -> bool {
        self.window.is_open() && !self.window.is_key_down(QUIT_KEY)
    }

    fn show(&mut self, width: usize, height: usize) -> Result<bool, PresentError> {
        let (dw, dh) = output_size(width, height, self.scale, self.aspect_4_3);
        scale_nearest(&self.src, width, height, &mut self.dst, dw, dh);
        self.window
            .update_with_buffer(&self.dst, dw, dh)
            .map_err(|e| PresentError::Window(Box::new(e)))?;
        Ok(self.is_open())
    }
}

impl Present for WindowPresenter {
    fn present_indexed(
        &mut self,
        frame: &IndexedFrame,
        palette: &Palette,
    ) -> Result<bool, PresentError> {
        frame.to_rgb_u32(palette, &mut self.src);
        self.show(frame.width(), frame.height())
    }

    fn present_rgba(
        &mut self,
        width: usize,
        height: usize,
        rgba: &[u8],
    ) -> Result<bool, PresentError> {
        self.src.clear();
        self.src.extend(
            rgba.chunks_exact(4)
                .map(|c| (c[0] as u32) << 16 | (c[1] as u32) << 8 | c[2] as u32),
        );
        self.show(width, height)
    }
}
