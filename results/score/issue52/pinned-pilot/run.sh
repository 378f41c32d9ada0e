#!/usr/bin/env bash
# Issue 52: the pinned breaks tried as explicit steps before the option existed.
# The five-clue board's default band schedule (14 breaks from depth 183, as its
# plan line prints for seed 1) and the 12-break one, each with one break more
# from each of the two cells beside the right block's clue (free-cell indices
# 237 and 240: allowed from depths 238 and 241). 300 s, seed 1, both cores,
# native completer. Writes V1.* and V2.* here.
# Usage: bash results/score/issue52/pinned-pilot/run.sh path/to/edgematch
set -euo pipefail
cd "$(dirname "$0")/../../../.."
bin=$1
out=results/score/issue52/pinned-pilot
V1="183:1,187:2,192:3,197:4,201:5,206:6,210:7,215:8,219:9,223:10,227:11,230:12,234:13,236:14,238:15,241:16"
V2="183:1,188:2,194:3,199:4,205:5,210:6,215:7,220:8,225:9,229:10,233:11,236:12,238:13,241:14"
for v in V1 V2; do
  "$bin" solve data/official/pieces.txt --columns bltr --clues data/official/clues.txt --completion native:32:16:2 \
    --breaks "${!v}" --objective score --solver search --threads 2 --seed 1 --time-limit 300 \
    --out "$out/$v.json" --trace "$out/$v.trace" >"$out/$v.out" 2>"$out/$v.err"
done
