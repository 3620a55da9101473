#!/usr/bin/env python3
"""The repository's size limits (issue 49), held in CI so they do not regrow:
  - docs/ without its screenshots under 1 MiB (measured runs live in assets/runs/RUN/report/);
  - every image in docs/screenshots/ under 200 KiB, and linked from README.md or a doc;
  - no source file in app/ or kernels/ over 600 lines, but those LONG_FILES names with the reason.
Prints the figures; exits 1 naming every file over a limit or linked from nowhere.

usage: scripts/repo-limits.py [ROOT]
"""
import os
import re
import sys

DOCS_LIMIT = 1 << 20  # bytes of docs/ outside docs/screenshots/
IMAGE_LIMIT = 200 << 10  # bytes of one screenshot
LINE_LIMIT = 600  # lines of one source file in app/ or kernels/ (docs/design.md)
LONG_FILES = {}  # over LINE_LIMIT, and why it is not split yet
SOURCE_ENDINGS = (".h", ".cpp", ".cu", ".cuh")


def files_under(folder, skip=None):
    for top, dirs, names in os.walk(folder):
        dirs[:] = [d for d in dirs if os.path.join(top, d) != skip]
        for name in names:
            yield os.path.join(top, name)


def long_sources(root):
    """Source files in app/ and kernels/ over LINE_LIMIT lines that LONG_FILES does not name."""
    found, longest = [], (0, "")
    for folder in ("app", "kernels"):
        for p in files_under(os.path.join(root, folder)):
            if not p.endswith(SOURCE_ENDINGS):
                continue
            with open(p, encoding="utf-8", errors="replace") as f:
                lines = sum(1 for _ in f)
            name = os.path.relpath(p, root)
            if name in LONG_FILES:
                continue
            longest = max(longest, (lines, name))
            if lines > LINE_LIMIT:
                found.append(f"{name} has {lines} lines, over {LINE_LIMIT}: split it by concern")
    print(f"repo-limits: the longest source file in app/ and kernels/ (but {len(LONG_FILES)} named) "
          f"{longest[1]}, {longest[0]} lines (limit {LINE_LIMIT})")
    return found


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    docs, shots = os.path.join(root, "docs"), os.path.join(root, "docs", "screenshots")
    problems = []
    text_bytes = sum(os.path.getsize(p) for p in files_under(docs, skip=shots))
    print(f"repo-limits: docs/ without screenshots: {text_bytes} bytes (limit {DOCS_LIMIT})")
    if text_bytes >= DOCS_LIMIT:
        problems.append(f"docs/ without screenshots holds {text_bytes} bytes, over {DOCS_LIMIT}: "
                        "measured runs belong in assets/runs/RUN/report/")
    pages = [os.path.join(root, "README.md")] + [p for p in files_under(docs, skip=shots) if p.endswith(".md")]
    linked = set()
    for page in pages:
        with open(page, encoding="utf-8") as f:
            linked.update(re.findall(r"screenshots/([A-Za-z0-9_.+-]+)", f.read()))
    images = sorted(files_under(shots)) if os.path.isdir(shots) else []
    largest = max((os.path.getsize(p) for p in images), default=0)
    print(f"repo-limits: {len(images)} screenshots, the largest {largest} bytes (limit {IMAGE_LIMIT} each)")
    for p in images:
        name, size = os.path.basename(p), os.path.getsize(p)
        if size >= IMAGE_LIMIT:
            problems.append(f"docs/screenshots/{name} is {size} bytes, over {IMAGE_LIMIT} "
                            "(pngquant --quality 70-95, then optipng -o2; or a crop)")
        if name not in linked:
            problems.append(f"docs/screenshots/{name} is linked from no doc: remove it or link it")
    problems += long_sources(root)
    for line in problems:
        print(f"repo-limits: {line}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
