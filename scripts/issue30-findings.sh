#!/usr/bin/env bash
# Issue 30's findings, replayed through the command line against any build:
#   scripts/issue30-findings.sh BINARY
# Each line says "ok" (the finding is mended) or "FOUND" (the build still does it). Run on the
# build before the issue and after: the closing note gives both. No GPU and no display needed.
set -uo pipefail
bin=$(realpath "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
found=0
say() {  # say N WHAT STATUS(0 = mended)
  if [ "$3" = 0 ]; then echo "ok     $1: $2"; else echo "FOUND  $1: $2"; found=$((found + 1)); fi
}
run() { timeout "${T:-20}" "$@" >out.txt 2>err.txt; echo $? >rc.txt; }

# 1: the writer's temporary is a guessable name beside the target, followed if a link.
echo keep >victim
sh -c 'ln -s victim out.png.tmp-$$; exec "$0" render -a sequential --backend sim --stage 0 -o out.png' "$bin" >/dev/null 2>&1
say 1 "a link at <out>.tmp-<pid> is not written through" "$(grep -qx keep victim && echo 0 || echo 1)"
rm -f out.png.tmp-*

# 3: an escape sequence in an input file reaches the terminal raw.
printf '1\n2\n\033]0;owned\007\n' >esc.txt
run "$bin" trace -a sequential --backend sim --input esc.txt
say 3 "escape bytes from a file are escaped in messages" "$(grep -q $'\033' err.txt && echo 1 || echo 0)"
head -c 100000 /dev/zero | tr '\0' 'x' >long.txt
run "$bin" trace -a sequential --backend sim --input long.txt
say 3 "a 100 KB line is not echoed whole" "$([ "$(wc -c <err.txt)" -lt 2000 ] && echo 0 || echo 1)"

# 4: a video name that looks like an option or a protocol.
if command -v ffmpeg >/dev/null; then
  T=60 run "$bin" render -a sequential --backend sim --video=-version.mp4
  say 4 "--video=-version.mp4 is a file" "$([ -s ./-version.mp4 ] && echo 0 || echo 1)"
  T=60 run "$bin" render -a sequential --backend sim --video run10:30.mp4
  say 4 "--video run10:30.mp4 is a file" "$([ -s run10:30.mp4 ] && echo 0 || echo 1)"
  start=$(date +%s)
  T=60 run "$bin" render -a sequential --backend sim -n 4096 --block 1024 --video /nonexistent/x.mp4
  say 4 "an unwritable video folder fails before rendering" "$([ $(( $(date +%s) - start )) -lt 3 ] && echo 0 || echo 1)"
fi

# 5: bench --out keeps the previous results when the new run is refused.
echo '{"previous": true}' >results.json
run "$bin" bench -a sequential --backend sim --sizes 2^40 --out results.json --format json
say 5 "a refused bench leaves the previous results" "$(grep -q previous results.json && echo 0 || echo 1)"

# 6: a full disk (ulimit -f) is an error message, not SIGXFSZ.
sh -c 'ulimit -f 1; exec "$0" render -a sequential --backend sim --stage 0 -o big.png' "$bin" >/dev/null 2>err.txt
rc=$?
say 6 "a file-size limit gives an error, not exit 153" "$([ "$rc" != 153 ] && [ -s err.txt ] && echo 0 || echo 1)"
say 6 "and leaves no temporary behind" "$(ls -a | grep -q 'tmp-' && echo 1 || echo 0)"

# 10: readers without limits.
T=10 run "$bin" render --chart /dev/zero -o chart.png
say 10 "render --chart /dev/zero is refused at once" "$([ "$(cat rc.txt)" != 124 ] && [ "$(cat rc.txt)" != 0 ] && echo 0 || echo 1)"
mkfifo fifo.json
T=10 run "$bin" render --chart fifo.json -o chart.png
say 10 "a FIFO is refused, not waited on" "$([ "$(cat rc.txt)" != 124 ] && echo 0 || echo 1)"

# 11: a recording that contradicts itself is refused by field, not drawn.
python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
j["grid"] = 0
json.dump(j, open("bad.json", "w"))' "$root/assets/races/missing-syncthreads.json"
T=60 run "$bin" --race-file bad.json --headless --quit-after-frames 2
say 11 "a recording with grid 0 is refused by field" "$(grep -q grid err.txt && [ "$(cat rc.txt)" != 0 ] && echo 0 || echo 1)"

# 12: bench --block 1024 runs non-pow2-block at the block given.
T=120 run "$bin" bench -a non-pow2-block --backend sim --block 1024 --sizes 2^16 --seconds 0.01
say 12 "bench --block 1024 on non-pow2-block runs" "$([ "$(cat rc.txt)" = 0 ] && echo 0 || echo 1)"

# 13: an impossible shape gets a memory check, not std::bad_alloc.
run "$bin" bench -a batched-rows --backend sim --shapes 1x2^40
say 13 "--shapes 1x2^40 is refused by name" "$(grep -q bad_alloc err.txt out.txt && echo 1 || echo 0)"

# 15: empty lists and junk sizes are refused.
run "$bin" bench -a '' --backend sim --sizes 2^10
say 15 "bench -a '' is refused" "$([ "$(cat rc.txt)" = 2 ] && echo 0 || echo 1)"
run "$bin" bench -a ,,, --backend sim --sizes 2^10
say 15 "bench -a ,,, is refused" "$([ "$(cat rc.txt)" = 2 ] && echo 0 || echo 1)"
run "$bin" --window-size 1600x900junk --headless --quit-after-frames 1
say 15 "--window-size 1600x900junk is refused" "$([ "$(cat rc.txt)" = 2 ] && echo 0 || echo 1)"
mkdir -p shots
run "$bin" render -a sequential --backend sim --all-stages --out shots/
say 15 "--all-stages --out DIR/ is refused" "$([ -e shots/-stage00.png ] && echo 1 || echo 0)"

# 16: messages name the reason.
run "$bin" render -a sequential --backend sim --stage -1
say 16 "--stage -1 names its range briefly" "$([ "$(wc -c <err.txt)" -lt 300 ] && echo 0 || echo 1)"
mkdir -p adir
run "$bin" trace -a sequential --backend sim --input adir
say 16 "a folder given as input is not 'no file'" "$(grep -q "no file" err.txt && echo 1 || echo 0)"

echo "$found still found"
[ "$found" = 0 ]
