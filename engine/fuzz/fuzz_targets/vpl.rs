//! Decode arbitrary bytes as a VPL and read every page.
#![no_main]
use libfuzzer_sys::fuzz_target;
use modex_vxl::vpl;

fuzz_target!(|data: &[u8]| {
    if let Ok(v) = vpl::decode(data) {
        let mut sum = 0u32;
        for p in 0..v.page_count() + 2 {
            sum = sum.wrapping_add(v.page(p)[255] as u32);
        }
        std::hint::black_box(sum);
    }
});
