#!/usr/bin/env bash
# Regenerates the parts of docs/algorithms.md and README.md that come from the catalog
# (kernels/algorithms.h) and the lessons (kernels/lessons/ID.md): `reduction-lab list --format
# markdown` and `--format summary`, spliced in between the BEGIN and END markers. cli_test fails
# while they differ.
#   scripts/algorithms-doc.sh [BINARY]   (default build-ci/reduction-lab)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build-ci/reduction-lab}
splice() {  # FILE TEXT: TEXT between the file's BEGIN generated and END generated markers
  python3 - "$1" "$2" <<'PY'
import sys
path, generated = sys.argv[1], sys.argv[2]
text = open(path).read()
begin, end = "<!-- BEGIN generated", "<!-- END generated -->"
head = text[:text.index(begin)]
head_marker = text[text.index(begin):text.index("\n", text.index(begin)) + 1]
tail = text[text.index(end):]
gap = "\n" if path.endswith("algorithms.md") else ""  # the lessons follow a blank line
open(path, "w").write(head + head_marker + gap + generated.rstrip("\n") + "\n" + gap + tail)
PY
  echo "algorithms-doc: $1 updated"
}
# Both texts first, as assignments: set -e stops on a failed substitution there (not inside an
# argument), so a missing or failing binary leaves both files as they were.
[ -x "$bin" ] || { echo "algorithms-doc: no binary at $bin (build it, or name it)" >&2; exit 1; }
markdown=$("$bin" list --format markdown)
summary=$("$bin" list --format summary)
splice docs/algorithms.md "$markdown"
splice README.md "$summary"
