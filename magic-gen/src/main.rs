//! `magic-gen`: search, verify, inspect and emit magic-bitboard sets (the commands are
//! the library's `cli` module).

#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    magic_gen::cli::main()
}
