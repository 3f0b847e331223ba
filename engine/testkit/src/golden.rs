//! Golden images: a render compared with the PNG checked in beside a crate's tests.
//!
//! `MODEX_BLESS=1 cargo test -p CRATE --test TEST` rewrites the images instead of comparing; look at
//! every rewritten image before committing it. On a mismatch the actual render is written to
//! `$TMPDIR/modex-golden/<crate>/<name>` (never into the source tree) and the test fails with the
//! number of differing pixels and that path.
//!
//! 8-bit frames are compared by palette index, byte for byte, together with their palette: the
//! indexed path must be exact on every machine. True-colour renders are compared as RGBA with a
//! [`Tolerance`], because their rounding may legitimately move by a step between formats' code paths.

use std::fmt;
use std::path::{Path, PathBuf};

use modex::{pngio, IndexedFrame, Palette};

/// How far a true-colour render may be from its golden image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tolerance {
    /// Largest allowed difference of one channel of one pixel.
    pub max_channel: u8,
    /// Largest allowed share of differing pixels, in pixels per thousand.
    pub per_mille: usize,
}

impl Tolerance {
    /// Byte-exact.
    pub const EXACT: Tolerance = Tolerance {
        max_channel: 0,
        per_mille: 0,
    };
}

/// Why a render does not match its golden image.
pub struct Mismatch(String);

impl fmt::Debug for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The golden images of one test folder.
#[derive(Debug, Clone)]
pub struct Golden {
    dir: PathBuf,
    label: String,
}

/// Whether `MODEX_BLESS` asks for the images to be rewritten.
pub fn blessing() -> bool {
    std::env::var_os("MODEX_BLESS").is_some()
}

impl Golden {
    /// The images in `dir`; `label` (usually the crate name) names the folder actual renders go to.
    pub fn new(dir: impl Into<PathBuf>, label: &str) -> Golden {
        Golden {
            dir: dir.into(),
            label: label.to_string(),
        }
    }

    /// The golden image `name`.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Where the actual render of `name` is written on a mismatch.
    pub fn actual_path(&self, name: &str) -> PathBuf {
        std::env::temp_dir()
            .join("modex-golden")
            .join(&self.label)
            .join(name)
    }

    fn read(&self, name: &str) -> Result<Vec<u8>, Mismatch> {
        let path = self.path(name);
        std::fs::read(&path).map_err(|e| {
            Mismatch(format!(
                "{}: {e} (run with MODEX_BLESS=1 to create it)",
                path.display()
            ))
        })
    }

