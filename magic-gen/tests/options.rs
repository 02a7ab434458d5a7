//! The command line's options, run as a separate process: what `--help` says, and the
//! options each command refuses, with a reason that names them.

mod common;

use std::fs;

use common::{magic_gen, scratch};

#[test]
fn help_works_for_every_command() {
    let dir = scratch("help");
    for args in [
        &["--help"][..],
        &["search", "--help"],
        &["verify", "--help"],
        &["stats", "--help"],
        &["emit", "--help"],
        &["pack", "--help"],
    ] {
        let run = magic_gen(&dir, args);
        run.assert_success();
        assert!(run.stdout.contains("Usage: magic-gen"), "{}", run.stdout);
    }
    let run = magic_gen(&dir, &["pack", "--help"]);
    for option in ["--pack-iterations", "--state", "--checkpoint", "--resume"] {
        assert!(
            run.stdout.contains(option),
            "{option} missing from pack's help"
        );
    }
    let run = magic_gen(&dir, &["search", "--help"]);
    for option in [
        "--variant",
        "--piece",
        "--square",
        "--bits",
        "--seconds",
        "--threads",
        "--seed",
        "--out",
    ] {
        assert!(run.stdout.contains(option), "{option} missing from help");
    }
}

#[test]
fn search_rejects_bad_options_cleanly() {
    let dir = scratch("search-bad");
    for args in [
        &["search", "--variant", "grey"][..],
        &["search", "--variant", "pext"],
        &["search", "--square", "i9", "--bits", "5"],
        &["search", "--piece", "queen", "--bits", "5"],
        &["search", "--bits", "13"],
        &["search", "--square", "e4"],
        &["search", "--threads", "0"],
        &["search", "--seconds", "-1", "--bits", "5"],
        &["search", "--variant", "black", "--bits", "11"],
        &["search", "--variant", "black", "--also-fixed-shift"],
        &["search", "--bits-under", "0", "--also-fixed-shift"],
        &["search", "--variant", "black", "--clump", "10"],
        &[
            "search", "--piece", "bishop", "--square", "d4", "--bits", "10",
        ],
        &["frobnicate"],
    ] {
        let run = magic_gen(&dir, args);
        run.assert_clean_failure();
    }
    // Out of range for the square: named by piece and square.
    let run = magic_gen(
        &dir,
        &[
            "search", "--piece", "bishop", "--square", "d4", "--bits", "10",
        ],
    );
    assert!(run.stderr.contains("bishop d4"), "{}", run.stderr);
    // A second shift needs a first one to choose against, and a packed table.
    let run = magic_gen(
        &dir,
        &["search", "--variant", "black", "--also-fixed-shift"],
    );
    assert!(
        run.stderr.contains("go with --bits or --bits-under"),
        "{}",
        run.stderr
    );
    let run = magic_gen(&dir, &["search", "--bits-under", "0", "--also-fixed-shift"]);
    assert!(run.stderr.contains("for black and white"), "{}", run.stderr);
    // Clumping is for white: other variants are refused, not silently left unclumped.
    let run = magic_gen(&dir, &["search", "--variant", "black", "--clump", "10"]);
    assert!(
        run.stderr
            .contains("--clump gathers the used slots of white magics; this search is black"),
        "{}",
        run.stderr
    );
    // A negative seed is a seed that is not unsigned, not an unknown argument.
    for args in [
        &["search", "--seed", "-1"][..],
        &["pack", "--pack-seed", "-1", "set.txt"],
    ] {
        let option = args[1];
        let run = magic_gen(&dir, args);
        run.assert_clean_failure();
        assert!(
            run.stderr
                .contains(&format!("invalid value '-1' for '{option} <SEED>': "))
                && run.stderr.contains("'-1' is not an unsigned number"),
            "{}",
            run.stderr
        );
    }
    // A negative number of seconds is said to be one, for every option of seconds.
    for args in [
        &["search", "--seconds", "-1"][..],
        &["search", "--checkpoint", "-1"],
        &["pack", "--checkpoint", "-1", "set.txt"],
        &["merge", "--progress-every", "-1", "a.state"],
    ] {
        let run = magic_gen(&dir, args);
        run.assert_clean_failure();
        assert!(
            run.stderr
                .contains("'-1' is a negative number of seconds: give 0 to 1e9"),
            "{args:?}: {}",
            run.stderr
        );
    }
    // A budget that tries nothing is refused, with the reason.
    for (args, says) in [
        (
            &["search", "--variant", "black", "--candidates", "0"][..],
            "--candidates 0: a scan of 0 candidates a square tries no candidate",
        ),
        (
            &["search", "--variant", "white", "--seconds", "0"],
            "--seconds 0: a scan of 0 seconds tries no candidate",
        ),
        (
            &["search", "--seconds", "0", "--bits-under", "1"],
            "--seconds 0: a scan of 0 seconds tries no candidate",
        ),
    ] {
        let run = magic_gen(&dir, args);
        run.assert_clean_failure();
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
    }
    // A packing that would not finish is refused, the bound said.
    let max = magic_gen::pack::PackSettings::MAX_ITERATIONS;
    for args in [
        &[
            "pack",
            "set.txt",
            "--pack-iterations",
            "18446744073709551615",
        ][..],
        &[
            "search",
            "--variant",
            "black",
            "--pack-iterations",
            &(max + 1).to_string(),
        ],
    ] {
        let run = magic_gen(&dir, args);
        run.assert_clean_failure();
        assert!(
            run.stderr.contains(&format!(
                "moves would not finish: a packing takes at most {max}"
            )),
            "{args:?}: {}",
            run.stderr
        );
    }
    // An unwritable destination fails without leaving a temporary file.
    let run = magic_gen(&dir, &["search", "--out", "no/such/dir/set.rs"]);
    run.assert_clean_failure();
    assert!(run.stderr.contains("no/such/dir/set.rs"), "{}", run.stderr);
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
}

