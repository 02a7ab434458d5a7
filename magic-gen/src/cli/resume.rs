//! What keeps a file from resuming a run, worded with the command line's options and
//! commands, which the library leaves to the CLI: a pack checkpoint that does not fit the
//! run (the library says which setting and the two values, [`Mismatch`]), and a hunt's
//! file of the other kind given to resume ([`ReadError::instead`]).

use crate::io::HuntFile;
use crate::pack::Mismatch;
use crate::settings::Differs;
use crate::ReadError;

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
    let Mismatch::Setting(differs) = mismatch else {
        return mismatch.to_string();
    };
    let Differs {
        flag,
        switch,
        saved,
        asked,
    } = differs;
    match (switch, saved.as_str()) {
        (true, "1") => {
            format!("the checkpoint packs with --{flag}, this run without it: give it to go on")
        }
        (true, _) => format!(
            "the checkpoint packs without --{flag}, this run with it: leave it out to go on"
        ),
        (false, _) => format!(
            "the checkpoint packs with --{flag} {saved}, this run asks for {asked}: give \
             --{flag} {saved} to go on with it"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_setting_and_file_of_the_other_kind_is_worded_with_its_option() {
        let differs = |flag, switch, saved: &str, asked: &str| {
            Mismatch::Setting(Differs {
                flag,
                switch,
                saved: saved.into(),
                asked: asked.into(),
            })
        };
        let cases = [
            (
                differs("pack-seeds", false, "2", "3"),
                "the checkpoint packs with --pack-seeds 2, this run asks for 3: give \
                 --pack-seeds 2 to go on with it",
            ),
            (
                differs("short-spans", true, "1", "0"),
                "the checkpoint packs with --short-spans, this run without it: give it to go on",
            ),
            (
                differs("short-spans", true, "0", "1"),
                "the checkpoint packs without --short-spans, this run with it: leave it out \
                 to go on",
            ),
        ];
        for (mismatch, said) in cases {
            assert_eq!(mismatch_worded(&mismatch), said);
        }
        // A pack checkpoint given to `search --resume` says what resumes it.
        let pack = crate::pack::PackCheckpoint::file_text(&[]);
        let e = crate::search::SearchState::parse("p.pack", pack.as_bytes()).unwrap_err();
        assert_eq!(
            read_error_worded(&e),
            "p.pack:1: not a magic-gen search state (expected 'magic-gen-state 1' or \
             'magic-gen-state 2'): this is a pack checkpoint, resumed by `magic-gen pack SET \
             --resume FILE`"
        );
        // The library's own words name no option.
        let damaged = Mismatch::Damaged("best 3".into());
        assert_eq!(mismatch_worded(&damaged), damaged.to_string());
        assert!(!differs("short-spans", true, "1", "0")
            .to_string()
            .contains("--"));
    }
}
