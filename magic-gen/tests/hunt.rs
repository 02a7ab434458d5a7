//! Long runs through the command line: shards merged with `magic-gen merge` equal one run,
//! a hunt resumed from its state file with a larger candidate budget equals one run with
//! that budget, a finished hunt's pools pack again with a seed of their own, and bad state
//! files and mismatched shards are clean errors. White shards merged with the pools'
//! polish and clump equal one run with them, and so does an evolved black hunt merged from
//! its state.

mod common;

use std::fs;

use common::{magic_gen, scratch};

/// The set file without its `// command:` line (which names the command that wrote it).
fn set_body(path: &std::path::Path) -> String {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("// command:"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A small black search: two blocks of candidates per square, small pools, short climbs,
/// no sparse finds or polish (a fixed-shift search's defaults would give some).
const SMALL: [&str; 14] = [
    "search",
    "--variant",
    "black",
    "--candidates",
    "8192",
    "--pool",
    "2",
    "--sparse-pool",
    "0",
    "--patience",
    "20",
    "--polish",
    "0",
    "--threads=2",
];

/// No annealing, for the runs of [`SMALL`] that set no packing of their own.
const NO_PACK: [&str; 2] = ["--pack-iterations", "0"];

#[test]
fn shards_merged_equal_one_run() {
    let dir = scratch("hunt-shards");
    let whole = magic_gen(
        &dir,
        &[&SMALL[..], &NO_PACK[..], &["--out", "whole.rs"]].concat(),
    );
    whole.assert_success();
    for k in 0..3 {
        let shard = format!("{k}/3");
        let state = format!("s{k}.state");
        let run = magic_gen(
            &dir,
            &[
                &SMALL[..],
                &NO_PACK[..],
                &["--shard", &shard, "--state", &state],
            ]
            .concat(),
        );
        run.assert_success();
        // Without --out a shard leaves the polish and packing to the merge.
        let greedy = format!("shard {shard}: its pools packed greedily");
        assert!(run.stdout.contains(&greedy), "{}", run.stdout);
    }
    let merged = magic_gen(
        &dir,
        &[
            "merge",
            "s0.state",
            "s1.state",
            "s2.state",
            // What the shards were given: a merge packs with the search's defaults.
            "--polish",
            "0",
            "--pack-iterations",
            "0",
            "--out",
            "merged.rs",
        ],
    );
    merged.assert_success();
    assert!(
        merged.stdout.contains("merged 3 of 3 shards"),
        "{}",
        merged.stdout
    );
    // It quotes the search the shards are parts of, not the command of shard 0.
    let summary = merged
        .stdout
        .lines()
        .find(|l| l.starts_with("merged 3"))
        .unwrap();
    assert!(!summary.contains("--shard"), "{summary}");
    assert!(
        summary.contains("`magic-gen search --variant black"),
        "{summary}"
    );
    assert_eq!(
        set_body(&dir.join("merged.rs")),
        set_body(&dir.join("whole.rs"))
    );
    // Merging only some shards is refused, naming the missing ones, unless asked for.
    let part = ["merge", "s0.state", "s2.state", "--state", "part.state"];
    let refused = magic_gen(&dir, &[&part[..], &["--out", "part.rs"]].concat());
    refused.assert_clean_failure();
    assert!(
        refused.stderr.contains("missing 1/3") && refused.stderr.contains("--partial"),
        "{}",
        refused.stderr
    );
    assert!(!dir.join("part.rs").exists() && !dir.join("part.state").exists());
    // Asked for, it gives a verified set marked as partial, in its header and its state,
    // which no committed set may be.
    magic_gen(
        &dir,
        &[&part[..], &["--partial", "--out", "part.rs"]].concat(),
    )
    .assert_success();
    let note = common::verified_note(&dir, "part.rs").unwrap_or_default();
    assert!(
        note.starts_with("a partial merge of 2 of 3 shards; missing 1/3"),
        "{note}"
    );
    let problem = common::not_committable(&dir.join("part.rs")).unwrap();
    assert!(problem.contains("partial merge"), "{problem}");
    assert_eq!(common::not_committable(&dir.join("merged.rs")), None);
    let state = fs::read_to_string(dir.join("part.state")).unwrap();
    assert!(
        state.contains("\ncommand partial merge of 2 of 3 shards, missing 1/3\n"),
        "{state}"
    );
}

/// A small white scan: small pools with sparse finds beside them, no scan-time climb.
const SMALL_WHITE: [&str; 12] = [
    "search",
    "--variant",
    "white",
    "--candidates",
    "4096",
    "--pool",
    "3",
    "--sparse-pool",
    "2",
    "--patience",
    "0",
    "--threads=2",
];

/// How the pools are shaped after the scan (not saved in a state), given alike to the one
/// run and to the merge.
const SHAPE: [&str; 4] = ["--polish", "50", "--clump", "40"];

/// The packing, given alike to the one run and to the merge.
const PACK: [&str; 2] = ["--pack-iterations", "200"];

#[test]
fn white_shards_merged_with_polish_and_clump_equal_one_run() {
    let dir = scratch("hunt-white-shards");
    let run = |args: &[&str]| magic_gen(&dir, args);
    run(&[
        &SMALL_WHITE[..],
        &SHAPE[..],
        &PACK[..],
        &["--out", "whole.rs"],
    ]
    .concat())
    .assert_success();
    for k in 0..2 {
        let (shard, state) = (format!("{k}/2"), format!("s{k}.state"));
        let no_shaping = ["--polish", "0", "--pack-iterations", "0"];
        run(&[
            &SMALL_WHITE[..],
            &no_shaping[..],
            &["--shard", &shard, "--state", &state],
        ]
        .concat())
        .assert_success();
    }
    let merge = |shape: &[&str], out: &str| {
        run(&[
            &["merge", "s0.state", "s1.state"][..],
            shape,
            &["--out", out],
        ]
        .concat())
    };
    merge(&[&SHAPE[..], &PACK[..]].concat(), "merged.rs").assert_success();
    assert_eq!(
        set_body(&dir.join("merged.rs")),
        set_body(&dir.join("whole.rs"))
    );
    // The shaping changes the pools: without it the merge packs another table.
    merge(&PACK, "plain.rs").assert_success();
    assert_ne!(
        set_body(&dir.join("plain.rs")),
        set_body(&dir.join("whole.rs"))
    );
    let header = fs::read_to_string(dir.join("merged.rs")).unwrap();
    assert!(
        header.contains(
            "; then magic-gen merge s0.state s1.state --polish 50 --clump 40 --pack-iterations 200 --out merged.rs\n"
        ),
        "{header}"
    );
    // The header reruns from nothing: the shards' searches, each saving the state the
    // merge reads, then the merge, give the same set.
    let rerun = |file: &str, folder: &str| {
        let (_, provenance, _) = magic_gen::read_set_file(&dir.join(file)).unwrap();
        let again = scratch(folder);
        for step in &provenance.steps {
            assert!(step.subcommand().is_some(), "{step}");
            magic_gen(&again, step.args()).assert_success();
        }
        assert_eq!(set_body(&again.join(file)), set_body(&dir.join(file)));
    };
    rerun("merged.rs", "hunt-white-shards-again");
    // The merged state keeps the shards' commands and the merge that saved it: a set
    // resumed from it reruns from its header too.
    let saved = [&SHAPE[..], &PACK[..], &["--state", "m.state"]].concat();
    merge(&saved, "m.rs").assert_success();
    run(&["search", "--resume", "m.state", "--out", "resumed.rs"]).assert_success();
    rerun("resumed.rs", "hunt-white-shards-resumed");
}

#[test]
fn merge_refuses_to_clump_black_shards_before_writing_anything() {
    let dir = scratch("hunt-clump-black");
    magic_gen(
        &dir,
        &[
            &SMALL[..],
            &NO_PACK[..],
            &["--shard", "0/2", "--state", "s0.state"],
        ]
        .concat(),
    )
    .assert_success();
    let run = magic_gen(
        &dir,
        &[
            "merge", "s0.state", "--clump", "10", "--state", "m.state", "--out", "m.rs",
        ],
    );
    run.assert_clean_failure();
    assert!(
        run.stderr
            .contains("--clump gathers the used slots of white magics; this search is black"),
        "{}",
        run.stderr
    );
    assert!(!dir.join("m.state").exists() && !dir.join("m.rs").exists());
}

#[test]
fn a_hunt_resumed_with_a_larger_budget_equals_one_run_with_it() {
    let dir = scratch("hunt-resume");
    // Fancy, bishops one bit under: a budget of 4096 candidates leaves more squares
    // unreached (56) than one of 16384 (52), so the resumed run has work to do.
    let base = [
        "search",
        "--piece",
        "bishop",
        "--bits-under",
        "1",
        "--threads=2",
    ];
    magic_gen(
        &dir,
        &[&base[..], &["--candidates", "16384", "--out", "whole.rs"]].concat(),
    )
    .assert_success();
    magic_gen(
        &dir,
        &[
            &base[..],
            &[
                "--candidates",
                "4096",
                "--state",
                "run.state",
                "--out",
                "cut.rs",
            ],
        ]
        .concat(),
    )
    .assert_success();
    assert_ne!(
        set_body(&dir.join("cut.rs")),
        set_body(&dir.join("whole.rs")),
        "the smaller budget must leave squares the larger one reaches"
    );
    let resumed = magic_gen(
        &dir,
        &[
            "search",
            "--resume",
            "run.state",
            "--candidates",
            "16384",
            "--out",
            "resumed.rs",
        ],
    );
    resumed.assert_success();
    assert!(
        resumed.stdout.contains("(0 of 128 jobs unfinished)"),
        "{}",
        resumed.stdout
    );
    assert_eq!(
        set_body(&dir.join("resumed.rs")),
        set_body(&dir.join("whole.rs"))
    );
    let header = std::fs::read_to_string(dir.join("resumed.rs")).unwrap();
    assert!(
        // The first command saves the state the resume reads: the chain reruns.
        header.contains("--candidates 4096 --seed 1 --out cut.rs --state run.state; then magic-gen search --resume run.state --candidates 16384 --out resumed.rs\n"),
        "{header}"
    );
    // A budget can only grow.
    let lower = magic_gen(
        &dir,
        &["search", "--resume", "run.state", "--candidates", "4096"],
    );
    lower.assert_clean_failure();
    assert!(
        lower.stderr.contains("below its budget"),
        "{}",
        lower.stderr
    );
}

#[test]
fn a_finished_hunt_packs_again_with_a_seed_of_its_own() {
    let dir = scratch("hunt-pack-seed");
    let packing = ["--pack-iterations", "300"];
    let run = |args: &[&str]| magic_gen(&dir, &[args, &packing[..]].concat());
    run(&[&SMALL[..], &["--state", "run.state", "--out", "one.rs"]].concat()).assert_success();
    // Resumed, the finished state only packs: with the scan's seed as before, with
    // --pack-seed another way, as a fresh search with that packing seed does. Its pool
    // shaping is given again (no state keeps it), as SMALL gives it.
    let run_again = |args: &[&str]| run(&[args, &["--polish", "0"][..]].concat());
    run_again(&["search", "--resume", "run.state", "--out", "again.rs"]).assert_success();
    assert_eq!(
        set_body(&dir.join("again.rs")),
        set_body(&dir.join("one.rs"))
    );
    let two = run_again(&[
        "search",
        "--resume",
        "run.state",
        "--pack-seed",
        "2",
        "--out",
        "two.rs",
    ]);
    two.assert_success();
    assert_ne!(
        set_body(&dir.join("two.rs")),
        set_body(&dir.join("one.rs")),
        "another packing seed must lay the table out another way"
    );
    run(&[&SMALL[..], &["--pack-seed", "2", "--out", "fresh.rs"]].concat()).assert_success();
    assert_eq!(
        set_body(&dir.join("fresh.rs")),
        set_body(&dir.join("two.rs"))
    );
    run_again(&[
        "merge",
        "run.state",
        "--pack-seed",
        "2",
        "--out",
        "merged.rs",
    ])
    .assert_success();
    assert_eq!(
        set_body(&dir.join("merged.rs")),
        set_body(&dir.join("two.rs"))
    );
    let header = fs::read_to_string(dir.join("two.rs")).unwrap();
    assert!(
        header.contains("then magic-gen search --resume run.state --polish 0 --pack-iterations 300 --pack-seed 2 --out two.rs\n"),
        "{header}"
    );
}

#[test]
fn shards_of_different_searches_do_not_merge() {
    let dir = scratch("hunt-mismatch");
    magic_gen(
        &dir,
        &[
            &SMALL[..],
            &NO_PACK[..],
            &["--shard", "0/2", "--state", "a.state"],
        ]
        .concat(),
    )
    .assert_success();
    magic_gen(
        &dir,
        &[
            &SMALL[..],
            &NO_PACK[..],
            &["--shard", "1/2", "--seed", "9", "--state", "b.state"],
        ]
        .concat(),
    )
    .assert_success();
    // Another variant or shard count: shard 1/2 of the same search, its header edited.
    let b = fs::read_to_string(dir.join("b.state")).unwrap();
    let same = b.replacen("seed 9", "seed 1", 1);
    fs::write(
        dir.join("c.state"),
        same.replacen("variant black", "variant white", 1),
    )
    .unwrap();
    fs::write(
        dir.join("d.state"),
        same.replacen("shard 1/2", "shard 1/3", 1),
    )
    .unwrap();
    // (second state, where merge must point, what it must say)
    let cases = [
        ("b.state", "b.state:3:", "seed 9 differs from its 1"),
        (
            "c.state",
            "c.state:2:",
            "variant white differs from its black",
        ),
        ("d.state", "d.state:4:", "shard count 3 differs from its 2"),
        ("a.state", "a.state:4:", "shard 0/2 given twice"),
    ];
    for (second, at, what) in cases {
        let run = magic_gen(&dir, &["merge", "a.state", second, "--out", "x.rs"]);
        run.assert_clean_failure();
        let expected = format!("error: {at} cannot merge with a.state: {what}");
        assert!(
            run.stderr.contains(&expected),
            "{expected:?} in\n{}",
            run.stderr
        );
        assert!(!dir.join("x.rs").exists());
    }
}

#[test]
fn bad_state_files_name_file_and_line() {
    let dir = scratch("hunt-bad-state");
    magic_gen(
        &dir,
        &[&SMALL[..], &NO_PACK[..], &["--state", "good.state"]].concat(),
    )
    .assert_success();
    let good = fs::read_to_string(dir.join("good.state")).unwrap();
    let cases = [
        (
            "garbage.state",
            "\u{0}\u{1}binary".to_string(),
            "garbage.state:1:",
        ),
        (
            "header.state",
            good.replacen("variant black", "variant grey", 1),
            "header.state:2:",
        ),
        (
            "magic.state",
            good.replacen("found rook", "found rook a1 0xZZ index", 1),
            "magic.state:",
        ),
        (
            "shard.state",
            good.replacen("shard 0/1", "shard 3/2", 1),
            "shard.state:4:",
        ),
    ];
    for (name, text, at) in cases {
        fs::write(dir.join(name), text).unwrap();
        for args in [vec!["search", "--resume", name], vec!["merge", name]] {
            let run = magic_gen(&dir, &args);
            run.assert_clean_failure();
            assert!(
                run.stderr.contains(at),
                "{args:?}: expected {at:?} in\n{}",
                run.stderr
            );
        }
    }
}

/// The library's hunt and the command line's are one: each preset and the plain black and
/// white searches, cut to seconds by the same options on both sides, give the same set.
#[test]
fn the_library_hunts_as_the_command_line_does() {
    use magic_gen::hunt::{Hooks, Hunt, Preset, Wanted};
    use magic_gen::search::{Budget, Options, SearchState};
    use magic_gen::Variant;

    let dir = scratch("library-cli");
    let small = |mut o: Options| {
        o.scan.budget = Budget::Candidates(4096);
        o.limits.polish.polish = o.limits.polish.polish.min(200);
        o.limits.polish.clump = o.limits.polish.clump.min(200);
        o.limits.polish.evolve = o.limits.polish.evolve.min(200);
        // An overlay packing's moves each try every member of a square's pool: a few.
        o.limits.pack.iterations = if o.limits.pack.overlay { 5 } else { 500 };
        o.limits.threads = 2;
        o
    };
    let cut = ["--candidates", "4096", "--threads=2"];
    let mut cases: Vec<(Options, Vec<&str>)> = Vec::new();
    for variant in [Variant::Black, Variant::White] {
        let name = if variant == Variant::Black {
            "black"
        } else {
            "white"
        };
        cases.push((
            Options::for_variant(variant),
            vec!["--variant", name, "--polish", "200"],
        ));
    }
    for preset in Preset::ALL {
        let mut args = vec!["--preset", preset.name(), "--polish", "200"];
        if preset == Preset::RecordWhite {
            args.extend(["--clump", "200"]);
        }
        if preset.options().limits.polish.evolve > 0 {
            args.extend(["--evolve", "200"]);
        }
        cases.push((preset.options(), args));
    }
    for (options, args) in cases {
        let options = small(options);
        let mut state = SearchState::new(&options).unwrap();
        let hunt = Hunt::search(&mut state, &options.limits, Wanted::Set);
        let library = hunt.run(Hooks::default()).unwrap();
        let out = dir.join("set.txt");
        let mut command = vec!["search"];
        command.extend(&args);
        command.extend(cut);
        let moves = options.limits.pack.iterations.to_string();
        command.extend(["--pack-iterations", moves.as_str()]);
        command.extend(["--out", out.to_str().unwrap()]);
        magic_gen(&dir, &command).assert_success();
        let (cli, _, _) = magic_gen::read_set_file(&out).unwrap();
        assert_eq!(cli, library.set, "{args:?}");
    }
}

#[test]
fn an_evolved_black_hunt_merges_from_its_state_as_one_run() {
    let dir = scratch("hunt-evolve");
    let run = |args: &[&str]| magic_gen(&dir, args);
    let evolve = ["--evolve", "3000"];
    run(&[
        &SMALL[..],
        &NO_PACK[..],
        &evolve[..],
        &["--state", "s.state", "--out", "whole.rs"],
    ]
    .concat())
    .assert_success();
    // The state keeps the evolution, so a merge without options evolves as the run did.
    let state = fs::read_to_string(dir.join("s.state")).unwrap();
    assert!(state.contains(" evolve 3000 "), "{state}");
    run(&["merge", "s.state", "--out", "merged.rs"]).assert_success();
    assert_eq!(
        set_body(&dir.join("merged.rs")),
        set_body(&dir.join("whole.rs"))
    );
    // The evolved magics join the pools: without them the table differs.
    run(&["merge", "s.state", "--evolve", "0", "--out", "plain.rs"]).assert_success();
    assert_ne!(
        set_body(&dir.join("plain.rs")),
        set_body(&dir.join("whole.rs"))
    );
}
