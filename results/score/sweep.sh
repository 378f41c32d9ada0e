#!/usr/bin/env bash
# The scan walk's parameters swept one at a time on the official set with its
# centre clue, every other setting at its default, both cores, one run after
# the other: attempt length, CP-SAT completion, the quota. Each run leaves its
# log (the plan, every best board, the counters) and its trace under sweep/.
# Usage: bash results/score/sweep.sh [SECONDS]   (default 300)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-300}
bin=target/release/edgematch
out=results/score/sweep
mkdir -p "$out"
run() {
  local name=$1; shift
  [ -s "$out/$name.log" ] && return 0
  echo "== $name ($(cut -d' ' -f1-3 /proc/loadavg))" >&2
  "$bin" solve data/official/pieces.txt --columns bltr --clues data/official/clue-centre.txt \
    --objective score --solver search --time-limit "$seconds" \
    --trace "$out/$name.trace.jsonl" "$@" > "$out/$name.tmp" 2>&1 || true
  grep -v '^ ' "$out/$name.tmp" > "$out/$name.log"; rm "$out/$name.tmp"
}
for nodes in 10000000 100000000 250000000 1000000000 10000000000; do
  run "attempt-$nodes" --attempt-nodes "$nodes"
done
for completion in none 16:6 16:14 24:10; do
  run "completion-$completion" --completion "$completion"
done
for quota in none 3,6,8 5,7,20; do
  run "quota-$quota" --quota "$quota"
done
