//! The command-line tool, run as a separate process: happy paths, determinism and
//! Ctrl-C. Bad input has its own file (`bad_input.rs`), as do atomic output
//! (`atomic_write.rs`), long runs (`hunt.rs`) and help and refused options (`options.rs`).

mod common;

use std::fs;

#[cfg(unix)]
use common::running::{Ended, Running};
use common::{command, committed, magic_gen, magic_gen_fed, scratch, verified_note};
use common::{test_data, Published, COMMITTED};
use magic_gen::{read_set_file, write_interchange};

#[test]
fn verify_accepts_every_committed_set_and_prints_its_size() {
    let dir = scratch("verify-committed");
    for name in COMMITTED {
        let path = committed(name);
        let run = magic_gen(&dir, &["verify", path.to_str().unwrap()]);
        run.assert_success();
        assert!(run.stdout.contains("collision-free"), "{}", run.stdout);
        assert!(run.stdout.contains("table length: "), "{}", run.stdout);
        assert!(run.stdout.contains("slots used: "), "{}", run.stdout);
        if name == "fancy" {
            assert!(run
                .stdout
                .contains("table length: 107648 entries (841.0 KiB"));
        }
    }
}

#[test]
fn stats_prints_two_boards_rank_eight_on_top() {
    let dir = scratch("stats");
    let path = committed("fancy");
    let run = magic_gen(&dir, &["stats", path.to_str().unwrap()]);
    run.assert_success();
    let out = &run.stdout;
    assert!(out.contains("table length: 107648 entries"), "{out}");
    let rook = out.find("rook: index bits").expect("rook board");
    let bishop = out.find("bishop: index bits").expect("bishop board");
    assert!(rook < bishop);
    // Standard bits: rook corners 12, bishop centre 9, nothing marked below the popcount.
    let rook_rank8 = out[rook..].lines().nth(2).unwrap();
    assert_eq!(rook_rank8, "8  12  11  11  11  11  11  11  12  8");
    let bishop_rank5 = out[bishop..].lines().nth(5).unwrap();
    assert_eq!(bishop_rank5, "5   5   5   7   9   9   7   5   5  5");
    assert!(out.contains("legend:"));
    assert!(!out.contains('*') || out.contains("* = fewer"), "{out}");

    // The interchange format works the same; a fixed-shift set marks squares above the
    // popcount.
    let (set, _, _) = read_set_file(&committed("fancy")).unwrap();
    fs::write(dir.join("fancy.txt"), write_interchange(&set, &[])).unwrap();
    let run = magic_gen(&dir, &["stats", "fancy.txt"]);
    run.assert_success();
    assert!(run.stdout.contains("8  12  11  11  11  11  11  11  12  8"));
    let run = magic_gen(&dir, &["stats", committed("black").to_str().unwrap()]);
    run.assert_success();
    assert!(run.stdout.contains(" 12+"), "{}", run.stdout);
}

