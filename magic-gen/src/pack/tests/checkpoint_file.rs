//! The checkpoint file's tests: a pack checkpoint through its text, damaged files, several
//! packings' sections.

use super::*;

/// Returns `c` written to a checkpoint file and read back.
fn through_text(c: &PackCheckpoint) -> PackCheckpoint {
    let text = PackCheckpoint::file_text(std::slice::from_ref(c));
    let mut read = PackCheckpoint::parse_file("p.pack", text.as_bytes()).unwrap();
    assert_eq!(read.len(), 1, "one packing, one section");
    read.remove(0)
}

#[test]
fn a_packing_resumed_from_any_checkpoint_ends_as_an_uninterrupted_one() {
    const MOVES: u64 = 2000;
    let mut by_length = None;
    for (negative_offsets, spread) in [(false, 0.0), (true, 0.0), (false, 0.03)] {
        let pools = random_pools(5);
        let packing = PackSettings {
            spread,
            ..packing(MOVES, negative_offsets)
        };
        let go = AtomicBool::new(false);
        let (whole, every) = packed_from(&pools, packing, None, &go).unwrap();
        // The spread changes which moves are kept.
        if !negative_offsets {
            match &by_length {
                None => by_length = every.last().cloned(),
                Some(other) => assert_ne!(other.squares, every.last().unwrap().squares),
            }
        }
        assert_eq!(every.len(), MOVES as usize);
        assert!(every
            .iter()
            .enumerate()
            .all(|(k, c)| c.moves == k as u64 + 1));
        // Stopped before its first move: the checkpoint of move 0.
        let halt = AtomicBool::new(true);
        let (greedy, at_zero) = packed_from(&pools, packing, None, &halt).unwrap();
        assert_eq!(greedy, packed(&pools, 0, negative_offsets));
        assert_eq!((at_zero.len(), at_zero[0].moves), (1, 0));
        let mut from = vec![&at_zero[0]];
        from.extend([1, 2, 3, 17, 300, MOVES - 1, MOVES].map(|k| &every[k as usize - 1]));
        for c in from {
            let k = c.moves as usize;
            let (set, rest) = packed_from(&pools, packing, Some(&through_text(c)), &go)
                .unwrap_or_else(|e| panic!("resume at move {k}: {e}"));
            assert_eq!(set, whole, "resumed at move {k}");
            // Each move after it is the uninterrupted run's, down to the random draws
            // and the temperature's bits.
            if k < MOVES as usize {
                assert_eq!(rest[..], every[k..], "resumed at move {k}");
            } else {
                assert_eq!(rest, [every[k - 1].clone()]);
            }
        }
    }
}

#[test]
fn a_damaged_checkpoint_file_says_what_is_wrong_and_where() {
    let pools = random_pools(5);
    let go = AtomicBool::new(false);
    let (_, every) = packed_from(&pools, packing(50, false), None, &go).unwrap();
    let text = PackCheckpoint::file_text(&every[20..21]);
    let error = |text: &str| {
        PackCheckpoint::parse_file("p.pack", text.as_bytes())
            .unwrap_err()
            .to_string()
    };
    // Cut after the line of rook c2: 13 of its 24 squares are gone.
    let cut = text.find("pack-square rook c2").unwrap();
    let cut = cut + text[cut..].find('\n').unwrap() + 1;
    assert_eq!(
        error(&text[..cut]),
        "p.pack: 13 of the pack checkpoint's 24 squares are missing (after rook c2): a \
         truncated file?"
    );
    let two_lines = text.lines().take(3).collect::<Vec<_>>().join("\n");
    assert!(
        error(&two_lines).contains("24 of the pack checkpoint's 24 squares are missing"),
        "{}",
        error(&two_lines)
    );
    let one_line = text.lines().next().unwrap();
    assert!(error(one_line).contains("'pack' line is missing"));
    let says = |edit: (&str, &str), start: &str| {
        let e = error(&text.replacen(edit.0, edit.1, 1));
        assert!(e.starts_with(start), "{e}");
    };
    says(
        ("temperature 0x", "temperature 0xq"),
        "p.pack:3: temperature '0xq",
    );
    says(
        ("pack-square rook b1", "pack-square rook b9"),
        "p.pack:5: unknown square 'b9'",
    );
    says(
        ("moves 21", "moves 51"),
        "p.pack:3: 51 moves made, past the run's 50",
    );
    says(
        ("spread 0", "spread -1"),
        "p.pack:2: spread '-1' is not a number in 0..=1000",
    );
    // Written before the spread existed: a packing by length alone.
    let older = text.replacen(" spread 0", "", 1);
    assert_ne!(older, text);
    assert_eq!(
        PackCheckpoint::parse_file("p.pack", older.as_bytes()).unwrap(),
        every[20..21]
    );
    let state = "magic-gen-state 1\nvariant black\n";
    assert!(error(state).ends_with("this is a search state"));
    let e = PackCheckpoint::parse_file("p.pack", state.as_bytes()).unwrap_err();
    assert_eq!(e.instead, Some(crate::io::HuntFile::SearchState));
    let e = PackCheckpoint::parse_file("p.pack", b"pack seed 1\n").unwrap_err();
    assert_eq!(e.instead, None);
    assert_eq!(through_text(&every[20]), every[20]);
    // A packing from the input's layout says so on its line, and only then.
    let mut warm = every[20].clone();
    warm.settings.from_input = true;
    let warm_text = PackCheckpoint::file_text(std::slice::from_ref(&warm));
    assert!(warm_text.contains(" from-input 1 ") && !text.contains("from-input"));
    assert_eq!(through_text(&warm), warm);
    let e = error(&warm_text.replacen("from-input 1", "from-input 2", 1));
    assert!(
        e.starts_with("p.pack:2: from-input '2' is not 0 or 1"),
        "{e}"
    );
}

