use crate::geometry::{empty_board_attacks, relevant_mask, slow_attacks, subsets, Piece};
use crate::hunt::{Hooks, Hunt};
use crate::index::Variant;
use crate::search::Limits;
use crate::{read_set_file, verify, MagicSet, Verified};

/// Returns a committed set of the workspace.
fn committed(path: &str) -> MagicSet {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    read_set_file(&root.join(path))
        .expect("committed set reads")
        .0
}

/// Returns `set`'s magics packed into an overlay table by the hunt a `pack --overlay`
/// runs, with `moves` moves of the search after the greedy layout.
fn overlaid(set: &MagicSet, moves: u64) -> MagicSet {
    let report = verify(set).expect("the input verifies").report;
    let mut limits = Limits::default();
    limits.pack.iterations = moves;
    let hunt = Hunt::repack(set, &report, &limits).into_overlay();
    let outcome = hunt
        .run(Hooks::default())
        .expect("the overlay packing runs");
    assert!(outcome.cut.is_none());
    outcome.set
}

/// Returns the occupancies (piece, square, occupancy, index) whose table entry, read
/// through what the set's rule reads it through if `masked` (else as it is), is not the
/// square's attacks.
fn misreads(set: &MagicSet, v: &Verified, masked: bool) -> usize {
    let mut wrong = 0;
    for piece in Piece::ALL {
        for sq in 0..64u8 {
            let rays = match masked {
                true => set.variant.reads_through(piece, sq),
                false => u64::MAX,
            };
            for occ in subsets(relevant_mask(piece, sq)) {
                let i = set.index(piece, sq, occ) as usize;
                wrong += usize::from(v.table[i] & rays != slow_attacks(piece, sq, occ));
            }
        }
    }
    wrong
}

/// The project's own black magics (no published one) overlay into a table far shorter
/// than their exact packing, which reads right through each square's rays on every
/// occupancy and wrong without them: the mask does work.
#[test]
fn own_black_magics_overlay_into_a_shorter_table_that_needs_its_mask() {
    let own = committed("magics/records/own-black.rs");
    let exact = verify(&own).unwrap().report.table_len;
    let set = overlaid(&own, 0);
    assert_eq!(set.variant, Variant::BlackOverlay);
    for piece in Piece::ALL {
        for sq in 0..64u8 {
            let (a, b) = (set.entry(piece, sq), own.entry(piece, sq));
            assert_eq!((a.magic, a.bits), (b.magic, b.bits));
            assert!(a.offset >= 0, "{piece} {sq}: {}", a.offset);
        }
    }
    let v = verify(&set).expect("the overlay set verifies by its rule");
    assert!(
        v.report.table_len * 5 < exact * 4,
        "{} of {exact}",
        v.report.table_len
    );
    assert_eq!(misreads(&set, &v, true), 0);
    assert!(misreads(&set, &v, false) > 0);
    // Read by the exact rule, the same layout collides.
    let exact_rule = MagicSet {
        variant: Variant::Black,
        ..set.clone()
    };
    assert!(verify(&exact_rule).is_err());
}

/// A rook overlay's bishops read their slots as they are: the committed `black_overlay`
/// table reads right by its rule on every occupancy (rooks through their rays, bishops
/// without), wrong with no mask at all; the overlay record's bishops, which share slots
/// through their rays, collide when read as a rook overlay's.
#[test]
fn a_rook_overlays_bishops_read_their_slots_without_rays() {
    let set = committed("magics/black_overlay.rs");
    assert_eq!(set.variant, Variant::BlackRookOverlay);
    let v = verify(&set).expect("verifies by its rule");
    assert_eq!(misreads(&set, &v, true), 0);
    assert!(misreads(&set, &v, false) > 0);
    for sq in 0..64u8 {
        assert_eq!(set.variant.reads_through(Piece::Bishop, sq), u64::MAX);
        let rays = empty_board_attacks(Piece::Rook, sq);
        assert_eq!(set.variant.reads_through(Piece::Rook, sq), rays);
    }
    let shared = MagicSet {
        variant: Variant::BlackRookOverlay,
        ..committed("magics/records/own-black-overlay.rs")
    };
    let failures = verify(&shared).expect_err("bishops share slots through their rays");
    assert!(
        failures.iter().all(|f| format!("{f:?}").contains("Bishop")),
        "{failures:?}"
    );
}

/// Moves of the search after the greedy layout never lengthen the table, and the seed and
/// count decide the result.
#[test]
fn search_moves_never_lengthen_an_overlay_table() {
    let own = committed("magics/records/own-black.rs");
    let len = |set: &MagicSet| verify(set).unwrap().report.table_len;
    let greedy = len(&overlaid(&own, 0));
    let tried = overlaid(&own, 6);
    assert!(len(&tried) <= greedy, "{} > {greedy}", len(&tried));
    assert_eq!(overlaid(&own, 6), tried);
}

/// A slot shared by two squares holds what both want only where their rays agree: moving
/// one square's range by a slot onto the others breaks the overlay rule somewhere.
#[test]
fn a_range_moved_off_its_place_breaks_the_overlay_rule() {
    let own = committed("magics/records/own-black.rs");
    let set = overlaid(&own, 0);
    let mut moved = set.clone();
    moved.entry_mut(Piece::Rook, 27).offset += 1;
    assert!(verify(&moved).is_err());
}

/// Fancy magics read through their rays: bishops of opposite colours share a range, which
/// the exact rule refuses and the overlay rule takes; the set reads back from both formats.
#[test]
fn a_fancy_overlay_set_shares_ranges_its_exact_rule_would_refuse() {
    let fancy = committed("magics/fancy.rs");
    let mut set = MagicSet {
        variant: Variant::FancyOverlay,
        ..fancy.clone()
    };
    // b1 (light) onto a1 (dark): no square both can attack.
    let a1 = set.entry(Piece::Bishop, 0).offset;
    set.entry_mut(Piece::Bishop, 1).offset = a1;
    let v = verify(&set).expect("opposite-colour bishops overlay");
    assert_eq!(misreads(&set, &v, true), 0);
    assert!(misreads(&set, &v, false) > 0);
    let exact = MagicSet {
        variant: Variant::Fancy,
        ..set.clone()
    };
    assert!(verify(&exact).is_err());
    // Rooks on one file meet on squares whose attacks hang on different blockers: a2 onto
    // a1's range breaks.
    let mut clash = set.clone();
    clash.entry_mut(Piece::Rook, 8).offset = set.entry(Piece::Rook, 0).offset;
    assert!(verify(&clash).is_err());
    for name in ["f.rs", "f.txt"] {
        let dir = std::env::temp_dir().join(format!("mg-fancy-overlay-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        let text = crate::render_set_file(&path, &set, &v.report, &Default::default());
        std::fs::write(&path, text).unwrap();
        assert_eq!(read_set_file(&path).unwrap().0, set, "{name}");
    }
}
