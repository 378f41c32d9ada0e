#!/usr/bin/env bash
# The benchmark set with counts (issue 55): every Brendan Owen board of
# data/brendan whose tree the estimator puts within HOURS on the threads
# given, counted; planted boards of 6x6-10x10 (five clues, as every planted
# board here) at several colour counts, counted, beside the first-moment
# estimate of their solution count
# (results/reach/first_moment.py). One JSON line per board in counts.jsonl
# (the count's record, the command, the commit, the machine); boards out of
# reach get the estimator's tree and the projected hours on 64 cores instead.
# Resumable: a board already in counts.jsonl is skipped, and a count cut short
# goes on from its progress file (progress/NAME.json).
# Usage: bash results/counts/run.sh [path/to/edgematch] [THREADS] [HOURS]
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-target/release/edgematch}
threads=${2:-2}
hours=${3:-1}
out=results/counts
mkdir -p "$out/progress" "$out/planted"
runs=$out/counts.jsonl
touch "$runs"
commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo +)
host="$(nproc) cores, $(uname -m)"

# A board with a line already is skipped: delete the line of one only
# estimated to count it with a larger HOURS (table.py reads a board's last line).
done_already() { grep -qF "\"board\": \"$1\"" "$runs"; }

# The rate of this machine on these threads: Brendan's 6x6, counted whole.
rate=$("$bin" count data/brendan/pieces_06x06.txt --threads "$threads" --json 2>/dev/null |
  python3 -c "import json,sys; c=json.load(sys.stdin); print(c['nodes'] / c['seconds'])")
echo "rate: $rate nodes/s on $threads thread(s)" >&2

record() { # board file command-args... ; appends the count's record, or the estimate when out of reach
  local board=$1 file=$2
  shift 2
  done_already "$board" && return 0
  local estimated estimate tree seconds
  # 20,000 paths: the estimate's error has a heavy tail (docs/COUNT.md), and they take a second.
  estimated=$("$bin" count "$file" "$@" --estimate 20000)
  estimate=$(awk '/^estimate:/ { print $2 }' <<<"$estimated")
  tree=$(sed -n 's/^estimate: .* down the tree: \(.*\))$/\1/p' <<<"$estimated")
  seconds=$(python3 -c "print(float('$estimate') / $rate)")
  if python3 -c "import sys; sys.exit(0 if $seconds <= $hours * 3600 else 1)"; then
    echo "count $board (estimated $(printf '%.3g' "$seconds") s)" >&2
    local record
    record=$("$bin" count "$file" "$@" --threads "$threads" --resume "$out/progress/$board.json" --json)
    python3 - "$board" "$file" "$commit" "$host" "$threads" "$*" "$record" >>"$runs" <<'PY'
import json, sys
board, file, commit, host, threads, flags, record = sys.argv[1:]
row = {"board": board, "file": file, "command": f"edgematch count {file} {flags} --threads {threads}".replace("  ", " "),
       "commit": commit, "machine": host, **json.loads(record)}
print(json.dumps(row))
PY
  else
    echo "estimate only: $board ($(printf '%.3g' "$seconds") s on $threads threads)" >&2
    python3 - "$board" "$file" "$commit" "$host" "$estimate" "$rate" "$threads" "$tree" >>"$runs" <<'PY'
import json, sys
board, file, commit, host, estimate, rate, threads, tree = sys.argv[1:]
per_core = float(rate) / int(threads)
print(json.dumps({"board": board, "file": file, "command": f"edgematch count {file} --estimate 20000", "commit": commit,
                  "machine": host, "estimated_nodes": float(estimate), "tree": tree, "ended": "out_of_reach",
                  "projected_hours_on_64_cores": float(estimate) / (per_core * 64) / 3600}))
PY
  fi
}

for file in $(ls data/brendan/pieces_*.txt | sort -t_ -k2); do
  record "brendan-$(basename "$file" .txt | sed 's/pieces_//')" "$file"
done
for side in 6 7 8 9 10; do
  for colours in "3 4" "3 6" "4 8"; do
    read -r f i <<<"$colours"
    name=planted-${side}x${side}-f${f}i${i}-s1
    file=$out/planted/$name.json
    if [ ! -f "$file" ] && ! "$bin" generate --size "$side" --frame-colours "$f" --interior-colours "$i" --seed 1 --out "$file" >/dev/null; then
      echo "skipped $name: the generator cannot make it (too few colours for its size)" >&2
      continue
    fi
    record "$name" "$file"
  done
done
python3 "$out/table.py" "$runs" >"$out/README.table.md"
