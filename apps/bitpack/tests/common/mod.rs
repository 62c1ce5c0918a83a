//! What the CLI tests share: a fresh scratch folder and a run of the `bitpack` binary.
#![allow(dead_code)] // each test file uses part of it

use std::path::PathBuf;
use std::process::Command;

/// A fresh, empty folder `lore-bitpack-<name>-<pid>` in the system's temporary folder.
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("lore-bitpack-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `bitpack` with `args`: (success, stdout, stderr).
pub fn bitpack(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_bitpack")).args(args).output().unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}
