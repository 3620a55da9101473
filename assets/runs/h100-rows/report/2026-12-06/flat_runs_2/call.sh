#!/usr/bin/env bash
# The command of this call (2026-12-06 07:21 UTC, kind nvidia-h200 asked, an H100 came), as run:
scripts/experiments/flat_runs_call.sh >/dev/null 2>&1; .gpupack/s10f.sh >/dev/null 2>&1
# .gpupack/s10f.sh is queue/call.sh of this day's queue folders: it builds and runs
# scripts/experiments/flat_rows_queue.cu twice.
