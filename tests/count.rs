//! `edgematch count` through the binary: the field's published counts of Brendan Owen's boards, a limit, saved solutions and bad input.

mod common;

use std::path::Path;

use common::{run, scratch, text};

fn brendan(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/brendan").join(name).to_str().unwrap().to_owned()
}

/// The count's JSON record of `args`, after checking it exited 0.
fn counted(args: &[&str]) -> serde_json::Value {
    let output = run(args);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&output)))
}

/// The solutions and plain row-scan nodes of Brendan's 4×4, 5×5 and 6×6
/// boards, as an independent scratch program counts them and (for the 6×6:
/// 260 solutions, 65 up to turning the board, 69,284,103 nodes) as the field
/// publishes them, counted over the plain tree (`--plain`) by the bit-set
/// scan (the default on these boards) and by the lists. Catches a candidate lost or let through (the solutions),
/// any pruning beyond the plain scan's or a node counted twice (the nodes),
/// and a symmetry class counted wrongly (the unique count), in either engine.
#[test]
fn brendans_boards_count_as_the_field_counts_them() {
    for (file, solutions, unique, nodes) in [
        ("pieces_04x04.txt", 36, 9, 4_470),
        ("pieces_05x05.txt", 16, 4, 113_211),
        ("pieces_06x06.txt", 260, 65, 69_284_103),
    ] {
        for (flags, engine) in [(&[][..], "bits-64"), (&["--lists"][..], "lists")] {
            let c = counted(&[&["count", &brendan(file), "--plain", "--json"][..], flags].concat());
            let got = (c["solutions"].as_u64(), c["unique"].as_u64(), c["nodes"].as_u64(), c["ended"].as_str());
            assert_eq!(got, (Some(solutions), Some(unique), Some(nodes), Some("complete")), "{file}: {c}");
            assert_eq!(c["engine"], engine, "{file}: {c}");
        }
    }
}

/// The tree the count picks (a corner fixed on the squares, the board turned
/// where that is smaller) counts what the plain tree counts, on every
/// Brendan board up to 6×6 and his rectangles up to 8×4: catches a class
/// counted short or twice, a turned board mapped back wrongly, or a variant
/// that loses solutions.
#[test]
fn the_picked_tree_counts_what_the_plain_tree_counts() {
    let mut turned = 0;
    for name in
        ["03x03", "04x03", "04x04", "05x03", "05x04", "05x05", "06x03", "06x04", "06x05", "06x06", "07x04", "08x04"]
    {
        let file = brendan(&format!("pieces_{name}.txt"));
        let plain = counted(&["count", &file, "--plain", "--json"]);
        let picked = counted(&["count", &file, "--json"]);
        for field in ["solutions", "unique", "symmetries", "ended"] {
            assert_eq!(plain[field], picked[field], "{name} {field}: {plain} against {picked}");
        }
        turned += usize::from(picked["tree"].as_str().unwrap().contains("turned"));
    }
    assert!(turned > 0, "no rectangle was counted turned");
}

/// One thread and two count the same solutions and nodes: catches a subtree
/// counted by two threads, or by none.
#[test]
fn one_thread_and_two_count_alike() {
    let file = brendan("pieces_05x05.txt");
    let one = counted(&["count", &file, "--threads", "1", "--json"]);
    let two = counted(&["count", &file, "--threads", "2", "--json"]);
    for field in ["solutions", "unique", "nodes", "subtrees", "ended"] {
        assert_eq!(one[field], two[field], "{field}: {one} against {two}");
    }
}

