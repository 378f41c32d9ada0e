#!/usr/bin/env bash
# Issue 41's completion-scaling table: the official set with its centre clue,
# SECONDS each, one run after the other on this machine's cores:
#   2 walks + the default workers, 8 walks + the default workers, 8 walks + 1
#   worker (the pool before), 2 walks without completions (the walks' rate alone).
# Writes OUT/table.md from the runs' `completions_by_depth:` and `nodes_per_second:` lines.
#
#   bash results/score/completion-scaling.sh [SECONDS [OUT]]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
out=${2:-results/score/completion-scaling}
bin=target/release/edgematch
[ -x "$bin" ] || cargo build --release --quiet
mkdir -p "$out"
board=(data/official/pieces.txt --clues data/official/clue-centre.txt)
run() {
  local name=$1; shift
  "$bin" solve "${board[@]}" --objective score --solver search --time-limit "$seconds" --heartbeat 0 "$@" \
    > "$out/$name.log" 2>&1 || true
}
run threads-2 --threads 2
run threads-8 --threads 8
run threads-8-one-worker --threads 8 --completers 1
run threads-2-no-completion --threads 2 --completion none
python3 - "$out" "$seconds" "$(git rev-parse --short HEAD)$(git diff --quiet || echo -dirty)" "$(nproc)" <<'PY'
import re, sys, pathlib
out, seconds, commit, cores = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
def line(text, key):
    m = re.search(rf"^{key}: (.*)$", text, re.M)
    return m.group(1) if m else ""
rows = []
for name in ["threads-2", "threads-8", "threads-8-one-worker", "threads-2-no-completion"]:
    text = (out / f"{name}.log").read_text()
    depths = [tuple(int(x) for x in re.split("[:/]", part)) for part in line(text, "completions_by_depth").split() if part != "-"]
    top = depths[:2]
    done = sum(c for _, c, _ in top)
    offered = sum(o for _, _, o in top)
    share = f"{done}/{offered} = {done / offered:.3f}" if offered else "-"
    rows.append((name, line(text, "nodes_per_second"), line(text, "placements_per_walk_cpu_second"), line(text, "completions"), " ".join(line(text, "completions_by_depth").split()[:4]), share, line(text, "best_breaks")))
with open(out / "table.md", "w") as f:
    f.write(f"Made by `bash results/score/completion-scaling.sh {seconds}` at commit {commit}, OR-Tools 9.15.6755, {cores} cores; each run alone, one after the other.\n\n")
    f.write("| run | placements/s (all walks) | placements per walk-CPU-second | completions | by depth (DEPTH:COMPLETED/OFFERED) | completed share, two deepest depths | best breaks |\n|---|---|---|---|---|---|---|\n")
    for r in rows:
        f.write("| " + " | ".join(r) + " |\n")
print((out / "table.md").read_text())
PY
