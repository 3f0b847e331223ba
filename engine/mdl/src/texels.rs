//! A skin's decoded texels, held once.
//!
//! A level's skins are tens of millions of texels (issue 40: 44.6 M at level 0 in the largest level
//! we have). The decoded skin and the renderer's prepared texture used to hold the same RGBA bytes
//! twice, 178 MB of that level's peak. [`Rgba8`] keeps them in one reference-counted buffer that the
//! renderer shares ([`Rgba8::shared`]) instead of copying, so each texel is in memory once.
//!
//! The words are stored so that their bytes in memory are R, G, B, A on every machine
//! (`u32::from_ne_bytes([r, g, b, a])`): [`Rgba8`] reads as the RGBA8 byte buffer it always was,
//! and on little-endian machines (x86, ARM, wasm) a word is the renderer's packed texel
//! (`r | g << 8 | b << 16 | a << 24`) as it stands.

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// RGBA8 texels, top row first, shared by reference count (a clone is cheap and holds no copy).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Rgba8(Arc<[u32]>);

impl Rgba8 {
    /// Texels from RGBA8 bytes (a trailing partial texel is dropped).
    pub fn from_bytes(bytes: &[u8]) -> Rgba8 {
        bytes
            .chunks_exact(4)
            .map(|c| [c[0], c[1], c[2], c[3]])
            .collect()
    }

    /// The number of texels.
    pub fn texel_count(&self) -> usize {
        self.0.len()
    }

    /// The texels as words whose bytes in memory are R, G, B, A.
    pub fn words(&self) -> &[u32] {
        &self.0
    }

    /// Another handle on the same texels, for a prepared texture to hold without a copy.
    pub fn shared(&self) -> Arc<[u32]> {
        Arc::clone(&self.0)
    }

    /// The texels as RGBA8 bytes.
    pub fn as_bytes(&self) -> &[u8] {
        bytemuck::cast_slice(&self.0)
    }

    /// The texels as RGBA8 bytes to change; copied first if another handle shares them, so a
    /// prepared texture never sees its skin change under it.
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        bytemuck::cast_slice_mut(Arc::make_mut(&mut self.0))
    }
}

/// One texel per `[r, g, b, a]`, allocated once at its final size when the iterator knows it.
impl FromIterator<[u8; 4]> for Rgba8 {
    fn from_iter<I: IntoIterator<Item = [u8; 4]>>(iter: I) -> Rgba8 {
        Rgba8(iter.into_iter().map(u32::from_ne_bytes).collect())
    }
}

impl From<Vec<u8>> for Rgba8 {
    fn from(bytes: Vec<u8>) -> Rgba8 {
        Rgba8::from_bytes(&bytes)
    }
}

impl From<&[u8]> for Rgba8 {
    fn from(bytes: &[u8]) -> Rgba8 {
        Rgba8::from_bytes(bytes)
    }
}

impl Deref for Rgba8 {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl AsRef<[u8]> for Rgba8 {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl PartialEq<[u8]> for Rgba8 {
    fn eq(&self, other: &[u8]) -> bool {
        self.as_bytes() == other
    }
}

impl<const N: usize> PartialEq<[u8; N]> for Rgba8 {
    fn eq(&self, other: &[u8; N]) -> bool {
        self.as_bytes() == other.as_slice()
    }
}

impl PartialEq<Vec<u8>> for Rgba8 {
    fn eq(&self, other: &Vec<u8>) -> bool {
        self.as_bytes() == other.as_slice()
    }
}

impl PartialEq<Rgba8> for Vec<u8> {
    fn eq(&self, other: &Rgba8) -> bool {
        self.as_slice() == other.as_bytes()
    }
}

/// The size, not the bytes: a skin's derived `Debug` would otherwise print millions of numbers.
impl fmt::Debug for Rgba8 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rgba8({} texels)", self.texel_count())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_in_rgba_order() {
        let bytes: Vec<u8> = (0..16).collect();
        let t = Rgba8::from(bytes.clone());
        assert_eq!(t.as_bytes(), &bytes[..]);
        assert_eq!(t.texel_count(), 4);
        assert_eq!(&t[4..8], &[4, 5, 6, 7]);
        assert_eq!(t.words()[1].to_ne_bytes(), [4, 5, 6, 7]);
    }

    #[test]
    fn a_shared_handle_is_the_same_buffer() {
        let t = Rgba8::from_bytes(&[1, 2, 3, 4]);
        let s = t.shared();
        assert!(std::ptr::eq(s.as_ptr(), t.words().as_ptr()));
    }

    #[test]
    fn a_change_does_not_reach_a_shared_handle() {
        let mut t = Rgba8::from_bytes(&[1, 2, 3, 4]);
        let s = t.shared();
        t.bytes_mut()[0] = 9;
        assert_eq!(t.as_bytes(), &[9, 2, 3, 4]);
        assert_eq!(s[0].to_ne_bytes(), [1, 2, 3, 4]);
    }

    #[test]
    fn a_trailing_partial_texel_is_dropped() {
        assert_eq!(Rgba8::from_bytes(&[1, 2, 3, 4, 5]).texel_count(), 1);
        assert!(Rgba8::default().is_empty());
    }
}
