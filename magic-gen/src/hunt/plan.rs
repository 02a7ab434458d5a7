//! A hunt as a list of typed stages ([`Stage`]) run by one driver: a search from its
//! scan state, the finish of a state scanned elsewhere (the merge of shards), a set packed
//! again. The rules that bind the stages live here and nowhere else: a scan that moved on
//! voids the packing saved with its state; a shard whose set comes from the merge packs
//! greedily; a stop in a stage that changes magics leaves no packing checkpoint (a rerun's
//! packing would start from other magics); the state is saved before the stages after the
//! scan and at the end; and a set packed again never comes out longer than it went in. `magic-gen search`, `merge` and `pack` are this with a
//! progress display and files around it.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::cut::{Cut, Keeps};
use super::holes::{into_holes, rooks_first};
use super::hooks::{pack_hooks, Hooks, Saves};
use super::pools::{pools_of_finds, pools_of_set, set_of_finds, verified, Pools};
use crate::geometry::SetSquare;
use crate::pack::{
    pack, pack_overlay, PackCheckpoint, PackInput, PackMoves, PackSettings, Refused,
};
use crate::polish::polish_pools;
use crate::search::Shard;
use crate::search::{self, Error, Limits, PolishSettings, SearchState};
use crate::set::MagicSet;
use crate::stages::Progress;
use crate::stages::Stage;
use crate::verify::Report;

/// What a hunt of a scan state is run for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wanted {
    /// A set of its own: a whole hunt, or a shard written as a set.
    Set,
    /// Only its state: a shard of a hunt whose set is the merge of every shard's state
    /// packs greedily (no polish, no annealing), its set only shown.
    State,
}

/// What a hunt starts from.
enum Input<'a> {
    /// A scan state, which the scan goes on with.
    Scanning(&'a mut SearchState),
    /// A scan state scanned elsewhere: the merge of a hunt's shards.
    Scanned(&'a SearchState),
    /// A verified black or white set, with its report.
    Set(&'a MagicSet, &'a Report),
}

/// A hunt: what it starts from, its stages in order, and what they run within.
///
/// ```
/// use magic_gen::hunt::{Hooks, Hunt, Stage, Wanted};
/// use magic_gen::pack::PackSettings;
/// use magic_gen::search::{Limits, Options, SearchState};
/// use magic_gen::Variant;
///
/// // A plain hunt: its best finds laid out back to back, verified.
/// let options = Options::for_variant(Variant::Plain);
/// let mut state = SearchState::new(&options)?;
/// let hunt = Hunt::search(&mut state, &options.limits, Wanted::Set);
/// use Stage::*;
/// assert_eq!(hunt.stages(), [Scan, Pools, Verification]);
/// let outcome = hunt.run(Hooks::default())?;
/// assert_eq!(outcome.stages[0].0, Scan);
/// assert!(magic_gen::verify(&outcome.set).is_ok());
///
/// // The published white set packed again: the holes first, then a short packing with its
/// // own magics and a copy's.
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/published-white-88772.txt");
/// let white = magic_gen::read_set_file(std::path::Path::new(path)).unwrap().0;
/// let report = magic_gen::verify(&white).unwrap().report;
/// let others = [white.clone()];
/// let pack = PackSettings { iterations: 1000, ..PackSettings::default() };
/// let limits = Limits { pack, ..Limits::default() };
/// let hunt = Hunt::repack(&white, &report, &limits).with_also(&others).with_holes(1)?;
/// assert_eq!(hunt.stages(), [Holes { blocks: 1 }, Pools, Packing, Verification]);
/// let repacked = hunt.run(Hooks::default())?;
/// // Never longer than the input: the input itself where the packing was not shorter.
/// assert!(repacked.report.table_len <= report.table_len);
/// assert_eq!(repacked.cut, None);
/// # Ok::<(), magic_gen::search::Error>(())
/// ```
pub struct Hunt<'a> {
    input: Input<'a>,
    stages: Vec<Stage>,
    also: &'a [MagicSet],
    limits: Limits,
    resume: &'a [PackCheckpoint],
    greedy: bool,
}

