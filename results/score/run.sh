#!/usr/bin/env bash
# The goal runs of results/score/README.md, one after the other (each uses both cores):
# bash results/score/run.sh [path/to/edgematch]
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-target/release/edgematch}
run() {
  local name=$1 seconds=$2
  shift 2
  echo "== $name ($seconds s)"
  : >"results/score/$name.trace.jsonl"
  "$bin" solve "$@" --objective score --time-limit "$seconds" \
    --out "results/score/$name.json" --trace "results/score/$name.trace.jsonl" >"results/score/$name.log" 2>&1 || true
  grep -E "^(best board found|status|checker)" "results/score/$name.log" || true
}
official=(data/official/pieces.txt --columns bltr)
run official-centre-600s 600 "${official[@]}" --clues data/official/clue-centre.txt
run official-five-3600s 3600 "${official[@]}" --clues data/official/clues.txt
