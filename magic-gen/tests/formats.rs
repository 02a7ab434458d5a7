//! Reading and writing sets through the library: the interchange format and the emitted
//! Rust source round-trip every committed set exactly, and its header (credits too).

mod common;

use std::fs;

use common::{committed, COMMITTED};
use magic_gen::set_file::{Credit, Provenance, Squares, Step};
use magic_gen::{read_set_file, read_set_stream, render_set_file, verify, write_interchange};

#[test]
fn interchange_round_trips_every_committed_set() {
    for name in COMMITTED {
        let (set, _, _) = read_set_file(&committed(name)).unwrap();
        let text = write_interchange(&set, &["a header line".to_string()]);
        let (back, _, _) = read_set_stream("mem.txt", text.as_bytes()).unwrap();
        assert_eq!(back, set, "{name}");
        // Writing again gives the same bytes.
        assert_eq!(
            write_interchange(&back, &["a header line".to_string()]),
            text
        );
    }
}

#[test]
fn emitted_source_round_trips_with_its_provenance() {
    let dir = common::scratch("formats");
    for name in COMMITTED {
        let (set, _, _) = read_set_file(&committed(name)).unwrap();
        let report = verify(&set).unwrap().report;
        // Quoted words and two steps come back as written.
        let command = format!(
            r"magic-gen search --variant {name} --out 'a b.rs'; then magic-gen emit 'a b.rs' --out 'it'\''s.rs'"
        );
        let provenance = Provenance {
            seed: Some(9),
            steps: Step::parse_chain(&command).unwrap(),
            unfinished: Some("the scan stopped: 3 of 128 squares unfinished fell back".into()),
            credits: vec![
                Credit {
                    authors: "A. Author, improved by B. Author".into(),
                    source: "a forum thread \"Magics\", 2017; the set shipped by a crate".into(),
                    squares: Squares {
                        bits: [0b1011, 1 << 63],
                    },
                },
                Credit::unrecorded("sets/other.txt", Squares { bits: [1 << 40, 0] }),
            ],
        };
        let path = dir.join(format!("{name}.rs"));
        let source = render_set_file(&path, &set, &report, &provenance);
        assert!(
            source.contains(&format!("\n// command: {command}\n")),
            "{source}"
        );
        std::fs::write(&path, &source).unwrap();
        let (back, prov, _) = read_set_file(&path).unwrap();
        assert_eq!(back, set, "{name}");
        assert_eq!(prov, provenance);
        // The interchange format keeps it too, in its comment header.
        let path = dir.join(format!("{name}.txt"));
        std::fs::write(&path, render_set_file(&path, &set, &report, &provenance)).unwrap();
        let (back, prov, _) = read_set_file(&path).unwrap();
        assert_eq!(back, set, "{name}");
        assert_eq!(prov, provenance);
    }
}

#[test]
fn interchange_accepts_comments_any_order_and_underscores() {
    let (set, _, _) = read_set_file(&committed("fancy")).unwrap();
    let text = write_interchange(&set, &[]);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // Entries in reverse order, a magic with underscores, CRLF endings and trailing comments.
    let variant_at = lines.iter().position(|l| l.starts_with("variant")).unwrap();
    lines[variant_at + 1..].reverse();
    let last = lines.len() - 1;
    let fields: Vec<String> = lines[last].split_whitespace().map(str::to_string).collect();
    let hex = &fields[2][2..];
    lines[last] = format!(
        "{} {} 0x{}_{} {} {}  # rook a1",
        fields[0],
        fields[1],
        &hex[..8],
        &hex[8..],
        fields[3],
        fields[4]
    );
    let crlf = lines.join("\r\n");
    assert_eq!(read_set_stream("mem.txt", crlf.as_bytes()).unwrap().0, set);
}

/// A UTF-8 byte-order mark, which some editors write first, is no part of the set: it
/// reads as the same file without it, in either format.
#[test]
fn a_byte_order_mark_is_read_past() {
    let dir = common::scratch("byte-order-mark");
    for (source, name) in [
        (common::Published::Black.path(), "black.txt"),
        (committed("fancy"), "fancy.rs"),
    ] {
        let mut bytes = "\u{feff}".as_bytes().to_vec();
        bytes.extend(fs::read(&source).unwrap());
        fs::write(dir.join(name), &bytes).unwrap();
        assert_eq!(
            read_set_file(&dir.join(name)).unwrap().0,
            read_set_file(&source).unwrap().0,
            "{name}"
        );
    }
}
