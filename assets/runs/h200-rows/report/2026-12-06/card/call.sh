#!/usr/bin/env bash
# Session 10: which group of H100s this card is in (work-queue at 2^28, the bench), and everything
# nvidia-smi says of it, to set a slow card's beside a fast one's (GPU-508415e6, flat_runs/clocks.txt).
set -u
source scripts/experiments/call_lib.sh
call_begin card
nvidia-smi -q > "$R/smi_before.txt" 2>&1
for pass in 1 2; do bench "wq_$pass" 40 -a work-queue,warp-shuffle-vectorized --sizes 2^28 --type float; done
nvidia-smi -q -d CLOCK,PERFORMANCE,POWER,TEMPERATURE > "$R/smi_after.txt" 2>&1
save; cat "$R/steps.txt"; grep -h pct_of_peak "$R"/wq_*.json | head -4
