#!/usr/bin/env bash
# Session 9, 04:53 UTC: the sweep call (scripts/experiments/sweep_call.sh at f41b0e0, pack of 0ef441e), then
# streaming_waves (streaming/call.sh), on one H100.
OUT=$OUT/sw timeout 420 scripts/experiments/sweep_call.sh > /dev/null 2>&1; echo sweep rc=$?; cat $OUT/sw/steps.txt
bash .gpupack/s9a.sh > /dev/null 2>&1; echo s9a rc=$?