#[test]
fn usage_lines_put_the_file_first_as_the_commands_are_written() {
    let dir = scratch("usage-order");
    let run = magic_gen(&dir, &["emit", "--help"]);
    run.assert_success();
    assert!(
        run.stdout
            .contains("Usage: magic-gen emit <FILE> --out <FILE>\n"),
        "{}",
        run.stdout
    );
    // A usage error shows the same line.
    let run = magic_gen(&dir, &["emit", "x.txt"]);
    run.assert_clean_failure();
    assert!(
        run.stderr
            .contains("Usage: magic-gen emit <FILE> --out <FILE>"),
        "{}",
        run.stderr
    );
}

#[test]
fn help_says_only_what_each_command_does() {
    let dir = scratch("help-truth");
    let help = |command: &str| magic_gen(&dir, &[command, "--help"]).stdout;
    // `pack` has one magic per square unless --also gives others: no pool members to
    // choose among, and short spans only with --also.
    let pack = help("pack");
    assert!(!pack.contains("pool member"), "{pack}");
    let spans = &pack[pack
        .find("--short-spans")
        .expect("--short-spans in pack's help")..];
    assert!(
        spans.starts_with("--short-spans\n          With --also:"),
        "{spans}"
    );
    // Its default packing is the one declared, shown once, beside its option.
    let moves = magic_gen::pack::PackSettings::REPACK_MOVES;
    let iterations = &pack[pack.find("--pack-iterations <MOVES>").unwrap()..];
    let iterations = &iterations[..iterations.find("--negative-offsets").unwrap()];
    assert_eq!(iterations.matches("[default").count(), 1, "{iterations}");
    assert!(
        iterations.contains(&format!("[default: {moves}]")),
        "{iterations}"
    );
    let merge = help("merge");
    assert!(
        merge.contains("--partial") && !merge.contains("--patience"),
        "{merge}"
    );
    let search = help("search");
    for needle in [
        "--preset",
        "record-white",
        "docs/record-hunts.md",
        "SECONDS",
    ] {
        assert!(search.contains(needle), "{needle} missing from {search}");
    }
    // Each preset names the set whose hunt it is, which hunt.rs holds to its header.
    for preset in magic_gen::hunt::Preset::ALL {
        let named = format!("`{}` ({})", preset.name(), preset.file());
        assert!(search.contains(&named), "{named} missing from {search}");
    }
    // No time quoted: a time is a figure of one CPU, which docs/results/hunts.md names.
    for command in ["search", "merge", "pack", "verify", "stats", "emit"] {
        let text = help(command);
        for word in ["minute", " hour", " 13 s"] {
            assert!(
                !text.contains(word),
                "{command} --help says {word:?}:\n{text}"
            );
        }
    }
    // The pool's default is the one black and white run with (src/cli/help.rs checks each
    // default against a recorded run), and says where a preset's wins.
    let pool = &search[search.find("--pool <N>").unwrap()..];
    let pool = &pool[..pool.find("--sparse-pool").unwrap()];
    assert!(pool.contains("[default: 8, or the preset's]"), "{pool}");
}

