#!/usr/bin/env bash
# Measures results/cubes.md on a Slurm cluster (here the throwaway one-node
# cluster of .ci/slurm, two CPUs):
#
#   .ci/slurm target/release/edgematch -- results/cubes/run.sh
#
# For each board: `solve` alone on 2 cores within BUDGET, then `split` into
# cubes, one array task per cube (1 CPU each, so two run at once), `collect`.
# Writes the boards, cube folders (cube files and result files) and the
# commands' outputs under results/cubes/.
set -euo pipefail

bin=${EDGEMATCH:?run through .ci/slurm, which exports EDGEMATCH}
out=results/cubes
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"

# Waits for an array job to leave the queue (at most an hour); prints its wall time.
wait_job() {
  local job=$1 start=$SECONDS
  while [ -n "$(squeue -h -j "$job" 2>/dev/null)" ]; do
    [ $((SECONDS - start)) -lt 3600 ] || { echo "job $job still running after an hour" >&2; return 1; }
    sleep 1
  done
  echo "array job $job: submitted to done in about $((SECONDS - start)) s"
}

# board NAME BUDGET K TIME_LIMIT: solve alone, split, array, collect.
board() {
  local name=$1 budget=$2 k=$3 limit=$4 n job code
  echo "== $name: solve alone, --time-limit $budget, 2 cores (load average $(cut -d" " -f1-3 /proc/loadavg))"
  code=0
  "$bin" solve "$out/$name.json" --time-limit "$budget" >"$out/$name.alone.txt" || code=$?
  grep -E '^(solver|status|wall time)' "$out/$name.alone.txt"
  echo "(exit $code)"
  rm -rf "${out:?}/$name.cubes"
  "$bin" split "$out/$name.json" --cubes "$k" --out "$out/$name.cubes" | tee "$out/$name.split.txt"
  n=$(find "$out/$name.cubes" -name 'cube-*.json' ! -name '*.result.json' | wc -l)
  job=$(sbatch --parsable --array=1-"$n" --cpus-per-task=1 --mem=1G --time=$(((${limit%.*} + 119) / 60)) \
    --output=/dev/null deploy/slurm/cubes.sbatch "$out/$name.cubes" --solver search --threads 1 --time-limit "$limit")
  wait_job "$job" | tee "$out/$name.array.txt"
  code=0
  "$bin" collect "$out/$name.cubes" --out "$out/$name.board.json" | tee "$out/$name.collect.txt" || code=$?
  echo "(collect exit $code)" | tee -a "$out/$name.collect.txt"
  if [ -f "$out/$name.board.json" ]; then
    "$bin" verify "$out/$name.json" "$out/$name.board.json" | tee "$out/$name.verify.txt"
  fi
}

board "${SAT_BOARD:-planted-13x13-f5i19-s3}" "${SAT_BUDGET:-10}" "${SAT_CUBES:-8}" "${SAT_LIMIT:-600}"
board "${UNSAT_BOARD:-planted-13x13-f5i19-s1-swapped}" "${UNSAT_BUDGET:-600}" "${UNSAT_CUBES:-16}" "${UNSAT_LIMIT:-600}"
