#!/usr/bin/env bash
# The command of this call (2026-12-06, the H200 GPU-748a91ba held warm), as run:
scripts/experiments/sweep_call.sh > /dev/null 2>&1