    fn bless(&self, name: &str, write: impl FnOnce(&Path) -> Result<(), pngio::PngError>) {
        std::fs::create_dir_all(&self.dir).expect("golden folder");
        let path = self.path(name);
        write(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        eprintln!("blessed {}", path.display());
    }

    fn save_actual(
        &self,
        name: &str,
        write: impl FnOnce(&Path) -> Result<(), pngio::PngError>,
    ) -> PathBuf {
        let path = self.actual_path(name);
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        if let Err(e) = write(&path) {
            eprintln!("could not write {}: {e}", path.display());
        }
        path
    }

    /// Compare an 8-bit frame and its palette with the indexed PNG `name` (byte-exact), or rewrite
    /// it when blessing.
    pub fn check_indexed(
        &self,
        name: &str,
        frame: &IndexedFrame,
        palette: &Palette,
    ) -> Result<(), Mismatch> {
        if blessing() {
            self.bless(name, |p| pngio::save_indexed(p, frame, palette));
            return Ok(());
        }
        let bytes = self.read(name)?;
        let (want, want_pal) =
            pngio::decode_indexed(&bytes).map_err(|e| Mismatch(format!("{name}: {e}")))?;
        let problem = if (want.width(), want.height()) != (frame.width(), frame.height()) {
            Some(format!(
                "size {}x{} instead of {}x{}",
                frame.width(),
                frame.height(),
                want.width(),
                want.height()
            ))
        } else if &want_pal != palette {
            Some("its palette differs".to_string())
        } else {
            let differing = want
                .pixels()
                .iter()
                .zip(frame.pixels())
                .filter(|(a, b)| a != b)
                .count();
            (differing > 0).then(|| format!("{differing} pixels differ"))
        };
        match problem {
            None => Ok(()),
            Some(p) => {
                let got = self.save_actual(name, |path| pngio::save_indexed(path, frame, palette));
                Err(Mismatch(format!(
                    "{name}: {p} from the golden image; the actual render is at {}",
                    got.display()
                )))
            }
        }
    }

    /// Compare RGBA8 pixels with the PNG `name` within `tol`, or rewrite it when blessing.
    pub fn check_rgba(
        &self,
        name: &str,
        width: usize,
        height: usize,
        rgba: &[u8],
        tol: Tolerance,
    ) -> Result<(), Mismatch> {
        if blessing() {
            self.bless(name, |p| pngio::save_rgba(p, width, height, rgba));
            return Ok(());
        }
        let bytes = self.read(name)?;
        let (w, h, want) =
            pngio::decode_rgba(&bytes).map_err(|e| Mismatch(format!("{name}: {e}")))?;
        let problem = if (w, h) != (width, height) || want.len() != rgba.len() {
            Some(format!("size {width}x{height} instead of {w}x{h}"))
        } else {
            let mut differing = 0usize;
            let mut worst = 0u8;
            for (a, b) in want.chunks_exact(4).zip(rgba.chunks_exact(4)) {
                if a != b {
                    differing += 1;
                    let d = a.iter().zip(b).map(|(x, y)| x.abs_diff(*y)).max();
                    worst = worst.max(d.unwrap_or(0));
                }
            }
            if worst > tol.max_channel || differing * 1000 > tol.per_mille * width * height {
                Some(format!(
                    "{differing} pixels differ (a channel by up to {worst}; allowed {} and {} per mille)",
                    tol.max_channel, tol.per_mille
                ))
            } else {
                None
            }
        };
        match problem {
            None => Ok(()),
            Some(p) => {
                let got =
                    self.save_actual(name, |path| pngio::save_rgba(path, width, height, rgba));
                Err(Mismatch(format!(
                    "{name}: {p} from the golden image; the actual render is at {}",
                    got.display()
                )))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexed_mismatch_names_the_count_and_writes_the_actual_render() {
        let dir = std::env::temp_dir().join(format!("modex-testkit-{}", std::process::id()));
        let g = Golden::new(&dir, "testkit-self-test");
        let pal = Palette::grey_ramp();
        let mut f = IndexedFrame::new(4, 2);
        f.set(1, 1, 9);
        std::fs::create_dir_all(&dir).unwrap();
        pngio::save_indexed(&g.path("a.png"), &f, &pal).unwrap();
        assert!(g.check_indexed("a.png", &f, &pal).is_ok());
        f.set(0, 0, 3);
        let e = g.check_indexed("a.png", &f, &pal).unwrap_err().to_string();
        assert!(e.contains("1 pixels differ"), "{e}");
        assert!(g.actual_path("a.png").exists());
        assert!(g.check_indexed("a.png", &f, &Palette::quake()).is_err());
        assert!(g.check_indexed("missing.png", &f, &pal).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn rgba_tolerance_is_applied() {
        let dir = std::env::temp_dir().join(format!("modex-testkit-rgba-{}", std::process::id()));
        let g = Golden::new(&dir, "testkit-self-test");
        std::fs::create_dir_all(&dir).unwrap();
        let base = vec![10u8; 4 * 100];
        pngio::save_rgba(&g.path("b.png"), 10, 10, &base).unwrap();
        let mut near = base.clone();
        near[0] = 12;
        let loose = Tolerance {
            max_channel: 2,
            per_mille: 10,
        };
        assert!(g.check_rgba("b.png", 10, 10, &near, loose).is_ok());
        assert!(g
            .check_rgba("b.png", 10, 10, &near, Tolerance::EXACT)
            .is_err());
        near[4] = 40;
        assert!(g.check_rgba("b.png", 10, 10, &near, loose).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
