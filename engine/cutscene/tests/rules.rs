//! The playback rules of the original text, each with its own test: anchors skipped in forward
//! play, seeking through anchors, transparency only for standalone clips with EFF != 0, every PMO
//! mode on a real (encoded) clip, the END modes, palette fades; and the encoder/decoder round trips
//! as property tests.

use std::sync::Arc;

use modex::{IndexedFrame, Palette};
use modex_cutscene::ascr::{self, Command, Line, Play, Script};
use modex_cutscene::bbhd_encode::{encode_clip, ChangeCoding, EncodeOptions, Layout};
use modex_cutscene::{
    layer_view, picture_for_step, tpwm, BbhdClip, ChangeStream, ClipPictures, FrameType, Scene,
    SceneAssets, Sequencer, Timeline,
};
use proptest::prelude::*;

/// `n` 8x4 pictures; picture k is filled with value k + 1 (so a picture tells its own number).
fn numbered(n: usize) -> Vec<Vec<u8>> {
    (0..n).map(|k| vec![(k + 1) as u8; 32]).collect()
}

fn dependent(n: usize) -> Vec<u8> {
    encode_clip(8, 4, &numbered(n), &EncodeOptions::default())
}

#[test]
fn anchors_are_shown_once_and_skipped_in_forward_play() {
    let bytes = dependent(23);
    let clip = BbhdClip::parse(&bytes).unwrap();
    assert_eq!(
        clip.records().len(),
        25,
        "23 pictures + anchors at records 11 and 22"
    );
    assert_eq!(clip.anchor_count(), 2);
    assert!(clip.records()[11].is_anchor() && clip.records()[22].is_anchor());
    assert_eq!(clip.records()[11].frame_type, FrameType::Picture);
    // One picture per record that is not an anchor: 1, 2, ..., 23 — no picture held twice.
    let shown: Vec<u8> = clip
        .decode_pictures()
        .unwrap()
        .iter()
        .map(|f| f.pixels()[0])
        .collect();
    assert_eq!(shown, (1..=23).collect::<Vec<u8>>());
    assert_eq!(
        clip.pictures()[11],
        12,
        "picture 11 is record 12: the anchor is passed over"
    );
}

#[test]
fn seeking_jumps_to_the_nearest_whole_picture_and_agrees_with_forward_play() {
    let bytes = dependent(30);
    let clip = BbhdClip::parse(&bytes).unwrap();
    let forward = clip.decode_pictures().unwrap();
    let mut dec = clip.decoder();
    for p in [29usize, 0, 15, 14, 11, 10, 21, 22, 5, 29] {
        dec.seek_picture(p).unwrap();
        assert_eq!(dec.frame(), &forward[p], "picture {p}");
    }
    // Backward seeks start again from an anchor, not from record 0.
    dec.seek_picture(28).unwrap();
    dec.seek_picture(24).unwrap();
    assert!(dec.position().unwrap() >= 22);
}

#[test]
fn transparency_only_for_standalone_clips_and_eff_not_zero() {
    let pics = numbered(2);
    let standalone = EncodeOptions {
        layout: Layout::Standalone,
        transparent_index: Some(1),
        ..Default::default()
    };
    let bytes = encode_clip(8, 4, &pics, &standalone);
    let clip = BbhdClip::parse(&bytes).unwrap();
    assert_eq!(clip.transparency_for(0), None);
    assert_eq!(clip.transparency_for(3), Some(1));
    let dep = EncodeOptions {
        transparent_index: Some(1),
        ..Default::default()
    };
    let bytes = encode_clip(8, 4, &pics, &dep);
    assert_eq!(BbhdClip::parse(&bytes).unwrap().transparency_for(3), None);
    // The word 0xffff means no transparency; any other word compares the low byte.
    let mut bytes = encode_clip(8, 4, &pics, &standalone);
    bytes[24..26].copy_from_slice(&[0xff, 0xff]);
    assert_eq!(BbhdClip::parse(&bytes).unwrap().transparency_for(1), None);
    bytes[24..26].copy_from_slice(&[0xff, 0x00]);
    assert_eq!(
        BbhdClip::parse(&bytes).unwrap().transparency_for(1),
        Some(0xff)
    );
    bytes[24..26].copy_from_slice(&[0x07, 0xff]);
    assert_eq!(
        BbhdClip::parse(&bytes).unwrap().transparency_for(1),
        Some(7)
    );
}

