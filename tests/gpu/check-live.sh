#!/bin/sh
# check-live.sh — the live-capture check on a real GPU, in one run of at most 10 minutes.
#
#   tests/gpu/check-live.sh build OUT    HERE (Debian 12, CUDA 13's nvcc in /usr/local/cuda/bin):
#                                        builds a -Dgui=false suanli-cli and libsuanli-inject.so in
#                                        an environment without the GUI's programs and libraries
#                                        (check-headless-build.sh), the CUDA workload for sm_90 with
#                                        PTX, and copies them into OUT with the shared libraries
#                                        suanli-cli needs, glibc's loader and libc included, and
#                                        this script, check-live.py, train.py and workload.cu
#   OUT/check-live.sh run OUT            THERE (the GPU machine: CUDA 13, PyTorch 2.x with its own
#                                        libcupti, Python 3.12, nothing installed, no network):
#                                        runs every step under `timeout`, within SUANLI_GPU_BUDGET_S
#                                        (540 s), and prints the table, even when rows fail or
#                                        cannot run. Its files are in OUT/results
#   tests/gpu/check-live.sh selftest WORK SUANLI-CLI WORKLOAD-CAPTURE [TORCH-PYTHON]
#                                        anywhere, no GPU: the table code over captures made as the
#                                        workload's would be (workload-capture.c), through the real
#                                        suanli-cli, with right and wrong inputs; and train.py on
#                                        the CPU when TORCH-PYTHON has torch. The `gpu-check` test.
#
# OUT must be inside the repository and ignored (e.g. _build-gpu) to travel to the GPU machine:
#   tests/gpu/check-live.sh build _build-gpu
#   device run: carry ["_build-gpu"], timeout_s 600, command
#     _build-gpu/check-live.sh run _build-gpu; s=$?; cp _build-gpu/results/table.txt _build-gpu/results/log.txt $OUT/; exit $s
#
# The workload (workload.cu) runs plain, injected but idle (`suanli-cli run`) and recorded
# (`suanli-cli record --`), three times each; recorded once with `--stack-depth 0`, and twice at
# once under `record -- sh -c` (one file, a stream each); then once as a job waiting between rounds,
# recorded twice with `suanli-cli record --attach PID`. train.py (a small transformer's training loop) runs
# plain and idle twice each, recorded once, under torch.profiler once, and in both orders of
# torch.profiler and a capture in one job (PyTorch 2.11: torch.profiler inside `record --` has no
# GPU work of its own, the capture has it all and its summary says why). check-live.py makes the table from what they wrote.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu

mode=${1:-}
out=${2:-}
usage() {
  echo "usage: $0 build OUT | run OUT | selftest WORK SUANLI-CLI WORKLOAD-CAPTURE [TORCH-PYTHON]" >&2
  exit 2
}
[ -n "$mode" ] && [ -n "$out" ] || usage
here=$(cd "$(dirname "$0")" && pwd)

# ---- build (here) -------------------------------------------------------------------------------

# The highest GLIBC_ symbol version a binary needs, e.g. 2.34.
glibc_needed() {
  objdump -T "$1" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n 1
}

