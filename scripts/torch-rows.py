#!/usr/bin/env python3
"""torch.sum(x, dim=1) over row-major float32 matrices on the GPU: the PyTorch reference the
short-row report (docs/benchmarks.md) sets beside the row kernels. Where PyTorch or a GPU is
missing it says so and exits 0: a reference, not a test.

usage: scripts/torch-rows.py ROWSxCOLS[,ROWSxCOLS...] [SECONDS]   (each side N or 2^K)
Prints one JSON object: the device, and per shape the median time of torch.sum(dim=1) in µs
over CUDA-event-timed launches (one warm-up first), the bytes it moves (input plus one output a
row) and GB/s. Checked: each row's sum against float64 on the host, within 1e-3 relative.
"""
import json
import sys
import time


def size(text):
    return 2 ** int(text[2:]) if text.startswith("2^") else int(text)


def main():
    try:
        import torch
    except ImportError:
        print(json.dumps({"skipped": "no PyTorch here"}))
        return
    if not torch.cuda.is_available():
        print(json.dumps({"skipped": "PyTorch sees no GPU"}))
        return
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    out = {"device": torch.cuda.get_device_name(0), "torch": torch.__version__, "shapes": []}
    for shape in sys.argv[1].split(","):
        rows, cols = (size(s) for s in shape.split("x"))
        gen = torch.Generator(device="cuda").manual_seed(rows * 31 + cols)
        x = torch.rand((rows, cols), device="cuda", dtype=torch.float32, generator=gen) * 2 - 1
        y = torch.sum(x, dim=1)  # warm-up
        torch.cuda.synchronize()
        times = []
        end_by = time.monotonic() + seconds
        while time.monotonic() < end_by or len(times) < 5:
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            y = torch.sum(x, dim=1)
            b.record()
            b.synchronize()
            times.append(a.elapsed_time(b) * 1000.0)
        want = torch.sum(x.double(), dim=1)
        ok = bool(torch.allclose(y.double(), want, rtol=1e-3, atol=1e-3 * cols ** 0.5))
        times.sort()
        median = times[len(times) // 2]
        moved = (rows * cols + rows) * 4
        out["shapes"].append({"rows": rows, "cols": cols, "median_us": round(median, 2), "samples": len(times),
                              "bytes": moved, "gbps": round(moved / median / 1e3, 1), "check_ok": ok})
        del x, y, want
        torch.cuda.empty_cache()
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