#[test]
fn stats_shows_where_the_space_of_a_packed_table_goes() {
    let dir = scratch("stats-picture");
    let black = committed("black");
    let (set, _, _) = read_set_file(&black).unwrap();
    let v = magic_gen::verify(&set).unwrap();
    let r = &v.report;
    let run = magic_gen(
        &dir,
        &["stats", black.to_str().unwrap(), "--picture", "t.svg"],
    );
    run.assert_success();
    let out = &run.stdout;
    assert!(
        out.contains(&format!("holes:        {} ", r.table_len - r.slots_used)),
        "{out}"
    );
    // One line per square with its span, used slots and holes, as verify measures them.
    let a1 = r.squares[0][0];
    let line = out
        .lines()
        .find(|l| l.starts_with("rook   a1 "))
        .expect("rook a1 line");
    let fields: Vec<usize> = line
        .split_whitespace()
        .skip(2)
        .map(|f| f.parse().unwrap())
        .collect();
    // Then the free slots at its range's ends (tests/measure.rs).
    assert_eq!(
        fields[..5],
        [a1.first, a1.last, a1.span(), a1.used, a1.holes()]
    );
    assert_eq!(
        out.lines().filter(|l| l.starts_with("bishop ")).count(),
        64,
        "{out}"
    );
    // The picture: a rectangle per run of one square's slots, covering exactly the used slots.
    let svg = fs::read_to_string(dir.join("t.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    let covered: usize = svg
        .lines()
        .filter(|l| l.starts_with("<rect x="))
        .map(|l| {
            let w = l.split("width=\"").nth(1).unwrap();
            w[..w.find('"').unwrap()].parse::<usize>().unwrap()
        })
        .sum();
    assert_eq!(covered, r.slots_used);
    assert!(svg.contains("<title>rook a1</title>") && svg.contains("<title>bishop h8</title>"));
}

#[test]
fn pack_lays_out_a_published_set_again_with_its_own_magics() {
    let dir = scratch("pack-published");
    let published = &Published::Black.arg();
    let (before, _) = Published::Black.read();
    let packed = |iterations: &str, out: &str| {
        let run = magic_gen(
            &dir,
            &[
                "pack",
                published,
                "--pack-iterations",
                iterations,
                "--out",
                out,
            ],
        );
        run.assert_success();
        let (set, _, _) = read_set_file(&dir.join(out)).unwrap();
        let len = magic_gen::verify(&set).unwrap().report.table_len;
        (set, len)
    };
    // The greedy pass alone (first-fit decreasing), then annealing: neither returns a
    // table longer than the one given. The greedy layout of the published set is longer
    // than its own, so the published layout is kept, and said to be.
    let before_len = magic_gen::verify(&before).unwrap().report.table_len;
    let (greedy, greedy_len) = packed("0", "greedy.txt");
    let (annealed, annealed_len) = packed("300", "annealed.txt");
    assert_eq!(greedy_len, before_len);
    assert!(annealed_len <= before_len, "{annealed_len} {before_len}");
    let run = magic_gen(&dir, &["pack", published, "--pack-iterations", "0"]);
    assert!(
        run.stdout.contains("the input's layout is kept"),
        "{}",
        run.stdout
    );
    for set in [&greedy, &annealed] {
        for piece in 0..2 {
            for sq in 0..64 {
                let (a, b) = (set.entries[piece][sq], before.entries[piece][sq]);
                assert_eq!((a.magic, a.bits), (b.magic, b.bits));
            }
        }
    }
    // Without options it anneals PackSettings::REPACK_MOVES moves (about 10 s), which
    // shorten the published set, and records them as if given.
    let run = magic_gen(&dir, &["pack", published, "--out", "default.txt"]);
    run.assert_success();
    let moves = magic_gen::pack::PackSettings::REPACK_MOVES;
    let (set, provenance, _) = read_set_file(&dir.join("default.txt")).unwrap();
    let len = magic_gen::verify(&set).unwrap().report.table_len;
    assert!(len < before_len, "{len} {before_len}\n{}", run.stdout);
    let command = magic_gen::set_file::Step::chain_line(&provenance.steps);
    assert!(
        command.ends_with(&format!("--pack-iterations {moves} --out default.txt")),
        "{command}"
    );
    // A checkpoint interval with no file to save does nothing: refused.
    let run = magic_gen(&dir, &["pack", published, "--checkpoint", "5"]);
    run.assert_clean_failure();
    assert!(run.stderr.contains("give --state FILE"), "{}", run.stderr);
    // With one magic per square there is no shorter member to choose.
    let run = magic_gen(&dir, &["pack", published, "--short-spans"]);
    run.assert_clean_failure();
    assert!(
        run.stderr.contains("give it to `search` or `merge`"),
        "{}",
        run.stderr
    );
    // With another set's magics beside its own (`--also`), there are.
    let pinned = test_data("pinned-black.txt");
    let args = [
        "pack",
        published,
        "--also",
        pinned.to_str().unwrap(),
        "--short-spans",
    ];
    let run = magic_gen(&dir, &[&args[..], &["--out", "spans.txt"]].concat());
    run.assert_success();
    let (spans, _, _) = read_set_file(&dir.join("spans.txt")).unwrap();
    assert!(magic_gen::verify(&spans).is_ok());
    // Sets that are not packed are refused, naming the file.
    let run = magic_gen(&dir, &["pack", committed("fancy").to_str().unwrap()]);
    run.assert_clean_failure();
    assert!(
        run.stderr.contains("fancy.rs: only black and white"),
        "{}",
        run.stderr
    );
}

#[test]
fn emit_round_trips_through_the_interchange_format() {
    let dir = scratch("emit");
    let fancy = committed("fancy");
    let run = magic_gen(
        &dir,
        &["emit", fancy.to_str().unwrap(), "--out", "fancy.txt"],
    );
    run.assert_success();
    let run = magic_gen(&dir, &["emit", "fancy.txt", "--out", "fancy.rs"]);
    run.assert_success();
    let run = magic_gen(&dir, &["verify", "fancy.rs"]);
    run.assert_success();
    let emitted = fs::read_to_string(dir.join("fancy.rs")).unwrap();
    // The header keeps the search that made the set, then each emit.
    let chain = format!(
        "// command: magic-gen search --variant fancy --seed 1 --out magics/fancy.rs; then \
         magic-gen emit {} --out fancy.txt; then magic-gen emit fancy.txt --out fancy.rs\n// seed: 1\n",
        fancy.to_str().unwrap()
    );
    assert!(emitted.contains(&chain), "{emitted}");
    // Everything below the header is the same data as the committed file.
    let body = |s: &str| s[s.find("pub const VARIANT").unwrap()..].to_string();
    assert_eq!(body(&emitted), body(&fs::read_to_string(&fancy).unwrap()));
    // No temporary files are left behind.
    let names: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains(".tmp")), "{names:?}");
}

