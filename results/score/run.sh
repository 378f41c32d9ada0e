#!/usr/bin/env bash
# The score runs of results/score/README.md, one after the other (each uses both cores):
# bash results/score/run.sh [path/to/edgematch]
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-target/release/edgematch}
run() {
  local name=$1 seconds=$2
  shift 2
  echo "== $name ($seconds s)"
  "$bin" solve "$@" --objective score --time-limit "$seconds" \
    --out "results/score/$name.json" --trace "results/score/$name.trace.jsonl" > "results/score/$name.log" 2>&1 || true
  grep -E "^(best board found|status|checker)" "results/score/$name.log" || true
}
: > results/score/official-five-600s.trace.jsonl
run official-five-600s 600 data/official/pieces.txt --columns bltr --clues data/official/clues.txt
for seed in 1 2 3; do
  : > "results/score/planted-13x13-f5i17-s$seed-300s.trace.jsonl"
  run "planted-13x13-f5i17-s$seed-300s" 300 "models/planted-13x13-f5i17-s$seed.json"
done
: > results/score/planted-16x16-f5i17-s1-600s.trace.jsonl
run planted-16x16-f5i17-s1-600s 600 models/planted-16x16-f5i17-s1.json
