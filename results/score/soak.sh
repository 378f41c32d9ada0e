#!/usr/bin/env bash
# A week, compressed: a score search on the official set (centre clue) for
# MINUTES minutes of wall time, killed with SIGKILL at KILLS random moments and
# resumed from its checkpoint each time (the same command: the checkpoint
# keeps the seed, the plan, the attempts and the time spent). Checks that the
# best score never goes down across a kill, that the checkpoint's seconds add
# up to the time run (less at most one checkpoint interval per kill), that no
# attempt seed is walked twice across the segments (EDGEMATCH_ATTEMPT_TRACE),
# and that the last board verifies. With COMPARE=1, one unbroken run of the
# same length runs alongside (started with the first segment, so both see the
# same machine), and the placements of all segments (the checkpoint's, so
# work lost to a kill counts as lost) must be within 5% of its. With CPUS set
# (a taskset list, e.g. CPUS=0), both runs are pinned there, leaving the other
# cores free.
# Writes OUT/soak.md (the table) and keeps each segment's log.
#
#   [COMPARE=1] [CPUS=LIST] [BIN=PATH] bash results/score/soak.sh [MINUTES [KILLS [OUT [THREADS]]]]
#
# BIN is the binary to soak (default target/release/edgematch, built if
# missing): give a copy when you build while the soak runs.
#
# KILLS is a count (kills at random moments) or MIN-MAX in minutes (a kill
# every MIN to MAX minutes, each gap drawn at random). Defaults: 30 minutes,
# 5 kills, results/score/soak, 2 threads. `.ci/run` runs a short one
# (1 minute, 5 kills) in a temporary folder.
set -euo pipefail
cd "$(dirname "$0")/../.."
minutes=${1:-30}
kills=${2:-5}
kills_arg=$kills
out=${3:-results/score/soak}
threads=${4:-2}
every=5
bin=${BIN:-target/release/edgematch}
commit=$(git rev-parse --short HEAD)
[ -x "$bin" ] || cargo build --release --quiet
mkdir -p "$out"
rm -rf "$out"/best.json "$out"/run.checkpoint.json "$out"/trace.jsonl "$out"/segment-*.log "$out"/seeds.txt "$out"/unbroken
pieces=data/official/pieces.txt
clue=data/official/clue-centre.txt
total=$((minutes * 60))

pin=()
[ -n "${CPUS:-}" ] && pin=(taskset -c "$CPUS")

