//! The benchmarks' harness, shared by `benches/attacks.rs` (criterion) and
//! `benches/quick.rs` (one markdown table): the query set, every implementation under test
//! behind one trait (our backends from the crate's registry, table-free baselines, a phf
//! dictionary, the peer crates), the timed loops, and the check of every implementation
//! against magic-gen's slow ray walk. A package of its own so that the peer crates stay
//! out of the runtime crate's dependency graph.
//!
//! Each implementation gets the queries in its own square type (converted before timing),
//! so a loop measures the lookup and nothing else.

mod baselines;
mod peers;
pub mod timing;

use std::marker::PhantomData;

pub use baselines::{KoggeStone, PhfDict, SlowWalk};
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
pub use peers::ChessBmi;
pub use peers::{Chess, Cozy, Shakmaty};

use magic_bitboards::registry::{self, Lookups, Visitor, ALL_NAMES, BACKENDS};
use magic_gen::{slow_attacks, Piece};

/// Queries in the set: half from real positions, half random sparse occupancies.
pub const QUERIES: usize = 8192;

/// xorshift64* (Vigna): deterministic, seeded, no dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// Perft positions: (FEN, depth of the tree whose nodes are collected).
const POSITIONS: &[(&str, u8)] = &[
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        3,
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        2,
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        2,
    ),
    (
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        2,
    ),
    (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        2,
    ),
];

/// The occupancy of a FEN's piece placement (a1 = 0): a check on cozy-chess's parser and
/// on our square numbering.
pub fn fen_occupancy(fen: &str) -> u64 {
    let placement = fen.split_whitespace().next().unwrap_or("");
    let mut occ = 0u64;
    for (i, row) in placement.split('/').enumerate() {
        let rank = 7 - i as u32;
        let mut file = 0u32;
        for c in row.chars() {
            match c.to_digit(10) {
                Some(n) => file += n,
                None => {
                    occ |= 1u64 << (rank * 8 + file);
                    file += 1;
                }
            }
        }
    }
    occ
}

fn collect(board: &cozy_chess::Board, depth: u8, out: &mut Vec<u64>) {
    out.push(board.occupied().0);
    if depth == 0 {
        return;
    }
    board.generate_moves(|moves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            collect(&child, depth - 1, out);
        }
        false
    });
}

/// Occupancies of every node of small perft trees from six well-known positions.
pub fn real_occupancies() -> Vec<u64> {
    let mut all = Vec::new();
    for &(fen, depth) in POSITIONS {
        let board = cozy_chess::Board::from_fen(fen, false)
            .unwrap_or_else(|e| panic!("bad FEN {fen}: {e:?}"));
        assert_eq!(
            board.occupied().0,
            fen_occupancy(fen),
            "cozy-chess and the FEN parser disagree on {fen}"
        );
        collect(&board, depth, &mut all);
    }
    all
}

/// The fixed query set, as (square index, occupancy): interleaved, one from a real
/// position (a random node of the perft trees, a random occupied square of it: a piece
/// whose attacks a move generator would ask for), one random sparse (uniform square,
/// occupancy the AND of three random words, about 8 of 64 squares).
pub fn queries() -> Vec<(u8, u64)> {
    let real = real_occupancies();
    let mut rng = Rng::new(0x5eed_b17b_0a4d_5eed);
    let mut q = Vec::with_capacity(QUERIES);
    while q.len() < QUERIES {
        let occ = real[rng.below(real.len())];
        let n = rng.below(occ.count_ones() as usize);
        let mut bits = occ;
        for _ in 0..n {
            bits &= bits - 1;
        }
        q.push((bits.trailing_zeros() as u8, occ));
        let sq = rng.below(64) as u8;
        let occ = rng.next_u64() & rng.next_u64() & rng.next_u64();
        q.push((sq, occ));
    }
    q
}

/// One implementation of slider attacks. `Sq` is its own square type; `&self` carries
/// the run-time tables of the implementations that build them (the phf dictionary).
pub trait Slider {
    type Sq: Copy;
    fn name(&self) -> String;
    fn square(&self, index: u8) -> Self::Sq;
    fn rook(&self, sq: Self::Sq, occ: u64) -> u64;
    fn bishop(&self, sq: Self::Sq, occ: u64) -> u64;
    #[inline(always)]
    fn queen(&self, sq: Self::Sq, occ: u64) -> u64 {
        self.rook(sq, occ) | self.bishop(sq, occ)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Rook,
    Bishop,
    Queen,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Rook, Kind::Bishop, Kind::Queen];
    pub fn name(self) -> &'static str {
        match self {
            Kind::Rook => "rook",
            Kind::Bishop => "bishop",
            Kind::Queen => "queen",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// Independent lookups: throughput.
    Independent,
    /// Each lookup's occupancy depends on the previous result: latency.
    Dependent,
}

impl Mode {
    pub const ALL: [Mode; 2] = [Mode::Independent, Mode::Dependent];
    pub fn name(self) -> &'static str {
        match self {
            Mode::Independent => "independent",
            Mode::Dependent => "dependent",
        }
    }
}