/// What a hunt made: a verified set, how it got there and what a stop cut short.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The set, verified: for a set packed again, the packing's, or the input where the
    /// packing was not shorter ([`Outcome::kept_input`]).
    pub set: MagicSet,
    /// What its verification measured.
    pub report: Report,
    /// Targets that fell back to default bits (time budget spent or stopped).
    pub unmet: Vec<SetSquare>,
    /// Where the packer's annealing ended (fixed shift; empty otherwise): each packing's
    /// checkpoint after its last move, which is every move asked for unless the run was
    /// stopped.
    pub pack: Vec<PackCheckpoint>,
    /// The packing's moves, either packer's (none if nothing was packed).
    pub(crate) pack_moves: Option<PackMoves>,
    /// Each stage run, in order, with its wall time.
    pub stages: Vec<(Stage, Duration)>,
    /// Whether the run packed greedily: a shard run for its state alone
    /// ([`Wanted::State`]).
    pub greedy: bool,
    /// The first save of the run's state or checkpoint that failed, as the save function
    /// worded it: the run stopped there ([`Hooks::save`]), so its set is what a stop at
    /// that moment gives, and the saves from then on were not made.
    pub save_failed: Option<String>,
    /// Where a stop cut the hunt short, if one did (none when not stopped).
    pub cut: Option<Cut>,
    /// Table length of the packing's layout (of the set made, where nothing was packed),
    /// which may be longer than a repacked input's.
    pub packed_len: usize,
    /// Whether a set packed again was kept as it came, the packing's layout being no
    /// shorter.
    pub kept_input: bool,
    /// The file this hunt keeps to go on from after a stop: a search's state, a set's
    /// checkpoint of its packing; none for the finish of a state scanned elsewhere.
    pub keeps: Option<Keeps>,
    /// The scan's counted budget, spent and whole, where a search's scan has one.
    pub scan_budget: Option<(u64, u64)>,
}

impl Outcome {
    /// Returns the packer's checkpoint to save with the state: where a stopped packing
    /// stopped, so that a resume goes on from there; empty if it finished, or never made
    /// its first move (a stop during the scan), whose checkpoint is where a fresh packing
    /// starts.
    pub fn pack_to_save(&self) -> &[PackCheckpoint] {
        pack_to_save(&self.pack)
    }
}

/// Returns the checkpoint of a stopped packing that made moves ([`Outcome::pack_to_save`]).
fn pack_to_save(pack: &[PackCheckpoint]) -> &[PackCheckpoint] {
    let (made, total) = PackCheckpoint::moves_of(pack);
    if made > 0 && made < total {
        pack
    } else {
        &[]
    }
}

/// What the stages have made so far, for the next.
#[derive(Default)]
struct Work {
    /// The set: the input, changed by the stages before the packing, then the packing's.
    set: Option<MagicSet>,
    /// The polish's pools, by job.
    climbed: Option<Vec<Vec<u64>>>,
    /// The pools as the packer takes them, and where the input's layout starts each one.
    pools: Option<Pools>,
    /// The packing's checkpoints at its end.
    pack: Vec<PackCheckpoint>,
    /// The packing's moves.
    moves: Option<PackMoves>,
    /// Targets that fell back to default bits.
    unmet: Vec<SetSquare>,
    /// The set's verification.
    report: Option<Report>,
    /// The first stage left unfinished.
    cut: Option<Cut>,
    /// Whether a stage that changes magics was stopped: nothing of the packing is saved.
    void_checkpoint: bool,
}

impl Work {
    /// Keeps `cut` unless an earlier stage was cut.
    fn cut_at(&mut self, cut: Cut) {
        self.cut.get_or_insert(cut);
    }

