#!/usr/bin/env bash
# The planted solution's cube, solved alone: how long a cluster with a core
# per task would take to the solution (every task starts at once, and the
# solution's task reaches its cube after the cubes dealt to it before).
#
#   results/reach/cubes/locate.sh BOARD [TASKS] [TIME_LIMIT]
#
# Splits models/BOARD.json as run.sh does (the same command, so the same
# cubes) into a scratch folder, finds the one cube whose fixed cells agree
# with models/BOARD.solution.json (knowing the answer picks the cube: this
# measures where the array would find it, it is not a solve), solves that
# cube alone with the array's flags and keeps its result file as
# results/reach/cubes/BOARD.solution-cube.json; the split's output, manifest
# and tasks (BOARD.split.txt, BOARD/cubes.json, BOARD/tasks.txt) too, when
# run.sh has not written them.
set -euo pipefail

board=${1:?usage: locate.sh BOARD [TASKS] [TIME_LIMIT]}
tasks=${2:-128}
limit=${3:-3600}
bin=${EDGEMATCH:-target/release/edgematch}
repo=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$repo"
out=results/reach/cubes
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$bin" split "models/$board.json" --cubes 64 --tasks "$tasks" --order row-scan --out "$scratch/cubes" >"$scratch/split.txt"
# The scratch folder's name, as the folder it stands for (no machine path kept).
[ -f "$out/$board.split.txt" ] || sed "s#$scratch/cubes#$out/$board#g" "$scratch/split.txt" >"$out/$board.split.txt"
if [ ! -f "$out/$board/cubes.json" ]; then
  mkdir -p "$out/$board"
  cp "$scratch/cubes/cubes.json" "$scratch/cubes/tasks.txt" "$out/$board/"
fi
cmp -s "$scratch/cubes/cubes.json" "$out/$board/cubes.json" || { echo "$out/$board holds another split" >&2; exit 2; }
cube=$(python3 - "$scratch/cubes/cubes.json" "models/$board.solution.json" <<'PY'
import json, sys
manifest, solution = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))["cells"]
held = [i + 1 for i, cells in enumerate(manifest["cube_cells"])
        if all(solution[c["row"]][c["col"]] == [c["piece"], c["rotation"]] for c in cells)]
assert len(held) == 1, f"the planted solution extends {len(held)} cubes"
print(held[0])
PY
)
file=$(printf 'cube-%04d' "$cube")
echo "$board: the planted solution is in cube $cube; solving it alone (load $(cut -d' ' -f1-3 /proc/loadavg))"
status=0
"$bin" solve "$scratch/cubes/$file.json" --solver search --threads 1 --order row-scan --strip-test off --look-ahead off \
  --time-limit "$limit" | grep -E '^(status|wall time|nodes|checker)' || status=$?
cp "$scratch/cubes/$file.result.json" "$out/$board.solution-cube.json"
exit "$status"
