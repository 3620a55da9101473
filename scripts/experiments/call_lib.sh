# What the device calls in scripts/experiments share; sourced, not run. `call_begin NAME` makes the
# results folder $OUT/NAME (./gpu-out/NAME off the device tool) and records the card; `step` runs
# one command under a time limit into NAME/STEP.txt, adds a line to steps.txt and packs the folder
# into NAME.tgz, so a call cut short still returns what it finished (the tool returns only a few
# files); `bench` runs the app's bench (from `scripts/gpu-suite.sh pack`, the pack in $PACK, or
# another build of the program in $LAB) into NAME/STEP.json, `old` the same with the carried
# .gpupack/old-reduction-lab.gz; `summarize` writes the steps' test and sanitizer verdicts to
# summary.txt.
call_begin() {
  cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
  export PATH=/usr/local/cuda/bin:$PATH
  scripts/gpu-unpack.sh  # the carried pack, replacing an older one a warm machine kept
  CALL=$1 O=${OUT:-gpu-out}
  R=$O/$CALL
  mkdir -p "$R" .exp
  { nvidia-smi --query-gpu=uuid,name,driver_version,memory.total --format=csv,noheader; date -u '+%Y-%m-%d %H:%M:%S UTC'; } \
    > "$R/device.txt" 2>&1
}
save() { tar -czf "$O/$CALL.tgz" -C "$O" "$CALL"; }
step() {  # step NAME LIMIT COMMAND...: its output in NAME.txt
  local name=$1 limit=$2; shift 2
  local t0=$SECONDS; timeout "$limit" "$@" > "$R/$name.txt" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - t0)) s" | tee -a "$R/steps.txt"
  save
}
bench() {  # bench NAME LIMIT ARGS...: the bench's results in NAME.json (a run the window can open)
  local name=$1 limit=$2 pack=${PACK:-.gpu}; shift 2  # PACK: another unpacked pack's folder
  local lab=${LAB:-$pack/bin/reduction-lab}             # LAB: another build of the program, run the same way
  step "$name" "$limit" "$pack/run.sh" "$lab" bench --seconds 0.2 --format json \
    --out "$R/$name.json" "$@"
}
old() {  # old NAME LIMIT ARGS...: `bench` run the same way with .gpupack/old-reduction-lab.gz, the
  # reduction-lab of a pack from before a patch (unpacked into .exp at the first call of a run)
  if [ -z "${OLD_LAB:-}" ]; then
    gunzip -c .gpupack/old-reduction-lab.gz > .exp/old-reduction-lab && chmod +x .exp/old-reduction-lab || return
    OLD_LAB=.exp/old-reduction-lab
  fi
  LAB=$OLD_LAB bench "$@"
}
summarize() {  # summarize: each step's last test and sanitizer verdicts, a line a file, in summary.txt
  local f
  for f in "$R"/*.txt; do
    [ "$(basename "$f")" = summary.txt ] && continue
    echo "$(basename "$f"): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|sanitize ' "$f" | tail -3 | tr '\n' ' ')"
  done > "$R/summary.txt"
}
