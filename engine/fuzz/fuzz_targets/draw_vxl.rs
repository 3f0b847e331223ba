//! Decode arbitrary bytes as a VXL, then assemble and build every volume, march a few rays
//! through each limb, and draw the model splatted and marched into small frames: nothing may
//! panic, loop forever or allocate without bound. (The decoder alone: `modex-vxl`'s `vxl` target.)
#![no_main]
use libfuzzer_sys::fuzz_target;
use modex::{DepthBuffer, IndexedFrame};
use modex_voxel::{
    draw, frame_scene, game_camera, Instance, Pose, RenderOptions, Splatting, Unit, VoxelModel,
};
use modex_vxl::{vxl, Vpl};

fuzz_target!(|data: &[u8]| {
    if let Ok(v) = vxl::decode(data) {
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
            // Splats and rays over the same arbitrary limbs, at sizes where small limbs splat
            // one pixel per voxel (12, 40) and where their faces are stamped or scanned (128).
            let scene = [Instance {
                unit: Unit::single(&m),
                pose: Pose::default(),
            }];
            let vpl = Vpl::from_palette(&modex::Palette::grey_ramp(), 32);
            for size in [12, 40, 128] {
                let Ok(cam) = frame_scene(&scene, &game_camera(glam::Vec3::ZERO, 100.0, size, size))
                else {
                    continue;
                };
                for splat in [Splatting::Always, Splatting::WhenCheaper] {
                    let opts = RenderOptions {
                        splat,
                        parallel: false,
                        ..RenderOptions::default()
                    };
                    let mut f = IndexedFrame::new(size, size);
                    let mut d = DepthBuffer::new(size, size);
                    let _ = draw(&scene, &cam, &vpl, &opts, &mut f, &mut d);
                }
            }
        }
    }
});
