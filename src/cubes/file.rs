//! Cube files on disk: the split's manifest (`cubes.json`) and one file per cube
//! (`cube-0001.json`, …), each carrying the original instance it was cut from.
//!
//! ```json
//! {
//!   "format": "edgematch-cube/1",
//!   "cube": 3,
//!   "cubes": 20,
//!   "order": "corner-square-nw",
//!   "source": "models/planted-13x13-f5i17-s1.json",
//!   "instance_sha256": "…",
//!   "fixed": [{ "row": 0, "col": 0, "piece": 12, "rotation": 1 }],
//!   "instance": { "format": "edgematch-instance/1", … }
//! }
//! ```
//! - `cube` (1-based) of `cubes`; `fixed`: the cube's extra fixed cells, as
//!   clues are written (`piece` 1-based); `instance`: the original instance,
//!   embedded; `instance_sha256`: the SHA-256 of that instance written as
//!   `edgematch-instance/1` (`convert --to json`), checked when read;
//!   `one_per_class: true` (`split --fix-corner`, absent otherwise): every
//!   cube fixes the same corner piece top-left on a square board without
//!   clues, so its boards are one of each class of four turned boards, and a
//!   count counts each with its turns.
//! - The manifest (`edgematch-cubes/1`) has the same fields except `cube`,
//!   with `fixed` replaced by `cube_cells`: every cube's fixed cells, in cube
//!   order, `dead_ends` (prefixes that had no consistent extension) and, for a
//!   balanced split (`split --balance`), `estimates`: each cube's estimated
//!   tree in nodes, in cube order.
//! - `tasks.txt`, for a balanced split: one line per array task, the numbers of
//!   the cubes that task solves in turn (heaviest first), e.g. `17 3 250`.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::error::Error;
use crate::formats::instance_json::{self, InstanceFile};
use crate::formats::{expect_format, field_error, parse_json, read_text};
use crate::output::write_atomic;
use crate::puzzle::{Clue, Grid, Instance, Placement, Rotation};

/// Format tag of a cube file.
pub const CUBE_FORMAT: &str = "edgematch-cube/1";

/// Format tag of the manifest.
pub const MANIFEST_FORMAT: &str = "edgematch-cubes/1";

/// The manifest's file name inside a cube folder.
pub const MANIFEST: &str = "cubes.json";

/// A split as written to a folder: the original instance and every cube's cells.
#[derive(Clone, Debug, PartialEq)]
pub struct CubeSet {
    /// Where the instance was read from (informational).
    pub source: String,
    /// The original instance, with its name.
    pub instance: InstanceFile,
    /// The fill order's name.
    pub order: String,
    /// Each cube's extra fixed cells.
    pub cubes: Vec<Vec<Clue>>,
    /// Prefixes dropped at split time because they had no consistent extension.
    pub dead_ends: usize,
    /// Each cube's estimated tree (nodes) when the split was balanced, else empty.
    pub estimates: Vec<f64>,
    /// Each array task's cubes (0-based) when the split was balanced, else empty.
    pub tasks: Vec<Vec<usize>>,
    /// Every cube fixes the count's corner piece top-left: its boards stand for their classes of turned boards.
    pub one_per_class: bool,
}

/// One cube, as read from its file.
#[derive(Clone, Debug, PartialEq)]
pub struct Cube {
    /// 1-based index.
    pub index: usize,
    /// How many cubes the split has.
    pub count: usize,
    /// The original instance, with its name.
    pub instance: InstanceFile,
    /// SHA-256 of the original instance (see the module's notes).
    pub instance_sha256: String,
    /// The cube's extra fixed cells.
    pub fixed: Vec<Clue>,
    /// The cube's boards stand for their classes of turned boards (see [`CubeSet::one_per_class`]).
    pub one_per_class: bool,
}

impl Cube {
    /// The instance to solve: the original with the fixed cells added to its clues.
    pub fn sub_instance(&self) -> Instance {
        super::split::with_fixed(&self.instance.instance, &self.fixed)
    }

