//! The cutscene decode: a 360x240 Battle Isle 2 BBHD clip of change frames (TPWM-compressed
//! change records over whole-picture anchors), built from the sample scene's background pictures
//! by the project's encoder, decoded from start to end. A frame of this scene is one decoded
//! picture: the clip's decode time divided by its pictures.

use modex::{IndexedFrame, Palette};
use modex_cutscene::bbhd_encode::{encode_clip, ChangeCoding, EncodeOptions, Layout};
use modex_cutscene::BbhdClip;
use modex_testkit::sample_scene;

use crate::error::BenchError;

/// The encoded clip and the palette its pictures are shown through.
pub struct Clip {
    bytes: Vec<u8>,
    /// Pictures in the clip.
    pub pictures: usize,
    /// The sample scene's day palette.
    pub palette: Palette,
}

fn scene_error(e: impl std::fmt::Display) -> BenchError {
    BenchError::Scene {
        scene: "cutscene".into(),
        message: e.to_string(),
    }
}

impl Clip {
    /// Width and height of every picture.
    pub const SIZE: (usize, usize) = (360, 240);

    /// Encode the clip.
    pub fn build() -> Result<Clip, BenchError> {
        let pictures = sample_scene::background_pictures();
        let bytes = encode_clip(
            Clip::SIZE.0 as u16,
            Clip::SIZE.1 as u16,
            &pictures,
            &EncodeOptions {
                layout: Layout::Dependent,
                changes: ChangeCoding::Compressed,
                ..Default::default()
            },
        );
        let palette = sample_scene::generate()
            .into_iter()
            .find(|f| f.path == "day.pal")
            .map(|f| Palette::from_rgb_bytes(&f.bytes))
            .transpose()
            .map_err(scene_error)?
            .unwrap_or_else(Palette::grey_ramp);
        Ok(Clip {
            bytes,
            pictures: pictures.len(),
            palette,
        })
    }

    /// Decode every picture; the last one is left in `out`.
    pub fn decode(&self, out: &mut IndexedFrame) -> Result<(), BenchError> {
        let clip = BbhdClip::parse(&self.bytes).map_err(scene_error)?;
        let mut dec = clip.decoder();
        while dec.step().map_err(scene_error)? {}
        out.pixels_mut().copy_from_slice(dec.frame().pixels());
        Ok(())
    }
}
