#!/usr/bin/env bash
# Session 11, call 15 (the H200 held warm): lanes-per-row at the aligned rows in two whole waves
# (1056) and in 4 and 8 waves (2112, 4224), beside its own grid (528). [Corrected after the run:
# this line said the shares were still held at 4224; there the shares of rows of 100, 96 and 200 are
# not (under 256 rows and over a round); those of 48 and of 2^22 x 64 are.]
set -u
source scripts/experiments/call_lib.sh
call_begin rule_waves
A=1000000x100,1000000x96,2000000x48,500000x200,4194304x64
for g in 1056 2112 4224; do bench "g$g" 40 -a lanes-per-row --shapes $A --type float --grid $g; done
bench own 40 -a lanes-per-row --shapes $A --type float
save
python3 - "$R" <<'PY'
import json, sys, os, glob
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    print(os.path.basename(f), " ".join("%dx%d:%s:%.2f%s" % (r["rows"], r["cols"], r.get("grid", ""), r["pct_of_peak"], "" if r["check_ok"] else "BAD") for r in json.load(open(f))["rows"]))
PY
