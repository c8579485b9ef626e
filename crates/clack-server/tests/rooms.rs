//! The server's rooms use only the rooms below them (ARCHITECTURE.md, `crates/clack-server`).
//!
//! Reads the crate's own source: every `crate::<room>` path outside a comment must name a room
//! lower in [`ORDER`] than the file's own, or one of the files every room may use. A new room
//! goes into the order where it belongs; a path that points upwards is a circle waiting to
//! happen, and this test names the file and line.

use std::path::{Path, PathBuf};

/// The rooms from the bottom up.
const ORDER: [&str; 11] =
    ["cluster", "metrics", "who", "bots", "games", "matches", "ladder", "review", "service", "web", "lib"];

/// What every room may use: the error mapping, paging and the root's clock.
const SHARED: [&str; 3] = ["error", "paging", "now"];

fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the source folder reads") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// The room a source file belongs to: its folder under `src/`, or its own name at the top.
fn room_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).expect("under src");
    let first = relative.components().next().expect("a component").as_os_str().to_string_lossy();
    first.trim_end_matches(".rs").to_owned()
}

/// Every `crate::<name>` a line of code names.
fn named_rooms(line: &str) -> Vec<String> {
    line.match_indices("crate::")
        .map(|(at, _)| {
            let rest = &line[at + "crate::".len()..];
            rest.chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect()
        })
        .collect()
}

fn rank(room: &str) -> Option<usize> {
    ORDER.iter().position(|r| *r == room)
}

#[test]
fn every_room_uses_only_the_rooms_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut upward = Vec::new();
    for file in &files {
        let room = room_of(&src, file);
        if SHARED.contains(&room.as_str()) {
            continue;
        }
        let own = rank(&room).unwrap_or_else(|| panic!("{} is in no room: add it to ORDER", file.display()));
        let text = std::fs::read_to_string(file).expect("reads");
        for (number, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for named in named_rooms(line) {
                if named == room || SHARED.contains(&named.as_str()) {
                    continue;
                }
                match rank(&named) {
                    Some(other) if other < own => {}
                    _ => upward.push(format!("{}:{}: {room} uses {named}", file.display(), number + 1)),
                }
            }
        }
    }
    assert!(upward.is_empty(), "rooms that reach up or sideways:\n{}", upward.join("\n"));
}

#[test]
fn the_top_of_src_holds_the_root_and_the_shared_files_only() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut loose: Vec<String> = std::fs::read_dir(&src)
        .expect("reads")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.is_file())
        .map(|path| path.file_name().expect("a name").to_string_lossy().into_owned())
        .collect();
    loose.sort();
    assert_eq!(loose, ["error.rs", "lib.rs", "paging.rs"]);
}

#[test]
fn a_path_that_reaches_up_is_seen() {
    assert_eq!(named_rooms("use crate::games::hub::Hub; let x = crate::now();"), ["games", "now"]);
    assert!(rank("games") > rank("bots") && rank("bots") > rank("who"));
}
