//! Skins with an alpha channel are cut out alike in every target (issue 40): the pixels a model
//! covers in `modex render`'s picture (its camera, light and [`draw_picture`]) are the same in
//! 8-bit, 565, 4444 and 8888 up to 1 % of them, and the cut really removes the transparent texels
//! (the same model with its skins replaced by a blank one covers far more).
//!
//! Samples: `tree3.mdl` (an embedded ARGB 8888 skin, leaves on cards) and `tile-floor-turret.mdl`
//! (an external TGA with alpha; 60 % of its texels are under the threshold, but the faces seen
//! from `modex render`'s camera map to opaque ones, so it checks that nothing opaque is cut and
//! that the external-skin path agrees), read through `modex_testkit::samples_dir`.

use modex::{Argb4444, Argb8888, DepthBuffer, DirSource, IndexedFrame, Palette, Rgb565, Surface};
use modex::{Target, TargetFormat};
use modex_assets::Format;
use modex_mdl::Model;
use modex_raster::{Entity, PreparedModel, RasterPixel, Renderer};
use modex_view::model::{self, SkinSources};

const SIZE: (usize, usize) = (640, 480);

/// What one picture gives: the covered mask (depth written) and, for 8888, whether any pixel
/// is less than opaque (the old symptom: cut texels written with alpha 0, white cards in a viewer).
struct Shot {
    covered: Vec<bool>,
    translucent_pixels: usize,
}

fn picture<T: Target>(target: &mut T, models: &[Model]) -> Vec<bool>
where
    T::Px: RasterPixel,
{
    let palette = Palette::quake();
    let mut renderer = Renderer::new(&palette);
    let camera = model::render_camera(models, 0, None, None, SIZE);
    model::light_for(&mut renderer, &camera, Format::Mdl);
    let prepared: Vec<PreparedModel> = models.iter().map(|m| renderer.prepare(m)).collect();
    let mut depth = DepthBuffer::new(SIZE.0, SIZE.1);
    model::draw_picture(
        target,
        &mut depth,
        &renderer,
        &camera,
        &prepared,
        &Entity::default(),
        false,
    )
    .unwrap();
    depth.values().iter().map(|z| z.is_finite()).collect()
}

fn shot(format: TargetFormat, models: &[Model]) -> Shot {
    let (w, h) = SIZE;
    match format {
        TargetFormat::Indexed8 => Shot {
            covered: picture(&mut IndexedFrame::new(w, h), models),
            translucent_pixels: 0,
        },
        TargetFormat::Rgb565 => Shot {
            covered: picture(&mut Surface::<Rgb565>::new(w, h), models),
            translucent_pixels: 0,
        },
        TargetFormat::Argb4444 => Shot {
            covered: picture(&mut Surface::<Argb4444>::new(w, h), models),
            translucent_pixels: 0,
        },
        TargetFormat::Argb8888 => {
            let mut s = Surface::<Argb8888>::new(w, h);
            let covered = picture(&mut s, models);
            let translucent_pixels = s
                .to_rgba8(&Palette::quake())
                .chunks_exact(4)
                .filter(|c| c[3] < 255)
                .count();
            Shot {
                covered,
                translucent_pixels,
            }
        }
    }
}

fn load(dir: &std::path::Path, file: &str) -> Vec<Model> {
    let bytes = std::fs::read(dir.join(file)).unwrap();
    let folder = DirSource::new(dir);
    let skins = SkinSources {
        folder: &folder,
        extra: None,
    };
    model::load_models(Format::Mdl, file, &bytes, &Palette::quake(), &skins).unwrap()
}

#[test]
fn alpha_skins_cover_the_same_pixels_in_every_target() {
    let Some(dir) = modex_testkit::samples_dir("mdl/lottershock/Assets") else {
        return;
    };
    for (file, cut) in [("tree3.mdl", true), ("tile-floor-turret.mdl", false)] {
        let models = load(&dir, file);
        let base = shot(TargetFormat::Indexed8, &models);
        let covered = base.covered.iter().filter(|&&c| c).count();
        assert!(covered > 1000, "{file}: only {covered} pixels covered");
        for format in [
            TargetFormat::Rgb565,
            TargetFormat::Argb4444,
            TargetFormat::Argb8888,
        ] {
            let other = shot(format, &models);
            let differ = base
                .covered
                .iter()
                .zip(&other.covered)
                .filter(|(a, b)| a != b)
                .count();
            println!("{file} {format:?}: {covered} covered in 8-bit, {differ} differ");
            assert!(
                differ * 100 <= covered,
                "{file} {format:?}: {differ} of {covered} covered pixels differ from 8-bit"
            );
            assert_eq!(
                other.translucent_pixels, 0,
                "{file} {format:?}: pixels written less than opaque"
            );
        }
        // The cut is real: with every skin a blank (opaque) stand-in the cards cover far more.
        let blank: Vec<Model> = models
            .iter()
            .map(|m| Model {
                skins: Vec::new(),
                ..m.clone()
            })
            .collect();
        let full = shot(TargetFormat::Argb8888, &blank);
        let full = full.covered.iter().filter(|&&c| c).count();
        println!("{file}: {covered} covered with the skin's alpha, {full} without");
        if cut {
            assert!(
                covered * 10 < full * 9,
                "{file}: {covered} covered with cut-outs, {full} without: nothing was cut"
            );
        } else {
            assert_eq!(covered, full, "{file}: opaque texels were cut");
        }
    }
}
