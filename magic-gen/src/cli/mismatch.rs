//! A pack checkpoint that does not fit the run, worded with the option that differs: the
//! library says which setting and the two values ([`Mismatch`]), the options are the CLI's.

use magic_gen::pack::Mismatch;

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
    fn each_setting_is_worded_with_its_option() {
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