#[test]
fn search_without_arguments_verifies_prints_a_summary_and_writes_nothing() {
    let dir = scratch("search-default");
    let run = magic_gen(&dir, &["search"]);
    run.assert_success();
    assert!(
        run.stdout.contains("searched fancy magics, seed 1"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("verified: collision-free"));
    assert!(run
        .stdout
        .contains("table: 107648 entries (841.0 KiB of u64)"));
    assert!(run.stdout.contains("nothing written"));
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
    assert_eq!(stages(&run.stdout), ["scan", "pools", "verification"]);
}

/// Returns the stage names of the `time by stage` line in `out`, each checked to carry a
/// time in seconds.
fn stages(out: &str) -> Vec<String> {
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("time by stage: "))
        .unwrap_or_else(|| panic!("no time by stage in {out}"));
    line.split(", ")
        .map(|stage| {
            let (name, time) = stage.split_once(' ').expect("name and time");
            let seconds = time.strip_suffix(" s").expect("seconds");
            assert!(seconds.parse::<f64>().is_ok_and(|t| t >= 0.0), "{line}");
            name.to_string()
        })
        .collect()
}

#[test]
fn a_packed_search_and_pack_report_the_time_of_each_stage() {
    let dir = scratch("stages");
    let args = [
        "search",
        "--variant",
        "black",
        "--candidates",
        "4096",
        "--polish",
        "100",
        "--pack-iterations",
        "100",
    ];
    let run = magic_gen(&dir, &args);
    run.assert_success();
    let all = ["scan", "polish", "pools", "packing", "verification"];
    assert_eq!(stages(&run.stdout), all);
    let published = Published::Black.arg();
    let args = ["pack", &published, "--pack-iterations", "100"];
    let run = magic_gen(&dir, &args);
    run.assert_success();
    assert_eq!(stages(&run.stdout), ["pools", "packing", "verification"]);
    // The stages before the pools, in the order the hunt runs them.
    let args = [&args[..], &["--rooks-first", "--holes", "1"]].concat();
    let run = magic_gen(&dir, &args);
    run.assert_success();
    let all = ["rooks-first", "holes", "pools", "packing", "verification"];
    assert_eq!(stages(&run.stdout), all);
}

