//! Build script: compiles the CP-SAT protobuf schema, obtains OR-Tools' shared
//! library, compiles the C++ bridge and links it with an rpath.
//!
//! Where OR-Tools comes from, in order:
//! 1. `EDGEMATCH_ORTOOLS_LIB_DIR`: a folder that already holds `libortools.so.9`
//!    (for example `ortools/.libs` of an unpacked wheel or a pip install);
//! 2. `vendor/ortools-9.15.6755/ortools/.libs`, when a previous build unpacked it;
//! 3. otherwise the PyPI wheel `ortools==9.15.6755`, fetched with
//!    `python3 -m pip download --no-deps` (the interpreter can be set with
//!    `EDGEMATCH_PYTHON`), checked against the SHA-256 pinned for its file name
//!    in `vendor/ortools.sha256` (a wheel whose digest differs, or is not
//!    pinned, stops the build), of which only `ortools/.libs/` and
//!    `ortools.libs/` are unpacked into `vendor/ortools-9.15.6755/`. The layout
//!    is kept because the libraries find each other through their `$ORIGIN`
//!    runpath.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "build/pins.rs"]
mod pins;

const ORTOOLS_VERSION: &str = "9.15.6755";
const LIB_FILE: &str = "libortools.so.9";
const HIGHS_FILE: &str = "libhighs.so.1";
const LIB_DIR_VAR: &str = "EDGEMATCH_ORTOOLS_LIB_DIR";
const PYTHON_VAR: &str = "EDGEMATCH_PYTHON";
/// The pinned digests of downloaded files, relative to the manifest folder.
const PIN_FILE: &str = "vendor/ortools.sha256";

fn main() {
    if let Err(message) = run() {
        // A build script reports failure by exiting non-zero; say why in one place.
        eprintln!("edgematch build: {message}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").map_err(|e| e.to_string())?);
    compile_protos(&manifest_dir)?;
    let lib_dir = ortools_lib_dir(&manifest_dir)?;
    compile_bridge();
    emit_commit();

    println!("cargo:rustc-link-search=native={}", lib_dir.display());
    println!("cargo:rustc-link-lib=dylib:+verbatim={LIB_FILE}");
    // HiGHS, for the MIP arm, from the same wheel folder.
    println!("cargo:rustc-link-lib=dylib:+verbatim={HIGHS_FILE}");
    // The rpath lets every binary, test and example run without LD_LIBRARY_PATH.
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib_dir.display());
    println!("cargo:rustc-env=EDGEMATCH_ORTOOLS_VERSION={ORTOOLS_VERSION}");
    println!("cargo:rustc-env=EDGEMATCH_ORTOOLS_LIB_DIR={}", lib_dir.display());
    Ok(())
}

/// Bakes the commit and the dirty flag into the binary (`VERGEN_GIT_SHA`,
/// `VERGEN_GIT_DIRTY`), so a copied binary still knows what it was built from.
/// Outside a git checkout vergen emits placeholders with a warning, and the
/// records say `unknown`.
fn emit_commit() {
    // vergen asks to run again when HEAD moves; an edit to the sources must
    // too, or a binary built from an edited tree would carry the previous
    // build's verdict (the commit, marked clean). Costs about a second.
    for path in ["src", "Cargo.toml", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={path}");
    }
    let git = vergen_gitcl::Gitcl::builder().sha(true).dirty(true).build();
    let emitted = vergen_gitcl::Emitter::default().add_instructions(&git).and_then(|e| e.emit());
    if let Err(e) = emitted {
        println!("cargo:warning=cannot read the git commit: {e}");
    }
}

fn compile_protos(manifest_dir: &Path) -> Result<(), String> {
    let protos = ["cp_model.proto", "sat_parameters.proto"];
    for proto in protos {
        println!("cargo:rerun-if-changed=proto/{proto}");
    }
    let descriptors = protox::compile(protos, [manifest_dir.join("proto")])
        .map_err(|e| format!("cannot compile the protobuf schema: {e}"))?;
    prost_build::Config::new()
        .compile_fds(descriptors)
        .map_err(|e| format!("cannot generate Rust code from the protobuf schema: {e}"))
}

fn compile_bridge() {
    let inputs = [
        "src/cpsat/bridge.rs",
        "src/cpsat/bridge.cc",
        "include/bridge.h",
        "src/mip/bridge.rs",
        "src/mip/bridge.cc",
        "include/highs_bridge.h",
    ];
    for input in inputs {
        println!("cargo:rerun-if-changed={input}");
    }
    cxx_build::bridges(["src/cpsat/bridge.rs", "src/mip/bridge.rs"])
        .file("src/cpsat/bridge.cc")
        .file("src/mip/bridge.cc")
        .include(".")
        .std("c++17")
        .flag_if_supported("-Wall")
        .compile("edgematch_bridge");
}

