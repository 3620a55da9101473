#!/usr/bin/env bash
# Ships the race recordings a GPU suite run made (ONLY_RACE=1 scripts/gpu-suite.sh run, or the
# whole suite): the two pitfalls' `trace --runs 100` JSON into assets/races/ID.json (embedded at
# the next build, shown by the window without a GPU, labelled with their device and date), and
# the EGL screenshots of the first stale read into docs/screenshots/, reduced.
#   scripts/ship-races.sh RESULTS.tgz
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 1 ] && [ -f "$1" ] || { echo "usage: scripts/ship-races.sh RESULTS.tgz (from the GPU suite's \$OUT)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -xzf "$1" -C "$tmp"
for id in missing-syncthreads legacy-warp-synchronous; do
  src="$tmp/race_$id.json"
  [ -f "$src" ] || { echo "ship-races: $1 holds no race_$id.json" >&2; exit 1; }
  python3 - "$src" "assets/races/$id.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
if t.get("backend") != "cuda" or "race" not in t:
    sys.exit(f"ship-races: {sys.argv[1]} is not a GPU race recording (backend {t.get('backend')!r})")
json.dump(t, open(sys.argv[2], "w"), separators=(",", ":"))
r = t["race"]
wrong = sum(1 for x in r["results"] if x != r["expected"])
print(f"ship-races: {sys.argv[2]}: {t['device']}, {r['date']}: {wrong} of {r['runs']} runs wrong, "
      f"{len(r['stale'])} stale reads in block {r['block']}")
PY
done
for png in "$tmp"/race_*.png; do
  [ -f "$png" ] || continue
  dst="docs/screenshots/egl-$(basename "$png")"
  pngquant --quality 70-95 --force --output "$dst" "$png" && optipng -quiet -o2 "$dst"
  echo "ship-races: $dst"
done
