#!/usr/bin/env bash
# The goal runs of results/score/README.md, one after the other (each uses both
# cores), all into one runs file, then its table and chart:
#   official set, centre clue, 600 s: the scan walk and the field's published
#     solver (the reference arm, then CP-SAT completing its deepest boards);
#   planted 16x16 5+17 s1 at 600 s and 13x13 5+17 s1-s3 at 300 s: the scan walk;
#   official set, all five clues, 3600 s: the scan walk;
#   official set, centre clue, 3600 s: the scan walk and the reference.
# The reference needs EDGEMATCH_BLACKWOOD_DIR (docs/SCORE.md); without it, it
# is skipped. Resumable: runs already in the file are not run again.
# Usage: bash results/score/bench.sh [path/to/edgematch]
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-target/release/edgematch}
runs=results/score/runs.jsonl
bench() { "$bin" bench score --runs "$runs" "$@"; }
bench --official official-centre --sizes none --budgets 600 --arms search,blackwood
bench --official none --sizes 16 --seeds 1 --budgets 600 --arms search
bench --official none --sizes 13 --seeds 1-3 --budgets 300 --arms search
bench --official official-five --sizes none --budgets 3600 --arms search
bench --official official-centre --sizes none --budgets 3600 --arms search,blackwood
