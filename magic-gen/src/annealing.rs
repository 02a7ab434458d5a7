//! The annealing rule of both annealings, the white clump climb of the scan
//! (`search/climb.rs`) and the packing (`pack/anneal.rs`): a geometric cooling schedule
//! and the Metropolis acceptance of a move. A module of its own, so that neither of them
//! reaches into the other for it.

/// Returns the factor a temperature is multiplied by at each of `moves` moves to go from
/// `hot` to `cold`: the geometric schedule.
#[inline]
pub(crate) fn cooling(hot: f64, cold: f64, moves: u64) -> f64 {
    (cold / hot).powf(1.0 / moves.max(1) as f64)
}

/// Returns true if a move that changes the energy by `rise` is kept at `temperature`,
/// given `u` drawn uniformly from [0, 1): the Metropolis rule.
#[inline]
pub(crate) fn metropolis(rise: f64, temperature: f64, u: f64) -> bool {
    rise <= 0.0 || u < (-rise / temperature).exp()
}
