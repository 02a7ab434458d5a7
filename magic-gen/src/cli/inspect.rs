//! `verify`, `stats` and `emit`: commands that read a set file.

use std::path::Path;
use std::process::ExitCode;

use magic_gen::{
    read_set_file, render_set_file, verify as verify_set, MagicSet, Piece, Provenance, Verified,
};

use super::board::{board, ABOVE, BELOW};
use super::{shell_quote, show, write_atomic};

/// Reads and verifies `file`. On failure prints each failure as `error: FILE: piece square: ...`
/// and returns `Err(count)`.
fn read_and_verify(file: &Path) -> Result<Result<(MagicSet, Verified), usize>, String> {
    let (set, _) = read_set_file(file).map_err(|e| e.to_string())?;
    match verify_set(&set) {
        Ok(v) => Ok(Ok((set, v))),
        Err(failures) => {
            for f in &failures {
                eprintln!("error: {}: {f}", show(file));
            }
            Ok(Err(failures.len()))
        }
    }
}

fn rejected(file: &Path, count: usize) -> String {
    let squares = if count == 1 {
        "square fails"
    } else {
        "squares fail"
    };
    format!("{}: rejected: {count} {squares} verification", show(file))
}

/// Prints the table length and slots used lines shared by `verify` and `stats`.
fn print_size(v: &Verified) {
    let r = &v.report;
    say!(
        "table length: {} entries ({:.1} KiB of u64)",
        r.table_len,
        r.kib(8)
    );
    let fill = if r.table_len == 0 {
        0.0
    } else {
        100.0 * r.slots_used as f64 / r.table_len as f64
    };
    say!("slots used:   {} ({fill:.1}% of the table)", r.slots_used);
}

/// `magic-gen verify FILE`.
pub fn verify(file: &Path) -> Result<ExitCode, String> {
    match read_and_verify(file)? {
        Ok((set, v)) => {
            say!(
                "{}: {} set, collision-free (every occupancy of all 128 squares checked)",
                show(file),
                set.variant
            );
            print_size(&v);
            Ok(ExitCode::SUCCESS)
        }
        Err(count) => Err(rejected(file, count)),
    }
}

/// `magic-gen stats FILE`.
pub fn stats(file: &Path) -> Result<ExitCode, String> {
    let (set, v) = match read_and_verify(file)? {
        Ok(ok) => ok,
        Err(count) => return Err(rejected(file, count)),
    };
    let r = &v.report;
    say!("{}: {} set", show(file), set.variant);
    print_size(&v);
    for piece in Piece::ALL {
        let bits = &r.bits[piece.index()];
        let total: u64 = bits.iter().map(|&b| 1u64 << b).sum();
        say!(
            "\n{piece}: index bits per square; {} squares below the mask popcount; ranges of 2^bits add up to {total} entries",
            r.squares_below_popcount(piece)
        );
        say!("{}", board(piece, bits).trim_end());
    }
    say!(
        "\nlegend: N = index bits; {BELOW} = fewer than the mask popcount (denser than standard), {ABOVE} = more (fixed shift), blank = equal"
    );
    Ok(ExitCode::SUCCESS)
}

/// `magic-gen emit FILE --out X`.
pub fn emit(file: &Path, out: &Path) -> Result<ExitCode, String> {
    let (set, v) = match read_and_verify(file)? {
        Ok(ok) => ok,
        Err(count) => return Err(rejected(file, count)),
    };
    let provenance = Provenance {
        seed: None,
        command: Some(format!(
            "magic-gen emit {} --out {}",
            shell_quote(&show(file)),
            shell_quote(&show(out))
        )),
    };
    let text = render_set_file(out, &set, &v.report, &provenance);
    write_atomic(out, text.as_bytes())?;
    say!(
        "wrote {}: {} set, {} entries ({:.1} KiB of u64)",
        show(out),
        set.variant,
        v.report.table_len,
        v.report.kib(8)
    );
    Ok(ExitCode::SUCCESS)
}
