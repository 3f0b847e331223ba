//! The project's own BBHD encoder: builds the sample scene and the round-trip tests, since no real
//! game file may be shipped.
//!
//! Two layouts, matching the two playback flags the shipped clips use:
//! - [`Layout::Standalone`] (flags 2): every record is a whole picture or a repeat.
//! - [`Layout::Dependent`] (flags 3): a whole picture, then XOR change streams (TPWM-compressed,
//!   raw, or whichever is smaller) and repeats, with an anchor — a whole-picture copy of the picture
//!   just shown, frame number repeated with bit 14 — at every record index that is a multiple of
//!   [`ANCHOR_SPACING`], the layout the game expects.
//!
//! Header sizes follow the original tool's rules as measured in the spec text: the picture buffer
//! is the largest whole-picture payload (anchors not counted) plus 84, the packed buffer is
//! `width * height`, plus 50 when pictures unpack to more than that.

use crate::bbhd::{
    FrameType, ANCHOR_BIT, FLAG_ANCHORED, FLAG_DEPENDENT, HEADER_LEN, RECORD_HEADER_LEN,
};
use crate::change_stream::{ChangeStream, TRAILING_COUNTER};
use crate::tpwm;

/// Records between anchors in dependent clips (the first anchor is record 11).
pub const ANCHOR_SPACING: usize = 11;
/// Margin the original tool added to the largest whole-picture payload.
pub const PICTURE_BUFFER_MARGIN: u32 = 84;

/// How records relate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Whole pictures and repeats only (playback flags 2).
    Standalone,
    /// Change streams with anchors (playback flags 3).
    Dependent,
}

/// How change streams are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeCoding {
    /// Frame type 2.
    Compressed,
    /// Frame type 3.
    Raw,
    /// Whichever is smaller.
    Smallest,
}

/// Encoder settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeOptions {
    /// Whole pictures only, or changes with anchors.
    pub layout: Layout,
    /// How change records are stored (dependent layout only).
    pub changes: ChangeCoding,
    /// The transparent index word; `None` writes 0xffff ("no transparency").
    pub transparent_index: Option<u8>,
    /// Append the 20-byte counter `00..13` after compressed change streams, as the original tool did.
    pub trailing_counter: bool,
    /// Extra zero bytes after each whole picture before compression (some shipped pictures unpack
    /// to more than width*height; readers must ignore the extra).
    pub picture_slack: usize,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions {
            layout: Layout::Dependent,
            changes: ChangeCoding::Smallest,
            transparent_index: None,
            trailing_counter: true,
            picture_slack: 0,
        }
    }
}

/// Encode `pictures` (row-major, `width * height` each) as a BBHD clip. Identical consecutive
/// pictures become repeat records. The result carries the 0xff pad byte when the clip length is odd.
///
/// Panics when a picture has the wrong size or there are no pictures: the encoder is fed by the
/// project's own generators, not by files.
pub fn encode_clip(width: u16, height: u16, pictures: &[Vec<u8>], opts: &EncodeOptions) -> Vec<u8> {
    let (w, h) = (width as usize, height as usize);
    assert!(!pictures.is_empty(), "a clip needs at least one picture");
    assert!(
        pictures.iter().all(|p| p.len() == w * h),
        "picture size must be width*height"
    );
    let cs = ChangeStream::new(w, h);
    let mut records: Vec<(FrameType, u16, Vec<u8>)> = Vec::new();
    let mut number: u16 = 0;
    let mut largest_picture = 0usize;
    for (k, pic) in pictures.iter().enumerate() {
        let prev = k.checked_sub(1).map(|j| &pictures[j]);
        let (ty, payload) = match prev {
            Some(p) if p == pic => (FrameType::Repeat, Vec::new()),
            Some(p) if opts.layout == Layout::Dependent => match cs.encode(p, pic) {
                Some(stream) => change_record(stream, opts),
                None => (FrameType::Picture, picture_payload(pic, opts)),
            },
            _ => (FrameType::Picture, picture_payload(pic, opts)),
        };
        if ty == FrameType::Picture {
            largest_picture = largest_picture.max(payload.len());
        }
        records.push((ty, number, payload));
        number = number.wrapping_add(1) & crate::bbhd::NUMBER_MASK;
        if opts.layout == Layout::Dependent && records.len() % ANCHOR_SPACING == 0 {
            // An anchor: the picture just shown, stored whole, with the previous record's number.
            let last = records.last().map(|r| r.1).unwrap_or(0);
            records.push((
                FrameType::Picture,
                last | ANCHOR_BIT,
                picture_payload(pic, opts),
            ));
        }
    }
    let flags = match opts.layout {
        Layout::Standalone => FLAG_ANCHORED,
        Layout::Dependent => FLAG_DEPENDENT | FLAG_ANCHORED,
    };
    write_clip(w, h, flags, largest_picture, &records, opts)
}

fn picture_payload(pic: &[u8], opts: &EncodeOptions) -> Vec<u8> {
    if opts.picture_slack == 0 {
        return tpwm::compress(pic);
    }
    let mut p = pic.to_vec();
    p.resize(pic.len() + opts.picture_slack, 0);
    tpwm::compress(&p)
}