if [ "$mode" = build ]; then
  source=$(cd "$here/../.." && pwd)
  nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
  build="$source/_build-gpu-cli"
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
  rm -rf "$out/lib" "$out/results"
  mkdir -p "$out/lib"

  # The workload, for the H200 (sm_90) with PTX for anything newer; libstdc++ stays the image's.
  "$nvcc" -O2 -std=c++17 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90 \
    -Xcompiler -rdynamic -o "$out/workload" "$here/workload.cu"

  # suanli-cli and the injection library as a GPU server builds them: no GUI programs or libraries.
  "$here/check-headless-build.sh" "$source" "$build" suanli-cli suanli-inject -- -Dbuildtype=release
  cp "$build/app/suanli-cli" "$build/profiler/libsuanli-inject.so" "$out/"

  # Everything suanli-cli links, glibc too: the GPU image may have another glibc, or none of the
  # rest. It runs there through the carried loader (--library-path), so nothing of this reaches
  # the jobs it starts, which keep the image's own libraries.
  ldd "$out/suanli-cli" | awk '/=> \// { print $3 } /^[[:space:]]*\/.*ld-linux/ { print $1 }' |
    while read -r library; do cp -L "$library" "$out/lib/"; done
  [ -e "$out/lib/ld-linux-x86-64.so.2" ] || { echo "check-live.sh: no loader found for suanli-cli" >&2; exit 1; }
  strip --strip-unneeded "$out/suanli-cli" "$out"/lib/*.so* 2>/dev/null || true

  cp "$here/check-live.sh" "$here/check-live.py" "$here/train.py" "$here/workload.cu" "$out/"
  chmod +x "$out/check-live.sh" "$out/check-live.py"
  {
    echo "built_on $(uname -n) $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "build_glibc $(ldd --version | head -n 1 | awk '{ print $NF }')"
    echo "inject_needs_glibc $(glibc_needed "$out/libsuanli-inject.so")"
    echo "inject_links $(readelf -d "$out/libsuanli-inject.so" | awk '/NEEDED/ { gsub(/[][]/, "", $5); printf "%s ", $5 }')"
    echo "workload_needs_glibc $(glibc_needed "$out/workload")"
    echo "workload_needs_glibcxx $(objdump -T "$out/workload" | grep -o 'GLIBCXX_[0-9.]*' | sort -uV | tail -n 1)"
    echo "cli_needs_glibc $(glibc_needed "$out/suanli-cli") (carried: $(ls "$out/lib" | tr '\n' ' '))"
  } > "$out/manifest.txt"
  size=$(du -sk "$out" | awk '{ print $1 }')
  cat "$out/manifest.txt"
  echo "built into $out: $size KiB"
  if [ "$size" -gt 65536 ]; then
    echo "check-live.sh: $out is over 64 MiB and cannot travel" >&2
    exit 1
  fi
  echo "on the GPU machine: $out/check-live.sh run $out"
  exit 0
fi

# ---- selftest (no GPU) --------------------------------------------------------------------------

if [ "$mode" = selftest ]; then
  [ $# -ge 4 ] || usage
  cli=$3
  generate=$4
  torch_python=${5:-}
  python=${PYTHON:-python3}
  rm -rf "$out"
  mkdir -p "$out"
  results="$out/results"
  mkdir -p "$results"
  failures=0
  expect() {   # expect VERDICTS.json CHECK-SUBSTRING VERDICT
    got=$("$python" -c '
import json, sys
verdicts = json.load(open(sys.argv[1]))
rows = [v for k, v in verdicts.items() if sys.argv[2] in k]
print(rows[0] if len(rows) == 1 else f"{len(rows)} rows match")' "$1" "$2")
    if [ "$got" = "$3" ]; then
      echo "ok: \"$2\" is $3"
    else
      echo "NOT OK: \"$2\" is $got, expected $3"
      failures=$((failures + 1))
    fi
  }

  # Does this suanli-cli demangle kernel names yet? The rows on names follow it.
  "$generate" attach "$out/probe.suanli-capture" "$out/probe.txt"
  "$cli" trace convert "$out/probe.suanli-capture" "$out/probe.json" 2>/dev/null
  if grep -q '"suanli_long_kernel(long long, int\*)"' "$out/probe.json"; then demangled=ok; else demangled=FAIL; fi
  echo "suanli-cli demangles kernel names: $demangled"

  fill() {   # fill RESULTS [GENERATOR-OPTION…]: a run's files, every step "ok"
    r=$1
    shift
    "$generate" launch "$r/capture-1.suanli-capture" "$r/captured-1.txt" "$r/kineto.json" "$@"
    for i in 2 3; do
      "$generate" launch "$r/capture-$i.suanli-capture" "$r/captured-$i.txt"
    done
    for i in 1 2 3; do
      "$generate" launch "$r/plain-$i.suanli-capture" "$r/plain-$i.txt" --long-wall-ms 10.7
      "$generate" launch "$r/idle-$i.suanli-capture" "$r/idle-$i.txt" --long-wall-ms 10.75
      rm "$r/plain-$i.suanli-capture" "$r/idle-$i.suanli-capture"
    done
    "$generate" attach "$r/attach-1.suanli-capture" "$r/attach.txt" --rounds 3 --long-wall-ms 10.72
    "$generate" attach "$r/attach-2.suanli-capture" "$r/attach-2.txt"
    echo "idle capturing idle capturing idle" > "$r/attach-states.txt"
    cp "$r/capture-1.suanli-capture" "$r/train.suanli-capture"
    "$generate" attach "$r/train-e.suanli-capture" "$r/train-e.txt" --end-reason 2
    cp "$r/kineto.json" "$r/kineto-e.json"
    cp "$r/kineto.json" "$r/kineto-f.json"
    echo "suanli-cli record: ERROR cuptiSubscribe failed: CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED: another tool holds CUPTI" \
      > "$r/record-f.log"
    # torch.profiler inside record (PyTorch 2.11): Kineto's trace without GPU work, the summary saying why.
    "$python" -c '
import json, sys
trace = json.load(open(sys.argv[1]))
events = trace["traceEvents"] if isinstance(trace, dict) else trace
json.dump({"traceEvents": [e for e in events if e.get("cat") != "kernel"]}, open(sys.argv[2], "w"))' \
      "$r/kineto.json" "$r/kineto-e.json"
    cp "$r/capture-1.suanli-capture" "$r/train-e.suanli-capture"
    echo "PyTorch runs in this job … a torch.profiler run during it recorded no GPU work … traces the CPU only" \
      > "$r/train-e.summary.txt"
    "$generate" launch "$r/captured-nostacks.txt.capture" "$r/captured-nostacks.txt"
    "$generate" launch "$r/multi-a.capture" "$r/multi-a.txt"
    "$generate" launch "$r/multi-b.capture" "$r/multi-b.txt"
    cat "$r/multi-a.capture" "$r/multi-b.capture" > "$r/multi.suanli-capture"
    for name in capture-1 capture-2 capture-3 attach-1 attach-2 train; do
      "$cli" trace convert "$r/$name.suanli-capture" "$r/$name.json"
    done
    for name in plain-1 plain-2 idle-1 idle-2 captured kineto e f; do
      echo "{\"median_step_ms\": 10.0}" > "$r/train-$name.json"
    done
    echo '{"median_step_ms": 10.05}' > "$r/train-idle-1.json"
    echo '{"median_step_ms": 10.6}' > "$r/train-captured.json"
    for step in captured-1 captured-2 captured-3 plain-1 plain-2 plain-3 idle-1 idle-2 idle-3 \
                convert-capture-1 convert-capture-2 convert-capture-3 attach-1 attach-2 attach-3 \
                convert-attach-1 convert-attach-2 train-plain-1 train-plain-2 train-idle-1 train-idle-2 \
                train-captured convert-train train-kineto train-e train-f captured-nostacks multi summary-train-e; do
      echo "$step ok 1"
    done > "$r/steps.txt"
  }

  # Right inputs: every row ok, but those on names where suanli-cli does not demangle yet.
  fill "$results"
  "$python" "$here/check-live.py" "$results" --json "$out/verdicts.json" > "$out/table.txt" || true
  cat "$out/table.txt"
  for row in "kernels per run" "copies: directions" "durations >= 100 us" "grid, block and registers" \
             "streams:" "NVTX ranges" "CPU and GPU clocks" "a flow from every launch" "every launch path" \
             "a launch stack on every kernel" "launch mode holds" "overhead idle" "overhead capturing" \
             "second START/STOP" "no record dropped" "train: total kernel time" "train: step time idle" \
             "train: step time capturing" "torch.profiler inside record" "attaching while torch.profiler" \
             "lists the job's GPUs" "record -- sh -c"; do
    expect "$out/verdicts.json" "$row" ok
  done
  for row in "kernel names demangled as Kineto" "train: kernel counts per name" "train: kernel names demangled"; do
    expect "$out/verdicts.json" "$row" "$demangled"
  done

  # Wrong inputs: a kernel lost, idle steps 5% slower, a step skipped and one timed out; those rows, only.
  wrong="$out/wrong"
  mkdir -p "$wrong"
  fill "$wrong"
  "$generate" launch "$wrong/capture-2.suanli-capture" "$wrong/captured-2.txt" --lose-kernel
  "$cli" trace convert "$wrong/capture-2.suanli-capture" "$wrong/capture-2.json"
  echo '{"median_step_ms": 10.5}' > "$wrong/train-idle-1.json"
  echo '{"median_step_ms": 10.5}' > "$wrong/train-idle-2.json"
  sed -i 's/^train-f ok 1$/train-f skipped 0 no time left/; s/^train-e ok 1$/train-e timeout 90 ran past its limit/' \
    "$wrong/steps.txt"
  "$python" "$here/check-live.py" "$wrong" --json "$out/wrong-verdicts.json" > "$out/wrong-table.txt" && {
    echo "NOT OK: check-live.py exited 0 on wrong inputs"; failures=$((failures + 1)); }
  cat "$out/wrong-table.txt"
  expect "$out/wrong-verdicts.json" "kernels per run" FAIL
  expect "$out/wrong-verdicts.json" "train: step time idle" FAIL
  expect "$out/wrong-verdicts.json" "attaching while torch.profiler" "NOT RUN"
  expect "$out/wrong-verdicts.json" "torch.profiler inside record" FAIL
  expect "$out/wrong-verdicts.json" "durations >= 100 us" ok
  expect "$out/wrong-verdicts.json" "a flow from every launch" ok
  grep -q "could not run: suanli-cli attaching while torch.profiler holds CUPTI" "$out/wrong-table.txt" ||
    { echo "NOT OK: the table does not say which row could not run"; failures=$((failures + 1)); }

  # A real Kineto trace (a GPU training step from tests/data/kineto, when SUANLI_FIXTURES_DIR names it) against suanli-cli's
  # reading of it: the same kernels per name and the same GPU time.
  fixture="${SUANLI_FIXTURES_DIR:-}/timeline_analysis__sampled_rank-0.json.gz"
  if [ -f "$fixture" ]; then
    real="$out/real-kineto"
    mkdir -p "$real"
    "$python" -c 'import gzip, shutil, sys; shutil.copyfileobj(gzip.open(sys.argv[1]), open(sys.argv[2], "wb"))' \
      "$fixture" "$real/kineto.json"
    "$cli" trace convert "$fixture" "$real/train.json"
    printf 'train-captured ok 1\nconvert-train ok 1\ntrain-kineto ok 1\n' > "$real/steps.txt"
    "$python" "$here/check-live.py" "$real" --json "$out/real-verdicts.json" > "$out/real-table.txt" || true
    grep "train: kernel counts\|train: total kernel" "$out/real-table.txt"
    expect "$out/real-verdicts.json" "train: kernel counts per name" ok
    expect "$out/real-verdicts.json" "train: total kernel time" ok
  else
    echo "a real Kineto trace: not read (no $fixture)"
  fi

  # train.py on the CPU: its loop, its report and torch.profiler's trace, with a small model.
  if [ -n "$torch_python" ] && "$torch_python" -c 'import torch' 2>/dev/null; then
    "$torch_python" "$here/train.py" --device cpu --steps 4 --warm-up 1 --layers 1 --d-model 32 --sequence 16 \
      --batch 2 --report "$out/train-cpu.json" --profile "$out/kineto-cpu.json"
    "$python" - "$out/train-cpu.json" "$out/kineto-cpu.json" <<'EOF' || failures=$((failures + 1))
import json, sys
report = json.load(open(sys.argv[1]))
trace = json.load(open(sys.argv[2]))
events = trace["traceEvents"] if isinstance(trace, dict) else trace
# Operators: "cpu_op" in PyTorch 2.x, no category in 1.13.
ops = [e for e in events if e.get("ph") == "X" and e.get("name", "").startswith("aten::")]
assert report["steps"] == 4 and len(report["step_ms"]) == 4, report
assert report["median_step_ms"] > 0 and report["loss_last"] == report["loss_last"], report
assert ops, "no aten:: operators in torch.profiler's trace"
print(f"ok: train.py on the CPU: 4 steps, median {report['median_step_ms']:.2f} ms, loss "
      f"{report['loss_first']:.3f} to {report['loss_last']:.3f}, {len(ops)} CPU operators in its trace")
EOF
  else
    echo "train.py on the CPU: not run (no python with torch given)"
  fi
  echo "selftest: $failures failed"
  [ "$failures" -eq 0 ]
  exit
fi

# ---- run (on the GPU machine) --------------------------------------------------------------------

[ "$mode" = run ] || usage
cd "$out"
out=$PWD
results="$out/results"
rm -rf "$results"
mkdir -p "$results/signals"
log="$results/log.txt"
: > "$log"
steps="$results/steps.txt"
: > "$steps"
budget=${SUANLI_GPU_BUDGET_S:-540}
started=$(date +%s)
export LC_ALL=C.UTF-8 PYTHONUNBUFFERED=1
export SUANLI_INJECT_LIBRARY="$out/libsuanli-inject.so"
# The control sockets' folder: short, as a socket's path is at most 107 bytes.
XDG_RUNTIME_DIR=$(mktemp -d /tmp/suanli-check.XXXXXX)
export XDG_RUNTIME_DIR
chmod 0700 "$XDG_RUNTIME_DIR"
python=${PYTHON:-python3}

say() { echo "$*" | tee -a "$log" >&2; }
left() { echo $((budget - ($(date +%s) - started))); }

# step NAME LIMIT COMMAND…: runs the command under timeout (never past the budget), and writes its
# status to steps.txt: ok, failed (exit status), timeout, or skipped (no time left).
step() {
  name=$1 limit=$2
  shift 2
  remaining=$(left)
  [ "$limit" -le "$remaining" ] || limit=$remaining
  if [ "$limit" -lt 5 ]; then
    echo "$name skipped 0 no time left in the ${budget} s budget" >> "$steps"
    say "== $name: skipped, no time left"
    return 1
  fi
  say "== $name (limit ${limit} s): $*"
  begin=$(date +%s)
  set +e
  timeout -k 5 "$limit" "$@" >> "$log" 2>&1
  status=$?
  set -e
  took=$(($(date +%s) - begin))
  case $status in
    0) echo "$name ok $took" >> "$steps" ;;
    124|137) echo "$name timeout $took ran past its ${limit} s limit" >> "$steps" ;;
    *) echo "$name failed $took exit status $status" >> "$steps" ;;
  esac
  say "   $name: exit $status after ${took} s"
  return $status
}
skip() { echo "$1 skipped 0 $2" >> "$steps"; say "== $1: skipped: $2"; }

# suanli-cli through the carried loader and libraries (a script, so that timeout can run it); GIO
# loads no module of the image's.
mkdir -p "$results/bin"
cli="$results/bin/suanli-cli"
cat > "$cli" <<EOF
#!/bin/sh
GIO_MODULE_DIR="$out/lib/no-gio-modules" GIO_USE_VFS=local GSETTINGS_BACKEND=memory \\
  exec "$out/lib/ld-linux-x86-64.so.2" --library-path "$out/lib" "$out/suanli-cli" "\$@"
EOF
chmod +x "$cli"

# ---- the machine ----
{
  echo "started $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n), kernel $(uname -r)"
  echo "gpu $(timeout 20 nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -n 1)"
  echo "image_glibc $(getconf GNU_LIBC_VERSION 2>/dev/null || ldd --version 2>&1 | head -n 1)"
  grep -E '^(inject_needs_glibc|workload_needs_glibc|build_glibc)' manifest.txt
  echo "python $(timeout 60 "$python" -c 'import sys, torch; print(sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.is_available())' 2>&1 | tail -n 1)"
  echo "nvcc $(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null || echo none)"
  # Where libcupti is on this image (the injection library must find one by itself: none is named).
  echo "libcupti $( (ls /usr/local/cuda*/lib64/libcupti.so* /usr/local/cuda*/extras/CUPTI/lib64/libcupti.so* 2>/dev/null;
    timeout 30 "$python" -c 'import site, glob; [print(p) for s in site.getsitepackages() for p in glob.glob(s + "/nvidia/*/lib/libcupti.so*")]' 2>/dev/null) | tr '\n' ' ')"
} > "$results/env.txt" 2>&1
cat "$results/env.txt" | tee -a "$log"
image_glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{ print $2 }')
inject_glibc=$(awk '$1 == "inject_needs_glibc" { print $2 }' manifest.txt)
if [ -n "$image_glibc" ] && [ "$(printf '%s\n%s\n' "$inject_glibc" "$image_glibc" | sort -V | head -n 1)" != "$inject_glibc" ]; then
  say "the injection library needs glibc $inject_glibc; this image has $image_glibc: it cannot load into the jobs"
  echo "inject_loads no: needs glibc $inject_glibc, the image has $image_glibc" >> "$results/env.txt"
