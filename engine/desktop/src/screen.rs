//! How big a window may be: the screen's size and the largest integer scale whose window fits it.
//!
//! minifb cannot tell a program the size of the screen before it opens a window, and a window
//! taller than the screen opens with its bottom rows (and, under some window managers, its title
//! bar) out of reach: the level viewer's 640x480 at scale 2 is 960 lines on a 1280x800 laptop.
//! So the size is found without the window library, in this order:
//! 1. `MODEX_SCREEN=WxH`, for a machine where the next rule reads the wrong output, or none;
//! 2. the first mode of the first connected output the kernel lists under `/sys/class/drm`
//!    (`card*-*/status` says `connected`, `modes` lists the output's modes, the preferred first);
//! 3. else [`FALLBACK`], a common laptop screen, small enough that the window fits most screens.
//!
//! [`fit_scale`] then keeps [`DECORATIONS`] free for the title bar, borders and a panel.

use std::path::Path;

/// The screen assumed when neither `MODEX_SCREEN` nor `/sys/class/drm` says one: 1280x800.
pub const FALLBACK: (usize, usize) = (1280, 800);

/// Pixels kept free of the window's picture, width and height: borders left and right, and the
/// title bar and a desktop panel above or below (GNOME's top bar and a title bar are about 70
/// lines together).
pub const DECORATIONS: (usize, usize) = (32, 96);

/// Where [`screen_size`] found the size, for the log line that says which scale was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScreenSource {
    /// `MODEX_SCREEN=WxH`.
    Variable,
    /// The first mode of a connected output under `/sys/class/drm`.
    Drm,
    /// Neither: [`FALLBACK`].
    Fallback,
}

/// The screen's size in pixels and where it was found (the order in the module docs).
pub fn screen_size() -> ((usize, usize), ScreenSource) {
    if let Some(size) = std::env::var("MODEX_SCREEN")
        .ok()
        .as_deref()
        .and_then(parse_size)
    {
        return (size, ScreenSource::Variable);
    }
    if let Some(size) = drm_screen(Path::new("/sys/class/drm")) {
        return (size, ScreenSource::Drm);
    }
    (FALLBACK, ScreenSource::Fallback)
}

/// `WxH` (or `WXH`), both at least 1; `None` for anything else.
pub fn parse_size(s: &str) -> Option<(usize, usize)> {
    let (w, h) = s.trim().split_once(['x', 'X'])?;
    let (w, h) = (w.trim().parse().ok()?, h.trim().parse().ok()?);
    (w > 0 && h > 0).then_some((w, h))
}

/// The first mode of the first connected output below `root` (a `/sys/class/drm` layout:
/// `card0-eDP-1/status`, `card0-eDP-1/modes`), outputs taken in name order so the answer does
/// not depend on the directory's order.
pub fn drm_screen(root: &Path) -> Option<(usize, usize)> {
    let mut outputs: Vec<_> = std::fs::read_dir(root)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    outputs.sort();
    outputs.iter().find_map(|dir| {
        let status = std::fs::read_to_string(dir.join("status")).ok()?;
        if status.trim() != "connected" {
            return None;
        }
        let modes = std::fs::read_to_string(dir.join("modes")).ok()?;
        // A mode may carry a suffix (`1920x1080i`); the digits are the size.
        let first = modes.lines().next()?;
        let digits: String = first
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == 'x')
            .collect();
        parse_size(&digits)
    })
}

/// The largest integer scale at which a `width`x`height` picture (already corrected for aspect,
/// if it is) fits on `screen` with [`DECORATIONS`] kept free; 1 when even scale 1 does not fit,
/// since a smaller window than the picture is not what a scale can give.
pub fn fit_scale((width, height): (usize, usize), screen: (usize, usize)) -> usize {
    let room_w = screen.0.saturating_sub(DECORATIONS.0);
    let room_h = screen.1.saturating_sub(DECORATIONS.1);
    let by_w = room_w / width.max(1);
    let by_h = room_h / height.max(1);
    by_w.min(by_h).max(1)
}

/// [`fit_scale`] on this machine's screen ([`screen_size`]), said in one log line.
pub fn scale_to_fit(width: usize, height: usize) -> usize {
    let (screen, source) = screen_size();
    let scale = fit_scale((width, height), screen);
    let from = match source {
        ScreenSource::Variable => "MODEX_SCREEN",
        ScreenSource::Drm => "/sys/class/drm",
        ScreenSource::Fallback => "assumed",
    };
    log::info!(
        "window scale {scale}: {width}x{height} fits a {}x{} screen ({from}); --scale sets it",
        screen.0,
        screen.1
    );
    scale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_scale_that_fits_with_room_for_decorations() {
        // The case: 640x480 at scale 2 is 960 lines, taller than a 1280x800 screen.
        assert_eq!(fit_scale((640, 480), (1280, 800)), 1);
        assert_eq!(fit_scale((640, 480), (1920, 1080)), 2);
        assert_eq!(fit_scale((640, 480), (3840, 2160)), 4);
        // The width can be what limits it.
        assert_eq!(fit_scale((640, 100), (1300, 2000)), 1);
        assert_eq!(fit_scale((640, 100), (1312, 2000)), 2);
        // Exactly the room left is a fit; one pixel more is not.
        assert_eq!(fit_scale((360, 240), (3 * 360 + 32, 3 * 240 + 96)), 3);
        assert_eq!(fit_scale((360, 240), (3 * 360 + 32, 3 * 240 + 95)), 2);
        // Never below 1, whatever the screen.
        assert_eq!(fit_scale((4000, 3000), (1280, 800)), 1);
        assert_eq!(fit_scale((0, 0), (10, 10)), 1);
    }

    #[test]
    fn sizes_read_as_width_by_height() {
        assert_eq!(parse_size("1920x1080"), Some((1920, 1080)));
        assert_eq!(parse_size(" 800X600 \n"), Some((800, 600)));
        assert_eq!(parse_size("800x0"), None);
        assert_eq!(parse_size("800"), None);
        assert_eq!(parse_size("ax600"), None);
    }

    #[test]
    fn the_first_mode_of_the_first_connected_output() {
        let root = std::env::temp_dir().join(format!("modex-drm-{}", std::process::id()));
        let output = |name: &str, status: &str, modes: &str| {
            let dir = root.join(name);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("status"), status).unwrap();
            std::fs::write(dir.join("modes"), modes).unwrap();
        };
        // Nothing there yet.
        assert_eq!(drm_screen(&root), None);
        output("card0-DP-1", "disconnected\n", "");
        output("card0-HDMI-A-1", "connected\n", "2560x1440\n1920x1080\n");
        output("card0-eDP-1", "connected\n", "1366x768\n");
        // Not an output: no status file.
        std::fs::create_dir_all(root.join("card0")).unwrap();
        assert_eq!(drm_screen(&root), Some((2560, 1440)));
        // An interlaced mode's suffix is not part of the size; a connected output without modes
        // is passed over.
        output("card0-HDMI-A-1", "connected\n", "1920x1080i\n");
        assert_eq!(drm_screen(&root), Some((1920, 1080)));
        output("card0-HDMI-A-1", "connected\n", "");
        assert_eq!(drm_screen(&root), Some((1366, 768)));
        std::fs::remove_dir_all(&root).unwrap();
        assert_eq!(drm_screen(&root), None);
    }
}
