//! Decode arbitrary bytes as an HVA and look transforms up the way the game does.
#![no_main]
use libfuzzer_sys::fuzz_target;
use modex_vxl::hva;

fuzz_target!(|data: &[u8]| {
    if let Ok(h) = hva::decode(data) {
        for f in [0, 1, 7, usize::MAX] {
            for l in [0, 1, 200, usize::MAX] {
                let _ = h.game_transform(f, l);
                let _ = h.get(f, l);
            }
        }
    }
});