else
  echo "inject_loads yes: needs glibc $inject_glibc, the image has ${image_glibc:-an unknown one}" >> "$results/env.txt"
fi
step cli-starts 30 "$cli" --help || true

# The workload built here runs if the image's glibc and libstdc++ are new enough; else nvcc there.
set +e
./workload > /dev/null 2>&1
status=$?
set -e
if [ "$status" -ne 2 ]; then
  say "the carried workload does not start here (exit $status): building it with this machine's nvcc"
  nvcc_there=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  step build-workload 180 "$nvcc_there" -O2 -std=c++17 -gencode arch=compute_90,code=sm_90 \
    -gencode arch=compute_90,code=compute_90 -Xcompiler -rdynamic -o workload workload.cu || true
fi

# ---- the workload: plain, idle, captured; three times each ----
for i in 1 2 3; do
  step "plain-$i" 60 ./workload "$results/plain-$i.txt" || true
  step "idle-$i" 60 env SUANLI_QUIET=1 "$cli" run -- ./workload "$results/idle-$i.txt" || true
  step "captured-$i" 90 "$cli" record -o "$results/capture-$i.suanli-capture" -- ./workload "$results/captured-$i.txt" || true
done
# Launch stacks off: what the capture costs without them.
step captured-nostacks 90 "$cli" record --stack-depth 0 -o "$results/capture-nostacks.suanli-capture" -- \
  ./workload "$results/captured-nostacks.txt" || true
