#![no_main]
//! ATXT messages.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(m) = modex_cutscene::atxt::parse_message(data) {
        let _ = m.plain_text();
    }
});
