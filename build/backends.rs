//! What the build script decides from `src/backend/list.rs` and the target: which backends
//! are compiled, which one is behind the crate-level lookups and the `const fn` ones,
//! whether `between` and `line` are tables, and what to warn about. Everything it knows of
//! a backend comes from its row in the list; everything it knows of the target, from
//! cargo's `CARGO_CFG_*` variables and `-C target-cpu` (build/cpu.rs, a sibling module in
//! both includers). It uses std alone and decides without side effects, so
//! `tests/build_choice.rs` includes it and checks the decisions for targets the host cannot
//! build.

use super::cpu::{named_cpu, pext_verdict, Cpu, HostCpu};

/// What a backend needs of the target (the `needs` words of the list).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// An address space of 32 bits or more: the attack tables are hundreds of KiB.
    Tables,
    /// `x86_64` with BMI2, PEXT not switched off by `--cfg magic_bitboards_no_pext`.
    Pext,
    /// `x86_64` with AVX2.
    Avx2,
}

/// How build.rs writes a backend's records and tables (the `layout` word of the list).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// `FancyMagic` records (a shift per square) over one shared table.
    Fancy,
    /// `PlainMagic` records, one fixed-size array per square.
    Plain,
    /// `BlackMagic` records (the mask stored inverted), fixed shift, one shared table.
    Black,
    /// `BlackMagic` records, as black's, over a table whose slots hold the OR of their
    /// users' attacks (the lookup masks what it reads with the square's rays).
    BlackOverlay,
    /// `PextSquare` records over magic-gen's PEXT layout.
    Pext,
    /// One `CompactPextSquare` per square, `u16` rook and `u64` bishop tables.
    PextCompact,
    /// No attack table: the module holds what it needs.
    None,
}

impl Layout {
    /// Whether the lookup shifts by a constant 12 (rook) or 9 (bishop) bits.
    pub fn fixed_shift(self) -> bool {
        matches!(self, Layout::Plain | Layout::Black | Layout::BlackOverlay)
    }

    /// Whether it is built from magic-gen's PEXT layout rather than a committed set.
    pub fn uses_pext_layout(self) -> bool {
        matches!(self, Layout::Pext | Layout::PextCompact)
    }
}

/// The kinds of target, each with one crate-level default (the `default for` words).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Pointers narrower than 32 bits: no attack table fits.
    NoTables,
    /// `target_os = "none"`: flash and RAM in KiB, every byte the user's.
    BareMetal,
    /// WebAssembly: the binary is downloaded.
    Wasm,
    /// BMI2, PEXT not switched off, and a CPU that runs PEXT in hardware (build/cpu.rs).
    FastPext,
    /// Everything else: a hosted target with memory to spare.
    Hosted,
}

impl Kind {
    /// Every kind, in the order `Target::kind` tests them.
    pub const ALL: [Kind; 5] = [
        Kind::NoTables,
        Kind::BareMetal,
        Kind::Wasm,
        Kind::FastPext,
        Kind::Hosted,
    ];
}

/// A row of `src/backend/list.rs`.
pub struct BackendSpec {
    /// The module's name, which is also its feature's.
    pub name: &'static str,
    /// What it needs of the target.
    pub needs: &'static [Need],
    /// Whether its lookups are `const fn`.
    pub const_fn: bool,
    /// How its records and tables are written.
    pub layout: Layout,
    /// The magic-gen variants of set its lookup can index (its own set, or the user's).
    pub reads: &'static [&'static str],
    /// The kinds of target whose crate-level default it is.
    pub default_for: &'static [Kind],
}

macro_rules! need {
    (tables) => {
        Need::Tables
    };
    (pext) => {
        Need::Pext
    };
    (avx2) => {
        Need::Avx2
    };
}

macro_rules! layout {
    (fancy) => {
        Layout::Fancy
    };
    (plain) => {
        Layout::Plain
    };
    (black) => {
        Layout::Black
    };
    (black_overlay) => {
        Layout::BlackOverlay
    };
    (pext) => {
        Layout::Pext
    };
    (pext_compact) => {
        Layout::PextCompact
    };
    (none) => {
        Layout::None
    };
}

