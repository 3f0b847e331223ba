//! The game's rules for reading a model file that the decoder follows, on tiny models built in code
//! by the crate's writer: where the layer headers start, and what a file must hold.

use modex_vxl::encode::{LimbSpec, VxlSpec};
use modex_vxl::vxl;

#[test]
fn palettes_are_skipped_but_their_count_places_the_layer_headers() {
    for count in [0, 1, 3] {
        let mut spec = VxlSpec::single(LimbSpec::filled_box([2, 3, 4], 9, 1));
        spec.palette_count = count;
        let v = vxl::decode(&spec.encode()).unwrap();
        assert_eq!(v.palette_count, count);
        assert_eq!(v.limbs[0].size, [2, 3, 4], "palette count {count}");
        assert_eq!(v.voxel_count(), 24);
    }
    // A wrong count shifts the layer headers and the file no longer reads in full.
    let mut spec = VxlSpec::single(LimbSpec::filled_box([2, 3, 4], 9, 1));
    spec.palette_count = 2;
    let mut bytes = spec.encode();
    bytes[16..20].copy_from_slice(&1u32.to_le_bytes());
    assert!(vxl::decode(&bytes).is_err());
}

#[test]
fn model_with_no_layers_is_an_error() {
    let spec = VxlSpec::default();
    let e = vxl::decode(&spec.encode()).unwrap_err();
    assert_eq!(e.field, "header.limb_count");
}
