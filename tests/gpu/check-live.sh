#!/bin/sh
# check-live.sh — the live-capture check on a real GPU.
#
#   tests/gpu/check-live.sh build OUT     on any machine with CUDA 13's nvcc: builds the workload
#                                         (tests/gpu/workload.cu), a -Dgui=false suanli-cli and
#                                         libsuanli-inject.so, and copies them with the libraries
#                                         they need into OUT, with this script
#   OUT/check-live.sh run OUT             on the GPU machine (no installs needed): runs the workload
#                                         plain, injected but idle, and captured, and prints a table
#
# What the table says: kernel and copy counts in the capture against the workload's (exact);
# durations of the 200 µs kernels against their CUDA-event timings (within 10%); the NVTX ranges;
# the long loop's wall time injected-idle and captured against plain (aims ≤ 1% and ≤ 10%); and
# the 20,000-launch burst's, as a figure. Medians of three runs each. Exits 1 when a check fails.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu

mode=${1:-}
out=${2:-}
[ -n "$mode" ] && [ -n "$out" ] || { echo "usage: $0 build|run OUT" >&2; exit 2; }

if [ "$mode" = build ]; then
  source=$(cd "$(dirname "$0")/../.." && pwd)
  mkdir -p "$out/lib"
  /usr/local/cuda/bin/nvcc -O2 -std=c++17 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90 \
    -I/usr/local/cuda/include -o "$out/workload" "$source/tests/gpu/workload.cu"
  meson setup "$out/build" "$source" -Dgui=false -Dbuildtype=release >/dev/null
  meson compile -C "$out/build" suanli-cli suanli-inject >/dev/null
  cp "$out/build/app/suanli-cli" "$out/build/profiler/libsuanli-inject.so" "$out/"
  # The shared libraries suanli-cli needs past libc: the GPU machine may have none of them.
  ldd "$out/suanli-cli" | awk '/=> \// { print $3 }' | grep -v -E '/(libc|libm|libdl|libpthread|librt|ld-linux)[.-]' |
    while read -r library; do cp -L "$library" "$out/lib/"; done
  cp "$0" "$out/check-live.sh"
  echo "built into $out: copy it to the GPU machine and run: $out/check-live.sh run $out"
  exit 0
fi

[ "$mode" = run ] || { echo "usage: $0 build|run OUT" >&2; exit 2; }
cd "$out"
export LD_LIBRARY_PATH="$PWD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export SUANLI_INJECT_LIBRARY="$PWD/libsuanli-inject.so"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
failed=0

value() { awk -v key="$1" '$1 == key { print $2 }' "$2"; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
percent() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.2f%%", 100 * (a - b) / b }'; }
verdict() { if [ "$1" = ok ]; then echo "ok"; else failed=1; echo "FAIL"; fi; }

# Three runs of each kind: plain, injected but idle, captured.
for i in 1 2 3; do
  ./workload "plain-$i.txt"
  env CUDA_INJECTION64_PATH="$SUANLI_INJECT_LIBRARY" SUANLI_QUIET=1 ./workload "idle-$i.txt"
  ./suanli-cli record -o "capture-$i.suanli-capture" -- ./workload "captured-$i.txt" >/dev/null
done
./suanli-cli trace convert capture-1.suanli-capture capture-1.json >/dev/null

long_plain=$(for i in 1 2 3; do value long_wall_ms "plain-$i.txt"; done | median)
long_idle=$(for i in 1 2 3; do value long_wall_ms "idle-$i.txt"; done | median)
long_captured=$(for i in 1 2 3; do value long_wall_ms "captured-$i.txt"; done | median)
burst_plain=$(for i in 1 2 3; do value burst_wall_ms "plain-$i.txt"; done | median)
burst_idle=$(for i in 1 2 3; do value burst_wall_ms "idle-$i.txt"; done | median)
burst_captured=$(for i in 1 2 3; do value burst_wall_ms "captured-$i.txt"; done | median)

count() { grep -c "\"name\":\"$1\"" capture-1.json || true; }
long_seen=$(count suanli_long_kernel)
short_seen=$(count suanli_short_kernel)
htod_seen=$(count "Memcpy HtoD")
dtoh_seen=$(count "Memcpy DtoH")
nvtx_seen=$(grep -c -E '"name":"suanli_phase_(long|burst|copies)"' capture-1.json || true)

# Each long kernel's duration in the capture (µs, in launch order) against its event timing.
grep '"name":"suanli_long_kernel"' capture-1.json | sed 's/.*"ts":\([0-9.]*\),"dur":\([0-9.]*\).*/\1 \2/' | sort -n |
  tail -n 50 | awk '{ print $2 / 1000 }' > captured-ms.txt
awk '$1 == "long_event_ms" { print $3 }' captured-1.txt > event-ms.txt
worst=$(paste captured-ms.txt event-ms.txt | awk '{ d = ($1 - $2) / $2; if (d < 0) d = -d; if (d > w) w = d } END { printf "%.2f", 100 * w }')

printf '%-52s %-22s %s\n' "check" "measured" "verdict"
printf '%-52s %-22s %s\n' "suanli_long_kernel launches (51 with the warm-up)" "$long_seen" "$(verdict "$([ "$long_seen" = 51 ] && echo ok)")"
printf '%-52s %-22s %s\n' "suanli_short_kernel launches (20000)" "$short_seen" "$(verdict "$([ "$short_seen" = 20000 ] && echo ok)")"
printf '%-52s %-22s %s\n' "copies HtoD / DtoH (10 / 10)" "$htod_seen / $dtoh_seen" "$(verdict "$([ "$htod_seen" = 10 ] && [ "$dtoh_seen" = 10 ] && echo ok)")"
printf '%-52s %-22s %s\n' "NVTX ranges (3)" "$nvtx_seen" "$(verdict "$([ "$nvtx_seen" = 3 ] && echo ok)")"
printf '%-52s %-22s %s\n' "200 us kernels vs CUDA events, worst difference" "$worst%" "$(verdict "$(awk -v w="$worst" 'BEGIN { if (w <= 10) print "ok" }')")"
printf '%-52s %-22s %s\n' "long loop: injected idle vs plain (aim <= 1%)" "$(percent "$long_idle" "$long_plain")" "$(verdict "$(awk -v a="$long_idle" -v b="$long_plain" 'BEGIN { if (a <= b * 1.01) print "ok" }')")"
printf '%-52s %-22s %s\n' "long loop: captured vs plain (aim <= 10%)" "$(percent "$long_captured" "$long_plain")" "$(verdict "$(awk -v a="$long_captured" -v b="$long_plain" 'BEGIN { if (a <= b * 1.10) print "ok" }')")"
printf '%-52s %-22s %s\n' "burst of 20000 launches: idle vs plain" "$(percent "$burst_idle" "$burst_plain")" "(figure)"
printf '%-52s %-22s %s\n' "burst of 20000 launches: captured vs plain" "$(percent "$burst_captured" "$burst_plain")" "(figure)"
printf 'medians of 3 runs: long loop %s / %s / %s ms, burst %s / %s / %s ms (plain / idle / captured)\n' \
  "$long_plain" "$long_idle" "$long_captured" "$burst_plain" "$burst_idle" "$burst_captured"
exit $failed