macro_rules! kind {
    (no_tables) => {
        Kind::NoTables
    };
    (bare_metal) => {
        Kind::BareMetal
    };
    (wasm) => {
        Kind::Wasm
    };
    (fast_pext) => {
        Kind::FastPext
    };
    (hosted) => {
        Kind::Hosted
    };
}

macro_rules! backends {
    ($($module:ident: $name:literal, needs [$($need:ident),*], const fn: $const_fn:literal,
        layout: $layout:ident, reads [$($reads:literal),*], default for [$($kind:ident),*];)*) => {
        /// Every backend, in the list's order.
        pub const BACKENDS: &[BackendSpec] = &[$(BackendSpec {
            name: $name,
            needs: &[$(need!($need)),*],
            const_fn: $const_fn,
            layout: layout!($layout),
            reads: &[$($reads),*],
            default_for: &[$(kind!($kind)),*],
        }),*];
    };
}

include!("../src/backend/list.rs");

/// Returns the backend named `name`, if the list has one.
pub fn spec(name: &str) -> Option<&'static BackendSpec> {
    BACKENDS.iter().find(|b| b.name == name)
}

/// Returns the crate-level default for `kind`: the one backend whose `default for` names it.
pub fn default_for(kind: Kind) -> Result<&'static BackendSpec, String> {
    let mut defaults = BACKENDS.iter().filter(|b| b.default_for.contains(&kind));
    match (defaults.next(), defaults.next()) {
        (Some(backend), None) => Ok(backend),
        _ => Err(format!(
            "src/backend/list.rs: the {kind:?} kind of target needs exactly one default backend"
        )),
    }
}

/// What cargo tells the build script about the target (the host only for `native`).
#[derive(Clone, Debug)]
pub struct Target {
    /// `x86_64` with `bmi2` enabled and PEXT not switched off.
    pub pext: bool,
    /// `--cfg magic_bitboards_no_pext`.
    pub no_pext_asked: bool,
    /// `x86_64` with `avx2` enabled.
    pub avx2: bool,
    /// `x86_64` with `avx512f` enabled.
    pub avx512f: bool,
    /// The CPU named by `-C target-cpu`, `native` resolved to the host.
    pub cpu: Cpu,
    pub little_endian: bool,
    pub pointer_width: u32,
    /// `target_os = "none"`.
    pub bare_metal: bool,
    /// `target_arch` is `wasm32` or `wasm64`.
    pub wasm: bool,
    /// `--cfg magic_bitboards_line_tables`: `between` and `line` as tables on bare metal.
    pub line_tables_asked: bool,
    /// `--cfg magic_bitboards_backend="NAME"`: the crate-level backend outright.
    pub backend_asked: Option<String>,
}

impl Target {
    /// Reads the target from `var`, which returns cargo's variable of that name if set, and
    /// `host`, the identity of the host CPU if it is an x86 one (what `native` means there).
    pub fn from_vars(
        var: impl Fn(&str) -> Option<String>,
        host: Option<HostCpu>,
    ) -> Result<Target, String> {
        let get = |name: &str| var(name).unwrap_or_default();
        let features = get("CARGO_CFG_TARGET_FEATURE");
        let has = |feature: &str| features.split(',').any(|f| f == feature);
        let arch = get("CARGO_CFG_TARGET_ARCH");
        let x86_64 = arch == "x86_64";
        // Cargo sets CARGO_CFG_<NAME> for every cfg of the target, `--cfg` in RUSTFLAGS included.
        let no_pext = var("CARGO_CFG_MAGIC_BITBOARDS_NO_PEXT").is_some();
        let little_endian = match get("CARGO_CFG_TARGET_ENDIAN").as_str() {
            "little" => true,
            "big" => false,
            other => return Err(format!("unknown CARGO_CFG_TARGET_ENDIAN '{other}'")),
        };
        let pointer_width = get("CARGO_CFG_TARGET_POINTER_WIDTH")
            .parse()
            .map_err(|_| "CARGO_CFG_TARGET_POINTER_WIDTH is not a number".to_string())?;
        // `native` is the host's CPU, which only an x86 host building for x86 can stand for.
        let host = host.filter(|_| x86_64);
        Ok(Target {
            pext: x86_64 && has("bmi2") && !no_pext,
            no_pext_asked: no_pext,
            avx2: x86_64 && has("avx2"),
            avx512f: x86_64 && has("avx512f"),
            cpu: Cpu::from_name(named_cpu(&get("CARGO_ENCODED_RUSTFLAGS")), host),
            little_endian,
            pointer_width,
            bare_metal: get("CARGO_CFG_TARGET_OS") == "none",
            wasm: arch.starts_with("wasm"),
            line_tables_asked: var("CARGO_CFG_MAGIC_BITBOARDS_LINE_TABLES").is_some(),
            backend_asked: var("CARGO_CFG_MAGIC_BITBOARDS_BACKEND"),
        })
    }

