//! `magic-gen stats`: its arguments, and a set's size with 8x8 boards of index bits and
//! each square's measures; a hunt's pools measured; two compared square by square. The
//! measures are `magic_gen::measure`'s; this file prints them.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use magic_gen::measure::{compare, MeasureError, Measured, PerSquare, Pools};
use magic_gen::search::SearchState;
use magic_gen::{square_name, Piece};

use super::board::{board, ABOVE, BELOW};
use super::output::{claim_stdout_for, is_stdio, show, write_output};
use super::picture::svg;
use super::search::read_state;
use super::verify::{print_size, read_and_verify, Checked};

/// Arguments of `stats`.
#[derive(Args, Debug, Clone)]
pub struct StatsArgs {
    /// Set file: `.rs` (emitted) or interchange format; `-` reads standard input. Or a
    /// search state file (`search --state`): its pools, each square's magics measured.
    file: PathBuf,
    /// Also write an SVG picture of the table here (`-`: standard output, the figures then
    /// going to standard error): 1,024 slots a row, a colour per square, holes black.
    #[arg(long, value_name = "FILE.svg", conflicts_with = "against")]
    picture: Option<PathBuf>,
    /// Compare FILE (ours) with this set or state file (theirs) square by square: slots
    /// used by each, ours minus theirs, the free slots at each range's ends, totals, and the
    /// squares where ours uses no more slots than theirs. A state file gives each square's
    /// pool magic with the fewest slots used.
    #[arg(long, value_name = "THEIRS")]
    against: Option<PathBuf>,
    /// With a state file: list every magic of every pool, not only each square's with the
    /// fewest slots used.
    #[arg(long, conflicts_with = "against")]
    members: bool,
}

/// What `stats` reads: a verified set, or a hunt's pools measured.
enum Source {
    Set(Box<Checked>),
    Pools(Pools),
}

/// Reads `path` (`-`: a set from standard input) as a verified set or a state's pools.
fn read_source(path: &Path) -> Result<Source, String> {
    if is_stdio(path) || !SearchState::is_state_file(path) {
        return Ok(Source::Set(Box::new(read_and_verify(path)?)));
    }
    let (state, _) = read_state(path)?;
    Pools::of_state(&state)
        .map(Source::Pools)
        .map_err(|e| word(&e, path, None))
}

/// Returns what a source offers per square: a set's magics, or each pool's best.
fn per_square(source: &Source, path: &Path) -> Result<PerSquare, String> {
    match source {
        Source::Set(checked) => PerSquare::of_set(&checked.0).map_err(|e| word(&e, path, None)),
        Source::Pools(pools) => Ok(pools.best()),
    }
}

/// Words a measuring error: `file`'s, or the comparison of `file` with `theirs`.
fn word(e: &MeasureError, file: &Path, theirs: Option<&Path>) -> String {
    let file = show(file);
    match e {
        MeasureError::Entry {
            piece,
            square,
            reason,
        } => format!("{file}: {piece} {}: {reason}", square_name(*square)),
        MeasureError::Collision {
            piece,
            square,
            magic,
            bits,
        } => format!(
            "{file}: {piece} {}: {magic:#018x} with {bits} index bits is no magic there: two \
             occupancies with different attacks share a slot",
            square_name(*square)
        ),
        MeasureError::Variants { ours, theirs: v } => format!(
            "{file} is {ours} and {} is {v}: slots used compare only within one variant",
            theirs.map_or(String::new(), show)
        ),
    }
}

