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
use modex_raster::hmp::HmpFile;
use modex_raster::mdl::MdlFile;

/// A synthetic MDL5: one 1024x1024 565 skin, 500 vertices, 1000 triangles, 100 word-packed frames.
fn synthetic_mdl5() -> Vec<u8> {
    let (w, h, nv, nt, nf) = (1024i32, 1024i32, 500i32, 1000i32, 100i32);
    let mut b = Vec::new();
    b.extend_from_slice(b"MDL5");
    let ints =
        |b: &mut Vec<u8>, v: &[i32]| v.iter().for_each(|x| b.extend_from_slice(&x.to_le_bytes()));
    ints(&mut b, &[0]);
    for f in [
        0.001f32, 0.001, 0.001, -32.0, -32.0, -32.0, 55.0, 0.0, 0.0, 0.0,
    ] {
        b.extend_from_slice(&f.to_le_bytes());
    }
    ints(&mut b, &[1, 0, 0, nv, nt, nf, nv, 0, 0]);
    ints(&mut b, &[2, w, h]);
    b.extend((0..w * h * 2).map(|i| (i * 31) as u8));
    for i in 0..nv {
        b.extend_from_slice(&((i * 7 % w) as i16).to_le_bytes());
        b.extend_from_slice(&((i * 13 % h) as i16).to_le_bytes());
    }
    for i in 0..nt {
        for k in 0..6 {
            b.extend_from_slice(&(((i + k) % nv) as i16).to_le_bytes());
        }
    }
    for f in 0..nf {
        ints(&mut b, &[2]);
        b.extend_from_slice(&[0; 16]);
        let mut name = [0u8; 16];
        name[..5].copy_from_slice(b"frame");
        b.extend_from_slice(&name);
        for i in 0..nv {
            for c in 0..3 {
                b.extend_from_slice(&((i * 97 + c * 31 + f * 5) as u16).to_le_bytes());
            }
            b.extend_from_slice(&[(i % 162) as u8, 0]);
        }
    }
    b
}

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
