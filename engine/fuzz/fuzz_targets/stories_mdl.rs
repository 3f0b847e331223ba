//! Any byte string gives Ok or a typed error; an Ok model is internally consistent, draws as a
//! consistent `Model` and exports as an OBJ the writer accepts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use modex_mdl::obj::{encode_mtl, encode_obj};
use modex_mdl::StoriesModel;

fuzz_target!(|data: &[u8]| {
    if let Ok(file) = StoriesModel::parse(data) {
        for mesh in file.meshes() {
            for t in &mesh.triangles {
                assert!(t.iter().all(|&i| (i as usize) < mesh.vertices.len()));
            }
        }
        let model = file.to_model();
        if let Err(e) = model.check() {
            panic!("decoded model is inconsistent: {e}");
        }
        assert_eq!(model.triangles.len(), file.triangle_count());
        assert_eq!(model.vertex_count(), file.vertex_count());
        let obj = file.to_obj();
        let mut out = Vec::new();
        encode_obj(&obj, "m.mtl", &mut out).expect("the OBJ of a decoded file is valid");
        encode_mtl(&obj, &mut out).expect("MTL");
    }
});
