//! BBHD clips: a 70-byte header, a chain of BBFR frame records and a 12-byte BBFT trailer.
//!
//! Records form a chain in both directions (each stores its own length and its predecessor's), and
//! both the header and the trailer point at the first and last record. [`BbhdClip::parse`] walks the
//! chain forwards from the header and backwards from the trailer and refuses the clip unless both
//! walks visit the same records: a damaged length then shows up as an error at its offset instead of
//! as garbage pictures.
//!
//! Pictures: record type 0 repeats the previous picture, 1 is a whole TPWM picture (the first
//! `width * height` bytes; some shipped pictures unpack to more), 2 a TPWM change stream, 3 a raw
//! change stream. Records with bit 14 of the frame number are *anchors*: whole-picture copies of the
//! picture just shown. The game skips them in forward play, so a clip shows one picture per record
//! that is not an anchor ([`BbhdClip::pictures`]). [`ClipDecoder`] applies records in order and seeks
//! by jumping to the nearest whole picture (anchors included) at or before the target.

use modex::{ByteReader, ErrorKind, FormatError, FormatResult, IndexedFrame};

use crate::change_stream::ChangeStream;
use crate::tpwm;

const FORMAT: &str = "BBHD";
/// Size of the clip header; also the offset of the first record in every shipped clip.
pub const HEADER_LEN: usize = 70;
/// Size of a frame record header (a repeat record is exactly this long).
pub const RECORD_HEADER_LEN: usize = 28;
/// Size of the trailer.
pub const TRAILER_LEN: usize = 12;
/// Anchor bit of `frame_number`.
pub const ANCHOR_BIT: u16 = 0x4000;
/// Picture number bits of `frame_number`.
pub const NUMBER_MASK: u16 = 0x3fff;
/// Largest picture accepted (the game's screen is 360x240; shipped clips are at most 640x200 and
/// 320x396). Bigger declared sizes are refused before anything is allocated.
pub const MAX_PIXELS: usize = 1024 * 1024;

/// Most bytes [`BbhdClip::decode_pictures`] returns. The largest shipped clips (640x200 and
/// 320x396, about a hundred pictures) need under 16 MiB.
pub const MAX_DECODED_BYTES: usize = 256 << 20;

/// `playback_flags` bit 0: records may be changes to or repeats of the previous picture.
pub const FLAG_DEPENDENT: u32 = 1;
/// `playback_flags` bit 1: anchors at a fixed spacing (with bit 0), or "all records whole" alone.
pub const FLAG_ANCHORED: u32 = 2;

/// The clip header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BbhdHeader {
    /// Offset of the first record (70 in every shipped clip).
    pub first_record_offset: u32,
    /// Offset of the last record (the trailer says it again).
    pub last_record_offset: u32,
    /// Clip length without the odd-length pad byte.
    pub clip_length: u32,
    /// Records including anchors.
    pub record_count: u32,
    /// [`FLAG_DEPENDENT`] and [`FLAG_ANCHORED`].
    pub playback_flags: u32,
    /// Low byte of the transparent index word (see [`BbhdHeader::transparent_index`]).
    pub transparent_index: u8,
    /// Read together with `transparent_index` as one word; 0xffff means "no transparency".
    pub transparent_index_high: u8,
    /// Picture width in pixels.
    pub width: u16,
    /// Picture height in pixels.
    pub height: u16,
    /// Columns of each of the four mode-X planes (the encoder writes `width / 4` rounded up
    /// for all four; not needed to decode).
    pub plane_widths: [u8; 4],
    /// Size of the game's buffer for an unpacked picture: the largest whole-picture payload plus
    /// 84 (as the original tool wrote it; not needed to decode).
    pub picture_buffer_size: u32,
    /// Size of the game's buffer for packed data (`width * height`, plus 50 for pictures that
    /// unpack to more; not needed to decode).
    pub packed_buffer_size: u32,
}

impl BbhdHeader {
    /// The transparent index, or `None` when the 16-bit word is 0xffff. Only the low byte is
    /// compared with pixels, as the game does.
    pub fn transparent_index(&self) -> Option<u8> {
        let word = u16::from_le_bytes([self.transparent_index, self.transparent_index_high]);
        (word != 0xffff).then_some(self.transparent_index)
    }

    /// Whether records build on the previous picture (bit 0).
    pub fn dependent_frames(&self) -> bool {
        self.playback_flags & FLAG_DEPENDENT != 0
    }
}