#[test]
fn search_output_does_not_depend_on_threads() {
    let dir = scratch("determinism");
    for (variant, file) in [("fancy", "set.rs"), ("plain", "set.txt")] {
        let mut outputs = Vec::new();
        for threads in ["1", "2"] {
            let sub = dir.join(format!("{variant}-{threads}"));
            fs::create_dir_all(&sub).unwrap();
            let args = [
                "search",
                "--variant",
                variant,
                "--seed",
                "42",
                "--threads",
                threads,
                "--out",
                file,
            ];
            magic_gen(&sub, &args).assert_success();
            outputs.push(fs::read(sub.join(file)).unwrap());
        }
        assert!(
            outputs[0] == outputs[1],
            "{variant}: --threads changed the output"
        );
        let text = String::from_utf8(outputs.pop().unwrap()).unwrap();
        let command = format!("magic-gen search --variant {variant} --seed 42 --out {file}");
        assert!(text.contains(&command), "{text}");
        assert!(!text.contains("threads"));
        let run = magic_gen(&dir.join(format!("{variant}-1")), &["verify", file]);
        run.assert_success();
    }
}

#[test]
fn reduced_bits_on_one_square_give_a_complete_verified_set() {
    let dir = scratch("search-bits");
    // Bishop b1: mask popcount 5; 4 bits exist for few corner-adjacent squares and the
    // budget may run out: either way the set is complete and verified.
    let run = magic_gen(
        &dir,
        &[
            "search",
            "--piece",
            "bishop",
            "--square",
            "b1",
            "--bits",
            "4",
            "--seconds",
            "0.2",
            "--out",
            "set.txt",
        ],
    );
    run.assert_success();
    let run = magic_gen(&dir, &["verify", "set.txt"]);
    run.assert_success();
    let text = fs::read_to_string(dir.join("set.txt")).unwrap();
    assert!(text.contains("# command: magic-gen search --variant fancy --piece bishop --square b1 --bits 4 --seconds 0.2 --seed 1 --out set.txt\n"), "{text}");
}

