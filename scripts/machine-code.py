#!/usr/bin/env python3
"""Writes assets/machine_code/redux-sync.txt on the GPU machine: the warp stages of redux-sync's
and warp-shuffle's timed int sums as `cuobjdump -sass` prints them from the shipped binary, and
the cycles gpu_test's Gpu.WarpStagesAreTimedOnChainsThatComputeTheRightLanes measured.

  scripts/machine-code.py BIN GPU_TEST_LOG DEVICE > assets/machine_code/redux-sync.txt
"""
import datetime
import re
import shutil
import subprocess
import sys

KERNELS = {  # the name the file gives each, and the demangled kernel's start
    "redux-sync int sum": "void rl::kernels::redux_sync<int, rl::ops::Sum, rl::kernels::NoProbe>(",
    "warp-shuffle int sum": "void rl::kernels::warp_shuffle<int, rl::ops::Sum, rl::kernels::NoProbe>(",
}
INSTRUCTION = re.compile(r"^\s*(/\*[0-9a-f]{4,}\*/)\s+(.*?;)")


def demangle(names):
    tool = shutil.which("cu++filt") or shutil.which("c++filt")
    out = subprocess.run([tool], input="\n".join(names), capture_output=True, text=True, check=True).stdout
    return out.splitlines()


def functions(binary):
    """{demangled name: [instruction lines]} of every kernel in the binary's sm_90 code."""
    sass = subprocess.run(["cuobjdump", "-sass", binary], capture_output=True, text=True, check=True).stdout
    mangled, bodies = [], []
    for line in sass.splitlines():
        m = re.match(r"\s*Function : (\S+)", line)
        if m:
            mangled.append(m.group(1))
            bodies.append([])
            continue
        m = INSTRUCTION.match(line)
        if m and bodies:
            bodies[-1].append(m.group(1) + " " + " ".join(m.group(2).split()))
    return dict(zip(demangle(mangled), bodies))


def cycles(log):
    """{kernel: cycles} from gpu_test's printed lines."""
    found, kernel = {}, None
    for line in open(log, encoding="utf-8", errors="replace"):
        line = line.strip()
        if line.startswith("kernel: "):
            kernel = line[len("kernel: "):]
        elif line.startswith("stage cycles: ") and kernel:
            found[kernel] = line[len("stage cycles: "):]
    return found


def main():
    binary, log, device = sys.argv[1:4]
    code, timed = functions(binary), cycles(log)
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    print("# The warp stages of two int sum kernels as this program's Release build compiled them for sm_90:")
    print("# `cuobjdump -sass` of the shipped reduction-lab on the GPU machine, the lines holding REDUX or SHFL,")
    print("# and the SM cycles one warp stage took in a chain of stages of one warp (gpu_test,")
    print("# Gpu.WarpStagesAreTimedOnChainsThatComputeTheRightLanes); scripts/machine-code.py wrote it.")
    version = re.search(r"release (\d+\.\d+)", subprocess.run(["cuobjdump", "--version"], capture_output=True,
                                                             text=True).stdout)
    cuda = f"CUDA {version.group(1)}, " if version else ""
    print(f"device: {device}\nrecorded: {now}\ntool: cuobjdump -sass, {cuda}sm_90; clock64")
    for name, start in KERNELS.items():
        body = next((b for n, b in code.items() if n.startswith(start)), None)
        if body is None or name not in timed:
            sys.exit(f"machine-code: {name}: not in {binary} or not timed in {log}")
        print(f"kernel: {name}\ninstructions: {len(body)}\nstage cycles: {timed[name]}")
        for line in body:
            if re.search(r"\b(REDUX|SHFL)", line):
                print(line)


if __name__ == "__main__":
    main()