#[test]
fn a_checkpoint_of_several_packings_has_a_section_each_and_refuses_a_missing_one() {
    let pools = random_pools(5);
    let go = AtomicBool::new(false);
    let settings = PackSettings {
        seeds: 3,
        ..packing(20, false)
    };
    let (_, saved) = packed_seeds(&pools, settings, &[], &go, 1).unwrap();
    let end = saved.last().unwrap();
    let text = PackCheckpoint::file_text(end);
    assert_eq!(
        PackCheckpoint::parse_file("p.pack", text.as_bytes()).unwrap(),
        *end
    );
    let heads: Vec<(usize, &str)> = (1..)
        .zip(text.lines())
        .filter(|(_, l)| l.starts_with("pack "))
        .collect();
    assert_eq!(heads.len(), 3);
    for (k, (_, head)) in heads.iter().enumerate() {
        assert!(head.contains(&format!(" seed {} ", 9 + k)), "{head}");
        assert!(head.contains(" seeds 3 "), "{head}");
    }
    let error = |text: &str| {
        PackCheckpoint::parse_file("p.pack", text.as_bytes())
            .unwrap_err()
            .to_string()
    };
    // The last section cut off, or one section more than its seed count.
    let third = text[..text.find(" seed 11 ").unwrap()].rfind('\n').unwrap() + 1;
    assert_eq!(
        error(&text[..third]),
        "p.pack: 1 of the 3 packings of the first 'pack' line's seeds are missing: a \
         truncated file?"
    );
    let fewer = text.replace(" seeds 3", " seeds 2");
    assert_eq!(
        error(&fewer),
        format!(
            "p.pack:{}: a packing past the 2 of the first 'pack' line's seeds",
            heads[2].0
        )
    );
    assert!(error(&text.replacen(" seeds 3", " seeds 0", 1))
        .starts_with("p.pack:2: seeds '0' is not a count of packings in 1..=1024"));
}

#[test]
fn a_pack_line_of_the_earlier_fixed_layout_still_reads() {
    let pools = random_pools(5);
    let go = AtomicBool::new(false);
    let settings = PackSettings {
        short_spans: true,
        seeds: 2,
        ..packing(20, false)
    };
    let (_, saved) = packed_seeds(&pools, settings, &[], &go, 1).unwrap();
    let end = saved.last().unwrap();
    let text = PackCheckpoint::file_text(end);
    // As checkpoints were written before each setting was declared once.
    let mut earlier = text.clone();
    for c in end {
        let s = &c.settings;
        let line = format!(
            "pack seed {} iterations 20 negative-offsets 0 spread 0 short-spans 1 pools {:#018x} \
             squares {} seeds 2",
            s.seed,
            c.pools,
            c.squares.len()
        );
        let now = text
            .lines()
            .find(|l| l.contains(&format!(" seed {} ", s.seed)))
            .unwrap();
        assert_ne!(now, line);
        earlier = earlier.replacen(now, &line, 1);
    }
    assert_eq!(
        PackCheckpoint::parse_file("p.pack", earlier.as_bytes()).unwrap(),
        *end
    );
}
