//! Encodings, exports and oracles, checked against outside solvers: CaDiCaL's
//! binary (Debian's `cadical`), HiGHS' LP reader (the bundled library) and
//! Chromium running the HTML explorer. `.ci/run` installs `cadical` and
//! `chromium`; the tests that need one are ignored unless run with `--include-ignored`.

use std::path::{Path, PathBuf};
use std::process::Command;

use edgematch::check::check;
use edgematch::encodings::{lp, xcc};
use edgematch::formats::instance_json;
use edgematch::mip::bridge::solve_model_file;
use edgematch::puzzle::Board;
use edgematch::puzzle::placements;

mod common;
use common::{generate, run, scratch, text};

fn data(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data").join(path).to_str().unwrap().to_owned()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// An outside tool's path. The tests that need one are `#[ignore]`d, so a
/// plain `cargo test` reports them as ignored; run with `--include-ignored`
/// (`.ci/run` does, after installing the tools), a missing tool fails the test.
fn tool(name: &str) -> &'static str {
    let found = Command::new("sh").args(["-c", &format!("command -v {name}")]).output().unwrap();
    assert!(found.status.success(), "{name} is not installed (.ci/run installs it)");
    String::leak(String::from_utf8(found.stdout).unwrap().trim().to_owned())
}

/// The planted instance with one interior piece (not a clue) mirrored: its E and
/// W colours swapped, so the colour counts stay as they were. On this board
/// that leaves no solution (the test below proves it three ways).
fn unsolvable_edit(dir: &Path) -> PathBuf {
    let source = generate(dir, 6, 3, 6, 3);
    let mut file = instance_json::read(&source).unwrap();
    let clue_pieces: Vec<usize> = file.instance.clues.iter().map(|c| c.placement.piece).collect();
    let edited = &mut file.instance;
    let k = (0..edited.pieces.len())
        .find(|&k| {
            let p = edited.pieces[k].0;
            !clue_pieces.contains(&k) && p.iter().all(|&c| c != 0) && p[1] != p[3]
        })
        .unwrap();
    edited.pieces[k].0.swap(1, 3);
    let out = dir.join("edited.json");
    file.name = Some("edited".to_owned());
    std::fs::write(&out, instance_json::to_string(&file)).unwrap();
    out
}

#[test]
fn sizes_print_the_published_figures_at_16_and_17() {
    let output = run(&["encode", "sizes", "--size", "16", "--colours", "17"]);
    assert!(output.status.success(), "{}", text(&output));
    let out = text(&output);
    for figure in ["262,144", "4.7e8", "8,160", "65,280"] {
        assert!(out.contains(figure), "{figure} missing in\n{out}");
    }
}

#[test]
fn exact_sizes_of_the_official_set_prune_to_about_1e5_placements() {
    let pieces = data("official/pieces.txt");
    let output = run(&["encode", "sizes", &pieces, "--columns", "bltr", "--size", "16", "--json"]);
    assert!(output.status.success(), "{}", text(&output));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let exact = &json["instance"]["exact"];
    let vars = exact["placement_variables"].as_u64().unwrap();
    assert!((100_000..200_000).contains(&vars), "{vars}");
    assert_eq!(exact["all_placements"], 262_144);
    assert!(exact["direct_conflict_clauses"].as_u64().unwrap() > 100_000_000);
}

#[test]
#[ignore = "needs chromium"]
fn the_html_explorer_computes_what_the_json_says() {
    let chromium = tool("chromium");
    let dir = scratch("explorer");
    let html = dir.join("explorer.html");
    let output = run(&["encode", "sizes", "--size", "4-16", "--colours", "17", "--json", "--html", path(&html)]);
    assert!(output.status.success(), "{}", text(&output));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let dom = Command::new(chromium)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom"])
        .arg(format!("file://{}", html.display()))
        .output()
        .unwrap();
    assert!(dom.status.success(), "{}", text(&dom));
    let dom = String::from_utf8_lossy(&dom.stdout);
    // Each row of the page's table: `<td data-key="K" data-value="V">`.
    let rows: Vec<&str> = dom.split("<tr data-n=").skip(1).collect();
    assert_eq!(rows.len(), 13, "rows for n = 4..=16");
    for (row, formula) in rows.iter().zip(json["formulas"].as_array().unwrap()) {
        for key in [
            "n",
            "inner_joins",
            "placement_variables",
            "direct_conflict_clauses",
            "seam_variables",
            "seam_exclusion_clauses",
            "seam_implication_clauses",
        ] {
            let marker = format!("data-key=\"{key}\" data-value=\"");
            let start = row.find(&marker).unwrap_or_else(|| panic!("{key} in {row}")) + marker.len();
            let page: f64 = row[start..].split('"').next().unwrap().parse().unwrap();
            let rust = formula[key].as_f64().unwrap();
            assert!((page - rust).abs() <= 1e-9 * rust.abs().max(1.0), "{key}: page {page}, json {rust}");
        }
    }
}

