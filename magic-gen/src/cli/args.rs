//! Argument parsers: each turns one command-line value into its type or says what is wrong.

use magic_gen::search::Shard;
use magic_gen::{parse_square, Piece, Variant};

/// Parses a searchable variant (every one but PEXT).
pub fn parse_variant(s: &str) -> Result<Variant, String> {
    match Variant::parse(s) {
        Some(Variant::Pext) => Err("pext needs no search: its index is the mask itself".into()),
        Some(v) => Ok(v),
        None => Err(format!(
            "unknown variant '{s}' (fancy, plain, black or white)"
        )),
    }
}

/// Parses `rook` or `bishop`.
pub fn parse_piece(s: &str) -> Result<Piece, String> {
    Piece::parse(s).ok_or_else(|| format!("unknown piece '{s}' (rook or bishop)"))
}

/// Parses a square name, `a1`..`h8`.
pub fn parse_square_arg(s: &str) -> Result<u8, String> {
    parse_square(s).ok_or_else(|| format!("unknown square '{s}' (a1..h8)"))
}

/// Parses a shard `K/N`.
pub fn parse_shard(s: &str) -> Result<Shard, String> {
    Shard::parse(s)
}

/// Parses a pool size, 1..=4096.
pub fn parse_pool(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=4096).contains(&n) => Ok(n),
        _ => Err(format!("pool '{s}' must be a number in 1..=4096")),
    }
}

/// Parses a number of seconds, 0..=1e9.
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=1e9).contains(&x) => Ok(x),
        _ => Err(format!("'{s}' is not a number of seconds")),
    }
}
