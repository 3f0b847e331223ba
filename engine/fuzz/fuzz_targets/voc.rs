#![no_main]
//! Creative Voice files.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(v) = modex_cutscene::voc::parse_voc(data) {
        let _ = v.to_sound();
    }
});
