//! Decode arbitrary bytes as a VXL, then assemble and build every volume, and march a few rays
//! through each limb: nothing may panic, loop forever or allocate without bound.
#![no_main]
use libfuzzer_sys::fuzz_target;
use modex_voxel::{vxl, VoxelModel};

fuzz_target!(|data: &[u8]| {
    if let Ok(v) = vxl::decode(data) {
        let _ = v.voxel_count();
        for l in &v.limbs {
            let _ = l.max_normal_index();
            let _ = l.iter_voxels().count();
        }
        if let Ok(m) = VoxelModel::new("fuzz", v, None) {
            for vol in m.volumes() {
                let s = vol.size();
                let c = glam::Vec3::new(s[0] as f32, s[1] as f32, s[2] as f32) * 0.5;
                for d in [
                    glam::Vec3::X,
                    glam::Vec3::NEG_Z,
                    glam::Vec3::new(0.3, -0.5, 0.8),
                ] {
                    let _ = vol.march(c - d * 300.0, d, 0.0, 600.0);
                }
            }
            let _ = m.quirks().len();
        }
    }
});
