//! docs/architecture.md's module order, checked against the `use` lines of every crate and app
//! (see the crate docs of lore-checks for the rules).

use std::path::Path;

#[test]
fn module_order_in_docs_matches_the_code() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace root");
    let problems = lore_checks::check_workspace(root).unwrap_or_else(|e| panic!("{e}"));
    assert!(problems.is_empty(), "docs/architecture.md and the code disagree:\n{}", problems.join("\n"));
}
