//! What the crate says about itself matches what it compiled: `PEXT_AVAILABLE`, the PEXT
//! modules, and `CONST_BACKEND`.

use magic_bitboards::registry::BACKENDS;
use magic_bitboards::{BACKEND, CONST_BACKEND, PEXT_AVAILABLE};

mod common;

fn compiled(name: &str) -> bool {
    BACKENDS.iter().any(|b| b.name == name)
}

#[test]
fn pext_available_says_whether_the_target_has_the_pext_backends() {
    assert_eq!(PEXT_AVAILABLE, common::PEXT_TARGET);
    for (name, feature) in [
        ("pext", cfg!(feature = "pext")),
        ("pext_compact", cfg!(feature = "pext_compact")),
    ] {
        let wanted = feature || BACKEND == name;
        assert_eq!(compiled(name), PEXT_AVAILABLE && wanted, "{name}");
    }
    if !PEXT_AVAILABLE {
        assert!(!BACKEND.starts_with("pext"), "{BACKEND}");
    }
}

#[test]
fn const_backend_is_the_crate_level_one_unless_that_cannot_be_const() {
    let runtime_only = ["pext", "pext_compact", "hyperbola_avx2"];
    let expected = if runtime_only.contains(&BACKEND) {
        "hyperbola"
    } else {
        BACKEND
    };
    assert_eq!(CONST_BACKEND, expected);
    assert!(compiled(CONST_BACKEND));
}