#[test]
fn both_chain_walks_must_agree() {
    let mut bytes = dependent(5);
    let clip = BbhdClip::parse(&bytes).unwrap();
    let r2 = clip.records()[2].offset;
    // Break record 2's previous_length: the forward and backward walks now disagree.
    bytes[r2 + 10] ^= 1;
    let e = BbhdClip::parse(&bytes).unwrap_err();
    assert!(e.field.contains("record[2]"), "{e}");
    let mut bytes = dependent(5);
    // Break the trailer's last_record_offset.
    let clip_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    bytes[clip_len - 4] ^= 2;
    assert!(BbhdClip::parse(&bytes).is_err());
}

/// A one-layer scene of the numbered clip with `pmo`, one picture per tick (FRQ 25).
fn one_layer(pmo: i32, end: i32, n: usize, dur: i32) -> (Arc<Timeline>, usize) {
    let bytes = dependent(n);
    let clip = BbhdClip::parse(&bytes).unwrap();
    let mut assets = SceneAssets::default();
    assets
        .clips
        .insert((36, 0, 0), Arc::new(ClipPictures::decode(&clip).unwrap()));
    let play = Play {
        eff: 0,
        lna: 36,
        pmo,
        frq: 25,
        dur,
        end,
        wiw: 8,
        wih: 4,
        ..Default::default()
    };
    let script = Script {
        lines: vec![
            Line {
                line: 1,
                command: Command::Play(play),
            },
            Line {
                line: 2,
                command: Command::End(dur + 10),
            },
        ],
    };
    let scene = Scene {
        script,
        assets,
        warnings: vec![],
        width: 8,
        height: 4,
    };
    (Arc::new(Timeline::new(&scene)), n)
}

fn shown(pmo: i32, n: usize, ticks: u32) -> Vec<u8> {
    let (tl, _) = one_layer(pmo, 2, n, 100);
    let mut seq = Sequencer::new(tl);
    (0..ticks).map(|t| seq.frame_at(t).pixels()[0]).collect()
}

#[test]
fn pmo_0_forwards_once_then_holds_the_last() {
    assert_eq!(shown(0, 4, 7), [1, 2, 3, 4, 4, 4, 4]);
}

#[test]
fn pmo_1_backwards_once_then_holds_the_first() {
    assert_eq!(shown(1, 4, 7), [4, 3, 2, 1, 1, 1, 1]);
}

#[test]
fn pmo_2_forwards_and_back_holding_the_end_for_one_step() {
    assert_eq!(shown(2, 4, 8), [1, 2, 3, 4, 4, 3, 2, 1]);
}

#[test]
fn pmo_3_repeats_from_the_first() {
    assert_eq!(shown(3, 3, 7), [1, 2, 3, 1, 2, 3, 1]);
}

#[test]
fn pmo_4_backwards_repeating() {
    assert_eq!(shown(4, 3, 7), [3, 2, 1, 3, 2, 1, 3]);
}

#[test]
fn pmo_5_is_pmo_2_with_reversing_movement() {
    assert_eq!(shown(5, 4, 8), shown(2, 4, 8));
    let p = Play {
        pmo: 5,
        frq: 25,
        dur: 100,
        dtx: 1,
        ..Default::default()
    };
    let xs: Vec<i32> = (0..9).map(|t| layer_view(&p, 3, t).unwrap().x).collect();
    assert_eq!(xs, [0, 1, 2, 3, 2, 1, 0, 1, 2]);
}

#[test]
fn pmo_6_later_laps_skip_the_first_picture_and_an_ending_anchor() {
    // 11 pictures: the encoder puts an anchor at record 11, so the clip ends with an anchor.
    let bytes = dependent(11);
    let clip = BbhdClip::parse(&bytes).unwrap();
    assert!(clip.records().last().unwrap().is_anchor());
    let seq = shown(6, 11, 33);
    assert_eq!(&seq[..11], &(1..=11).collect::<Vec<u8>>()[..]);
    // Later laps: 2..=11, never picture 1, never a twelfth (anchor) step.
    assert_eq!(&seq[11..21], &(2..=11).collect::<Vec<u8>>()[..]);
    assert_eq!(&seq[21..31], &(2..=11).collect::<Vec<u8>>()[..]);
    assert!(!seq[11..].contains(&1));
}

#[test]
fn pmo_7_holds_one_picture() {
    assert_eq!(shown(7, 4, 5), [1, 1, 1, 1, 1]);
    assert_eq!(picture_for_step(7, 99, 4), 0);
}

