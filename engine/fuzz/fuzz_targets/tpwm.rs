#![no_main]
//! TPWM: the decompressor on arbitrary input, and compress -> decompress on the same bytes.
use libfuzzer_sys::fuzz_target;
use modex_cutscene::tpwm;

fuzz_target!(|data: &[u8]| {
    if let Ok(out) = tpwm::decompress(data) {
        assert!(out.len() <= data.len() * tpwm::MAX_RATIO);
    }
    let packed = tpwm::compress(data);
    assert_eq!(tpwm::decompress(&packed).unwrap(), data);
});