/// `magic-gen stats FILE`.
pub fn run(args: &StatsArgs) -> Result<ExitCode, String> {
    let file = &args.file;
    // `--picture -`: standard output holds the SVG alone.
    claim_stdout_for(args.picture.as_deref());
    let source = read_source(file)?;
    if let Some(theirs_path) = &args.against {
        let theirs = read_source(theirs_path)?;
        let ours = per_square(&source, file)?;
        let theirs_square = per_square(&theirs, theirs_path)?;
        let c = compare(&ours, &theirs_square).map_err(|e| word(&e, file, Some(theirs_path)))?;
        say!("ours:   {}", describe(&source, file));
        say!("theirs: {}", describe(&theirs, theirs_path));
        print_comparison(&c);
        return Ok(ExitCode::SUCCESS);
    }
    match &source {
        Source::Set(_) if args.members => {
            return Err(format!(
                "{}: --members lists the pools of a search state; this is a set",
                show(file)
            ))
        }
        Source::Set(checked) => print_set(args, checked, &per_square(&source, file)?)?,
        Source::Pools(pools) => {
            if args.picture.is_some() {
                return Err(format!(
                    "{}: a search state holds pools, not a table: --picture draws a set",
                    show(file)
                ));
            }
            say!("{}", describe(&source, file));
            print_pools(pools, args.members);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Returns `FILE: variant set`, or the state's pools in a line.
fn describe(source: &Source, file: &Path) -> String {
    match source {
        Source::Set(checked) => format!("{}: {} set", show(file), checked.0.variant),
        Source::Pools(pools) => {
            let best = pools.best();
            format!(
                "{}: {} search state, {} magics in the pools of {} of 128 squares; per square the \
                 one with the fewest slots used (ties: the shorter span)",
                show(file),
                pools.variant,
                pools.members.len(),
                best.measured()
            )
        }
    }
}

/// The legend of the lead and tail columns, shared by every table.
const ENDS: &str = "lead and tail: free slots of the square's range of 2^bits before its \
                    first slot (after the empty occupancy's lone slot 0, for every variant \
                    but black) and after its last";

/// Prints a set's size, boards of index bits and per-square measures.
fn print_set(args: &StatsArgs, checked: &Checked, measured: &PerSquare) -> Result<(), String> {
    let (set, v, _) = checked;
    let file = &args.file;
    let r = &v.report;
    say!("{}: {} set", show(file), set.variant);
    print_size(v);
    for piece in Piece::ALL {
        say!(
            "\n{piece}: index bits per square; {} squares below the mask popcount; ranges of 2^bits add up to {} entries",
            r.squares_below_popcount(piece),
            r.range_total(piece)
        );
        say!("{}", board(piece, &r.bits[piece.index()]).trim_end());
    }
    say!(
        "\nlegend: N = index bits; {BELOW} = fewer than the mask popcount (denser than standard), {ABOVE} = more (fixed shift), blank = equal"
    );
    say!("\nper square: first and last table index reached, span (last - first + 1), slots used, holes in its span; {ENDS}");
    say!("piece  square   first    last   span   used  holes   lead   tail");
    for piece in Piece::ALL {
        for (sq, u) in r.squares[piece.index()].iter().enumerate() {
            let ends = measured.get(piece, sq as u8).map(|m| m.range);
            let (lead, tail) = ends.map_or((0, 0), |e| (e.lead, e.tail));
            say!(
                "{:<6} {:<6} {:>7} {:>7} {:>6} {:>6} {:>6} {:>6} {:>6}",
                piece.to_string(),
                square_name(sq as u8),
                u.first,
                u.last,
                u.span(),
                u.used,
                u.holes(),
                lead,
                tail
            );
        }
    }
    let (spans, saving) = r.spans_and_saving();
    say!("sum of spans {spans}: interleaving saves {saving} entries over ranges end to end");
    if let Some(path) = &args.picture {
        write_output(path, svg(v).as_bytes())?;
        if !is_stdio(path) {
            say!("wrote {}", show(path));
        }
    }
    Ok(())
}

/// Returns a measured magic's columns: index bits, slots used, span, lead, tail.
fn columns(m: &Measured) -> String {
    let r = m.range;
    format!(
        "{:>4} {:>6} {:>6} {:>6} {:>6}",
        r.bits,
        r.used,
        r.span(),
        r.lead,
        r.tail
    )
}

/// Prints each square's best pool magic, or with `members` every pool magic.
fn print_pools(pools: &Pools, members: bool) {
    say!("span: first to last slot of the run (the search's own measure); {ENDS}");
    if members {
        say!("piece  square rank bits   used   span   lead   tail  magic");
        for m in &pools.members {
            say!(
                "{:<6} {:<6} {:>4} {}  {:#018x}",
                m.piece.to_string(),
                square_name(m.square),
                m.rank,
                columns(&m.measured),
                m.measured.magic
            );
        }
        return;
    }
    let best = pools.best();
    say!("piece  square pool bits   used   span   lead   tail  magic");
    for piece in Piece::ALL {
        for sq in 0..64u8 {
            let pool = pools.of_square(piece, sq).count();
            let row = best.get(piece, sq).map_or_else(
                || format!("{:>4} {:>6} {:>6} {:>6} {:>6}  -", "-", "-", "-", "-", "-"),
                |m| format!("{}  {:#018x}", columns(m), m.magic),
            );
            say!(
                "{:<6} {:<6} {pool:>4} {row}",
                piece.to_string(),
                square_name(sq)
            );
        }
    }
    say!(
        "slots used by these magics: {} in all, over {} squares",
        best.total_used(),
        best.measured()
    );
}

/// Prints a comparison square by square, then its totals and counts.
fn print_comparison(c: &magic_gen::measure::Comparison) {
    say!("per square: slots used by ours and theirs, ours minus theirs, lead and tail of ours (o.) and theirs (t.); {ENDS}");
    say!("piece  square   ours theirs   diff o.lead o.tail t.lead t.tail");
    let used = |m: Option<Measured>| m.map_or("-".to_string(), |m| m.range.used.to_string());
    let ends = |m: Option<Measured>| {
        m.map_or(format!("{:>6} {:>6}", "-", "-"), |m| {
            format!("{:>6} {:>6}", m.range.lead, m.range.tail)
        })
    };
    for row in &c.rows {
        let diff = row
            .difference()
            .map_or("-".to_string(), |d| format!("{d:+}"));
        say!(
            "{:<6} {:<6} {:>6} {:>6} {:>6} {} {}",
            row.piece.to_string(),
            square_name(row.square),
            used(row.ours),
            used(row.theirs),
            diff,
            ends(row.ours),
            ends(row.theirs)
        );
    }
    let t = &c.tally;
    say!(
        "slots used: ours {}, theirs {}, ours minus theirs {:+}, over {} squares",
        t.ours_used,
        t.theirs_used,
        t.ours_used as i64 - t.theirs_used as i64,
        t.squares
    );
    say!(
        "squares where ours uses no more slots than theirs: {} of {}",
        t.no_more,
        t.squares
    );
    say!(
        "ours uses fewer on {} squares ({} slots in all), as many on {}, more on {} ({} slots in all)",
        t.fewer,
        t.fewer_by,
        t.no_more - t.fewer,
        t.more,
        t.more_by
    );
    say!(
        "free slots at the range ends (lead + tail): ours {}, theirs {}",
        t.ours_ends,
        t.theirs_ends
    );
    if t.unmatched > 0 {
        say!(
            "left out: {} squares where only one side has a magic",
            t.unmatched
        );
    }
}
