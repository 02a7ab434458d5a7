//! `magic-gen stats`: its arguments, and a set's size with 8x8 boards of index bits.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use magic_gen::{square_name, Piece};

use super::board::{board, ABOVE, BELOW};
use super::output::{claim_stdout_for, is_stdio, show, write_output};
use super::picture::svg;
use super::verify::{print_size, read_and_verify};

/// Arguments of `stats`.
#[derive(Args, Debug, Clone)]
pub struct StatsArgs {
    /// Set file: `.rs` (emitted) or interchange format; `-` reads standard input.
    file: PathBuf,
    /// Also write an SVG picture of the table here (`-`: standard output, the figures then
    /// going to standard error): 1,024 slots a row, a colour per square, holes black.
    #[arg(long, value_name = "FILE.svg")]
    picture: Option<PathBuf>,
}

/// `magic-gen stats FILE`.
pub fn run(args: &StatsArgs) -> Result<ExitCode, String> {
    let file = &args.file;
    // `--picture -`: standard output holds the SVG alone.
    claim_stdout_for(args.picture.as_deref());
    let (set, v, _) = read_and_verify(file)?;
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
    say!("\nper square: first and last table index reached, span (last - first + 1), slots used, holes in its span");
    say!("piece  square   first    last   span   used  holes");
    for piece in Piece::ALL {
        for (sq, u) in r.squares[piece.index()].iter().enumerate() {
            say!(
                "{:<6} {:<6} {:>7} {:>7} {:>6} {:>6} {:>6}",
                piece.to_string(),
                square_name(sq as u8),
                u.first,
                u.last,
                u.span(),
                u.used,
                u.holes()
            );
        }
    }
    let spans: usize = r.squares.iter().flatten().map(|u| u.span()).sum();
    say!(
        "sum of spans {spans}: interleaving saves {} entries over ranges end to end",
        spans.saturating_sub(r.table_len)
    );
    if let Some(path) = &args.picture {
        write_output(path, svg(&v).as_bytes())?;
        if !is_stdio(path) {
            say!("wrote {}", show(path));
        }
    }
    Ok(ExitCode::SUCCESS)
}
