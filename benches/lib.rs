//! Nothing to link: this package exists for its benchmarks (`cargo bench -p
//! magic-bitboards-benches --bench quick|attacks|perft`), kept apart so that their
//! peer-crate dependencies stay out of the runtime crate's builds.
