//! TPWM: the LZ77 compression used throughout Battle Isle 2's archives.
//!
//! An 8-byte header (`"TPWM"`, u32 unpacked length, little-endian) and a stream of groups: a flag byte
//! whose bits, highest first, describe the next eight items. A 0 bit is one literal byte; a 1 bit is
//! a two-byte copy `a b` of `(a & 0x0f) + 3` bytes from `distance = b + (a >> 4) * 256` bytes back.
//! The copy runs byte by byte, so it may overlap the bytes it produces (that is how short patterns
//! repeat). Decoding stops when the unpacked length is reached; trailing input is ignored.
//!
//! The compressor exists for the project's own data (sample scene, tests): a greedy hash-chain
//! matcher, deterministic, that any TPWM reader (including the game's) can unpack.

use std::borrow::Cow;

use modex::{ByteReader, ErrorKind, FormatError, FormatResult};

/// The four magic bytes.
pub const MAGIC: &[u8; 4] = b"TPWM";
/// Header size: magic and unpacked length.
pub const HEADER_LEN: usize = 8;
/// Longest copy: `0x0f + 3`.
pub const MAX_COPY: usize = 18;
/// Shortest copy worth a two-byte instruction.
pub const MIN_COPY: usize = 3;
/// Farthest copy distance (12 bits).
pub const MAX_DISTANCE: usize = 4095;
/// Most output one input byte can produce: a two-byte copy of 18 bytes. An unpacked length beyond
/// `input * MAX_RATIO` cannot be real, so it is refused before anything is allocated.
pub const MAX_RATIO: usize = 9;

const FORMAT: &str = "TPWM";

/// Whether `data` starts with the TPWM magic.
pub fn is_tpwm(data: &[u8]) -> bool {
    data.starts_with(MAGIC)
}

/// Whether `data` looks like a TPWM-compressed file (format detection; same as [`is_tpwm`]).
pub fn sniff(data: &[u8]) -> bool {
    is_tpwm(data)
}

/// The unpacked length declared in a TPWM header.
pub fn unpacked_len(data: &[u8]) -> FormatResult<usize> {
    let mut r = ByteReader::new(data, FORMAT);
    r.expect_magic(MAGIC, "magic")?;
    Ok(r.u32("unpacked_length")? as usize)
}

/// Unpack a TPWM-wrapped buffer (header included).
pub fn decompress(data: &[u8]) -> FormatResult<Vec<u8>> {
    let mut out = Vec::new();
    decompress_into(data, &mut out)?;
    Ok(out)
}

/// Unpack a TPWM-wrapped buffer into `out` (cleared first), reusing its allocation.
pub fn decompress_into(data: &[u8], out: &mut Vec<u8>) -> FormatResult<()> {
    let len = unpacked_len(data)?;
    decompress_stream(&data[HEADER_LEN..], len, HEADER_LEN, out)
}

/// Unpack `data` if it carries the TPWM magic, else borrow it unchanged. Archives, entries and frame
/// payloads may each be wrapped, so every level checks.
pub fn unwrap(data: &[u8]) -> FormatResult<Cow<'_, [u8]>> {
    if is_tpwm(data) {
        decompress(data).map(Cow::Owned)
    } else {
        Ok(Cow::Borrowed(data))
    }
}

