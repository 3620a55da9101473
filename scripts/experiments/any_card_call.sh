#!/usr/bin/env bash
# One ask of the device, whatever card comes: on an H200, h200_call.sh (what only an H200 answers);
# on an H100 whose work-queue reads under 95 % at 2^28 floats (a slower one: 94.3-94.4 where the
# fast ones read 95.3-95.6), hopper_card_call.sh (whether tiles from a counter lift
# bulk-async-streaming over 93 there); on a fast H100, that one bench and nothing more.
# On the GPU machine, from the repository's root (.gpupack carried):
#   scripts/experiments/any_card_call.sh    results in $OUT (or ./gpu-out)
set -u
cd "$(dirname "$0")/../.." || exit 2
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  exec scripts/experiments/h200_call.sh
fi
source scripts/experiments/call_lib.sh
call_begin card_class
bench wq 30 -a work-queue --sizes 2^28 --type float
pct=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["rows"][0]["pct_of_peak"])' "$R/wq.json")
cat "$R/device.txt"; echo "work-queue at 2^28 floats: $pct %"
if python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) < 95 else 1)' "$pct"; then
  exec scripts/experiments/hopper_card_call.sh
fi
echo "a fast H100: nothing more run"
