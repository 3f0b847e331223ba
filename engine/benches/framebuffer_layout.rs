//! Chooses the memory layout of `IndexedFrame` (see the numbers in `engine/src/frame.rs`).
//!
//! Two passes that stand for the two ways the engine touches a frame:
//! - a full-screen XOR in mode-X order (plane, column, row), as a Battle Isle 2 change stream does;
//! - a full-screen fill of every row span, as the rasterizer and voxel renderer do.
//!
//! Each is run on the linear (row-major) layout that `IndexedFrame` uses and on a planar layout
//! (four planes, each column-major), the alternative.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use modex::IndexedFrame;
use std::hint::black_box;

const W: usize = 360;
const H: usize = 240;

/// The planar alternative: plane p holds columns of `H` bytes, column c at `(c * H)`.
struct Planar {
    planes: [Vec<u8>; 4],
}

impl Planar {
    fn new() -> Self {
        Planar {
            planes: std::array::from_fn(|_| vec![0; W / 4 * H]),
        }
    }
}

fn xor_value(plane: usize, col: usize, row: usize) -> u8 {
    (plane * 31 + col * 7 + row) as u8
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("framebuffer_layout");
    g.throughput(Throughput::Bytes((W * H) as u64));

    let column: Vec<u8> = (0..H).map(|r| xor_value(1, 2, r)).collect();

    g.bench_function("linear/xor_modex_order", |b| {
        let mut f = IndexedFrame::new(W, H);
        b.iter(|| {
            for plane in 0..4 {
                for col in 0..W / 4 {
                    f.xor_column(plane, col, 0, black_box(&column));
                }
            }
            black_box(f.pixels()[0]);
        })
    });
    g.bench_function("planar/xor_modex_order", |b| {
        let mut f = Planar::new();
        b.iter(|| {
            for plane in &mut f.planes {
                for col in plane.chunks_exact_mut(H) {
                    for (d, s) in col.iter_mut().zip(black_box(&column)) {
                        *d ^= s;
                    }
                }
            }
            black_box(f.planes[0][0]);
        })
    });
    g.bench_function("linear/row_fill", |b| {
        let mut f = IndexedFrame::new(W, H);
        b.iter(|| {
            for y in 0..H {
                f.row_mut(y).fill(black_box(y as u8));
            }
            black_box(f.pixels()[0]);
        })
    });
    g.bench_function("planar/row_fill", |b| {
        let mut f = Planar::new();
        b.iter(|| {
            for y in 0..H {
                let v = black_box(y as u8);
                for x in 0..W {
                    f.planes[x % 4][(x / 4) * H + y] = v;
                }
            }
            black_box(f.planes[0][0]);
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