# The kill moments: KILLS distinct seconds in (10, total - 10), sorted; or,
# for MIN-MAX, gaps of MIN to MAX minutes until 10 s before the end.
moments=$(python3 -c "
import random
total, kills = $total, '$kills'
random.seed()
if '-' in kills:
    low, high = (int(m) * 60 for m in kills.split('-'))
    at, moments = 0, []
    while True:
        at += random.randint(low, high)
        if at >= total - 10:
            break
        moments.append(at)
else:
    span = range(10, max(total - 10, 12))
    moments = sorted(random.sample(span, min(int(kills), len(span))))
print(' '.join(str(m) for m in moments))
")
kills=$(wc -w <<<"$moments")

# The checker's score of the board in --out, and the checkpoint's seconds.
score_of() {
  { "$bin" verify "$pieces" "$out/best.json" --clues "$clue" 2>/dev/null || true; } | sed -n 's/^score: \([0-9]*\)\/.*/\1/p' | tail -1
}
seconds_of() {
  python3 -c "import json; print(round(json.load(open('$out/run.checkpoint.json'))['seconds'], 1))"
}

# Runs one segment until wall second $1 of the soak (killing it there with
# SIGKILL when $2 is "kill"), with the time limit left.
segment() {
  local until=$1 how=$2 k=$3
  local args=(solve "$pieces" --clues "$clue" --objective score --solver search --threads "$threads"
    --time-limit "$total" --checkpoint "$out/run.checkpoint.json" --checkpoint-every "$every"
    --out "$out/best.json" --trace "$out/trace.jsonl")
  EDGEMATCH_ATTEMPT_TRACE="$out/seeds.txt" ${pin[@]+"${pin[@]}"} "$bin" "${args[@]}" >"$out/segment-$k.log" 2>&1 &
  local pid=$!
  if [ "$how" = kill ]; then
    sleep $((until - ($(date +%s) - start)))
    kill -9 "$pid"
    wait "$pid" 2>/dev/null || true
  else
    wait "$pid" || true
  fi
}

# The unbroken run of the same length, alongside the segments.
unbroken_pid=
if [ "${COMPARE:-0}" = 1 ]; then
  mkdir -p "$out/unbroken"
  ${pin[@]+"${pin[@]}"} "$bin" solve "$pieces" --clues "$clue" --objective score --solver search --threads "$threads" \
    --time-limit "$total" --checkpoint "$out/unbroken/run.checkpoint.json" --checkpoint-every "$every" \
    --out "$out/unbroken/best.json" >"$out/unbroken/run.log" 2>&1 &
  unbroken_pid=$!
fi

start=$(date +%s)
rows=()
failed=0
last_score=0
k=1
for moment in $moments; do
  segment "$moment" kill "$k"
  score=$(score_of)
  seconds=$( [ -f "$out/run.checkpoint.json" ] && seconds_of || echo 0)
  echo "soak: kill $k at ${moment} s: --out scores ${score:-none}, checkpoint at ${seconds} s" >&2
  if [ -n "$score" ] && [ "$score" -lt "$last_score" ]; then
    echo "soak: the best score went down: $last_score -> $score" >&2
    failed=1
  fi
  last_score=${score:-$last_score}
  rows+=("| $k | $moment | ${score:-none} | $seconds |")
  k=$((k + 1))
done
segment "$total" end "$k"
end=$(($(date +%s) - start))

# The resumptions each segment printed, and the end.
resumed=$(grep -h '^resumed:' "$out"/segment-*.log | sed 's/^resumed: [^ ]* //' || true)
final_score=$(score_of)
final_score=${final_score:-0}
final_seconds=$(seconds_of)
if [ "$final_score" -lt "$last_score" ]; then
  echo "soak: the final score $final_score is below the last kill's $last_score" >&2
  failed=1
fi
lost=$(python3 -c "print(round($end - $final_seconds, 1))")
# Each kill may lose the seconds since the last checkpoint, plus the restart.
allowed=$(python3 -c "print($kills * ($every + 10) + 10)")
if python3 -c "import sys; sys.exit(0 if -2 <= $lost <= $allowed else 1)"; then :; else
  echo "soak: the checkpoint's seconds ($final_seconds) do not add up to the $end s run (lost $lost s, allowed $allowed)" >&2
  failed=1
fi
verdict=$({ "$bin" verify "$pieces" "$out/best.json" --clues "$clue" || true; } | sed -n 's/^verdict: //p')
# Every attempt seed of every segment, once.
seeds=$(wc -l <"$out/seeds.txt")
repeated=$(awk '{print $4}' "$out/seeds.txt" | sort | uniq -d | wc -l)
if [ "$repeated" != 0 ]; then
  echo "soak: $repeated attempt seeds were walked twice" >&2
  failed=1
fi
placements_of() {
  python3 -c "import json; print(json.load(open('$1'))['run'].get('placements', 0))"
}
placements=$(placements_of "$out/run.checkpoint.json")
compared="(no unbroken run: COMPARE=1 runs one)"
if [ -n "$unbroken_pid" ]; then
  wait "$unbroken_pid" || true
  unbroken=$(placements_of "$out/unbroken/run.checkpoint.json")
  ratio=$(python3 -c "print(round($placements / max($unbroken, 1), 4))")
  compared="against $unbroken in one unbroken run of $total s alongside (ratio $ratio; it scored $(sed -n 's/^best board found: score \([0-9]*\).*/\1/p' "$out/unbroken/run.log"))"
  if python3 -c "import sys; sys.exit(0 if $ratio >= 0.95 else 1)"; then :; else
    echo "soak: the segments made $placements placements, $ratio of the unbroken run's" >&2
    failed=1
  fi
fi
{
  echo "# Soak: a score search killed $kills times and resumed"
  echo
  echo "Made by \`${COMPARE:+COMPARE=$COMPARE }${CPUS:+CPUS=$CPUS }bash results/score/soak.sh $minutes $kills_arg $out $threads\` at commit $commit,"
  echo "OR-Tools 9.15.6755, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) at the end. The official"
  echo "set with its centre clue, \`solve --objective score --solver search --threads $threads\`,"
  echo "checkpoint every $every s; SIGKILL at random moments, each segment resuming from the checkpoint$( [ -n "${CPUS:-}" ] && echo "; both runs pinned to CPUs $CPUS")."
  echo
  echo "| kill | at wall second | --out's score after the kill (checker) | checkpoint seconds |"
  echo "|---:|---:|---:|---:|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "Each resumed segment printed (score and seconds it resumed from):"
  echo
  echo '```'
  echo "$resumed"
  echo '```'
  echo
  echo "End: $end s of wall time; the checkpoint counts $final_seconds s (lost to the kills: $lost s,"
  echo "at most one checkpoint interval and a restart per kill allowed: $allowed s); the last board"
  echo "scores $final_score, verdict: $verdict. Attempt seeds walked: $seeds, repeated: $repeated."
  echo "Placements of all segments (to each one's last checkpoint): $placements, $compared."
  echo
  if [ "$failed" = 0 ]; then
    echo "Checks: the best score never went down across a kill; the seconds add up; no attempt seed was walked twice; the last board verifies$( [ "${COMPARE:-0}" = 1 ] && echo "; the placements are within 5% of the unbroken run's"). All held."
  else
    echo "Checks FAILED: see the messages above."
  fi
} >"$out/soak.md"
cat "$out/soak.md"
exit "$failed"
