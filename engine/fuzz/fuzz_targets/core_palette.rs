#![no_main]
//! Palette loaders (VGA 768-byte and PCX trailer) must answer Ok or a typed error for any input.

use libfuzzer_sys::fuzz_target;
use modex::Palette;

fuzz_target!(|data: &[u8]| {
    if let Ok(p) = Palette::from_rgb_bytes(data) {
        // What loads must survive the round trip through bytes.
        assert_eq!(Palette::from_rgb_bytes(&p.to_rgb_bytes()).map(|q| q.to_rgb_bytes().len()), Ok(768));
    }
    let _ = Palette::from_pcx(data);
});
