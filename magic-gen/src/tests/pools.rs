//! The pools a scan keeps: polish, clump, pack cost and sparse finds.

use super::*;
use crate::index::Variant;
use crate::search::state::*;
use crate::search::*;

#[test]
fn polishing_lowers_pool_costs_the_same_way_on_any_thread_count() {
    use crate::occupancy::SquareData;
    use crate::search::pack_cost;
    use crate::search::EpochTable;
    let (o, state) = small_pools(Variant::Black);
    assert!(
        state.jobs.iter().any(|j| j.found.len() > 4),
        "no sparse finds"
    );
    let cost = |job: &Job, magic: u64| {
        let data = SquareData::new(job.piece, job.square, Variant::Black);
        let mut table = EpochTable::new(job.bits);
        let (used, span) = table.measure(&data.entries(), magic, job.bits).unwrap();
        pack_cost(used, span)
    };
    let mut limits = o.limits;
    limits.polish.polish = 200;
    let (polished, asked) = crate::polish::polished(&state, &limits.polish, limits.threads);
    // One climb per pool member, none for the sparse finds.
    let members = |pool: usize| -> u64 {
        state
            .jobs
            .iter()
            .map(|j| j.found.len().min(pool) as u64)
            .sum()
    };
    assert_eq!(asked, members(4));
    let (mut before, mut after) = (0u64, 0u64);
    for (job, magics) in state.jobs.iter().zip(&polished) {
        if job.found.is_empty() {
            // Nothing found in the budget: nothing to climb (the packer falls back).
            assert!(magics.is_empty());
            continue;
        }
        // Every polished magic is valid (measure panics otherwise), no member got dearer,
        // and duplicates are gone.
        let best_before = job.found.iter().map(|f| cost(job, f.magic)).min().unwrap();
        let best_after = magics.iter().map(|&m| cost(job, m)).min().unwrap();
        assert!(best_after <= best_before, "{} {}", job.piece, job.square);
        assert!(!magics.is_empty() && magics.len() <= job.found.len());
        let mut unique = magics.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), magics.len());
        // Sparse finds are kept as scanned.
        for f in job.found.iter().skip(4) {
            assert!(magics.contains(&f.magic), "{} {}", job.piece, job.square);
        }
        before += u64::from(best_before);
        after += u64::from(best_after);
    }
    assert!(
        after < before,
        "polishing changed nothing: {after} {before}"
    );
    limits.threads = 1;
    assert_eq!(
        crate::polish::polished(&state, &limits.polish, limits.threads),
        (polished, asked)
    );
    limits.polish.polish = 0;
    let (unpolished, asked) = crate::polish::polished(&state, &limits.polish, limits.threads);
    assert_eq!(asked, 0);
    for (job, magics) in state.jobs.iter().zip(unpolished) {
        assert_eq!(
            magics,
            job.found.iter().map(|f| f.magic).collect::<Vec<_>>()
        );
    }
}

#[test]
fn clumping_adds_white_members_that_block_fewer_slots_on_any_thread_count() {
    use crate::search::white_blocked_slots;
    let (o, state) = small_pools(Variant::White);
    let mut limits = o.limits;
    limits.polish.clump = 2000;
    let (clumped, asked) = crate::polish::polished(&state, &limits.polish, limits.threads);
    // One clump climb per find, sparse ones too; no polish.
    let finds: u64 = state.jobs.iter().map(|j| j.found.len() as u64).sum();
    assert_eq!(asked, finds);
    let blocked = |job: &Job, m: u64| white_blocked_slots(job.piece, job.square, m, job.bits);
    let (mut before, mut after, mut added) = (0u64, 0u64, 0);
    for (job, magics) in state.jobs.iter().zip(&clumped) {
        // The finds first, as scanned (no polish); then the clumped ones, each valid and
        // blocking fewer slots than the finds block at most.
        let found: Vec<u64> = job.found.iter().map(|f| f.magic).collect();
        assert_eq!(magics[..found.len()], found[..]);
        let own: Vec<u32> = found.iter().map(|&m| blocked(job, m).unwrap()).collect();
        for &m in &magics[found.len()..] {
            let b = blocked(job, m).expect("a clumped member is a magic");
            assert!(
                b < *own.iter().max().unwrap(),
                "{} {}",
                job.piece,
                job.square
            );
            assert!(!found.contains(&m));
            added += 1;
        }
        if let Some(&least) = own.iter().min() {
            before += u64::from(least);
            after += u64::from(
                magics
                    .iter()
                    .map(|&m| blocked(job, m).unwrap())
                    .min()
                    .unwrap(),
            );
        }
    }
    assert!(
        added > 0 && after < before,
        "{added} added, {before} -> {after}"
    );
    limits.threads = 1;
    assert_eq!(
        crate::polish::polished(&state, &limits.polish, limits.threads),
        (clumped, asked)
    );
    // Black keys are not clumped: the option leaves their pools as scanned.
    let mut o = options(Variant::Black, 2);
    o.scan.budget = Budget::Candidates(BLOCK_LEN);
    o.scan.patience = 0;
    let state = scanned(&o);
    let as_scanned = crate::polish::polished(&state, &o.limits.polish, o.limits.threads);
    assert_eq!(
        crate::polish::polished(&state, &limits.polish, limits.threads),
        as_scanned
    );
}