fn change_record(mut stream: Vec<u8>, opts: &EncodeOptions) -> (FrameType, Vec<u8>) {
    let raw = stream.clone();
    if opts.trailing_counter {
        stream.extend_from_slice(&TRAILING_COUNTER);
    }
    match opts.changes {
        ChangeCoding::Raw => (FrameType::RawChanges, raw),
        ChangeCoding::Compressed => (FrameType::Changes, tpwm::compress(&stream)),
        ChangeCoding::Smallest => {
            let packed = tpwm::compress(&stream);
            if packed.len() < raw.len() {
                (FrameType::Changes, packed)
            } else {
                (FrameType::RawChanges, raw)
            }
        }
    }
}

fn write_clip(
    w: usize,
    h: usize,
    flags: u32,
    largest_picture: usize,
    records: &[(FrameType, u16, Vec<u8>)],
    opts: &EncodeOptions,
) -> Vec<u8> {
    let body: usize = records.iter().map(|r| RECORD_HEADER_LEN + r.2.len()).sum();
    let clip_length = HEADER_LEN + body + 12;
    let mut last_offset = HEADER_LEN;
    {
        let mut at = HEADER_LEN;
        for r in records {
            last_offset = at;
            at += RECORD_HEADER_LEN + r.2.len();
        }
    }
    let mut out = Vec::with_capacity(clip_length + 1);
    out.extend_from_slice(b"BBHD");
    for v in [
        HEADER_LEN as u32,
        last_offset as u32,
        clip_length as u32,
        records.len() as u32,
        flags,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    match opts.transparent_index {
        Some(t) => out.extend_from_slice(&[t, 0]),
        None => out.extend_from_slice(&[0xff, 0xff]),
    }
    out.extend_from_slice(&(w as u16).to_le_bytes());
    out.extend_from_slice(&(h as u16).to_le_bytes());
    let plane = w.div_ceil(4).min(255) as u8;
    out.extend_from_slice(&[plane; 4]);
    let picture_buffer = largest_picture as u32 + PICTURE_BUFFER_MARGIN;
    let packed_buffer = (w * h + if opts.picture_slack > 0 { 50 } else { 0 }) as u32;
    out.extend_from_slice(&picture_buffer.to_le_bytes());
    out.extend_from_slice(&packed_buffer.to_le_bytes());
    out.extend_from_slice(&[0xff; 28]);
    debug_assert_eq!(out.len(), HEADER_LEN);
    let mut prev_len = 0u32;
    for (ty, number, payload) in records {
        let len = (RECORD_HEADER_LEN + payload.len()) as u32;
        out.extend_from_slice(b"BBFR");
        out.extend_from_slice(&ty.code().to_le_bytes());
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&prev_len.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&number.to_le_bytes());
        out.extend_from_slice(&[0xff; 10]);
        out.extend_from_slice(payload);
        prev_len = len;
    }
    out.extend_from_slice(b"BBFT");
    out.extend_from_slice(&(HEADER_LEN as u32).to_le_bytes());
    out.extend_from_slice(&(last_offset as u32).to_le_bytes());
    debug_assert_eq!(out.len(), clip_length);
    if clip_length % 2 == 1 {
        out.push(0xff);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bbhd::BbhdClip;

    fn pictures(n: usize, w: usize, h: usize) -> Vec<Vec<u8>> {
        (0..n)
            .map(|k| {
                (0..w * h)
                    .map(|i| {
                        let (x, y) = (i % w, i / w);
                        if (x + k) % 9 < 3 && y % 4 != 0 {
                            (k * 3 + 1) as u8
                        } else {
                            (x / 4 + y / 3) as u8
                        }
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn dependent_clip_has_anchors_every_eleven_records() {
        let pics = pictures(25, 17, 9);
        let clip_bytes = encode_clip(17, 9, &pics, &EncodeOptions::default());
        let clip = BbhdClip::parse(&clip_bytes).unwrap();
        let anchors: Vec<usize> = clip
            .records()
            .iter()
            .enumerate()
            .filter(|(_, r)| r.is_anchor())
            .map(|(i, _)| i)
            .collect();
        assert_eq!(anchors, [11, 22]);
        assert_eq!(clip.records()[11].number(), clip.records()[10].number());
        assert_eq!(clip.picture_count(), 25);
        assert_eq!(clip.header().playback_flags, 3);
        let decoded = clip.decode_pictures().unwrap();
        for (d, p) in decoded.iter().zip(&pics) {
            assert_eq!(d.pixels(), &p[..]);
        }
    }

    #[test]
    fn standalone_clip_uses_whole_pictures_and_repeats() {
        let mut pics = pictures(4, 8, 8);
        pics.insert(2, pics[1].clone());
        let opts = EncodeOptions {
            layout: Layout::Standalone,
            transparent_index: Some(7),
            picture_slack: 20,
            ..Default::default()
        };
        let bytes = encode_clip(8, 8, &pics, &opts);
        let clip = BbhdClip::parse(&bytes).unwrap();
        let types: Vec<_> = clip.records().iter().map(|r| r.frame_type).collect();
        assert_eq!(
            types,
            [
                FrameType::Picture,
                FrameType::Picture,
                FrameType::Repeat,
                FrameType::Picture,
                FrameType::Picture
            ]
        );
        assert_eq!(clip.header().playback_flags, 2);
        assert_eq!(clip.header().packed_buffer_size, 64 + 50);
        assert_eq!(clip.transparency_for(1), Some(7));
        assert_eq!(clip.transparency_for(0), None);
        let decoded = clip.decode_pictures().unwrap();
        assert_eq!(decoded.len(), 5);
        assert_eq!(decoded[2].pixels(), &pics[1][..]);
        assert_eq!(bytes.len() % 2, 0);
    }
}
