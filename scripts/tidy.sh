#!/usr/bin/env bash
# clang-tidy's checks of .clang-tidy (function size) over the host sources, or the FILES named.
# Needs a configured build-ci (CMake writes its compile_commands.json).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build-ci/compile_commands.json ] || { echo "tidy: configure build-ci first (scripts/test.sh does)" >&2; exit 1; }
# A unity build (REDLAB_UNITY) lists its unity files, not the sources they include: each source
# also gets its unity file's command, in a database of its own (scripts/unity-compile-db.py).
db=$(mktemp -d)
trap 'rm -rf "$db"' EXIT
scripts/unity-compile-db.py build-ci/compile_commands.json "$db/compile_commands.json"
if [ $# -eq 0 ]; then
  # Every source through the file that compiles it, so shared headers are parsed once a unity
  # file; the header filter then takes in the sources a unity file includes.
  mapfile -t files < <(git ls-files 'app/*.cpp' 'kernels/model/*.cpp')
  scripts/unity-compile-db.py --units build-ci/compile_commands.json "${files[@]}" >"$db/units"
  set -- --header-filter='(app|kernels)/.*\.(h|cpp)$'
  per=1
else
  printf '%s\n' "$@" >"$db/units"
  set --
  per=4
fi
xargs -P "$(nproc)" -n "$per" clang-tidy -p "$db" --quiet --extra-arg=-Wno-unknown-warning-option \
  --extra-arg=-Wno-error "$@" <"$db/units" 2>/dev/null
