#!/usr/bin/env bash
# flat-rows' tiles a pass shorter (flat_tile_in_kernel.patch: flat_tile_elements, the tile worked
# out in the kernel from the row's length and the block) against the catalog's 32 KB tiles: the
# app's bench from both packs in turn, twice, at shapes whose tiles change (rows of 13, 15, 96 and
# 100 floats and of 15 and 60 halves in blocks of 256; rows of 13, 15 and 17 in blocks of 128) and
# whose tiles stay (16, 17 and 33 in blocks of 256; 13, 15 and 17 in blocks of 1024). The patched
# tree's pack is .gpupack/gpu.tgz (`git apply` the patch, `PACK_RENDER=0 scripts/gpu-suite.sh
# pack`; unpacked into .gpu); the catalog's reduction-lab is .gpupack/old.tgz (unpacked into
# .gpuold): the .gpu/ folder of the unpatched tree's pack, gpu_test taken out, renamed `old`.
# Run on 2026-12-07 (docs/benchmarks.md, "flat-rows' tiles a pass shorter"); the catalog did not take it.
# On the GPU machine, from the repository's root (.gpupack carried):
#   scripts/experiments/flat_tile_call.sh    results in $OUT/flat_tile.tgz (or ./gpu-out)
set -u
source "$(dirname "$0")/call_lib.sh"
call_begin flat_tile
rm -rf .gpuold && tar -xzf .gpupack/old.tgz && mv old .gpuold
old() { PACK=.gpuold bench "$@"; }  # old NAME LIMIT ARGS...: the catalog's bench
S=16777216x13,16777216x15,16777216x16,16777216x17,1000000x100,1000000x96,3000000x33
for pass in 1 2; do
  old "old_$pass" 90 -a flat-rows --shapes $S --type float
  bench "new_$pass" 90 -a flat-rows --shapes $S --type float
  old "old_half_$pass" 60 -a flat-rows --shapes 4194304x60,16777216x15 --type half
  bench "new_half_$pass" 60 -a flat-rows --shapes 4194304x60,16777216x15 --type half
done
for block in 128 1024; do
  old "old_b$block" 60 -a flat-rows --shapes 16777216x13,16777216x15,16777216x17 --type float --block $block
  bench "new_b$block" 60 -a flat-rows --shapes 16777216x13,16777216x15,16777216x17 --type float --block $block
done
save; cat "$R/steps.txt"
