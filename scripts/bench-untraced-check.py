#!/usr/bin/env python3
"""The benchmark compiles no traced kernels: its Reducers are Traceable = false (docs/design.md).

Lists the symbols of the kernels' host stubs in bench.cu's object (nm -C, those naming
`__device_stub__`: a stub's function and its static locals, several a kernel; the static locals
stay where the stub is inlined, in Release and Debug builds alike) and fails on any with TraceProbe
but cg-grid-sync's (its traced twin sets, through the occupancy query, the grid that timed and
traced runs share), printing the first 20. As a check that the listing can fail, the object must
hold NoProbe kernels. Before 732ff39 it held 482
traced kernels that it never launched.
Usage: bench-untraced-check.py OBJECT...  (the rl_kernels objects, or one ;-list of them as CMake
passes $<TARGET_OBJECTS>; the one named bench.cu.o is read)
"""
import subprocess
import sys


def main(paths):
    paths = [p for arg in paths for p in arg.split(";") if p]
    objects = [p for p in paths if p.endswith("bench.cu.o")]
    if len(objects) != 1:
        print(f"bench-untraced-check: expected one bench.cu.o among {len(paths)} objects, "
              f"found {len(objects)}")
        return 2
    nm = subprocess.run(["nm", "-C", objects[0]], check=True, capture_output=True, text=True)
    stubs = [s for s in nm.stdout.splitlines() if "__device_stub__" in s]
    timed = [s for s in stubs if "NoProbe" in s]
    traced = [s for s in stubs if "TraceProbe" in s and "cg_grid_sync" not in s]
    print(f"bench-untraced-check: {objects[0]}: {len(timed)} kernel stub symbols with NoProbe, "
          f"{len(traced)} with TraceProbe")
    if not timed:
        print("bench-untraced-check: no NoProbe kernel: not the benchmark's object, "
              "or nm read nothing")
        return 1
    for s in traced[:20]:
        print("  traced:", s)
    return 1 if traced else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
