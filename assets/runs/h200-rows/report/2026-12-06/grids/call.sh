#!/usr/bin/env bash
# Session 11, call 6 (the H200 held warm): flat-rows in other blocks and grids at the odd shapes.
set -u
source scripts/experiments/call_lib.sh
call_begin h200_grids
S=16777216x15,16777216x17,1000000x100,3000000x33
for pass in 1 2; do
  bench "own_$pass" 40 -a flat-rows --shapes $S --type float
  bench "b128_$pass" 40 -a flat-rows --shapes $S --type float --block 128
  for g in 528 792; do bench "g${g}_$pass" 40 -a flat-rows --shapes $S --type float --grid $g; done
  for g in 792 1056; do bench "b128_g${g}_$pass" 40 -a flat-rows --shapes $S --type float --block 128 --grid $g; done
done
save
python3 - "$R" <<'PY'
import json, sys, os, glob
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    d = json.load(open(f))
    print(os.path.basename(f), " ".join("%dx%d:%s:%.1f%s" % (r["rows"], r["cols"], r.get("grid", ""), r["pct_of_peak"], "" if r["check_ok"] else "BAD") for r in d["rows"]))
PY
