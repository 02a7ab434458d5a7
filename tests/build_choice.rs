//! The build script's decisions (build/backends.rs) for targets this host does not build
//! for: the crate-level default, the `const fn` one, the compiled backends, whether
//! `between` and `line` are tables, and the warnings. Each target's cfgs come from `rustc
//! --print cfg`, turned into the `CARGO_CFG_*` variables cargo gives a build script, so the
//! decisions are checked against what a real cross build would see.

#![cfg(not(miri))]

use std::collections::HashMap;
use std::process::Command;

#[allow(dead_code)] // The build script uses more of it than these tests.
#[path = "../build/backends.rs"]
mod backends;
#[allow(dead_code)] // host_cpu is only read on x86_64 Linux.
#[path = "../build/cpu.rs"]
mod cpu;

use backends::{default_for, plan, Kind, Plan, Target};
use cpu::{named_cpu, HostCpu, MICROCODED_PEXT};

/// The `CARGO_CFG_*` variables of `target` built with the extra rustc `flags`, as cargo
/// sets them: one per cfg name, values joined by commas.
fn cargo_cfg(target: &str, flags: &[&str]) -> HashMap<String, String> {
    let out = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string()))
        .args(["--print", "cfg", "--target", target])
        .args(flags)
        .output()
        .expect("run rustc --print cfg");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut vars: HashMap<String, String> = HashMap::new();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let (name, value) = match line.split_once('=') {
            Some((n, v)) => (n, v.trim_matches('"')),
            None => (line, ""),
        };
        let var = format!("CARGO_CFG_{}", name.to_uppercase());
        let entry = vars.entry(var).or_default();
        if !value.is_empty() {
            if !entry.is_empty() {
                entry.push(',');
            }
            entry.push_str(value);
        }
    }
    vars
}

/// The build's plan for `target` with rustc `flags` and the backend `features` on, built
/// on a host of identity `host` (what `-C target-cpu=native` stands for).
fn decide_on(
    host: Option<HostCpu>,
    target: &str,
    flags: &[&str],
    features: &[&str],
) -> Result<Plan, String> {
    let mut vars = cargo_cfg(target, flags);
    vars.insert("CARGO_ENCODED_RUSTFLAGS".to_string(), flags.join("\x1f"));
    let target = Target::from_vars(|name| vars.get(name).cloned(), host)?;
    plan(&target, |name| features.contains(&name))
}

/// The build's plan for `target` with rustc `flags` and the backend `features` on, on a
/// host that is not x86.
fn decide(target: &str, flags: &[&str], features: &[&str]) -> Result<Plan, String> {
    decide_on(None, target, flags, features)
}

const THUMB: &str = "thumbv6m-none-eabi";
const X86: &str = "x86_64-unknown-linux-gnu";
const V3: &[&str] = &["-C", "target-cpu=x86-64-v3"];
const V4: &[&str] = &["-C", "target-cpu=x86-64-v4"];

#[test]
fn bare_metal_gets_no_table_unless_asked() {
    for target in [
        THUMB,
        "thumbv7em-none-eabihf",
        "riscv32imc-unknown-none-elf",
    ] {
        let plan = decide(target, &[], &[]).unwrap();
        assert_eq!(plan.default, "hyperbola", "{target}");
        assert_eq!(plan.const_default, "hyperbola", "{target}");
        assert_eq!(plan.compiled, ["hyperbola"], "{target}");
        assert!(!plan.line_tables, "{target}: between and line are computed");
        assert!(plan.warnings.is_empty(), "{target}: {:?}", plan.warnings);
    }
    // x86_64 kernels are bare metal too, BMI2 or not.
    let plan = decide("x86_64-unknown-none", V3, &[]).unwrap();
    assert_eq!((plan.default, plan.line_tables), ("hyperbola", false));

    // Parts with room: the tables back, one switch each.
    let plan = decide(THUMB, &["--cfg", "magic_bitboards_line_tables"], &[]).unwrap();
    assert_eq!((plan.default, plan.line_tables), ("hyperbola", true));
    let plan = decide(THUMB, &["--cfg", "magic_bitboards_backend=\"black\""], &[]).unwrap();
    assert_eq!((plan.default, plan.line_tables), ("black", false));
    assert_eq!(plan.compiled, ["black"]);
    let plan = decide(THUMB, &[], &["black", "fancy"]).unwrap();
    assert_eq!(plan.default, "hyperbola");
    assert_eq!(plan.compiled, ["fancy", "black", "hyperbola"]);
}

