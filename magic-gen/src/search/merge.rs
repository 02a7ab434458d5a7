//! Merging the states of a hunt's shards into the state of one run over the whole space.

use crate::geometry::square_name;
use crate::io::Step;

use super::candidates::Shard;
use super::options::Error;
use super::state::{Job, Scan, SearchState};

/// Why shard states do not merge: the fields of [`Error::Merge`].
struct MergeError {
    state: usize,
    with: usize,
    line: Option<String>,
    message: String,
}

impl SearchState {
    /// Returns the shard states of one search combined into one: same variant, seed,
    /// budget, pool and jobs, distinct shards of the same count. Each job keeps the best
    /// finds of all shards by the search's ranking, so merging the N shards of a space
    /// gives what one run over it gives.
    ///
    /// ```
    /// use magic_gen::hunt::{Hooks, Hunt, Wanted};
    /// use magic_gen::search::{Error, Options, SearchState};
    /// use magic_gen::search::Shard;
    /// use magic_gen::Variant;
    ///
    /// // Two shards scanned apart (on two machines, say), merged: one run's state.
    /// let mut options = Options::for_variant(Variant::Plain);
    /// let mut shards = Vec::new();
    /// for index in 0..2 {
    ///     options.scan.shard = Shard { index, count: 2 };
    ///     let mut state = SearchState::new(&options)?;
    ///     Hunt::search(&mut state, &options.limits, Wanted::State).run(Hooks::default())?;
    ///     shards.push(state);
    /// }
    /// let merged = SearchState::merge(&shards)?;
    /// assert_eq!(merged.jobs_left(), 0);
    /// let whole = Hunt::finish(&merged, &options.limits).run(Hooks::default())?;
    ///
    /// // Shards of one search share their seed: these are two searches.
    /// options.scan.seed = 2;
    /// let other = SearchState::new(&options)?;
    /// let Err(Error::Merge { state, line, .. }) = SearchState::merge(&[merged, other]) else {
    ///     panic!("two searches merged");
    /// };
    /// assert_eq!((state, line.as_deref()), (1, Some("seed")));
    /// # let _ = whole;
    /// # Ok::<(), magic_gen::search::Error>(())
    /// ```
    pub fn merge(states: &[SearchState]) -> Result<SearchState, Error> {
        merge_states(states).map_err(|e| Error::Merge {
            state: e.state,
            with: e.with,
            line: e.line,
            message: e.message,
        })
    }

    /// Returns the merge of `states` ([`SearchState::merge`]) and the shards of their
    /// search missing from them, in order. A merge with shards missing is a partial one,
    /// and its state says so on its command line, which a resume or merge carries on.
    pub fn merge_partial(states: &[SearchState]) -> Result<(SearchState, Vec<Shard>), Error> {
        let mut merged = SearchState::merge(states)?;
        let count = merged.scan.shard.count;
        let missing: Vec<Shard> = (0..count)
            .filter(|&i| states.iter().all(|s| s.scan.shard.index != i))
            .map(|index| Shard { index, count })
            .collect();
        if !missing.is_empty() {
            let names: Vec<String> = missing.iter().map(Shard::to_string).collect();
            merged.command = format!(
                "partial merge of {} of {count} shards, missing {}",
                states.len(),
                names.join(", ")
            );
        }
        Ok((merged, missing))
    }

    /// Returns the command of the search this state is a shard of: its recorded commands
    /// without `--shard K/N` (as recorded where they do not read as commands).
    pub fn search_command(&self) -> String {
        match Step::parse_chain(&self.command) {
            Ok(steps) => {
                let steps: Vec<Step> = steps.iter().map(|s| s.without("--shard")).collect();
                Step::chain_line(&steps)
            }
            Err(_) => self.command.clone(),
        }
    }
}

/// What the shards of one search share.
const SHARED: &str =
    "the shards of one search share variant, seed, shard count, budget, pool, patience and jobs";

/// Returns the error of state `i` at the line starting `line`, for `message`.
fn fault(i: usize, line: &str, message: String) -> MergeError {
    MergeError {
        state: i,
        with: 0,
        line: Some(line.to_string()),
        message: format!("{message} ({SHARED})"),
    }
}