#[test]
fn options_a_variant_cannot_use_are_refused_by_name() {
    let dir = scratch("variant-options");
    for (args, says) in [
        (
            &["search", "--variant", "plain", "--bits-under", "1"][..],
            "--bits and --bits-under are for fancy, black and white",
        ),
        (
            &[
                "search",
                "--variant",
                "fancy",
                "--bits-under",
                "1",
                "--also-fixed-shift",
            ][..],
            "--also-fixed-shift is for black and white",
        ),
    ] {
        let run = magic_gen(&dir, args);
        run.assert_clean_failure();
        assert!(run.stderr.contains(says), "{}", run.stderr);
    }
}

/// Every bad argument exits 2, as clap's own usage errors do: the rules the commands check
/// themselves (an option that does nothing, a budget that tries nothing, bits a square
/// cannot have, a budget below the resumed state's) as well as those clap checks. Any
/// other failure exits 1.
#[test]
fn every_bad_argument_exits_2() {
    use magic_gen::search::{Budget, Options, SearchState};
    use magic_gen::Variant;

    let dir = scratch("bad-arguments-exit-2");
    // States saved before any scan: all the refusals below come before any work.
    for (variant, file) in [(Variant::Black, "b.state"), (Variant::Fancy, "f.state")] {
        let mut options = Options::for_variant(variant);
        options.scan.budget = Budget::Candidates(4096);
        options.command =
            format!("magic-gen search --variant {variant} --candidates 4096 --state {file}");
        let state = SearchState::new(&options).unwrap();
        state.save(&dir.join(file), &[]).unwrap();
    }
    for (args, says) in [
        (&["search", "--candidates", "0"][..], "--candidates 0: "),
        (&["search", "--seconds", "0"], "--seconds 0: "),
        (&["search", "--seconds", "-1"], "negative number of seconds"),
        (
            &["search", "--pool", "8"],
            "--pool does nothing in a fancy search",
        ),
        (
            &["search", "--piece", "rook"],
            "go with --bits or --bits-under",
        ),
        (
            &["search", "--variant", "plain", "--bits", "10"],
            "plain magics have fixed bits",
        ),
        (
            &["search", "--resume", "b.state", "--candidates", "1000"],
            "b.state: cannot raise the budget: 1000 candidates is below its budget of 4096",
        ),
        (
            &["search", "--variant", "black", "--clump", "10"],
            "--clump gathers the used slots of white magics",
        ),
        (&["search", "--checkpoint", "5"], "give --state FILE"),
        (
            &[
                "search", "--piece", "bishop", "--square", "d4", "--bits", "10",
            ],
            "index bits 10 out of range for bishop d4: 7..=9",
        ),
        (
            &["pack", "set.txt", "--short-spans"],
            "--short-spans chooses among each square's pool members",
        ),
        (&["pack", "set.txt", "--checkpoint", "5"], "give --state"),
        (
            &["merge", "f.state", "--polish", "5"],
            "--polish does nothing to fancy shards",
        ),
    ] {
        let run = magic_gen(&dir, args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
    }
    // A file that is not there is no bad argument: exit 1.
    let run = magic_gen(&dir, &["verify", "missing.txt"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
}

/// Fewer index bits than a square's distinct attack sets need would scan forever (fancy
/// has no default budget): refused before any work, naming the square and the least bits.
#[test]
fn bits_too_few_for_a_square_s_attack_sets_are_refused_before_any_work() {
    let dir = scratch("bits-below-attack-sets");
    let run = magic_gen(
        &dir,
        &[
            "search", "--square", "e4", "--bits", "5", "--state", "s.state",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "error: rook e4 has 144 distinct attack sets, more than the 32 slots of 5 index \
             bits: no search for them ends; it needs at least 8 bits"
        ),
        "{}",
        run.stderr
    );
    assert!(!dir.join("s.state").exists(), "a state was saved");
    // The bishop alone: 108 sets need 7 bits; with --bits-under too.
    let run = magic_gen(
        &dir,
        &[
            "search", "--piece", "bishop", "--square", "e4", "--bits", "6",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("bishop e4 has 108 distinct attack sets")
            && run.stderr.contains("at least 7 bits"),
        "{}",
        run.stderr
    );
    let run = magic_gen(
        &dir,
        &[
            "search",
            "--piece",
            "rook",
            "--square",
            "d4",
            "--bits-under",
            "3",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("rook d4 has 144"), "{}", run.stderr);
}

/// `pack --holes 0` would choose no magic for the holes: refused as a bad argument (exit
/// 2), where it was taken silently; the option left out keeps the set's magics.
#[test]
fn pack_refuses_holes_of_0_blocks() {
    let dir = scratch("holes-0");
    let run = magic_gen(&dir, &["pack", "set.txt", "--holes", "0"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "0 blocks choose no magic for the holes: give 1 or more, or leave --holes out"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn a_packing_bounded_by_time_records_its_moves_and_reruns_from_them() {
    let set = common::Published::Black.arg();
    for packer in [&[][..], &["--overlay"]] {
        let dir = scratch(&format!("pack-seconds{}", packer.concat()));
        let mut args = vec!["pack", set.as_str(), "--pack-seconds", "0.5"];
        args.extend(packer);
        args.extend(["--out", "timed.txt"]);
        magic_gen(&dir, &args).assert_success();
        // The header records the moves the time gave, not the time.
        let timed = fs::read_to_string(dir.join("timed.txt")).unwrap();
        let command = timed
            .lines()
            .find_map(|l| l.strip_prefix("# command: "))
            .unwrap();
        assert!(!command.contains("--pack-seconds"), "{command}");
        let moves = command
            .split(" --pack-iterations ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .unwrap_or_else(|| panic!("no moves recorded: {command}"));
        // How many fit in the time depends on the machine and its load (none, on a
        // loaded one): the count is what reruns.
        moves.parse::<u64>().expect("a count of moves");
        // Rerun from the header: the same file.
        let words = magic_gen::set_file::Step::parse(command).unwrap();
        magic_gen(&dir, words.args()).assert_success();
        assert_eq!(fs::read_to_string(dir.join("timed.txt")).unwrap(), timed);
    }
    let dir = scratch("pack-seconds-and-moves");
    // A time and a count of moves say one thing twice.
    let both = [
        "pack",
        set.as_str(),
        "--pack-seconds",
        "1",
        "--pack-iterations",
        "5",
    ];
    let run = magic_gen(&dir, &both);
    run.assert_clean_failure();
    assert!(run.stderr.contains("cannot be used with"), "{}", run.stderr);
}
