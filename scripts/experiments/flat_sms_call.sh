#!/usr/bin/env bash
# flat_rows_stages.cu's `sms`: flat-rows' copies, copies with the row sums' writes and kernel with
# all but 110, 94 or 80 SMs held idle (about 30 s), twice: does an H100 so held, each free SM with
# about an H200's share of the memory, read rows of 15 floats behind 17 as the H200s do? Then its
# `tiles`, twice: the tile as an argument worked out on the host, 32 KB and a pass shorter.
# MODES (default "sms tiles"): which of the two to run; `sms_blocks` runs `sms blocks` (the kernel in
# blocks of 128 and 512 too).
# On the GPU machine, from the repository's root (.gpupack carried):
#   scripts/experiments/flat_sms_call.sh    results in $OUT/flat_sms.tgz (or ./gpu-out)
set -u
source "$(dirname "$0")/call_lib.sh"
call_begin flat_sms
step nvcc 120 nvcc -arch=sm_90 -O3 -std=c++17 --expt-relaxed-constexpr -Ikernels -o .exp/flat_rows_stages \
  scripts/experiments/flat_rows_stages.cu
for m in ${MODES:-sms tiles}; do
  step "${m}_1" 200 .exp/flat_rows_stages ${m/_/ }
  step "${m}_2" 200 .exp/flat_rows_stages ${m/_/ }
done
cat "$R/device.txt" "$R/steps.txt"
for m in ${MODES:-sms tiles}; do cat "$R/${m}_1.txt" "$R/${m}_2.txt"; done
