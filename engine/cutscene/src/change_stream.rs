//! The XOR change stream of BBHD frame types 2 and 3.
//!
//! The stream walks the picture the way VGA mode-X memory is laid out: plane 0..3, then the columns
//! `x = plane, plane + 4, ...`, then rows top to bottom. Each column is a list of segments
//! `y_start count data` ending with a 0 byte; `y_start` is 1-based; a positive `count` is followed by
//! that many values, a negative one by one value repeated `-count` times. Values are XORed into the
//! old pixels, so applying a stream twice restores the picture (which is how backward play works).
//! Most shipped streams carry 20 more bytes `00 01 .. 13` after the last column; they are not part of
//! the stream and are ignored.

use modex::{ErrorKind, FormatError, FormatResult};

const FORMAT: &str = "BBHD";

/// The 20 bytes the original tool wrote after most compressed change streams.
pub const TRAILING_COUNTER: [u8; 20] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
];

/// Longest run of different values in one segment.
const MAX_LITERAL: usize = 127;
/// Longest run of one repeated value in one segment.
const MAX_REPEAT: usize = 128;
/// Highest row a segment can start at (`y_start` is one byte, 1-based).
pub const MAX_START_ROW: usize = 254;

/// Encoder and decoder of change streams for pictures of one size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChangeStream {
    /// Picture width in pixels.
    pub width: usize,
    /// Picture height in pixels.
    pub height: usize,
}

impl ChangeStream {
    /// The streams of `width` x `height` pictures.
    pub fn new(width: usize, height: usize) -> Self {
        ChangeStream { width, height }
    }

    /// XOR `stream` into `picture` (row-major, `width * height`). Returns the bytes the stream used;
    /// anything after it (the trailing counter) is ignored. `base` is the stream's offset in the file
    /// for error messages. A segment running past the bottom of a column is an error.
    pub fn apply(&self, stream: &[u8], picture: &mut [u8], base: usize) -> FormatResult<usize> {
        let (w, h) = (self.width, self.height);
        if picture.len() != w * h {
            return Err(FormatError::invalid(
                FORMAT,
                "picture",
                base,
                format!("{} bytes for a {w}x{h} picture", picture.len()),
            ));
        }
        let truncated = |pos: usize| {
            FormatError::new(
                FORMAT,
                "change_stream",
                base + pos,
                ErrorKind::Truncated {
                    needed: 1,
                    available: 0,
                },
            )
        };
        let mut pos = 0usize;
        for plane in 0..4.min(w) {
            for x in (plane..w).step_by(4) {
                loop {
                    let y_start = *stream.get(pos).ok_or_else(|| truncated(pos))? as usize;
                    if y_start == 0 {
                        pos += 1;
                        break;
                    }
                    let count = *stream.get(pos + 1).ok_or_else(|| truncated(pos + 1))? as i8;
                    let y = y_start - 1;
                    let n = count.unsigned_abs() as usize;
                    if y + n > h {
                        return Err(FormatError::new(
                            FORMAT,
                            format!("change_stream.column[x={x}].segment"),
                            base + pos,
                            ErrorKind::OutOfRange {
                                value: (y + n) as i64,
                                min: 0,
                                max: h as i64,
                            },
                        ));
                    }
                    pos += 2;
                    let mut at = y * w + x;
                    if count > 0 {
                        let values = stream.get(pos..pos + n).ok_or_else(|| truncated(pos))?;
                        for &v in values {
                            picture[at] ^= v;
                            at += w;
                        }
                        pos += n;
                    } else if count < 0 {
                        let v = *stream.get(pos).ok_or_else(|| truncated(pos))?;
                        for _ in 0..n {
                            picture[at] ^= v;
                            at += w;
                        }
                        pos += 1;
                    }
                }
            }
        }
        Ok(pos)
    }

    /// The stream that turns `prev` into `next`, or `None` when a change starts below row 255 (the
    /// format cannot address it; store a whole picture instead).
    pub fn encode(&self, prev: &[u8], next: &[u8]) -> Option<Vec<u8>> {
        let (w, h) = (self.width, self.height);
        assert_eq!(prev.len(), w * h, "prev picture size");
        assert_eq!(next.len(), w * h, "next picture size");
        let mut out = Vec::new();
        let mut col = vec![0u8; h];
        for plane in 0..4.min(w) {
            for x in (plane..w).step_by(4) {
                for (y, c) in col.iter_mut().enumerate() {
                    *c = prev[y * w + x] ^ next[y * w + x];
                }
                encode_column(&col, &mut out)?;
                out.push(0);
            }
        }
        Some(out)
    }
}

