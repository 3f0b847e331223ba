#![no_main]
//! ASCR scripts.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = modex_cutscene::ascr::parse_script(data);
});
