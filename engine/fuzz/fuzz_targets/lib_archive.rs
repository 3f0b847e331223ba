#![no_main]
//! LIB archives: index parsing, sorted selection and (TPWM-wrapped) entries.
use libfuzzer_sys::fuzz_target;
use modex_cutscene::LibArchive;

fuzz_target!(|data: &[u8]| {
    if let Ok(lib) = LibArchive::parse(data) {
        for e in lib.sorted() {
            let _ = lib.entry_unpacked(e);
        }
    }
});