#[test]
fn sixteen_bit_targets_compute_everything_and_refuse_tables() {
    let plan = decide("msp430-none-elf", &[], &["hyperbola"]).unwrap();
    assert_eq!((plan.default, plan.line_tables), ("hyperbola", false));
    let err = decide(
        "msp430-none-elf",
        &["--cfg", "magic_bitboards_line_tables"],
        &[],
    );
    assert!(err.unwrap_err().contains("16-bit target cannot address"));
    let err = decide("msp430-none-elf", &[], &["black"]).unwrap_err();
    assert!(err.contains("`black` needs tables"), "{err}");
}

#[test]
fn hosted_targets_keep_their_defaults() {
    let plan = decide(X86, &[], &[]).unwrap();
    assert_eq!((plan.default, plan.const_default), ("black", "black"));
    assert!(plan.line_tables);
    let plan = decide(X86, V4, &[]).unwrap();
    assert_eq!(
        (plan.default, plan.const_default),
        ("pext_compact", "hyperbola")
    );
    assert_eq!(plan.compiled, ["pext_compact", "hyperbola"]);
    let no_pext = [V3, &["--cfg", "magic_bitboards_no_pext"]].concat();
    assert_eq!(decide(X86, &no_pext, &[]).unwrap().default, "black");
    assert_eq!(
        decide("aarch64-unknown-linux-gnu", &[], &[])
            .unwrap()
            .default,
        "black"
    );
}

#[test]
fn wasm_keeps_the_measured_default() {
    // docs/backends.md, "WebAssembly": black is 3-8x faster than hyperbola in node.
    for target in ["wasm32-unknown-unknown", "wasm32-wasip1"] {
        let plan = decide(target, &[], &[]).unwrap();
        assert_eq!(
            (plan.default, plan.line_tables),
            ("black", true),
            "{target}"
        );
        let small = decide(
            target,
            &["--cfg", "magic_bitboards_backend=\"hyperbola\""],
            &[],
        );
        assert_eq!(small.unwrap().compiled, ["hyperbola"], "{target}");
    }
}

#[test]
fn a_feature_that_compiles_nothing_says_why_and_what_instead() {
    let plan = decide(X86, &[], &["pext", "hyperbola_avx2", "fancy"]).unwrap();
    assert_eq!(plan.compiled, ["fancy", "black"]);
    let [pext, avx2] = &plan.warnings[..] else {
        panic!("one warning per empty feature: {:?}", plan.warnings);
    };
    for (warning, name, need) in [(pext, "pext", "bmi2"), (avx2, "hyperbola_avx2", "avx2")] {
        assert!(
            warning.starts_with(&format!(
                "feature `{name}` compiles nothing for this target"
            )),
            "{warning}"
        );
        assert!(warning.contains(&format!("with {need}")), "{warning}");
        assert!(warning.contains("-C target-cpu=x86-64-v3"), "{warning}");
        assert!(warning.contains("backend `black` here"), "{warning}");
        assert!(
            warning.contains(&format!("target_feature = \"{need}\"")),
            "{warning}"
        );
    }
    // With BMI2 and AVX2 the same features compile their modules, silently.
    // (x86-64-v3 names no CPU, so the crate-level backend is black.)
    let plan = decide(X86, V3, &["pext", "hyperbola_avx2"]).unwrap();
    assert!(plan.warnings.is_empty(), "{:?}", plan.warnings);
    assert_eq!(plan.compiled, ["black", "pext", "hyperbola_avx2"]);
}

