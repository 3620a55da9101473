#!/usr/bin/env bash
# On the GPU machine: unpacks .gpupack/gpu.tgz into .gpu/ unless that very pack is there already.
# A warm machine keeps .gpu/ (git ignores it) from call to call, so a new pack must replace it.
set -eu
cd "$(dirname "$0")/.."
[ -f .gpupack/gpu.tgz ] || exit 0
sum=$(cksum < .gpupack/gpu.tgz)
if [ -f .gpu/.pack_sum ] && [ "$(cat .gpu/.pack_sum)" = "$sum" ]; then exit 0; fi
rm -rf .gpu
tar -xzf .gpupack/gpu.tgz
echo "$sum" > .gpu/.pack_sum
