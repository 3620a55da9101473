#!/usr/bin/env bash
# Why flat-rows reads 7 points slower at 2^24 x 15 than at 2^24 x 17 on H200s (81.4-82.3 against
# 88.4-88.9 on GPU-37f96254, GPU-63af0199 and GPU-8a7bc52f), where on fast H100s the two are level
# (90.3-90.8): flat-rows and its neighbours over rows of 13 to 19 floats at 2^24 rows, in the
# catalog's grid and in one wave (396 blocks: three an SM), twice; then Nsight Compute over one
# launch at rows of 15 and 17 (and lanes-per-row at 16): DRAM bytes read and written, L2 sectors,
# occupancy, stalls. A guess to test (from the kernel, not measured): a block of 256 walks a 32 KB
# tile's rows as tasks of `lanes` threads, so a lane's serial reads a tile are the passes times the
# row's elements a lane: rows of 13 and 15 floats take three passes (up to 632 and 548 rows touch a
# tile: 39 and 45 reads), 17 and 19 two (up to 483 and 433: 34 and 38), 14 and 18, in two lanes,
# five and four (35, 36). If the adds bound it, 13 and 15 read slowest. The archived H200 runs put
# the 15/17 gap in the runs grid, not in one wave, so the direct test keeps the runs: `stages_runs`
# (flat_rows_stages.cu in runs of 48 KB, so far run on an H100 alone) times the copies with the row
# sums' writes against the same with the adds, in the catalog's 32 KB tiles and in tiles of 30592
# bytes, where rows of 15 take two passes a tile instead of three (and 26496 and 17152: rows of 13
# in two, 17 in one). The `blocks_*` steps time 13, 15
# and 17 in blocks of 128 and 512, which keep the runs (the guess: 15 behind 17 in both; 128: five
# passes against four, 512: two against one), and 1024, which take one wave (kFlatRunMaxBlock): a
# change of grid as well as of passes.
# On the GPU machine, from the repository's root, after `PACK_RENDER=0 scripts/gpu-suite.sh pack`
# here (.gpupack carried):
#   scripts/experiments/flat_odd_call.sh    results in $OUT/flat_odd.tgz (or ./gpu-out)
set -u
source "$(dirname "$0")/call_lib.sh"
call_begin flat_odd
( nvcc -arch=sm_90 -O3 -std=c++17 --expt-relaxed-constexpr -Ikernels -o .exp/flat_rows_stages \
    scripts/experiments/flat_rows_stages.cu > "$R/nvcc.txt" 2>&1 ) &
S=16777216x13,16777216x14,16777216x15,16777216x16,16777216x17,16777216x18,16777216x19
for pass in 1 2; do
  bench "scan_$pass" 90 -a flat-rows,lanes-per-row,thread-per-row --shapes $S --type float
  bench "wave_$pass" 60 -a flat-rows --shapes $S --type float --grid 396
done
for block in 128 512 1024; do
  bench "blocks_$block" 60 -a flat-rows --shapes 16777216x13,16777216x15,16777216x17 --type float --block $block
done
for spec in "flat15;rl::kernels::flat_rows<;flat-rows;16777216x15" "flat17;rl::kernels::flat_rows<;flat-rows;16777216x17" \
            "lanes16;rl::kernels::lanes_per_row;lanes-per-row;16777216x16"; do
  IFS=';' read -r name kernel algo shape <<<"$spec"
  step "ncu_$name" 120 ncu --clock-control none --target-processes all --kernel-name-base demangled \
    --kernel-name "regex:$kernel" --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section Occupancy --section LaunchStats --section WarpStateStats --export "$R/ncu_$name" --force-overwrite \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum \
    .gpu/run.sh .gpu/bin/reduction-lab bench -a "$algo" --shapes "$shape" --type float --seconds 0.05 --format json \
    --out "$R/ncu_bench_$name.json"
  step "ncu_csv_$name" 60 sh -c '[ -s "$1.ncu-rep" ] && ncu --import "$1.ncu-rep" --page raw --csv >"$1.csv"' _ "$R/ncu_$name"
  rm -f "$R/ncu_$name.ncu-rep"  # the csv keeps every counter; the report would pass the tool's limits
done
wait; step stages_runs 120 .exp/flat_rows_stages runs
step ncu_table 30 sh -c 'scripts/ncu-table.py "$1"/ncu_*.csv' _ "$R"
save; cat "$R/steps.txt"
