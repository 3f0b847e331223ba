//! The HVA motion decoder: one 3x4 transform per layer ("section") per frame.
//!
//! Layout: `name[16]` (often junk, e.g. a 3ds Max path), u32 frame count, u32 section count, 16-byte
//! section names (skipped by the game; they may repeat, so layers are matched by position, never by
//! name), then frame-major `f32[12]` row-major transforms `[r00 r01 r02 tx; r10 r11 r12 ty; r20 r21
//! r22 tz]`.
//!
//! A file that declares no frames still loads: the game accepts it and only crashes when the model is
//! drawn (`modex-voxel` refuses to draw it with an error instead).

use modex::{ByteReader, FormatResult};

const FORMAT: &str = "HVA";
/// Bytes per transform.
pub const TRANSFORM_SIZE: usize = 48;

/// The row-major 3x4 identity transform: where a layer of a model without a motion file stands.
pub const IDENTITY: [f32; 12] = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];

/// A decoded HVA file.
#[derive(Debug, Clone, PartialEq)]
pub struct Hva {
    /// The name field up to its first NUL, decoded lossily (junk in many files).
    pub name: String,
    /// Section names as stored (lossy, up to the first NUL). Informational only.
    pub section_names: Vec<String>,
    frame_count: usize,
    section_count: usize,
    /// Frame-major transforms: `transforms[frame * section_count + section]`.
    transforms: Vec<[f32; 12]>,
}

impl Hva {
    /// Frames declared (and present) in the file.
    pub fn frame_count(&self) -> usize {
        self.frame_count
    }

    /// Sections (layers) per frame.
    pub fn section_count(&self) -> usize {
        self.section_count
    }

    /// All transforms, frame-major.
    pub fn transforms(&self) -> &[[f32; 12]] {
        &self.transforms
    }

    /// The transform of `section` in `frame`, exactly as stored; `None` outside the file.
    pub fn get(&self, frame: usize, section: usize) -> Option<[f32; 12]> {
        if frame >= self.frame_count || section >= self.section_count {
            return None;
        }
        self.transforms
            .get(frame * self.section_count + section)
            .copied()
    }

    /// The transform the game would use for model layer `layer` in `frame`: frames wrap modulo the
    /// frame count, and the index is `frame * sections + layer` even when `layer` is past the file's
    /// section count (the game does not compare the counts, so such a layer gets a transform meant
    /// for another layer). Where even that index is past the end of the transforms, the game reads
    /// unrelated memory; we return `None` instead. `None` too when the file has no frames.
    pub fn game_transform(&self, frame: usize, layer: usize) -> Option<[f32; 12]> {
        if self.frame_count == 0 {
            return None;
        }
        let f = frame % self.frame_count;
        self.transforms
            .get(f.checked_mul(self.section_count)?.checked_add(layer)?)
            .copied()
    }
}

/// Decode an HVA file. Section names are skipped (kept lossily); every declared transform must be
/// present.
pub fn decode(data: &[u8]) -> FormatResult<Hva> {
    let mut r = ByteReader::new(data, FORMAT);
    let name = r.fixed_str(16, "header.name")?;
    let frame_count = r.u32("header.frame_count")? as usize;
    let section_count = r.u32("header.section_count")? as usize;
    r.check_count(section_count, 16, "section_names")?;
    let mut section_names = Vec::with_capacity(section_count);
    for i in 0..section_count {
        section_names.push(r.fixed_str(16, &format!("section_name[{i}]"))?);
    }
    let total = frame_count.saturating_mul(section_count);
    r.check_count(total, TRANSFORM_SIZE, "transforms")?;
    let mut transforms = Vec::with_capacity(total);
    for i in 0..total {
        let mut m = [0f32; 12];
        for v in &mut m {
            // check_count above makes these reads infallible; name the transform only on error.
            *v = r.f32("transform").map_err(|mut e| {
                e.field = format!("transform[{i}]");
                e
            })?;
        }
        transforms.push(m);
    }
    Ok(Hva {
        name,
        section_names,
        frame_count,
        section_count,
        transforms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::{translation, HvaSpec};

    #[test]
    fn reads_frames_and_sections() {
        let mut spec = HvaSpec::identity(2, 3);
        spec.frames[2][1] = translation([1.0, 2.0, 3.0]);
        let h = decode(&spec.encode()).unwrap();
        assert_eq!((h.frame_count(), h.section_count()), (3, 2));
        assert_eq!(h.get(2, 1), Some(translation([1.0, 2.0, 3.0])));
        assert_eq!(h.get(3, 0), None);
        assert_eq!(h.section_names[1], "section1");
    }

    #[test]
    fn junk_names_and_repeated_section_names_load() {
        let mut spec = HvaSpec::identity(3, 1);
        spec.name = *b"C:\\3DSMAX\\MESHE\0";
        spec.section_names[0] = *b"BODY\0\x83L?\0\0\0\x80\0\0\0\0";
        spec.section_names[1] = *b"Copy Of Body\0\0\0\0";
        spec.section_names[2] = *b"Copy Of Body\0\0\0\0";
        spec.frames[0][2] = translation([5.0, 0.0, 0.0]);
        let h = decode(&spec.encode()).unwrap();
        assert_eq!(h.name, "C:\\3DSMAX\\MESHE");
        assert_eq!(h.section_names[0], "BODY");
        // Matched by position: the second "Copy Of Body" keeps its own transform.
        assert_eq!(h.get(0, 2), Some(translation([5.0, 0.0, 0.0])));
        assert_eq!(h.get(0, 1), Some(IDENTITY));
    }

    #[test]
    fn no_frames_loads() {
        let spec = HvaSpec::identity(2, 0);
        let h = decode(&spec.encode()).unwrap();
        assert_eq!(h.frame_count(), 0);
        assert_eq!(h.game_transform(5, 0), None);
    }

    #[test]
    fn game_transform_wraps_frames_and_indexes_flat() {
        let mut spec = HvaSpec::identity(2, 2);
        spec.frames[1][0] = translation([7.0, 0.0, 0.0]);
        let h = decode(&spec.encode()).unwrap();
        assert_eq!(h.game_transform(3, 0), h.get(1, 0));
        // Layer 2 of frame 0 is past the sections: the game's flat index lands on frame 1 layer 0.
        assert_eq!(h.game_transform(0, 2), Some(translation([7.0, 0.0, 0.0])));
        // Past the end of all transforms: nothing, never a read outside the file.
        assert_eq!(h.game_transform(1, 2), None);
    }

    #[test]
    fn hostile_counts_are_refused_before_allocating() {
        let mut spec = HvaSpec::identity(1, 1);
        spec.frame_count_override = Some(u32::MAX);
        let e = decode(&spec.encode()).unwrap_err();
        assert_eq!(e.field, "transforms");
        let bytes = spec.encode();
        for cut in 0..bytes.len() {
            let _ = decode(&bytes[..cut]);
        }
        assert!(decode(&bytes[..20]).is_err());
    }
}