# Two CUDA processes a level down (as torchrun's workers): one file, a stream each.
step multi 120 "$cli" record -o "$results/multi.suanli-capture" -- \
  sh -c "./workload '$results/multi-a.txt' & ./workload '$results/multi-b.txt'; wait" || true
for i in 1 2 3; do
  [ -s "$results/capture-$i.suanli-capture" ] || { skip "convert-capture-$i" "no capture $i"; continue; }
  step "convert-capture-$i" 60 "$cli" trace convert "$results/capture-$i.suanli-capture" "$results/capture-$i.json" || true
done
[ -s "$results/capture-1.suanli-capture" ] &&
  step summary-capture-1 60 sh -c "'$cli' trace summary --json '$results/capture-1.suanli-capture' \
    > '$results/capture-1.summary.json'" || true

# ---- one job, two STARTs and STOPs (attach), then a round after them ----
# job_state PID: its state as `suanli-cli jobs --json` says (idle, capturing, inert, or gone).
job_state() {
  "$cli" jobs --json 2>/dev/null | "$python" -c '
import json, sys
jobs = [j for j in json.load(sys.stdin) if j["pid"] == int(sys.argv[1])]
print(jobs[0]["state"] if jobs else "gone")' "$1" 2>/dev/null || echo unknown
}
wait_state() {   # wait_state PID STATE SECONDS
  deadline=$(($(date +%s) + $3))
  while [ "$(date +%s)" -lt "$deadline" ]; do
    [ "$(job_state "$1")" = "$2" ] && return 0
    sleep 0.1
  done
  return 1
}
wait_file() {    # wait_file PATH SECONDS [PID]: gives up too when process PID has ended
  deadline=$(($(date +%s) + $2))
  while [ "$(date +%s)" -lt "$deadline" ]; do
    [ -e "$1" ] && return 0
    [ -z "${3:-}" ] || kill -0 "$3" 2>/dev/null || return 1
    sleep 0.05
  done
  return 1
}
attach_failed() {   # attach_failed ROUND WHY
  echo "attach-$1 failed 0 $2" >> "$steps"
  say "attach round $1: $2"
}
attach_rounds() {
  signals="$results/signals"
  SUANLI_QUIET=1 timeout -k 5 150 "$cli" run -- ./workload "$results/attach.txt" 3 "$signals" >> "$log" 2>&1 &
  job=$!
  wait_file "$signals/ready" 60 "$job" || { attach_failed 1 "the job did not get ready"; return 1; }
  pid=$(cat "$signals/ready")
  wait_state "$pid" idle 30 || { attach_failed 1 "job $pid is not listed idle"; return 1; }
  echo idle > "$results/attach-states.txt"
  for round in 1 2; do
    "$cli" record --attach "$pid" --duration 60 -o "$results/attach-$round.suanli-capture" >> "$log" 2>&1 &
    recorder=$!
    wait_state "$pid" capturing 20 || { attach_failed "$round" "job $pid did not start capturing"; kill "$recorder"; return 1; }
    echo capturing >> "$results/attach-states.txt"
    touch "$signals/go-$round"
    wait_file "$signals/done-$round" 60 "$job" || { attach_failed "$round" "the round did not end"; kill "$recorder"; return 1; }
    kill -INT "$recorder"   # Ctrl+C: STOP, then the rest of the stream
    wait "$recorder" || { attach_failed "$round" "suanli-cli record --attach failed"; return 1; }
    wait_state "$pid" idle 20 || { attach_failed "$round" "job $pid is not idle after STOP"; return 1; }
    echo idle >> "$results/attach-states.txt"
    echo "attach-$round ok 0" >> "$steps"
  done
  touch "$signals/go-3"
  wait_file "$signals/done-3" 60 "$job" || { attach_failed 3 "the round after the STOPs did not end"; return 1; }
  echo "attach-3 ok 0" >> "$steps"
  wait
}
if [ "$(left)" -gt 60 ]; then
  set +e
  attach_rounds
  [ $? -eq 0 ] || say "the attach steps stopped early"
  set -e
