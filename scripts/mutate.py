#!/usr/bin/env python3
"""Mutation testing: does a test fail when a line it guards is changed?

usage: scripts/mutate.py [--tests REGEX] [--max N] [--seed S] [--build DIR] FILE[:FIRST-LAST] ...

For each line of the files (or of the line ranges given) it makes the mutants below, one at a
time: the file is changed in place, the host tests are built in DIR (default build-mutate: a
Debug build of the host code alone, configured on first use), the tests matching REGEX (ctest -R,
default: every host test) run, and the file is put back byte for byte, whatever happens (Ctrl+C
included). A mutant is killed when the build or a test fails, and survives when they all pass.
Survivors are listed with their file, line and change: each needs a test, or a reason why the
change means the same (an equivalent mutant).

Mutants of a line (code lines only: not comments, includes or blank lines):
  flip a comparison   <  <=  >  >=  ==  !=   (each to its opposite)
  swap a logic op     &&  ||
  move a constant     an integer literal n to n+1 (0 to 1)
  drop a condition    if (X) -> if (true) and if (false)
  drop a statement    a line that is one statement ending in ';' (not a declaration) -> removed

--max N takes N mutants at random (seeded by --seed, printed) when there are more.
Exit 0; the last line is "killed K, survived S, did not build B of N".
"""
import argparse
import os
import random
import re
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLIPS = {"<=": ">", ">=": "<", "==": "!=", "!=": "==", "<": ">=", ">": "<="}
COMPARISON = re.compile(r"(?<![<>=!&|-])(<=|>=|==|!=|<|>)(?![<>=])")
DECLARATION = re.compile(r"^\s*(const |static |auto |int |bool |std::|double |float |char |unsigned |return\b)")


def code_line(text):
    s = text.strip()
    return s and not s.startswith(("//", "#", "*", "/*")) and "template <" not in s and "#include" not in s


def blank_strings(code):
    """The code with the inside of its string and char literals blanked: no mutant edits a message."""
    out, quote, i = [], None, 0
    while i < len(code):
        c = code[i]
        if quote:
            if c == "\\":
                out.append("__")
                i += 2
                continue
            out.append(c if c == quote else "_")
            quote = None if c == quote else quote
        else:
            quote = c if c in "\"'" else None
            out.append(c)
        i += 1
    return "".join(out)


def condition_span(code):
    """Where the condition of the line's first `if (` lies: (start, end), balanced parentheses."""
    m = re.search(r"\bif \(", code)
    if not m:
        return None
    depth = 0
    for j in range(m.end() - 1, len(code)):
        depth += {"(": 1, ")": -1}.get(code[j], 0)
        if depth == 0:
            return m.end(), j
    return None


def mutants_of(line):
    """(description, new line) for each mutant of one line."""
    out = []
    code = blank_strings(line.split("//")[0])
    for m in COMPARISON.finditer(code):
        op = m.group(1)
        before, after = code[m.start() - 1:m.start()], code[m.end():m.end() + 1]
        # '<' and '>' also open and close templates and appear in '->': skip those that look so.
        if op == "<" and re.match(r"\w", before) and re.match(r"[\w:]", after) and not re.match(r"\s", after):
            continue
        if op == ">" and (before == "-" or (re.match(r"[\w>]", before) and after in ("(", ":", "{", ",", ")", ">", "&", "*", ""))):
            continue
        out.append((f"'{op}' -> '{FLIPS[op]}'", line[:m.start()] + FLIPS[op] + line[m.end():]))
    for op, to in (("&&", "||"), ("||", "&&")):
        for m in re.finditer(re.escape(op), code):
            out.append((f"'{op}' -> '{to}'", line[:m.start()] + to + line[m.end():]))
    for m in re.finditer(r"(?<![\w.])(\d+)(?![\w.])", code):
        n = int(m.group(1))
        out.append((f"{n} -> {n + 1}", line[:m.start()] + str(n + 1) + line[m.end():]))
    span = condition_span(code)
    if span:
        a, b = span
        for value in ("true", "false"):
            out.append((f"if ({line[a:b][:30]}) -> if ({value})", line[:a] + value + line[b:]))
    stripped = code.strip()
    if stripped.endswith(";") and stripped.count(";") == 1 and not DECLARATION.match(code):
        out.append(("statement dropped", re.sub(r"\S.*", "", line.rstrip("\n")) + "\n"))
    return out


