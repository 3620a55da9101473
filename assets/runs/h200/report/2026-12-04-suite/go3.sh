#!/bin/bash
# Session 2026-12-04 (3), call 3: the GPU suite's steps that did not run on this build: model
# tests, render tests, the race recordings and their tools, the pitfalls, the CLI runs, the soak
# (1 minute); then compute-sanitizer's memcheck over the quick GPU test set.
set -u
cd "$(dirname "$0")/.."
start=$SECONDS
mkdir -p "$OUT/a" "$OUT/b"
SKIP_GPU_TEST=1 SKIP_SANITIZERS=1 SKIP_BENCH=1 SOAK_MINUTES=1 OUT=$OUT/a timeout 330 scripts/gpu-suite.sh run \
  > "$OUT/a/run.txt" 2>&1
echo "suite rc=$? $((SECONDS - start)) s"
left=$((${DEADLINE:-560} - (SECONDS - start)))
if (( left > 120 )); then
  ONLY_SANITIZERS=1 SANITIZERS=memcheck SANITIZER_TIMEOUT=$((left - 20)) OUT=$OUT/b timeout $((left - 5)) \
    scripts/gpu-suite.sh run > "$OUT/b/run.txt" 2>&1
  echo "memcheck rc=$? $((SECONDS - start)) s"
fi
cat "$OUT"/a/summary.txt "$OUT"/b/summary.txt 2>/dev/null
