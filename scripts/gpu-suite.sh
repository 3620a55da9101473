#!/usr/bin/env bash
# The whole GPU suite in one go.
#   scripts/gpu-suite.sh pack   here: builds for sm_90 and bundles the binaries into .gpu/
#   scripts/gpu-suite.sh run    on the GPU machine (nvcc, no Debian packages): runs from .gpu/
#   scripts/gpu-suite.sh golden on the GPU machine: records the golden traces the host tests
#                               replay (tests/data/golden; $OUT/golden.tgz to bring them back)
#   scripts/gpu-suite.sh machine-code on the GPU machine: $OUT/redux-sync.txt, the machine code and the
#                               warp stages' cycles that redux-sync's lesson quotes (assets/machine_code/)
#   scripts/gpu-suite.sh same-input on the GPU machine: every array kernel's float sum of one input, twice,
#                               its bits (to compare two GPUs: assets/runs/h100/report/same_input_bits_*.txt)
#   scripts/gpu-suite.sh narrow on the GPU machine: half and bf16 (issue 35): their GPU tests, the four
#                               sanitizers over them, the bench of halves (arrays and the matrix sweep)
#                               and the ladder at 2^24 ($OUT: narrow.log, bench_*.json, ladder_*.json)
#   scripts/gpu-suite.sh counters on the GPU machine: Nsight Compute once for every GPU kernel
#                               ($OUT/ncu.tgz; scripts/ncu-counters.py makes assets/counters/h100.json)
# `run` executes the GPU tests, compute-sanitizer (memcheck, racecheck, synccheck, initcheck)
# over the GPU tests, the headless render tests on the NVIDIA driver, a traced CLI run, the
# benchmark (float and int sums, every algorithm, 2^16..2^28, and the charts the app draws from
# it), and the window's UI run headless on the NVIDIA driver while a benchmark runs (frame
# times). $OUT (or ./gpu-out) gets the summary, the log and results.tgz with everything else.
# Then the soak (scripts/soak.sh, SOAK_MINUTES, default 3). SKIP_BENCH=1 leaves the benchmark out;
# ONLY_BENCH=1 runs the benchmark alone (two calls stay inside the device's 10 minutes a command).
# SKIP_SANITIZERS=1 leaves the four compute-sanitizer tools out; ONLY_SANITIZERS=1 runs them alone.
# SKIP_GPU_TEST=1 leaves gpu_test out (over 6 minutes: a call of its own when time is short).
# `pack` with PACK_RENDER=0 leaves render_test out (its step then records a SKIP), for calls that
# need only the bench, gpu_test or experiments: the carry limit is near.
# MATRIX_BENCH=1 adds the matrix family's shape sweep (float and int sums, 2^28 elements from
# 2^4 to 2^24 rows, with CUB's segmented reduce and cuBLAS gemv beside it; MATRIX_TYPES picks
# the types, MATRIX_TIMEOUT the seconds each may take, default 300, MATRIX_SECONDS bench's
# --seconds, default 1; a sweep cut short leaves its rows so far in bench_matrix_TYPE_sum.json.partial).
# MATRIX_WHY=1 adds what the matrix report needs to say why a target was missed: the grid-choosing
# kernels timed over a range of grids (`bench --grid`), and Nsight Compute's counters of one
# launch of each kernel and anchor at the shapes that missed (scripts/ncu-table.py reads them).
# ONLY_WHY=1 runs those alone.
# ONLY_RACE=1 runs the race-revealing recordings alone: their GPU tests, `trace --runs 100` of
# both pitfalls and both fixes at block 1024 over 2^20 ints (the pitfalls' JSON ships as
# assets/races/ID.json), screenshots of the first stale read through EGL, racecheck on the
# recording, memcheck and initcheck over it.
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
# The scripts (bench-report.py, probe-free-check.py) list the algorithms through the program.
export REDLAB_BINARY=${REDLAB_BINARY:-.gpu/run.sh .gpu/bin/reduction-lab}

