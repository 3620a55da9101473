#!/usr/bin/env bash
# Session 13, call 3 (asked: an H200; an H100 came, warm): lanes-per-row at the four aligned shapes
# in its own grid (rounds) and in 1, 2, 3, 4 and 8 whole waves, two passes: at rows of 200 whole
# waves read ahead in the bench on two H100s, the rounds ahead in rows_queue's timing on a third.
set -u
source scripts/experiments/call_lib.sh
call_begin aligned_waves
A=1000000x100,1000000x96,2000000x48,500000x200
for p in 1 2; do
  bench "own_$p" 50 -a lanes-per-row --shapes $A --type float
  for g in 528 1056 1584 2112 4224; do bench "g${g}_$p" 50 -a lanes-per-row --grid $g --shapes $A --type float; done
done
cat "$R/device.txt" "$R/steps.txt"
python3 - "$R" <<'PY'
import json, sys, os, glob
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    print(os.path.basename(f), " ".join("%dx%d:%s:%.2f%s" % (r["rows"], r["cols"], r.get("grid", ""), r["pct_of_peak"], "" if r["check_ok"] else "BAD") for r in json.load(open(f))["rows"]))
PY
