#!/usr/bin/env bash
# Placements per second of both score walks, one thread, before and after a
# change: two binaries run alternately (so drift on a noisy machine falls on
# both), 12 s each on the official set with its centre clue, then the score
# walk's own speed bench (no CP-SAT completions beside it).
# Usage: bash results/kernel/speed.sh BEFORE_BINARY AFTER_BINARY [REPS]
set -euo pipefail
cd "$(dirname "$0")/../.."
before=$1 after=$2 reps=${3:-3}
out=$(mktemp -d)
d=data/official
for rep in $(seq "$reps"); do
  for walk in budget scan; do
    for b in before after; do
      bin=$before; [ "$b" = after ] && bin=$after
      n=$("$bin" solve $d/pieces.txt --columns bltr --clues $d/clue-centre.txt --objective score \
        --walk $walk --solver search --threads 1 --time-limit 12 --seed 3 2>&1 |
        awk '/^nodes_per_second/ {print $2}')
      echo "$rep $walk $b $n"
    done
  done
done
for rep in 1 2; do
  for b in before after; do
    bin=$before; [ "$b" = after ] && bin=$after
    "$bin" bench score-speed --seconds 15 --out "$out/score-speed-$b-$rep.json" 2>&1 | grep 'score walk:' | sed "s/^/$rep $b /"
  done
done
