//! A repack as its user asks for it on the command line (`magic-gen pack`'s options of the
//! packing, each `None`, `false` or empty where not given): the packing it runs with (a
//! repack's defaults with those given in their place), the refusal of options it cannot
//! use, and the stages it runs.

use std::path::PathBuf;

use crate::pack::{PackCheckpoint, PackSettings};
use crate::search::{Error, Limits};
use crate::set::MagicSet;
use crate::settings::Given;
use crate::verify::Report;

use super::args::PACKING;
use super::plan::Hunt;
use super::refusal::Refusal;

/// A repack as asked for.
#[derive(clap::Args, Clone, Debug, Default)]
pub(crate) struct Repack {
    #[command(flatten)]
    pub pack: Given<PackSettings, true>,
    /// Before packing, give each square, from the highest end down, the magic of the
    /// first BLOCKS blocks of its candidate stream (seeded --pack-seed, 4,096 candidates a
    /// block) that fits lowest in the slots the others take: magics chosen for the layout's
    /// holes, which the packing then works with (with --from-input, from that layout). The
    /// set's magics change; without the option they are kept.
    #[arg(long, value_name = "BLOCKS", value_parser = parse_holes, help_heading = PACKING)]
    pub holes: Option<u64>,
    /// Put each square's magic from this set (verified, of the same variant) into its pool
    /// beside the input's own: the packing chooses per square between the sets' magics.
    /// Repeatable. The input's layout is the one --from-input starts from.
    #[arg(long, value_name = "FILE", help_heading = PACKING)]
    pub also: Vec<PathBuf>,
    /// Before the holes (--holes), pack the rooks among themselves and lay the bishops
    /// into their holes: the rook that ends the table moves down past the bishops in its
    /// way, again and again, then each bishop, the largest first, takes its lowest fit,
    /// with its own magic or one of --holes BLOCKS blocks. What one-square moves cannot
    /// do: a rook that ends the table and meets only bishops below it.
    #[arg(long, help_heading = PACKING)]
    pub rooks_first: bool,
}

/// Parses the blocks of --holes: 1 or more (0 would choose nothing; the option left out
/// keeps the set's magics).
fn parse_holes(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(0) => Err(
            "0 blocks choose no magic for the holes: give 1 or more, or leave \
                       --holes out to keep the set's magics"
                .into(),
        ),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("'{s}' is not a count of blocks")),
    }
}

impl Repack {
    /// Returns the packing a repack makes unless told otherwise ([`Hunt::repack_defaults`]).
    pub fn defaults(&self) -> PackSettings {
        Hunt::repack_defaults(self.pack.apply(PackSettings::default()).overlay)
    }

    /// Returns the packing asked for: unless given, one that can improve the set
    /// (`PackSettings::REPACK_MOVES` moves, recorded as if given).
    pub fn settings(&self) -> PackSettings {
        self.pack.apply(self.defaults())
    }

    /// Returns the limits of the repack on `threads`.
    pub fn limits(&self, threads: usize) -> Limits {
        Limits {
            threads,
            pack: self.settings(),
            ..Limits::default()
        }
    }

    /// Refuses options the repack cannot use: a choice among pool members with one magic
    /// per square, and an option of the exact packing with an overlay packing.
    pub fn refuse(&self) -> Result<(), Refusal> {
        let settings = self.settings();
        if settings.short_spans && self.also.is_empty() {
            return Err(Refusal::OneMagic);
        }
        let exact = [
            (self.holes.is_some(), "--holes"),
            (self.rooks_first, "--rooks-first"),
        ];
        let exact = exact.into_iter().find(|(given, _)| *given);
        match (settings.overlay, exact) {
            (true, Some((_, flag))) => Err(Refusal::Exact(flag)),
            _ => Ok(()),
        }
    }

    /// Returns the hunt that packs `set` (verified: `report`) again within `limits`, with
    /// the sets of --also (`also`, read), going on from `checkpoint` (empty: from the start).
    pub fn hunt<'a>(
        &self,
        (set, report): (&'a MagicSet, &'a Report),
        limits: &Limits,
        also: &'a [MagicSet],
        checkpoint: &'a [PackCheckpoint],
    ) -> Result<Hunt<'a>, Error> {
        // The rooks-first pass draws from the blocks --holes gives, 0: own magics.
        let holes = self.holes.unwrap_or(0);
        let mut hunt = Hunt::repack(set, report, limits);
        if self.rooks_first {
            hunt = hunt.with_rooks_first(holes)?;
        }
        Ok(hunt.with_holes(holes)?.with_also(also).resuming(checkpoint))
    }
}