if [ "$mode" = pack ]; then
  set -e
  [ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DREDLAB_GUI=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DREDLAB_WERROR=ON >/dev/null
  cmake --build build-gpu
  rm -rf .gpu
  # model_test stays here: it tests the CPU model, which CI runs on every commit, and a fourth
  # binary (each holds the kernels' cubins, about 13 MB packed) would pass the carry limit.
  # PACK_RENDER=0 leaves render_test out too, for calls that only bench or run experiments: the
  # tracked files grow, and with all three the pack came within 2 MiB of the limit (2026-12-06).
  bins=(build-gpu/reduction-lab build-gpu/tests/gpu_test)
  [ "${PACK_RENDER:-1}" = 0 ] || bins+=(build-gpu/tests/render_test)
  "${BUNDLE:-../shared/gpu/bundle.sh}" .gpu "${bins[@]}"
  strip .gpu/bin/*
  [ "${PACK_RENDER:-1}" != 0 ] || echo "packed with PACK_RENDER=0" > .gpu/NO_RENDER_TEST
  mkdir -p .gpupack
  tar -czf .gpupack/gpu.tgz .gpu
  # A device call carries the tracked files and the pack: 64 MiB in all.
  total=$(( $(git ls-files -z | du -cb --files0-from=- | tail -1 | cut -f1) + $(stat -c %s .gpupack/gpu.tgz) ))
  echo "pack: .gpupack/gpu.tgz ($(du -h .gpupack/gpu.tgz | cut -f1)); with the tracked files $((total >> 20)) MiB; carry .gpupack"
  [ "$total" -le $((64 << 20)) ] || { echo "pack: over the device's 64 MiB a call (PACK_RENDER=0 leaves render_test out)" >&2; exit 1; }
  # The device counts untracked files too: leave room for a call's new results.
  [ "$total" -le $((62 << 20)) ] || echo "pack: within 2 MiB of the device's 64 MiB a call; PACK_RENDER=0 leaves render_test out" >&2
  exit 0
fi
"$(dirname "$0")/gpu-unpack.sh"  # on the GPU machine: the carried pack, replacing an older one

if [ "$mode" = golden ]; then  # golden: records tests/data/golden/*.json on this GPU (then commit them)
  mkdir -p tests/data/golden
  REDLAB_REQUIRE_GPU=1 REDLAB_RECORD_GOLDEN=tests/data/golden .gpu/run.sh .gpu/bin/gpu_test \
    --gtest_filter=Gpu.RecordGoldenTraces || exit 1
  mkdir -p "${OUT:-gpu-out}"
  tar -C tests/data -czf "${OUT:-gpu-out}/golden.tgz" golden
  exit 0
fi
if [ "$mode" = machine-code ]; then  # machine-code: redux-sync's lesson's machine code and warp-stage cycles
  mkdir -p "${OUT:-gpu-out}"
  .gpu/run.sh .gpu/bin/gpu_test --gtest_filter='Gpu.WarpStagesAre*' > "${OUT:-gpu-out}/cycles.log" 2>&1 || exit 1
  python3 scripts/machine-code.py .gpu/bin/reduction-lab "${OUT:-gpu-out}/cycles.log" \
    "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > "${OUT:-gpu-out}/redux-sync.txt" || exit 1
  exit 0  # then here: cp the file to assets/machine_code/redux-sync.txt
fi
if [ "$mode" = narrow ]; then  # narrow: half and bf16 (docs/benchmarks.md, "half and bfloat16")
  out="${OUT:-gpu-out}"; mkdir -p "$out"
  T=".gpu/run.sh .gpu/bin/gpu_test"
  REDLAB_REQUIRE_GPU=1 timeout 300 $T --gtest_filter='Gpu.Narrow*:Gpu.HalfAndBf16*:Gpu.Ladder*:Gpu.GoldenTraces*' \
    > "$out/narrow.log" 2>&1; echo "narrow tests rc=$?"
  for tool in memcheck racecheck synccheck initcheck; do
    REDLAB_REQUIRE_GPU=1 REDLAB_GPU_QUICK=1 timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $T \
      --gtest_filter='Gpu.Narrow*' > "$out/san_$tool.log" 2>&1
    echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/san_$tool.log" | tail -1)"
  done
  for t in half bf16; do
    timeout 150 .gpu/run.sh .gpu/bin/reduction-lab bench -a warp-shuffle-vectorized,work-queue,cub --type $t \
      --format json --out "$out/bench_$t.json" > /dev/null 2>&1; echo "bench $t rc=$?"
  done
  timeout 150 .gpu/run.sh .gpu/bin/reduction-lab bench --shapes sweep --type half --format json \
    --out "$out/bench_matrix_half.json" > /dev/null 2>&1; echo "matrix bench rc=$?"
  for spec in random:7 ones; do
    timeout 60 .gpu/run.sh .gpu/bin/reduction-lab ladder -n 2^24 --input $spec --format json \
      > "$out/ladder_${spec%%:*}.json"; echo "ladder $spec rc=$?"
  done
  exit 0
fi
if [ "$mode" = same-input ]; then  # same-input: every array kernel's float sum of one seeded input, twice, with its bits
  # (assets/runs/h100/report/same_input_bits_*.txt); run on two GPUs and compare the files.
  echo "device: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), $(date -u '+%Y-%m-%d %H:%M UTC')"
  ids=$(.gpu/run.sh .gpu/bin/reduction-lab list --format json | python3 -c 'import json,sys; print(" ".join(a["id"] for a in json.load(sys.stdin) if a["run_to_run"] in ("fixed","arrival") and a["family"] not in ("matrix","baseline","across GPUs")))')
  for id in $ids; do
    n=2^20; [ $id = global-halving ] && n=2^16
    t=float; case $id in redux-sync*) t=int ;; esac
    for run in 1 2; do
      .gpu/run.sh .gpu/bin/reduction-lab trace -a $id --size $n --type $t --block 256 --input random:35 --backend cuda \
        --format json 2>/dev/null | python3 -c 'import json,sys,struct; j=json.load(sys.stdin); r=j["result"]; print("%-26s run %s grid %6s result %-22r bits %s" % (sys.argv[1], sys.argv[2], j.get("grid"), r, struct.pack(">f", r).hex() if sys.argv[3]=="float" else int(r)))' $id $run $t
    done
  done
  exit 0
fi
if [ "$mode" = counters ]; then  # counters: Nsight Compute once for every GPU kernel ($OUT/ncu.tgz)
  # The first launch of each (global-halving: every launch of one reduction) at 2^24 floats (ints for
  # redux-sync), 4096 x 4096 for the matrix kernels, 2^20 x 16 for the short-row ones, the block
  # bench picks; then here: scripts/ncu-counters.py DIR h100 writes assets/counters/h100.json.
  out=/tmp/ncu; rm -rf $out; mkdir -p $out
  save() { tar -czf "${OUT:-gpu-out}/ncu.tgz" -C /tmp ncu; }
  mkdir -p "${OUT:-gpu-out}"
  { nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u '+%Y-%m-%d %H:%M UTC'; ncu --version | tail -1; } > $out/device.txt
  M=smsp__inst_executed.sum,gpu__time_duration.sum,launch__grid_size,launch__block_size
  M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  M=$M,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
  M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  M=$M,smsp__thread_inst_executed_per_inst_executed.ratio,gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum
  M=$M,smsp__thread_inst_executed_pred_on_per_inst_executed.ratio
  # COUNTER_ARRAYS="ID ...": those array kernels alone (a kernel added since the last full run).
  arrays=${COUNTER_ARRAYS:-"naive-serial global-halving interleaved-divergent interleaved-bank-conflicts sequential first-add-on-load unroll-last-warp complete-unroll multiple-per-thread non-pow2-block warp-shuffle warp-shuffle-vectorized work-queue cg-warp cg-block cg-two-phase cg-reduce-update-async cg-grid-sync threadfence-single-pass missing-syncthreads legacy-warp-synchronous redux-sync cluster-dsmem bulk-async vectorized-ordered compensated redux-sync-streaming cluster-dsmem-streaming bulk-async-streaming"}
  rows="batched-rows batched-rows-shuffle batched-rows-split batched-rows-vectorized column-sums column-sums-vectorized column-sums-naive block-2d"
  short="warp-per-row lanes-per-row thread-per-row"
  [ -n "${COUNTER_ARRAYS:-}" ] && rows="" && short=""
  run() {  # ALGO COUNT BENCH-ARGS...
    local algo=$1 count=$2; shift 2
    local kernel=${algo//-/_}
    [ "$algo" = batched-rows-split ] && kernel=batched_rows  # its chunks run batched_rows' kernel
    timeout 40 ncu --clock-control none --kernel-name-base demangled --kernel-name "regex:rl::kernels::$kernel<" \
      --launch-count $count --metrics $M --section WarpStateStats --export $out/$algo --force-overwrite \
      .gpu/run.sh .gpu/bin/reduction-lab bench -a $algo "$@" --seconds 0.01 --format json --out $out/bench_$algo.json \
      > $out/log_$algo.txt 2>&1
    ncu --import $out/$algo.ncu-rep --page raw --csv > $out/$algo.csv 2>>$out/log_$algo.txt
    echo "$algo rc=$? lines=$(wc -l < $out/$algo.csv)" >> $out/summary.txt
    rm -f $out/$algo.ncu-rep
  }
  for a in $arrays; do
    c=1; [ $a = global-halving ] && c=24
    t=float; case $a in redux-sync*) t=int ;; esac
    run $a $c --sizes 16777216 --type $t
  done; save
  for a in $rows; do run $a 1 --shapes 4096x4096 --type float; done; save
  for a in $short; do run $a 1 --shapes 1048576x16 --type float; done; save
  exit 0
fi
if [ "$mode" = sanitize ]; then  # sanitize TOOL: the quick GPU test set under compute-sanitizer
  # racecheck leaves out GpuRace.*: they launch the two pitfalls, which race on purpose (the
  # racecheck_* and pitfall_* steps expect those hazards).
  # SANITIZER_FILTER (a gtest filter) splits the set where one tool passes a call's ten minutes
  # (racecheck over the whole set was unfinished at 585 s, 2026-12-05): e.g. Gpu.MatrixTraces* in
  # one call, -Gpu.MatrixTraces* in others. A filter that selects no test fails, not passes.
  filter=${SANITIZER_FILTER:-*}
  if [ "$2" = racecheck ]; then
    case $filter in *-*) filter="$filter:GpuRace.*" ;; *) filter="$filter-GpuRace.*" ;; esac
  fi
  selected=$(.gpu/run.sh .gpu/bin/gpu_test --gtest_list_tests --gtest_filter="$filter" | grep -c '^  ')
  [ "$selected" -gt 0 ] || { echo "sanitize $2: the filter '$filter' selects no test" >&2; exit 2; }
  echo "sanitize $2: $selected tests ($filter)"
  REDLAB_GPU_QUICK=1 exec compute-sanitizer --tool "$2" --error-exitcode 9 --print-limit 20 \
    .gpu/run.sh .gpu/bin/gpu_test --gtest_filter="$filter"
fi
if [ "$mode" = race-tool ]; then  # race-tool TOOL ALGO RUNS: compute-sanitizer over a race recording
  exec compute-sanitizer --tool "$2" --error-exitcode 9 --print-limit 5 .gpu/run.sh .gpu/bin/reduction-lab trace \
    -a "$3" --runs "$4" --backend cuda -n 65536 --block 1024 --format text
fi
if [ "$mode" = expect-race ]; then  # expect-race ALGO: racecheck must report hazards for a pitfall
  log=$(compute-sanitizer --tool racecheck --print-limit 5 .gpu/run.sh .gpu/bin/reduction-lab trace -a "$2" \
    --backend cuda -n 65536 --block 1024 --format text 2>&1 | grep -v '^ ')
  echo "$log" | tail -n 20
  echo "$log" | grep -Eq 'RACECHECK SUMMARY: [1-9][0-9]* hazard'
  exit
fi
[ "$mode" = run ] || { echo "usage: scripts/gpu-suite.sh pack|run|golden" >&2; exit 2; }
# ONLY_RACE, ONLY_SANITIZERS, ONLY_WHY and ONLY_MATRIX_TRACES leave the array benchmark out
# (MATRIX_BENCH still adds its sweep).
[ -z "${ONLY_RACE:-}${ONLY_SANITIZERS:-}${ONLY_WHY:-}${ONLY_MATRIX_TRACES:-}" ] || SKIP_BENCH=1
# Results gather in a work folder; $OUT gets the summary, the log and one archive of the rest
# (the device tool brings back at most 8 files).
dest=${OUT:-gpu-out}
out=$(mktemp -d /tmp/gpu-suite.XXXXXX)
mkdir -p "$dest"
export REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM}
export REDLAB_REQUIRE_GPU=1  # a GPU test that skips here fails: this run is for the GPU
export REDLAB_GOLDEN_DIR=$PWD/tests/data/golden  # the binaries were built in another checkout
summary=()
log="$out/suite.log"
: >"$log"
record() {  # record NAME STATUS SECONDS TEXT: one line of the summary
  summary+=("$(printf '%-22s %-6s %4ss  %s' "$1" "$2" "$3" "$4")")
}
step() {  # step NAME COMMAND...: runs, appends to suite.log, records pass/fail and seconds
  local name=$1; shift
  local t0=$SECONDS
  echo "===== $name: $*" >>"$log"
  timeout "${STEP_TIMEOUT:-240}" "$@" >"$out/step.tmp" 2>&1
  local rc=$?
  cat "$out/step.tmp" >>"$log"
  record "$name" "$([ $rc -eq 0 ] && echo PASS || echo FAIL:$rc)" $((SECONDS - t0)) \
    "$(grep -E 'PASSED|FAILED|SUMMARY' "$out/step.tmp" | tail -n 1 | cut -c1-80)"
}
device=$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader)
race_steps() {
  step race_gpu_test .gpu/run.sh .gpu/bin/gpu_test --gtest_filter='GpuRace.*'
  for a in missing-syncthreads legacy-warp-synchronous sequential unroll-last-warp; do
    step "race_cli_$a" sh -c '.gpu/run.sh .gpu/bin/reduction-lab trace -a "$1" --runs 100 -n 2^20 --block 1024 \
      --input random:13 --backend cuda --format json >"$2"' _ "$a" "$out/race_$a.json"
  done
  # The views of the first stale read, through EGL on this GPU's driver (docs/classroom.md).
  local rec="$out/race_missing-syncthreads.json" stage
  stage=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["race"]; print(r["stale"][0]["stage"] if r["stale"] else 1)' "$rec")
  for shot in "memory:" "memory:--present" "divergence:"; do
    step "race_screen_${shot%%:*}${shot#*:}" env XDG_CONFIG_HOME="$out/cfg-race" .gpu/run.sh .gpu/bin/reduction-lab --headless \
      --backend cuda --race-file "$rec" --stage "$stage" --view "${shot%%:*}" ${shot#*:} --quit-after-frames 20 \
      --screenshot "$out/race_${shot%%:*}${shot#*:}.png"
  done
  for a in missing-syncthreads legacy-warp-synchronous; do
    step "racecheck_$a" sh -c '"$0" race-tool racecheck "$1" 1 >"$2" 2>&1; grep -E "SUMMARY" "$2"' "$0" "$a" \
      "$out/racecheck_$a.txt"
  done
  for tool in memcheck initcheck; do step "race_$tool" "$0" race-tool "$tool" missing-syncthreads 3; done
}
# gpu_test's matrix traces, the longest test (362 s on an H100 at 10 shapes), run as a step of their own.
matrix_traces=Gpu.MatrixTracesEqualTheCpuModelBitForBit
matrix_trace_step() {
  # 455 s alone on an H100 (2026-11-28): past the old 420, inside one call's ten minutes.
  STEP_TIMEOUT=${GPU_TEST_TIMEOUT:-570} step gpu_test_matrix_traces .gpu/run.sh .gpu/bin/gpu_test \
    --gtest_filter="$matrix_traces"
}
# racecheck alone took 398 s over the quick set on an H100, the other three about 115 s each:
# SANITIZERS=racecheck and SANITIZERS="memcheck synccheck initcheck" make two calls of them.
sanitizer_steps() {
  local tool
  for tool in ${SANITIZERS:-memcheck racecheck synccheck initcheck}; do
    STEP_TIMEOUT=${SANITIZER_TIMEOUT:-480} step "sanitizer_$tool" "$0" sanitize "$tool"
  done
}
# The matrix kernels that missed a target, and the anchors they missed it against.
why_steps() {
  local g t shapes="2^4x2^24,2^6x2^22,2^8x2^20,2^10x2^18"
  for t in float int; do
    for g in default 1056 2112 4224 8448; do
      step "grid_split_${t}_$g" .gpu/run.sh .gpu/bin/reduction-lab bench -a batched-rows-split --shapes "$shapes" \
        --type "$t" $([ $g = default ] || echo --grid $g) --seconds 0.5 --format json --out "$out/grid_split_${t}_$g.json"
    done
  done
  for g in default 2112 4224 8448 16896; do
    step "grid_columns_$g" .gpu/run.sh .gpu/bin/reduction-lab bench -a column-sums --shapes 2^8x2^20,2^12x2^16,2^14x2^14 \
      $([ $g = default ] || echo --grid $g) --seconds 0.5 --format json --out "$out/grid_columns_$g.json"
  done
  # name; kernel (a regex over ncu's demangled name); then the bench that launches it
  local spec
  for spec in "column-sums;rl::kernels::column_sums<;column-sums;float;2^12x2^16" \
              "column-sums-naive;rl::kernels::column_sums_naive<;column-sums-naive;float;2^8x2^20" \
              "columns-vectorized-wide;rl::kernels::column_sums_vectorized<;column-sums-vectorized;float;2^8x2^20" \
              "gemv-columns-wide;gemv;cublas-gemv-columns;float;2^8x2^20" \
              "gemv-columns-square;gemv;cublas-gemv-columns;float;2^12x2^16" \
              "rows-shuffle-int;rl::kernels::batched_rows_shuffle<;batched-rows-shuffle;int;2^10x2^18" \
              "cub-segmented-int;Segmented;cub-segmented;int;2^10x2^18" \
              "rows-split-int;rl::kernels::batched_rows_split<;batched-rows-split;int;2^8x2^20" \
              "rows-vectorized-int;rl::kernels::batched_rows_vectorized<;batched-rows-vectorized;int;2^4x2^24" \
              "flat-rows-odd;rl::kernels::flat_rows<;flat-rows;float;1000000x100" \
              "lanes-held-halves;rl::kernels::lanes_per_row;lanes-per-row;half;2^22x2^6" \
              "gemv-rows-256;gemv;cublas-gemv-rows;float;2^20x2^8"; do
    IFS=';' read -r name kernel algo t shape <<<"$spec"
    step "ncu_$name" ncu --clock-control none --target-processes all --kernel-name-base demangled \
      --kernel-name "regex:$kernel" --launch-count 1 \
      --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
      --section WarpStateStats --export "$out/ncu_$name" --force-overwrite \
      --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum \
      .gpu/run.sh .gpu/bin/reduction-lab bench -a "$algo" --shapes "$shape" --type "$t" --seconds 0.05 --format json \
      --out "$out/ncu_bench_$name.json"
    # No report means the regex caught no kernel: a failure, not an empty row.
    step "ncu_csv_$name" sh -c '[ -s "$1.ncu-rep" ] && ncu --import "$1.ncu-rep" --page raw --csv >"$1.csv"' _ "$out/ncu_$name"
  done
  step ncu_table sh -c 'scripts/ncu-table.py "$1"/ncu_*.csv >"$1/ncu_table.md" && cat "$1/ncu_table.md"' _ "$out"
  step grid_table sh -c 'scripts/bench-report.py --grids "$1"/grid_*.json >"$1/grid_table.md" && cat "$1/grid_table.md"' _ "$out"
}
if [ -n "${ONLY_WHY:-}" ]; then
  why_steps
elif [ -n "${ONLY_RACE:-}" ]; then
  race_steps
elif [ -n "${ONLY_SANITIZERS:-}" ]; then  # the tools alone (a call of its own when time is short)
  sanitizer_steps
elif [ -n "${ONLY_MATRIX_TRACES:-}" ]; then  # gpu_test's longest test alone (455 s on an H100)
  matrix_trace_step
elif [ -z "${ONLY_BENCH:-}" ]; then
  [ -n "${SKIP_GPU_TEST:-}${SKIP_MATRIX_TRACES:-}" ] || matrix_trace_step
  [ -n "${SKIP_GPU_TEST:-}" ] ||
    STEP_TIMEOUT=${GPU_TEST_TIMEOUT:-420} step gpu_test .gpu/run.sh .gpu/bin/gpu_test --gtest_filter="-$matrix_traces"
  if [ -x .gpu/bin/render_test ]; then
    step render_test_egl env REDLAB_REQUIRE_GL=1 .gpu/run.sh .gpu/bin/render_test
  elif [ -f .gpu/NO_RENDER_TEST ]; then
    record render_test_egl SKIP 0 'render_test is not in the pack (packed with PACK_RENDER=0)'
  else
    record render_test_egl FAIL 0 'render_test is missing from the pack, which was not packed without it'
  fi
  [ -n "${SKIP_SANITIZERS:-}" ] || sanitizer_steps
  race_steps
  step pitfall_missing_sync "$0" expect-race missing-syncthreads
  step pitfall_legacy_warp "$0" expect-race legacy-warp-synchronous
  step trace_cli sh -c '.gpu/run.sh .gpu/bin/reduction-lab trace -a sequential -n 1000 --block 256 \
    --trace-block 3 --backend cuda --input iota --format json >"$1"' _ "$out/trace_gpu.json"
  # The window's frames while a GIF export runs on its worker (p99 must stay under 33 ms).
  # The GIF goes through ffmpeg: without it the export fails at once and there is nothing to time.
  if command -v ffmpeg >/dev/null; then
    step gif_frames sh -c 'env XDG_CONFIG_HOME="$1/cfg-gif" .gpu/run.sh .gpu/bin/reduction-lab --headless --backend cuda \
      --algorithm sequential --export-gif --export-dir "$1/gif" --quit-after-frames 1500 \
      --frame-report "$1/frames_gif.json" && ls "$1"/gif/*.gif' _ "$out"
  else
    record gif_frames SKIP 0 'no ffmpeg on this machine: the GIF export cannot run'
  fi
  step trace_matrix_cli sh -c '.gpu/run.sh .gpu/bin/reduction-lab trace -a column-sums --rows 33 --cols 257 \
    --block 128 --trace-block 3 --backend cuda --format json >"$1"' _ "$out/trace_matrix_gpu.json"
  step render_cli .gpu/run.sh .gpu/bin/reduction-lab render -a interleaved-divergent -n 2^20 --block 64 \
    --stage 2 --backend cuda --out "$out/render_gpu.png"
  step soak env BIN=".gpu/run.sh .gpu/bin/reduction-lab" scripts/soak.sh "${SOAK_MINUTES:-3}" "$out/soak.json" \
    --backend cuda
fi
if [ -z "${SKIP_BENCH:-}" ]; then
  for type in float int; do
    step "bench_$type" .gpu/run.sh .gpu/bin/reduction-lab bench --type "$type" --format json \
      --out "$out/bench_${type}_sum.json"
    step "chart_$type" .gpu/run.sh .gpu/bin/reduction-lab render --chart "$out/bench_${type}_sum.json" \
      --type "$type" --out "$out/chart_${type}_sum.png" --width 1600 --height 900
  done
  # The window's UI off screen on this GPU's driver, 60 Hz pacing, while the Bandwidth tab
  # benchmarks every algorithm on the same GPU: does a frame stay under 1/60 s?
  step gui_frames env XDG_CONFIG_HOME="$out/cfg" .gpu/run.sh .gpu/bin/reduction-lab --headless --backend cuda \
    --tab bandwidth --run-bench --bench-sizes 2^16..2^26 --quit-after-frames 1800 \
    --frame-report "$out/frames.json" --screenshot "$out/gui_headless.png"
fi
[ -n "${MATRIX_WHY:-}" ] && [ -z "${ONLY_WHY:-}" ] && why_steps
if [ -n "${MATRIX_BENCH:-}" ]; then
  # A sweep of one type took 190 s on one H100 loan and over 220 s on another: MATRIX_TYPES=float
  # (or int) runs one type a call where both do not fit.
  for type in ${MATRIX_TYPES:-float int}; do
    STEP_TIMEOUT=${MATRIX_TIMEOUT:-300} step "bench_matrix_$type" .gpu/run.sh .gpu/bin/reduction-lab bench \
      --shapes sweep --type "$type" --seconds "${MATRIX_SECONDS:-1}" --format json --out "$out/bench_matrix_${type}_sum.json"
  done
fi
rm -f "$out/step.tmp"
{
  echo "== GPU suite: $device; $(date -u +%Y-%m-%dT%H:%MZ); REDLAB_TEST_SEED=$REDLAB_TEST_SEED"
  printf '%s\n' "${summary[@]}"
} | tee "$out/summary.txt"
cp "$out/summary.txt" "$out/suite.log" "$dest/"
tar -C "$out" -czf "$dest/results.tgz" .
! grep -q FAIL "$out/summary.txt"