    /// What names this cube in the files written beside it.
    pub fn id(&self) -> CubeId<'_> {
        CubeId { index: self.index, count: self.count, sha: &self.instance_sha256, fixed: &self.fixed }
    }
}

/// The file `kind` writes beside a cube file: `cube-0001.json` → `cube-0001.KIND.json`.
pub fn beside(cube_file: &Path, kind: &str) -> PathBuf {
    let stem = cube_file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    cube_file.with_file_name(format!("{stem}.{kind}.json"))
}

/// What names one cube of one split in a file beside it: its number
/// (1-based), the split's count of cubes, the original instance's SHA-256
/// and the cube's fixed cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CubeId<'a> {
    /// 1-based cube number.
    pub index: usize,
    /// Cubes of the split.
    pub count: usize,
    /// SHA-256 of the original instance.
    pub sha: &'a str,
    /// The cube's fixed cells.
    pub fixed: &'a [Clue],
}

impl CubeId<'_> {
    /// Refuses the `kind` file at `path` when it names `named` where this cube was expected.
    ///
    /// # Errors
    /// A file of another cube, split or instance, named.
    pub fn expect(&self, path: &Path, kind: &str, named: CubeId<'_>) -> Result<(), Error> {
        if *self == named {
            return Ok(());
        }
        Err(Error::Mismatch(format!(
            "{}: this {kind} is for cube {} of {} of instance {}, not for cube {} of this split",
            path.display(),
            named.index,
            named.count,
            named.sha,
            self.index
        )))
    }
}

/// The file listing each array task's cubes, inside a cube folder.
pub const TASKS: &str = "tasks.txt";

/// The file of cube `index` (1-based) in `dir`: `cube-0001.json`, four digits.
pub fn cube_path(dir: &Path, index: usize) -> PathBuf {
    dir.join(format!("cube-{index:04}.json"))
}

/// A cube file or the manifest, as written: the fields of the module's notes, in that order.
#[derive(Serialize)]
struct CubeDocument<'a> {
    format: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    cube: Option<usize>,
    cubes: usize,
    order: &'a str,
    source: &'a str,
    instance_sha256: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    fixed: Option<Vec<RawCell>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dead_ends: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cube_cells: Option<Vec<Vec<RawCell>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    estimates: Option<&'a [f64]>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    one_per_class: bool,
    /// The instance as `convert --to json` writes it, embedded as it is.
    instance: &'a RawValue,
}

/// Writes the manifest and one file per cube into `dir` (created if needed),
/// each file whole or not at all. Returns the cube files.
pub fn write_dir(dir: &Path, set: &CubeSet) -> Result<Vec<PathBuf>, Error> {
    std::fs::create_dir_all(dir).map_err(|source| Error::Io { path: dir.to_owned(), source })?;
    let sha = instance_json::sha256(&set.instance);
    let grid = set.instance.instance.grid;
    let embedded = embed(&instance_json::to_string(&set.instance));
    let base = |format| CubeDocument {
        format,
        cube: None,
        cubes: set.cubes.len(),
        order: &set.order,
        source: &set.source,
        instance_sha256: &sha,
        fixed: None,
        dead_ends: None,
        cube_cells: None,
        estimates: None,
        one_per_class: set.one_per_class,
        instance: &embedded,
    };
    let mut files = Vec::new();
    for (i, fixed) in set.cubes.iter().enumerate() {
        let path = cube_path(dir, i + 1);
        let document = CubeDocument { cube: Some(i + 1), fixed: Some(raw_cells(grid, fixed)), ..base(CUBE_FORMAT) };
        write_atomic(&path, to_json(&document).as_bytes())?;
        files.push(path);
    }
    let manifest = CubeDocument {
        dead_ends: Some(set.dead_ends),
        cube_cells: Some(set.cubes.iter().map(|fixed| raw_cells(grid, fixed)).collect()),
        estimates: (!set.estimates.is_empty()).then_some(&set.estimates[..]),
        ..base(MANIFEST_FORMAT)
    };
    write_atomic(&dir.join(MANIFEST), to_json(&manifest).as_bytes())?;
    if !set.tasks.is_empty() {
        let lines: Vec<String> = set.tasks.iter().map(|task| task_line(task)).collect();
        write_atomic(&dir.join(TASKS), (lines.join("\n") + "\n").as_bytes())?;
    }
    Ok(files)
}

