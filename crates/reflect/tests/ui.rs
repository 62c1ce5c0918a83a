//! The derive refuses unsupported shapes with clear, spanned errors (trybuild UI tests).

#[test]
fn unsupported_shapes_fail_to_compile() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*_fail.rs");
    t.pass("tests/ui/*_pass.rs");
}
