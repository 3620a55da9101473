#!/usr/bin/env bash
# What ran: the second of the two calls that ../first_waits_chunks/call.sh records (GPU-ce95d05d,
# 2026-12-07 17:05 UTC, warm, the same pack), the matrix family's traces alone, cut at 580 s in
# flat-rows:
MATRIX_TRACES=1 bash scripts/experiments/first_waits_chunks_call.sh
