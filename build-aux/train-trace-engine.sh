#!/bin/sh
# train-trace-engine.sh TRAINER PROFILE_DIR STAMP TRACE…
#
# Runs the instrumented trace engine (TRAINER, profiler/training/trace-engine-training.c) over
# TRACE…: it writes what it counted under PROFILE_DIR, a .gcda file per object, where the
# optimized build of the same objects (compiled after STAMP is written) looks for them.
set -eu
trainer=$1 dir=$2 stamp=$3
shift 3
rm -rf "$dir"
"$trainer" "$@"
if [ -z "$(find "$dir" -name '*.gcda' 2>/dev/null | head -n 1)" ]; then
  echo "train-trace-engine.sh: $trainer wrote no profile under $dir" >&2
  exit 1
fi
echo "/* The trace engine's profile, recorded under $dir by $trainer */" > "$stamp"
