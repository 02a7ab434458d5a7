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

use backends::{default_for, plan, Kind, Plan, Target};

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

/// The build's plan for `target` with rustc `flags` and the backend `features` on.
fn decide(target: &str, flags: &[&str], features: &[&str]) -> Result<Plan, String> {
    let vars = cargo_cfg(target, flags);
    let target = Target::from_vars(|name| vars.get(name).cloned())?;
    plan(&target, |name| features.contains(&name))
}

const THUMB: &str = "thumbv6m-none-eabi";
const X86: &str = "x86_64-unknown-linux-gnu";
const V3: &[&str] = &["-C", "target-cpu=x86-64-v3"];

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
    let plan = decide(X86, V3, &[]).unwrap();
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
    let plan = decide(X86, V3, &["pext", "hyperbola_avx2"]).unwrap();
    assert!(plan.warnings.is_empty(), "{:?}", plan.warnings);
    assert_eq!(
        plan.compiled,
        ["pext", "pext_compact", "hyperbola", "hyperbola_avx2"]
    );
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
