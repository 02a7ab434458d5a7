//! How to read an attack table at an index the build verified: `get_unchecked`, ordinary
//! indexing after `assert_unchecked(i < len)` (shakmaty's way, which also works in a
//! `const fn`), or ordinary indexing with its bounds check, on the committed fancy and
//! black sets (and the PEXT layout with BMI2), with the backends' own index formulas.
//! Prints one markdown table of ns per lookup with the ratio to the checked read.
//!
//! ```text
//! CARGO_TARGET_DIR=/work/target-bench cargo bench -p magic-bitboards-benches --bench unchecked
//! ```
//!
//! The tables here are magic-gen's fill on the heap, not the crate's statics: what differs
//! between the variants is the bounds check, which costs the same against either length.
//! Same method as the quick mode (checked against the slow ray walk first; round-robin
//! samples, `QUICK_SAMPLES` and `QUICK_SAMPLE_MS`, fastest kept).

use std::time::Duration;

use magic_bitboards::Square;
use magic_bitboards_benches::timing::{cpu_model, env_or, round_robin, row};
use magic_bitboards_benches::{Group, Kind, Mode, Slider, QUERIES};
use magic_gen::{relevant_mask, set_from_magics, verify, MagicSet, Piece, Variant};

#[path = "../magics.rs"]
#[allow(dead_code)]
mod magics;

/// How a variant reads `table[i]` (a const parameter of [`Bench`]).
const CHECKED: u8 = 0;
const GET_UNCHECKED: u8 = 1;
const ASSERT_UNCHECKED: u8 = 2;

/// The index formula (a const parameter of [`Bench`]): `((occ & mask) * magic) >> shift`,
/// `((occ | !mask) * magic) >> shift` with the complement stored, or `pext(occ, mask)`.
const FANCY: u8 = 0;
const BLACK: u8 = 1;
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
const PEXT: u8 = 2;

#[derive(Clone, Copy)]
struct Record {
    /// The relevant mask (fancy, pext) or its complement (black).
    mask: u64,
    magic: u64,
    offset: u32,
    shift: u32,
}

struct Layout {
    records: [[Record; 64]; 2],
    table: Box<[u64]>,
}

impl Layout {
    /// Magic-gen's fill of `set` and its records (masks as `set`'s variant stores them).
    fn new(set: &MagicSet) -> &'static Layout {
        let table = verify(set)
            .expect("the set verifies")
            .table
            .into_boxed_slice();
        let mut records = [[Record {
            mask: 0,
            magic: 0,
            offset: 0,
            shift: 0,
        }; 64]; 2];
        for piece in Piece::ALL {
            for sq in 0..64u8 {
                let e = set.entry(piece, sq);
                let mask = relevant_mask(piece, sq);
                records[piece.index()][sq as usize] = Record {
                    mask: set.variant.stored_mask(mask),
                    magic: e.magic,
                    offset: u32::try_from(e.offset).expect("committed sets have offsets from 0"),
                    shift: 64 - u32::from(e.bits),
                };
            }
        }
        Box::leak(Box::new(Layout { records, table }))
    }
}

/// One set read one way: `F` the formula, `R` the read, so each timed loop is
/// monomorphised for exactly one of each.
struct Bench<const F: u8, const R: u8> {
    name: String,
    layout: &'static Layout,
}

impl<const F: u8, const R: u8> Bench<F, R> {
    fn new(set: &str, read: &str, layout: &'static Layout) -> Self {
        Bench {
            name: format!("{set}, {read}"),
            layout,
        }
    }