def targets(spec):
    path, _, lines = spec.partition(":")
    with open(os.path.join(ROOT, path)) as f:
        text = f.readlines()
    first, last = 1, len(text)
    if lines:
        a, _, b = lines.partition("-")
        first, last = int(a), int(b or a)
    for i in range(first - 1, min(last, len(text))):
        if code_line(text[i]):
            for what, new in mutants_of(text[i]):
                yield path, i, what, new


def run(cmd, log):
    return subprocess.run(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT).returncode == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--tests", default="")
    ap.add_argument("--max", type=int, default=0)
    ap.add_argument("--seed", type=int, default=int(time.time()) % 100000)
    ap.add_argument("--build", default="build-mutate")
    a = ap.parse_args()
    build = os.path.join(ROOT, a.build)
    log = open(os.path.join(build + ".log"), "w") if os.path.isdir(os.path.dirname(build)) else sys.stderr
    if not os.path.exists(os.path.join(build, "build.ninja")):
        ok = run(["cmake", "-S", ".", "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Debug", "-DREDLAB_CUDA=OFF",
                  "-DREDLAB_GUI=OFF", "-DCMAKE_CXX_FLAGS_DEBUG=-g0"], log)
        if not ok or not run(["cmake", "--build", build, "--target", "host_tests"], log):
            sys.exit("mutate: the unchanged tree does not build in " + a.build + " (see " + log.name + ")")
    # A mutant that loops for ever (a loop's bound flipped) is killed by the timeout: 10 minutes.
    test_cmd = ["ctest", "--test-dir", build, "-L", "host", "--stop-on-failure", "--timeout", "600",
                "-j", str(os.cpu_count() or 1)]
    if a.tests:
        test_cmd += ["-R", a.tests]
    if not run(test_cmd, log):
        sys.exit("mutate: a test fails on the unchanged tree: mutants would prove nothing")
    todo = [m for spec in a.files for m in targets(spec)]
    if a.max and len(todo) > a.max:
        print(f"mutate: {a.max} of {len(todo)} mutants, --seed {a.seed}")
        todo = random.Random(a.seed).sample(todo, a.max)
    counts = {"killed": 0, "survived": 0, "did not build": 0}
    for n, (path, i, what, new) in enumerate(todo, 1):
        full = os.path.join(ROOT, path)
        with open(full) as f:
            original = f.read()
        lines = original.splitlines(keepends=True)
        lines[i] = new
        restore = signal.signal(signal.SIGINT, signal.SIG_IGN)  # the file is whole again before Ctrl+C acts
        try:
            with open(full, "w") as f:
                f.write("".join(lines))
            signal.signal(signal.SIGINT, restore)
            built = run(["cmake", "--build", build, "--target", "host_tests"], log)
            verdict = "did not build" if not built else "killed" if not run(test_cmd, log) else "survived"
        finally:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            with open(full, "w") as f:
                f.write(original)
            signal.signal(signal.SIGINT, restore)
        counts[verdict] += 1
        mark = "SURVIVED" if verdict == "survived" else verdict
        print(f"[{n}/{len(todo)}] {mark:13} {path}:{i + 1}: {what}", flush=True)
    run(["cmake", "--build", build, "--target", "host_tests"], log)  # the tree's own objects again
    print(f"killed {counts['killed']}, survived {counts['survived']}, did not build {counts['did not build']} of {len(todo)}")


if __name__ == "__main__":
    main()
