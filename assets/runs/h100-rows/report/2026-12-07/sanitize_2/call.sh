#!/usr/bin/env bash
# compute-sanitizer's tools over the whole quick GPU test set (`scripts/gpu-suite.sh sanitize TOOL`),
# each cut at LIMIT seconds: the tools whose runs over the whole set were cut before (synccheck and
# initcheck at 150 s on 2026-12-06, racecheck unfinished at 585 s on 2026-12-05). On an H200,
# flat_odd_call.sh first (its question needs an H200).
# On the GPU machine, from the repository's root (.gpupack carried):
#   scripts/experiments/sanitize_call.sh LIMIT TOOL...    results in $OUT/sanitize.tgz (or ./gpu-out)
set -u
limit=$1; shift
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  scripts/experiments/flat_odd_call.sh > /dev/null 2>&1
fi
source "$(dirname "$0")/call_lib.sh"
call_begin sanitize
export REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM} REDLAB_REQUIRE_GPU=1 REDLAB_GOLDEN_DIR=$PWD/tests/data/golden
echo "seed $REDLAB_TEST_SEED" >> "$R/device.txt"
for tool in "$@"; do step "$tool" "$limit" scripts/gpu-suite.sh sanitize "$tool"; done
summarize
save; cat "$R/steps.txt" "$R/summary.txt"
