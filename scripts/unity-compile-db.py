#!/usr/bin/env python3
"""A compile database for clang-tidy from a unity build's (REDLAB_UNITY): CMake lists each
unity file, not the sources it includes; here each source gets its unity file's command.

usage: scripts/unity-compile-db.py BUILD/compile_commands.json OUT/compile_commands.json
Stops (exit 1) where a unity entry's command does not name its file, or its file includes no
source: clang-tidy would then guess those sources' commands, or check them as headers its
filter drops, and pass without checking them.
"""
import json
import os
import re
import sys


def expand(entries):
    out = []
    for e in entries:
        if "/Unity/unity_" not in e["file"]:
            out.append(e)
            continue
        unity = os.path.join(e["directory"], e["file"])
        with open(unity) as f:
            sources = re.findall(r'^#include "(/.+)"$', f.read(), re.M)
        if e["file"] not in e["command"] or not sources:
            sys.exit(f"unity-compile-db: cannot give {unity}'s sources their command")
        out += [dict(e, file=src, command=e["command"].replace(e["file"], src)) for src in sources]
    return out


def main():
    with open(sys.argv[1]) as f:
        entries = json.load(f)
    with open(sys.argv[2], "w") as f:
        json.dump(expand(entries), f)


if __name__ == "__main__":
    main()
