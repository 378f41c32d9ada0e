#!/usr/bin/env bash
# Issue 55's moonshot: Brendan Owen's 8x8 counted as a Slurm array. The board
# is cut into cubes along the row scan with the count's corner piece fixed
# top-left (`split --fix-corner`: the cubes hold one board of each class of
# four turned boards, a quarter of the plain tree, and each cube's count counts
# every board found with its three turns), weighed and dealt into balanced
# tasks (`split --tasks`), counted by deploy/slurm/count.sbatch one core per
# task, and summed by `collect --counts`, which refuses a total while a cube
# is missing or unfinished.
#
#   .ci/slurm target/release/edgematch -- bash results/counts/moonshot.sh [TASKS] [BOARD]
#
# (.ci/slurm starts a one-node Slurm of this machine's cores, runs the script
# there with SLURM_CONF and EDGEMATCH set, and stops it.) Resumable: cubes
# counted whole keep their count files and are skipped when the array is
# submitted again; a cube cut short goes on from its progress file. Writes,
# under results/counts/moonshot-NAME/: split.txt, machine.txt, collect.txt and
# the cube folder (cubes/: the manifest, tasks.txt and every cube's count
# file; the cube files and progress files are git-ignored); and the board's
# line in results/counts/counts.jsonl (the table reads a board's last line).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${EDGEMATCH:-target/release/edgematch}
tasks=${1:-32}
board=${2:-data/brendan/pieces_08x08.txt}
name=$(basename "$board" .txt | sed 's/pieces_//')
out=results/counts/moonshot-$name
mkdir -p "$out"
if [ ! -f "$out/cubes/cubes.json" ]; then
  "$bin" split "$board" --order row-scan --fix-corner --cubes "$tasks" --tasks "$tasks" --out "$out/cubes" |
    tee "$out/split.txt"
fi
commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo +)
echo "commit $commit, $(nproc) cores, $(sinfo -h -o '%D node(s), %c CPUs per node')" | tee -a "$out/machine.txt"
start=$SECONDS
sbatch --wait --array=1-"$tasks" --mem=1G --time=600 --output="$out/cubes/task-%a.out" \
  deploy/slurm/count.sbatch "$out/cubes" --threads 1
wall=$((SECONDS - start))
echo "array done in $wall s of wall-clock time" | tee -a "$out/machine.txt"
"$bin" collect "$out/cubes" --counts | tee "$out/collect.txt"
python3 - "$name" "$board" "$commit" "$(nproc) cores, $(uname -m)" "$tasks" "$wall" "$out/collect.txt" \
  >>results/counts/counts.jsonl <<'PY'
import json, re, sys
name, board, commit, host, tasks, wall, collected = sys.argv[1:]
text = open(collected).read()
field = lambda key: int(re.search(rf"^{key}: (\d+)", text, re.M).group(1))
row = {"board": f"brendan-{name}", "file": board,
       "command": f".ci/slurm target/release/edgematch -- bash results/counts/moonshot.sh {tasks} {board}",
       "commit": commit, "machine": host, "solutions": field("solutions"), "unique": field("unique"),
       "nodes": field("nodes"), "seconds": float(wall), "tree": "row scan, corner piece fixed (split --fix-corner)",
       "ended": "complete", "via": f"a Slurm array of {tasks} tasks (results/counts/moonshot-{name}/)"}
print(json.dumps(row))
PY
