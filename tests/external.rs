//! Boards and puzzles published by others (the repository's `data/`), read through the binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn data() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    assert!(dir.is_dir(), "these tests read {}", dir.display());
    dir
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_edgematch")).args(args).output().expect("the binary runs")
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn verify_json(board: &Path) -> serde_json::Value {
    let d = data();
    let output = run(&[
        "verify",
        s(&d.join("official/pieces.txt")),
        s(board),
        "--clues",
        s(&d.join("official/clues.txt")),
        "--json",
    ]);
    assert!(matches!(output.status.code(), Some(0 | 1)), "{}", text(&output));
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&output)))
}

/// The published scores, from both the link and the decoded text of each board.
#[test]
fn published_boards_score_as_published() {
    let boards = [
        ("Joshua_Blackwood_470", 470, 1, 256),
        ("JBlackwood_Jef_469_a", 469, 1, 256),
        ("Louis_Verhaard_467", 467, 1, 256),
        ("2009-04-05_MFT", 426, 5, 256),
        ("Joshua_Blackwood_230", 429, 1, 230),
    ];
    for (name, score, clues, placed) in boards {
        for ext in ["url", "txt"] {
            let report = verify_json(&data().join(format!("boards/{name}.{ext}")));
            assert_eq!(report["score"], score, "{name}.{ext}");
            assert_eq!(report["max_score"], 480);
            assert_eq!(report["placed"], placed, "{name}.{ext}");
            let honoured: Vec<&str> = report["clues"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| c["honoured"] == true)
                .map(|c| c["name"].as_str().unwrap())
                .collect();
            assert_eq!(honoured.len(), clues, "{name}.{ext}: {honoured:?}");
            assert!(honoured.contains(&"starter"), "{name}.{ext}");
            // Only mismatches and unhonoured hint clues: every piece once, rim grey.
            for v in report["violations"].as_array().unwrap() {
                assert!(["mismatch", "clue-broken"].contains(&v["kind"].as_str().unwrap()), "{name}.{ext}: {v}");
            }
        }
    }
}

/// bucas link → board → bucas link gives the published re-encoded link exactly.
#[test]
fn bucas_links_round_trip() {
    let d = data();
    for entry in std::fs::read_dir(d.join("boards")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "url") {
            continue;
        }
        let contents = std::fs::read_to_string(&path).unwrap();
        let links: Vec<&str> = contents.lines().filter(|l| l.starts_with("http")).collect();
        let output = run(&["convert", s(&path), "--instance", s(&d.join("official/pieces.txt")), "--to", "bucas"]);
        assert!(output.status.success(), "{}", text(&output));
        assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), links[1], "{}", path.display());
    }
}

/// Every listed Brendan solution is a full valid board; converting it to our
/// JSON and back to his format gives the same placements.
#[test]
fn brendan_solutions_are_full_boards() {
    let dir = data().join("brendan");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let pieces = entry.unwrap().path();
        let Some(stem) = pieces.file_stem().and_then(|n| n.to_str()).and_then(|n| n.strip_prefix("pieces_")) else {
            continue;
        };
        let solution = dir.join(format!("solutions/solutions_{stem}.txt"));
        let output = run(&["verify", s(&pieces), s(&solution)]);
        assert_eq!(output.status.code(), Some(0), "{stem}: {}", text(&output));
        assert!(text(&output).contains("verdict: solution"), "{stem}");
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} puzzles");
}

