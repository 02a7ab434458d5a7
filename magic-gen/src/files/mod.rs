//! The hunt's own text files: the search state a scan saves (`state_file.rs`) and the
//! packer's checkpoint (`checkpoint_file.rs`), alone in its file or at the end of a state,
//! both read through one line reader (`reader.rs`). Writers and readers round-trip every
//! field exactly (floats as their bits), so a resumed run goes on bit for bit.

mod checkpoint_file;
mod reader;
mod state_file;

#[cfg(test)]
mod tests;
