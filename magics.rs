//! The committed magic sets of `magics/` (written by `magic-gen emit`), listed once for the
//! build script, which builds its tables from them, and for the tests, which check those
//! tables against magic-gen's own fill. Each set is named after the backend it feeds.

use magic_gen::Magic;

/// One committed set, as its file declares it.
pub struct Committed {
    /// The backend it feeds, and the file's stem: `magics/<backend>.rs`.
    pub backend: &'static str,
    /// The file, relative to the package root.
    pub file: &'static str,
    /// The index variant the file declares.
    pub variant: &'static str,
    /// The table length the file declares.
    pub table_len: usize,
    /// Rook entries, a1 = 0.
    pub rook: &'static [Magic; 64],
    /// Bishop entries, a1 = 0.
    pub bishop: &'static [Magic; 64],
}

macro_rules! committed {
    ($($backend:ident),*) => {
        $(
            mod $backend {
                use super::Magic;
                include!(concat!("magics/", stringify!($backend), ".rs"));
            }
        )*

        /// Every committed set that a backend is built from.
        pub const COMMITTED: &[Committed] = &[$(Committed {
            backend: stringify!($backend),
            file: concat!("magics/", stringify!($backend), ".rs"),
            variant: $backend::VARIANT,
            table_len: $backend::TABLE_LEN,
            rook: &$backend::ROOK,
            bishop: &$backend::BISHOP,
        }),*];
    };
}

committed!(fancy, plain, black, black_overlay);

/// Returns the committed set the backend `name` is built from, if any.
#[allow(dead_code)]
pub fn committed(name: &str) -> Option<&'static Committed> {
    COMMITTED.iter().find(|c| c.backend == name)
}
