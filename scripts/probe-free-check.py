#!/usr/bin/env python3
"""Instrumentation is free when off: proves it by compilation, not by timing.

Copies kernels/ to a temporary folder, deletes every probe call from the algorithm sources
(the lines `probe.…`, `if (…) probe.…`, `for (…) probe.…`), compiles kernels/launch.cu from
both folders to PTX for sm_90, and compares every kernel instantiated with NoProbe (the
timed instantiation) with its probe-free twin. Identical PTX means identical machine code,
so identical timings. As a check that the comparison can fail, the TraceProbe kernels must
differ. Usage: probe-free-check.py [NVCC]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import catalog

ROOT = catalog.ROOT
ALGORITHM_SOURCES = catalog.kernel_sources()
PROBE_LINE = re.compile(r"^\s*((if|for)\s*\(.*\)\s*)?probe\.")


def strip(src_dir, dst_dir):
    shutil.copytree(src_dir, dst_dir)
    deleted = 0
    for name in ALGORITHM_SOURCES:
        path = os.path.join(dst_dir, name)
        with open(path) as f:
            lines = f.readlines()
        kept = [line for line in lines if not PROBE_LINE.match(line)]
        deleted += len(lines) - len(kept)
        left = [line for line in kept if re.search(r"\bprobe\.\w+\(", line)]
        if left:
            sys.exit(f"probe-free-check: {name}: a probe call this script cannot delete: {left[0].strip()}")
        with open(path, "w") as f:
            f.writelines(kept)
    return deleted


def ptx_entries(nvcc, kernels_dir, out):
    subprocess.run([nvcc, "-ptx", "-arch=sm_90", "-std=c++17", "-O3", "-w", "-I", kernels_dir,
                    os.path.join(kernels_dir, "launch.cu"), "-o", out], check=True)
    entries, name, body = {}, None, []
    with open(out) as f:
        for line in f:
            m = re.match(r"\.(visible|weak) \.entry (\S+)\(", line)
            if m:
                name, body = m.group(2), []
            if name:
                body.append(line)
                if line.startswith("}"):
                    entries[name] = "".join(body)
                    name = None
    return entries


def main():
    nvcc = sys.argv[1] if len(sys.argv) > 1 else shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    with tempfile.TemporaryDirectory() as tmp:
        stripped = os.path.join(tmp, "stripped")
        deleted = strip(os.path.join(ROOT, "kernels"), stripped)
        a = ptx_entries(nvcc, os.path.join(ROOT, "kernels"), os.path.join(tmp, "with.ptx"))
        b = ptx_entries(nvcc, stripped, os.path.join(tmp, "without.ptx"))
    timed = sorted(k for k in a if "NoProbe" in k)
    traced = sorted(k for k in a if "TraceProbe" in k)
    differ = [k for k in timed if a[k] != b.get(k)]
    traced_same = [k for k in traced if a[k] == b.get(k)]
    print(f"probe-free-check: {deleted} probe lines deleted; {len(timed)} timed (NoProbe) kernels compared, "
          f"{len(timed) - len(differ)} identical; {len(traced)} traced kernels, "
          f"{len(traced) - len(traced_same)} changed by the deletion")
    for k in differ[:10]:
        print("  differs:", k)
    if not timed or differ:
        return 1
    if len(traced_same) == len(traced):
        print("  the deletion changed no traced kernel: the comparison proves nothing")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
