//! The image files a level's models name as skins, each decoded once for the whole level.
//!
//! A level's models name the same texture files again and again (LotterShock's `gamelevel.wmb`:
//! one 256x256 atlas named by 22 models, a 1024x1024 TGA by 7, each door colour by two): decoded
//! per model, each such file was held once per model naming it, level 0 and mip levels alike
//! (issue 40's memory target). Here every file is decoded the first time a model asks for it,
//! on whichever thread decodes that model, and every later model gets the same texels
//! ([`modex_mdl::external::Image`] shares them); the renderer then prepares one texture for them
//! (`modex_raster::SharedTextures`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use modex_mdl::external::Image;

use super::EntityFiles;

/// A file's decoded image, or the decoder's message; `None` inside means not yet decoded.
type Slot = Arc<OnceLock<Result<Image, String>>>;

/// Skin image files by the key [`EntityFiles::read_beside`] gives, decoded on first use.
#[derive(Default)]
pub(super) struct Images {
    slots: Mutex<HashMap<String, Slot>>,
}

impl Images {
    /// The image the skin name `name` of the model `model` names, as
    /// [`modex_mdl::mdl7::Mdl7File::resolve_skin_images`] wants it: `None` when it is not found.
    /// The file is read only while it is not decoded yet ([`EntityFiles::key_beside`] finds it
    /// without reading). Two threads asking for one file at once decode it once (the second
    /// waits).
    pub(super) fn load(
        &self,
        files: &dyn EntityFiles,
        name: &str,
        model: &str,
    ) -> Option<Result<Image, String>> {
        let key = files.key_beside(name, model)?;
        let slot = {
            // A poisoned lock means a decoding thread panicked; the map itself is still whole.
            let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
            slots.entry(key).or_default().clone()
        };
        if let Some(done) = slot.get() {
            return Some(done.clone());
        }
        let (_, bytes) = files.read_beside(name, model)?;
        Some(
            slot.get_or_init(|| Image::decode(name, &bytes).map_err(|e| e.to_string()))
                .clone(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::MemoryFiles;

    /// An uncompressed 32-bit TGA of `w` x `h` grey texels.
    fn tga(w: u16, h: u16) -> Vec<u8> {
        let mut out = vec![0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        out.extend(w.to_le_bytes());
        out.extend(h.to_le_bytes());
        out.extend([32, 8]);
        out.extend(std::iter::repeat_n(200, w as usize * h as usize * 4));
        out
    }

    /// Two models naming one file (in any case) get one decoded image: the same texels, not a
    /// copy; a file that does not decode gives its message each time, a missing one `None`.
    #[test]
    fn a_file_named_by_many_models_is_decoded_once() {
        let files = MemoryFiles::new([("wall.tga", tga(4, 2)), ("broken.tga", vec![1, 2, 3])]);
        let images = Images::default();
        let a = images.load(&files, "WALL.TGA", "a.mdl").unwrap().unwrap();
        let b = images.load(&files, "wall.tga", "b.mdl").unwrap().unwrap();
        assert_eq!((a.width, a.height), (4, 2));
        assert!(Arc::ptr_eq(&a.rgba.shared(), &b.rgba.shared()));
        let e = images
            .load(&files, "broken.tga", "a.mdl")
            .unwrap()
            .unwrap_err();
        assert!(e.contains("broken.tga"), "{e}");
        assert!(images.load(&files, "none.tga", "a.mdl").is_none());
    }

    /// Files counting their reads.
    struct Counted(MemoryFiles, std::sync::atomic::AtomicUsize);

    impl EntityFiles for Counted {
        fn find(&self, name: &str) -> Option<String> {
            self.0.find(name)
        }
        fn root(&self) -> String {
            self.0.root()
        }
        fn read(&self, name: &str) -> std::io::Result<Option<(String, Vec<u8>)>> {
            self.0.read(name)
        }
        fn read_beside(&self, name: &str, model: &str) -> Option<(String, Vec<u8>)> {
            self.1.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            self.0.read_beside(name, model)
        }
        fn key_beside(&self, name: &str, model: &str) -> Option<String> {
            self.0.key_beside(name, model)
        }
    }

    /// A file named by many models is read once, when it is first decoded.
    #[test]
    fn a_file_named_by_many_models_is_read_once() {
        let files = Counted(
            MemoryFiles::new([("wall.tga", tga(4, 2))]),
            Default::default(),
        );
        let images = Images::default();
        for model in ["a.mdl", "b.mdl", "c.mdl"] {
            assert!(images.load(&files, "WALL.tga", model).unwrap().is_ok());
        }
        assert!(images.load(&files, "none.tga", "a.mdl").is_none());
        assert_eq!(files.1.load(std::sync::atomic::Ordering::Relaxed), 1);
    }
}
