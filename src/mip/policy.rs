//! The size policy of the placement MIP: how large a MIP edgematch builds, decided from the instance before anything is allocated.
//!
//! A policy, not a safety check: the bridge's checks are in `bridge.rs`.

use crate::error::Error;
use crate::puzzle::Instance;

/// The most placement columns the MIP is built with: about 1.8 GB with HiGHS
/// at the 16×16 board's 1.8 KB per column (273 MB for 152,901 placements),
/// so planted boards up to 24×24. Larger boards are refused before building.
pub const MAX_PLACEMENTS: u64 = 1_000_000;

/// Refuses, before it is built, a MIP with more than [`MAX_PLACEMENTS`] placement columns.
pub fn size(instance: &Instance) -> Result<(), Error> {
    let placements: u64 = crate::puzzle::placements::per_cell(instance).iter().sum();
    if placements > MAX_PLACEMENTS {
        return Err(Error::Options(format!(
            "the MIP of this {} board would have {placements} placement columns, more than the {MAX_PLACEMENTS} \
             edgematch builds; use --solver search, sat or dfs",
            instance.grid
        )));
    }
    Ok(())
}
