#!/usr/bin/env bash
# The soak: the window's UI headless (EGL), playing every algorithm in every view and
# rerunning the benchmark, for MINUTES; memory is sampled every 60 frames (frame report). Fails
# when, after the first quarter (warm-up), resident memory grew by more than 16 MiB or device
# memory by more than 1 MiB.
#   scripts/soak.sh MINUTES REPORT.json [reduction-lab options, e.g. --backend cuda]
# BIN (default build/reduction-lab) runs it; on the GPU machine: BIN=".gpu/run.sh .gpu/bin/reduction-lab".
set -euo pipefail
minutes=${1:?usage: soak.sh MINUTES REPORT.json [options]}
report=${2:?usage: soak.sh MINUTES REPORT.json [options]}
shift 2
frames=$((minutes * 60 * 60))  # paced at 60 frames a second
cfg=$(mktemp -d)
trap 'rm -rf "$cfg"' EXIT
line=$(XDG_CONFIG_HOME="$cfg" ${BIN:-build/reduction-lab} --headless --soak --quit-after-frames "$frames" \
  --bench-sizes 2^12..2^18 --bench-algorithms sequential,warp-shuffle-vectorized,work-queue,cg-grid-sync,cub,cpu \
  --frame-report "$report" "$@" 2>&1 | grep '^soak:')
echo "$line"
# "... resident memory +2.1 MiB, device memory +0.0 MiB (20 samples)"
echo "$line" | awk '{
  for (i = 1; i <= NF; ++i) {
    if ($i == "memory" && $(i - 1) == "resident") rss = $(i + 1) + 0
    if ($i == "memory" && $(i - 1) == "device") dev = $(i + 1) + 0
    if ($i == "samples)") n = substr($(i - 1), 2) + 0
  }
  ok = n >= 8 && rss <= 16 && dev <= 1
  printf "soak %s: resident %+.1f MiB, device %+.1f MiB after warm-up (%d samples; limits 16 and 1 MiB)\n",
         ok ? "PASS" : "FAIL", rss, dev, n
  exit ok ? 0 : 1
}'