/// What a record holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameType {
    /// 0: the previous picture again.
    Repeat,
    /// 1: a whole TPWM-packed picture.
    Picture,
    /// 2: a TPWM-packed XOR change stream.
    Changes,
    /// 3: an unpacked XOR change stream.
    RawChanges,
}

impl FrameType {
    /// The record's type code (0..=3).
    pub fn code(self) -> u16 {
        match self {
            FrameType::Repeat => 0,
            FrameType::Picture => 1,
            FrameType::Changes => 2,
            FrameType::RawChanges => 3,
        }
    }

    /// The type of code `code`, if it is one.
    pub fn from_code(code: u16) -> Option<Self> {
        Some(match code {
            0 => FrameType::Repeat,
            1 => FrameType::Picture,
            2 => FrameType::Changes,
            3 => FrameType::RawChanges,
            _ => return None,
        })
    }
}

/// One frame record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BbfrRecord {
    /// Offset of the record in the clip.
    pub offset: usize,
    /// What it holds.
    pub frame_type: FrameType,
    /// Its length, header included (the next record starts this many bytes on).
    pub record_length: u32,
    /// The previous record's length (0 for the first), for walking the chain backwards.
    pub previous_length: u32,
    /// Raw field: picture number in bits 0..13, anchor in bit 14.
    pub frame_number: u16,
}

impl BbfrRecord {
    /// Whether it is an anchor (bit 14 of the frame number): skipped in forward play.
    pub fn is_anchor(&self) -> bool {
        self.frame_number & ANCHOR_BIT != 0
    }

    /// The picture number (bits 0..13).
    pub fn number(&self) -> u16 {
        self.frame_number & NUMBER_MASK
    }

    /// Byte range of the payload in the clip.
    pub fn payload_range(&self) -> std::ops::Range<usize> {
        self.offset + RECORD_HEADER_LEN..self.offset + self.record_length as usize
    }

    /// Whether the record replaces the whole picture (so seeking may start here).
    pub fn is_whole_picture(&self) -> bool {
        self.frame_type == FrameType::Picture
    }
}

/// A parsed clip borrowing its bytes. Pictures are decoded on demand by a [`ClipDecoder`].
#[derive(Debug, Clone)]
pub struct BbhdClip<'a> {
    data: &'a [u8],
    header: BbhdHeader,
    records: Vec<BbfrRecord>,
    pictures: Vec<usize>,
}

