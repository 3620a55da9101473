#!/usr/bin/env bash
# Regenerates the part of docs/algorithms.md that comes from the catalog (kernels/algorithms.h)
# and the lessons (kernels/lessons/ID.md): `reduction-lab list --format markdown`, spliced in
# between the BEGIN and END markers. cli_test fails while the two differ.
#   scripts/algorithms-doc.sh [BINARY]   (default build-ci/reduction-lab)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build-ci/reduction-lab}
doc=docs/algorithms.md
generated=$("$bin" list --format markdown)
python3 - "$doc" "$generated" <<'PY'
import sys
path, generated = sys.argv[1], sys.argv[2]
text = open(path).read()
begin, end = "<!-- BEGIN generated", "<!-- END generated -->"
head = text[:text.index(begin)]
head_marker = text[text.index(begin):text.index("\n", text.index(begin)) + 1]
tail = text[text.index(end):]
open(path, "w").write(head + head_marker + "\n" + generated.rstrip("\n") + "\n\n" + tail)
PY
echo "algorithms-doc: $doc updated"
