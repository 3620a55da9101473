#!/usr/bin/env bash
# The command of this call (2026-12-06 07:01 UTC, one line on the device tool), as run:
source scripts/experiments/call_lib.sh; call_begin h200odd >/dev/null; for t in half bf16; do bench "odd_$t" 60 -a flat-rows,lanes-per-row --shapes 16777216x15,16777216x17,1000000x100,3000000x33 --type $t; done; for t in float half; do bench "oned_$t" 60 -a work-queue,warp-shuffle-vectorized --sizes 251658240,100000000,99000000,268435456 --type $t; done; bench "odd_float" 60 -a flat-rows --shapes 16777216x15,16777216x17,1000000x100,3000000x33 --type float; save; ls $OUT
