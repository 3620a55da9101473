#!/usr/bin/env bash
# Session 12, call 6 (an H100): lanes-per-row's rounds in blocks of 128 to 1024 (a round a block:
# more rows a block, fewer, larger bursts of held sums) at rows of 256, 64 and 16, floats beside
# cuBLAS gemv and halves, two passes. Blocks of 256 are the bench's default.
set -u
source scripts/experiments/call_lib.sh
call_begin round_blocks
S=1048576x256,4194304x64,16777216x16
for p in 1 2; do
  for b in 128 256 512 1024; do
    bench "float_b${b}_$p" 40 -a lanes-per-row,cublas-gemv-rows --shapes $S --type float --block $b
    bench "half_b${b}_$p" 40 -a lanes-per-row --shapes $S --type half --block $b
  done
done
save; cat "$R/device.txt" "$R/steps.txt" | head -3
python3 - "$R" <<'PY'
import json, sys, os, glob
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    print(os.path.basename(f), " ".join("%s:%dx%d:%s:%.2f%s" % (r["algorithm"][:4], r["rows"], r["cols"], r.get("grid", ""), r["pct_of_peak"], "" if r["check_ok"] else "BAD") for r in json.load(open(f))["rows"]))
PY
