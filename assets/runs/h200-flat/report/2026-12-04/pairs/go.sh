#!/bin/bash
# Session 2026-12-04 (4), call 1: flat-rows over halves with 4-byte reads (lanes 1), old / new.
set -u
cd "$(dirname "$0")/.."
start=$SECONDS; deadline=${DEADLINE:-300}
R=$OUT/r1; mkdir -p "$R"
tar -xzf .gpupack/b.tgz
step() {
  local name=$1 s=$2; shift 2
  if (( SECONDS - start + s > deadline )); then echo "SKIPPED $name (deadline)" >> "$R/steps.txt"; return; fi
  local t0=$SECONDS; timeout "$s" "$@" > "$R/$name.txt" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - t0)) s" >> "$R/steps.txt"
}
{ nvidia-smi --query-gpu=uuid,name,driver_version --format=csv,noheader; date -u '+%Y-%m-%d %H:%M:%S UTC'; } > "$R/device.txt"
S=2^24x15,2^24x17,1000000x100,3000000x33
for pass in 1 2; do
  for v in old new; do
    step "${v}_half_$pass" 40 b/run.sh b/bin/reduction-lab-$v bench -a flat-rows --shapes $S --type half --seconds 0.3 --format csv
    step "${v}_bf16_$pass" 40 b/run.sh b/bin/reduction-lab-$v bench -a flat-rows --shapes $S --type bf16 --seconds 0.3 --format csv
  done
done
for v in old new; do
  step "${v}_float" 40 b/run.sh b/bin/reduction-lab-$v bench -a flat-rows --shapes $S,3000000x65 --type float --seconds 0.3 --format csv
  step "${v}_half65" 40 b/run.sh b/bin/reduction-lab-$v bench -a flat-rows --shapes 3000000x65,2^24x16 --type half --seconds 0.3 --format csv
done
tar -czf "$OUT/r1.tgz" -C "$OUT" r1
cat "$R/steps.txt"; cat "$R/device.txt"
for f in "$R"/*_half_*.txt "$R"/*_bf16_*.txt "$R"/*_float.txt "$R"/*_half65.txt; do echo "== $f"; cut -d, -f1,2,5,6,7,8,10,15,17 "$f" | tail -n +2; done