#[test]
fn end_modes_0_1_2_and_3_to_5_as_0() {
    let after = |end: i32| {
        let (tl, _) = one_layer(0, end, 4, 3);
        let mut seq = Sequencer::new(tl.clone());
        let v: Vec<u8> = (0..6).map(|t| seq.frame_at(t).pixels()[0]).collect();
        (v, tl.notes().to_vec())
    };
    // END 2: holds the picture reached (3). END 1: back to the first picture. END 0: no longer
    // drawn, so the last drawing stays on the persistent screen.
    assert_eq!(after(2).0, [1, 2, 3, 3, 3, 3]);
    assert_eq!(after(1).0, [1, 2, 3, 1, 1, 1]);
    assert_eq!(after(0).0, [1, 2, 3, 3, 3, 3]);
    let (v5, notes) = after(5);
    assert_eq!(v5, after(0).0);
    assert!(notes.iter().any(|n| n.contains("END 5")));
}

#[test]
fn blend_fades_only_its_range_from_its_own_palette_for_at_most_127_ticks() {
    let grey = Palette::grey_ramp();
    let red = Palette {
        colors: [[255, 0, 0]; 256],
    };
    let mut assets = SceneAssets::default();
    assets.palettes.insert((0, 0), grey.clone());
    assets.palettes.insert((0, 1), red.clone());
    assets.palettes.insert(
        (0, 2),
        Palette {
            colors: [[0, 0, 255]; 256],
        },
    );
    let s = ascr::parse_script(b"initpal(15,0,2)\nBLEND(15,0,0,15,0,1,10,20,100,400)\nEnd(600)")
        .unwrap();
    let scene = Scene {
        script: s,
        assets,
        warnings: vec![],
        width: 4,
        height: 4,
    };
    let tl = Timeline::new(&scene);
    // Before the fade: the initpal palette everywhere.
    assert_eq!(tl.palette_at(99).colors[15], [0, 0, 255]);
    // At its start the range takes the BLEND's own from-palette, not what was on screen.
    assert_eq!(tl.palette_at(100).colors[15], grey.colors[15]);
    assert_eq!(tl.palette_at(100).colors[9], [0, 0, 255]);
    // Finished after 127 ticks although end - begin is 300.
    assert_eq!(tl.palette_at(227).colors[15], [255, 0, 0]);
    assert_ne!(tl.palette_at(226).colors[15], [255, 0, 0]);
    assert_eq!(tl.palette_at(300).colors[21], [0, 0, 255]);
}

#[test]
fn fuzz_regressions_do_not_panic() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    for entry in std::fs::read_dir(dir).unwrap() {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        let _ = modex_cutscene::LibArchive::parse(&data);
        let _ = tpwm::decompress(&data);
        if let Ok(c) = BbhdClip::parse(&data) {
            let _ = c.decode_pictures();
        }
        let _ = ascr::parse_script(&data);
        let _ = modex_cutscene::atxt::parse_message(&data);
        let _ = modex_cutscene::voc::parse_voc(&data);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn tpwm_round_trips(data in proptest::collection::vec(0u8..8, 0..3000)) {
        prop_assert_eq!(tpwm::decompress(&tpwm::compress(&data)).unwrap(), data);
    }

    #[test]
    fn tpwm_round_trips_any_bytes(data in proptest::collection::vec(any::<u8>(), 0..600)) {
        prop_assert_eq!(tpwm::decompress(&tpwm::compress(&data)).unwrap(), data);
    }

    #[test]
    fn change_streams_round_trip(
        w in 1usize..23, h in 1usize..40,
        seed in any::<u64>(), density in 0u32..100,
    ) {
        let mut s = seed | 1;
        let mut next = || { s ^= s << 13; s ^= s >> 7; s ^= s << 17; s };
        let prev: Vec<u8> = (0..w * h).map(|_| next() as u8).collect();
        let cur: Vec<u8> = prev.iter().map(|&p| {
            let r = next();
            if (r % 100) < density as u64 { if r & 0x100 != 0 { 7 } else { (r >> 16) as u8 } } else { p }
        }).collect();
        let cs = ChangeStream::new(w, h);
        let stream = cs.encode(&prev, &cur).unwrap();
        let mut pic = prev.clone();
        let used = cs.apply(&stream, &mut pic, 0).unwrap();
        prop_assert_eq!(used, stream.len());
        prop_assert_eq!(&pic, &cur);
        // XOR twice restores.
        cs.apply(&stream, &mut pic, 0).unwrap();
        prop_assert_eq!(pic, prev);
    }

    #[test]
    fn whole_clips_round_trip(
        w in 1u16..20, h in 1u16..12, n in 1usize..30,
        seed in any::<u64>(), layout in 0u8..2, coding in 0u8..3, slack in 0usize..30,
    ) {
        let (wu, hu) = (w as usize, h as usize);
        let mut s = seed | 1;
        let mut next = || { s ^= s << 13; s ^= s >> 7; s ^= s << 17; s };
        let mut pics: Vec<Vec<u8>> = vec![(0..wu * hu).map(|_| next() as u8 % 5).collect()];
        for _ in 1..n {
            let mut p = pics.last().unwrap().clone();
            let changes = next() % 4;
            for _ in 0..changes * 3 {
                let i = (next() as usize) % p.len();
                p[i] = next() as u8;
            }
            pics.push(p);
        }
        let opts = EncodeOptions {
            layout: if layout == 0 { Layout::Standalone } else { Layout::Dependent },
            changes: [ChangeCoding::Compressed, ChangeCoding::Raw, ChangeCoding::Smallest][coding as usize],
            transparent_index: Some(3),
            trailing_counter: seed & 1 == 0,
            picture_slack: slack,
        };
        let bytes = encode_clip(w, h, &pics, &opts);
        let clip = BbhdClip::parse(&bytes).unwrap();
        prop_assert_eq!(clip.picture_count(), n);
        let decoded = clip.decode_pictures().unwrap();
        for (d, p) in decoded.iter().zip(&pics) {
            prop_assert_eq!(d, &IndexedFrame::from_pixels(wu, hu, p.clone()).unwrap());
        }
    }
}

