#!/usr/bin/env bash
# Session 11, call 8 (the H200 held warm): lanes-per-row's round of rows a block (its own grid)
# against whole waves held (asked grids), floats and halves at rows of 256, 64 and 16.
set -u
source scripts/experiments/call_lib.sh
call_begin h200_rounds
S=1048576x256,4194304x64,16777216x16
for pass in 1 2; do
  for t in float half; do
    bench "own_${t}_$pass" 40 -a lanes-per-row,cublas-gemv-rows --shapes $S --type $t
    for g in 528 1056; do bench "g${g}_${t}_$pass" 40 -a lanes-per-row --shapes $S --type $t --grid $g; done
  done
done
save
python3 - "$R" <<'PY'
import json, sys, os, glob
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    d = json.load(open(f))
    print(os.path.basename(f), " ".join("%s:%dx%d:%s:%.1f%s" % (r["algorithm"][:4], r["rows"], r["cols"], r.get("grid", ""), r["pct_of_peak"], "" if r["check_ok"] else "BAD") for r in d["rows"]))
PY
