#!/usr/bin/env bash
# Solves one planted board as balanced cube tasks on a Slurm cluster, and can
# be stopped and run again at any time (it resumes):
#
#   .ci/slurm target/release/edgematch -- results/reach/cubes/run.sh [BOARD] [TASKS] [AT_ONCE]
#
# BOARD (default planted-13x13-f5i17-s1) is models/BOARD.json. The first run
# splits it along row-scan into balanced tasks (`split --cubes 64 --tasks
# TASKS`, default 128) under results/reach/cubes/BOARD/; a later run on a fresh
# clone writes the cube files again and checks that the manifest comes out
# byte for byte. Every run submits the array (AT_ONCE tasks at a time, default
# 2), each task solving its cubes in turn with the search along the same
# order, the trees the split weighed (the look-ahead off: the run began at
# 65da199, before it existed; with it off later binaries walk the same
# trees); a cube with a final result file is skipped, so a run after a kill,
# a reboot or a preemption finishes the rest. When a cube finds the board the
# array is cancelled; `collect` gives the verdict, `verify` checks the board.
set -euo pipefail

bin=${EDGEMATCH:?run through .ci/slurm, which exports EDGEMATCH and SLURM_CONF}
board=${1:-planted-13x13-f5i17-s1}
tasks=${2:-128}
at_once=${3:-2}
repo=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$repo"
dir=results/reach/cubes/$board
split=(split "models/$board.json" --cubes 64 --tasks "$tasks" --order row-scan --out)

if [ ! -f "$dir/cubes.json" ]; then
  echo "== split $board into $tasks tasks"
  "$bin" "${split[@]}" "$dir" | tee "$dir.split.txt"
elif [ ! -f "$dir/cube-0001.json" ]; then
  echo "== the cube files again (a fresh clone keeps only the manifest, tasks and results)"
  fresh=$(mktemp -d)
  "$bin" "${split[@]}" "$fresh/cubes" >/dev/null
  cmp "$fresh/cubes/cubes.json" "$dir/cubes.json" && cmp "$fresh/cubes/tasks.txt" "$dir/tasks.txt"
  cp "$fresh"/cubes/cube-[0-9][0-9][0-9][0-9].json "$dir/"
  rm -rf "$fresh"
fi

n=$(wc -l <"$dir/tasks.txt")
echo "== $n tasks, $at_once at a time (load $(cut -d' ' -f1-3 /proc/loadavg), commit $(git rev-parse --short HEAD))"
job=$(sbatch --parsable --array=1-"$n"%"$at_once" --cpus-per-task=1 --mem=1G --output="$dir/slurm-%a.out" \
  deploy/slurm/cubes.sbatch "$dir" --solver search --threads 1 --order row-scan --strip-test off --look-ahead off)
echo "array job $job submitted $(date -u +%FT%TZ)"
trap 'echo "stopping: scancel $job (the cubes finished so far are kept)"; scancel "$job"' INT TERM
while [ -n "$(squeue -h -j "$job" 2>/dev/null)" ]; do
  sleep 30
  echo "$(date -u +%T) results: $(find "$dir" -name 'cube-*.result.json' | wc -l) of $(ls "$dir"/cube-[0-9][0-9][0-9][0-9].json | wc -l) cubes"
done
echo "array job $job done $(date -u +%FT%TZ)"
code=0
"$bin" collect "$dir" --out "$dir.board.json" | tee "$dir.collect.txt" || code=$?
if [ -f "$dir.board.json" ]; then
  "$bin" verify "models/$board.json" "$dir.board.json" | tee "$dir.verify.txt"
fi
exit "$code"
