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
# A unity build (REDLAB_UNITY) lists its unity files, not the sources they include: each source
# gets its unity file's command, in a database of its own (scripts/unity-compile-db.py).
db=$(mktemp -d)
trap 'rm -rf "$db"' EXIT
scripts/unity-compile-db.py build-ci/compile_commands.json "$db/compile_commands.json"
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 4 clang-tidy -p "$db" --quiet \
  --extra-arg=-Wno-unknown-warning-option --extra-arg=-Wno-error 2>/dev/null
