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
# gets its unity file's command, in a database of its own.
db=$(mktemp -d)
trap 'rm -rf "$db"' EXIT
python3 - build-ci/compile_commands.json "$db/compile_commands.json" <<'PY'
import json, os, re, sys
out = []
for e in json.load(open(sys.argv[1])):
    if "/Unity/unity_" not in e["file"]:
        out.append(e)
        continue
    unity = os.path.join(e["directory"], e["file"])
    sources = re.findall(r'^#include "(/.+)"$', open(unity).read(), re.M)
    # A command that does not name its unity file, or a unity file of no sources, would leave
    # sources to clang-tidy's guesses, or check them as headers its filter drops: stop instead.
    if e["file"] not in e["command"] or not sources:
        sys.exit(f"tidy: cannot give {unity}'s sources their command")
    out += [dict(e, file=src, command=e["command"].replace(e["file"], src)) for src in sources]
json.dump(out, open(sys.argv[2], "w"))
PY
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 4 clang-tidy -p "$db" --quiet \
  --extra-arg=-Wno-unknown-warning-option --extra-arg=-Wno-error 2>/dev/null
