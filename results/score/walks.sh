#!/usr/bin/env bash
# The two walks of the score search side by side on boards beyond the goal
# runs (planted 5+17 boards of 10x10 to 15x15, Brendan Owen's rectangles),
# each run alone on both cores, the same budget: the scan walk (the default)
# and the break-budget walk (--walk budget). Logs under walks/.
# Usage: bash results/score/walks.sh [SECONDS]   (default 120)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-120}
bin=target/release/edgematch
out=results/score/walks
mkdir -p "$out"
run() {
  local name=$1 walk=$2; shift 2
  [ -s "$out/$name-$walk.log" ] && return 0
  echo "== $name $walk ($(cut -d' ' -f1-3 /proc/loadavg))" >&2
  local extra=()
  [ "$walk" = budget ] && extra=(--walk budget --breaks ramp:0.78)
  "$bin" solve "$@" --objective score --solver search --time-limit "$seconds" "${extra[@]}" \
    > "$out/$name-$walk.tmp" 2>&1 || true
  grep -v '^ ' "$out/$name-$walk.tmp" > "$out/$name-$walk.log"; rm "$out/$name-$walk.tmp"
}
for walk in scan budget; do
  for board in planted-10x10-f5i17-s1 planted-12x12-f5i17-s1 planted-14x14-f5i17-s1 planted-15x15-f5i17-s1; do
    run "$board" "$walk" "models/$board.json"
  done
  for size in 08x08 10x08 10x10; do
    run "brendan-$size" "$walk" "data/brendan/pieces_$size.txt"
  done
done
