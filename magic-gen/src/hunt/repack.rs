//! A set packed again as a list of stages (rooks first, magics for the holes, the packing
//! with other sets' magics) run by one driver, with the rules that bind them: a stop
//! before the packing leaves no checkpoint to resume (the packing's input is not a
//! rerun's), the packing's checkpoint is saved at the end, and the set never comes out
//! longer than it went in. `magic-gen pack` is this with a progress display and files
//! around it.

use std::sync::atomic::Ordering;

use super::pipeline::{pack_hooks, Hooks, Saves};
use crate::pack::{PackCheckpoint, PackSettings};
use crate::search::finish as finishing;
use crate::search::holes::{into_holes, rooks_first};
use crate::search::{Error, Limits, Progress, SearchOutcome, Stage};
use crate::set::MagicSet;
use crate::verify::Report;

/// A stage of a repack before its packing, in the order [`RepackStage::stages_for`] lists
/// them. The packing (greedy, then annealed as the limits' packing settings say, each
/// square choosing between its magic and those of [`Repack::also`]) ends every repack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepackStage {
    /// The rooks packed among themselves, the bishops laid into their holes, each square
    /// with its own magic or one of the first `blocks` blocks of its candidate stream
    /// (seeded by the packing's seed): what the packer's one-square moves cannot do, a
    /// rook that ends the table moved down past the bishops below it.
    RooksFirst {
        /// Blocks of 4,096 candidates each square draws from (0: its own magic only).
        blocks: u64,
    },
    /// Each square, from the highest end down, given the magic of the first `blocks`
    /// blocks of its candidate stream (or its own) that fits lowest in the slots the
    /// others take: magics chosen for the layout's holes.
    Holes {
        /// Blocks of 4,096 candidates each square draws from.
        blocks: u64,
    },
}

/// Where a stop cut a repack short before its packing: the packing that followed (which
/// ends at once, greedy) had other magics than a rerun's, so its checkpoint is neither
/// saved nor offered, and the set is finished by a rerun.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepackCut {
    /// In the rooks-first pass: the holes stage, if any, gave no square a magic.
    RooksFirst,
    /// In the holes stage, after `done` of the 128 squares.
    Holes {
        /// Squares given a magic for the holes before the stop.
        done: u64,
    },
}

/// A repack: its stages before the packing, the other sets whose magics the packing may
/// take, and the limits (threads, packing settings) it runs within.
///
/// ```
/// use magic_gen::hunt::{Hooks, Repack, RepackStage};
/// use magic_gen::pack::PackSettings;
/// use magic_gen::search::Limits;
///
/// let read = |name: &str| {
///     let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
///     magic_gen::read_set_file(std::path::Path::new(&path)).map(|r| r.0)
/// };
/// let (white, black) = (read("published-white-88772.txt")?, read("published-black-87988.txt")?);
/// let report = magic_gen::verify(&white).unwrap().report;
/// // Another set's magics must be of the same variant.
/// let others = [black];
/// let limits = Limits::default();
/// let wrong = Repack { stages: RepackStage::stages_for(false, 0), also: &others, limits };
/// assert!(wrong.run(&white, &report, &[], Hooks::default()).is_err());
/// // The holes first, then a short packing with the set's own magics and a copy's.
/// let others = [white.clone()];
/// let pack = PackSettings { iterations: 1000, ..PackSettings::default() };
/// let limits = Limits { pack, ..Limits::default() };
/// let stages = RepackStage::stages_for(false, 1);
/// assert_eq!(stages, [RepackStage::Holes { blocks: 1 }]);
/// let repack = Repack { stages, also: &others, limits };
/// let repacked = repack.run(&white, &report, &[], Hooks::default())?;
/// assert!(magic_gen::verify(&repacked.outcome.set).is_ok());
/// // Never longer than the input: the input itself where the packing was not shorter.
/// assert!(repacked.outcome.report.table_len <= report.table_len);
/// assert_eq!(repacked.cut, None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Repack<'a> {
    /// The stages run, in order, before the packing.
    pub stages: Vec<RepackStage>,
    /// Sets (verified, of the packed set's variant) whose magics each square's pool holds
    /// beside its own.
    pub also: &'a [MagicSet],
    /// Threads, and the packing's settings (whose seed seeds the candidate streams too).
    pub limits: Limits,
}