else
  skip attach-1 "no time left"
fi
for round in 1 2; do
  [ -s "$results/attach-$round.suanli-capture" ] || { skip "convert-attach-$round" "no capture"; continue; }
  step "convert-attach-$round" 60 "$cli" trace convert "$results/attach-$round.suanli-capture" "$results/attach-$round.json" || true
done

# ---- train.py: a small transformer's training loop ----
train() {   # train NAME LIMIT PREFIX… :: ARGUMENTS…: train.py under PREFIX, its report in NAME.json
  name=$1 limit=$2
  shift 2
  prefix=""
  while [ "$1" != "::" ]; do prefix="$prefix $1"; shift; done
  shift
  # shellcheck disable=SC2086 # the prefix is words
  step "$name" "$limit" $prefix "$python" "$out/train.py" --device cuda --report "$results/$name.json" "$@"
}
if timeout 60 "$python" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' >> "$log" 2>&1; then
  train train-plain-1 120 :: || true
  train train-idle-1 120 env SUANLI_QUIET=1 "$cli" run -- :: || true
  train train-captured 180 "$cli" record -o "$results/train.suanli-capture" -- :: || true
  train train-kineto 180 :: --profile "$results/kineto.json" || true
  # torch.profiler starting while suanli-cli records the job from its launch.
  train train-e 180 "$cli" record -o "$results/train-e.suanli-capture" -- :: --profile "$results/kineto-e.json" || true
  [ -s "$results/train-e.suanli-capture" ] &&
    step summary-train-e 60 sh -c "'$cli' trace summary '$results/train-e.suanli-capture' > '$results/train-e.summary.txt'" ||
    true
  # suanli-cli attaching while torch.profiler holds CUPTI: the job holds in its profiled loop.
  rm -f "$results/signals/hold-ready" "$results/signals/hold-go"
  (
    set +e
    wait_file "$results/signals/hold-ready" 120 || exit 1
    pid=$(cat "$results/signals/hold-ready")
    wait_state "$pid" idle 30 || echo "job $pid is not listed idle" > "$results/record-f.log"
    timeout -k 5 30 "$cli" record --attach "$pid" --duration 3 -o "$results/train-f.suanli-capture" \
      >> "$results/record-f.log" 2>&1
    echo "record --attach exit $?" >> "$results/record-f.log"
    touch "$results/signals/hold-go"
  ) &
  helper=$!
  train train-f 180 env SUANLI_QUIET=1 "$cli" run -- :: --profile "$results/kineto-f.json" --hold "$results/signals/hold" || true
  kill "$helper" 2>/dev/null || true   # when the job ended before it held
  wait "$helper" 2>/dev/null || true
  [ -s "$results/train-f.suanli-capture" ] || rm -f "$results/train-f.suanli-capture"
  train train-plain-2 120 :: || true
  train train-idle-2 120 env SUANLI_QUIET=1 "$cli" run -- :: || true
  if [ -s "$results/train.suanli-capture" ]; then
    step convert-train 120 "$cli" trace convert "$results/train.suanli-capture" "$results/train.json" || true
  else
    skip convert-train "no capture of train.py"
  fi
else
  for name in train-plain-1 train-idle-1 train-captured train-kineto train-e train-f convert-train; do
    skip "$name" "python3 has no torch with CUDA here"
  done
fi

# ---- the table ----
say "== the table ($(($(date +%s) - started)) s so far)"
set +e
timeout -k 5 120 "$python" "$out/check-live.py" "$results" --json "$results/verdicts.json"
status=$?
set -e
[ $status -ne 124 ] || echo "check-live.py ran past its 120 s limit: no table" | tee -a "$log"
echo "check-live.sh took $(($(date +%s) - started)) s; files in $results"
exit $status
