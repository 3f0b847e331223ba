//! ASCR scene scripts: DOS text, one command per line, `name ( a, b, ... )`.
//!
//! Command names are case-insensitive (the scripts mix `End` and `BLEND`). `rem` lines are comments;
//! `remplay` and `remwrite` are commented-out commands. Text after the closing bracket (such as `gto`)
//! has no known effect and is ignored. Malformed lines are errors naming line and column.

use modex::{FormatError, FormatResult};

const FORMAT: &str = "ASCR";
/// Longest script accepted (shipped scripts are a few kilobytes).
pub const MAX_SCRIPT: usize = 1 << 20;
/// The script's clock: every tick argument (BGN, DUR, `End`, fade begin and end) counts 1/25 s
/// (40 ms) from the start of the scene. It belongs to the script, not to whoever plays it: scene
/// lengths, the sequencer, the sound and the player's transport all count in it.
pub const TICKS_PER_SECOND: u32 = 25;

/// Arguments of `play`, named as in the authors' own `rem` lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Play {
    /// EFF: effect; not 0 draws the clip's transparent index see-through (clips whose records stand alone only).
    pub eff: i32,
    /// LNA: archive family: 31 `ABCK###.LIB`, 32 `APER###.LIB`, 36 `AFUL###.LIB` (in `ANI`).
    pub lna: i32,
    /// LNR: archive number (`AFUL000.LIB` is 0).
    pub lnr: i32,
    /// ENR: the clip's entry in the archive, in name order.
    pub enr: i32,
    /// PMO: play mode 0..7 (see [`crate::picture_for_step`]).
    pub pmo: i32,
    /// FRQ: pictures per second, independent of the 25 ticks per second.
    pub frq: i32,
    /// BGN: first tick shown.
    pub bgn: i32,
    /// DUR: ticks shown.
    pub dur: i32,
    /// END: after DUR, 0 nothing more is drawn, 1 picture step 0 at the final position, 2 the picture reached.
    pub end: i32,
    /// PRI: drawing order; higher is drawn later, on top.
    pub pri: i32,
    /// STX: start column inside the window.
    pub stx: i32,
    /// STY: start row inside the window.
    pub sty: i32,
    /// DTX: columns moved per picture step.
    pub dtx: i32,
    /// DTY: rows moved per picture step.
    pub dty: i32,
    /// WIL: window left edge on screen.
    pub wil: i32,
    /// WIT: window top edge on screen.
    pub wit: i32,
    /// WIW: window width (0 or less: to the screen's right edge).
    pub wiw: i32,
    /// WIH: window height (0 or less: to the screen's bottom edge).
    pub wih: i32,
}

/// Arguments of `write`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Write {
    /// TNA: text archive family (not used: every message is in `ENG/ATXT###.LIB`).
    pub tna: i32,
    /// TNR: text archive number (`ATXT000.LIB` is 0).
    pub tnr: i32,
    /// TID: the message's entry in the archive, in name order.
    pub tid: i32,
    /// BGN: first tick shown.
    pub bgn: i32,
    /// DUR: ticks shown.
    pub dur: i32,
    /// PRI: drawing order; higher is drawn later, on top.
    pub pri: i32,
    /// 100: shown at once; 101: typed out with a cursor.
    pub sty: i32,
    /// SCO: meaning unknown; kept, not used.
    pub sco: i32,
    /// PMA: meaning unknown; kept, not used.
    pub pma: i32,
    /// PMB: meaning unknown; kept, not used.
    pub pmb: i32,
    /// PMC: meaning unknown; kept, not used.
    pub pmc: i32,
    /// 0 left, 1 justified, 2 right, 3 centred.
    pub alg: i32,
    /// BBH: meaning unknown; kept, not used.
    pub bbh: i32,
    /// WIL: text box left edge on screen.
    pub wil: i32,
    /// WIT: text box top edge on screen.
    pub wit: i32,
    /// WIW: text box width, where lines wrap (0 or less: to the screen's right edge).
    pub wiw: i32,
    /// WIH: text box height (0 or less: to the screen's bottom edge).
    pub wih: i32,
}

