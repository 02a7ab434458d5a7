//! What the commands say and where they say it: each file of several named (`verify`),
//! the set alone on standard output when it goes there (`stats --picture -`).

mod common;

use std::fs;

use common::{committed, magic_gen, scratch};

#[test]
fn verify_takes_several_files_and_names_each_one_that_fails() {
    let dir = scratch("verify-several");
    fs::write(dir.join("broken.txt"), "variant fancy\n").unwrap();
    let (fancy, black) = (committed("fancy"), committed("black"));
    let (fancy, black) = (fancy.to_str().unwrap(), black.to_str().unwrap());
    let run = magic_gen(&dir, &["verify", fancy, black]);
    run.assert_success();
    assert_eq!(
        run.stdout.matches("collision-free").count(),
        2,
        "{}",
        run.stdout
    );
    // One bad file among good ones: each good one still verified, the bad one named.
    let run = magic_gen(&dir, &["verify", fancy, "broken.txt", black, "missing.txt"]);
    run.assert_clean_failure();
    assert_eq!(
        run.stdout.matches("collision-free").count(),
        2,
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains("error: broken.txt"), "{}", run.stderr);
    assert!(
        run.stderr.contains("error: missing.txt: cannot read"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("error: 2 of 4 files failed: broken.txt, missing.txt"),
        "{}",
        run.stderr
    );
}

#[test]
fn stats_picture_to_standard_output_writes_the_svg_alone_there() {
    // `stats FILE --picture - > x.svg` makes an SVG file: the figures go to standard error.
    let dir = scratch("stats-picture-stdout");
    let black = committed("black");
    let run = magic_gen(&dir, &["stats", black.to_str().unwrap(), "--picture", "-"]);
    run.assert_success();
    assert!(run.stdout.starts_with("<svg"), "{}", &run.stdout[..200]);
    assert!(run.stdout.trim_end().ends_with("</svg>"));
    assert!(run.stderr.contains("table length: "), "{}", run.stderr);
}
