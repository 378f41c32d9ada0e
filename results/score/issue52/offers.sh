#!/usr/bin/env bash
# The walks' rate when every partial board near the end is offered (the native
# completer's settings, native:32:16:2), before and after a change to the
# hand-off: two binaries in turn, A B B A, 60 s each, seed 1, both cores, on the
# official set with its centre clue (where the offers are most: every partial
# board within 16 cells of the end). Each run's stdout lands in
# results/score/issue52/offers/LABEL-N.out; the table prints the walks'
# placements per walk-CPU-second and the boards offered, dropped and completed.
# Usage: bash results/score/issue52/offers.sh BIN_A LABEL_A BIN_B LABEL_B [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../../.."
[ $# -ge 4 ] || { echo "usage: $0 BIN_A LABEL_A BIN_B LABEL_B [SECONDS]" >&2; exit 2; }
a=$1 la=$2 b=$3 lb=$4 seconds=${5:-60}
out=results/score/issue52/offers
run() {
  local bin=$1 name=$2
  echo "run $name" >&2
  "$bin" solve data/official/pieces.txt --columns bltr --clues data/official/clue-centre.txt \
    --completion native:32:16:2 --objective score --solver search --threads 2 --seed 1 \
    --time-limit "$seconds" >"$out/$name.out.tmp" 2>/dev/null || true
  mv "$out/$name.out.tmp" "$out/$name.out"
}
run "$a" "$la-1"; run "$b" "$lb-1"; run "$b" "$lb-2"; run "$a" "$la-2"
echo "| run | placements per walk-CPU-s | offered | dropped | completed | best |"
echo "|---|---|---|---|---|---|"
for name in "$la-1" "$lb-1" "$lb-2" "$la-2"; do
  f=$out/$name.out
  rate=$(sed -n 's/^placements_per_walk_cpu_second: //p' "$f")
  read -r done offered dropped < <(sed -n 's/^completions: \([0-9]*\) of \([0-9]*\) offered (.*, \([0-9]*\) dropped.*/\1 \2 \3/p' "$f")
  best=$(sed -n 's/^best board found: score \([0-9]*\).*/\1/p' "$f")
  echo "| $name | $rate | $offered | $dropped | $done | $best |"
done
