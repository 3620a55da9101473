#!/usr/bin/env bash
# Builds the Debian package: reduction-lab_VERSION_ARCH.deb in DIR/ (default packages/).
#   scripts/package.sh [--from BUILD_DIR] [DIR]
# Without --from: a Release build in build-pkg, with the CUDA backend (where nvcc is found) for
# every GPU a lab is likely to have: sm_80 and sm_90 machine code and compute_90 PTX that newer
# GPUs compile when they load it (a fat binary). The CUDA runtime is linked statically and the
# driver's libcuda is never packaged: the runtime loads it when a GPU is used, so the same package
# starts on a machine without a GPU or driver and runs the CPU model, saying so.
# With --from: packs a build that exists (CI packs the build its tests ran on).
set -euo pipefail
cd "$(dirname "$0")/.."
build=""
if [ "${1:-}" = --from ]; then
  build=$2
  shift 2
fi
out=${1:-packages}
if [ -z "$build" ]; then
  build=build-pkg
  [ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DREDLAB_TESTS=OFF \
    "-DCMAKE_CUDA_ARCHITECTURES=80-real;90" >/dev/null
  cmake --build "$build"
fi
[ -f "$build/CPackConfig.cmake" ] || { echo "package: $build is not a configured build" >&2; exit 1; }
cmake --build "$build" >/dev/null  # the man page too (help2man over the built program)
mkdir -p "$out"
out=$(realpath "$out")
(cd "$build" && cpack -G DEB -B "$out/cpack" >/dev/null)
mv "$out"/cpack/*.deb "$out"/
rm -rf "$out/cpack"
ls "$out"/*.deb