#[test]
fn clue_puzzles_read_with_their_sizes() {
    let d = data();
    for (file, w, h) in [("clue1_6x6", 6, 6), ("clue2_6x12", 12, 6), ("clue3_6x6", 6, 6), ("clue4_6x12", 12, 6)] {
        let path = d.join(format!("clue-puzzles/{file}.txt"));
        let out = std::env::temp_dir().join(format!("edgematch-{file}-{}.json", std::process::id()));
        let output = run(&[
            "convert",
            s(&path),
            "--width",
            &w.to_string(),
            "--height",
            &h.to_string(),
            "--to",
            "json",
            "-o",
            s(&out),
        ]);
        assert!(output.status.success(), "{file}: {}", text(&output));
        let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
        assert_eq!(json["pieces"].as_array().unwrap().len(), w * h);
        // Read as bottom-left-top-right (from the header): the corners show grey on N and W once turned.
        assert_eq!(json["width"], w);
        std::fs::remove_file(&out).unwrap();
    }
}

/// Bad community input: a message naming the cell or line, exit 2 (1 for a
/// readable board that breaks the rules), never a panic.
#[test]
fn bad_community_input_is_named() {
    let d = data();
    let pieces = d.join("official/pieces.txt");
    let clues = d.join("official/clues.txt");
    let url = std::fs::read_to_string(d.join("boards/Louis_Verhaard_467.url")).unwrap();
    let link = url.lines().filter(|l| l.starts_with("http")).nth(1).unwrap().to_owned();
    let dir = std::env::temp_dir().join(format!("edgematch-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let edges_at = link.find("board_edges=").unwrap() + "board_edges=".len();
    let pieces_at = link.find("&board_pieces=").unwrap();
    let mut second_piece = link.clone();
    // Cell A2 claims piece 001, which A1 holds already (and shows other colours).
    second_piece.replace_range(pieces_at + 17..pieces_at + 20, &link[pieces_at + 14..pieces_at + 17]);
    let no_pieces = link[..pieces_at].to_owned();
    let mut unknown = no_pieces.clone();
    unknown.replace_range(edges_at + 4..edges_at + 8, "wwww");
    let cases: Vec<(&str, String, i32, &str)> = vec![
        (
            "truncated",
            link.replacen("board_edges=", "board_edges=a", 1).replace("&board_pieces", "x&board_pieces"),
            2,
            "letters",
        ),
        ("short", no_pieces[..no_pieces.len() - 4].to_owned(), 2, "1020 letters"),
        (
            "letter",
            {
                let mut l = no_pieces.clone();
                l.replace_range(edges_at + 9..edges_at + 10, "z");
                l
            },
            2,
            "cell A3",
        ),
        ("size", no_pieces.replace("board_w=16", "board_w=15"), 2, "board_edges"),
        ("twice", second_piece, 2, "A2"),
        ("unknown", unknown, 2, "A2"),
    ];
    for (name, contents, code, needle) in cases {
        let board = dir.join(format!("{name}.url"));
        std::fs::write(&board, &contents).unwrap();
        let output = run(&["verify", s(&pieces), s(&board), "--clues", s(&clues)]);
        let all = text(&output);
        assert_eq!(output.status.code(), Some(code), "{name}: {all}");
        assert!(all.contains(needle), "{name}: {all} should say {needle}");
        assert!(!all.contains("panicked"), "{name}: {all}");
    }
    // The official list read as N E S W: its clues no longer show their listed colours.
    let output = run(&[
        "verify",
        s(&pieces),
        s(&d.join("boards/Louis_Verhaard_467.txt")),
        "--columns",
        "nesw",
        "--clues",
        s(&clues),
    ]);
    let all = text(&output);
    assert_eq!(output.status.code(), Some(2), "{all}");
    assert!(all.contains("clues.txt: line") && all.contains("column order"), "{all}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The picture of the 470 board marks its ten mismatched joins.
#[test]
fn rendering_marks_the_mismatches() {
    let d = data();
    let out = std::env::temp_dir().join(format!("edgematch-470-{}.svg", std::process::id()));
    let output = run(&[
        "render",
        s(&d.join("official/pieces.txt")),
        s(&d.join("boards/Joshua_Blackwood_470.url")),
        "--clues",
        s(&d.join("official/clues.txt")),
        "-o",
        s(&out),
    ]);
    assert!(output.status.success(), "{}", text(&output));
    let svg = std::fs::read_to_string(&out).unwrap();
    assert_eq!(svg.matches("<title>mismatch</title>").count(), 10);
    assert_eq!(svg.matches("<polygon").count(), 4 * 256);
    std::fs::remove_file(&out).unwrap();
}

/// The flux system of the official set has the published ranks.
#[test]
fn official_flux_ranks() {
    use edgematch::flux;
    use edgematch::formats::load;
    let d = data();
    let options = load::InstanceOptions { clues: Some(&d.join("official/clues.txt")), ..Default::default() };
    let loaded = load::instance(&d.join("official/pieces.txt"), &options).unwrap();
    let ranks = flux::ranks(&loaded.instance);
    assert_eq!((ranks.colours, ranks.pieces), (22, 256));
    assert_eq!(ranks.complex, 22);
    assert_eq!(ranks.stacked_real, 40);
    assert_eq!(ranks.real_linear_system, 44);
    assert_eq!((ranks.mod2, ranks.mod2_augmented), (21, 21));
    assert!(ranks.census_shadow.iter().all(|&b| b == 0));
}

/// `edgematch flux` writes the same bytes twice, with the published figures.
#[test]
fn flux_document_is_deterministic() {
    let d = data();
    let dir = std::env::temp_dir().join(format!("edgematch-flux-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("flux.json");
    let (pieces, clues) = (d.join("official/pieces.txt"), d.join("official/clues.txt"));
    let args = ["flux", s(&pieces), "--clues", s(&clues), "--out", s(&out), "--boards", "6", "--orders", "10"];
    assert!(run(&args).status.success());
    let first = std::fs::read(&out).unwrap();
    assert!(run(&args).status.success());
    assert_eq!(std::fs::read(&out).unwrap(), first);
    let doc: serde_json::Value = serde_json::from_slice(&first).unwrap();
    assert_eq!(doc["ranks"]["complex_rank_of_F"], 22);
    assert_eq!(doc["ranks"]["stacked_real_rank"], 40);
    assert_eq!(doc["instance"]["corners"], 4);
    assert_eq!(doc["instance"]["edges"], 56);
    assert_eq!(doc["instance"]["frame_colours"], 5);
    assert_eq!(doc["fourth_member"]["holds_on_planted_8x8_boards_seeds_1_to_20"], true);
    for row in doc["certificate_sweep"]["fills"].as_array().unwrap() {
        assert_eq!(row["clean_rejected"], 0, "{row}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// verify reports the flux law: it holds on a planted solution; the record boards break it.
#[test]
fn verify_reports_the_flux_law() {
    let d = data();
    let report = verify_json(&d.join("boards/Joshua_Blackwood_470.url"));
    assert_eq!(report["flux"]["law_holds"], false);
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    let (instance, solution) =
        (models.join("planted-12x12-f5i17-s1.json"), models.join("planted-12x12-f5i17-s1.solution.json"));
    let output = run(&["verify", s(&instance), s(&solution), "--json"]);
    let planted: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(planted["flux"]["law_holds"], true);
}

/// A bucas link typed on the command line (not in a file) works for `verify` and `render`.
#[test]
fn a_link_on_the_command_line_is_a_board() {
    let d = data();
    let url = std::fs::read_to_string(d.join("boards/Joshua_Blackwood_470.url")).unwrap();
    let link = url.lines().find(|l| !l.starts_with('#') && l.contains("board_edges=")).unwrap().trim().to_owned();
    let pieces = d.join("official/pieces.txt");
    let output = run(&["verify", s(&pieces), &link, "--json"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["score"], 470);
    let dir = std::env::temp_dir().join(format!("edgematch-link-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("board.svg");
    let output = run(&["render", s(&pieces), &link, "-o", s(&svg)]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    std::fs::remove_dir_all(&dir).unwrap();
}
