//! The end of a `search`, `merge` or `pack` run worded, once for the three: from the
//! hunt's [`Ending`], the note a set's header keeps of what a stop cut short, and the run's
//! last words and exit code.

use std::path::Path;
use std::process::ExitCode;

use crate::hunt::{Cut, Ending, GoesOn, Keeps, Outcome, Stage};
use crate::set_file::{Provenance, Step};

use super::output::show;

/// Returns `header` as the set of `outcome` is written with it: the moves its packing made
/// recorded ([`Outcome::record_moves`]), and what a stop cut short (`ending`) added to its
/// unfinished note (a partial merge's, or the input's of a packing).
pub fn provenance(mut header: Provenance, outcome: &Outcome, ending: &Ending) -> Provenance {
    outcome.record_moves(&mut header.steps);
    header.unfinished = unfinished(header.unfinished.take(), ending);
    header
}

/// Returns the unfinished note of a set's header: the `earlier` one, then what a stop cut
/// short (`ending`) and how the run goes on.
fn unfinished(earlier: Option<String>, ending: &Ending) -> Option<String> {
    let Some((cut, goes_on)) = &ending.cut else {
        return earlier;
    };
    let done = cut_worded(*cut, ending.budget);
    let note = match goes_on {
        GoesOn::From(step) => format!("{done}; finish with `{step}`"),
        GoesOn::Unsaved(keeps, rerun) => format!(
            "{done}; no saved {} to resume: rerun `{}`",
            file_of(*keeps),
            Step::chain_line(rerun)
        ),
        GoesOn::Rerun(rerun) => format!("{done}; rerun `{}`", Step::chain_line(rerun)),
    };
    Some(match earlier {
        Some(earlier) => format!("{earlier}; then {note}"),
        None => note,
    })
}

/// Returns the name of the file a hunt keeps.
fn file_of(keeps: Keeps) -> &'static str {
    match keeps {
        Keeps::State => "state",
        Keeps::Checkpoint => "checkpoint",
    }
}

/// Returns what a stop cut short (`cut`), as a set's header says it; `budget` is a scan's
/// counted budget, spent and whole.
fn cut_worded(cut: Cut, budget: Option<(u64, u64)>) -> String {
    let Cut { stage, made, total } = cut;
    match stage {
        Stage::Scan => {
            let budget = match budget {
                Some((spent, total)) => format!(
                    " at {:.1}% of its budget ({spent} of {total} candidates over all squares)",
                    100.0 * spent as f64 / total.max(1) as f64
                ),
                None => String::new(),
            };
            let open = total - made;
            format!("the scan stopped{budget}: {open} of {total} squares unfinished fell back")
        }
        Stage::Polish => format!(
            "the polish stopped after {made} of {total} climbs, the other finds left as \
             scanned, before the packing"
        ),
        // The rooks-first pass counts nothing: the holes stage after it gave no square one.
        Stage::RooksFirst { .. } | Stage::Holes { .. } => format!(
            "stopped while giving squares magics for the holes ({made} of 128 done), before \
             the packing"
        ),
        Stage::Packing => format!("the packing stopped after {made} of {total} moves"),
        // Stages a stop does not cut: they end with what they have.
        Stage::Pools | Stage::Verification | Stage::Writing => {
            format!("the {} stopped", stage.name())
        }
    }
}

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
