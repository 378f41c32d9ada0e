#!/usr/bin/env bash
# The runs behind the plan's two new defaults (issue 40), on the boards they were
# tuned on (planted 13x13 5+17 s1 and s2), seeds 1 and 2, 45 s each, each run
# alone on both cores, logs in results/score/plan-sweep/, summary in its README:
#   strips: the default order (band-sw-s3 on these boards) against the rows one by
#     one (band-sw, the published order) and strips of 2 and 4, one binary;
#   stall: the commit before the stall was scaled by depth (b8e7497) against the
#     commit that scaled it (13d0705), both in the published order (neither has
#     strips), each built from its own commit in a scratch worktree.
# Resumable: a log that exists is not run again.
# Usage: bash results/score/plan-sweep.sh [path/to/edgematch]
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
bin=${1:-target/release/edgematch}
out=results/score/plan-sweep
mkdir -p "$out"
boards=(models/planted-13x13-f5i17-s1.json models/planted-13x13-f5i17-s2.json)
seconds=45

# One run: NAME BINARY SEED BOARD [FLAGS...]; its log is $out/NAME-BOARD-sSEED.log.
run() {
  local name=$1 binary=$2 seed=$3 board=$4
  shift 4
  local log
  log="$out/$name-$(basename "$board" .json)-s$seed.log"
  [ -s "$log" ] && return 0
  "$binary" solve "$board" --objective score --solver search --time-limit "$seconds" --seed "$seed" "$@" >"$log.tmp" 2>&1 || true
  mv "$log.tmp" "$log"
  echo "$name $board seed $seed: $(grep -o 'best board found: score [0-9]*' "$log" | awk '{print $5}')"
}

# The binary of COMMIT, built once in a scratch worktree (OR-Tools' unpacked
# wheel reused; one target folder for both commits, so their crates build once)
# and copied out beside it.
built() {
  local commit=$1 dir="$root/target/plan-sweep/$1"
  if [ ! -x "$dir.bin" ]; then
    rm -rf "$dir" && git worktree add --detach "$dir" "$commit" >/dev/null
    cp -r "$root"/vendor/ortools-* "$dir/vendor/" 2>/dev/null || true
    (cd "$dir" && CARGO_TARGET_DIR="$root/target/plan-sweep/target" cargo build --release --quiet)
    cp "$root/target/plan-sweep/target/release/edgematch" "$dir.bin"
  fi
  echo "$dir.bin"
}

for seed in 1 2; do
  for board in "${boards[@]}"; do
    run strips-default "$bin" "$seed" "$board"
    run strips-1 "$bin" "$seed" "$board" --fill-order band-sw
    run strips-2 "$bin" "$seed" "$board" --fill-order band-sw-s2
    run strips-4 "$bin" "$seed" "$board" --fill-order band-sw-s4
  done
done
before=$(built b8e7497)
after=$(built 13d0705)
for seed in 1 2; do
  for board in "${boards[@]}"; do
    run stall-before "$before" "$seed" "$board"
    run stall-after "$after" "$seed" "$board"
  done
done

# The summary: best score and the attempts' depths of every log.
{
  echo "# The plan's defaults, on the boards they were tuned on"
  echo
  echo "Made by \`bash results/score/plan-sweep.sh\` at commit $(git rev-parse --short HEAD) ($(nproc) cores, OR-Tools 9.15.6755); each run ${seconds} s alone on both cores."
  echo
  echo "| run | board | seed | best | order | attempts | attempts by depth (deepest eight) |"
  echo "|---|---|---|---|---|---|---|"
  for log in "$out"/*.log; do
    name=$(basename "$log" .log)
    best=$(grep -o 'best board found: score [0-9]*' "$log" | awk '{print $5}')
    order=$(grep -o '^plan: order [a-z0-9-]*' "$log" | awk '{print $3}')
    attempts=$(grep '^attempts:' "$log" | awk '{print $2}')
    depths=$(grep '^attempts_by_depth:' "$log" | cut -d' ' -f2-)
    board=$(echo "$name" | grep -o 'planted-[0-9x]*-f5i17-s[0-9]*')
    seed=${name##*-s}
    echo "| ${name%%-planted*} | $board | $seed | ${best:-none} | $order | $attempts | $depths |"
  done
} >"$out/README.md"
cat "$out/README.md"
