//! A hunt's outcome summarised as a run prints it: the set's table and bits, where the
//! time went, each packing's table, the squares that fell back; a search's scan and what
//! its saved state leaves; and a repack's table before and after, with the moves its
//! packing made.

use crate::geometry::{Piece, SetSquare};
use crate::pack::PackCheckpoint;
use crate::search::{SearchState, Shard};
use crate::verify::Report;

use super::plan::Outcome;

impl Outcome {
    /// Returns the summary a run prints of its set: the verified table's size and bits per
    /// piece, where the time went, each packing's table and the squares that fell back.
    pub fn summary(&self) -> String {
        let outcome = self;
        let r = &outcome.report;
        let mut lines = Vec::new();
        lines.push("verified: collision-free (every occupancy of all 128 squares checked)".into());
        lines.push(format!(
            "table: {} entries ({:.1} KiB of u64), {} slots used",
            r.table_len,
            r.kib(8),
            r.slots_used
        ));
        lines.push("piece   squares  index bits  below popcount  2^bits total".into());
        for piece in Piece::ALL {
            let bits = &r.bits[piece.index()];
            let (lo, hi) = (bits.iter().min(), bits.iter().max());
            let range = match (lo, hi) {
                (Some(lo), Some(hi)) if lo == hi => format!("{lo}"),
                (Some(lo), Some(hi)) => format!("{lo}..{hi}"),
                _ => String::new(),
            };
            let total = r.range_total(piece);
            let standard = Report::standard_total(piece);
            lines.push(format!(
                "{:<7} {:>7}  {:>10}  {:>14}  {:>12} (standard {standard})",
                piece.name(),
                64,
                range,
                r.squares_below_popcount(piece),
                total
            ));
        }
        // Where a long hunt's time went, for choosing what to give it more or less of.
        let stages: Vec<String> = outcome
            .stages
            .iter()
            .map(|(stage, time)| format!("{} {:.2} s", stage.name(), time.as_secs_f64()))
            .collect();
        lines.push(format!("time by stage: {}", stages.join(", ")));
        if outcome.pack.len() > 1 {
            // Each packing's shortest table: how far apart the seeds land tells a hunter
            // whether more seeds or more moves pay.
            let each: Vec<String> = outcome
                .pack
                .iter()
                .map(|c| format!("{} {}", c.settings.seed, c.best_length))
                .collect();
            lines.push(format!("packings (seed, entries): {}", each.join(", ")));
        }
        if !outcome.unmet.is_empty() {
            let names: Vec<String> = outcome.unmet.iter().map(SetSquare::to_string).collect();
            lines.push(format!(
                "{} of the reduced-bit squares fell back to default bits: {}",
                names.len(),
                names.join(", ")
            ));
        }
        lines.join("\n")
    }

    /// Returns a repack's table length `before` and after, and why the input's layout is
    /// kept if it is.
    pub fn repacked(&self, before: usize) -> String {
        let (made, total) = self.pack_moves.map_or((0, 0), |m| (m.made, m.asked));
        // The moves made, not those asked: a stopped packing made fewer.
        let moves = match made < total {
            true => format!("{made} of its {total} moves"),
            false => format!("{made} moves"),
        };
        let packed = self.packed_len;
        // A packing into another variant (an overlay) never keeps the input.
        let kept = if self.kept_input && packed > before {
            format!(
                " (this packing's {moves} gave {packed}: the input's layout is kept; \
                 more moves, --pack-iterations, or more packings, --pack-seeds, may find a \
                 shorter one)"
            )
        } else {
            String::new()
        };
        let after = self.report.table_len;
        format!("{before} entries before, {after} after{kept}")
    }

    /// Returns what a search of `state` says of its run: its scan (`candidates` tried in
    /// `seconds` on `threads`), the set's [`summary`](Outcome::summary), and where the set
    /// of a shard packed greedily comes from.
    pub fn searched(
        &self,
        state: &SearchState,
        (candidates, seconds, threads): (u64, f64, usize),
    ) -> String {
        let scan = &state.scan;
        let shard = match scan.shard {
            Shard::WHOLE => String::new(),
            shard => format!(", shard {shard}"),
        };
        let plural = if threads == 1 { "" } else { "s" };
        let mut said = format!(
            "searched {} magics, seed {}{shard}: 128 squares in {seconds:.3} s on {threads} \
             thread{plural}, {candidates} candidates tried\n{}",
            scan.variant,
            scan.seed,
            self.summary()
        );
        if self.greedy {
            said += &format!(
                "\nshard {}: its pools packed greedily; the hunt's set is `magic-gen merge` of \
                 every shard's state",
                scan.shard
            );
        }
        said
    }

    /// Returns what is left of this search's run in its saved `state`: the jobs unfinished,
    /// and where a stopped packing stopped.
    pub fn state_left(&self, state: &SearchState) -> String {
        let open = state.jobs_left();
        let packing = match PackCheckpoint::moves_of(self.pack_to_save()) {
            (_, 0) => String::new(),
            (made, total) => format!(", packing stopped at move {made} of {total}"),
        };
        format!("{open} of {} jobs unfinished{packing}", state.job_count())
    }
}
