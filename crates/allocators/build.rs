//! Sets `cfg(lore_asan)` when the crate is built with `-Zsanitizer=address`, so the `sanitize`
//! feature can tell AddressSanitizer which bytes inside a region are freed.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(lore_asan)");
    println!("cargo::rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    if flags.split('\x1f').any(|f| f == "-Zsanitizer=address") {
        println!("cargo::rustc-cfg=lore_asan");
    }
}
