//! The prost types generated from `proto/` (package `operations_research.sat`).

#![allow(missing_docs, unreachable_pub, clippy::all)]

include!(concat!(env!("OUT_DIR"), "/operations_research.sat.rs"));
