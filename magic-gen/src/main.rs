//! `magic-gen`: search, verify, inspect and emit magic-bitboard sets (see `cli/`).

#![forbid(unsafe_code)]

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