#[test]
#[ignore = "needs cadical"]
fn cadical_solves_an_exported_6x6_and_the_decoded_board_passes_the_checker() {
    let cadical = tool("cadical");
    let dir = scratch("cadical-sat");
    let instance = generate(&dir, 6, 3, 5, 7);
    for encoding in ["seam", "direct"] {
        let cnf = dir.join(format!("{encoding}.cnf"));
        let output = run(&["encode", "dimacs", path(&instance), "--encoding", encoding, "-o", path(&cnf)]);
        assert!(output.status.success(), "{}", text(&output));
        let answer = Command::new(cadical).arg("-q").arg(&cnf).output().unwrap();
        assert_eq!(answer.status.code(), Some(10), "cadical: {}", text(&answer));
        let model = dir.join(format!("{encoding}.out"));
        std::fs::write(&model, &answer.stdout).unwrap();
        let board = dir.join(format!("{encoding}.board.json"));
        let output = run(&["decode", "dimacs", path(&instance), path(&model), "-o", path(&board)]);
        assert!(output.status.success(), "{}", text(&output));
        assert!(text(&output).contains("verdict: solution"), "{}", text(&output));
        let output = run(&["verify", path(&instance), path(&board)]);
        assert!(output.status.success(), "{}", text(&output));
    }
}

#[test]
#[ignore = "needs cadical"]
fn on_an_unsolvable_edit_cadical_our_sat_backend_and_cpsat_all_say_unsat() {
    let cadical = tool("cadical");
    let dir = scratch("cadical-unsat");
    let instance = unsolvable_edit(&dir);
    let cnf = dir.join("edited.cnf");
    let output = run(&["encode", "dimacs", path(&instance), "-o", path(&cnf)]);
    assert!(output.status.success(), "{}", text(&output));
    let answer = Command::new(cadical).arg("-q").arg(&cnf).output().unwrap();
    assert_eq!(answer.status.code(), Some(20), "cadical: {}", text(&answer));
    let model = dir.join("edited.out");
    std::fs::write(&model, &answer.stdout).unwrap();
    let output = run(&["decode", "dimacs", path(&instance), path(&model)]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(text(&output).contains("unsatisfiable"), "{}", text(&output));
    for solver in ["sat", "cpsat"] {
        let output = run(&["solve", path(&instance), "--solver", solver, "--time-limit", "60"]);
        assert_eq!(output.status.code(), Some(1), "{solver}: {}", text(&output));
        assert!(text(&output).contains("status: infeasible"), "{solver}: {}", text(&output));
    }
}

#[test]
fn a_3x3_exports_9_plus_9_primary_and_12_secondary_xcc_items() {
    let dir = scratch("xcc");
    let instance = generate(&dir, 3, 2, 2, 1);
    let xcc = dir.join("3x3.xcc");
    let output = run(&["encode", "xcc", path(&instance), "-o", path(&xcc)]);
    assert!(output.status.success(), "{}", text(&output));
    let file = std::fs::read_to_string(&xcc).unwrap();
    let items = file.lines().find(|l| !l.starts_with('|')).unwrap();
    let (primary, secondary) = items.split_once(" | ").unwrap();
    let primary: Vec<&str> = primary.split_whitespace().collect();
    assert_eq!(primary.iter().filter(|i| i.starts_with('r')).count(), 9);
    assert_eq!(primary.iter().filter(|i| i.starts_with('p')).count(), 9);
    assert_eq!(secondary.split_whitespace().count(), 12);
    assert!(text(&output).contains("18 primary items, 12 secondary items"));
}

/// The Python with the `xcover` package (`.ci/run`'s venv, named by `EDGEMATCH_TEST_PYTHON`).
fn xcover_python() -> PathBuf {
    let python = std::env::var_os("EDGEMATCH_TEST_PYTHON")
        .map(PathBuf::from)
        .expect("EDGEMATCH_TEST_PYTHON must name a Python with the xcover package (.ci/run sets it up)");
    let works = Command::new(&python).args(["-c", "import xcover"]).output().is_ok_and(|o| o.status.success());
    assert!(works, "{} cannot import xcover", python.display());
    python
}

#[test]
#[ignore = "needs the Python venv with xcover (EDGEMATCH_TEST_PYTHON)"]
fn an_independent_xcc_solver_solves_the_export_and_refutes_the_edit() {
    let python = xcover_python();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/xcc_solve.py");
    let dir = scratch("xcover");
    let planted = generate(&dir, 6, 3, 5, 7);
    for (source, solvable) in [(planted, true), (unsolvable_edit(&dir), false)] {
        let file = dir.join("problem.xcc");
        let output = run(&["encode", "xcc", path(&source), "-o", path(&file)]);
        assert!(output.status.success(), "{}", text(&output));
        let answer = Command::new(&python).arg(&script).arg(&file).output().unwrap();
        assert!(answer.status.success(), "{}", text(&answer));
        let chosen = String::from_utf8(answer.stdout).unwrap();
        assert_eq!(chosen.trim() != "UNSAT", solvable, "{chosen}");
        if !solvable {
            continue;
        }
        // Each chosen option is a placement: the same order as the placement table.
        let instance = instance_json::read(&source).unwrap().instance;
        let options: Vec<String> = xcc::xcc(&instance).options.iter().map(|o| o.join(" ")).collect();
        let (placements, _) = placements::table(&instance);
        let mut board = Board::empty(instance.grid);
        for line in chosen.lines() {
            let k = options.iter().position(|o| o == line).unwrap_or_else(|| panic!("{line} is not an option"));
            let (cell, placement) = placements[k];
            assert!(board.cells[cell].replace(placement).is_none(), "cell {cell} covered twice");
        }
        assert!(check(&instance, &board).is_solution(), "{}", check(&instance, &board));
    }
}

#[test]
fn highs_reads_the_lp_export_and_its_solution_passes_the_checker() {
    let dir = scratch("lp");
    let instance_path = generate(&dir, 5, 2, 4, 3);
    let instance = instance_json::read(&instance_path).unwrap().instance;
    let file = dir.join("5x5.lp");
    let output = run(&["encode", "lp", path(&instance_path), "-o", path(&file)]);
    assert!(output.status.success(), "{}", text(&output));
    let result = solve_model_file(&file, 60.0).unwrap();
    assert!(result.has_solution, "HiGHS model status {}", result.model_status);
    let values = result.names.iter().map(String::as_str).zip(result.values.iter().copied());
    let board = lp::board_from_values(&instance, values).unwrap();
    assert!(check(&instance, &board).is_solution());

    // The edit with no solution: HiGHS proves the LP infeasible too (model status 8).
    let edited = unsolvable_edit(&dir);
    let file = dir.join("edited.lp");
    let output = run(&["encode", "lp", path(&edited), "-o", path(&file)]);
    assert!(output.status.success(), "{}", text(&output));
    assert_eq!(solve_model_file(&file, 60.0).unwrap().model_status, 8);
}

#[test]
fn region_oracle_refutes_the_470_board_around_its_mismatches_and_completes_a_repairable_board() {
    let pieces = data("official/pieces.txt");
    let board = data("boards/Joshua_Blackwood_470.txt");
    for radius in ["1", "2"] {
        let output = run(&["oracle", "region", &pieces, &board, "--columns", "bltr", "--mismatches", radius]);
        assert!(output.status.success(), "{}", text(&output));
        assert!(text(&output).contains("verdict: infeasible"), "{}", text(&output));
    }
    // A planted board with two interior pieces swapped: freeing them finds the planted solution again.
    let dir = scratch("oracle");
    let instance = generate(&dir, 7, 3, 5, 4);
    let solution = dir.join("planted-7x7-f3i5-s4.solution.json");
    let mut board: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&solution).unwrap()).unwrap();
    let cells = board["cells"].as_array_mut().unwrap();
    let a = cells[2][2].clone();
    cells[2][2] = cells[4][3].clone();
    cells[4][3] = a;
    let swapped = dir.join("swapped.json");
    std::fs::write(&swapped, board.to_string()).unwrap();
    let out = dir.join("completed.json");
    let output = run(&["oracle", "region", path(&instance), path(&swapped), "--mismatches", "0", "-o", path(&out)]);
    assert!(output.status.success(), "{}", text(&output));
    assert!(text(&output).contains("verdict: completed"), "{}", text(&output));
    let output = run(&["verify", path(&instance), path(&out)]);
    assert!(output.status.success(), "{}", text(&output));
}

