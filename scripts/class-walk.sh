#!/bin/bash
# A scripted class under Xvfb, as issue 32 asks: Harris' plan in presenter mode stepped scene by
# scene with PageDown and back with PageUp, the race from presenter mode (R: the shipped
# recording without a GPU), compare mode, the bandwidth chart. One screenshot a step, for
# docs/classroom.md. Needs Xvfb, xdotool and ffmpeg (x11grab).
# Usage: scripts/class-walk.sh BINARY OUTDIR [WxH]
set -euo pipefail
bin=$(realpath "$1"); out=$2; size=${3:-1600x900}
mkdir -p "$out"
home=$(mktemp -d); trap 'kill $app $xvfb 2>/dev/null || true; rm -rf "$home"' EXIT
display=:$((90 + RANDOM % 100))
Xvfb "$display" -screen 0 "${size}x24" >/dev/null 2>&1 & xvfb=$!
sleep 1
export DISPLAY=$display XDG_CONFIG_HOME=$home
shot() { sleep 1.2; ffmpeg -loglevel error -y -f x11grab -video_size "$size" -i "$display" -frames:v 1 "$out/$1.png"; }
keys() { for k in "$@"; do xdotool key "$k"; sleep 0.4; done; }
"$bin" --backend sim --plan harris --present >"$out/app.log" 2>&1 & app=$!
sleep 4
shot scene1
for n in 2 3 4 5 6 7; do keys Next; shot "scene$n"; done
keys Next; shot plan-end
for n in 6 5 4 3 2 1; do keys Prior; done; shot back-to-scene1
keys 4; shot picked-by-hand                                  # keys 1-9 pick an algorithm: the plan closes
kill $app; wait $app 2>/dev/null || true
"$bin" --backend sim --present --algorithm missing-syncthreads >>"$out/app.log" 2>&1 & app=$!
sleep 4
keys r; shot race-presenter; keys End; shot race-presenter-last
kill $app; wait $app 2>/dev/null || true
"$bin" --backend sim --present --algorithm missing-syncthreads --compare sequential --stage 2 >>"$out/app.log" 2>&1 & app=$!
sleep 4; shot compare-presenter
kill $app; wait $app 2>/dev/null || true
"$bin" --backend sim --present --algorithm warp-shuffle --view lanes --stage 1 >>"$out/app.log" 2>&1 & app=$!
sleep 4; shot lanes-presenter
kill $app; wait $app 2>/dev/null || true
"$bin" --backend sim --present --tab bandwidth >>"$out/app.log" 2>&1 & app=$!
sleep 4; shot chart-presenter
kill $app; wait $app 2>/dev/null || true
"$bin" --backend sim --algorithm warp-shuffle --view lanes --stage 1 >>"$out/app.log" 2>&1 & app=$!
sleep 4; shot lanes-normal
kill $app; wait $app 2>/dev/null || true
# The coalescing plan's first three scenes, as a student steps them: each scene's own Look.
"$bin" --backend sim --plan coalescing >>"$out/app.log" 2>&1 & app=$!
sleep 4; shot coalescing-scene1
for n in 2 3; do keys Next; shot "coalescing-scene$n"; done
kill $app; wait $app 2>/dev/null || true
# A student's fresh start at block 32 with floats: values and the tree's arrows beside them.
mkdir -p "$home/reduction-lab/scenes"
echo '{"algorithm": "sequential", "type": "float", "block": 32, "size": 32, "input": "random:3", "stage": 1}' \
  >"$home/reduction-lab/scenes/floats.json"
"$bin" --backend sim --scene floats >>"$out/app.log" 2>&1 & app=$!
sleep 4; shot floats-block32
echo "class-walk: $(ls "$out"/*.png | wc -l) screenshots in $out"
