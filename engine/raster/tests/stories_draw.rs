//! GTA Stories models drawn as the frontend draws them: pre-light colours only, back faces culled,
//! each strip facing where its normals point (`modex_mdl::stories_mdl`'s `strip::face_out`).

use glam::Vec3;
use modex::{Argb8888, DepthBuffer, Pixel, Surface};
use modex_mdl::stories_mdl::Vertex;
use modex_mdl::stories_mdl_encode::{encode, AtomicSpec, MeshSpec, StoriesSpec};
use modex_mdl::StoriesModel;
use modex_raster::{framing_camera, Entity, Light, Renderer};
use modex_testkit::stories as samples;

/// The six face directions of `samples::cube_strip`, in the order of `CUBE_COLOURS`.
const CUBE_FACES: [Vec3; 6] = [
    Vec3::X,
    Vec3::NEG_X,
    Vec3::Y,
    Vec3::NEG_Y,
    Vec3::Z,
    Vec3::NEG_Z,
];
/// One pre-light colour per face. 197 and 65 are 5-bit levels (24 and 8 × 255 / 31), so the
/// file stores them exactly.
const CUBE_COLOURS: [[u8; 3]; 6] = [
    [197, 65, 65],
    [65, 197, 65],
    [65, 65, 197],
    [197, 197, 65],
    [197, 65, 197],
    [65, 197, 197],
];

/// A cube strip whose faces each have one pre-light colour, with a white untextured material,
/// drawn as the frontend draws Stories models (lit by pre-light only: ambient 1, no sun; back
/// faces culled) from yaw 30, pitch 20: the pixels seen of each face, and the faces that look
/// towards the eye.
fn cube_faces_seen(mut strip: Vec<Vertex>) -> ([usize; 6], Vec<usize>) {
    for v in &mut strip {
        let n = v.normal.unwrap();
        let face = CUBE_FACES.iter().position(|&f| f.dot(n) > 0.9).unwrap();
        let [r, g, b] = CUBE_COLOURS[face];
        v.prelight = Some([r, g, b, 255]);
    }
    let white = modex_mdl::stories_mdl::Material {
        texture: None,
        colour: [255; 4],
        matfx: None,
    };
    let spec = StoriesSpec {
        atomics: vec![AtomicSpec::new(vec![white], vec![MeshSpec::new(0, strip)])],
    };
    let model = StoriesModel::parse(&encode(&spec).unwrap())
        .unwrap()
        .to_model();
    let (w, h) = (96, 72);
    let mut renderer = Renderer::new(&modex::Palette::quake());
    let camera = framing_camera(&model, 0, 30.0, 20.0, w, h);
    renderer.light = Light {
        ambient: 1.0,
        diffuse: 0.0,
        ..Light::default()
    };
    let prepared = renderer.prepare(&model);
    let mut s = Surface::<Argb8888>::new(w, h);
    let mut depth = DepthBuffer::new(w, h);
    renderer
        .draw(&mut s, &mut depth, &camera, &prepared, &Entity::default())
        .unwrap();
    let mut seen = [0usize; 6];
    let mut drawn = 0;
    for p in s.pixels() {
        let c = p.to_rgba();
        if c[..3] == [0, 0, 0] {
            continue;
        }
        drawn += 1;
        let face = CUBE_COLOURS.iter().position(|k| {
            k.iter()
                .zip(&c)
                .all(|(&a, &b)| (a as i32 - b as i32).abs() <= 1)
        });
        let Some(face) = face else {
            panic!("pixel {c:?} is none of the faces' pre-light colours");
        };
        seen[face] += 1;
    }
    assert!(drawn > w * h / 8, "{drawn} pixels drawn");
    let towards_eye = (0..6)
        .filter(|&f| CUBE_FACES[f].dot(camera.eye - camera.target) > 0.0)
        .collect();
    (seen, towards_eye)
}

#[test]
fn drawn_pixels_are_the_prelight_colours_of_the_faces_towards_the_eye() {
    let (seen, towards_eye) = cube_faces_seen(samples::cube_strip(Vec3::ZERO, 1.0));
    let shown: Vec<usize> = (0..6).filter(|&f| seen[f] > 20).collect();
    // Seen from above at an angle: the three faces that look towards the eye, not the far three
    // seen from inside.
    assert_eq!(shown, towards_eye, "{seen:?}");
    assert_eq!(shown.len(), 3);
}

#[test]
fn a_strip_that_starts_clockwise_is_turned_to_face_out_by_its_normals() {
    // One vertex more at the start shifts the strip's parity: every triangle's winding flips
    // (the first, degenerate, is dropped), while the normals still point out.
    let mut strip = samples::cube_strip(Vec3::ZERO, 1.0);
    strip.insert(0, strip[0]);
    let (seen, towards_eye) = cube_faces_seen(strip);
    let shown: Vec<usize> = (0..6).filter(|&f| seen[f] > 20).collect();
    assert_eq!(shown, towards_eye, "{seen:?}");
}
