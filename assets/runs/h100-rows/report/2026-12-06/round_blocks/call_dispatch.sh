#!/usr/bin/env bash
# Session 12 (asked: an H200): on an H200 s12b (the two-wave rule's grid tests and bench, the whole
# sweep); on an H100 s12e (lanes-per-row's rounds in blocks of 128 to 1024).
cd "$(dirname "$0")/.."
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then exec bash .gpupack/s12b.sh; fi
exec bash .gpupack/s12e.sh
