#!/usr/bin/env bash
# Installs what is missing, builds a Release and opens the window. Arguments go to the app.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
# Release builds target this machine's GPU, or every major architecture when there is none.
arch=all-major
nvidia-smi -L >/dev/null 2>&1 && arch=native
cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DREDLAB_TESTS=OFF \
  -DCMAKE_CUDA_ARCHITECTURES="$arch" >/dev/null
cmake --build build-release
exec build-release/reduction-lab "$@"
