#!/usr/bin/env bash
# The soak: the window's UI headless (EGL), playing every algorithm in every view and
# rerunning the benchmark, for MINUTES; memory is sampled every 60 frames. Fails when, after
# the first quarter (warm-up), resident memory grew by more than 16 MiB or device memory by
# more than 1 MiB.
#   scripts/soak.sh MINUTES REPORT.json [reduction-lab options, e.g. --backend cuda]
# BIN (default build/reduction-lab) runs it; on the GPU machine: BIN=".gpu/run.sh .gpu/bin/reduction-lab".
set -euo pipefail
minutes=${1:?usage: soak.sh MINUTES REPORT.json [options]}
report=${2:?usage: soak.sh MINUTES REPORT.json [options]}
shift 2
frames=$(python3 -c "print(int(float('$minutes') * 60 * 60))")  # paced at 60 frames a second
cfg=$(mktemp -d)
trap 'rm -rf "$cfg"' EXIT
XDG_CONFIG_HOME="$cfg" ${BIN:-build/reduction-lab} --headless --soak --quit-after-frames "$frames" \
  --bench-sizes 2^12..2^18 --bench-algorithms sequential,warp-shuffle-vectorized,cg-grid-sync,cub,cpu \
  --frame-report "$report" "$@" 2>&1 | tail -n 1
python3 - "$report" <<'PY'
import json, sys
g = json.load(open(sys.argv[1]))["growth"]
ok = g["samples"] >= 8 and g["rss_mib"] <= 16 and g["device_mib"] <= 1
print(f"soak {'PASS' if ok else 'FAIL'}: growth after warm-up: resident {g['rss_mib']:+.1f} MiB, "
      f"device {g['device_mib']:+.1f} MiB over {g['samples']} samples")
sys.exit(0 if ok else 1)
PY