/// Arguments of `fx`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Fx {
    /// Mixer channel (a new sound on a channel replaces the one it played).
    pub channel: i32,
    /// Sound bank: `ENG/AFXS###.LIB`.
    pub bank: i32,
    /// The sound's entry in the bank, in name order.
    pub sound: i32,
    /// Tick, or -1 (each typed character) / -2 (each line return) of typed text.
    pub bgn: i32,
    /// 0..=127.
    pub volume: i32,
    /// Times played; 0 or less loops until `fxstop` (a guess).
    pub repeat: i32,
}

/// A palette reference `(selector, archive, entry)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PaletteRef {
    /// First argument; its meaning is unknown (15 in shipped scripts).
    pub selector: i32,
    /// Palette archive: `ANI/APAL###.LIB`.
    pub archive: i32,
    /// The palette's entry in the archive, in name order.
    pub entry: i32,
}

/// Arguments of `BLEND`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Blend {
    /// The palette the fade starts from.
    pub from: PaletteRef,
    /// The palette it ends on.
    pub to: PaletteRef,
    /// First colour index faded.
    pub low: i32,
    /// Last colour index faded.
    pub high: i32,
    /// Tick the fade starts.
    pub begin: i32,
    /// Tick it ends (fades last at most [`crate::MAX_FADE_TICKS`]).
    pub end: i32,
}

/// Arguments of `clear`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Clear {
    /// Tick of the fill.
    pub begin: i32,
    /// Colour index.
    pub colour: i32,
    /// Left edge.
    pub left: i32,
    /// Top edge.
    pub top: i32,
    /// Width in pixels.
    pub width: i32,
    /// Height in pixels.
    pub height: i32,
}

/// One command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `play`: show a clip.
    Play(Play),
    /// `fx`: start a sound.
    Fx(Fx),
    /// `fxstop(tick)` stops every channel; `fxstop(channel, tick)` one channel.
    FxStop {
        /// The channel, or every channel.
        channel: Option<i32>,
        /// When.
        tick: i32,
    },
    /// `write`: show a message in a text box.
    Write(Write),
    /// `initpal`: the palette the scene starts on.
    InitPal(PaletteRef),
    /// `BLEND`: fade a range of colours from one palette to another.
    Blend(Blend),
    /// `clear`: fill a rectangle of the screen.
    Clear(Clear),
    /// `End(tick)`: the scene's length.
    End(i32),
    /// Schedules an FM/audio request whose resource is not known; kept, not played.
    FmStart(Vec<i32>),
    /// `rem`, `remplay`, `remwrite`: the text after the keyword.
    Rem(String),
}

/// A command with its 1-based line number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number in the file (0 for a line put in by a program).
    pub line: usize,
    /// What it says.
    pub command: Command,
}

/// A parsed script.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Script {
    /// The commands in file order (blank lines left out).
    pub lines: Vec<Line>,
}

impl Script {
    /// Commands in order.
    pub fn commands(&self) -> impl Iterator<Item = &Command> {
        self.lines.iter().map(|l| &l.command)
    }

    /// The `End` tick, if any (the last one wins).
    pub fn end_tick(&self) -> Option<i32> {
        self.commands()
            .filter_map(|c| match c {
                Command::End(t) => Some(*t),
                _ => None,
            })
            .last()
    }

    /// Commands other than comments.
    pub fn command_count(&self) -> usize {
        self.commands()
            .filter(|c| !matches!(c, Command::Rem(_)))
            .count()
    }
}

/// Parse a script. Bytes from a DOS end-of-file mark (0x1a) on are ignored.
pub fn parse_script(data: &[u8]) -> FormatResult<Script> {
    if data.len() > MAX_SCRIPT {
        return Err(FormatError::new(
            FORMAT,
            "script",
            0,
            modex::ErrorKind::TooLarge {
                value: data.len() as u64,
                limit: MAX_SCRIPT as u64,
            },
        ));
    }
    let end = data.iter().position(|&b| b == 0x1a).unwrap_or(data.len());
    let mut lines = Vec::new();
    let mut offset = 0;
    for (n, raw) in data[..end].split(|&b| b == b'\n').enumerate() {
        let line_offset = offset;
        offset += raw.len() + 1;
        let text: String = modex::cp437::decode(raw);
        if let Some(command) = parse_line(&text, n + 1, line_offset)? {
            lines.push(Line {
                line: n + 1,
                command,
            });
        }
    }
    Ok(Script { lines })
}

