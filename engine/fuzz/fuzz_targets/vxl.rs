//! Decode arbitrary bytes as a VXL and walk every limb the way its readers do (counts, normal
//! indices, every voxel of every column): nothing may panic, loop forever or allocate without
//! bound. Assembling and drawing the decoded model is `modex-voxel`'s `draw_vxl` target.
#![no_main]
use libfuzzer_sys::fuzz_target;
use modex_vxl::vxl;

fuzz_target!(|data: &[u8]| {
    if let Ok(v) = vxl::decode(data) {
        let _ = v.voxel_count();
        for l in &v.limbs {
            let _ = l.max_normal_index();
            let _ = l.iter_voxels().count();
            let _ = l.voxel_extent();
            let _ = l.column(0, 0).len();
        }
    }
});
