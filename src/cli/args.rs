//! Argument groups and value parsers shared by several subcommands.

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;
use edgematch::formats::{load, piece_list};
use edgematch::puzzle::{Grid, MAX_SIDE};

/// How to read an instance given as a piece list.
#[derive(Args)]
pub(crate) struct InstanceSourceArgs {
    /// Column order of a piece list: four of n/e/s/w (u/r/d/l, t/b), e.g. nesw or
    /// bltr (the official list). Default: from the file's header, else nesw.
    #[arg(long)]
    columns: Option<piece_list::Columns>,
    /// Board width of a piece list that has no `W H` line.
    #[arg(long, requires = "height", value_parser = side)]
    width: Option<usize>,
    /// Board height of a piece list that has no `W H` line.
    #[arg(long, requires = "width", value_parser = side)]
    height: Option<usize>,
    /// A clue list (`name piece cell y x rot rot_nesw N E S W` lines) to use as the clues.
    #[arg(long)]
    pub(crate) clues: Option<PathBuf>,
}

impl InstanceSourceArgs {
    /// Reads the instance at `path` as these options say.
    pub(crate) fn load(&self, path: &Path) -> Result<load::Loaded> {
        let size = match (self.width, self.height) {
            (Some(width), Some(height)) => Some(Grid::new(width, height)?),
            _ => None,
        };
        let options = load::InstanceOptions { columns: self.columns, size, clues: self.clues.as_deref() };
        Ok(load::instance(path, &options)?)
    }
}

/// The names of the flags marked given.
pub(crate) fn given_flags(flags: &[(&'static str, bool)]) -> Vec<&'static str> {
    flags.iter().filter_map(|&(name, given)| given.then_some(name)).collect()
}

/// The cores of this machine: the default number of CP-SAT workers.
pub(crate) fn cores() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as u32)
}

/// A positive, finite number of seconds.
pub(crate) fn seconds(s: &str) -> Result<f64, String> {
    let value: f64 = s.parse().map_err(|e| format!("{e}"))?;
    if value.is_finite() && value > 0.0 { Ok(value) } else { Err(format!("{s} is not a positive number of seconds")) }
}

/// A number of seconds, positive or 0 (0: never).
pub(crate) fn seconds_or_zero(s: &str) -> Result<f64, String> {
    let value: f64 = s.parse().map_err(|e| format!("{e}"))?;
    if value.is_finite() && value >= 0.0 { Ok(value) } else { Err(format!("{s} is not a number of seconds")) }
}

/// A board side: 1..=MAX_SIDE.
pub(crate) fn side(s: &str) -> Result<usize, String> {
    let value: usize = s.parse().map_err(|e| format!("{e}"))?;
    if (1..=MAX_SIDE).contains(&value) { Ok(value) } else { Err(format!("{value} is not in 1..={MAX_SIDE}")) }
}

/// A seed that every solver takes (CP-SAT and HiGHS take an `i32`).
pub(crate) use edgematch::outcome::SEED_RANGE;

/// A list of numbers given as one argument.
#[derive(Clone, Debug)]
pub(crate) struct Numbers(pub(crate) Vec<u64>);

/// `1,2,5` or `1-5` (or a mix: `1-3,7`), as [`Numbers`].
pub(crate) fn numbers(s: &str) -> Result<Numbers, String> {
    list(s).map(Numbers)
}

/// `1,2,5` or `1-5` (or a mix: `1-3,7`).
fn list(s: &str) -> Result<Vec<u64>, String> {
    let number = |part: &str, x: &str| x.trim().parse::<u64>().map_err(|e| format!("{part}: {e}"));
    let mut out = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (number(part, a)?, number(part, b)?);
                if a > b {
                    return Err(format!("{part}: empty range"));
                }
                out.extend(a..=b);
            }
            None => out.push(number(part, part)?),
        }
    }
    if out.is_empty() { Err("empty list".to_owned()) } else { Ok(out) }
}

/// `SIZE:SEEDS`, e.g. `16:1-2`.
pub(crate) fn size_and_seeds(s: &str) -> Result<(u64, Vec<u64>), String> {
    let (size, seeds) = s.split_once(':').ok_or_else(|| format!("{s}: expected SIZE:SEEDS"))?;
    Ok((size.parse().map_err(|e| format!("{s}: {e}"))?, list(seeds)?))
}

/// `SIZE:SECONDS`, e.g. `14:120`.
pub(crate) fn size_and_seconds(s: &str) -> Result<(usize, f64), String> {
    let (size, secs) = s.split_once(':').ok_or_else(|| format!("{s}: expected SIZE:SECONDS"))?;
    Ok((size.parse().map_err(|e| format!("{s}: {e}"))?, seconds(secs)?))
}

/// `K/N` with 1 ≤ K ≤ N.
pub(crate) fn shard(s: &str) -> Result<(usize, usize), String> {
    let (k, n) = s.split_once('/').ok_or_else(|| format!("{s}: expected K/N"))?;
    let (k, n): (usize, usize) =
        (k.parse().map_err(|e| format!("{s}: {e}"))?, n.parse().map_err(|e| format!("{s}: {e}"))?);
    if k == 0 || k > n {
        return Err(format!("{s}: K must be in 1..=N"));
    }
    Ok((k, n))
}

/// The shard a bench runs: `--shard K/N` when given, else the Slurm array
/// task's (see [`edgematch::bench::runs::slurm_shard`]), else 1/1; printed on stderr.
pub(crate) fn shard_or_slurm(given: Option<(usize, usize)>) -> Result<(usize, usize)> {
    if let Some(shard) = given {
        return Ok(shard);
    }
    match edgematch::bench::runs::slurm_shard(|name| std::env::var(name).ok())? {
        Some((k, n)) => {
            eprintln!("shard {k}/{n} from the Slurm array task");
            Ok((k, n))
        }
        None => Ok((1, 1)),
    }
}

/// Writes `text` to `path` whole (through a temporary file), then says so on stderr.
pub(crate) fn write_out(path: &Path, text: &str) -> Result<()> {
    edgematch::output::write_atomic(path, text.as_bytes())?;
    eprintln!("wrote {}", path.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsers_accept_what_the_help_says_and_nothing_else() {
        assert_eq!(list("1-3,7").unwrap(), vec![1, 2, 3, 7]);
        assert!(list("3-1").is_err() && list("").is_err() && list("x").is_err());
        assert_eq!(size_and_seeds("16:1-2").unwrap(), (16, vec![1, 2]));
        assert_eq!(size_and_seconds("14:120").unwrap(), (14, 120.0));
        assert!(size_and_seconds("14:0").is_err());
        assert_eq!(shard("2/3").unwrap(), (2, 3));
        assert!(shard("0/3").is_err() && shard("4/3").is_err());
        assert!(seconds("inf").is_err() && seconds("-1").is_err() && seconds("NaN").is_err());
        assert!(side("65").is_err() && side("0").is_err());
    }
}
