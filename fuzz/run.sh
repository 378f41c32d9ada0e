#!/usr/bin/env bash
# Fuzzes each target in turn, one job at a time at low priority, for SECONDS
# each (default 600), logging to logs/<target>.log. Usage (from fuzz/):
#   ./run.sh [SECONDS] [TARGET...]
# Needs nightly and cargo-fuzz. The targets are built once (`cargo fuzz build`)
# and then run directly, so that edits to the crate during a long session do
# not rebuild them between targets. They run without a sanitizer (`-s none`:
# the readers are safe Rust) and with debug assertions, so an overflow is a
# finding like a panic.
set -uo pipefail
cd "$(dirname "$0")"
seconds=${1:-600}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cargo +nightly fuzz list)
fi
[ -n "${SKIP_BUILD:-}" ] || nice -n 10 cargo +nightly fuzz build -s none -a || exit 1
bin_dir=${CARGO_TARGET_DIR:-target}/x86_64-unknown-linux-gnu/release
mkdir -p logs
for t in "${targets[@]}"; do
  echo "== $t ($seconds s) $(date -u +%H:%M:%S)"
  mkdir -p "corpus/$t" "artifacts/$t"
  nice -n 10 "$bin_dir/$t" -artifact_prefix="artifacts/$t/" -max_total_time="$seconds" -rss_limit_mb=2048 \
    -timeout=10 "corpus/$t" >"logs/$t.log" 2>&1
  echo "exit $? ; $(grep -E '^Done' "logs/$t.log" | tail -n 1)"
done
