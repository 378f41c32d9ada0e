#!/usr/bin/env bash
# Issue 52's score runs: each alone on both cores, one after the other; every
# run's stdout (its plan line, every verified best, its figures), stderr (its
# heartbeats and splits), best board and time-to-score trace land here as
# NAME.out, NAME.err, NAME.json, NAME.trace. A run whose .out holds its
# verified best is not run again, so the script can be stopped and started.
#
# Tuned on: the official set with all five clues (five-*), as the issue asks.
# Held out: planted 16x16 5+17 s2-s5 (p16s*) and the official set with its
# centre clue (centre-*): nothing was chosen on their runs.
# Usage: bash results/score/issue52/run.sh [path/to/edgematch] [NAME...]
#   NAME: BOARD-ARM-SECONDS[-sSEED][@TAG], BOARD five, centre, p16sN or p13sN
#   (@TAG only names the files: the same run again with a later binary)
#   (planted 16x16 or 13x13 5+17 seed N), ARM default (CP-SAT completes 16 cells, the
#   measured thresholds) or native32 (the native branch and bound,
#   --completion native:32:16:2), either followed by bN for N breaks over the
#   plan's span (--breaks band:N, e.g. native32b16) and/or p for a break more
#   at each cell past the span that a clue pins on a third side
#   (--breaks band+pinned, band:N+pinned); the default list is the one the
#   README reports.
set -euo pipefail
cd "$(dirname "$0")/../../.."
bin=${1:-target/release/edgematch}
shift || true
out=results/score/issue52
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(five-default-600 five-native32-600 p16s2-native32-600 p16s3-native32-600
  centre-native32-600 p16s4-native32-600 p16s4-default-600 p16s5-native32-600 p16s5-default-600)
for name in "${names[@]}"; do
  grep -q "^best board found" "$out/$name.out" 2>/dev/null && continue
  IFS=- read -r board arm seconds seed <<<"${name%@*}"
  case $board in
    five) instance=(data/official/pieces.txt --columns bltr --clues data/official/clues.txt) ;;
    centre) instance=(data/official/pieces.txt --columns bltr --clues data/official/clue-centre.txt) ;;
    p16s*) instance=("models/planted-16x16-f5i17-s${board#p16s}.json") ;;
    p13s*) instance=("models/planted-13x13-f5i17-s${board#p13s}.json") ;;
    *) echo "unknown board $board" >&2; exit 2 ;;
  esac
  breaks=()
  if [[ $arm =~ ^(default|native32)(b([0-9]+))?(p)?$ ]] && [ -n "${BASH_REMATCH[2]}${BASH_REMATCH[4]}" ]; then
    count=${BASH_REMATCH[3]} pinned=${BASH_REMATCH[4]}
    arm=${BASH_REMATCH[1]}
    breaks=(--breaks "band${count:+:$count}${pinned:++pinned}")
  fi
  case $arm in
    default) how=() ;;
    native32) how=(--completion native:32:16:2) ;;
    *) echo "unknown arm $arm" >&2; exit 2 ;;
  esac
  echo "run $name" >&2
  "$bin" solve "${instance[@]}" "${how[@]}" "${breaks[@]}" --objective score --solver search --threads 2 \
    --seed "$(s=${seed:-s1}; echo "${s#s}")" --time-limit "$seconds" --out "$out/$name.json" --trace "$out/$name.trace" \
    >"$out/$name.out.tmp" 2>"$out/$name.err" || true
  mv "$out/$name.out.tmp" "$out/$name.out"
done
