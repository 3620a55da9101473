#!/usr/bin/env bash
# clang-tidy's checks of .clang-tidy (function size) over the host sources, or the FILES named.
# Needs a configured build-ci (CMake writes its compile_commands.json).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build-ci/compile_commands.json ] || { echo "tidy: configure build-ci first (scripts/test.sh does)" >&2; exit 1; }
if [ $# -eq 0 ]; then
  mapfile -t files < <(git ls-files 'app/*.cpp' 'kernels/model/*.cpp')
else
  files=("$@")
fi
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 4 clang-tidy -p build-ci --quiet \
  --extra-arg=-Wno-unknown-warning-option --extra-arg=-Wno-error 2>/dev/null
