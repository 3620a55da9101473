#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (AddressSanitizer + UBSan) and runs each for
# SECONDS (default 30): the input-file parser, the trace reader, the results reader, the
# command line, the views drawing what the readers accept (views: headless EGL), settings,
# scenes and plans, and a kernel file of your own with its PTX. Seeds
# come from tests/fuzz/corpus; new corpus entries go to a scratch folder,
# not the repository. A crash leaves its input in the build folder's tests/fuzz/ and fails the script.
#   scripts/fuzz.sh [SECONDS]        (FUZZ_TARGETS="trace cli" runs only those)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
# FUZZ_BUILD: a build folder configured with -DREDLAB_FUZZ=ON already (scripts/test.sh's
# build-asan, which runs the host tests too); else build-fuzz, configured here.
build=${FUZZ_BUILD:-build-fuzz}
if [ -z "${FUZZ_BUILD:-}" ]; then
  cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
    -DCMAKE_CXX_COMPILER=clang++ -DREDLAB_FUZZ=ON -DREDLAB_CUDA=OFF -DREDLAB_GUI=OFF -DREDLAB_TESTS=OFF >/dev/null
fi
cmake --build "$build" --target fuzz_input fuzz_trace fuzz_results fuzz_cli fuzz_views fuzz_settings fuzz_own >/dev/null
# The targets run side by side (one core each on CI's two), then report in order.
dir=$build/tests/fuzz
targets=${FUZZ_TARGETS:-input trace results cli views settings own}
pids=()
for t in $targets; do
  mkdir -p "$dir/corpus-$t"
  # views: whole golden traces as seeds, and Mesa's own allocations are not ours to leak-check.
  extra=(-max_len=4096)
  [ "$t" = views ] && extra=(-max_len=16384 -detect_leaks=0)
  seeds=("../../../tests/fuzz/corpus/$t")
  [ "$t" = own ] && extra=(-max_len=16384) && seeds+=(../../../assets/own)  # PTX, and the starter kernels
  (cd "$dir" && ./fuzz_$t -max_total_time="$seconds" "${extra[@]}" -timeout=10 -rss_limit_mb=4096 \
    -print_final_stats=1 "corpus-$t" "${seeds[@]}") >"$dir/fuzz_$t.log" 2>&1 &
  pids+=($!)
done
status=0
i=0
for t in $targets; do
  log=$dir/fuzz_$t.log
  if wait "${pids[$i]}"; then result=ok; else result=FAILED; status=1; fi
  i=$((i + 1))
  runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo "?")
  cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -n 1 || true)
  printf 'fuzz_%-8s %-6s %8s runs in %ss, %s\n' "$t" "$result" "$runs" "$seconds" "$cov"
  [ "$result" = ok ] || tail -n 30 "$log"
done
exit $status
