//! The packer's checkpoint: everything the annealing needs to go on after a move, and the
//! check that a checkpoint belongs to the packing it is given to. The annealer takes and
//! resumes it (`anneal.rs`); its file is written and read in `checkpoint_file.rs`.

use crate::geometry::SetSquare;
use crate::index::Variant;

use super::pattern::Pattern;
use super::settings::PackSettings;
use crate::settings::{self, Differs};

/// One square of a [`PackCheckpoint`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PackSquare {
    /// Its pool: 0..64 rook a1..h8, 64..128 bishop a1..h8.
    pub square: usize,
    /// Its place in the placing order of the current layout.
    pub place: usize,
    /// Its pool member in the current layout.
    pub member: usize,
    /// Its place in the placing order of the best layout met.
    pub best_place: usize,
    /// Its pool member in the best layout met.
    pub best_member: usize,
    /// An overlay packing's: its start in the current layout and in the best one, which
    /// its order does not give (a square keeps its place while those after it move). Its
    /// best place repeats its place: the best layout is its starts.
    pub starts: Option<(usize, usize)>,
}

/// The annealer between two moves: what a run resumed from it needs to make exactly the
/// moves an uninterrupted run makes (its file: `docs/formats.md`).
///
/// ```
/// use std::time::Duration;
/// use magic_gen::hunt::{Hooks, Hunt};
/// use magic_gen::pack::{PackCheckpoint, PackSettings};
/// use magic_gen::search::Limits;
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/published-black-87988.txt");
/// let set = magic_gen::read_set_file(std::path::Path::new(path))?.0;
/// let report = magic_gen::verify(&set).unwrap().report;
/// let pack = PackSettings { iterations: 300, ..PackSettings::default() };
/// let limits = Limits { pack, ..Limits::default() };
/// let repack = || Hunt::repack(&set, &report, &limits);
/// let whole = repack().run(Hooks::default())?;
/// // Saved after 100 moves (a kill, say), read back and resumed: the same set.
/// let mut saved = None;
/// let mut save = |_: Option<&_>, c: &[PackCheckpoint]| {
///     if c[0].moves == 100 {
///         saved = Some(PackCheckpoint::file_text(c));
///     }
///     Ok(())
/// };
/// let hooks = Hooks { save: Some((Duration::ZERO, &mut save)), ..Hooks::default() };
/// repack().run(hooks)?;
/// let text = saved.expect("a checkpoint at move 100");
/// let checkpoint = PackCheckpoint::parse_file("p.pack", text.as_bytes())?;
/// let resumed = repack().resuming(&checkpoint).run(Hooks::default())?;
/// // Where the packing ended, the same: its shortest layout, its last move.
/// assert_eq!((resumed.packed_len, &resumed.pack), (whole.packed_len, &whole.pack));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct PackCheckpoint {
    /// The packing it belongs to.
    pub settings: PackSettings,
    /// Digest of the pools packed.
    pub pools: u64,
    /// Moves made.
    pub moves: u64,
    /// Numbers drawn from the annealing's random stream.
    pub draws: u64,
    /// The temperature after `moves` moves, as `f64::to_bits`.
    pub temperature: u64,
    /// The factor the temperature is multiplied by at each move, as `f64::to_bits`.
    pub cool: u64,
    /// Table length of the current layout.
    pub length: usize,
    /// Table length of the best layout met.
    pub best_length: usize,
    /// Every square with a pool, in square order.
    pub(crate) squares: Vec<PackSquare>,
}

/// A checkpoint that does not belong to the packing it was given to: the line at fault,
/// and what differs. The hunt reports it as [`crate::search::Error::Checkpoint`].
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PackMismatch {
    /// How the line at fault starts: `"pack"`, `"pack-progress"` or `"pack-square rook a1"`.
    pub line: String,
    /// Which packing's section of the checkpoint holds that line (0: the first; see
    /// [`PackSettings::seeds`]).
    pub packing: usize,
    /// What differs.
    pub(crate) mismatch: Mismatch,
}

/// What keeps a checkpoint from resuming a packing: the pools it packs, the first of its
/// settings that differs from the run's (the value saved, the value the run asks for), or
/// damage. Said here without the command line's options; `magic-gen` names the option that
/// goes on with the checkpoint.
#[derive(Clone, Debug, PartialEq)]
pub enum Mismatch {
    /// It packs other magics (another set or state): the digest it saved, and the one of
    /// the pools given.
    Pools {
        /// The checkpoint's pools digest.
        saved: u64,
        /// The digest of the pools given.
        given: u64,
    },
    /// A setting of the packing differs: which, as saved and as asked.
    Setting(Differs),
    /// Its counts, places or members do not add up: an edited or damaged checkpoint.
    Damaged(String),
}

