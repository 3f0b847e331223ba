//! Creative Voice files (`ENG/AFXS000.LIB` entries): 8-bit unsigned PCM in blocks.
//!
//! Header: `"Creative Voice File\x1a"`, u16 header size, u16 version, u16 check (`!version +
//! 0x1234`). Blocks: u8 type, u24 size, body. Type 1 starts sound (`divisor`, codec, samples; rate =
//! 1000000 / (256 - divisor)), 2 continues it, 3 is silence, 9 is sound with an explicit rate, 0 ends
//! the file. Markers, text, repeat and extended blocks are skipped. Only 8-bit unsigned mono PCM is
//! accepted: it is what the game ships.

use modex::{ByteReader, ErrorKind, FormatError, FormatResult, Sound};

const FORMAT: &str = "VOC";
/// The file magic.
pub const MAGIC: &[u8; 20] = b"Creative Voice File\x1a";

/// Whether `data` starts like a Creative Voice File (format detection).
pub fn sniff(data: &[u8]) -> bool {
    data.starts_with(MAGIC)
}
/// Most samples a file may expand to (silence blocks are 4 bytes for up to 65536 samples): about
/// 25 minutes at 11 kHz, far beyond any sound effect.
pub const MAX_SAMPLES: usize = 16 << 20;

/// A decoded VOC sound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Voc {
    /// Sample rate in Hz.
    pub rate: u32,
    /// 8-bit unsigned samples, 128 = silence.
    pub pcm: Vec<u8>,
}

impl Voc {
    /// For the mixer.
    pub fn to_sound(&self) -> Sound {
        Sound::from_u8_pcm(self.rate, &self.pcm)
    }
}

/// Rate for a time-constant `divisor`.
pub fn rate_from_divisor(divisor: u8) -> u32 {
    1_000_000 / (256 - divisor as u32)
}

/// Parse a VOC file.
pub fn parse_voc(data: &[u8]) -> FormatResult<Voc> {
    let mut r = ByteReader::new(data, FORMAT);
    r.expect_magic(MAGIC, "magic")?;
    let header_size = r.u16("header_size")? as usize;
    let _version = r.u16("version")?;
    let _check = r.u16("check")?;
    if header_size < 26 {
        return Err(FormatError::out_of_range(
            FORMAT,
            "header_size",
            20,
            header_size as i64,
            26,
            data.len() as i64,
        ));
    }
    r.seek(header_size, "header_size")?;
    let mut rate: Option<u32> = None;
    let mut pcm = Vec::new();
    while r.remaining() > 0 {
        let at = r.pos();
        let ty = r.u8("block.type")?;
        if ty == 0 {
            break;
        }
        let size = {
            let b = r.array::<3>("block.size")?;
            u32::from_le_bytes([b[0], b[1], b[2], 0]) as usize
        };
        let body = r.bytes(size, &format!("block[0x{at:x}].body"))?;
        let mut b = ByteReader::new(body, FORMAT);
        let field = |name: &str| format!("block[0x{at:x}].{name}");
        match ty {
            1 => {
                let divisor = b.u8(&field("divisor"))?;
                let codec = b.u8(&field("codec"))?;
                check_codec(codec as u16, at)?;
                rate.get_or_insert(rate_from_divisor(divisor));
                push(&mut pcm, &body[2..], at)?;
            }
            2 => push(&mut pcm, body, at)?,
            3 => {
                let len = b.u16(&field("silence.length"))? as usize + 1;
                let divisor = b.u8(&field("silence.divisor"))?;
                rate.get_or_insert(rate_from_divisor(divisor));
                if pcm.len() + len > MAX_SAMPLES {
                    return Err(too_long(at));
                }
                pcm.resize(pcm.len() + len, 128);
            }
            9 => {
                let r9 = b.u32(&field("rate"))?;
                let bits = b.u8(&field("bits"))?;
                let channels = b.u8(&field("channels"))?;
                let codec = b.u16(&field("codec"))?;
                b.skip(4, &field("reserved"))?;
                if bits != 8 || channels != 1 {
                    return Err(FormatError::unsupported(
                        FORMAT,
                        field("format"),
                        at,
                        format!("{bits}-bit {channels}-channel sound (only 8-bit mono)"),
                    ));
                }
                check_codec(codec, at)?;
                if r9 == 0 {
                    return Err(FormatError::invalid(FORMAT, field("rate"), at + 4, "zero"));
                }
                rate.get_or_insert(r9);
                push(&mut pcm, &body[12..], at)?;
            }
            // 4 marker, 5 text, 6/7 repeat, 8 extended: no samples of their own.
            _ => log::debug!("VOC: block type {ty} at 0x{at:x} skipped"),
        }
    }
    Ok(Voc {
        rate: rate.unwrap_or(11_025),
        pcm,
    })
}

