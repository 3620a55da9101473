"""The algorithm table (kernels/algorithms.h) for the scripts, read from its rows: the one
place that lists the algorithms stays the C++ header."""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_ROW = re.compile(
    r'\{"(?P<id>[a-z0-9-]+)",\s*(?:A::\w+|\{\}),\s*(?:B::\w+|\{\}),\s*F::(?P<family>\w+),\s*"[^"]*",\s*'
    r'(?P<source>\w+|\{\}),\s*C::\w+,\s*(?:P2|Any),\s*(?P<gpu>true|false),\s*'
    r'(?P<harris>\d+),\s*\w+,\s*I::(?P<indexing>\w+),\s*T::\w+,\s*(?:true|false)(?:,\s*(?:"(?P<fix>[a-z0-9-]*)"|\{\}))?(?:,\s*(?:true|false)){0,4}\}')
_SOURCES = {"kTree": "tree.cuh", "kShuffle": "shuffle.cuh", "kCg": "cg.cuh", "kSingle": "single_pass.cuh",
            "kMatrix": "matrix.cuh", "kShortRows": "short_rows.cuh",
            "kHopper": "hopper.cuh"}


def rows():
    with open(os.path.join(ROOT, "kernels", "algorithms.h")) as f:
        text = f.read()
    out = [m.groupdict() for m in _ROW.finditer(text)]
    if not out:
        raise SystemExit("catalog.py: no rows found in kernels/algorithms.h")
    for r in out:
        r["source"] = _SOURCES.get(r["source"], "")
        r["harris"] = int(r["harris"])
    return out


def harris_order():
    """Harris' kernels 1 to 7, in his order."""
    return [r["id"] for r in sorted((r for r in rows() if r["harris"]), key=lambda r: r["harris"])]


def kernel_sources():
    """The .cuh files (in kernels/) that hold the algorithms' kernels."""
    return sorted({r["source"] for r in rows() if r["source"]})


if __name__ == "__main__":  # catalog.py BINARY: the rows read here are the binary's catalog
    import json
    import subprocess
    import sys
    listed = [a["id"] for a in json.loads(subprocess.check_output([sys.argv[1], "list", "--format", "json"]))]
    read = [r["id"] for r in rows()]
    if listed != read:
        sys.exit(f"catalog.py reads {read}\nbut the binary lists {listed}")
    print(f"catalog.py: {len(read)} rows, as the binary lists them")