/// What a repack made: the set to write, how long the packing came out, and what a stop
/// cut short.
#[derive(Clone, Debug)]
pub struct Repacked {
    /// The set to write, verified, with its report: the packing's, or the input (and its
    /// report) where the packing was not shorter. Where the packing ended
    /// ([`SearchOutcome::pack`]) and the first save that failed
    /// ([`SearchOutcome::save_failed`]) are the packing's.
    pub outcome: SearchOutcome,
    /// Table length of the input.
    pub input_len: usize,
    /// Table length of the packing's layout, which may be longer than the input's.
    pub packed_len: usize,
    /// Where a stop before the packing cut the repack short, if one did.
    pub cut: Option<RepackCut>,
}

impl Repacked {
    /// Returns whether the input was kept, the packing's layout being no shorter.
    pub fn kept_input(&self) -> bool {
        self.packed_len >= self.input_len
    }
}

impl RepackStage {
    /// Returns the stages a repack runs before its packing: the rooks-first pass if
    /// `rooks_first`, then the holes if `holes_blocks` is not 0 (both drawing from that
    /// many blocks).
    pub fn stages_for(rooks_first: bool, holes_blocks: u64) -> Vec<RepackStage> {
        let mut stages = Vec::new();
        if rooks_first {
            stages.push(RepackStage::RooksFirst {
                blocks: holes_blocks,
            });
        }
        if holes_blocks > 0 {
            stages.push(RepackStage::Holes {
                blocks: holes_blocks,
            });
        }
        stages
    }

    /// Returns `set` with this stage run on it, drawing from candidate streams seeded as
    /// `pack` says, counting in and stopped by `progress`.
    fn run(self, set: &MagicSet, pack: &PackSettings, progress: &Progress) -> MagicSet {
        let (seed, negative) = (pack.seed, pack.negative_offsets);
        match self {
            RepackStage::RooksFirst { blocks } => {
                rooks_first(set, seed, blocks, negative, progress)
            }
            RepackStage::Holes { blocks } => into_holes(set, seed, blocks, negative, progress),
        }
    }

    /// Returns what a stop during this stage cut, as far as `progress` counted it.
    fn cut(self, progress: &Progress) -> RepackCut {
        match (self, progress.stage()) {
            (RepackStage::Holes { .. }, Some((Stage::Holes, done, _))) => RepackCut::Holes { done },
            (RepackStage::Holes { .. }, _) => RepackCut::Holes { done: 0 },
            (RepackStage::RooksFirst { .. }, _) => RepackCut::RooksFirst,
        }
    }
}

