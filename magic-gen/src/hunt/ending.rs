//! How a hunt ended, the one account of it that a set's header and a run's last words are
//! made from: where a stop cut it, how it goes on, and its exit status ([`Ending`]); and
//! the note a set's header keeps of what a stop cut short.

use super::cut::{Cut, Keeps};
use super::plan::Outcome;
use crate::io::{Provenance, Step};
use crate::pack::PackSettings;
use crate::stages::Stage;

/// How a run that a stop cut short goes on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoesOn {
    /// By this command, from the file the run saved.
    From(Step),
    /// By these commands again, from nothing: the run saved no file of the kind it keeps
    /// (none was named, or a save failed).
    Unsaved(Keeps, Vec<Step>),
    /// By these commands again: the stage cut keeps no file (a stage that changes magics,
    /// a merge).
    Rerun(Vec<Step>),
}

/// How a hunt ended: what a stop cut short and how the run goes on, whether it was stopped
/// at all, and so its exit status. `magic-gen search`, `merge` and `pack` word this alone.
///
/// ```
/// use magic_gen::hunt::{Hooks, Hunt, Progress, Stage};
/// use magic_gen::pack::PackSettings;
/// use magic_gen::search::Limits;
/// use magic_gen::set_file::Step;
/// use std::sync::atomic::Ordering;
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/published-black-87988.txt");
/// let set = magic_gen::read_set_file(std::path::Path::new(path))?.0;
/// let report = magic_gen::verify(&set).unwrap().report;
/// // A packing stopped before its first move, given no file to keep its checkpoint in:
/// // the run is made again from nothing.
/// let pack = PackSettings { iterations: 10, overlay: true, ..PackSettings::default() };
/// let limits = Limits { pack, ..Limits::default() };
/// let progress = Progress::default();
/// progress.stop.store(true, Ordering::Relaxed);
/// let hooks = Hooks { progress: Some(&progress), ..Hooks::default() };
/// let outcome = Hunt::repack(&set, &report, &limits).run(hooks)?;
/// let rerun = vec![Step::new("pack")];
/// let ending = outcome.ending(true, None, rerun.clone());
/// let cut = ending.cut.as_ref().map(|(cut, _)| (cut.stage, cut.made, cut.total));
/// assert_eq!(cut, Some((Stage::Packing, 0, 10)));
/// let goes_on = format!("{:?}", ending.cut.as_ref().unwrap().1);
/// assert_eq!(goes_on, format!("Unsaved(Checkpoint, {rerun:?})"));
/// assert!(!ending.complete());
/// assert_eq!(ending.exit_status(), 130); // Ending::STOPPED
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// Where a stop cut the hunt short, and how the run goes on; none if every stage ran
    /// to its end.
    pub cut: Option<(Cut, GoesOn)>,
    /// The scan's counted budget, spent and whole, where a search's scan has one
    /// ([`SearchState::budget_used`](crate::search::SearchState::budget_used)).
    pub budget: Option<(u64, u64)>,
    /// Whether the run was told to stop: one stopped after its last step cut nothing, and
    /// is stopped all the same.
    pub stopped: bool,
}

impl Ending {
    /// The exit status of a stopped run: what a shell gives a program Ctrl-C ended (128 +
    /// SIGINT), so that a script sees the stop.
    pub const STOPPED: u8 = 130;

    /// Returns true if the set is all its command gives: no stage was cut short.
    pub fn complete(&self) -> bool {
        self.cut.is_none()
    }

    /// Returns the exit status of the run: 0, or [`Ending::STOPPED`].
    pub fn exit_status(&self) -> u8 {
        match self.stopped {
            true => Ending::STOPPED,
            false => 0,
        }
    }
}

impl Outcome {
    /// Returns how this hunt ended: `stopped` says whether the run was told to stop,
    /// `saved` is the command that goes on from the file the run saved (none saved: none),
    /// `rerun` the commands that redo the run from nothing.
    pub fn ending(&self, stopped: bool, saved: Option<Step>, rerun: Vec<Step>) -> Ending {
        let cut = self.cut.map(|cut| {
            let keeps = self.keeps.filter(|keeps| keeps.resumes(cut.stage));
            let goes_on = match (keeps, saved) {
                (None, _) => GoesOn::Rerun(rerun),
                (Some(_), Some(step)) => GoesOn::From(step),
                (Some(keeps), None) => GoesOn::Unsaved(keeps, rerun),
            };
            (cut, goes_on)
        });
        Ending {
            stopped: stopped || cut.is_some(),
            cut,
            budget: self.scan_budget,
        }
    }

    /// Records in `steps`, the commands that made this hunt's set, the moves its packing
    /// made in place of a time bound (`--pack-seconds`): a time bound reruns to another
    /// set on another machine, the moves to the same one.
    pub fn record_moves(&self, steps: &mut [Step]) {
        if let Some(moves) = self.pack_moves {
            PackSettings::record_moves(steps, moves.each);
        }
    }
}

impl Outcome {
    /// Returns `header` as the set of this hunt is written with it: the moves its packing
    /// made recorded ([`Outcome::record_moves`]), and what a stop cut short (`ending`) added
    /// to its unfinished note (a partial merge's, or the input's of a packing).
    pub fn header(&self, mut header: Provenance, ending: &Ending) -> Provenance {
        self.record_moves(&mut header.steps);
        header.unfinished = unfinished(header.unfinished.take(), ending);
        header
    }
}

/// Returns the unfinished note of a set's header: the `earlier` one, then what a stop cut
/// short (`ending`) and how the run goes on.
pub(crate) fn unfinished(earlier: Option<String>, ending: &Ending) -> Option<String> {
    let Some((cut, goes_on)) = &ending.cut else {
        return earlier;
    };
    let done = cut_worded(*cut, ending.budget);
    let note = match goes_on {
        GoesOn::From(step) => format!("{done}; finish with `{step}`"),
        GoesOn::Unsaved(keeps, rerun) => format!(
            "{done}; no saved {} to resume: rerun `{}`",
            keeps.name(),
            Step::chain_line(rerun)
        ),
        GoesOn::Rerun(rerun) => format!("{done}; rerun `{}`", Step::chain_line(rerun)),
    };
    Some(match earlier {
        Some(earlier) => format!("{earlier}; then {note}"),
        None => note,
    })
}

/// Returns what a stop cut short (`cut`), as a set's header says it; `budget` is a scan's
/// counted budget, spent and whole.
pub(crate) fn cut_worded(cut: Cut, budget: Option<(u64, u64)>) -> String {
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
