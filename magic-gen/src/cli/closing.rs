//! The end of a `search`, `merge` or `pack` run worded, once for the three: from the
//! hunt's [`Ending`], the run's last words and exit code (the note a set's header keeps of
//! what a stop cut short is the library's, `Outcome::header`).

use std::path::Path;
use std::process::ExitCode;

use crate::hunt::cut::Cut;
use crate::hunt::ending::cut_worded;
use crate::hunt::ending::{Ending, GoesOn};
use crate::hunt::Stage;

use super::output::show;

/// Says how a stopped run ended (what a stop cut short, the set it wrote, how it goes on;
/// `kept`: the input of a packing in place, not written over by a run cut short) and
/// returns the run's exit code.
pub fn close(ending: &Ending, kept: Option<&Path>) -> ExitCode {
    if ending.stopped {
        tell!("{}", last_words(ending, kept));
    }
    ExitCode::from(ending.exit_status())
}

/// Returns the last words of a stopped run ([`close`]).
fn last_words(ending: &Ending, kept: Option<&Path>) -> String {
    let Some((cut, goes_on)) = &ending.cut else {
        return "stopped after the last step: the set above is complete and verified".into();
    };
    let Cut { stage, made, total } = *cut;
    let (during, set) = match stage {
        Stage::Scan => (
            String::new(),
            "complete and verified; unfinished squares fell back",
        ),
        Stage::Polish => (
            format!(" during the polish ({made} of {total} climbs)"),
            "verified, the finds not climbed packed as scanned, greedily",
        ),
        Stage::RooksFirst { .. } | Stage::Holes { .. } => (
            " while giving squares magics for the holes".into(),
            "verified",
        ),
        Stage::Packing => (
            format!(" after {made} of {total} packing moves"),
            "the best layout met, verified",
        ),
        Stage::Pools | Stage::Verification | Stage::Writing => {
            (format!(" ({})", cut_worded(*cut, None)), "verified")
        }
    };
    let kept = kept.map_or(String::new(), |input| {
        format!(
            ", and not written: {} is this packing's input, kept as it was until a run ends",
            show(input)
        )
    });
    let how = match goes_on {
        GoesOn::From(step) => format!("; `{step}` goes on from there"),
        // Hours of moves are what a run without its file loses: said for the packing.
        GoesOn::Unsaved(..) if stage == Stage::Packing => {
            "; give --state FILE to keep a checkpoint".into()
        }
        GoesOn::Unsaved(..) => String::new(),
        GoesOn::Rerun(_) if stage.changes_magics() => {
            "; rerun the command to choose them all and pack".into()
        }
        GoesOn::Rerun(_) => "; rerun the command to finish it".into(),
    };
    format!("interrupted{during}: the set above is {set}{kept}{how}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hunt::cut::Keeps;
    use crate::hunt::ending::unfinished;
    use crate::set_file::Step;

    #[test]
    fn a_cut_run_says_what_was_cut_and_how_it_goes_on_in_its_header_and_last_words() {
        let packing = Cut {
            stage: Stage::Packing,
            made: 5,
            total: 9,
        };
        let ending = |goes_on| Ending {
            cut: Some((packing, goes_on)),
            budget: None,
            stopped: true,
        };
        let rerun = vec![Step::new("pack")];
        let resume = Step::new("resume");
        let cases = [
            (
                GoesOn::From(resume),
                "finish with `magic-gen resume`",
                "; `magic-gen resume` goes on from there",
            ),
            (
                GoesOn::Unsaved(Keeps::Checkpoint, rerun.clone()),
                "no saved checkpoint to resume: rerun `magic-gen pack`",
                "; give --state FILE to keep a checkpoint",
            ),
            (
                GoesOn::Rerun(rerun),
                "rerun `magic-gen pack`",
                "; rerun the command to finish it",
            ),
        ];
        let earlier = Some("a partial merge".to_string());
        for (goes_on, note, how) in cases {
            let ending = ending(goes_on);
            let note = format!("the packing stopped after 5 of 9 moves; {note}");
            assert_eq!(unfinished(None, &ending), Some(note.clone()));
            let after = format!("a partial merge; then {note}");
            assert_eq!(unfinished(earlier.clone(), &ending), Some(after));
            assert_eq!(
                last_words(&ending, Some(Path::new("in.rs"))),
                format!(
                    "interrupted after 5 of 9 packing moves: the set above is the best layout \
                     met, verified, and not written: in.rs is this packing's input, kept as it \
                     was until a run ends{how}"
                )
            );
        }
        let finished = Ending {
            cut: None,
            budget: None,
            stopped: true,
        };
        assert_eq!(unfinished(earlier.clone(), &finished), earlier);
        assert!(last_words(&finished, None).starts_with("stopped after the last step"));
    }
}
