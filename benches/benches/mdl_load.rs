//! Loading speed of the MDL and HMP decoders, in bytes of file per second.
//!
//! Measures `MdlFile::parse` on the largest MDL sample (`assimp/minigun_mdl5.mdl`, 2.9 MB, mostly a
//! 1272x1114 565 skin), a frame-heavy one (`libgamestudio/mdl4-human.mdl`, 249 word-packed frames)
//! and `HmpFile::parse` on the largest terrain. A plain copy of the same bytes (`Vec::to_vec`) runs
//! beside them as the ceiling: no loader can beat reading its input once.
//!
//! Without the samples (a fresh clone), it says so and measures a synthetic MDL5 of similar shape.
//!
//! Run: `cargo bench -p modex-benches --bench mdl_load -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use modex_mdl::{HmpFile, MdlFile};
use modex_testkit::models::synthetic_mdl5;

fn inputs() -> Vec<(String, Vec<u8>, bool)> {
    match modex_testkit::samples_dir("mdl") {
        Some(dir) => [
            ("minigun_mdl5.mdl", "assimp/minigun_mdl5.mdl", false),
            ("mdl4-human.mdl", "libgamestudio/mdl4-human.mdl", false),
            ("terrain.hmp", "libgamestudio/terrain.hmp", true),
        ]
        .into_iter()
        .map(|(name, rel, hmp)| (name.to_string(), std::fs::read(dir.join(rel)).unwrap(), hmp))
        .collect(),
        None => {
            println!("samples missing: measuring a synthetic MDL5 instead");
            vec![("synthetic.mdl".into(), synthetic_mdl5(), false)]
        }
    }
}

fn bench(c: &mut Criterion) {
    for (name, bytes, hmp) in inputs() {
        let mut g = c.benchmark_group(format!("mdl_load/{name}"));
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        if hmp {
            g.bench_function("modex HmpFile::parse", |b| {
                b.iter(|| HmpFile::parse(black_box(&bytes)).unwrap())
            });
        } else {
            g.bench_function("modex MdlFile::parse", |b| {
                b.iter(|| MdlFile::parse(black_box(&bytes)).unwrap())
            });
        }
        g.bench_function("copy (ceiling)", |b| b.iter(|| black_box(&bytes).to_vec()));
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
