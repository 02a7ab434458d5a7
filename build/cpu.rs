//! Which CPU the build is for, as far as the build can tell, and whether that CPU runs
//! PEXT in hardware. BMI2 says only that PEXT exists: AMD before Zen 3 (Zen 1 and 2, and
//! Excavator) runs it in microcode, tens to hundreds of cycles depending on the mask, where
//! Intel from Haswell and AMD from Zen 3 take 3 cycles. The build script reads the named CPU
//! from `-C target-cpu` and, for `native`, the host's identity; the decision itself is the
//! pure [`pext_verdict`], which `tests/build_choice.rs` checks as a table.

/// A host CPU's identity, from CPUID leaves 0 and 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostCpu {
    /// The vendor string, e.g. `AuthenticAMD`, `GenuineIntel`, `HygonGenuine`.
    pub vendor: String,
    /// The family, extended family included (Zen 1 and 2: 0x17, Zen 3 and 4: 0x19).
    pub family: u32,
}

/// The CPU the code is compiled for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cpu {
    /// No CPU named (`-C target-cpu` absent), or a generic level such as `x86-64-v3`: any
    /// CPU with the target's features may run the code. Holds the level's name, if any.
    Generic(Option<String>),
    /// A CPU model named by `-C target-cpu`, e.g. `znver2` or `haswell`.
    Named(String),
    /// `-C target-cpu=native` built on this host: the host's identity.
    Host(HostCpu),
}

/// The names rustc gives to AMD CPUs before Zen 3 (`rustc --print target-cpus`). Those
/// with BMI2 (`bdver4`, `znver1`, `znver2`) run PEXT in microcode; the others lack BMI2,
/// and are listed so that one adding `+bmi2` by hand is not taken for a fast one.
pub const MICROCODED_PEXT: &[&str] = &[
    "amdfam10",
    "athlon",
    "athlon-4",
    "athlon-fx",
    "athlon-mp",
    "athlon-tbird",
    "athlon-xp",
    "athlon64",
    "athlon64-sse3",
    "barcelona",
    "bdver1",
    "bdver2",
    "bdver3",
    "bdver4",
    "btver1",
    "btver2",
    "geode",
    "k6",
    "k6-2",
    "k6-3",
    "k8",
    "k8-sse3",
    "opteron",
    "opteron-sse3",
    "znver1",
    "znver2",
];

/// The first family whose AMD CPUs run PEXT in hardware (Zen 3). Hygon's Dhyana (family
/// 0x18) is a Zen 1.
const FIRST_FAST_AMD_FAMILY: u32 = 0x19;

/// Returns the CPU named by `-C target-cpu` in `encoded_rustflags` (cargo's
/// `CARGO_ENCODED_RUSTFLAGS`, arguments separated by 0x1f), the last one winning as in
/// rustc, in any of rustc's spellings: `-C target-cpu=X`, `-Ctarget-cpu=X`, `--codegen
/// target-cpu=X`, `--codegen=target-cpu=X`.
pub fn named_cpu(encoded_rustflags: &str) -> Option<String> {
    let mut args = encoded_rustflags.split('\x1f').filter(|a| !a.is_empty());
    let mut cpu = None;
    while let Some(arg) = args.next() {
        let option = match arg {
            "-C" | "--codegen" => args.next(),
            _ => arg
                .strip_prefix("--codegen=")
                .or_else(|| arg.strip_prefix("-C")),
        };
        if let Some(name) = option.and_then(|o| o.strip_prefix("target-cpu=")) {
            cpu = Some(name.to_string());
        }
    }
    cpu
}

/// Returns the identity of the CPU this code runs on (in build.rs, the host), which is what
/// `-C target-cpu=native` compiles for; `None` on a host that is not x86_64.
#[allow(unused_unsafe)] // See the SAFETY comment.
pub fn host_cpu() -> Option<HostCpu> {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::__cpuid;
        // SAFETY: CPUID exists on every x86_64 CPU, and leaves 0 and 1 on every one of them.
        // (Safe to call from Rust 1.87; `unsafe` for the runtime crate's minimum, 1.83.)
        let (vendor, signature) = unsafe { (__cpuid(0), __cpuid(1).eax) };
        let vendor: Vec<u8> = [vendor.ebx, vendor.edx, vendor.ecx]
            .iter()
            .flat_map(|r| r.to_le_bytes())
            .collect();
        // The family is the base family, plus the extended family where the base is 0xf.
        let base = (signature >> 8) & 0xf;
        let family = if base == 0xf {
            base + ((signature >> 20) & 0xff)
        } else {
            base
        };
        Some(HostCpu {
            vendor: String::from_utf8_lossy(&vendor).into_owned(),
            family,
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    None
}

impl Cpu {
    /// Sorts the CPU `named` by `-C target-cpu` (if any), with `host` the identity of the
    /// host when it can stand for `native` (an x86 host building for x86).
    pub fn from_name(named: Option<String>, host: Option<HostCpu>) -> Cpu {
        match named {
            None => Cpu::Generic(None),
            Some(name) if name == "native" => match host {
                Some(host) => Cpu::Host(host),
                None => Cpu::Generic(Some(name)),
            },
            Some(name) if name.starts_with("x86-64") || name == "generic" => {
                Cpu::Generic(Some(name))
            }
            Some(name) => Cpu::Named(name),
        }
    }
}

/// Whether PEXT is fast on every CPU the build may run on, and why, in a few words that
/// follow the backend's name (`black: znver2 runs PEXT in microcode`). Only asked of
/// targets with BMI2; `avx512f` is whether the target has AVX-512, which every CPU with
/// slow PEXT lacks.
pub fn pext_verdict(cpu: &Cpu, avx512f: bool) -> (bool, String) {
    match cpu {
        Cpu::Named(name) if MICROCODED_PEXT.contains(&name.as_str()) => {
            (false, format!("{name} runs PEXT in microcode"))
        }
        Cpu::Named(name) => (true, format!("{name} runs PEXT in hardware")),
        Cpu::Host(host) => {
            let amd = matches!(host.vendor.as_str(), "AuthenticAMD" | "HygonGenuine");
            let who = format!("native is {} family {:#x}", host.vendor, host.family);
            if amd && host.family < FIRST_FAST_AMD_FAMILY {
                (
                    false,
                    format!("{who} (before Zen 3), which runs PEXT in microcode"),
                )
            } else {
                (true, format!("{who}, which runs PEXT in hardware"))
            }
        }
        Cpu::Generic(_) if avx512f => (
            true,
            "every CPU with AVX-512 runs PEXT in hardware".to_string(),
        ),
        Cpu::Generic(level) => (
            false,
            format!(
                "{} names no CPU, and BMI2 alone may be AMD Zen 1 or 2, which run PEXT in \
                 microcode",
                level.as_deref().unwrap_or("a build with BMI2")
            ),
        ),
    }
}
