//! A pool member as the packer sees it: the table slots a magic's occupancies use, as
//! 64-slot words ready for the bit-parallel fit test.

/// One candidate magic of one square, its index bits and the indices (before the offset)
/// it uses. A square's pool may mix bits (a per-square shift that may also take the fixed
/// 12/9), so the bits go with the magic.
#[derive(Clone, Debug)]
pub(crate) struct Pattern {
    pub(crate) magic: u64,
    pub(crate) bits: u8,
    /// The lowest used index.
    pub(crate) first: usize,
    /// Used indices relative to `first`, as the 64-slot words that hold any: (word index,
    /// bits), the fullest first (ties: the lower index). The fit test screens 64 starts at
    /// once against the first, the anchor, then checks the others. A white pattern is its
    /// lone slot 0, mostly empty words, then its run, so its anchor is in the run.
    pub(super) words: Vec<(usize, u64)>,
    /// The room each word needs in the two table words under it (its used slots), which
    /// rules out a block of 64 starts before any bit test, eight words a number: byte `i`
    /// of number `j` is 128 minus the used slots of word `8 * j + i` (128 for an empty word
    /// or none), so that adding eight free-pair counts sets every top bit exactly when all
    /// eight have room.
    pub(super) room: Vec<u64>,
    /// Per word of `dense`, its byte of `room` in all eight bytes: what the block skip adds
    /// to eight blocks' free-pair counts at once for that word.
    pub(super) need: Vec<u64>,
    /// Used indices relative to `first`, every 64-slot word in order (empty ones too):
    /// what placing and removing write, one table word after the other.
    pub(super) dense: Vec<u64>,
    /// Per word of `words`, the positions of its set bits in bit-reversed order, padded
    /// with its last to a multiple of four (the screen ANDs four at a time, and a repeat
    /// changes nothing): neighbouring bits take windows one slot apart, which screen out
    /// nearly the same starts, so the screen reaches no free start sooner with the far
    /// ones first. Word `i`'s are `bit_lists[bit_at[i]..bit_at[i + 1]]`.
    pub(super) bit_lists: Vec<u8>,
    pub(super) bit_at: Vec<usize>,
    /// Number of used indices.
    pub(crate) used: usize,
    /// One past the highest used index.
    pub(super) end: usize,
}

impl Pattern {
    /// Returns the bit positions of word `i` of `words` (see [`Pattern::bit_lists`]).
    pub(super) fn bits_of(&self, i: usize) -> &[u8] {
        &self.bit_lists[self.bit_at[i]..self.bit_at[i + 1]]
    }

    /// Returns the slots from its first used index to one past its last.
    pub(crate) fn extent(&self) -> usize {
        self.end - self.first
    }

    /// Returns the lowest start this pattern may take: 0 where offsets may be negative
    /// (every index still at 0 or above), else its first index (offset 0).
    pub(crate) fn lowest_start(&self, negative_offsets: bool) -> usize {
        if negative_offsets {
            0
        } else {
            self.first
        }
    }

    /// Returns the pattern of `magic` with `bits` index bits from its used indices (any
    /// order, duplicates allowed), all within 4,096 slots of each other.
    pub(crate) fn new(magic: u64, bits: u8, used: impl IntoIterator<Item = u32>) -> Pattern {
        let mut idx: Vec<usize> = used.into_iter().map(|i| i as usize).collect();
        idx.sort_unstable();
        idx.dedup();
        let first = idx.first().copied().unwrap_or(0);
        let end = idx.last().map_or(0, |l| l + 1);
        let mut dense = vec![0u64; (end - first).div_ceil(64).max(1)];
        // The table's padding holds the room tests of 64 words (12 index bits) at most.
        assert!(dense.len() <= 64, "a pattern of {} slots", end - first);
        for &i in &idx {
            dense[(i - first) / 64] |= 1 << ((i - first) % 64);
        }
        // Word 0 stays when the pattern is empty, so there is always an anchor.
        let mut words: Vec<(usize, u64)> = (0..dense.len())
            .filter(|&w| w == 0 || dense[w] != 0)
            .map(|w| (w, dense[w]))
            .collect();
        words.sort_by_key(|&(w, bits)| (core::cmp::Reverse(bits.count_ones()), w));
        let mut need = vec![128u8; dense.len().div_ceil(8) * 8];
        for (w, bits) in dense.iter().enumerate() {
            need[w] = 128 - bits.count_ones() as u8;
        }
        let broadcast = need[..dense.len()]
            .iter()
            .map(|&b| u64::from_ne_bytes([b; 8]))
            .collect();
        let room = need
            .chunks(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("eight bytes")))
            .collect();
        let (mut bit_lists, mut bit_at) = (Vec::new(), vec![0]);
        for &(_, bits) in &words {
            let mut list: Vec<u8> = (0..64).filter(|b| bits >> b & 1 != 0).collect();
            list.sort_by_key(|b| b.reverse_bits());
            while list.len() % 4 != 0 {
                list.push(list[list.len() - 1]);
            }
            bit_lists.extend(list);
            bit_at.push(bit_lists.len());
        }
        Pattern {
            magic,
            bits,
            first,
            words,
            room,
            need: broadcast,
            dense,
            bit_lists,
            bit_at,
            used: idx.len(),
            end,
        }
    }
}
