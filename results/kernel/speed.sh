#!/usr/bin/env bash
# Placements per second of the three walks, one thread, before and after a
# change. The two binaries run in ABBA order (before, after, after, before),
# so drift on a noisy machine falls on both alike:
#   - the exact search: `bench search-speed` (its ten planted boards, strip
#     test on and off; the same nodes in both binaries, so only time differs);
#   - the budget walk: `solve --objective score --walk budget` for 12 s on the
#     official set with its centre clue, under a fixed schedule (ramp:0.6:20:
#     no timed probe), attempts of a fixed length (--attempt-nodes) and a
#     fixed fill order, so both binaries walk the same attempts, as `solve`
#     prints its rate;
#   - the scan walk alone: `bench score-speed` (no CP-SAT completions beside it).
# Usage: bash results/kernel/speed.sh BEFORE_BINARY AFTER_BINARY [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
before=$1 after=$2 rounds=${3:-2}
out=$(mktemp -d)
bin() { if [ "$1" = before ]; then echo "$before"; else echo "$after"; fi; }
d=data/official
for round in $(seq "$rounds"); do
  for b in before after after before; do
    "$(bin $b)" bench search-speed --out "$out/search.json" > /dev/null 2>&1
    rate=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['runs']; print(round(sum(x['nodes'] for x in r)/sum(x['seconds'] for x in r)/1e6, 1))" "$out/search.json")
    echo "$round search $b $rate"
  done
  for b in before after after before; do
    # The rate is printed whether or not a full board was reached in the
    # 12 s (exit 1 when none was), so the exit status is not the measure.
    rate=$({ "$(bin $b)" solve $d/pieces.txt --columns bltr --clues $d/clue-centre.txt --objective score \
      --walk budget --breaks ramp:0.6:20 --attempt-nodes 2000000 --fill-order row-scan --solver search --threads 1 --time-limit 12 --seed 3 2>&1 || true; } |
      awk '/^nodes_per_second/ {printf "%.1f", $2 / 1e6}')
    echo "$round budget $b $rate"
  done
  for b in before after after before; do
    rate=$("$(bin $b)" bench score-speed --seconds 15 --out "$out/score-speed.json" 2>&1 |
      awk '/score walk:/ {print $(NF-2)}')
    echo "$round score-speed $b $rate"
  done
done
