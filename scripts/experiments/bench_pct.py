#!/usr/bin/env python3
"""bench_pct.py FILE...: one line a bench row (the app's `bench --format json`): the file's
name, algorithm, shape, type, block, grid and % of peak, for reading a call's results."""
import json
import os
import sys

for path in sys.argv[1:]:
    with open(path) as f:
        d = json.load(f)
    for r in d.get("rows", []):
        shape = f"{r['rows']}x{r['cols']}" if "cols" in r else str(r.get("n", "?"))
        ok = "" if r.get("check_ok", True) else " CHECK FAILED"
        print(f"{os.path.basename(path):22} {r.get('algorithm', '?'):16} {shape:14} {r.get('type', '?'):6} "
              f"block {r.get('block', '-')!s:5} grid {r.get('grid', '-')!s:6} {r.get('pct_of_peak', 0):5.1f}{ok}")