impl<'a> BbhdClip<'a> {
    /// Parse the header, walk the record chain both ways and read the trailer. Bytes after
    /// `clip_length` (the pad byte, or the rest of an archive entry) are ignored.
    pub fn parse(data: &'a [u8]) -> FormatResult<BbhdClip<'a>> {
        let header = parse_header(data)?;
        let records = walk_chain(data, &header)?;
        let pictures = records
            .iter()
            .enumerate()
            .filter(|(_, r)| !r.is_anchor())
            .map(|(i, _)| i)
            .collect();
        Ok(BbhdClip {
            data,
            header,
            records,
            pictures,
        })
    }

    /// The header.
    pub fn header(&self) -> &BbhdHeader {
        &self.header
    }

    /// Picture width in pixels.
    pub fn width(&self) -> usize {
        self.header.width as usize
    }

    /// Picture height in pixels.
    pub fn height(&self) -> usize {
        self.header.height as usize
    }

    /// Every record in chain order, anchors included.
    pub fn records(&self) -> &[BbfrRecord] {
        &self.records
    }

    /// Record indexes of the pictures shown in forward play: every record that is not an anchor.
    pub fn pictures(&self) -> &[usize] {
        &self.pictures
    }

    /// Pictures shown in forward play.
    pub fn picture_count(&self) -> usize {
        self.pictures.len()
    }

    /// Anchor records.
    pub fn anchor_count(&self) -> usize {
        self.records.len() - self.pictures.len()
    }

    /// The index drawn see-through for a play command with effect `eff`: the header's transparent
    /// index, only for clips whose records stand alone (flags bit 0 clear) and only when `eff != 0`.
    pub fn transparency_for(&self, eff: i32) -> Option<u8> {
        if eff == 0 || self.header.dependent_frames() {
            None
        } else {
            self.header.transparent_index()
        }
    }

    /// The clip's bytes.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// A decoder positioned before the first record.
    pub fn decoder(&self) -> ClipDecoder<'_, 'a> {
        ClipDecoder::new(self)
    }

    /// Every picture of forward play, decoded in order. Refused when they would take more than
    /// [`MAX_DECODED_BYTES`] (a small hostile clip of many repeat records could otherwise ask for
    /// gigabytes); walk such clips with a [`ClipDecoder`] instead.
    pub fn decode_pictures(&self) -> FormatResult<Vec<IndexedFrame>> {
        let total = self
            .pictures
            .len()
            .saturating_mul(self.width() * self.height());
        if total > MAX_DECODED_BYTES {
            return Err(FormatError::new(
                FORMAT,
                "record_count",
                16,
                ErrorKind::TooLarge {
                    value: total as u64,
                    limit: MAX_DECODED_BYTES as u64,
                },
            ));
        }
        let mut dec = self.decoder();
        let mut out = Vec::with_capacity(self.pictures.len());
        for i in 0..self.records.len() {
            dec.apply_record(i)?;
            if !self.records[i].is_anchor() {
                out.push(dec.frame().clone());
            }
        }
        Ok(out)
    }
}

/// The magic at the start of every BBHD clip.
pub const MAGIC: &[u8; 4] = b"BBHD";

/// Whether `data` starts like a BBHD clip (format detection).
pub fn sniff(data: &[u8]) -> bool {
    data.starts_with(MAGIC)
}

fn parse_header(data: &[u8]) -> FormatResult<BbhdHeader> {
    let mut r = ByteReader::new(data, FORMAT);
    r.expect_magic(MAGIC, "magic")?;
    let h = BbhdHeader {
        first_record_offset: r.u32("first_record_offset")?,
        last_record_offset: r.u32("last_record_offset")?,
        clip_length: r.u32("clip_length")?,
        record_count: r.u32("record_count")?,
        playback_flags: r.u32("playback_flags")?,
        transparent_index: r.u8("transparent_index")?,
        transparent_index_high: r.u8("transparent_index_high")?,
        width: r.u16("width")?,
        height: r.u16("height")?,
        plane_widths: r.array("plane_widths")?,
        picture_buffer_size: r.u32("picture_buffer_size")?,
        packed_buffer_size: r.u32("packed_buffer_size")?,
    };
    r.skip(28, "reserved")?;
    let pixels = h.width as usize * h.height as usize;
    if h.width == 0 || h.height == 0 || pixels > MAX_PIXELS {
        return Err(FormatError::new(
            FORMAT,
            "width*height",
            26,
            ErrorKind::OutOfRange {
                value: pixels as i64,
                min: 1,
                max: MAX_PIXELS as i64,
            },
        ));
    }
    if h.clip_length as usize > data.len() {
        return Err(FormatError::new(
            FORMAT,
            "clip_length",
            12,
            ErrorKind::Truncated {
                needed: h.clip_length as usize,
                available: data.len(),
            },
        ));
    }
    if (h.first_record_offset as usize) < HEADER_LEN {
        return Err(FormatError::out_of_range(
            FORMAT,
            "first_record_offset",
            4,
            h.first_record_offset as i64,
            HEADER_LEN as i64,
            h.clip_length as i64,
        ));
    }
    Ok(h)
}

fn parse_record(r: &mut ByteReader<'_>, at: usize, i: usize) -> FormatResult<BbfrRecord> {
    r.seek(at, &format!("record[{i}]"))?;
    let magic = r.array::<4>(&format!("record[{i}].magic"))?;
    if &magic != b"BBFR" {
        return Err(FormatError::new(
            FORMAT,
            format!("record[{i}].magic"),
            at,
            ErrorKind::BadMagic {
                found: magic.to_vec(),
            },
        ));
    }
    let code = r.u16(&format!("record[{i}].frame_type"))?;
    let record_length = r.u32(&format!("record[{i}].record_length"))?;
    let previous_length = r.u32(&format!("record[{i}].previous_length"))?;
    r.skip(2, &format!("record[{i}].zero"))?;
    let frame_number = r.u16(&format!("record[{i}].frame_number"))?;
    r.skip(10, &format!("record[{i}].reserved"))?;
    if (record_length as usize) < RECORD_HEADER_LEN {
        return Err(FormatError::out_of_range(
            FORMAT,
            format!("record[{i}].record_length"),
            at + 6,
            record_length as i64,
            RECORD_HEADER_LEN as i64,
            u32::MAX as i64,
        ));
    }
    // Cross-check the type against the payload: the one public reader of the real files uses only
    // the record length (offset 6) and the payload (offset 28), so that the type code sits at 4 is
    // this project's reading of the original's field list. An empty payload is a repeat whatever
    // the code says.
    let frame_type = if record_length as usize == RECORD_HEADER_LEN {
        FrameType::Repeat
    } else {
        FrameType::from_code(code).ok_or_else(|| {
            FormatError::out_of_range(
                FORMAT,
                format!("record[{i}].frame_type"),
                at + 4,
                code as i64,
                0,
                3,
            )
        })?
    };
    if frame_type == FrameType::Repeat && record_length as usize != RECORD_HEADER_LEN {
        return Err(FormatError::invalid(
            FORMAT,
            format!("record[{i}].record_length"),
            at + 6,
            "a repeat record carries a payload",
        ));
    }
    Ok(BbfrRecord {
        offset: at,
        frame_type,
        record_length,
        previous_length,
        frame_number,
    })
}

fn walk_chain(data: &[u8], h: &BbhdHeader) -> FormatResult<Vec<BbfrRecord>> {
    let clip = &data[..h.clip_length as usize];
    let mut r = ByteReader::new(clip, FORMAT);
    let count = h.record_count as usize;
    if count == 0 {
        return Err(FormatError::invalid(
            FORMAT,
            "record_count",
            16,
            "a clip needs at least one record",
        ));
    }
    r.seek(h.first_record_offset as usize, "first_record_offset")?;
    r.check_count(count, RECORD_HEADER_LEN, "record_count")?;
    // Forwards from the header.
    let mut records: Vec<BbfrRecord> = Vec::with_capacity(count);
    let mut at = h.first_record_offset as usize;
    let mut prev_len = 0u32;
    for i in 0..count {
        let rec = parse_record(&mut r, at, i)?;
        if rec.previous_length != prev_len {
            return Err(FormatError::invalid(
                FORMAT,
                format!("record[{i}].previous_length"),
                at + 10,
                format!(
                    "is {} but the record before is {} bytes long",
                    rec.previous_length, prev_len
                ),
            ));
        }
        prev_len = rec.record_length;
        let next = at
            .checked_add(rec.record_length as usize)
            .filter(|&n| n <= clip.len())
            .ok_or_else(|| {
                FormatError::new(
                    FORMAT,
                    format!("record[{i}].record_length"),
                    at + 6,
                    ErrorKind::Truncated {
                        needed: rec.record_length as usize,
                        available: clip.len() - at,
                    },
                )
            })?;
        records.push(rec);
        at = next;
    }
    let last = records.last().map(|r| r.offset).unwrap_or(0);
    if last != h.last_record_offset as usize {
        return Err(FormatError::invalid(
            FORMAT,
            "last_record_offset",
            8,
            format!(
                "header says 0x{:x}, the chain's record {} is at 0x{last:x}",
                h.last_record_offset,
                count - 1
            ),
        ));
    }
    // The trailer.
    r.seek(at, "trailer")?;
    let magic = r.array::<4>("trailer.magic")?;
    if &magic != b"BBFT" {
        return Err(FormatError::new(
            FORMAT,
            "trailer.magic",
            at,
            ErrorKind::BadMagic {
                found: magic.to_vec(),
            },
        ));
    }
    let t_first = r.u32("trailer.first_record_offset")?;
    let t_last = r.u32("trailer.last_record_offset")?;
    if t_first != h.first_record_offset || t_last != h.last_record_offset {
        return Err(FormatError::invalid(
            FORMAT,
            "trailer",
            at + 4,
            format!(
                "trailer points at 0x{t_first:x}..0x{t_last:x}, header at 0x{:x}..0x{:x}",
                h.first_record_offset, h.last_record_offset
            ),
        ));
    }
    if r.pos() != clip.len() {
        return Err(FormatError::invalid(
            FORMAT,
            "clip_length",
            12,
            format!("is {} but the trailer ends at {}", h.clip_length, r.pos()),
        ));
    }
    // Backwards from the trailer: each previous_length must land on the record the forward walk found.
    let mut at = t_last as usize;
    for i in (0..count).rev() {
        if records[i].offset != at {
            return Err(FormatError::invalid(
                FORMAT,
                format!("record[{i}]"),
                at,
                format!(
                    "the backward walk reaches 0x{at:x}, the forward walk 0x{:x}",
                    records[i].offset
                ),
            ));
        }
        at = at.wrapping_sub(records[i].previous_length as usize);
    }
    Ok(records)
}

/// Applies records to a current picture: forward play, and seeking by the nearest whole picture.
#[derive(Debug, Clone)]
pub struct ClipDecoder<'c, 'a> {
    clip: &'c BbhdClip<'a>,
    frame: IndexedFrame,
    /// The last record applied.
    at: Option<usize>,
    scratch: Vec<u8>,
}

impl<'c, 'a> ClipDecoder<'c, 'a> {
    /// A decoder of `clip` before its first record (the picture is all zeros).
    pub fn new(clip: &'c BbhdClip<'a>) -> Self {
        ClipDecoder {
            clip,
            frame: IndexedFrame::new(clip.width(), clip.height()),
            at: None,
            scratch: Vec::new(),
        }
    }