/// One task's cubes as written: 1-based numbers, space-separated.
fn task_line(task: &[usize]) -> String {
    task.iter().map(|i| (i + 1).to_string()).collect::<Vec<_>>().join(" ")
}

/// Reads `tasks.txt` of a folder of `cubes` cubes (none when absent): every
/// line a task, every cube in exactly one task.
fn read_tasks(dir: &Path, cubes: usize) -> Result<Vec<Vec<usize>>, Error> {
    let path = dir.join(TASKS);
    if !path.exists() {
        return Ok(Vec::new());
    }
    let mut seen = vec![false; cubes];
    let mut tasks = Vec::new();
    for (n, line) in read_text(&path)?.lines().enumerate() {
        let mut task = Vec::new();
        for word in line.split_whitespace() {
            let bad = |message: String| Error::Syntax { path: path.clone(), line: n + 1, column: 1, message };
            let cube: usize = word.parse().map_err(|_| bad(format!("{word}: not a cube number")))?;
            if !(1..=cubes).contains(&cube) || std::mem::replace(&mut seen[cube - 1], true) {
                return Err(bad(format!("cube {cube} is not in 1..={cubes} or is listed twice")));
            }
            task.push(cube - 1);
        }
        tasks.push(task);
    }
    match seen.iter().position(|&s| !s) {
        Some(missing) => Err(field_error(&path, "tasks", format!("cube {} is in no task", missing + 1))),
        None => Ok(tasks),
    }
}

/// A JSON text edgematch wrote itself (an instance or a board), to embed as it is.
pub(crate) fn embed(json: &str) -> Box<RawValue> {
    // Indented one level, as the field it is embedded in.
    RawValue::from_string(json.trim_end().replace('\n', "\n  ")).expect("edgematch writes valid JSON")
}

/// A document as pretty JSON with a final newline.
pub(crate) fn to_json(document: &impl Serialize) -> String {
    serde_json::to_string_pretty(document).expect("the documents serialize") + "\n"
}

/// Fixed cells in the clue notation (`piece` 1-based).
pub(crate) fn raw_cells(grid: Grid, cells: &[Clue]) -> Vec<RawCell> {
    cells
        .iter()
        .map(|c| {
            let (row, col) = grid.row_col(c.cell);
            let (piece, rotation) = (c.placement.piece as i64 + 1, i64::from(c.placement.rotation.turns()));
            RawCell { row: row as i64, col: col as i64, piece, rotation }
        })
        .collect()
}

/// A fixed cell as written.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCell {
    row: i64,
    col: i64,
    piece: i64,
    rotation: i64,
}