/// A count cut short by its time limit, then resumed from its progress file,
/// ends with the unbroken count's figures: catches a subtree counted twice
/// (or lost) across the break, or a cut short subtree saved as done.
#[test]
fn a_resumed_count_equals_an_unbroken_one() {
    let dir = scratch("count-resume");
    let progress = dir.join("progress.json");
    let (file, p) = (brendan("pieces_06x06.txt"), progress.to_str().unwrap());
    let cut = run(&["count", &file, "--plain", "--threads", "1", "--time-limit", "0.05", "--resume", p, "--json"]);
    assert_eq!(cut.status.code(), Some(1), "the 6x6 is not counted in 0.05 s: {}", text(&cut));
    let first: serde_json::Value = serde_json::from_slice(&cut.stdout).unwrap();
    assert_eq!(first["ended"], "time_limit");
    assert!(progress.exists(), "a count cut short keeps its progress");
    let resumed = counted(&["count", &file, "--plain", "--threads", "2", "--resume", p, "--json"]);
    let got = (resumed["solutions"].as_u64(), resumed["unique"].as_u64(), resumed["nodes"].as_u64());
    assert_eq!(got, (Some(260), Some(65), Some(69_284_103)), "{resumed}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every Brendan board up to 5×5 counted by the row scan and by CaDiCaL with
/// blocking clauses: the two agree. Catches a solution one of them loses or
/// counts twice on boards whose counts nobody published.
#[test]
fn the_scan_and_cadical_agree_on_brendans_small_boards() {
    for file in [
        "pieces_03x03.txt",
        "pieces_04x03.txt",
        "pieces_04x04.txt",
        "pieces_05x03.txt",
        "pieces_05x04.txt",
        "pieces_05x05.txt",
    ] {
        let c = counted(&["count", &brendan(file), "--json"]);
        let path = std::path::PathBuf::from(brendan(file));
        let instance = edgematch::formats::load::instance(&path, &Default::default()).unwrap().instance;
        let sat = edgematch::count::witness::count_by_sat(&instance, 100_000).unwrap();
        assert_eq!(c["solutions"].as_u64(), Some(sat), "{file}: {c}");
    }
}

/// Brendan's 5×5 split into cubes, plainly and with the count's corner
/// piece fixed (`--fix-corner`: a quarter of the tree), each cube counted,
/// and the counts summed by `collect --counts`: the one-machine figures (16
/// solutions, 4 up to turning the board) both ways, and no total while a cube
/// is missing. Catches a cube counted up to its own (clued) symmetry instead
/// of the board's, a fixed-corner cube counted once instead of with its
/// turns, and a sum reported over a missing cube.
#[test]
fn a_cube_folders_summed_count_equals_the_one_machine_count() {
    for fix_corner in [&[][..], &["--fix-corner"][..]] {
        let dir = scratch(&format!("count-cubes{}", fix_corner.len()));
        let cubes = dir.join("cubes");
        let file = brendan("pieces_05x05.txt");
        let out = run(&[&["split", &file, "--cubes", "6", "--out", cubes.to_str().unwrap()], fix_corner].concat());
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
        let mut files: Vec<_> = std::fs::read_dir(&cubes)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.file_name().unwrap().to_str().unwrap().starts_with("cube-"))
            .collect();
        files.sort();
        assert!(files.len() >= 6, "{files:?}");
        let marked = std::fs::read_to_string(&files[0]).unwrap().contains("\"one_per_class\": true");
        assert_eq!(marked, !fix_corner.is_empty());
        for (k, cube) in files.iter().enumerate() {
            let collected = run(&["collect", cubes.to_str().unwrap(), "--counts"]);
            assert_eq!(collected.status.code(), Some(1), "no total before cube {}: {}", k + 1, text(&collected));
            let counted = run(&["count", cube.to_str().unwrap(), "--threads", "1"]);
            assert_eq!(counted.status.code(), Some(0), "{}", text(&counted));
        }
        let collected = run(&["collect", cubes.to_str().unwrap(), "--counts"]);
        assert_eq!(collected.status.code(), Some(0), "{}", text(&collected));
        let all = text(&collected);
        assert!(all.contains("solutions: 16 (exact)") && all.contains("unique: 4\n"), "{fix_corner:?}: {all}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// `--limit 3` stops the plain tree at three solutions and the default one
/// (a corner fixed) at its first class of four, and `--save` writes each,
/// every one a solution `verify` accepts: catches a limit run past, or a
/// saved board that is not the one counted (a turn of a class mapped wrongly).
#[test]
fn a_limited_count_saves_verified_solutions() {
    let dir = scratch("count-save");
    let saved = dir.join("solutions");
    let (file, to) = (brendan("pieces_05x05.txt"), saved.to_str().unwrap());
    let c = counted(&["count", &file, "--plain", "--limit", "3", "--save", to, "--json"]);
    assert_eq!((c["solutions"].as_u64(), c["ended"].as_str()), (Some(3), Some("limit")), "{c}");
    let boards: Vec<_> = std::fs::read_dir(&saved).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(boards.len(), 3, "{boards:?}");
    // With a corner fixed, each board found stands for its class: the four turns are saved.
    std::fs::remove_dir_all(&saved).unwrap();
    let c = counted(&["count", &file, "--limit", "3", "--save", to, "--json"]);
    assert_eq!((c["solutions"].as_u64(), c["unique"].as_u64()), (Some(4), Some(1)), "{c}");
    let boards: Vec<_> = std::fs::read_dir(&saved).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(boards.len(), 4, "{boards:?}");
    for board in boards {
        let verify = run(&["verify", &brendan("pieces_05x05.txt"), board.to_str().unwrap()]);
        assert_eq!(verify.status.code(), Some(0), "{}", text(&verify));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A counted board corrupted before the checker sees it (the test build's
/// fault injection) is the checker's rejection: exit 3, nothing counted on.
/// Catches a count that counts boards the checker never saw.
#[test]
#[cfg_attr(not(feature = "fault-injection"), ignore = "needs --features fault-injection")]
fn a_corrupted_count_board_exits_3() {
    let output = common::bin()
        .args(["count", &brendan("pieces_04x04.txt")])
        .env(edgematch::fault::VAR, "corrupt-board:count")
        .output()
        .unwrap();
    #[cfg(feature = "fault-injection")]
    assert_eq!(output.status.code(), Some(3), "{}", text(&output));
    #[cfg(feature = "fault-injection")]
    assert!(text(&output).contains("failed the checker"), "{}", text(&output));
    #[cfg(not(feature = "fault-injection"))]
    panic!("build the tests with --features fault-injection: {}", text(&output));
}

/// A missing file and a malformed one get `solve`'s errors, naming the file, with exit 2; `split
/// --fix-corner` of a rectangle is refused naming the flag, with no folder written.
#[test]
fn bad_input_gets_a_clear_error() {
    let dir = scratch("count-bad");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "4 4\n0 0 1\n").unwrap();
    for path in [dir.join("missing.txt"), bad] {
        let output = run(&["count", path.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(2), "{}", text(&output));
        assert!(text(&output).contains(path.file_name().unwrap().to_str().unwrap()), "{}", text(&output));
    }
    let out = dir.join("cubes");
    let rectangle =
        run(&["split", &brendan("pieces_06x05.txt"), "--cubes", "4", "--fix-corner", "--out", out.to_str().unwrap()]);
    assert_eq!(rectangle.status.code(), Some(2), "{}", text(&rectangle));
    assert!(text(&rectangle).contains("--fix-corner") && !out.exists(), "{}", text(&rectangle));
    std::fs::remove_dir_all(&dir).unwrap();
}