    /// The current picture.
    pub fn frame(&self) -> &IndexedFrame {
        &self.frame
    }

    /// The last record applied, if any.
    pub fn position(&self) -> Option<usize> {
        self.at
    }

    /// Apply record `i` to the current picture (it should follow the last one applied; a whole
    /// picture may be applied anywhere).
    pub fn apply_record(&mut self, i: usize) -> FormatResult<()> {
        let rec = self.clip.records.get(i).ok_or_else(|| {
            FormatError::out_of_range(
                FORMAT,
                "record",
                0,
                i as i64,
                0,
                self.clip.records.len() as i64 - 1,
            )
        })?;
        let data = self.clip.data;
        let range = rec.payload_range();
        let payload = &data[range.clone()];
        let (w, h) = (self.clip.width(), self.clip.height());
        match rec.frame_type {
            FrameType::Repeat => {}
            FrameType::Picture => {
                let bytes: &[u8] = if tpwm::is_tpwm(payload) {
                    self.unpack(payload, range.start)?;
                    &self.scratch
                } else {
                    payload
                };
                if bytes.len() < w * h {
                    return Err(FormatError::new(
                        FORMAT,
                        format!("record[{i}].picture"),
                        range.start,
                        ErrorKind::Truncated {
                            needed: w * h,
                            available: bytes.len(),
                        },
                    ));
                }
                // Some shipped pictures unpack to more than width*height: the rest is left over
                // from the original tool and ignored.
                self.frame.pixels_mut().copy_from_slice(&bytes[..w * h]);
            }
            FrameType::Changes => {
                self.unpack(payload, range.start)?;
                let stream = std::mem::take(&mut self.scratch);
                let res =
                    ChangeStream::new(w, h).apply(&stream, self.frame.pixels_mut(), range.start);
                self.scratch = stream;
                res.map_err(|mut e| {
                    e.field = format!("record[{i}].{} (unpacked)", e.field);
                    e
                })?;
            }
            FrameType::RawChanges => {
                ChangeStream::new(w, h)
                    .apply(payload, self.frame.pixels_mut(), range.start)
                    .map_err(|mut e| {
                        e.field = format!("record[{i}].{}", e.field);
                        e
                    })?;
            }
        }
        self.at = Some(i);
        Ok(())
    }

