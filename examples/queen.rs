//! Prints the queen's attacks from a square for a given occupancy, with no set-up call.
//!
//! ```text
//! cargo run --release --example queen -- e4 0x0010000000001000
//! ```
//!
//! CI also inspects this binary: the tables must be in read-only data, and `lookup` must
//! use `pext` exactly when the build targets BMI2 (`.ci/check-binary`).

use magic_bitboards::{queen_attacks, Square, BACKEND};

/// The lookup under inspection, kept out of line so its disassembly can be found by name.
#[inline(never)]
pub fn lookup(sq: Square, occupied: u64) -> u64 {
    queen_attacks(sq, occupied)
}

/// What the example takes, for its error messages.
const USAGE: &str =
    "usage: queen [SQUARE [OCCUPANCY]]: a square (default e4) and a hex occupancy (default 0)";

fn main() {
    let given: Vec<String> = std::env::args().skip(1).collect();
    if given.len() > 2 {
        eprintln!(
            "{} arguments given, at most 2 taken: {:?} left over\n{USAGE}",
            given.len(),
            &given[2..]
        );
        std::process::exit(2);
    }
    let mut args = given.into_iter();
    let sq: Square = match args.next().as_deref().unwrap_or("e4").parse() {
        Ok(sq) => sq,
        Err(e) => {
            eprintln!("{e}\n{USAGE}");
            std::process::exit(2);
        }
    };
    let occupied = args
        .next()
        .map(|s| u64::from_str_radix(s.trim_start_matches("0x"), 16))
        .unwrap_or(Ok(0))
        .unwrap_or_else(|e| {
            eprintln!("occupancy must be hex: {e}\n{USAGE}");
            std::process::exit(2);
        });
    let attacks = lookup(sq, occupied);
    println!("backend: {BACKEND}");
    println!("queen on {sq}, occupied {occupied:#018x}: attacks {attacks:#018x}");
    for rank in (0..8).rev() {
        let row: String = (0..8)
            .map(|file| {
                let s = Square::from_file_rank(file, rank).expect("file and rank are below 8");
                if s == sq {
                    'Q'
                } else if attacks & s.bit() != 0 {
                    'x'
                } else if occupied & s.bit() != 0 {
                    'o'
                } else {
                    '.'
                }
            })
            .collect();
        println!("{row}");
    }
}