/// The slow ray walk: the reference every implementation is checked against.
pub fn reference(kind: Kind, sq: u8, occ: u64) -> u64 {
    match kind {
        Kind::Rook => slow_attacks(Piece::Rook, sq, occ),
        Kind::Bishop => slow_attacks(Piece::Bishop, sq, occ),
        Kind::Queen => slow_attacks(Piece::Rook, sq, occ) | slow_attacks(Piece::Bishop, sq, occ),
    }
}

/// The bits of a result fed into the next occupancy in dependent mode: the four centre
/// squares (d4, e4, d5, e5), which do change later lookups (a corner such as a1 would not:
/// LLVM proved that toggling it never changes a slider's attacks and dropped the chain of
/// the Kogge-Stone fill). Two cycles (AND, XOR) added to every implementation's chain.
pub const CHAIN_MASK: u64 = 0x0000_0018_1800_0000;

/// Returns `x` unchanged, hidden from the optimiser. On x86_64 an empty `asm!` with the
/// value in a register: unlike `black_box`, no round trip through the stack; like it, no
/// hoisting, folding or vectorising (no AVX-512 or AVX2 gathers) across it.
#[inline(always)]
pub fn opaque(mut x: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: an empty template: reads and writes only the register holding `x`.
    unsafe {
        std::arch::asm!("/* {0} */", inout(reg) x, options(nomem, nostack, preserves_flags));
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        x = std::hint::black_box(x);
    }
    x
}

/// Independent lookups over `queries`: each occupancy goes through [`opaque`], so LLVM
/// can neither hoist, vectorise (gathers) nor fold the lookups; results are XORed.
#[inline(always)]
pub fn run_independent<S, F>(queries: &[(S, u64)], f: F) -> u64
where
    S: Copy,
    F: Fn(S, u64) -> u64,
{
    let mut acc = 0u64;
    for &(sq, occ) in queries {
        acc ^= f(sq, opaque(occ));
    }
    acc
}

/// Dependent lookups: the occupancy of each query takes a bit of the previous result,
/// so each lookup waits for the one before (latency, as in a chain of attack tests).
#[inline(always)]
pub fn run_dependent<S, F>(queries: &[(S, u64)], f: F) -> u64
where
    S: Copy,
    F: Fn(S, u64) -> u64,
{
    let mut prev = 0u64;
    for &(sq, occ) in queries {
        prev = f(sq, occ ^ (prev & CHAIN_MASK));
    }
    prev
}

/// The queries converted to `s`'s square type.
pub fn convert<S: Slider>(s: &S, queries: &[(u8, u64)]) -> Vec<(S::Sq, u64)> {
    queries
        .iter()
        .map(|&(sq, occ)| (s.square(sq), occ))
        .collect()
}

#[inline(always)]
pub fn lookup<S: Slider>(s: &S, kind: Kind, sq: S::Sq, occ: u64) -> u64 {
    match kind {
        Kind::Rook => s.rook(sq, occ),
        Kind::Bishop => s.bishop(sq, occ),
        Kind::Queen => s.queen(sq, occ),
    }
}

/// Checks `s` against the slow ray walk on every query, for every piece, and its
/// dependent chain against the chain of the ray walk; panics naming the first mismatch.
pub fn check<S: Slider>(s: &S, queries: &[(u8, u64)]) {
    let typed = convert(s, queries);
    for kind in Kind::ALL {
        for (&(sq, occ), &(tsq, _)) in queries.iter().zip(&typed) {
            let want = reference(kind, sq, occ);
            let got = lookup(s, kind, tsq, occ);
            assert_eq!(
                got,
                want,
                "{}: wrong {} attacks from square {sq} with occupancy {occ:#018x}: \
                 {got:#018x}, the slow ray walk gives {want:#018x}",
                s.name(),
                kind.name()
            );
        }
        let mut prev = 0u64;
        for &(sq, occ) in queries {
            prev = reference(kind, sq, occ ^ (prev & CHAIN_MASK));
        }
        let chain = run_dependent(&typed, |sq, occ| lookup(s, kind, sq, occ));
        assert_eq!(
            chain,
            prev,
            "{}: dependent {} chain ends at {chain:#018x}, the slow ray walk's at {prev:#018x}",
            s.name(),
            kind.name()
        );
    }
}

