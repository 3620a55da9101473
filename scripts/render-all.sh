#!/usr/bin/env bash
# Every algorithm's every stage in every view, headless, and one sha256 a PNG:
#   scripts/render-all.sh BINARY DIR   (DIR/sums.txt; compare two builds' with diff)
# A refactor that must not change what is drawn runs it before and after (issue 31).
set -uo pipefail
bin=$1 dir=$2
mkdir -p "$dir"
ids=$("$bin" list --format json | python3 -c '
import json, sys
for a in json.load(sys.stdin):
    if a["family"] not in ("baseline", "across GPUs"): print(a["id"])')
for id in $ids; do
  for view in memory lanes divergence banks grid coalescing; do
    case $id in batched-*|column-*|block-2d) shape=(--rows 5 --cols 300 --block 64) ;; *) shape=(-n 3000 --block 64) ;; esac
    "$bin" render -a "$id" --backend sim --type float --input random:3 "${shape[@]}" --view "$view" \
      --all-stages --width 800 --height 450 --out "$dir/$id-$view" >/dev/null 2>>"$dir/errors.txt" ||
      echo "$id $view: refused" >>"$dir/refused.txt"
  done
done
for id in ring-all-reduce one-shot-all-reduce; do  # the family across GPUs: its one view
  "$bin" render -a "$id" --backend sim --type float --input random:3 --gpus 4 -n 37 --view gpus \
    --all-stages --width 800 --height 450 --out "$dir/$id-gpus" >/dev/null 2>>"$dir/errors.txt" ||
    echo "$id gpus: refused" >>"$dir/refused.txt"
done
(cd "$dir" && sha256sum ./*.png | sort -k2) >"$dir/sums.txt"
echo "$(wc -l <"$dir/sums.txt") PNGs; $(cat "$dir/refused.txt" 2>/dev/null | wc -l) refused"