/// Unpack a bare stream (no header) of `unpacked` bytes into `out`. `base` is the stream's offset in
/// the file, so errors point at the right byte.
pub fn decompress_stream(
    stream: &[u8],
    unpacked: usize,
    base: usize,
    out: &mut Vec<u8>,
) -> FormatResult<()> {
    out.clear();
    let limit = stream.len().saturating_mul(MAX_RATIO);
    if unpacked > limit {
        return Err(FormatError::new(
            FORMAT,
            "unpacked_length",
            base.saturating_sub(4),
            ErrorKind::TooLarge {
                value: unpacked as u64,
                limit: limit as u64,
            },
        ));
    }
    // The output is sized once and written through an index: measured faster than pushing byte
    // by byte (see docs/benchmarks-history.md, "Battle Isle 2 cutscenes").
    out.resize(unpacked, 0);
    let dst = &mut out[..];
    let truncated = |pos: usize, needed: usize, done: usize| {
        FormatError::new(
            FORMAT,
            format!("stream (at unpacked byte {done} of {unpacked})"),
            base + pos,
            ErrorKind::Truncated {
                needed,
                available: stream.len().saturating_sub(pos),
            },
        )
    };
    let mut pos = 0usize;
    let mut o = 0usize;
    while o < unpacked {
        let Some(&flags) = stream.get(pos) else {
            return Err(truncated(pos, 1, o));
        };
        pos += 1;
        // Fast path: eight literals in a row.
        if flags == 0 && o + 8 <= unpacked {
            let Some(lit) = stream.get(pos..pos + 8) else {
                return Err(truncated(pos, 8, o));
            };
            dst[o..o + 8].copy_from_slice(lit);
            o += 8;
            pos += 8;
            continue;
        }
        let mut flags = flags;
        // Fast path: a whole group fits in both the input and the output, so only the distance
        // needs checking per item.
        if pos + 16 <= stream.len() && o + 8 * MAX_COPY <= unpacked {
            let group = &stream[pos..pos + 16];
            let mut g = 0;
            for _ in 0..8 {
                if flags & 0x80 == 0 {
                    dst[o] = group[g];
                    o += 1;
                    g += 1;
                } else {
                    let (a, b) = (group[g], group[g + 1]);
                    let count = (a & 0x0f) as usize + MIN_COPY;
                    let distance = b as usize + ((a >> 4) as usize) * 256;
                    if distance == 0 || distance > o {
                        return Err(FormatError::new(
                            FORMAT,
                            "copy.distance",
                            base + pos + g,
                            ErrorKind::OutOfRange {
                                value: distance as i64,
                                min: 1,
                                max: o as i64,
                            },
                        ));
                    }
                    g += 2;
                    let start = o - distance;
                    if distance >= MAX_COPY {
                        // Copy a fixed 18 bytes (two vector moves, no memcpy call). The bytes
                        // past `count` are overwritten by the items that follow before anything
                        // reads them, and the group's room check keeps them inside the output.
                        let (done, rest) = dst.split_at_mut(o);
                        rest[..MAX_COPY].copy_from_slice(&done[start..start + MAX_COPY]);
                    } else if distance >= count {
                        let (done, rest) = dst.split_at_mut(o);
                        rest[..count].copy_from_slice(&done[start..start + count]);
                    } else if distance == 1 {
                        let v = dst[start];
                        dst[o..o + MAX_COPY].fill(v);
                    } else {
                        for k in 0..count {
                            dst[o + k] = dst[start + k];
                        }
                    }
                    o += count;
                }
                flags <<= 1;
            }
            pos += g;
            continue;
        }
        for _ in 0..8 {
            if o >= unpacked {
                break;
            }
            if flags & 0x80 == 0 {
                let Some(&b) = stream.get(pos) else {
                    return Err(truncated(pos, 1, o));
                };
                dst[o] = b;
                o += 1;
                pos += 1;
            } else {
                let (Some(&a), Some(&b)) = (stream.get(pos), stream.get(pos + 1)) else {
                    return Err(truncated(pos, 2, o));
                };
                let count = ((a & 0x0f) as usize + MIN_COPY).min(unpacked - o);
                let distance = b as usize + ((a >> 4) as usize) * 256;
                if distance == 0 || distance > o {
                    return Err(FormatError::new(
                        FORMAT,
                        "copy.distance",
                        base + pos,
                        ErrorKind::OutOfRange {
                            value: distance as i64,
                            min: 1,
                            max: o as i64,
                        },
                    ));
                }
                pos += 2;
                let start = o - distance;
                if distance >= count {
                    // No overlap: one block copy.
                    let (done, rest) = dst.split_at_mut(o);
                    rest[..count].copy_from_slice(&done[start..start + count]);
                } else if distance == 1 {
                    // A run of one byte, the most common overlap: a fill, not a chain of
                    // dependent loads and stores.
                    let v = dst[start];
                    dst[o..o + count].fill(v);
                } else {
                    // Overlapping copy: byte by byte repeats the last `distance` bytes.
                    for k in 0..count {
                        dst[o + k] = dst[start + k];
                    }
                }
                o += count;
            }
            flags <<= 1;
        }
    }
    Ok(())
}

/// Compress `data` into a TPWM buffer (header included).
pub fn compress(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + data.len() + data.len() / 8 + 1);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    compress_stream(data, &mut out);
    out
}

const HASH_BITS: u32 = 13;
const CHAIN_DEPTH: usize = 48;

fn hash3(d: &[u8], i: usize) -> usize {
    let v = (d[i] as u32) | (d[i + 1] as u32) << 8 | (d[i + 2] as u32) << 16;
    (v.wrapping_mul(2_654_435_761) >> (32 - HASH_BITS)) as usize
}

