//! The baselines: table-free fills (magic-gen's ray walk, Kogge-Stone) and a hashing
//! dictionary (phf's perfect hash from relevant occupancy to attacks).

use magic_gen::{relevant_mask, slow_attacks, subsets, Piece};

use crate::Slider;

/// magic-gen's ray walk: one step at a time until a blocker or the edge.
pub struct SlowWalk;

impl Slider for SlowWalk {
    type Sq = u8;
    fn name(&self) -> String {
        "slow ray walk".into()
    }
    fn square(&self, index: u8) -> u8 {
        index
    }
    #[inline(always)]
    fn rook(&self, sq: u8, occ: u64) -> u64 {
        slow_attacks(Piece::Rook, sq, occ)
    }
    #[inline(always)]
    fn bishop(&self, sq: u8, occ: u64) -> u64 {
        slow_attacks(Piece::Bishop, sq, occ)
    }
}

const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// Kogge-Stone occluded fills (chessprogramming wiki): each direction fills the slider
/// through empty squares in three doubling steps, then shifts one step to take the
/// first blocker.
pub struct KoggeStone;

#[inline(always)]
fn fill_up(mut gen: u64, mut pro: u64, wrap: u64, step: u32) -> u64 {
    pro &= wrap;
    gen |= pro & (gen << step);
    pro &= pro << step;
    gen |= pro & (gen << (2 * step));
    pro &= pro << (2 * step);
    gen |= pro & (gen << (4 * step));
    (gen << step) & wrap
}

#[inline(always)]
fn fill_down(mut gen: u64, mut pro: u64, wrap: u64, step: u32) -> u64 {
    pro &= wrap;
    gen |= pro & (gen >> step);
    pro &= pro >> step;
    gen |= pro & (gen >> (2 * step));
    pro &= pro >> (2 * step);
    gen |= pro & (gen >> (4 * step));
    (gen >> step) & wrap
}

impl KoggeStone {
    #[inline(always)]
    fn rook_bits(gen: u64, empty: u64) -> u64 {
        fill_up(gen, empty, !0, 8)
            | fill_down(gen, empty, !0, 8)
            | fill_up(gen, empty, NOT_A, 1)
            | fill_down(gen, empty, NOT_H, 1)
    }
    #[inline(always)]
    fn bishop_bits(gen: u64, empty: u64) -> u64 {
        fill_up(gen, empty, NOT_A, 9)
            | fill_up(gen, empty, NOT_H, 7)
            | fill_down(gen, empty, NOT_A, 7)
            | fill_down(gen, empty, NOT_H, 9)
    }
}

impl Slider for KoggeStone {
    type Sq = u8;
    fn name(&self) -> String {
        "Kogge-Stone fill".into()
    }
    fn square(&self, index: u8) -> u8 {
        index
    }
    #[inline(always)]
    fn rook(&self, sq: u8, occ: u64) -> u64 {
        KoggeStone::rook_bits(1u64 << sq, !occ)
    }
    #[inline(always)]
    fn bishop(&self, sq: u8, occ: u64) -> u64 {
        KoggeStone::bishop_bits(1u64 << sq, !occ)
    }
}

// ---------------------------------------------------------------------------------------
// The hashing dictionary: phf's perfect hash from relevant occupancy to attacks.

/// One square's map, laid out as `phf::Map` lays out its generated statics: SipHash-1-3
/// of the key with the map's seed, displacement, then a key check.
struct PhfMap {
    mask: u64,
    seed: phf_shared::HashKey,
    disps: Vec<(u32, u32)>,
    entries: Vec<(u64, u64)>,
}

impl PhfMap {
    fn new(piece: Piece, sq: u8) -> PhfMap {
        let mask = relevant_mask(piece, sq);
        let keys: Vec<u64> = subsets(mask).collect();
        let state = phf_generator::generate_hash(&keys);
        let entries = state
            .map
            .iter()
            .map(|&i| (keys[i], slow_attacks(piece, sq, keys[i])))
            .collect();
        PhfMap {
            mask,
            seed: state.key,
            disps: state.disps,
            entries,
        }
    }

    /// `phf::Map::get(&(occ & mask)).copied().unwrap_or(0)`.
    #[inline(always)]
    fn get(&self, occ: u64) -> u64 {
        let key = occ & self.mask;
        let hashes = phf_shared::hash(&key, &self.seed);
        let index = phf_shared::get_index(&hashes, &self.disps, self.entries.len());
        let (k, v) = self.entries[index as usize];
        if k == key {
            v
        } else {
            0
        }
    }

    fn bytes(&self) -> usize {
        self.entries.len() * 16 + self.disps.len() * 8
    }
}

/// 128 perfect-hash maps (rook and bishop, one per square), built at start-up with
/// `phf_generator` as `phf_codegen` would build them for static maps.
pub struct PhfDict {
    rook: Vec<PhfMap>,
    bishop: Vec<PhfMap>,
}

impl Default for PhfDict {
    fn default() -> PhfDict {
        PhfDict::new()
    }
}

impl PhfDict {
    /// Builds the 128 maps.
    pub fn new() -> PhfDict {
        PhfDict {
            rook: (0..64).map(|sq| PhfMap::new(Piece::Rook, sq)).collect(),
            bishop: (0..64).map(|sq| PhfMap::new(Piece::Bishop, sq)).collect(),
        }
    }

    /// Bytes of keys, values and displacements.
    pub fn bytes(&self) -> usize {
        self.rook
            .iter()
            .chain(&self.bishop)
            .map(PhfMap::bytes)
            .sum()
    }
}

impl Slider for PhfDict {
    type Sq = u8;
    fn name(&self) -> String {
        "phf dictionary".into()
    }
    fn square(&self, index: u8) -> u8 {
        index
    }
    #[inline(always)]
    fn rook(&self, sq: u8, occ: u64) -> u64 {
        self.rook[sq as usize].get(occ)
    }
    #[inline(always)]
    fn bishop(&self, sq: u8, occ: u64) -> u64 {
        self.bishop[sq as usize].get(occ)
    }
}