impl Mismatch {
    /// Returns the first setting of `saved` (a checkpoint's) that differs from `asked` (a
    /// run's), if one does: the count of packings first, as a run of another count reads
    /// none of its sections.
    pub(crate) fn between(saved: &PackSettings, asked: &PackSettings) -> Option<Mismatch> {
        Mismatch::each_between(saved, asked).into_iter().next()
    }

    /// Returns every setting of `saved` (a checkpoint's) that differs from `asked` (a
    /// run's), the count of packings first: what a resume must change
    /// at once to fit the checkpoint.
    pub fn each_between(saved: &PackSettings, asked: &PackSettings) -> Vec<Mismatch> {
        settings::differences(saved, asked)
            .into_iter()
            .map(Mismatch::Setting)
            .collect()
    }
}

#[cfg(test)]
impl Mismatch {
    /// Returns the mismatch of setting `flag` (a switch if `switch`), saved and asked as
    /// these values show.
    pub(crate) fn of(
        flag: &'static str,
        switch: bool,
        saved: impl ToString,
        asked: impl ToString,
    ) -> Mismatch {
        Mismatch::Setting(Differs {
            flag,
            switch,
            saved: saved.to_string(),
            asked: asked.to_string(),
        })
    }
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Mismatch::Pools { saved, given } => write!(
                f,
                "the checkpoint packs other magics (pools digest {saved:#018x}, where these \
                 pools give {given:#018x}): it belongs to another set or state"
            ),
            Mismatch::Setting(differs) => differs.fmt(f),
            Mismatch::Damaged(what) => write!(f, "{what}: an edited or damaged checkpoint"),
        }
    }
}

impl std::fmt::Display for PackMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.mismatch.fmt(f)
    }
}

impl std::error::Error for PackMismatch {}

/// Returns the name of pool `i` (`rook a1`).
pub(crate) fn pool_name(i: usize) -> String {
    SetSquare::from_index(i).to_string()
}

impl PackCheckpoint {
    /// Returns the moves made and asked for, summed over the packings of a run's
    /// checkpoint (one per packing seed).
    pub fn moves_of(packings: &[PackCheckpoint]) -> (u64, u64) {
        packings.iter().fold((0, 0), |(made, total), c| {
            (made + c.moves, total + c.settings.iterations)
        })
    }

    /// Returns true once every move of the run is made.
    pub fn finished(&self) -> bool {
        self.moves >= self.settings.iterations
    }
}

/// What a checkpoint must hold to resume a packing: its settings, and the digest and count
/// of its pools.
pub(super) struct PackKey {
    pub(super) settings: PackSettings,
    pub(super) pools: u64,
    pub(super) squares: usize,
}

impl PackKey {
    /// Returns the refusal of a checkpoint of `saved` packings where its settings ask for
    /// another count: a damaged file, as the first section's settings hold the count.
    pub(super) fn missing(&self, saved: usize) -> PackMismatch {
        let count = self.settings.seeds.max(1);
        PackMismatch {
            line: "pack".into(),
            packing: 0,
            mismatch: Mismatch::Damaged(format!(
                "{saved} packings saved where its 'pack' line says {count}"
            )),
        }
    }

    /// Refuses a checkpoint of another packing, saying what differs.
    pub(super) fn check(&self, checkpoint: &PackCheckpoint) -> Result<(), PackMismatch> {
        let mismatch = if checkpoint.pools != self.pools || checkpoint.squares.len() != self.squares
        {
            Mismatch::Pools {
                saved: checkpoint.pools,
                given: self.pools,
            }
        } else if let Some(differs) = Mismatch::between(&checkpoint.settings, &self.settings) {
            differs
        } else {
            return Ok(());
        };
        Err(PackMismatch {
            line: "pack".into(),
            packing: 0,
            mismatch,
        })
    }
}

/// Returns the digest of what decides the patterns of `pools`: the variant, and per pool
/// the index bits of its first member, the pool size and every magic, each followed by its
/// bits where they differ from the first member's (FNV-1a over their bytes). A pool of one
/// shift digests as it did before pools could mix shifts, so older checkpoints still resume.
pub(super) fn pools_digest(variant: Variant, pools: &[Vec<Pattern>]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut add = |bytes: &[u8]| {
        for &b in bytes {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    add(variant.to_string().as_bytes());
    for pool in pools {
        let b = pool.first().map_or(0, |p| p.bits);
        add(&[b]);
        add(&(pool.len() as u64).to_le_bytes());
        for p in pool {
            add(&p.magic.to_le_bytes());
            if p.bits != b {
                add(&[p.bits]);
            }
        }
    }
    hash
}
