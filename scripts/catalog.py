"""The algorithm table for the scripts, as the program lists it (`reduction-lab list --format
json`, every column by name): the one place that lists the algorithms stays kernels/algorithms.h,
and no script reads that header.

The program: $REDLAB_BINARY (a command line, e.g. ".gpu/run.sh .gpu/bin/reduction-lab"), else
the first of build-ci/reduction-lab and build/reduction-lab that exists."""
import functools
import json
import os
import shlex
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def program():
    if os.environ.get("REDLAB_BINARY"):
        return shlex.split(os.environ["REDLAB_BINARY"])
    for folder in ("build-ci", "build"):
        path = os.path.join(ROOT, folder, "reduction-lab")
        if os.access(path, os.X_OK):
            return [path]
    raise SystemExit("catalog.py: no reduction-lab to list the algorithms: build it (scripts/test.sh) "
                     "or set REDLAB_BINARY")


@functools.lru_cache(maxsize=None)
def rows():
    out = json.loads(subprocess.check_output(program() + ["list", "--format", "json"], text=True))
    if not out:
        raise SystemExit("catalog.py: the program listed no algorithms")
    for r in out:
        r["source"] = os.path.basename(r["source"])
        r["harris"] = r["harris_step"]
    return out


def harris_order():
    """Harris' kernels 1 to 7, in his order."""
    return [r["id"] for r in sorted((r for r in rows() if r["harris"]), key=lambda r: r["harris"])]


def kernel_sources():
    """The .cuh files (in kernels/) that hold the algorithms' kernels."""
    return sorted({r["source"] for r in rows() if r["source"]})


if __name__ == "__main__":  # catalog.py: what the scripts read, in one line
    print(f"catalog.py: {len(rows())} rows from {' '.join(program())}: Harris {' '.join(harris_order())}; "
          f"sources {' '.join(kernel_sources())}")