#[test]
fn extreme_script_values_do_not_panic() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/cutscene");
    let (mn, mx) = (i32::MIN, i32::MAX);
    let text = format!(
        "initpal(0,0,0)\n\
         play({mx},36,0,0,5,{mx},0,{mx},2,{mn},{mx},{mn},{mx},{mn},{mn},{mx},{mx},{mn})\n\
         play(1,36,0,1,6,{mn},{mn},{mx},1,{mx},{mn},{mx},{mn},{mx},{mx},{mn},{mn},{mx})\n\
         play(1,32,0,0,{mx},25,0,5,{mn},0,0,0,-3,-2,-100,-100,{mx},{mx})\n\
         write(0,0,1,0,{mx},0,101,0,0,0,0,{mx},0,{mn},{mx},{mx},{mn})\n\
         write(0,0,0,{mn},{mx},0,100,0,0,0,0,2,0,{mx},{mn},0,0)\n\
         fx({mn},0,0,-1,{mx},{mn})\nfx({mx},0,1,-2,{mn},{mx})\nfxstop({mn},{mx})\n\
         BLEND(0,0,0,0,0,1,{mx},{mn},{mn},{mx})\nBLEND(0,0,0,0,0,1,{mn},{mx},{mx},{mn})\n\
         clear(3,{mx},{mn},{mn},{mx},{mx})\nclear(4,7,{mx},{mx},{mx},{mx})\nEnd(40)\n"
    );
    let script = ascr::parse_script(text.as_bytes()).unwrap();
    let scene = Scene::load(script, &modex_cutscene::GameDir::new(dir));
    let tl = Arc::new(Timeline::new(&scene));
    let mut seq = Sequencer::new(tl.clone());
    for t in 0..tl.length() {
        seq.frame_at(t);
        tl.palette_at(t);
        tl.sound_events(t);
    }
    assert_eq!(tl.length(), 40);
}

#[test]
fn many_repeats_of_a_big_picture_are_refused_not_allocated() {
    // 1024x1024, one whole picture then 300 repeat records: 300 MiB of pictures from a tiny file.
    let pic = vec![vec![0u8; 1024 * 1024]];
    let mut pics = pic.clone();
    pics.extend(std::iter::repeat_n(pic[0].clone(), 300));
    let opts = EncodeOptions {
        layout: Layout::Standalone,
        ..Default::default()
    };
    let bytes = encode_clip(1024, 1024, &pics, &opts);
    assert!(bytes.len() < 256 * 1024);
    let clip = BbhdClip::parse(&bytes).unwrap();
    let e = clip.decode_pictures().unwrap_err();
    assert!(matches!(e.kind, modex::ErrorKind::TooLarge { .. }), "{e}");
    // The decoder still walks it picture by picture.
    let mut dec = clip.decoder();
    dec.seek_picture(300).unwrap();
}
