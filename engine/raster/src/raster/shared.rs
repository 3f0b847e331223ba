//! Textures prepared once for every model whose skin shows the same texels.
//!
//! The models of a level share skins: the parts of one MDL7 file carry clones of its skins, and
//! a level hands every model that names one image file the same decoded texels
//! (`modex_view`'s level images). A texture is the skin's texels plus its mip levels (a third
//! more), keys and, on first use, its keyed and 8-bit forms; prepared per model, a skin named by
//! twenty models was held twenty times over (issue 40's memory target). [`SharedTextures`]
//! prepares a skin once and gives every later model with the same skin the same texture.
//!
//! "The same skin" is decided without reading texels when it can be: skins sharing their RGBA
//! buffer ([`modex_mdl::Rgba8`]) and size are clones of one decoded skin; their stored pixels
//! are then compared too, so a hand-built skin that shares a buffer but stores other pixels still
//! gets its own texture.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use modex_mdl::Skin;

use super::light::ShadeTable;
use super::texture::Texture;

/// A skin's prepared texture, built by the first model that asks; `None` inside: the skin cannot
/// be drawn (the caller uses its blank stand-in).
type Slot = Arc<OnceLock<Option<Arc<Texture>>>>;

/// Textures by skin, shared between the models prepared through it (see the module doc). Made
/// for one renderer's palette: [`crate::Renderer::prepare_sharing`] is given the renderer that
/// made it.
#[derive(Default)]
pub struct SharedTextures<'m> {
    /// By the skin's RGBA buffer address: the skins seen with that buffer and their slots.
    slots: Mutex<HashMap<usize, Vec<(&'m Skin, Slot)>>>,
}

impl<'m> SharedTextures<'m> {
    /// No texture yet.
    pub fn new() -> SharedTextures<'m> {
        SharedTextures::default()
    }

    /// The texture of `skin`: prepared once (by whichever thread asks first; others asking at
    /// the same time wait), then shared.
    pub(crate) fn get(&self, skin: &'m Skin, shades: &ShadeTable) -> Option<Arc<Texture>> {
        let slot = {
            // The address is only compared while `skin` (borrowed for 'm) keeps the buffer alive.
            let address = skin.rgba.as_ptr() as usize;
            let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
            let seen = slots.entry(address).or_default();
            match seen.iter().find(|(s, _)| same_skin(s, skin)) {
                Some((_, slot)) => slot.clone(),
                None => {
                    let slot = Slot::default();
                    seen.push((skin, slot.clone()));
                    slot
                }
            }
        };
        slot.get_or_init(|| Texture::from_skin(skin, shades).map(Arc::new))
            .clone()
    }
}

/// Whether `a` and `b`, which share an RGBA buffer address, are one skin: same size and same
/// stored pixels (the RGBA is the same buffer, so equal).
fn same_skin(a: &Skin, b: &Skin) -> bool {
    a.width == b.width
        && a.height == b.height
        && a.rgba.len() == b.rgba.len()
        && a.pixels == b.pixels
}

impl std::fmt::Debug for SharedTextures<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self
            .slots
            .lock()
            .map(|s| s.values().map(Vec::len).sum::<usize>())
            .unwrap_or(0);
        write!(f, "SharedTextures({n} skins)")
    }
}
