//! The commands a search records beyond those given: the options a fresh search spells out
//! ([`Options::spelled_out`]), and the commands of a resumed or merged state, each step
//! saving the state the next one reads ([`SearchState::resumed_steps`],
//! [`SearchState::shard_steps`], [`SearchState::merged_command`]), so that a set's header
//! reruns from nothing.

use super::options::{Limits, Options};
use super::state::{Budget, SearchState};
use crate::io::{Step, StepError};
use crate::settings;

impl Options {
    /// Returns the values a fresh search of these options ran with that its command spells
    /// out where not given, by flag (a switch's value is the empty one): variant and seed
    /// always, the scan, pools and packing of a fixed-shift search too (so that the command
    /// says what was searched without knowing the defaults), and the finishing settings
    /// their declarations record against the variant's own.
    pub fn spelled_out(&self) -> Vec<(&'static str, String)> {
        let packed = self.scan.variant.is_packed();
        let candidates = match self.scan.budget {
            Budget::Candidates(n) if n != u64::MAX => Some(n),
            _ => None,
        };
        let values = [
            ("variant", Some(self.scan.variant.to_string())),
            ("bits", self.bits.map(|b| b.to_string())),
            ("bits-under", self.bits_under.map(|b| b.to_string())),
            ("also-fixed-shift", self.also_fixed_shift.then(String::new)),
            ("candidates", candidates.map(|n| n.to_string())),
            ("pool", packed.then(|| self.scan.pool.to_string())),
            ("sparse-pool", packed.then(|| self.scan.sparse.to_string())),
            ("patience", packed.then(|| self.scan.patience.to_string())),
            ("seed", Some(self.scan.seed.to_string())),
        ];
        let mut spelled: Vec<_> = values
            .into_iter()
            .filter_map(|(flag, value)| Some((flag, value?)))
            .collect();
        if packed {
            // Against the variant's own settings, its packing seeded as its scan.
            let mut base = Options::for_variant(self.scan.variant);
            base.reseed(self.scan.seed);
            let (limits, base) = (&self.limits, &base.limits);
            spelled.extend(settings::recorded(&limits.polish, &base.polish));
            spelled.extend(settings::recorded(&limits.pack, &base.pack));
        }
        spelled
    }
}

impl SearchState {
    /// Records a resume by `step`, which finishes as `limits` say
    /// ([`SearchState::resumed_by`]), and returns the commands that shape the set it writes,
    /// each saving the state the next resumes; an error if the state's command line does
    /// not read.
    pub fn resumed_steps(&mut self, step: &Step, limits: &Limits) -> Result<Vec<Step>, StepError> {
        let history = self.resumed_by(&step.to_string(), limits);
        let mut steps = Step::parse_chain(&history)?;
        Step::link_states(&mut steps, None);
        Ok(steps)
    }

    /// Returns the commands that made this shard's state, saved in `file`: each saving the
    /// state the next resumes, the last saving `file`.
    pub fn shard_steps(&self, file: &str) -> Result<Vec<Step>, StepError> {
        let mut steps = Step::parse_chain(&self.command)?;
        Step::link_states(&mut steps, Some(file));
        Ok(steps)
    }

    /// Returns the command line a whole merge's state saved to `saved` records: every
    /// shard's commands ([`SearchState::shard_steps`]), then the `merge` saving that state.
    pub fn merged_command(shard_steps: &[Vec<Step>], merge: &Step, saved: &str) -> String {
        let mut merge = merge.clone();
        merge.push("--state");
        merge.push(saved);
        let steps: Vec<Step> = shard_steps
            .iter()
            .flatten()
            .cloned()
            .chain([merge])
            .collect();
        Step::chain_line(&steps)
    }
}
