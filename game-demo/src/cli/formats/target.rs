//! The binary's ends of a picture: saved as a PNG (`modex render`) or shown in a window (`modex
//! view`), and the viewers' format key's cycle ([`next`]). The pixel-format switch itself is
//! `modex_view::target::AnyTarget`, which the page uses too.

use std::path::Path;

use anyhow::Result;
use modex::present::Present;
use modex::{Palette, TargetFormat};
use modex_view::target::{AnyTarget, Drawing};

/// The format after `format` in the viewers' cycle: 8-bit, 565, 4444, 8888, then 8-bit again
/// (the order of [`TargetFormat::ALL`]).
pub fn next(format: TargetFormat) -> TargetFormat {
    let all = TargetFormat::ALL;
    let at = all.iter().position(|&f| f == format).unwrap_or(0);
    all[(at + 1) % all.len()]
}

/// Draw `drawing` into a `width` x `height` target of `format` and save it as a PNG (indexed for
/// the 8-bit format, through `palette`).
pub fn save_png(
    format: TargetFormat,
    (width, height): (usize, usize),
    palette: &Palette,
    out: &Path,
    drawing: &mut impl Drawing,
) -> Result<()> {
    let mut target = AnyTarget::new(format, width, height);
    target.draw(drawing)?;
    target.save_png(out, palette)?;
    Ok(())
}

/// A viewer's target, kept across its frames: switching formats reallocates it once.
pub struct Targets {
    target: AnyTarget,
}

impl Targets {
    /// A target of `width` x `height` pixels.
    pub fn new(width: usize, height: usize) -> Targets {
        Targets {
            target: AnyTarget::new(TargetFormat::Indexed8, width, height),
        }
    }

    /// Draw `drawing` into a target of `format` and present it; `false` once the user quit.
    pub fn show(
        &mut self,
        format: TargetFormat,
        presenter: &mut impl Present,
        palette: &Palette,
        drawing: &mut impl Drawing,
    ) -> Result<bool> {
        self.target.switch_to(format);
        self.target.draw(drawing)?;
        Ok(self.target.present(presenter, palette)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_format_key_cycles_through_every_format() {
        let mut f = TargetFormat::Indexed8;
        let mut seen = Vec::new();
        for _ in 0..4 {
            f = next(f);
            seen.push(f.name());
        }
        assert_eq!(seen, ["565", "4444", "8888", "8"]);
    }
}