#[test]
fn every_kind_of_target_has_one_default_that_it_can_run() {
    for kind in Kind::ALL {
        let backend = default_for(kind).unwrap();
        println!("{kind:?}: {}", backend.name);
        // Where no table fits, the default needs nothing.
        if kind == Kind::NoTables {
            assert!(backend.needs.is_empty());
        }
    }
}

/// A host of `vendor` and `family`, as CPUID gives them.
fn host(vendor: &str, family: u32) -> Option<HostCpu> {
    Some(HostCpu {
        vendor: vendor.to_string(),
        family,
    })
}

/// A row of docs/backends.md's table of CPU kinds: the target, the rustc flags, the host
/// `native` stands for, the crate-level backend and words of its reason.
type CpuRow = (
    &'static str,
    &'static [&'static str],
    Option<HostCpu>,
    &'static str,
    &'static str,
);

/// docs/backends.md's table of CPU kinds, row by row.
#[test]
fn each_kind_of_cpu_gets_the_backend_of_the_docs_table() {
    let zen2 = host("AuthenticAMD", 0x17);
    let cases: &[CpuRow] = &[
        // Intel from Haswell: PEXT in 3 cycles.
        (
            X86,
            &["-Ctarget-cpu=haswell"],
            None,
            "pext_compact",
            "haswell runs PEXT in hardware",
        ),
        (
            X86,
            &["-C", "target-cpu=skylake"],
            None,
            "pext_compact",
            "in hardware",
        ),
        (
            X86,
            &["--codegen", "target-cpu=alderlake"],
            None,
            "pext_compact",
            "in hardware",
        ),
        (
            X86,
            &["-C", "target-cpu=native"],
            host("GenuineIntel", 6),
            "pext_compact",
            "GenuineIntel family 0x6",
        ),
        // AMD before Zen 3: PEXT in microcode.
        (
            X86,
            &["-C", "target-cpu=znver1"],
            None,
            "black",
            "znver1 runs PEXT in microcode",
        ),
        (
            X86,
            &["-C", "target-cpu=znver2"],
            None,
            "black",
            "znver2 runs PEXT in microcode",
        ),
        (
            X86,
            &["-C", "target-cpu=bdver4"],
            None,
            "black",
            "bdver4 runs PEXT in microcode",
        ),
        (
            X86,
            &["-C", "target-cpu=native"],
            zen2.clone(),
            "black",
            "AuthenticAMD family 0x17 (before Zen 3)",
        ),
        (
            X86,
            &["-C", "target-cpu=native"],
            host("HygonGenuine", 0x18),
            "black",
            "microcode",
        ),
        // Even with BMI2 and AVX2 switched on by hand.
        (
            X86,
            &[
                "-C",
                "target-cpu=znver2",
                "-C",
                "target-feature=+bmi2,+avx2",
            ],
            None,
            "black",
            "microcode",
        ),
        // AMD from Zen 3.
        (
            X86,
            &["-C", "target-cpu=znver3"],
            None,
            "pext_compact",
            "znver3 runs PEXT in hardware",
        ),
        (
            X86,
            &["-C", "target-cpu=znver4"],
            None,
            "pext_compact",
            "in hardware",
        ),
        (
            X86,
            &["-C", "target-cpu=native"],
            host("AuthenticAMD", 0x19),
            "pext_compact",
            "in hardware",
        ),
        (
            X86,
            &["-C", "target-cpu=native"],
            host("AuthenticAMD", 0x1a),
            "pext_compact",
            "in hardware",
        ),
        // Generic levels: BMI2 alone may be a Zen 1 or 2; AVX-512 never is.
        (X86, &[], None, "black", "no BMI2"),
        (
            X86,
            &["-C", "target-cpu=x86-64-v2"],
            None,
            "black",
            "no BMI2",
        ),
        (X86, V3, None, "black", "x86-64-v3 names no CPU"),
        (
            X86,
            &["-C", "target-feature=+bmi2"],
            None,
            "black",
            "a build with BMI2 names no CPU",
        ),
        (X86, V4, None, "pext_compact", "every CPU with AVX-512"),
        // The last -C target-cpu wins, as in rustc.
        (
            X86,
            &["-C", "target-cpu=haswell", "-C", "target-cpu=znver2"],
            None,
            "black",
            "znver2",
        ),
        // Switches.
        (
            X86,
            &[
                "-C",
                "target-cpu=haswell",
                "--cfg",
                "magic_bitboards_no_pext",
            ],
            None,
            "black",
            "switched off",
        ),
        (
            X86,
            &[
                "-C",
                "target-cpu=znver2",
                "--cfg",
                "magic_bitboards_backend=\"pext_compact\"",
            ],
            None,
            "pext_compact",
            "asked for",
        ),
        // ARM, wasm, bare metal: `native` on an x86 host says nothing of them.
        ("aarch64-unknown-linux-gnu", &[], None, "black", "no BMI2"),
        (
            "aarch64-unknown-linux-gnu",
            &["-C", "target-cpu=native"],
            zen2,
            "black",
            "no BMI2",
        ),
        ("wasm32-unknown-unknown", &[], None, "black", "WebAssembly"),
        (THUMB, &[], None, "hyperbola", "bare metal"),
        ("msp430-none-elf", &[], None, "hyperbola", "16-bit"),
    ];
    for (target, flags, host, backend, why) in cases {
        let plan = decide_on(host.clone(), target, flags, &[]).unwrap();
        assert_eq!(plan.default, *backend, "{target} {flags:?} {host:?}");
        assert!(plan.why.contains(why), "{target} {flags:?}: {}", plan.why);
    }
}