    fn unpack(&mut self, payload: &[u8], base: usize) -> FormatResult<()> {
        tpwm::decompress_into(payload, &mut self.scratch).map_err(|mut e| {
            e.format = FORMAT;
            e.offset += base;
            e.field = format!("payload.tpwm.{}", e.field);
            e
        })
    }

    /// Apply the next record; `Ok(false)` at the end of the clip.
    pub fn step(&mut self) -> FormatResult<bool> {
        let next = self.at.map_or(0, |a| a + 1);
        if next >= self.clip.records.len() {
            return Ok(false);
        }
        self.apply_record(next)?;
        Ok(true)
    }

    /// Make record `target` current: continue forward from the current record when it is at or
    /// before the target, else jump to the nearest whole picture (anchor or not) at or before it.
    pub fn seek_record(&mut self, target: usize) -> FormatResult<()> {
        let recs = &self.clip.records;
        if target >= recs.len() {
            return Err(FormatError::out_of_range(
                FORMAT,
                "record",
                0,
                target as i64,
                0,
                recs.len() as i64 - 1,
            ));
        }
        let key = (0..=target).rev().find(|&i| recs[i].is_whole_picture());
        let start = match (self.at, key) {
            (Some(a), Some(k)) if a <= target && a >= k => a + 1,
            (Some(a), None) if a <= target => a + 1,
            (_, Some(k)) => k,
            (_, None) => {
                self.frame.clear(0);
                0
            }
        };
        for i in start..=target {
            self.apply_record(i)?;
        }
        Ok(())
    }

    /// Make picture `n` of forward play current (anchors are not pictures).
    pub fn seek_picture(&mut self, n: usize) -> FormatResult<()> {
        let rec = *self.clip.pictures.get(n).ok_or_else(|| {
            FormatError::out_of_range(
                FORMAT,
                "picture",
                0,
                n as i64,
                0,
                self.clip.pictures.len() as i64 - 1,
            )
        })?;
        self.seek_record(rec)
    }
}
