//! What a game's scripts tell the search: the folders their PATH statements add, and the scripts
//! they include. Two languages: C-Script/WDL (`.wdl`: `PATH "models";`, `include <doors.wdl>;`,
//! keywords in any case) and lite-C (`.c`/`.h`: `#define PRAGMA_PATH "Assets"`,
//! `#include "doors.c"`, as A8 reads them). Comments are skipped, so a commented-out PATH adds
//! nothing, as in the engine.

use std::path::Path;

/// What one script says.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Script {
    /// The folders of its PATH statements, as written, in order.
    pub paths: Vec<String>,
    /// The files it includes, as written, in order.
    pub includes: Vec<String>,
}

/// Which language a file is, by its extension; `None` for anything else.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Language {
    /// C-Script and WDL (A4..A7; in A8 the start-up `.wdl` beside the main script).
    Wdl,
    /// lite-C (A7.7, A8).
    LiteC,
}

impl Language {
    /// The language of `path` by its extension, in any case.
    pub fn of(path: &Path) -> Option<Language> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "wdl" => Some(Language::Wdl),
            "c" | "h" => Some(Language::LiteC),
            _ => None,
        }
    }
}

/// A script's bytes as text: UTF-8 when valid, else Windows-1252 (scripts were written on the
/// same Windows as the levels, so a folder `Rüstungen` is `R\xfcstungen`).
pub fn text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => modex::windows1252::decode(bytes),
    }
}

/// Whether a lite-C file is a GameStudio script (it includes the engine's header or sets a
/// PRAGMA_PATH): a `.c` of some other program in a folder above a level is not a game's root.
pub fn is_game_script(language: Language, text: &str) -> bool {
    match language {
        Language::Wdl => true,
        Language::LiteC => text.contains("acknex.h") || text.contains("PRAGMA_PATH"),
    }
}

/// The text without its `//` and `/* */` comments (each comment left as one space), string
/// literals kept whole so `"http://x"` is not cut.
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                out.push(c);
                for d in chars.by_ref() {
                    out.push(d);
                    if d == '"' || d == '\n' {
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'/') => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for d in chars.by_ref() {
                    if last == '*' && d == '/' {
                        break;
                    }
                    last = d;
                }
                out.push(' ');
            }
            _ => out.push(c),
        }
    }
    out
}

/// The quoted (`"x"`) or, with `angled`, bracketed (`<x>`) operand at the start of `rest` after
/// spaces and tabs.
fn operand(rest: &str, angled: bool) -> Option<&str> {
    let rest = rest.trim_start_matches([' ', '\t']);
    let close = match rest.chars().next()? {
        '"' => '"',
        '<' if angled => '>',
        _ => return None,
    };
    let body = &rest[1..];
    let end = body.find([close, '\n'])?;
    (body.as_bytes()[end] == close as u8).then(|| &body[..end])
}

/// Every occurrence of the whole word `word` in `text` (compared as `fold` says), with the text
/// after it. A word is whole when no letter, digit or `_` touches it.
fn words<'a>(text: &'a str, word: &str, any_case: bool) -> impl Iterator<Item = &'a str> + 'a {
    let word = if any_case {
        word.to_ascii_lowercase()
    } else {
        word.to_string()
    };
    let hay = if any_case {
        text.to_ascii_lowercase()
    } else {
        text.to_string()
    };
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(i) = hay[from..].find(&word) {
        let at = from + i;
        from = at + word.len();
        let before = hay[..at].chars().next_back();
        let after = hay[from..].chars().next();
        if !before.is_some_and(ident) && !after.is_some_and(ident) {
            found.push(from);
        }
    }
    found.into_iter().map(move |end| &text[end..])
}

/// What a script in `language` says.
pub fn parse(language: Language, text: &str) -> Script {
    let text = strip_comments(text);
    let (paths, includes) = match language {
        Language::Wdl => (
            words(&text, "path", true)
                .filter_map(|r| operand(r, false))
                .map(str::to_string)
                .collect(),
            words(&text, "include", true)
                .filter_map(|r| operand(r, true))
                .map(str::to_string)
                .collect(),
        ),
        Language::LiteC => (
            words(&text, "PRAGMA_PATH", false)
                .filter_map(|r| operand(r, false))
                .map(str::to_string)
                .collect(),
            words(&text, "include", false)
                .filter_map(|r| operand(r, true))
                .map(str::to_string)
                .collect(),
        ),
    };
    Script { paths, includes }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wdl_paths_and_includes_in_any_case_without_comments() {
        let text =
            "PATH \"..\\\\Assets\";\npath \"models\"; // path \"no\"\n/* PATH \"none\"; */\n\
                    mypath \"no\";\nInclude <doors.wdl>;\nstring s = \"http://x\"; path \"last\";";
        let s = parse(Language::Wdl, text);
        assert_eq!(s.paths, ["..\\\\Assets", "models", "last"]);
        assert_eq!(s.includes, ["doors.wdl"]);
    }

    #[test]
    fn lite_c_paths_are_pragma_path_defines() {
        let text = "#include <acknex.h>\n#include \"config.h\"\n#define PRAGMA_LEVEL \"x.wmp\"\n\
                    #define PRAGMA_PATH \"Source\"\n//#define PRAGMA_PATH \"Old\"\n\
                    #define  PRAGMA_PATH\t\"Assets\"\nSTRING* path = \"no\";";
        let s = parse(Language::LiteC, text);
        assert_eq!(s.paths, ["Source", "Assets"]);
        assert_eq!(s.includes, ["acknex.h", "config.h"]);
        assert!(is_game_script(Language::LiteC, text));
        assert!(!is_game_script(
            Language::LiteC,
            "int main(void) { return 0; }"
        ));
    }

    #[test]
    fn scripts_in_1252_are_read_as_such() {
        let s = parse(Language::Wdl, &text(b"PATH \"R\xfcstungen\";"));
        assert_eq!(s.paths, ["Rüstungen"]);
        assert_eq!(Language::of(Path::new("MAIN.WDL")), Some(Language::Wdl));
    }
}