// ---------------------------------------------------------------------------------------
// Our backends.

/// The crate-level lookups of magic-bitboards (the backend named by `BACKEND`).
pub struct CrateLevel;

impl Slider for CrateLevel {
    type Sq = magic_bitboards::Square;
    fn name(&self) -> String {
        format!("**default** ({})", magic_bitboards::BACKEND)
    }
    fn square(&self, index: u8) -> Self::Sq {
        magic_bitboards::Square::new(index).expect("square index below 64")
    }
    #[inline(always)]
    fn rook(&self, sq: Self::Sq, occ: u64) -> u64 {
        magic_bitboards::rook_attacks(sq, occ)
    }
    #[inline(always)]
    fn bishop(&self, sq: Self::Sq, occ: u64) -> u64 {
        magic_bitboards::bishop_attacks(sq, occ)
    }
    #[inline(always)]
    fn queen(&self, sq: Self::Sq, occ: u64) -> u64 {
        magic_bitboards::queen_attacks(sq, occ)
    }
}

/// One backend module of magic-bitboards, as the crate's registry hands it over.
pub struct Backend<B>(PhantomData<B>);

impl<B: Lookups> Slider for Backend<B> {
    type Sq = magic_bitboards::Square;
    fn name(&self) -> String {
        B::NAME.to_string()
    }
    fn square(&self, index: u8) -> Self::Sq {
        magic_bitboards::Square::new(index).expect("square index below 64")
    }
    #[inline(always)]
    fn rook(&self, sq: Self::Sq, occ: u64) -> u64 {
        B::rook(sq, occ)
    }
    #[inline(always)]
    fn bishop(&self, sq: Self::Sq, occ: u64) -> u64 {
        B::bishop(sq, occ)
    }
    #[inline(always)]
    fn queen(&self, sq: Self::Sq, occ: u64) -> u64 {
        B::queen(sq, occ)
    }
}

/// Backends the bench was built without (a reminder to build with every feature, and
/// with BMI2 for the PEXT ones).
pub fn missing_backends() -> Vec<&'static str> {
    let compiled: Vec<&str> = BACKENDS.iter().map(|b| b.name).collect();
    ALL_NAMES
        .iter()
        .copied()
        .filter(|n| !compiled.contains(n))
        .collect()
}

/// Who an implementation is, for the tables: ours, a baseline, or a peer crate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Group {
    Ours,
    Baseline,
    Peer,
}

/// Code run for every implementation by [`for_each_impl`].
pub trait ImplVisitor {
    /// Called with one implementation and its group.
    fn visit<S: Slider + 'static>(&mut self, imp: S, group: Group);

    /// Whether to build and visit the implementations whose tables are built at run time
    /// (the phf dictionary): not in a process that times a first lookup.
    fn wants_run_time_tables(&self) -> bool {
        true
    }
}

/// Calls `v.visit(imp, group)` for every implementation compiled into this build, in table
/// order: the crate-level lookups, every backend module in the crate's registry, the
/// baselines, the peer crates. Generic, not a `Vec<Box<dyn ...>>`, so that every timed
/// loop is monomorphised and the lookup inlined into it.
pub fn for_each_impl<V: ImplVisitor>(v: &mut V) {
    struct Modules<'a, V>(&'a mut V);
    impl<V: ImplVisitor> Visitor for Modules<'_, V> {
        fn visit<B: Lookups>(&mut self) {
            self.0.visit(Backend::<B>(PhantomData), Group::Ours);
        }
    }
    v.visit(CrateLevel, Group::Ours);
    registry::visit(&mut Modules(v));
    v.visit(SlowWalk, Group::Baseline);
    v.visit(KoggeStone, Group::Baseline);
    if v.wants_run_time_tables() {
        v.visit(PhfDict::new(), Group::Baseline);
    }
    v.visit(Cozy, Group::Peer);
    v.visit(Shakmaty, Group::Peer);
    v.visit(Chess, Group::Peer);
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    v.visit(ChessBmi, Group::Peer);
}
