#!/usr/bin/env bash
# Session 11, call 14 (the H200 held warm, the rounds_pay build): lanes-per-row's whole waves (its
# grid on an H200 now) against its rounds (asked: as many blocks as rounds) on the other shapes the
# rule reaches: aligned rows of 100, 96, 48 and 200 floats; bfloat16 and ints at rows of 256, 64, 16.
set -u
source scripts/experiments/call_lib.sh
call_begin rule_reach
A=1000000x100,1000000x96,2000000x48,500000x200
for pass in 1 2; do
  bench "aligned_own_$pass" 40 -a lanes-per-row --shapes $A --type float
  bench "aligned_rounds_$pass" 40 -a lanes-per-row --shapes $A --type float --grid 15625
  bench "bf16_own_$pass" 40 -a lanes-per-row --shapes 1048576x256,4194304x64,16777216x16 --type bf16
  bench "bf16_rounds_$pass" 40 -a lanes-per-row --shapes 1048576x256,4194304x64,16777216x16 --type bf16 --grid 32768
  bench "int_own_$pass" 40 -a lanes-per-row --shapes 1048576x256,4194304x64,16777216x16 --type int
  bench "int_rounds_$pass" 40 -a lanes-per-row --shapes 1048576x256,4194304x64,16777216x16 --type int --grid 65536
done
save; cat "$R/device.txt" "$R/steps.txt"
python3 - "$R" <<'PY'
import json, sys, os, glob
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    print(os.path.basename(f), " ".join("%dx%d:%s:%.2f%s" % (r["rows"], r["cols"], r.get("grid", ""), r["pct_of_peak"], "" if r["check_ok"] else "BAD") for r in json.load(open(f))["rows"]))
PY
