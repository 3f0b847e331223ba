//! The vocabulary of a measurement: a target pixel [`Format`], a frame [`Size`], and the
//! [`Case`] they make with a scene and a thread count. The scenes, the plan, the peers and the
//! reports all speak it, so it stands below every one of them.

use serde::{Deserialize, Serialize};

use crate::error::BenchError;

/// A target pixel format of modex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Format {
    /// 8-bit palette indices (mode X).
    #[serde(rename = "8")]
    Indexed8,
    /// 16-bit RGB 5:6:5.
    #[serde(rename = "565")]
    Rgb565,
    /// 16-bit ARGB 4:4:4:4.
    #[serde(rename = "4444")]
    Argb4444,
    /// 32-bit ARGB 8:8:8:8.
    #[serde(rename = "8888")]
    Argb8888,
}

impl Format {
    /// Every format, in the table's order.
    pub const ALL: [Format; 4] = [
        Format::Indexed8,
        Format::Rgb565,
        Format::Argb4444,
        Format::Argb8888,
    ];

    /// The name the command line, the table and the JSON use: `8`, `565`, `4444`, `8888`.
    pub fn label(self) -> &'static str {
        match self {
            Format::Indexed8 => "8",
            Format::Rgb565 => "565",
            Format::Argb4444 => "4444",
            Format::Argb8888 => "8888",
        }
    }

    /// The format of that name.
    pub fn parse(s: &str) -> Result<Format, BenchError> {
        Format::ALL
            .into_iter()
            .find(|f| f.label() == s.trim())
            .ok_or_else(|| BenchError::Option {
                option: "--formats",
                value: s.to_string(),
                expected: "8, 565, 4444 or 8888",
            })
    }
}

/// A frame size in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Size {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
}

impl Size {
    /// The two standard sizes: VGA and full HD.
    pub const STANDARD: [Size; 2] = [Size::new(640, 480), Size::new(1920, 1080)];
    /// The size the report shows pictures at.
    pub const PICTURES: Size = Size::new(640, 480);

    /// A size of `width` x `height`.
    pub const fn new(width: usize, height: usize) -> Size {
        Size { width, height }
    }

    /// `WxH`, as the JSON's `size` key and `--sizes` write it.
    pub fn label(self) -> String {
        format!("{}x{}", self.width, self.height)
    }

    /// A `WxH` size (1 to 16384 each way).
    pub fn parse(s: &str) -> Result<Size, BenchError> {
        let bad = || BenchError::Option {
            option: "--sizes",
            value: s.to_string(),
            expected: "WIDTHxHEIGHT, each 1 to 16384, e.g. 640x480",
        };
        let (w, h) = s.trim().split_once(['x', 'X']).ok_or_else(bad)?;
        let (w, h): (usize, usize) = (w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?);
        if !(1..=16384).contains(&w) || !(1..=16384).contains(&h) {
            return Err(bad());
        }
        Ok(Size::new(w, h))
    }
}

impl Serialize for Size {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.label())
    }
}

impl<'de> Deserialize<'de> for Size {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Size, D::Error> {
        let s = String::deserialize(d)?;
        Size::parse(&s).map_err(serde::de::Error::custom)
    }
}

/// One measured case: a scene drawn into a format at a size on a number of threads.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Case {
    /// The scene's name (`fill`, `small100k`, `battlefield1000`, ...).
    pub scene: String,
    /// The target format.
    pub format: Format,
    /// The frame size.
    pub size: Size,
    /// Threads modex (and llvmpipe, through `LP_NUM_THREADS`) draw on.
    pub threads: usize,
}

impl Case {
    /// `scene/format/WxH/threads`, e.g. `fill/8888/640x480/1`.
    pub fn id(&self) -> String {
        format!(
            "{}/{}/{}/{}",
            self.scene,
            self.format.label(),
            self.size.label(),
            self.threads
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_formats_parse_as_written_and_refuse_the_rest() {
        assert_eq!(Size::parse("640x480").unwrap(), Size::new(640, 480));
        assert_eq!(Size::parse(" 320X200").unwrap().label(), "320x200");
        for bad in ["640", "0x480", "x", "640x480x2", "99999x1"] {
            assert!(Size::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Format::parse("4444").unwrap(), Format::Argb4444);
        assert!(Format::parse("888").is_err());
    }
}