#[test]
fn pools_keep_the_best_by_pack_cost_then_the_sparsest_of_the_rest_in_any_order() {
    use crate::search::{pack_cost, sparse_cost};
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
    // Few distinct costs, so ties are common and the index must break them.
    let finds: Vec<Found> = (0..300)
        .map(|index| Found {
            index,
            magic: index,
            used: 500 + (rng.next_u64() % 40) as u32 * 8,
            span: 900 + (rng.next_u64() % 60) as u32 * 50,
            blocked: 0,
        })
        .collect();
    let mut scan = options(Variant::Black, 1).scan;
    scan.budget = Budget::Candidates(1 << 20);
    // (2, 1): a sparse place past the pool's product with the sparse count.
    for (pool, sparse) in [(8, 0), (8, 5), (1, 12), (2, 1), (400, 3)] {
        (scan.pool, scan.sparse) = (pool, sparse);
        // What is kept, by the definition: the pool, then the sparsest of the rest.
        let mut all = finds.clone();
        all.sort_by_key(|f| (pack_cost(f.used, f.span), f.span, f.index));
        let mut rest = all.split_off(pool.min(all.len()));
        rest.sort_by_key(|f| (sparse_cost(f.used, f.span), f.index));
        rest.truncate(sparse);
        all.extend(rest);
        assert_eq!(all.len(), (pool + sparse).min(finds.len()));
        for order in 0..4 {
            let mut shuffled = finds.clone();
            for i in (1..shuffled.len()).rev() {
                shuffled.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
            }
            if order == 0 {
                shuffled.reverse();
            }
            let mut j = rook_a1_job();
            for &f in &shuffled {
                scan.insert(&mut j, f);
            }
            assert_eq!(j.found, all, "pool {pool} sparse {sparse}, order {order}");
        }
    }
}

#[test]
fn a_white_find_said_to_be_dropped_whatever_its_blocked_slots_is_dropped() {
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(4);
    let mut scan = options(Variant::White, 1).scan;
    scan.budget = Budget::Candidates(1 << 20);
    let (mut skipped, mut kept) = (0, 0);
    for (pool, sparse) in [(8, 0), (8, 5), (1, 12), (400, 3)] {
        (scan.pool, scan.sparse) = (pool, sparse);
        let skipped_before = skipped;
        let mut job = rook_a1_job();
        for index in 0..300 {
            let used = 400 + (rng.next_u64() % 40) as u32 * 8;
            let f = Found {
                index,
                magic: index,
                used,
                span: 900 + (rng.next_u64() % 60) as u32 * 50,
                // Blocked slots: the used ones, and maybe short holes.
                blocked: used + (rng.next_u64() % 3) as u32 * 20,
            };
            if scan.may_keep(&job, &f) {
                kept += 1;
                scan.insert(&mut job, f);
            } else {
                // Whatever its blocked slots (at least its used ones), it changes nothing.
                skipped += 1;
                for blocked in [f.used, f.blocked, u32::MAX] {
                    let mut tried = job.clone();
                    scan.insert(&mut tried, Found { blocked, ..f });
                    assert_eq!(
                        tried.found, job.found,
                        "pool {pool} sparse {sparse} find {index}"
                    );
                }
            }
        }
        // Where the sparse places fill before the 300 finds end, the test spares most
        // of the later finds their measure.
        if sparse > 0 && pool < 300 {
            assert!(skipped - skipped_before > 50, "pool {pool} sparse {sparse}");
        }
    }
    assert!(
        skipped > 100 && kept > 100,
        "{skipped} skipped, {kept} kept"
    );
}

#[test]
fn a_sparse_pool_is_saved_on_the_pool_line_and_read_back() {
    let mut o = options(Variant::Black, 1);
    o.scan.budget = Budget::Candidates(BLOCK_LEN);
    o.scan.pool = 2;
    o.scan.sparse = 3;
    o.scan.patience = 0;
    let state = scanned(&o);
    let text = state.to_text();
    assert!(text.contains("\npool 2 sparse 3\n"), "{text}");
    assert!(state.jobs.iter().any(|j| j.found.len() == 5));
    assert_eq!(
        SearchState::parse("s.state", text.as_bytes()).unwrap(),
        state
    );
    // Without sparse finds the line is as it always was.
    o.scan.sparse = 0;
    assert!(SearchState::new(&o)
        .unwrap()
        .to_text()
        .contains("\npool 2\npatience"));
    for bad in ["pool 2 sparse", "pool 2 sparse x", "pool 2 dense 3"] {
        let e = SearchState::parse("s.state", text.replace("pool 2 sparse 3", bad).as_bytes());
        let e = e.unwrap_err().to_string();
        assert!(e.starts_with("s.state:6: bad pool size"), "{e}");
    }
}

#[test]
fn among_sparse_finds_a_hole_costs_a_tenth_of_a_used_slot_and_in_pools_half() {
    use crate::search::{pack_cost, sparse_cost};
    // One used slot more against ten slots of span more: the same sparse cost.
    assert_eq!(sparse_cost(101, 1000), sparse_cost(100, 1010));
    assert!(sparse_cost(100, 1000) < sparse_cost(101, 1000));
    assert!(sparse_cost(100, 1000) < sparse_cost(100, 1001));
    assert_eq!(sparse_cost(3, 5), 35);
    assert_eq!(pack_cost(101, 1000), pack_cost(100, 1002));
    assert_eq!(pack_cost(3, 5), 11);
}