    /// Returns the set for `stage`: a set's hunt has it from the start, a state's once its
    /// pools (fancy, plain) or its packing made it.
    fn set(&self, stage: Stage) -> Result<&MagicSet, Error> {
        self.set.as_ref().ok_or(out_of_place(stage, "a set"))
    }
}

/// A stage that changes a set's magics: the set, the seed, the blocks of each square's
/// stream it draws from, whether starts may be negative, and the progress it reports to.
type ChangeMagics = fn(&MagicSet, u64, u64, bool, &Progress) -> MagicSet;

/// Returns the error for `stage` run on an input it cannot take.
fn out_of_place(stage: Stage, needs: &str) -> Error {
    Error::Search(format!(
        "internal: the {} stage needs {needs}",
        stage.name()
    ))
}

impl<'a> Hunt<'a> {
    /// Returns the hunt of `state` within `limits`: the scan, going on where the state left
    /// it, then for black and white the polish, the pools and the packing, and the
    /// verification ([`Stage`]). A shard run for its state alone packs greedily
    /// ([`Wanted::State`]).
    pub fn search(state: &'a mut SearchState, limits: &Limits, wanted: Wanted) -> Hunt<'a> {
        let greedy = state.scan.shard != Shard::WHOLE && wanted == Wanted::State;
        let mut limits = *limits;
        if greedy {
            limits.polish = PolishSettings::default();
            limits.pack.iterations = 0;
            limits.pack.seeds = 1;
        }
        let mut stages = vec![Stage::Scan];
        stages.extend(after_scan(state));
        Hunt {
            input: Input::Scanning(state),
            stages,
            also: &[],
            limits,
            resume: &[],
            greedy,
        }
    }

    /// Returns the finish of `state`, scanned elsewhere, within `limits`: the stages of
    /// [`Hunt::search`] after the scan. What `magic-gen merge` runs on the merged state of
    /// a hunt's shards.
    pub fn finish(state: &'a SearchState, limits: &Limits) -> Hunt<'a> {
        Hunt {
            input: Input::Scanned(state),
            stages: after_scan(state),
            also: &[],
            limits: *limits,
            resume: &[],
            greedy: false,
        }
    }

    /// Returns `set` (black or white, verified, with `report`) packed again within
    /// `limits`: its pools, the packing and the verification; its own magics and bits (a
    /// set's magics are its own: the scan's seconds and the polish do nothing here) unless
    /// stages before the pools change them ([`Hunt::with_rooks_first`],
    /// [`Hunt::with_holes`]) or the pools take others' ([`Hunt::with_also`]). The way to
    /// bring a published set, or one packed by an older version, to this packer.
    pub fn repack(set: &'a MagicSet, report: &'a Report, limits: &Limits) -> Hunt<'a> {
        use Stage::*;
        Hunt {
            input: Input::Set(set, report),
            stages: vec![Pools, Packing, Verification],
            also: &[],
            limits: *limits,
            resume: &[],
            greedy: false,
        }
    }

    /// Returns the packing a repack ([`Hunt::repack`]) makes unless told otherwise:
    /// [`PackSettings::REPACK_MOVES`] moves, or none for an `overlay` packing, whose moves
    /// each lay out part of the table again (some hundred a second, not the exact packing's
    /// thousands).
    pub fn repack_defaults(overlay: bool) -> PackSettings {
        let iterations = match overlay {
            true => 0,
            false => PackSettings::REPACK_MOVES,
        };
        PackSettings {
            iterations,
            ..PackSettings::default()
        }
    }

    /// Returns this hunt with the magics of `sets` (verified, of its set's variant) in each
    /// square's pool beside its own: the packing chooses per square between the sets.
    pub fn with_also(mut self, sets: &'a [MagicSet]) -> Self {
        self.also = sets;
        self
    }

    /// Returns this hunt packing its black magics into an overlay table (variant
    /// `black-overlay`, [`crate::Variant::is_overlay`]): squares share slots where their
    /// attacks agree on the squares both can attack. Its packing makes the limits' moves
    /// of a local search on the greedy layout (seeded by the limits' seed), saving and
    /// resuming its checkpoint as an exact packing does. The same as limits whose packing
    /// is an overlay
    /// ([`crate::pack::PackSettings::overlay`]).
    pub fn into_overlay(mut self) -> Self {
        self.limits.pack.overlay = true;
        self
    }

    /// Returns this hunt going on with the packing of `checkpoint` (saved by an earlier run
    /// of the same hunt) unless it is empty.
    pub fn resuming(mut self, checkpoint: &'a [PackCheckpoint]) -> Self {
        self.resume = checkpoint;
        self
    }

    /// Returns this hunt with the rooks-first pass before its pools, drawing from `blocks`
    /// blocks of each square's stream ([`Stage::RooksFirst`]). A set's stage: an error for a
    /// hunt of a state.
    pub fn with_rooks_first(self, blocks: u64) -> Result<Self, Error> {
        self.before_pools(Stage::RooksFirst { blocks })
    }

    /// Returns this hunt with magics chosen for the holes before its pools, drawing from
    /// `blocks` blocks of each square's stream ([`Stage::Holes`]); unchanged for 0. A
    /// set's stage: an error for a hunt of a state.
    pub fn with_holes(self, blocks: u64) -> Result<Self, Error> {
        if blocks == 0 {
            return Ok(self);
        }
        self.before_pools(Stage::Holes { blocks })
    }

    /// Returns this hunt with `stage`, which changes a set's magics, just before its pools;
    /// an error, before any stage runs, for a hunt of a state (its set is made by the
    /// pools).
    fn before_pools(mut self, stage: Stage) -> Result<Self, Error> {
        let Input::Set(..) = self.input else {
            return Err(out_of_place(stage, "a set"));
        };
        let at = self.stages.iter().position(|&s| s == Stage::Pools);
        self.stages.insert(at.unwrap_or(0), stage);
        Ok(self)
    }

    /// Returns the stages, in the order they run.
    pub fn stages(&self) -> &[Stage] {
        &self.stages
    }

    /// Runs the stages in order, reporting, saving and stopping through `hooks`: once the
    /// progress's stop flag is set every stage ends in at most milliseconds with what it
    /// has (the scan's open squares fall back, the polish leaves the finds not climbed as
    /// scanned, the packing keeps its best layout), and the set is verified all the same.
    /// The first stage a stop left unfinished is the outcome's [`Outcome::cut`].
    pub fn run(mut self, hooks: Hooks) -> Result<Outcome, Error> {
        let fallback = Progress::default();
        let progress = hooks.progress.unwrap_or(&fallback);
        let mut saves = Saves::new(hooks.save, &progress.stop);
        let mut work = Work::default();
        if let Input::Set(set, _) = self.input {
            work.set = Some(set.clone());
        }
        let mut times = Vec::with_capacity(self.stages.len());
        for stage in self.stages.clone() {
            let start = Instant::now();
            match stage {
                Stage::Scan => self.scan(&mut work, progress, &mut saves)?,
                Stage::Polish => self.polish(&mut work, progress)?,
                Stage::Pools => self.pools(&mut work, progress)?,
                Stage::RooksFirst { blocks } => {
                    self.change_magics(stage, (rooks_first, blocks), &mut work, progress)?
                }
                Stage::Holes { blocks } => {
                    self.change_magics(stage, (into_holes, blocks), &mut work, progress)?
                }
                Stage::Packing => self.packing(&mut work, progress, &mut saves)?,
                Stage::Verification => {
                    let set = work.set(stage)?;
                    progress.begin(Stage::Verification, 0);
                    work.report = Some(verified(set)?);
                }
                Stage::Writing => return Err(out_of_place(stage, "a program to write the set")),
            }
            times.push((stage, start.elapsed()));
        }
        self.outcome(work, times, progress, saves)
    }

    /// Returns the scan state, for the stages that need one.
    fn state(&self, stage: Stage) -> Result<&SearchState, Error> {
        match &self.input {
            Input::Scanning(state) => Ok(state),
            Input::Scanned(state) => Ok(state),
            Input::Set(..) => Err(out_of_place(stage, "a scan state")),
        }
    }

    /// The scan: the state's jobs scanned, the state saved at the hooks' intervals and once
    /// it ends, before the stages after it (which may take long).
    fn scan(
        &mut self,
        work: &mut Work,
        progress: &Progress,
        saves: &mut Saves,
    ) -> Result<(), Error> {
        let Input::Scanning(state) = &mut self.input else {
            return Err(out_of_place(Stage::Scan, "a state to scan"));
        };
        let scanned_from = state.jobs.clone();
        progress.begin(Stage::Scan, 0);
        {
            let every = saves.every();
            let mut save_scan = |st: &SearchState| saves.now(Some(st), &[]);
            let checkpoint =
                every.map(|every| (every, &mut save_scan as &mut dyn FnMut(&SearchState)));
            search::run(state, &self.limits, progress, checkpoint);
        }
        // A scan that moved on packs other pools: the packing saved with the state is void.
        if state.jobs != scanned_from {
            self.resume = &[];
        }
        saves.now(Some(state), self.resume);
        if let Some(cut) = Cut::of_scan(state) {
            work.cut_at(cut);
        }
        Ok(())
    }

    /// The polish of the state's pools.
    fn polish(&self, work: &mut Work, progress: &Progress) -> Result<(), Error> {
        let state = self.state(Stage::Polish)?;
        let (polish, threads) = (&self.limits.polish, self.limits.threads);
        let (climbed, (done, asked)) = polish_pools(state, polish, threads, Some(progress));
        work.climbed = Some(climbed);
        if let Some(cut) = Cut::short(Stage::Polish, done, asked) {
            work.cut_at(cut);
        }
        Ok(())
    }

    /// The pools: of a set's magics with the others', or of a fixed-shift state's finds as
    /// the polish left them; a fancy or plain state's set.
    fn pools(&self, work: &mut Work, progress: &Progress) -> Result<(), Error> {
        if let Input::Set(..) = self.input {
            let set = work.set(Stage::Pools)?;
            work.pools = Some(pools_of_set(set, self.also, self.limits.pack.overlay)?);
            return Ok(());
        }
        let state = self.state(Stage::Pools)?;
        if !state.scan.variant.is_packed() {
            let (set, unmet) = set_of_finds(state);
            (work.set, work.unmet) = (Some(set), unmet);
            return Ok(());
        }
        // Every hunt of a fixed-shift state polishes before its pools (0 climbs: as scanned).
        let climbed = work
            .climbed
            .take()
            .ok_or(out_of_place(Stage::Pools, "the polish before it"))?;
        work.pools = Some(pools_of_finds(state, climbed, progress)?);
        Ok(())
    }

    /// A stage that changes the set's magics, `change` drawing from `blocks` blocks of each
    /// square's stream: the rooks first, or magics for the holes.
    fn change_magics(
        &self,
        stage: Stage,
        (change, blocks): (ChangeMagics, u64),
        work: &mut Work,
        progress: &Progress,
    ) -> Result<(), Error> {
        let set = work.set(stage)?;
        let (seed, negative) = (self.limits.pack.seed, self.limits.pack.negative_offsets);
        let changed = change(set, seed, blocks, negative, progress);
        // The steps it counted before the stop, if it counts them (the holes' squares).
        let (made, total) = match progress.stage() {
            Some((begun, done, of)) if begun == stage => (done, of),
            _ => (0, 0),
        };
        work.set = Some(changed);
        // The packing's input is not a rerun's: nothing of it is saved.
        if progress.stop.load(Ordering::SeqCst) {
            work.void_checkpoint = true;
            work.cut_at(Cut { stage, made, total });
        }
        Ok(())
    }

    /// The packing of the pools, saving its checkpoint (with the state, if there is one)
    /// at the hooks' intervals unless a stage that changes magics was stopped.
    fn packing(
        &self,
        work: &mut Work,
        progress: &Progress,
        saves: &mut Saves,
    ) -> Result<(), Error> {
        let pools = work
            .pools
            .take()
            .ok_or(out_of_place(Stage::Packing, "pools"))?;
        let variant = match &self.input {
            Input::Set(set, _) => set.variant,
            _ => self.state(Stage::Packing)?.scan.variant,
        };
        let input = PackInput {
            variant,
            pools: &pools.patterns,
            starts: &pools.starts,
        };
        let state = self.state(Stage::Packing).ok();
        // Its moves are counted in the progress's own counters.
        progress.begin(Stage::Packing, 0);
        let every = saves.every().filter(|_| !work.void_checkpoint);
        let (set, end) = {
            let mut save_pack = |c: &[PackCheckpoint]| saves.now(state, c);
            let mut hooks = pack_hooks(Some(progress), every, &mut save_pack, self.limits.threads);
            let (settings, resume) = (&self.limits.pack, self.resume);
            let packed_as = settings.check(variant).map_err(Error::Search)?;
            if settings.overlay {
                pack_overlay(packed_as, input.pools, settings, resume, &mut hooks).map_err(
                    |refused| match refused {
                        Refused::Member(at) => {
                            Error::Search(format!("{at}: its magic does not verify"))
                        }
                        Refused::Checkpoint(mismatch) => Error::checkpoint(mismatch),
                    },
                )?
            } else {
                pack(input, settings, resume, &mut hooks).map_err(Error::checkpoint)?
            }
        };
        work.moves = PackMoves::of(&end);
        if let Some(m) = work.moves {
            if let Some(cut) = Cut::short(Stage::Packing, m.made, m.asked) {
                work.cut_at(cut);
            }
        }
        (work.set, work.pack) = (Some(set), end);
        Ok(())
    }

    /// Returns the outcome of the stages' `work`, which took `times`: a scanned state saved
    /// once more with the packing to resume, and a repacked set that came out longer
    /// replaced by its input.
    fn outcome(
        self,
        work: Work,
        times: Vec<(Stage, Duration)>,
        progress: &Progress,
        mut saves: Saves,
    ) -> Result<Outcome, Error> {
        let (Some(mut set), Some(mut report)) = (work.set, work.report) else {
            return Err(out_of_place(Stage::Verification, "to end the hunt"));
        };
        // The packer saved its last checkpoint; a scanned state is saved once more, with
        // the packing only if a resume goes on with it.
        if let Input::Scanning(state) = &self.input {
            saves.now(Some(state), pack_to_save(&work.pack));
        }
        let (keeps, scan_budget) = match &self.input {
            Input::Scanning(state) => (Some(Keeps::State), state.budget_used()),
            Input::Set(..) => (Some(Keeps::Checkpoint), None),
            _ => (None, None),
        };
        let packed_len = report.table_len;
        let mut kept_input = false;
        // A set packed by other means (or annealed longer) may beat this packing: a repack
        // never makes a table longer.
        if let Input::Set(input, input_report) = self.input {
            if packed_len >= input_report.table_len && input.variant == set.variant {
                (set, report, kept_input) = (input.clone(), input_report.clone(), true);
            }
        }
        let stopped = progress.stop.load(Ordering::SeqCst);
        Ok(Outcome {
            set,
            report,
            unmet: work.unmet,
            pack: work.pack,
            pack_moves: work.moves,
            stages: times,
            greedy: self.greedy,
            save_failed: saves.error(),
            cut: work.cut.filter(|_| stopped),
            packed_len,
            kept_input,
            keeps,
            scan_budget,
        })
    }
}

/// Returns the stages of a hunt of `state` after its scan.
fn after_scan(state: &SearchState) -> Vec<Stage> {
    use Stage::*;
    if state.scan.variant.is_packed() {
        vec![Polish, Pools, Packing, Verification]
    } else {
        vec![Pools, Verification]
    }
}