    /// Whether the target offers `need`.
    pub fn has(&self, need: Need) -> bool {
        match need {
            Need::Tables => self.pointer_width >= 32,
            Need::Pext => self.pext,
            Need::Avx2 => self.avx2,
        }
    }

    /// The kind of target, for the crate-level default: the first of [`Kind::ALL`] it is.
    pub fn kind(&self) -> Kind {
        if !self.has(Need::Tables) {
            Kind::NoTables
        } else if self.bare_metal {
            Kind::BareMetal
        } else if self.wasm {
            Kind::Wasm
        } else if self.pext && self.pext_verdict().0 {
            Kind::FastPext
        } else {
            Kind::Hosted
        }
    }

    /// Whether the CPU runs PEXT in hardware, and why (build/cpu.rs).
    pub fn pext_verdict(&self) -> (bool, String) {
        pext_verdict(&self.cpu, self.avx512f)
    }

    /// Why `kind` (this target's) gets its default, in a few words after the backend's name.
    fn why(&self, kind: Kind) -> String {
        match kind {
            Kind::NoTables => format!("no attack table fits a {}-bit target", self.pointer_width),
            Kind::BareMetal => "bare metal (target_os = \"none\"), where flash is counted in \
                                KiB"
            .to_string(),
            Kind::Wasm => "WebAssembly, where black magics are the fastest lookups".to_string(),
            Kind::FastPext => self.pext_verdict().1,
            Kind::Hosted if self.no_pext_asked => {
                "PEXT switched off by --cfg magic_bitboards_no_pext".to_string()
            }
            Kind::Hosted if self.pext => self.pext_verdict().1,
            Kind::Hosted => "no BMI2: the fastest multiply backend".to_string(),
        }
    }

    /// The first need of `backend` the target lacks, if any.
    fn missing(&self, backend: &BackendSpec) -> Option<Need> {
        backend.needs.iter().copied().find(|&n| !self.has(n))
    }

    /// Why the target cannot have `backend`, if it cannot.
    pub fn lacks(&self, backend: &BackendSpec) -> Option<String> {
        Some(match self.missing(backend)? {
            Need::Tables => format!(
                "`{}` needs tables of hundreds of KiB, which a {}-bit target cannot address; \
                 use the table-free `hyperbola` backend",
                backend.name, self.pointer_width
            ),
            Need::Avx2 => format!(
                "`{}` needs an x86_64 target with avx2 (e.g. -C target-cpu=x86-64-v3)",
                backend.name
            ),
            Need::Pext => format!(
                "`{}` needs an x86_64 target with bmi2 (e.g. -C target-cpu=x86-64-v3) and no \
                 --cfg magic_bitboards_no_pext",
                backend.name
            ),
        })
    }
}

/// What the build compiles, and what it tells the user.
#[derive(Debug, PartialEq, Eq)]
pub struct Plan {
    /// The backend behind the crate-level lookups.
    pub default: &'static str,
    /// Why it is the crate-level one, in a few words after its name.
    pub why: String,
    /// The backend behind the crate-level `const fn` lookups.
    pub const_default: &'static str,
    /// Every compiled backend, in the list's order.
    pub compiled: Vec<&'static str>,
    /// Whether `between` and `line` are 64x64 tables rather than computed.
    pub line_tables: bool,
    /// `cargo:warning` lines.
    pub warnings: Vec<String>,
}

