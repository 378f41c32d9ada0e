#!/usr/bin/env bash
# Why the quota pilots die with all five clues (issue 52): 30-s walks on the
# official set with its five clues, the breaks of the plan the five-clue board
# gets fixed, with and without the published quota colours 3,6,8, on the row
# scan and on the strips the default takes; no completion (the walk alone).
# Each run's attempts_by_depth line goes to quota.md.
# Usage: bash results/score/issue52/quota.sh [path/to/edgematch]
set -euo pipefail
cd "$(dirname "$0")/../../.."
bin=${1:-target/release/edgematch}
out=results/score/issue52/quota.md
breaks=183:1,187:2,192:3,197:4,201:5,206:6,210:7,215:8,219:9,223:10,227:11,230:12,234:13,236:14
{
  echo "# Quota walks with all five clues"
  echo
  echo "\`bash results/score/issue52/quota.sh\` at commit $(git rev-parse --short HEAD), 2 cores, 30 s each, seed 1,"
  echo "breaks \`$breaks\`, \`--completion none\`."
  echo
  echo "| fill order | quota | attempts by depth (depth:attempts) |"
  echo "|---|---|---|"
  for order in band-sw band-sw-s3; do
    for quota in 3,6,8 none; do
      # A score run exits non-zero without a full solution: its figures are what is read.
      depths=$({ "$bin" solve data/official/pieces.txt --columns bltr --clues data/official/clues.txt \
        --objective score --solver search --threads 2 --seed 1 --time-limit 30 --quota "$quota" \
        --breaks "$breaks" --fill-order "$order" --completion none 2>/dev/null || true; } |
        sed -n 's/^attempts_by_depth: //p')
      echo "| \`$order\` | \`$quota\` | $depths |"
    done
  done
} >"$out.tmp"
mv "$out.tmp" "$out"