fn err(line: usize, col: usize, offset: usize, why: impl Into<String>) -> FormatError {
    FormatError::invalid(FORMAT, format!("line {line}, column {col}"), offset, why)
}

fn parse_line(text: &str, line: usize, offset: usize) -> FormatResult<Option<Command>> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() && chars[i].is_whitespace() {
        i += 1;
    }
    if i == chars.len() {
        return Ok(None);
    }
    let name_start = i;
    while i < chars.len() && chars[i].is_ascii_alphabetic() {
        i += 1;
    }
    let name: String = chars[name_start..i]
        .iter()
        .collect::<String>()
        .to_ascii_lowercase();
    // Byte offset of a char column (the text is decoded one byte per char).
    let at = |col: usize| offset + col;
    if name.starts_with("rem") {
        let rest: String = chars[i..].iter().collect();
        return Ok(Some(Command::Rem(rest.trim().to_string())));
    }
    if name.is_empty() {
        return Err(err(
            line,
            i + 1,
            at(i),
            format!("expected a command, found {:?}", chars[i]),
        ));
    }
    let expected: Option<std::ops::RangeInclusive<usize>> = match name.as_str() {
        "play" => Some(18..=18),
        "fx" => Some(6..=6),
        "fxstop" => Some(1..=2),
        "write" => Some(17..=17),
        "initpal" => Some(3..=3),
        "blend" => Some(10..=10),
        "clear" => Some(6..=6),
        "end" => Some(1..=1),
        "fmstart" => Some(0..=32),
        _ => None,
    };
    let Some(expected) = expected else {
        return Err(err(
            line,
            name_start + 1,
            at(name_start),
            format!("unknown command `{name}`"),
        ));
    };
    while i < chars.len() && chars[i].is_whitespace() {
        i += 1;
    }
    if chars.get(i) != Some(&'(') {
        return Err(err(
            line,
            i + 1,
            at(i),
            format!("expected `(` after `{name}`"),
        ));
    }
    i += 1;
    let mut args = Vec::new();
    loop {
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        if chars.get(i) == Some(&')') && args.is_empty() {
            i += 1;
            break;
        }
        let start = i;
        if matches!(chars.get(i), Some('-') | Some('+')) {
            i += 1;
        }
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        let num: String = chars[start..i].iter().collect();
        let value: i32 = num.parse().map_err(|_| {
            err(
                line,
                start + 1,
                at(start),
                match chars.get(start) {
                    Some(c) => format!("expected a number, found {c:?}"),
                    None => "expected a number, found the end of the line".to_string(),
                },
            )
        })?;
        args.push(value);
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        match chars.get(i) {
            Some(',') => i += 1,
            Some(')') => {
                i += 1;
                break;
            }
            Some(c) => {
                return Err(err(
                    line,
                    i + 1,
                    at(i),
                    format!("expected `,` or `)`, found {c:?}"),
                ))
            }
            None => return Err(err(line, i + 1, at(i), "missing `)`")),
        }
    }
    // Anything after `)` is stray text with no known effect.
    let _ = i;
    if !expected.contains(&args.len()) {
        return Err(err(
            line,
            name_start + 1,
            at(name_start),
            format!(
                "`{name}` takes {} arguments, found {}",
                if expected.start() == expected.end() {
                    expected.start().to_string()
                } else {
                    format!("{}..{}", expected.start(), expected.end())
                },
                args.len()
            ),
        ));
    }
    let a = &args;
    Ok(Some(match name.as_str() {
        "play" => Command::Play(Play {
            eff: a[0],
            lna: a[1],
            lnr: a[2],
            enr: a[3],
            pmo: a[4],
            frq: a[5],
            bgn: a[6],
            dur: a[7],
            end: a[8],
            pri: a[9],
            stx: a[10],
            sty: a[11],
            dtx: a[12],
            dty: a[13],
            wil: a[14],
            wit: a[15],
            wiw: a[16],
            wih: a[17],
        }),
        "fx" => Command::Fx(Fx {
            channel: a[0],
            bank: a[1],
            sound: a[2],
            bgn: a[3],
            volume: a[4],
            repeat: a[5],
        }),
        "fxstop" => match a.len() {
            1 => Command::FxStop {
                channel: None,
                tick: a[0],
            },
            _ => Command::FxStop {
                channel: Some(a[0]),
                tick: a[1],
            },
        },
        "write" => Command::Write(Write {
            tna: a[0],
            tnr: a[1],
            tid: a[2],
            bgn: a[3],
            dur: a[4],
            pri: a[5],
            sty: a[6],
            sco: a[7],
            pma: a[8],
            pmb: a[9],
            pmc: a[10],
            alg: a[11],
            bbh: a[12],
            wil: a[13],
            wit: a[14],
            wiw: a[15],
            wih: a[16],
        }),
        "initpal" => Command::InitPal(PaletteRef {
            selector: a[0],
            archive: a[1],
            entry: a[2],
        }),
        "blend" => Command::Blend(Blend {
            from: PaletteRef {
                selector: a[0],
                archive: a[1],
                entry: a[2],
            },
            to: PaletteRef {
                selector: a[3],
                archive: a[4],
                entry: a[5],
            },
            low: a[6],
            high: a[7],
            begin: a[8],
            end: a[9],
        }),
        "clear" => Command::Clear(Clear {
            begin: a[0],
            colour: a[1],
            left: a[2],
            top: a[3],
            width: a[4],
            height: a[5],
        }),
        "end" => Command::End(a[0]),
        "fmstart" => Command::FmStart(args.clone()),
        _ => unreachable!("names were checked above"),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_example_from_the_spec() {
        let text = b"initpal (15, 0, 1)\r\nrem EFF,LNA,LNR,ENR,PMO,FRQ)\r\n\
play ( 1, 32, 0, 43, 0, 8, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0,120, 64)\r\n\
PLAY ( 3, 31, 0, 69, 0, 12, 10,290, 2, 0, 0, 0, 0, 0, 0, 0,120, 64) gto\r\n\
fx (50,0,21,001,127,1)\r\nEnd ( 300 )\r\n\x1ajunk(";
        let s = parse_script(text).unwrap();
        assert_eq!(s.lines.len(), 6);
        assert_eq!(s.command_count(), 5);
        assert_eq!(s.end_tick(), Some(300));
        let Command::Play(p) = &s.lines[3].command else {
            panic!()
        };
        assert_eq!(
            (p.eff, p.lna, p.enr, p.frq, p.dur, p.end, p.wih),
            (3, 31, 69, 12, 290, 2, 64)
        );
        assert_eq!(s.lines[3].line, 4);
        assert_eq!(
            s.lines[4].command,
            Command::Fx(Fx {
                channel: 50,
                bank: 0,
                sound: 21,
                bgn: 1,
                volume: 127,
                repeat: 1
            })
        );
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse_script(b"End(1)\nplay (1, 2, x)").unwrap_err();
        assert_eq!(e.field, "line 2, column 13");
        assert_eq!(e.offset, 7 + 12);
        let e = parse_script(b"fx (1,2,3)").unwrap_err();
        assert!(e.to_string().contains("takes 6 arguments, found 3"), "{e}");
        let e = parse_script(b"  jump(1)").unwrap_err();
        assert_eq!(e.field, "line 1, column 3");
        assert!(parse_script(b"End (1").is_err());
        assert!(parse_script(b"End 1").is_err());
        assert!(parse_script(b"(1)").is_err());
        assert_eq!(
            parse_script(b"remplay (1,2)\nfxstop(3)\nfxstop(2, 9)\nfmstart()")
                .unwrap()
                .lines[1..]
                .iter()
                .map(|l| l.command.clone())
                .collect::<Vec<_>>(),
            vec![
                Command::FxStop {
                    channel: None,
                    tick: 3
                },
                Command::FxStop {
                    channel: Some(2),
                    tick: 9
                },
                Command::FmStart(vec![]),
            ]
        );
    }
}