#[test]
fn border_oracle_on_the_470_border_with_the_official_clues() {
    let output = run(&[
        "oracle",
        "border",
        &data("official/pieces.txt"),
        &data("boards/Joshua_Blackwood_470.txt"),
        "--columns",
        "bltr",
        "--clues",
        &data("official/clues.txt"),
        "--json",
    ]);
    assert!(output.status.success(), "{}", text(&output));
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(answer["status"], "infeasible");
    assert_eq!(answer["free_cells"], 196);
}

#[test]
fn bad_answers_and_regions_are_refused_with_the_file_line_or_flag_named() {
    let dir = scratch("bad-input");
    let instance = generate(&dir, 4, 2, 3, 1);
    let model = dir.join("answer.out");
    std::fs::write(&model, "s SATISFIABLE\nv 1 2 x 0\n").unwrap();
    let output = run(&["decode", "dimacs", path(&instance), path(&model)]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(text(&output).contains("answer.out: line 2"), "{}", text(&output));
    std::fs::write(&model, "s SATISFIABLE\nv 1 2 0\n").unwrap();
    let output = run(&["decode", "dimacs", path(&instance), path(&model)]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(text(&output).contains("both place a piece"), "{}", text(&output));

    let solution = dir.join("planted-4x4-f2i3-s1.solution.json");
    let output = run(&["oracle", "region", path(&instance), path(&solution), "--free", "9,9"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(text(&output).contains("--free 9,9: outside the 4x4 board"), "{}", text(&output));
    let output = run(&["oracle", "region", path(&instance), path(&solution)]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    let output = run(&["encode", "sizes", "--size", "65"]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
}
