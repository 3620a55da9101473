#!/usr/bin/env python3
"""Instrumentation is free when off: proves it by compilation, not by timing.

Copies kernels/ to a temporary folder, deletes every probe call from the algorithm sources
(the lines `probe.…`, `if (…) probe.…`, `for (…) probe.…`), compiles kernels/launch.cu from
both folders to PTX for sm_90, and compares every kernel instantiated with NoProbe (the
timed instantiation) with its probe-free twin. Identical PTX means identical machine code,
so identical timings. As a check that the comparison can fail, the TraceProbe kernels must
differ. kernels/race.cu is compiled too: its race-revealing kernels (RaceProbe) must hold the same
barriers, fences and shared-memory accesses as their timed twins, in the same order, while the
TraceProbe ones add barriers (the check can fail). Usage: probe-free-check.py [NVCC]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

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


def ptx_entries(nvcc, kernels_dir, out, source="launch.cu"):
    subprocess.run([nvcc, "-ptx", "-arch=sm_90", "-std=c++17", "-O3", "-w", "-I", kernels_dir,
                    os.path.join(kernels_dir, source), "-o", out], check=True)
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


# Instructions that order threads or memory, and shared-memory accesses.
ORDERING = re.compile(r"^\s*(?:@!?%p\d+\s+)?((?:bar|barrier|membar|fence)\.[\w.]*|(?:ld|st)\.(?:volatile\.)?shared\.[\w.]*)")


def ordering_sequence(body):
    """The kernel's barriers, fences and shared-memory accesses, in program order."""
    ops = []
    for line in body.splitlines():
        m = ORDERING.match(line)
        if m:
            ops.append(re.sub(r"\.[usbf]\d+$|\.v\d\..*$", "", m.group(1)))
    return ops


def ordering(body):
    counts = {}
    for op in ordering_sequence(body):
        counts[op] = counts.get(op, 0) + 1
    return counts


def demangle(nvcc, names):
    filt = shutil.which("c++filt") or os.path.join(os.path.dirname(nvcc), "cu++filt")  # binutils, or the toolkit's
    out = subprocess.run([filt], input="\n".join(names), capture_output=True, text=True, check=True).stdout
    return {k: v.replace(" >", ">") for k, v in zip(names, out.splitlines())}


def race_check(nvcc, entries):
    """Each RaceProbe kernel against its NoProbe twin: no ordering instruction or shared access added."""
    names = demangle(nvcc, list(entries))
    by_name = {v: k for k, v in names.items()}
    bad, checked, traced_more = [], 0, 0
    for mangled, pretty in names.items():
        probe = re.search(r"rl::kernels::(Race|Trace)Probe<(\w+)>", pretty)
        if not probe:
            continue
        twin = by_name.get(pretty.replace(probe.group(0), "rl::kernels::NoProbe"))
        if twin is None:  # the matrix kernels' timed twins live in bench.cu
            if probe.group(1) == "Race":
                bad.append(f"no timed twin for {pretty}")
            continue
        mine, timed = ordering(entries[mangled]), ordering(entries[twin])
        extra = {k: v - timed.get(k, 0) for k, v in mine.items() if v > timed.get(k, 0)}
        if probe.group(1) == "Race":
            checked += 1
            if extra:
                bad.append(f"{pretty}: adds {extra}")
            elif ordering_sequence(entries[mangled]) != ordering_sequence(entries[twin]):
                bad.append(f"{pretty}: its barriers and shared accesses come in another order than the timed kernel's")
        elif any(k.startswith(("bar", "barrier")) for k in extra):
            traced_more += 1
    print(f"probe-free-check: {checked} race-revealing kernels hold the barriers, fences and shared accesses of their "
          f"timed twins, in the same order, and nothing more; {traced_more} traced twins add barriers (the check can fail)")
    for b in bad[:10]:
        print("  " + b)
    return 0 if checked and not bad and traced_more else 1


def main():
    nvcc = sys.argv[1] if len(sys.argv) > 1 else shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    with tempfile.TemporaryDirectory() as tmp:
        stripped = os.path.join(tmp, "stripped")
        deleted = strip(os.path.join(ROOT, "kernels"), stripped)
        kernels = os.path.join(ROOT, "kernels")
        jobs = [(kernels, "with.ptx", "launch.cu"), (stripped, "without.ptx", "launch.cu"),
                (kernels, "race.ptx", "race.cu"), (stripped, "race-without.ptx", "race.cu")]
        # Side by side: each launch.cu takes a minute of one core, the longest test of CI's round.
        with ThreadPoolExecutor(max_workers=2) as pool:
            a, b, race, race_stripped = pool.map(lambda j: ptx_entries(nvcc, j[0], os.path.join(tmp, j[1]), j[2]), jobs)
    race_twins = dict(a)  # with the traced kernels, to show the count can fail
    race_twins.update(race)
    a.update({k: v for k, v in race.items() if "NoProbe" in k})
    b.update({k: v for k, v in race_stripped.items() if "NoProbe" in k})
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
    return race_check(nvcc, race_twins)


if __name__ == "__main__":
    sys.exit(main())