/// Length of the run of `col[y]`'s value starting at `y`.
fn run_len(col: &[u8], y: usize) -> usize {
    col[y..].iter().take_while(|&&v| v == col[y]).count()
}

fn encode_column(col: &[u8], out: &mut Vec<u8>) -> Option<()> {
    let h = col.len();
    let mut y = 0;
    while y < h {
        if col[y] == 0 {
            y += 1;
            continue;
        }
        if y > MAX_START_ROW {
            return None;
        }
        let run = run_len(col, y);
        if run >= 3 {
            let n = run.min(MAX_REPEAT);
            out.push((y + 1) as u8);
            out.push((-(n as i32)) as i8 as u8);
            out.push(col[y]);
            y += n;
            continue;
        }
        // Different values: extend while no long repeat starts and no gap of two zeros begins
        // (a single zero inside costs one byte, a new segment two).
        let start = y;
        let mut end = y;
        while end < h && end - start < MAX_LITERAL {
            if col[end] == 0 && (end + 1 >= h || col[end + 1] == 0) {
                break;
            }
            if end > start && run_len(col, end) >= 3 {
                break;
            }
            end += 1;
        }
        out.push((start + 1) as u8);
        out.push((end - start) as u8);
        out.extend_from_slice(&col[start..end]);
        y = end;
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn applies_the_documented_example() {
        // 5x3 picture: column x=1 (plane 1) gets rows 2..3 = [7, 8]; x=4 (plane 0) gets 3 x 9.
        let cs = ChangeStream::new(5, 3);
        let mut pic = vec![0u8; 15];
        let mut stream = vec![];
        stream.push(0); // plane 0, x=0
        stream.extend_from_slice(&[1, 0xfd, 9, 0]); // plane 0, x=4: rows 0..3 = 9
        stream.extend_from_slice(&[2, 2, 7, 8, 0]); // plane 1, x=1
        stream.extend_from_slice(&[0, 0]); // plane 2 (x=2), plane 3 (x=3)
        stream.extend_from_slice(&TRAILING_COUNTER);
        let used = cs.apply(&stream, &mut pic, 0).unwrap();
        assert_eq!(used, stream.len() - 20);
        assert_eq!(pic[4], 9);
        assert_eq!(pic[5 + 4], 9);
        assert_eq!(pic[10 + 4], 9);
        assert_eq!(pic[5 + 1], 7);
        assert_eq!(pic[10 + 1], 8);
        assert_eq!(pic.iter().filter(|&&p| p != 0).count(), 5);
        // Applying again restores the picture.
        cs.apply(&stream, &mut pic, 0).unwrap();
        assert!(pic.iter().all(|&p| p == 0));
    }

    #[test]
    fn overruns_and_truncation_are_errors() {
        let cs = ChangeStream::new(1, 2);
        let mut pic = vec![0u8; 2];
        assert!(cs.apply(&[2, 2, 1, 1, 0], &mut pic, 0).is_err());
        assert!(cs.apply(&[1, 2, 1], &mut pic, 0).is_err());
        assert!(cs.apply(&[], &mut pic, 0).is_err());
        assert_eq!(cs.apply(&[1, 0xfe, 5, 0], &mut pic, 0).unwrap(), 4);
        assert_eq!(pic, [5, 5]);
    }

    #[test]
    fn encoder_refuses_rows_it_cannot_address() {
        let cs = ChangeStream::new(1, 300);
        let prev = vec![0u8; 300];
        let mut next = prev.clone();
        next[290] = 1;
        assert!(cs.encode(&prev, &next).is_none());
        next[290] = 0;
        next[254] = 1;
        let s = cs.encode(&prev, &next).unwrap();
        let mut pic = prev.clone();
        cs.apply(&s, &mut pic, 0).unwrap();
        assert_eq!(pic, next);
    }
}