/// Returns the folder that holds `libortools.so.9`, fetching the wheel if needed.
fn ortools_lib_dir(manifest_dir: &Path) -> Result<PathBuf, String> {
    println!("cargo:rerun-if-env-changed={LIB_DIR_VAR}");
    println!("cargo:rerun-if-env-changed={PYTHON_VAR}");
    if let Some(dir) = env::var_os(LIB_DIR_VAR).filter(|v| !v.is_empty()) {
        let dir = PathBuf::from(dir);
        if !dir.join(LIB_FILE).is_file() {
            return Err(format!("{LIB_DIR_VAR}={} does not contain {LIB_FILE}", dir.display()));
        }
        return absolute(&dir);
    }

    let root = manifest_dir.join("vendor").join(format!("ortools-{ORTOOLS_VERSION}"));
    let lib_dir = root.join("ortools").join(".libs");
    println!("cargo:rerun-if-changed={}", lib_dir.join(LIB_FILE).display());
    if lib_dir.join(LIB_FILE).is_file() {
        return Ok(lib_dir);
    }
    println!("cargo:rerun-if-changed={PIN_FILE}");
    let pins = pins::read(&manifest_dir.join(PIN_FILE))?;
    fetch_wheel(&root, &pins)?;
    Ok(lib_dir)
}

fn absolute(dir: &Path) -> Result<PathBuf, String> {
    fs::canonicalize(dir).map_err(|e| format!("cannot resolve {}: {e}", dir.display()))
}

/// Downloads the wheel and unpacks its two library folders into `root`,
/// through a temporary folder renamed at the end so that an interrupted build
/// never leaves a half-unpacked library behind.
fn fetch_wheel(root: &Path, pins: &[pins::Pin]) -> Result<(), String> {
    let vendor = root.parent().expect("root is under vendor/");
    let staging = vendor.join(format!("ortools-{ORTOOLS_VERSION}.tmp{}", std::process::id()));
    let _ = fs::remove_dir_all(&staging);
    fs::create_dir_all(&staging).map_err(|e| format!("cannot create {}: {e}", staging.display()))?;
    let python = env::var(PYTHON_VAR).unwrap_or_else(|_| "python3".to_owned());
    let requirement = format!("ortools=={ORTOOLS_VERSION}");
    println!("cargo:warning=fetching {requirement} with {python} -m pip download (first build only)");

    // First the manylinux wheel for CPython 3.11, whose digest is pinned (only
    // its shared libraries are used, so the Python version does not matter);
    // if pip cannot get it (another platform), the wheel for this interpreter,
    // which must then be pinned too.
    let attempts: [&[&str]; 2] = [
        &[
            "--only-binary=:all:",
            "--python-version",
            "3.11",
            "--implementation",
            "cp",
            "--platform",
            "manylinux_2_28_x86_64",
        ],
        &[],
    ];
    let mut last_error = String::new();
    let mut wheel = None;
    for extra in attempts {
        let status = Command::new(&python)
            .args(["-m", "pip", "download", "--no-deps", "--quiet", "--disable-pip-version-check"])
            .args(extra)
            .arg("--dest")
            .arg(&staging)
            .arg(&requirement)
            .status();
        match status {
            Ok(s) if s.success() => {
                wheel = find_wheel(&staging)?;
                if wheel.is_some() {
                    break;
                }
                last_error = "pip reported success but left no wheel".to_owned();
            }
            Ok(s) => last_error = format!("pip download exited with {s}"),
            Err(e) => last_error = format!("cannot run {python}: {e}"),
        }
    }
    let Some(wheel) = wheel else {
        let _ = fs::remove_dir_all(&staging);
        return Err(format!(
            "could not obtain {requirement} ({last_error}); set {LIB_DIR_VAR} to a folder \
             holding {LIB_FILE} (for example ortools/.libs of a pip-installed ortools)"
        ));
    };

    if let Err(message) = pins::check(&wheel, pins, PIN_FILE) {
        let _ = fs::remove_dir_all(&staging);
        return Err(message);
    }

    let unpack = "import sys, zipfile\n\
                  z = zipfile.ZipFile(sys.argv[1])\n\
                  names = [n for n in z.namelist() if n.startswith(('ortools/.libs/', 'ortools.libs/'))]\n\
                  z.extractall(sys.argv[2], names)\n\
                  print(len(names))\n";
    let out = staging.join("unpacked");
    let status = Command::new(&python)
        .args(["-c", unpack])
        .arg(&wheel)
        .arg(&out)
        .status()
        .map_err(|e| format!("cannot run {python} to unpack the wheel: {e}"))?;
    if !status.success() || !out.join("ortools/.libs").join(LIB_FILE).is_file() {
        let _ = fs::remove_dir_all(&staging);
        return Err(format!("unpacking {} did not yield ortools/.libs/{LIB_FILE}", wheel.display()));
    }
    let _ = fs::remove_dir_all(root);
    fs::rename(&out, root).map_err(|e| format!("cannot move the unpacked wheel into place: {e}"))?;
    let _ = fs::remove_dir_all(&staging);
    Ok(())
}

fn find_wheel(dir: &Path) -> Result<Option<PathBuf>, String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    Ok(entries.filter_map(Result::ok).map(|e| e.path()).find(|p| p.extension().is_some_and(|x| x == "whl")))
}