impl Repack<'_> {
    /// Runs the stages on `set` (black or white, verified, with `report`), then the
    /// packing, going on from `resume` (a checkpoint of the same repack) unless it is empty,
    /// reporting, saving and stopping through `hooks` (a repack has no state: its save is
    /// given `None`). Every stage ends at once with what it has when the stop flag is set;
    /// a stop before the packing is its [`Repacked::cut`], after which nothing is saved.
    /// The packing's checkpoint is saved once more at the end, unless a save failed.
    pub fn run(
        &self,
        set: &MagicSet,
        report: &Report,
        resume: &[PackCheckpoint],
        hooks: Hooks,
    ) -> Result<Repacked, Error> {
        let fallback = Progress::default();
        let progress = hooks.progress.unwrap_or(&fallback);
        let mut saves = Saves::new(hooks.save, &progress.stop);
        let mut changed = set.clone();
        let mut cut = None;
        for stage in &self.stages {
            changed = stage.run(&changed, &self.limits.pack, progress);
            // The first stage stopped is the cut; those after it end at once.
            if cut.is_none() && progress.stop.load(Ordering::SeqCst) {
                cut = Some(stage.cut(progress));
            }
        }
        // After a cut the packing's input is not a rerun's: nothing of it is saved.
        let every = saves.every().filter(|_| cut.is_none());
        let mut outcome = {
            let mut save_pack = |c: &[PackCheckpoint]| saves.now(None, c);
            let mut hooks = pack_hooks(Some(progress), every, &mut save_pack, self.limits.threads);
            finishing::repack(&changed, self.also, &self.limits.pack, resume, &mut hooks)?
        };
        if cut.is_none() && !outcome.pack.is_empty() {
            saves.last(None, &outcome.pack);
        }
        outcome = saves.kept_in(outcome);
        let packed_len = outcome.report.table_len;
        // A set packed by other means (or annealed longer) may beat this packing: a repack
        // never makes a table longer.
        if packed_len >= report.table_len {
            (outcome.set, outcome.report) = (set.clone(), report.clone());
        }
        Ok(Repacked {
            outcome,
            input_len: report.table_len,
            packed_len,
            cut,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// The published black set, whose greedy layout is longer than its own.
    fn published_black() -> (MagicSet, Report) {
        let set = crate::pack::test_support::published_set("published-black-87988.txt");
        let report = crate::verify(&set).unwrap().report;
        (set, report)
    }

    /// Returns `stages` with a packing of `iterations` moves.
    fn repack(stages: Vec<RepackStage>, iterations: u64) -> Repack<'static> {
        let pack = PackSettings {
            iterations,
            ..PackSettings::default()
        };
        let limits = Limits {
            pack,
            ..Limits::default()
        };
        Repack {
            stages,
            also: &[],
            limits,
        }
    }

    /// Runs `repack` on the published black set, stopped before it starts if `stop`;
    /// returns what it made and the move counts of the checkpoints it saved.
    fn run_saving(repack: &Repack, stop: bool) -> (Repacked, Vec<(u64, u64)>) {
        let (set, report) = published_black();
        let progress = Progress::default();
        progress.stop.store(stop, Ordering::SeqCst);
        let mut saved = Vec::new();
        let mut save = |_: Option<&_>, c: &[PackCheckpoint]| {
            saved.push(PackCheckpoint::moves_of(c));
            Ok(())
        };
        let hooks = Hooks {
            progress: Some(&progress),
            save: Some((Duration::ZERO, &mut save)),
        };
        let repacked = repack.run(&set, &report, &[], hooks).unwrap();
        (repacked, saved)
    }

    #[test]
    fn a_stop_before_the_packing_is_its_cut_and_saves_nothing() {
        let (set, _) = published_black();
        for (rooks_first, cut) in [
            (true, RepackCut::RooksFirst),
            (false, RepackCut::Holes { done: 0 }),
        ] {
            let stages = RepackStage::stages_for(rooks_first, 1);
            let (repacked, saved) = run_saving(&repack(stages, 1000), true);
            assert_eq!(repacked.cut, Some(cut));
            assert_eq!(saved, []);
            // The greedy layout the stopped packing kept is longer: the input is written.
            assert!(repacked.kept_input());
            assert_eq!(repacked.outcome.set, set);
        }
    }

    #[test]
    fn a_stop_in_the_packing_alone_is_no_cut_and_its_checkpoint_is_saved() {
        let (repacked, saved) = run_saving(&repack(RepackStage::stages_for(false, 0), 1000), true);
        assert_eq!(repacked.cut, None);
        assert_eq!(saved.last(), Some(&(0, 1000)));
    }

    #[test]
    fn the_finished_packing_is_saved_last_and_never_comes_out_longer() {
        let (set, report) = published_black();
        let (repacked, saved) = run_saving(&repack(Vec::new(), 2000), false);
        assert_eq!(saved.last(), Some(&(2000, 2000)));
        let len = repacked.outcome.report.table_len;
        assert_eq!(len, repacked.packed_len.min(report.table_len));
        if repacked.kept_input() {
            assert_eq!(repacked.outcome.set, set);
        }
        assert!(crate::verify(&repacked.outcome.set).is_ok());
    }
}
