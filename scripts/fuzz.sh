#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (AddressSanitizer + UBSan) and runs each for
# SECONDS (default 30): the input-file parser, the trace reader, the results reader and the
# command line. Seeds come from tests/fuzz/corpus; new corpus entries go to a scratch folder,
# not the repository. A crash leaves its input in build-fuzz/tests/fuzz/ and fails the script.
#   scripts/fuzz.sh [SECONDS]        (FUZZ_TARGETS="trace cli" runs only those)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
  -DCMAKE_CXX_COMPILER=clang++ -DREDLAB_FUZZ=ON -DREDLAB_CUDA=OFF -DREDLAB_GUI=OFF -DREDLAB_TESTS=OFF >/dev/null
cmake --build build-fuzz --target fuzz_input fuzz_trace fuzz_results fuzz_cli >/dev/null
status=0
for t in ${FUZZ_TARGETS:-input trace results cli}; do
  dir=build-fuzz/tests/fuzz
  mkdir -p "$dir/corpus-$t"
  log=$dir/fuzz_$t.log
  if (cd "$dir" && ./fuzz_$t -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=4096 \
      -print_final_stats=1 "corpus-$t" "../../../tests/fuzz/corpus/$t") >"$log" 2>&1; then
    result=ok
  else
    result=FAILED
    status=1
  fi
  runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo "?")
  cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -n 1 || true)
  printf 'fuzz_%-8s %-6s %8s runs in %ss, %s\n' "$t" "$result" "$runs" "$seconds" "$cov"
  [ "$result" = ok ] || tail -n 30 "$log"
done
exit $status
