#!/usr/bin/env bash
# The command of this call (2026-12-06 09:15 UTC, the H200 GPU-ecdb3f22 held warm, the rounds_pay build), as run:
scripts/experiments/sweep_call.sh > /dev/null 2>&1