/// The slow-PEXT list names real rustc CPUs, and every AMD CPU rustc knows from before Zen 3.
#[test]
fn every_amd_cpu_before_zen_3_is_listed() {
    let out = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string()))
        .args(["--print", "target-cpus", "--target", X86])
        .output()
        .expect("run rustc --print target-cpus");
    let listing = String::from_utf8(out.stdout).unwrap();
    let names: Vec<&str> = listing
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    for slow in MICROCODED_PEXT {
        assert!(names.contains(slow), "{slow} is not a CPU rustc knows");
    }
    let amd_before_zen3 = |name: &str| {
        [
            "k6",
            "k8",
            "athlon",
            "opteron",
            "amdfam",
            "barcelona",
            "geode",
            "btver",
            "bdver",
        ]
        .iter()
        .any(|p| name.starts_with(p))
            || matches!(name, "znver1" | "znver2")
    };
    for name in names.iter().filter(|n| amd_before_zen3(n)) {
        assert!(MICROCODED_PEXT.contains(name), "{name} is missing");
    }
}

#[test]
fn the_named_cpu_is_read_in_every_spelling() {
    for (flags, cpu) in [
        ("", None),
        ("-Ctarget-cpu=znver2", Some("znver2")),
        ("-C\x1ftarget-cpu=native", Some("native")),
        ("--codegen\x1ftarget-cpu=haswell", Some("haswell")),
        ("--codegen=target-cpu=haswell", Some("haswell")),
        (
            "-C\x1fopt-level=3\x1f-Ctarget-cpu=a\x1f--cfg\x1fx\x1f-C\x1ftarget-cpu=b",
            Some("b"),
        ),
        ("-C\x1ftarget-feature=+bmi2", None),
    ] {
        assert_eq!(named_cpu(flags).as_deref(), cpu, "{flags:?}");
    }
}

/// What `native` stands for is read from the host as Linux reports it.
#[test]
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
fn the_host_identity_is_the_one_linux_reports() {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap();
    let field = |name: &str| {
        cpuinfo
            .lines()
            .find_map(|l| l.strip_prefix(name)?.trim_start().strip_prefix(':'))
            .map(|v| v.trim().to_string())
            .unwrap()
    };
    let host = cpu::host_cpu().unwrap();
    assert_eq!(host.vendor, field("vendor_id"));
    assert_eq!(host.family.to_string(), field("cpu family"));
}