fn check_codec(codec: u16, at: usize) -> FormatResult<()> {
    if codec != 0 {
        return Err(FormatError::unsupported(
            FORMAT,
            format!("block[0x{at:x}].codec"),
            at,
            format!("codec {codec} (only 8-bit unsigned PCM)"),
        ));
    }
    Ok(())
}

fn too_long(at: usize) -> FormatError {
    FormatError::new(
        FORMAT,
        "samples",
        at,
        ErrorKind::TooLarge {
            value: MAX_SAMPLES as u64 + 1,
            limit: MAX_SAMPLES as u64,
        },
    )
}

fn push(pcm: &mut Vec<u8>, data: &[u8], at: usize) -> FormatResult<()> {
    if pcm.len() + data.len() > MAX_SAMPLES {
        return Err(too_long(at));
    }
    pcm.extend_from_slice(data);
    Ok(())
}

/// Write a VOC file with one sound block. `divisor` sets the rate (1000000 / (256 - divisor)).
pub fn encode_voc(divisor: u8, pcm: &[u8]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    let version: u16 = 0x010a;
    out.extend_from_slice(&26u16.to_le_bytes());
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&((!version).wrapping_add(0x1234)).to_le_bytes());
    // Blocks hold at most 2^24 - 1 bytes: split long sounds into a start and continue blocks.
    let mut first = true;
    for chunk in pcm
        .chunks(0xff_0000)
        .chain(pcm.is_empty().then_some(&[][..]))
    {
        if first {
            let size = chunk.len() + 2;
            out.push(1);
            out.extend_from_slice(&(size as u32).to_le_bytes()[..3]);
            out.extend_from_slice(&[divisor, 0]);
            first = false;
        } else {
            out.push(2);
            out.extend_from_slice(&(chunk.len() as u32).to_le_bytes()[..3]);
        }
        out.extend_from_slice(chunk);
    }
    out.push(0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_rate() {
        let pcm: Vec<u8> = (0..300).map(|i| (i * 7) as u8).collect();
        let voc = parse_voc(&encode_voc(165, &pcm)).unwrap();
        assert_eq!(voc.rate, 10_989);
        assert_eq!(voc.pcm, pcm);
        assert_eq!(voc.to_sound().samples.len(), 300);
        let empty = parse_voc(&encode_voc(156, &[])).unwrap();
        assert_eq!((empty.rate, empty.pcm.len()), (10_000, 0));
    }

    #[test]
    fn silence_continue_and_errors() {
        let mut f = encode_voc(156, &[1, 2]);
        f.pop(); // terminator
        f.extend_from_slice(&[3, 3, 0, 0, 3, 0, 156]); // 4 samples of silence
        f.extend_from_slice(&[2, 1, 0, 0, 9]);
        f.push(0);
        let v = parse_voc(&f).unwrap();
        assert_eq!(v.pcm, [1, 2, 128, 128, 128, 128, 9]);
        assert!(parse_voc(b"Creative Voice File").is_err());
        let mut bad = encode_voc(156, &[1]);
        bad[26 + 5] = 4; // codec 4
        assert!(matches!(
            parse_voc(&bad).unwrap_err().kind,
            ErrorKind::Unsupported(_)
        ));
        let mut cut = encode_voc(156, &[1, 2, 3]);
        cut.truncate(cut.len() - 3);
        assert!(parse_voc(&cut).is_err());
    }
}