#[test]
fn bits_under_zero_gives_a_black_set_a_shift_per_square() {
    let dir = scratch("search-per-square");
    let run = magic_gen(
        &dir,
        &[
            "search",
            "--variant",
            "black",
            "--bits-under",
            "0",
            "--pool",
            "2",
            "--patience",
            "0",
            "--candidates",
            "8192",
            "--sparse-pool",
            "0",
            "--polish",
            "0",
            "--pack-iterations",
            "0",
            "--out",
            "set.txt",
        ],
    );
    run.assert_success();
    // Every square at its mask popcount: rook 10..12 bits, bishop 5..9.
    assert!(
        run.stdout.contains("rook         64      10..12"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("bishop       64        5..9"),
        "{}",
        run.stdout
    );
    let run = magic_gen(&dir, &["stats", "set.txt"]);
    run.assert_success();
    // No square is marked `+` (above the popcount, as fixed-shift squares are) or `*`.
    let boards = run.stdout.split("legend").next().unwrap();
    assert!(!boards.contains('+') && !boards.contains('*'), "{boards}");
}

/// Ctrl-C during a search that does not finish in practice (bishop d4's 108 attack sets
/// in the 128 slots of 7 bits, the fewest any table can have): the set is still written,
/// complete and verified, and the exit code is 130. The signal is sent once the run is
/// known to be scanning, when its first checkpoint appears.
#[cfg(unix)]
#[test]
fn ctrl_c_writes_the_best_verified_set_so_far() {
    stopping_by_signal_writes_the_best_verified_set_so_far("INT");
}

/// SIGTERM, which a batch system such as Slurm sends at a time limit or a pre-emption some
/// seconds before it kills, stops a run the way Ctrl-C does.
#[cfg(unix)]
#[test]
fn sigterm_stops_a_search_like_ctrl_c() {
    stopping_by_signal_writes_the_best_verified_set_so_far("TERM");
}

#[cfg(unix)]
fn stopping_by_signal_writes_the_best_verified_set_so_far(signal: &str) {
    let dir = scratch(&format!("signal-{signal}"));
    let args = [
        "search",
        "--piece",
        "bishop",
        "--square",
        "d4",
        "--bits",
        "7",
        "--threads",
        "1",
        "--state",
        "run.state",
        "--checkpoint",
        "0.1",
        "--out",
        "set.rs",
    ];
    let mut run = Running::magic_gen(&dir, &args, &[]);
    // Readiness, not a guess at how long start-up takes: the state file is first written
    // by a checkpoint during the scan, after the Ctrl-C handler is installed. The run can
    // only end by the signal.
    run.wait_until("a checkpoint", || {
        dir.join("run.state").exists().then_some(())
    });
    let Ended { stdout, stderr, .. } = run.stop(signal);
    assert!(stderr.contains("interrupted"), "{stderr}");
    assert!(
        stdout.contains("fell back to default bits: bishop d4"),
        "{stdout}"
    );
    // The header says the run did not finish, and how to finish it.
    // (How many squares were left depends on when the signal came.)
    let note = verified_note(&dir, "set.rs").unwrap_or_else(|| panic!("{stderr}"));
    assert!(
        note.starts_with("the scan stopped: ")
            && note.ends_with(
                " of 128 squares unfinished fell back; finish with `magic-gen search --resume \
                 run.state --out set.rs`"
            ),
        "{note}"
    );
    assert!(common::not_committable(&dir.join("set.rs")).is_some());
}

#[test]
fn a_dash_reads_standard_input_and_writes_standard_output() {
    let dir = scratch("stdio");
    let fancy = committed("fancy");
    // Piped in, as Rust source (told by its content, there being no file name).
    let run = |args: &[&str], input: &[u8]| magic_gen_fed(&dir, args, input);
    let source = fs::read(&fancy).unwrap();
    let out = run(&["verify", "-"], &source);
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("table length: 107648 entries"), "{stdout}");
    // Written out: the set alone on standard output, in the interchange format, with the
    // input's provenance; the messages on standard error.
    let out = run(&["emit", "-", "--out", "-"], &source);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("# @generated by magic-gen"), "{text}");
    assert!(
        text.contains(
            "# command: magic-gen search --variant fancy --seed 1 --out magics/fancy.rs; \
             then magic-gen emit - --out -\n"
        ),
        "{text}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("wrote standard output"));
    let (set, _, _) = read_set_file(&fancy).unwrap();
    fs::write(dir.join("piped.txt"), &text).unwrap();
    assert_eq!(read_set_file(&dir.join("piped.txt")).unwrap().0, set);
    // And the interchange format read from standard input.
    let out = run(&["stats", "-"], text.as_bytes());
    assert!(out.status.success(), "{out:?}");
    // Nothing named `-` was written.
    assert!(!dir.join("-").exists());
}

#[test]
fn closed_output_streams_end_a_command_by_its_exit_code_not_a_panic() {
    let dir = scratch("closed-streams");
    let white = Published::White.arg();
    let text = Published::White.text();
    // A damaged magic: verify fails with errors on standard error.
    let bad = text.replace("rook e1 0x7fd00441ffffd003", "rook e1 0x7fd00441ffffd013");
    fs::write(dir.join("bad.txt"), bad).unwrap();
    // A pipe whose reader is gone before the command starts: every write to it fails,
    // as under `magic-gen verify X 2>&1 | head -1` once head has exited.
    let closed = || {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        writer
    };
    for (file, code) in [("bad.txt", 1), (white.as_str(), 0)] {
        let status = command(&dir, &["verify", file])
            .stdout(closed())
            .stderr(closed())
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(code), "{file}");
    }
}
