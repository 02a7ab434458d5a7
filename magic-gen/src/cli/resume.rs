//! What keeps a file from resuming a run, worded with the command line's options and
//! commands, which the library leaves to the CLI: a pack checkpoint that does not fit the
//! run (the library says which setting and the two values, [`Mismatch`]), and a hunt's
//! file of the other kind given to resume ([`ReadError::instead`]).

use magic_gen::pack::Mismatch;
use magic_gen::set_file::HuntFile;
use magic_gen::ReadError;

/// Returns `error`, from reading a file to resume from or a set, saying the command that
/// resumes the file where it is a hunt's file of another kind.
pub fn read_error_worded(error: &ReadError) -> String {
    match error.instead {
        Some(HuntFile::SearchState) => format!("{error}, resumed by `magic-gen search --resume`"),
        Some(HuntFile::PackCheckpoint) => {
            format!("{error}, resumed by `magic-gen pack SET --resume FILE`")
        }
        None => error.to_string(),
    }
}

/// Returns what keeps a checkpoint from resuming the run, naming the option that differs
/// and, where one does, the value that goes on with the checkpoint.
pub fn mismatch_worded(mismatch: &Mismatch) -> String {
    let with = |on: bool| if on { "with" } else { "without" };
    match *mismatch {
        Mismatch::Seeds { saved, .. } => {
            format!("{mismatch}: give --pack-seeds {saved} to finish them")
        }
        Mismatch::Iterations { saved, .. } => {
            format!("{mismatch}: give --pack-iterations {saved} to finish it")
        }
        Mismatch::Seed { saved, .. } => format!("{mismatch}: give --pack-seed {saved}"),
        Mismatch::NegativeOffsets { saved, asked } => format!(
            "the checkpoint packs {} --negative-offsets, this run {} them",
            with(saved),
            with(asked)
        ),
        Mismatch::Spread { saved, asked } => format!(
            "the checkpoint is of a packing with --pack-spread {saved}, this run asks for {asked}"
        ),
        Mismatch::ShortSpans { saved, asked } => format!(
            "the checkpoint packs {} --short-spans, this run {} them",
            with(saved),
            with(asked)
        ),
        Mismatch::FromInput { saved, asked } => format!(
            "the checkpoint packs {} --from-input, this run {} it",
            with(saved),
            with(asked)
        ),
        Mismatch::Pools { .. } | Mismatch::Damaged(_) => mismatch.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_setting_and_file_of_the_other_kind_is_worded_with_its_option() {
        let cases = [
            (
                Mismatch::Seeds { saved: 2, asked: 3 },
                "the checkpoint holds 2 packings, this run asks for 3: give --pack-seeds 2 to \
                 finish them",
            ),
            (
                Mismatch::Spread {
                    saved: 0.0,
                    asked: 0.03,
                },
                "the checkpoint is of a packing with --pack-spread 0, this run asks for 0.03",
            ),
            (
                Mismatch::ShortSpans {
                    saved: true,
                    asked: false,
                },
                "the checkpoint packs with --short-spans, this run without them",
            ),
        ];
        for (mismatch, said) in cases {
            assert_eq!(mismatch_worded(&mismatch), said);
        }
        // A pack checkpoint given to `search --resume` says what resumes it.
        let pack = magic_gen::pack::PackCheckpoint::file_text(&[]);
        let e = magic_gen::search::SearchState::parse("p.pack", pack.as_bytes()).unwrap_err();
        assert_eq!(
            read_error_worded(&e),
            "p.pack:1: not a magic-gen search state (expected 'magic-gen-state 1' or \
             'magic-gen-state 2'): this is a pack checkpoint, resumed by `magic-gen pack SET \
             --resume FILE`"
        );
        // The library's own words name no option.
        let damaged = Mismatch::Damaged("best 3".into());
        assert_eq!(mismatch_worded(&damaged), damaged.to_string());
        assert!(!Mismatch::ShortSpans {
            saved: true,
            asked: false
        }
        .to_string()
        .contains("--"));
    }
}