/// Append the bare stream for `data` to `out`.
fn compress_stream(data: &[u8], out: &mut Vec<u8>) {
    let n = data.len();
    let mut head = vec![usize::MAX; 1 << HASH_BITS];
    let mut prev = vec![usize::MAX; n];
    let insert = |head: &mut Vec<usize>, prev: &mut Vec<usize>, i: usize| {
        if i + MIN_COPY <= n {
            let h = hash3(data, i);
            prev[i] = head[h];
            head[h] = i;
        }
    };
    let mut i = 0;
    let mut flag_at = 0;
    let mut item = 8;
    while i < n {
        if item == 8 {
            flag_at = out.len();
            out.push(0);
            item = 0;
        }
        // Find the longest match within the window.
        let mut best_len = 0;
        let mut best_dist = 0;
        if i + MIN_COPY <= n {
            let max_len = MAX_COPY.min(n - i);
            let mut cand = head[hash3(data, i)];
            let mut depth = 0;
            while cand != usize::MAX && depth < CHAIN_DEPTH {
                let dist = i - cand;
                if dist > MAX_DISTANCE {
                    break;
                }
                // Overlapping matches are allowed: compare as the decoder would produce them.
                let mut l = 0;
                while l < max_len && data[cand + l] == data[i + l] {
                    l += 1;
                }
                if l > best_len {
                    best_len = l;
                    best_dist = dist;
                    if l == max_len {
                        break;
                    }
                }
                cand = prev[cand];
                depth += 1;
            }
        }
        if best_len >= MIN_COPY {
            out[flag_at] |= 0x80 >> item;
            let a = (((best_dist >> 8) as u8) << 4) | (best_len - MIN_COPY) as u8;
            out.push(a);
            out.push((best_dist & 0xff) as u8);
            for k in 0..best_len {
                insert(&mut head, &mut prev, i + k);
            }
            i += best_len;
        } else {
            out.push(data[i]);
            insert(&mut head, &mut prev, i);
            i += 1;
        }
        item += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_and_overlapping_copy() {
        // flag 0b0100_0000: literal 'a', then copy 5 bytes from distance 1.
        let mut data = b"TPWM".to_vec();
        data.extend_from_slice(&6u32.to_le_bytes());
        data.extend_from_slice(&[0x40, b'a', 0x02, 0x01]);
        assert_eq!(decompress(&data).unwrap(), b"aaaaaa");
    }

    #[test]
    fn copy_is_cut_at_the_unpacked_length_and_trailing_input_ignored() {
        let mut data = b"TPWM".to_vec();
        data.extend_from_slice(&4u32.to_le_bytes());
        data.extend_from_slice(&[0x40, b'x', 0x0f, 0x01, 0xde, 0xad]);
        assert_eq!(decompress(&data).unwrap(), b"xxxx");
    }

    #[test]
    fn zero_distance_and_distance_before_start_are_errors() {
        let mut data = b"TPWM".to_vec();
        data.extend_from_slice(&6u32.to_le_bytes());
        data.extend_from_slice(&[0x40, b'a', 0x02, 0x00]);
        let e = decompress(&data).unwrap_err();
        assert!(
            matches!(e.kind, ErrorKind::OutOfRange { value: 0, .. }),
            "{e}"
        );
        assert_eq!(e.offset, 10);
        data[11] = 2;
        let e = decompress(&data).unwrap_err();
        assert!(
            matches!(e.kind, ErrorKind::OutOfRange { value: 2, .. }),
            "{e}"
        );
    }

    #[test]
    fn truncation_and_huge_lengths_are_errors() {
        let mut data = b"TPWM".to_vec();
        data.extend_from_slice(&3u32.to_le_bytes());
        data.extend_from_slice(&[0x00, b'a']);
        assert!(matches!(
            decompress(&data).unwrap_err().kind,
            ErrorKind::Truncated { .. }
        ));
        let mut data = b"TPWM".to_vec();
        data.extend_from_slice(&u32::MAX.to_le_bytes());
        data.extend_from_slice(&[0xff, 0x0f, 0x01]);
        assert!(matches!(
            decompress(&data).unwrap_err().kind,
            ErrorKind::TooLarge { .. }
        ));
        assert!(matches!(
            decompress(b"TPW").unwrap_err().kind,
            ErrorKind::Truncated { .. }
        ));
        assert!(matches!(
            decompress(b"ABCD\0\0\0\0").unwrap_err().kind,
            ErrorKind::BadMagic { .. }
        ));
    }

    #[test]
    fn compressor_round_trips_and_shrinks_repetition() {
        let data: Vec<u8> = (0..5000u32).map(|i| ((i / 7) % 13) as u8).collect();
        let packed = compress(&data);
        assert!(packed.len() < data.len() / 4, "{}", packed.len());
        assert_eq!(decompress(&packed).unwrap(), data);
        assert_eq!(decompress(&compress(&[])).unwrap(), Vec::<u8>::new());
        assert_eq!(unwrap(b"plain").unwrap().as_ref(), b"plain");
        assert_eq!(unwrap(&compress(b"wrapped")).unwrap().as_ref(), b"wrapped");
    }
}
