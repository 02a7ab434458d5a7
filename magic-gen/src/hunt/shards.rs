//! The header of a set merged from a search's shards: the shards' commands, the merge's,
//! and what a partial merge left.

use crate::io::{Provenance, Step};
use crate::search::{SearchState, Shard};

impl SearchState {
    /// Returns the header of the set merged from the shard `states`, before what a stop cut
    /// short: the shards' commands (`shard_steps`, each state's), then the `merge`'s, and
    /// what a partial merge left (the shards `missing`).
    pub fn merged_header(
        states: &[SearchState],
        shard_steps: Vec<Vec<Step>>,
        missing: &[Shard],
        merge: Step,
    ) -> Provenance {
        let partial = (!missing.is_empty()).then(|| {
            let names: Vec<String> = missing.iter().map(Shard::to_string).collect();
            format!(
                "a partial merge of {} of {} shards; missing {}: merge with their state files \
                 to finish",
                states.len(),
                states[0].scan.shard.count,
                names.join(", ")
            )
        });
        Provenance {
            seed: Some(states[0].scan.seed),
            unfinished: partial,
            steps: shard_steps.into_iter().flatten().chain([merge]).collect(),
            // The shards searched from nothing: no other author's magics.
            credits: Vec::new(),
        }
    }
}
