//! Any byte string gives Ok or a typed error; an Ok file poses into consistent models.
#![no_main]

use libfuzzer_sys::fuzz_target;
use modex_mdl::mdl7::Mdl7File;

fuzz_target!(|data: &[u8]| {
    if let Ok(mut file) = Mdl7File::parse(data) {
        // External files: none exist; every skin then gets its stand-in.
        file.resolve_skins(&mut |_| None);
        for part in file.parts() {
            if let Err(e) = part.model.check() {
                panic!("decoded model is inconsistent: {e}");
            }
            assert!(!part.model.frames.is_empty());
        }
    }
});
