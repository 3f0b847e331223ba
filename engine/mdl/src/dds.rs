//! Decoding of the DDS files that GameStudio embeds as skin type 6 (DXT1, DXT3, DXT5).
//!
//! Loaders keep a DDS skin's bytes ([`crate::SkinPixels::Dds`]) and fill its RGBA with this
//! decoder, so renderers draw it and export can write it. Only the top mipmap level of the three block-compressed formats
//! of the A6 era is decoded; anything else (uncompressed DDS, DX10 headers, cube maps) is `None`.

/// Width, height and RGBA8 pixels (top row first) of the top level of a DXT1/3/5 DDS file.
pub fn decode(bytes: &[u8]) -> Option<(usize, usize, Vec<u8>)> {
    if bytes.len() < 128 || &bytes[..4] != b"DDS " {
        return None;
    }
    let word =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let (height, width) = (word(12) as usize, word(16) as usize);
    let block_size = match &bytes[84..88] {
        b"DXT1" => 8,
        b"DXT3" | b"DXT5" => 16,
        _ => return None,
    };
    let fourcc = bytes[87];
    if width == 0 || height == 0 || width > 16384 || height > 16384 {
        return None;
    }
    let (bw, bh) = (width.div_ceil(4), height.div_ceil(4));
    let data = bytes.get(128..128 + bw * bh * block_size)?;
    let mut out = vec![0u8; width * height * 4];
    for (i, block) in data.chunks_exact(block_size).enumerate() {
        let (bx, by) = (i % bw, i / bw);
        let texels = match fourcc {
            b'1' => color_block(block, true),
            b'3' => {
                let mut t = color_block(&block[8..], false);
                let alpha = u64::from_le_bytes(block[..8].try_into().ok()?);
                for (k, px) in t.iter_mut().enumerate() {
                    let a = ((alpha >> (4 * k)) & 15) as u8;
                    px[3] = a << 4 | a;
                }
                t
            }
            _ => {
                let mut t = color_block(&block[8..], false);
                let alphas = alpha_table(block[0], block[1]);
                let mut bits = [0u8; 8];
                bits[..6].copy_from_slice(&block[2..8]);
                let idx = u64::from_le_bytes(bits);
                for (k, px) in t.iter_mut().enumerate() {
                    px[3] = alphas[((idx >> (3 * k)) & 7) as usize];
                }
                t
            }
        };
        for (k, px) in texels.iter().enumerate() {
            let (x, y) = (bx * 4 + k % 4, by * 4 + k / 4);
            if x < width && y < height {
                let at = (y * width + x) * 4;
                out[at..at + 4].copy_from_slice(px);
            }
        }
    }
    Some((width, height, out))
}

fn rgb565(c: u16) -> [u32; 3] {
    let c = c as u32;
    let (r, g, b) = (c >> 11, (c >> 5) & 63, c & 31);
    [r << 3 | r >> 2, g << 2 | g >> 4, b << 3 | b >> 2]
}

/// The 16 texels of a DXT colour block. `dxt1` enables the 3-colour + transparent mode.
fn color_block(b: &[u8], dxt1: bool) -> [[u8; 4]; 16] {
    let c0 = u16::from_le_bytes([b[0], b[1]]);
    let c1 = u16::from_le_bytes([b[2], b[3]]);
    let (p0, p1) = (rgb565(c0), rgb565(c1));
    let mix = |w0: u32, w1: u32, d: u32| -> [u8; 4] {
        let m = |k: usize| ((p0[k] * w0 + p1[k] * w1) / d) as u8;
        [m(0), m(1), m(2), 255]
    };
    let four = !dxt1 || c0 > c1;
    let palette = [
        mix(1, 0, 1),
        mix(0, 1, 1),
        if four { mix(2, 1, 3) } else { mix(1, 1, 2) },
        if four { mix(1, 2, 3) } else { [0, 0, 0, 0] },
    ];
    let idx = u32::from_le_bytes([b[4], b[5], b[6], b[7]]);
    std::array::from_fn(|k| palette[((idx >> (2 * k)) & 3) as usize])
}

fn alpha_table(a0: u8, a1: u8) -> [u8; 8] {
    let (a, b) = (a0 as u32, a1 as u32);
    let mut t = [a0, a1, 0, 0, 0, 0, 0, 255];
    if a0 > a1 {
        for i in 1..7 {
            t[i + 1] = ((a * (7 - i as u32) + b * i as u32) / 7) as u8;
        }
    } else {
        for i in 1..5 {
            t[i + 1] = ((a * (5 - i as u32) + b * i as u32) / 5) as u8;
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dds(fourcc: &[u8; 4], w: u32, h: u32, blocks: &[u8]) -> Vec<u8> {
        let mut b = vec![0u8; 128];
        b[..4].copy_from_slice(b"DDS ");
        b[12..16].copy_from_slice(&h.to_le_bytes());
        b[16..20].copy_from_slice(&w.to_le_bytes());
        b[84..88].copy_from_slice(fourcc);
        b.extend_from_slice(blocks);
        b
    }

    #[test]
    fn dxt1_four_and_three_colour_modes() {
        // c0 = red, c1 = blue, c0 > c1: four colours; indices 0,1,2,3 in the first row.
        let block = [0x00, 0xf8, 0x1f, 0x00, 0b1110_0100, 0, 0, 0];
        let (w, h, px) = decode(&dds(b"DXT1", 4, 4, &block)).unwrap();
        assert_eq!((w, h), (4, 4));
        assert_eq!(
            &px[..16],
            &[255, 0, 0, 255, 0, 0, 255, 255, 170, 0, 85, 255, 85, 0, 170, 255]
        );
        // c0 < c1: index 3 is transparent black.
        let block = [0x1f, 0x00, 0x00, 0xf8, 0b1100_0000, 0, 0, 0];
        let (_, _, px) = decode(&dds(b"DXT1", 4, 4, &block)).unwrap();
        assert_eq!(&px[12..16], &[0, 0, 0, 0]);
    }

    #[test]
    fn dxt5_interpolates_alpha_and_clips_odd_sizes() {
        let mut block = [0u8; 16];
        block[0] = 255;
        block[1] = 0;
        block[2] = 0b0000_0001; // texel 0 uses alpha index 1 (= a1 = 0)
        block[8..12].copy_from_slice(&[0xff, 0xff, 0xff, 0xff]);
        let (w, h, px) = decode(&dds(b"DXT5", 3, 2, &block)).unwrap();
        assert_eq!((w, h, px.len()), (3, 2, 24));
        assert_eq!(px[3], 0);
        assert_eq!(px[7], 255);
    }

    #[test]
    fn unknown_or_short_files_are_none() {
        assert!(decode(&dds(b"DXT1", 8, 8, &[0; 8])).is_none()); // needs 4 blocks
        assert!(decode(&dds(b"ATI2", 4, 4, &[0; 16])).is_none());
        assert!(decode(b"DDS ").is_none());
    }
}
