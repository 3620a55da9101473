#!/usr/bin/env bash
# Installs what is missing, builds a Release of what can run on this machine and opens the
# window. Arguments go to the app.
#   nvcc and an NVIDIA GPU (nvidia-smi -L lists one): the CUDA backend, compiled for that GPU only
#   nvcc and no GPU: the CPU model alone (CUDA kernels built here could not run here)
#   no nvcc: the CPU model alone
# For a GPU elsewhere, scripts/gpu-suite.sh pack builds for sm_90 here.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
if ! command -v nvcc >/dev/null; then
  echo "launch: no CUDA toolkit (nvcc): building the CPU model only"
  cuda=(-DREDLAB_CUDA=ON)  # CMake finds no toolkit and builds the CPU model alone
elif nvidia-smi -L >/dev/null 2>&1; then
  echo "launch: building the CUDA backend for this machine's GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)"
  cuda=(-DREDLAB_CUDA=ON -DCMAKE_CUDA_COMPILER="$(command -v nvcc)" -DCMAKE_CUDA_ARCHITECTURES=native)
else
  echo "launch: nvcc is here but there is no usable NVIDIA GPU (nvidia-smi -L fails):" \
    "building the CPU model only, without the CUDA backend"
  cuda=(-DREDLAB_CUDA=OFF)
fi
cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DREDLAB_TESTS=OFF "${cuda[@]}" >/dev/null
cmake --build build-release
exec build-release/reduction-lab "$@"
