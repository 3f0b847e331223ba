//! Battle Isle 2 cutscenes: BBHD decode throughput (decoded pixels per second) for a 360x240 clip
//! of change frames and one of whole pictures, TPWM MB/s, and the CPU share of real-time playback
//! of the sample scene. The baseline "peer" is a plain copy of the same pixels (the upper bound of
//! any decoder that has to produce them).
//!
//! `cargo bench -p modex-benches --bench cutscene -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use modex_cutscene::bbhd_encode::{encode_clip, ChangeCoding, EncodeOptions, Layout};
use modex_cutscene::{tpwm, BbhdClip, GameDir, Scene, Sequencer, Timeline};
use modex_testkit::sample_scene;

fn decode_all(clip: &BbhdClip<'_>) -> u8 {
    let mut dec = clip.decoder();
    while dec.step().unwrap() {}
    dec.frame().pixels()[0]
}

fn bbhd(c: &mut Criterion) {
    let pictures = sample_scene::background_pictures();
    let pixels = (pictures.len() * 360 * 240) as u64;
    let changes = encode_clip(
        360,
        240,
        &pictures,
        &EncodeOptions {
            layout: Layout::Dependent,
            changes: ChangeCoding::Compressed,
            ..Default::default()
        },
    );
    let raw_changes = encode_clip(
        360,
        240,
        &pictures,
        &EncodeOptions {
            layout: Layout::Dependent,
            changes: ChangeCoding::Raw,
            ..Default::default()
        },
    );
    let whole = encode_clip(
        360,
        240,
        &pictures,
        &EncodeOptions {
            layout: Layout::Standalone,
            ..Default::default()
        },
    );
    let mut g = c.benchmark_group("bbhd_decode_360x240");
    g.throughput(Throughput::Elements(pixels));
    for (name, bytes) in [
        ("change_frames_tpwm", &changes),
        ("change_frames_raw", &raw_changes),
        ("whole_pictures", &whole),
    ] {
        let clip = BbhdClip::parse(bytes).unwrap();
        // Every record a picture or anchor; count pixels per picture shown.
        g.bench_function(name, |b| b.iter(|| black_box(decode_all(black_box(&clip)))));
    }
    // Peer: copying the same pictures, no decoding at all.
    let mut dst = vec![0u8; 360 * 240];
    g.bench_function("peer_memcpy", |b| {
        b.iter(|| {
            for p in &pictures {
                dst.copy_from_slice(black_box(p));
            }
            black_box(dst[0])
        })
    });
    g.finish();
}

fn tpwm_speed(c: &mut Criterion) {
    let picture = &sample_scene::background_pictures()[5];
    let packed = tpwm::compress(picture);
    let mut g = c.benchmark_group("tpwm");
    g.throughput(Throughput::Bytes(picture.len() as u64));
    let mut out = Vec::new();
    g.bench_function("decompress_360x240_picture", |b| {
        b.iter(|| {
            tpwm::decompress_into(black_box(&packed), &mut out).unwrap();
            black_box(out.len())
        })
    });
    g.bench_function("compress_360x240_picture", |b| {
        b.iter(|| black_box(tpwm::compress(black_box(picture)).len()))
    });
    g.finish();
}

fn playback(c: &mut Criterion) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/cutscene");
    let scene = Scene::load_script(&GameDir::new(dir), sample_scene::SCRIPT_NUMBER).unwrap();
    let tl = Arc::new(Timeline::new(&scene));
    let ticks = tl.length();
    let mut g = c.benchmark_group("playback");
    // One element = one tick; real time allows 40 ms per tick.
    g.throughput(Throughput::Elements(ticks as u64));
    g.bench_function("sample_scene_all_ticks", |b| {
        b.iter(|| {
            let mut seq = Sequencer::new(tl.clone());
            let mut sum = 0u32;
            for t in 0..ticks {
                let pal = seq.palette_at(t);
                sum = sum
                    .wrapping_add(seq.frame_at(t).pixels()[1000] as u32 + pal.colors[20][0] as u32);
            }
            black_box(sum)
        })
    });
    g.finish();
}

criterion_group!(benches, bbhd, tpwm_speed, playback);
criterion_main!(benches);