/// Returns why the scan settings of `this`, state `i`, differ from the first state's,
/// `that`, if they do.
fn settings_differ(i: usize, this: &Scan, that: &Scan) -> Option<MergeError> {
    // In the order of the file's header; the line at fault starts with the first word.
    let settings = [
        (
            "variant",
            this.variant.to_string(),
            that.variant.to_string(),
        ),
        ("seed", this.seed.to_string(), that.seed.to_string()),
        (
            "shard count",
            this.shard.count.to_string(),
            that.shard.count.to_string(),
        ),
        ("budget", this.budget.to_string(), that.budget.to_string()),
        ("pool", this.pool_text(), that.pool_text()),
        (
            "patience",
            this.patience.to_string(),
            that.patience.to_string(),
        ),
    ];
    if let Some((what, a, b)) = settings.iter().find(|(_, a, b)| a != b) {
        let line = what.split(' ').next().unwrap_or(what);
        return Some(fault(i, line, format!("{what} {a} differs from its {b}")));
    }
    // Anything else the scan holds must match too.
    let others = Scan {
        shard: that.shard,
        ..*this
    };
    (others != *that).then(|| MergeError {
        state: i,
        with: 0,
        line: None,
        message: format!("other settings than its own ({SHARED})"),
    })
}

/// Returns why the jobs of `s`, state `i`, differ from those of the first state, if they
/// do: the first job of another piece, square or bits, or a count of jobs apart.
fn jobs_differ(i: usize, s: &SearchState, first: &SearchState) -> Option<MergeError> {
    let key = |j: &Job| (j.piece, j.square, j.bits);
    let jobs = s.jobs.len().max(first.jobs.len());
    let k = (0..jobs).find(|&k| s.jobs.get(k).map(key) != first.jobs.get(k).map(key))?;
    let theirs = match first.jobs.get(k) {
        Some(j) => format!("{} {} with {} bits", j.piece, square_name(j.square), j.bits),
        None => "none".into(),
    };
    Some(match s.jobs.get(k) {
        Some(j) => {
            let square = square_name(j.square);
            fault(
                i,
                &format!("job {} {square}", j.piece),
                format!(
                    "job {} {square} with {} bits, where its job {} is {theirs}",
                    j.piece,
                    j.bits,
                    k + 1
                ),
            )
        }
        None => MergeError {
            state: i,
            with: 0,
            line: None,
            message: format!(
                "{} jobs, where it has {} ({SHARED})",
                s.jobs.len(),
                first.jobs.len()
            ),
        },
    })
}

/// Returns the merge of `states`, as [`SearchState::merge`] does, or why they do not merge.
fn merge_states(states: &[SearchState]) -> Result<SearchState, MergeError> {
    let Some(first) = states.first() else {
        return Err(MergeError {
            state: 0,
            with: 0,
            line: None,
            message: "nothing to merge".into(),
        });
    };
    // Each shard's index, with the first state that has it.
    let mut seen = Vec::new();
    for (i, s) in states.iter().enumerate() {
        let differs = settings_differ(i, &s.scan, &first.scan);
        if let Some(e) = differs.or_else(|| jobs_differ(i, s, first)) {
            return Err(e);
        }
        let index = s.scan.shard.index;
        if let Some(&(_, earlier)) = seen.iter().find(|&&(at, _)| at == index) {
            return Err(MergeError {
                state: i,
                with: earlier,
                line: Some("shard".into()),
                message: format!("shard {} given twice", s.scan.shard),
            });
        }
        seen.push((index, i));
    }
    Ok(combined(states))
}

/// Returns the states of one search's distinct shards, checked by [`merge_states`], as
/// one: each job done where every shard's is, with the best finds of all.
fn combined(states: &[SearchState]) -> SearchState {
    let first = &states[0];
    let mut merged = first.clone();
    merged.command = format!(
        "merge of {} of {} shards",
        states.len(),
        first.scan.shard.count
    );
    for (i, job) in merged.jobs.iter_mut().enumerate() {
        job.found.clear();
        job.done = states.iter().all(|s| s.jobs[i].done);
        job.next = states.iter().map(|s| s.jobs[i].next).min().unwrap_or(0);
    }
    let scan = merged.scan;
    for s in states {
        for (i, job) in s.jobs.iter().enumerate() {
            for &f in &job.found {
                scan.insert(&mut merged.jobs[i], f);
            }
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use crate::search::{Options, SearchState};
    use crate::Variant;

    #[test]
    fn the_search_of_a_shard_is_its_command_without_the_shard() {
        let mut state = SearchState::new(&Options::for_variant(Variant::Plain)).unwrap();
        state.command =
            "magic-gen search --variant black --shard 0/2 --out 'a b.rs' --seed 1".into();
        assert_eq!(
            state.search_command(),
            "magic-gen search --variant black --out 'a b.rs' --seed 1"
        );
        state.command = "magic-gen search --seed 1".into();
        assert_eq!(state.search_command(), "magic-gen search --seed 1");
    }
}
