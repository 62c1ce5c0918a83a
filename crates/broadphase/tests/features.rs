//! A guard for the scripts that build this crate with features on: `LORE_BROADPHASE_FEATURES`
//! (comma-separated, e.g. `parallel`) names the features the script means to test, and these
//! tests fail when one of them is not compiled in. Without it, a feature dropped from a
//! script's command line (a `-p` selection does not turn on a feature that another member
//! asks for) would make its tests compile to nothing and pass. Unset, they check nothing.
//!
//! Two copies of the check: `scripts/test.sh`'s long stage runs only ignored tests
//! (`-- --ignored`), its AddressSanitizer stage only the others.

/// The features this test binary was compiled with, by name.
fn compiled() -> Vec<&'static str> {
    let mut on = Vec::new();
    if cfg!(feature = "std") {
        on.push("std");
    }
    if cfg!(feature = "libm") {
        on.push("libm");
    }
    if cfg!(feature = "serde") {
        on.push("serde");
    }
    if cfg!(feature = "parallel") {
        on.push("parallel");
    }
    on
}

fn check_expected_features() {
    let Ok(expected) = std::env::var("LORE_BROADPHASE_FEATURES") else { return };
    let on = compiled();
    for f in expected.split(',').map(str::trim).filter(|f| !f.is_empty()) {
        assert!(
            ["std", "libm", "serde", "parallel"].contains(&f),
            "LORE_BROADPHASE_FEATURES names {f:?}, which lore-broadphase does not have"
        );
        assert!(on.contains(&f), "LORE_BROADPHASE_FEATURES expects feature {f:?}, but this build has only {on:?}");
    }
}

#[test]
fn the_features_the_script_expects_are_compiled_in() {
    check_expected_features();
}

#[test]
#[ignore = "the same check for the runs of ignored tests only (scripts/test.sh's long stage)"]
fn the_features_the_script_expects_are_compiled_in_long() {
    check_expected_features();
}