/// Decides the build for `target`, with `feature(name)` telling whether a backend's cargo
/// feature is on. An error is a request the target cannot meet.
pub fn plan(target: &Target, feature: impl Fn(&str) -> bool) -> Result<Plan, String> {
    let (default, why) = match &target.backend_asked {
        Some(name) => {
            let Some(backend) = spec(name) else {
                let names: Vec<&str> = BACKENDS.iter().map(|b| b.name).collect();
                return Err(format!(
                    "--cfg magic_bitboards_backend=\"{name}\": expected one of {names:?}"
                ));
            };
            if let Some(why) = target.lacks(backend) {
                return Err(format!("--cfg magic_bitboards_backend=\"{name}\": {why}"));
            }
            (
                backend,
                "asked for by --cfg magic_bitboards_backend".to_string(),
            )
        }
        // By measurement (docs/backends.md): the list says which backend is the default
        // on each kind of target.
        None => {
            // A list that leaves a kind of target without one default is wrong for every
            // target, so it fails every build, not only the builds for that kind.
            for kind in Kind::ALL {
                default_for(kind)?;
            }
            let backend = default_for(target.kind())?;
            if let Some(why) = target.lacks(backend) {
                return Err(format!("src/backend/list.rs: the default {why}"));
            }
            (backend, target.why(target.kind()))
        }
    };
    // The crate-level `const fn` lookups: the crate-level backend if its lookups are
    // `const fn` (PEXT and vector intrinsics are not), else the first `const fn` backend
    // that needs nothing of the target (the table-free one, so nothing is linked for it).
    let const_default = if default.const_fn {
        default
    } else {
        BACKENDS
            .iter()
            .find(|b| b.const_fn && b.needs.is_empty())
            .ok_or("src/backend/list.rs: no const fn backend needs nothing")?
    };
    let mut compiled = Vec::new();
    let mut warnings = Vec::new();
    for backend in BACKENDS {
        if backend.name == default.name || backend.name == const_default.name {
            compiled.push(backend.name);
        } else if feature(backend.name) {
            match (target.missing(backend), target.lacks(backend)) {
                (_, None) => compiled.push(backend.name),
                // PEXT and AVX2 features compile nothing without BMI2 or AVX2, so that one
                // feature list serves every target; but the module is then missing, and
                // the user hears why here rather than from a failed `use`.
                (Some(Need::Pext | Need::Avx2), Some(why)) => warnings.push(format!(
                    "feature `{name}` compiles nothing for this target: {why}, so \
                     `magic_bitboards::{name}` does not exist in this build. Call the \
                     crate-level rook_attacks/bishop_attacks/queen_attacks instead (backend \
                     `{default}` here), or put uses of the module under {gate}",
                    name = backend.name,
                    default = default.name,
                    gate = match target.missing(backend) {
                        Some(Need::Avx2) => "#[cfg(target_feature = \"avx2\")]",
                        _ => "#[cfg(target_feature = \"bmi2\")] (and no magic_bitboards_no_pext)",
                    },
                )),
                // A table on a target that cannot address it is an error.
                (_, Some(why)) => return Err(format!("feature {why}")),
            }
        }
    }
    // `between` and `line` are 32 KiB tables each: where no table fits they are computed,
    // and on bare metal too unless the user has room for them.
    let line_tables = match target.kind() {
        Kind::NoTables if target.line_tables_asked => {
            return Err(format!(
                "--cfg magic_bitboards_line_tables: `between` and `line` are 32 KiB tables \
                 each, which a {}-bit target cannot address",
                target.pointer_width
            ))
        }
        Kind::NoTables => false,
        Kind::BareMetal => target.line_tables_asked,
        _ => true,
    };
    Ok(Plan {
        default: default.name,
        why,
        const_default: const_default.name,
        compiled,
        line_tables,
        warnings,
    })
}
