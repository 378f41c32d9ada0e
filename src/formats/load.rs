//! Reading any supported instance or board, by file name and content.
//!
//! Instances: `.json` is instance JSON; a bucas link (the link itself, or a
//! file holding one) gives the pieces its cells show; anything else is a piece
//! list (its column order from the caller, else from its comment header, else
//! `nesw`), optionally with a clue list beside it. Boards: board JSON (`{`), a bucas
//! link (`board_edges=`), a decoded board (`A1 y x piece rot N E S W` lines) or
//! a Brendan solution (`W H`, then `x y rot` lines).

use std::path::Path;

use super::piece_list::Columns;
use super::{board_json, board_text, brendan, bucas, clue_list, field_error, instance_json, piece_list, read_text};
use crate::error::Error;
use crate::puzzle::{Board, Grid, Instance};

/// How to read an instance that is not JSON.
#[derive(Clone, Debug, Default)]
pub struct InstanceOptions<'a> {
    /// Column order of a piece list (default: from its header, else `nesw`).
    pub columns: Option<Columns>,
    /// Board size of a piece list without a `W H` line.
    pub size: Option<Grid>,
    /// A clue list to add (replaces the instance's own clues).
    pub clues: Option<&'a Path>,
}

/// A loaded instance, with names for its clues when a clue list gave them.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The puzzle.
    pub instance: Instance,
    /// A name for reports.
    pub name: String,
    /// One name per clue, in the order of `instance.clues`.
    pub clue_names: Vec<String>,
    /// How a piece list was read (`None` for JSON).
    pub columns: Option<Columns>,
}

/// Reads an instance of any supported format.
pub fn instance(path: &Path, options: &InstanceOptions<'_>) -> Result<Loaded, Error> {
    let (mut instance, name, columns) = read_instance(path, options)?;
    let mut clue_names: Vec<String> = (1..=instance.clues.len()).map(|k| format!("clue {k}")).collect();
    if let Some(clues) = options.clues {
        let named = clue_list::read(clues, &instance)?;
        clue_names = named.iter().map(|c| c.name.clone()).collect();
        instance.clues = named.into_iter().map(|c| c.clue).collect();
    }
    Ok(Loaded { instance, name, clue_names, columns })
}

/// The instance at `path` (or the link `path` is), its name and, for a piece
/// list, the column order it was read with.
fn read_instance(path: &Path, options: &InstanceOptions<'_>) -> Result<(Instance, String, Option<Columns>), Error> {
    let stem = path.file_stem().map_or_else(|| "instance".to_owned(), |s| s.to_string_lossy().into_owned());
    if let Some(link) = path.to_str().filter(|p| bucas::sniff(p)) {
        let source = Path::new("(link)");
        let link = bucas::parse(source, link)?;
        return Ok((bucas::to_instance(source, &link)?, link.name.unwrap_or_else(|| "link".to_owned()), None));
    }
    if path.extension().is_some_and(|e| e == "json") {
        let file = instance_json::read(path)?;
        return Ok((file.instance, file.name.unwrap_or(stem), None));
    }
    let text = read_text(path)?;
    if bucas::sniff(&text) {
        let link = bucas::first_link(path, &text)?;
        return Ok((bucas::to_instance(path, &link)?, link.name.unwrap_or(stem), None));
    }
    let columns = options.columns.or_else(|| Columns::from_header(&text)).unwrap_or(Columns::NESW);
    Ok((piece_list::parse(path, &text, columns, options.size)?, stem, Some(columns)))
}

/// A board read for an instance, with the name its source gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadedBoard {
    /// The board.
    pub board: Board,
    /// The name a bucas link gives itself (`puzzle`), if any.
    pub name: Option<String>,
}

/// Reads a board of any supported format for `instance`: `source` is a file,
/// or an e2.bucas.name link given as it is (on the command line).
pub fn board(source: &Path, instance: &Instance) -> Result<LoadedBoard, Error> {
    let text = match source.to_str() {
        Some(link) if bucas::sniff(link) => link.to_owned(),
        _ => read_text(source)?,
    };
    let path = if bucas::sniff(&source.to_string_lossy()) { Path::new("(link)") } else { source };
    board_from_text(path, &text, instance)
}

/// Reads a board of any supported format from its text, picking the reader by
/// content as [`board`] does; `path` is only used in messages.
pub fn board_from_text(path: &Path, text: &str, instance: &Instance) -> Result<LoadedBoard, Error> {
    let mut name = None;
    let board = if text.trim_start().starts_with('{') {
        board_json::parse(path, text)?
    } else if bucas::sniff(text) {
        let link = bucas::first_link(path, text)?;
        name.clone_from(&link.name);
        bucas::to_board(path, &link, instance)?
    } else if board_text::sniff(text) {
        board_text::parse(path, text, instance)?
    } else if brendan::sniff(text) {
        brendan::parse(path, text, instance)?
    } else {
        return Err(field_error(
            path,
            "format",
            "not a board JSON, bucas link, decoded board (`A1 y x piece rot N E S W`) or Brendan solution",
        ));
    };
    super::same_size(path, board.grid, instance)?;
    Ok(LoadedBoard { board, name })
}
