#!/usr/bin/env python3
"""clang-tidy over a unity build (REDLAB_UNITY), where CMake lists each unity file, not the
sources it includes.

usage: scripts/unity-compile-db.py BUILD/compile_commands.json OUT/compile_commands.json
         a database where each source also gets its unity file's command
       scripts/unity-compile-db.py --units BUILD/compile_commands.json SOURCE...
         the files to hand clang-tidy so that each SOURCE is parsed once: its unity file, or
         itself (where it has a command of its own, or none: a stand-in this build leaves
         out, whose command clang-tidy takes from its neighbours'). A unity file parses its
         sources' shared headers once: a quarter of the CPU time of source by source.
Stops (exit 1) where a unity entry's command does not name its file, or its file includes no
source: clang-tidy would then guess those sources' commands, or check them as headers its
filter drops, and pass without checking them.
"""
import json
import os
import re
import sys


def unity_sources(entry):
    unity = os.path.join(entry["directory"], entry["file"])
    with open(unity) as f:
        sources = re.findall(r'^#include "(/.+)"$', f.read(), re.M)
    if entry["file"] not in entry["command"] or not sources:
        sys.exit(f"unity-compile-db: cannot give {unity}'s sources their command")
    return unity, sources


def expand(entries):
    out = []
    for e in entries:
        out.append(e)
        if "/Unity/unity_" not in e["file"]:
            continue
        _, sources = unity_sources(e)
        out += [dict(e, file=src, command=e["command"].replace(e["file"], src)) for src in sources]
    return out


def units(entries, wanted):
    wanted = {os.path.realpath(w) for w in wanted}
    chosen, covered = [], set()
    for e in entries:
        if "/Unity/unity_" in e["file"]:
            unity, sources = unity_sources(e)
            mine = wanted & {os.path.realpath(s) for s in sources}
        else:
            unity = os.path.join(e["directory"], e["file"])
            mine = wanted & {os.path.realpath(unity)}
        if mine:
            chosen.append(unity)
            covered |= mine
    return chosen + sorted(wanted - covered)  # wanted - covered: left out of this build


def main():
    if sys.argv[1] == "--units":
        with open(sys.argv[2]) as f:
            print("\n".join(units(json.load(f), sys.argv[3:])))
        return
    with open(sys.argv[1]) as f:
        entries = json.load(f)
    with open(sys.argv[2], "w") as f:
        json.dump(expand(entries), f)


if __name__ == "__main__":
    main()
