#!/usr/bin/env bash
# flat-rows: the grid as tiles a block (32 KB tiles), at the odd shapes, floats, halves and bf16, two passes.
set -u
cd "$(dirname "$0")/.." || exit 2
[ -d .gpu ] || tar -xzf .gpupack/gpu.tgz
O=${OUT:-gpu-out}; R=$O/tiles; mkdir -p "$R"
{ nvidia-smi --query-gpu=uuid,name,driver_version,memory.total --format=csv,noheader; date -u '+%Y-%m-%d %H:%M:%S UTC'; } > "$R/device.txt"
save() { tar -czf "$O/tiles.tgz" -C "$O" tiles; }
B=".gpu/run.sh .gpu/bin/reduction-lab bench --seconds 0.2 --format json"
t0=$SECONDS
for pass in 1 2; do
  for t in float half bf16; do
    eb=4; [ $t = float ] || eb=2
    for s in 16777216x15 16777216x17 1000000x100 3000000x33; do
      r=${s%x*}; c=${s#*x}; tiles=$(( (r * c * eb + 32767) / 32768 ))
      for k in 0.8 1.0 1.25 1.5 2 3; do
        g=$(python3 -c "import math; print(max(1, math.ceil($tiles / $k)))")
        timeout 30 $B --out "$R/p${pass}_${t}_${s}_k$k.json" -a flat-rows --shapes $s --type $t --grid $g > /dev/null 2>>"$R/errors.txt"
        echo "p$pass $t $s k$k g$g rc=$? $((SECONDS - t0)) s" >> "$R/steps.txt"
      done
    done
    save
  done
done
save