/// Reads fixed cells against `instance`: in range, on cells without a clue,
/// with pieces no clue and no other fixed cell uses. `field` names the list.
pub(crate) fn cells_from_raw(
    path: &Path,
    field: &str,
    raw: &[RawCell],
    instance: &Instance,
) -> Result<Vec<Clue>, Error> {
    let grid = instance.grid;
    let mut cells: Vec<Clue> = Vec::with_capacity(raw.len());
    for (i, c) in raw.iter().enumerate() {
        let at = format!("{field}[{i}]");
        let in_range = (0..grid.height as i64).contains(&c.row) && (0..grid.width as i64).contains(&c.col);
        if !in_range {
            return Err(field_error(path, at, format!("({}, {}) is not a cell of a {grid} board", c.row, c.col)));
        }
        if !(1..=instance.pieces.len() as i64).contains(&c.piece) {
            return Err(field_error(path, at, format!("no piece {}", c.piece)));
        }
        let rotation = Rotation::try_from(c.rotation).map_err(|e| field_error(path, &at, e.to_string()))?;
        let clue = Clue {
            cell: grid.cell(c.row as usize, c.col as usize),
            placement: Placement { piece: c.piece as usize - 1, rotation },
        };
        let taken = instance
            .clues
            .iter()
            .chain(&cells)
            .any(|k| k.cell == clue.cell || k.placement.piece == clue.placement.piece);
        if taken {
            return Err(field_error(path, at, "its cell or piece is already fixed by a clue or another fixed cell"));
        }
        cells.push(clue);
    }
    Ok(cells)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCube {
    format: String,
    #[serde(default)]
    cube: Option<usize>,
    cubes: usize,
    order: String,
    source: String,
    instance_sha256: String,
    #[serde(default)]
    fixed: Vec<RawCell>,
    #[serde(default)]
    cube_cells: Vec<Vec<RawCell>>,
    #[serde(default)]
    dead_ends: usize,
    #[serde(default)]
    estimates: Vec<f64>,
    #[serde(default)]
    one_per_class: bool,
    instance: serde_json::Value,
}

/// Parses a cube file or manifest and checks its embedded instance against its hash.
fn parse_raw(path: &Path, text: &str, format: &str) -> Result<(RawCube, InstanceFile), Error> {
    let raw: RawCube = parse_json(path, text)?;
    expect_format(path, &raw.format, format)?;
    let instance = instance_json::parse(path, &raw.instance.to_string())
        .map_err(|e| field_error(path, "instance", e.to_string()))?;
    let sha = instance_json::sha256(&instance);
    if sha != raw.instance_sha256 {
        return Err(field_error(
            path,
            "instance_sha256",
            format!("the embedded instance hashes to {sha}, not {}: the file was edited", raw.instance_sha256),
        ));
    }
    Ok((raw, instance))
}

/// True if `path` is a readable JSON file whose `format` is a cube's.
pub fn is_cube(path: &Path) -> bool {
    #[derive(Deserialize)]
    struct Tag {
        format: Option<String>,
    }
    let Ok(text) = std::fs::read_to_string(path) else { return false };
    serde_json::from_str::<Tag>(&text).is_ok_and(|t| t.format.as_deref() == Some(CUBE_FORMAT))
}

/// Reads one cube file.
pub fn read_cube(path: &Path) -> Result<Cube, Error> {
    let (raw, instance) = parse_raw(path, &read_text(path)?, CUBE_FORMAT)?;
    let index = raw.cube.ok_or_else(|| field_error(path, "cube", "missing"))?;
    if !(1..=raw.cubes).contains(&index) {
        return Err(field_error(path, "cube", format!("{index} is not in 1..={}", raw.cubes)));
    }
    let fixed = cells_from_raw(path, "fixed", &raw.fixed, &instance.instance)?;
    check_one_per_class(path, raw.one_per_class, &instance.instance, &fixed)?;
    let one_per_class = raw.one_per_class;
    Ok(Cube { index, count: raw.cubes, instance_sha256: raw.instance_sha256, instance, fixed, one_per_class })
}

/// Reads the manifest of the cube folder `dir`.
pub fn read_manifest(dir: &Path) -> Result<CubeSet, Error> {
    let path = dir.join(MANIFEST);
    let (raw, instance) = parse_raw(&path, &read_text(&path)?, MANIFEST_FORMAT)?;
    if raw.cube_cells.len() != raw.cubes {
        return Err(field_error(
            &path,
            "cube_cells",
            format!("{} lists for {} cubes", raw.cube_cells.len(), raw.cubes),
        ));
    }
    let mut cubes = Vec::with_capacity(raw.cubes);
    for (i, cells) in raw.cube_cells.iter().enumerate() {
        cubes.push(cells_from_raw(&path, &format!("cube_cells[{i}]"), cells, &instance.instance)?);
        check_one_per_class(&path, raw.one_per_class, &instance.instance, &cubes[i])?;
    }
    check_estimates(&path, &raw.estimates, raw.cubes)?;
    Ok(CubeSet {
        source: raw.source,
        instance,
        order: raw.order,
        cubes,
        dead_ends: raw.dead_ends,
        estimates: raw.estimates,
        tasks: read_tasks(dir, raw.cubes)?,
        one_per_class: raw.one_per_class,
    })
}

/// A split whose cubes stand for their classes: a square board without
/// clues, every cube with its own top-left cell (else the count would count
/// each board four times).
fn check_one_per_class(path: &Path, one_per_class: bool, instance: &Instance, fixed: &[Clue]) -> Result<(), Error> {
    if one_per_class && !crate::count::may_stand_for_classes(instance, fixed) {
        let why = "true needs a square board without clues and a cube that fixes its top-left cell";
        return Err(field_error(path, "one_per_class", why));
    }
    Ok(())
}

/// A manifest's estimates: none, or one finite, non-negative count per cube.
fn check_estimates(path: &Path, estimates: &[f64], cubes: usize) -> Result<(), Error> {
    if !estimates.is_empty() && estimates.len() != cubes {
        return Err(field_error(path, "estimates", format!("{} estimates for {cubes} cubes", estimates.len())));
    }
    match estimates.iter().position(|e| !e.is_finite() || *e < 0.0) {
        Some(i) => Err(field_error(path, format!("estimates[{i}]"), format!("{} is not a node count", estimates[i]))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};

    #[test]
    fn a_written_split_reads_back_and_an_edit_is_caught() {
        let planted = planted(&PlantedSpec::square(4, 2, 3, 2)).unwrap();
        let instance = InstanceFile { instance: planted.instance.clone(), name: Some("t".into()), colours: None };
        let split = super::super::split::split(&instance.instance, "row-scan".parse().unwrap(), 5).unwrap();
        let set = CubeSet {
            source: "t.json".into(),
            instance,
            order: "row-scan".into(),
            cubes: split.cubes.clone(),
            dead_ends: split.dead_ends,
            estimates: (0..split.cubes.len()).map(|i| i as f64 * 1.5e9).collect(),
            tasks: vec![(0..split.cubes.len()).rev().collect()],
            one_per_class: false,
        };
        let dir = std::env::temp_dir().join(format!("edgematch-cube-file-{}", std::process::id()));
        let files = write_dir(&dir, &set).unwrap();
        assert_eq!(read_manifest(&dir).unwrap(), set);
        let manifest = dir.join(MANIFEST);
        let good = std::fs::read_to_string(&manifest).unwrap();
        std::fs::write(&manifest, good.replacen("\"estimates\": [\n    0.0,", "\"estimates\": [", 1)).unwrap();
        let short = read_manifest(&dir).unwrap_err().to_string();
        assert!(short.contains("estimates"), "{short}");
        std::fs::write(&manifest, good.replacen("\"dead_ends\"", "\"one_per_class\": true, \"dead_ends\"", 1)).unwrap();
        let clued = read_manifest(&dir).unwrap_err().to_string();
        assert!(clued.contains("one_per_class"), "a board with clues cannot stand for its turns: {clued}");
        std::fs::write(&manifest, good).unwrap();
        let cube = read_cube(&files[1]).unwrap();
        assert!(is_cube(&files[1]) && !is_cube(&dir.join(MANIFEST)));
        assert_eq!((cube.index, cube.count, &cube.fixed), (2, set.cubes.len(), &set.cubes[1]));
        assert_eq!(cube.sub_instance().clues.len(), planted.instance.clues.len() + cube.fixed.len());
        let text = std::fs::read_to_string(&files[0]).unwrap().replacen(
            "\"pieces\": [\n",
            "\"pieces\": [\n[0, 0, 0, 0],\n",
            1,
        );
        std::fs::write(&files[0], text).unwrap();
        assert!(read_cube(&files[0]).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
