#![no_main]
//! BBHD clips: parse, decode every picture forwards, then seek back to each picture.
use libfuzzer_sys::fuzz_target;
use modex_cutscene::BbhdClip;

fuzz_target!(|data: &[u8]| {
    if let Ok(clip) = BbhdClip::parse(data) {
        let _ = clip.decode_pictures();
        let mut dec = clip.decoder();
        for p in (0..clip.picture_count()).rev().take(8) {
            if dec.seek_picture(p).is_err() {
                break;
            }
        }
    }
});
