#!/bin/sh
# The ui suite on a busy machine: two busy loops take the CPUs while the suite runs RUNS times
# (5 by default). Every run must pass; the first failure stops it, its log kept.
# Usage: test-stress.sh BUILD_DIR [RUNS]
set -eu
build=$1
runs=${2:-5}
busy=""
stop_busy() {
  for pid in $busy; do kill "$pid" 2>/dev/null || true; done
}
trap stop_busy EXIT INT TERM

for i in 1 2; do
  # Bounded even if this script is killed too hard to clean up: an hour at most.
  timeout 3600 sh -c 'while :; do :; done' &
  busy="$busy $!"
done
echo "two busy loops running:$busy (load average now: $(cut -d' ' -f1-3 /proc/loadavg))"

passed=0
for run in $(seq 1 "$runs"); do
  started=$(date +%s)
  if meson test -C "$build" --suite ui --print-errorlogs > "$build/meson-logs/stress-$run.txt" 2>&1; then
    passed=$((passed + 1))
    echo "run $run of $runs: passed in $(( $(date +%s) - started )) s (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  else
    echo "run $run of $runs: FAILED after $(( $(date +%s) - started )) s; its log: $build/meson-logs/stress-$run.txt"
    grep -E '^ *[0-9]+/[0-9]+ .*(FAIL|ERROR|TIMEOUT)' "$build/meson-logs/stress-$run.txt" || true
    echo "$passed passed, 1 failed"
    exit 1
  fi
done
echo "$passed passed, 0 failed"
