//! Build script: the extension finds `libortools` in the `ortools` package
//! installed beside it (`site-packages/ortools/.libs`), so the wheel ships no
//! second copy of OR-Tools.
//!
//! The main crate's build script links `libortools.so.9` by file name; its own
//! rpath (to the unpacked wheel under `vendor/`) applies to its own binaries
//! only, so the extension states its runpath here, relative to where it is
//! installed (`site-packages/edgematch/`).

fn main() {
    println!("cargo:rustc-link-arg-cdylib=-Wl,-rpath,$ORIGIN/../ortools/.libs");
    println!("cargo:rerun-if-changed=build.rs");
}