    #[inline(always)]
    fn lookup(&self, piece: usize, sq: Square, occ: u64) -> u64 {
        let m = &self.layout.records[piece][sq.index()];
        let hash = match F {
            FANCY => Variant::Fancy.stored_key(occ, m.mask).wrapping_mul(m.magic) >> m.shift,
            BLACK => Variant::Black.stored_key(occ, m.mask).wrapping_mul(m.magic) >> m.shift,
            #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
            // SAFETY: compiled only for targets with BMI2.
            PEXT => unsafe { core::arch::x86_64::_pext_u64(occ, m.mask) },
            _ => unreachable!(),
        };
        let i = m.offset as usize + hash as usize;
        let table = &self.layout.table;
        match R {
            CHECKED => table[i],
            // SAFETY: `i` is the index of a key magic-gen's verify filled (every occupancy's
            // key lands in the table), and the queries are checked before they are timed.
            GET_UNCHECKED => *unsafe { table.get_unchecked(i) },
            _ => {
                // SAFETY: as for `GET_UNCHECKED`.
                unsafe { core::hint::assert_unchecked(i < table.len()) };
                table[i]
            }
        }
    }
}

impl<const F: u8, const R: u8> Slider for Bench<F, R> {
    type Sq = Square;
    fn name(&self) -> String {
        self.name.clone()
    }
    fn square(&self, index: u8) -> Square {
        Square::new(index).expect("square index below 64")
    }
    #[inline(always)]
    fn rook(&self, sq: Square, occ: u64) -> u64 {
        self.lookup(0, sq, occ)
    }
    #[inline(always)]
    fn bishop(&self, sq: Square, occ: u64) -> u64 {
        self.lookup(1, sq, occ)
    }
}

fn committed(name: &str) -> MagicSet {
    let c = magics::committed(name).expect("a committed set");
    set_from_magics(c.variant, c.rook, c.bishop).expect("the committed set is valid")
}

fn main() {
    let samples: usize = env_or("QUICK_SAMPLES", 31);
    let sample = Duration::from_micros((env_or("QUICK_SAMPLE_MS", 2.0f64) * 1000.0) as u64);
    let queries = magic_bitboards_benches::queries();
    let (checked, get, assert) = (
        "`[]` (checked)",
        "`get_unchecked`",
        "`assert_unchecked` + `[]`",
    );
    let mut rows = Vec::new();
    macro_rules! set {
        ($name:expr, $formula:ident, $set:expr) => {{
            let layout = Layout::new(&$set);
            rows.push(row(
                Bench::<$formula, CHECKED>::new($name, checked, layout),
                Group::Ours,
                &queries,
            ));
            rows.push(row(
                Bench::<$formula, GET_UNCHECKED>::new($name, get, layout),
                Group::Ours,
                &queries,
            ));
            rows.push(row(
                Bench::<$formula, ASSERT_UNCHECKED>::new($name, assert, layout),
                Group::Ours,
                &queries,
            ));
        }};
    }
    set!("fancy", FANCY, committed("fancy"));
    set!("black", BLACK, committed("black"));
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    set!("pext", PEXT, MagicSet::pext());
    round_robin(&mut rows, samples, sample);
    println!(
        "\nns per lookup (fastest of {samples} samples) and, in brackets, the ratio to the \
         checked read of the same set; {QUERIES} queries; {}.\n",
        cpu_model()
    );
    println!("| set, read | rook ind | queen ind | rook dep | queen dep |");
    println!("|---|---:|---:|---:|---:|");
    let cell = |kind: Kind, mode: Mode| {
        let k = Kind::ALL.iter().position(|&x| x == kind).unwrap_or(0);
        let m = Mode::ALL.iter().position(|&x| x == mode).unwrap_or(0);
        k * 2 + m
    };
    let cells = [
        cell(Kind::Rook, Mode::Independent),
        cell(Kind::Queen, Mode::Independent),
        cell(Kind::Rook, Mode::Dependent),
        cell(Kind::Queen, Mode::Dependent),
    ];
    for group in rows.chunks(3) {
        for r in group {
            let mut line = format!("| {} |", r.name);
            for &i in &cells {
                line += &format!(" {:.2} ({:.3}) |", r.best[i], r.best[i] / group[0].best[i]);
            }
            println!("{line}");
        }
    }
}
