#!/usr/bin/env python3
"""A kernel of your own on the GPU and on the CPU path, through the CLI: every starter in
assets/own/, int and float, a few sizes; `trace --kernel` with --backend cuda and --backend sim
must give the same stages, block results and value bit for bit (docs/own-kernel.md). Then the
time from a command to its trace at 2^20 elements, block 256, on both paths (NVRTC's cache warm).

usage: own-compare.py RUNNER OUT_DIR   (RUNNER: the command that runs reduction-lab)"""
import json, pathlib, shlex, subprocess, sys, time

runner, out = shlex.split(sys.argv[1]), pathlib.Path(sys.argv[2])
out.mkdir(parents=True, exist_ok=True)
starters = sorted(p for p in pathlib.Path("assets/own").glob("*.cu") if p.stem != "template")
KEYS = ("grid", "block", "result", "partials", "pass_outputs")


def trace(path, backend, typ, n):
    cmd = runner + ["trace", "--kernel", str(path), "--backend", backend, "--type", typ, "--size", str(n),
                    "--input", "random:7", "--format", "json"]
    t0 = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.monotonic() - t0
    if r.returncode != 0:
        raise SystemExit(f"{path} {backend} {typ} n={n}: rc {r.returncode}: {r.stderr.strip()}")
    return json.loads(r.stdout), seconds


def differences(a, b):
    out = [k for k in KEYS if a.get(k) != b.get(k)]
    if len(a["stages"]) != len(b["stages"]):
        return out + [f"stages: {len(a['stages'])} vs {len(b['stages'])}"]
    for k, (x, y) in enumerate(zip(a["stages"], b["stages"])):
        for f in ("label", "line", "param", "shared", "lanes"):
            if x.get(f) != y.get(f):
                out.append(f"stage {k} {f}")
    return out


failed = 0
lines = []
for path in starters:
    for typ in ("int", "float"):
        for n in (1, 1000, 65549):
            gpu, _ = trace(path, "cuda", typ, n)
            cpu, _ = trace(path, "sim", typ, n)
            diff = differences(gpu, cpu)
            failed += bool(diff)
            lines.append(f"{path.stem:14} {typ:5} n={n:<6} stages={len(gpu['stages']):<3} "
                         f"{'EQUAL' if not diff else 'DIFFER: ' + ', '.join(diff[:5])}")
            print(lines[-1], flush=True)
for backend in ("cuda", "sim"):
    trace(pathlib.Path("assets/own/reduce3.cu"), backend, "float", 1 << 20)  # the compile, cached
    _, s = trace(pathlib.Path("assets/own/reduce3.cu"), backend, "float", 1 << 20)
    lines.append(f"time to trace, reduce3, 2^20 floats, block 256, {backend}: {s:.3f} s (whole command)")
    print(lines[-1], flush=True)
(out / "own-compare.txt").write_text("\n".join(lines) + "\n")
print("own-compare:", "PASS" if failed == 0 else f"{failed} DIFFER")
sys.exit(1 if failed else 0)
