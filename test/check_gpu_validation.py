#!/usr/bin/env python3
"""CI's half of gpu_validation/ (no GPU here): every program must build with
nvcc, every *fixed* program must be clean under all cuda-* checks, and every
*buggy* program must be flagged by the check that owns its hazard (its
'OWNER:' header). A buggy program whose owning check is not registered yet is
reported as SKIP with that reason. Closes with 'N passed, N failed'."""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

CUDA = os.environ.get("CUDA_PATH") or "/usr/local/cuda"


def registered_checks(tool):
    out = subprocess.run([tool, "--checks=-*,cuda-*", "--list-checks"],
                         capture_output=True, text=True).stdout
    return set(re.findall(r"^\s+(cuda-[a-z0-9-]+)\s*$", out, re.M))


def examine(program: Path, tool, checks):
    header = program.read_text()
    owner = re.search(r"OWNER:\s*(\S+)", header).group(1)
    buggy = "VARIANT: buggy" in header
    with tempfile.TemporaryDirectory() as tmp:
        built = subprocess.run(
            [f"{CUDA}/bin/nvcc", "-std=c++17", "--extended-lambda", "-arch=sm_80",
             "-c", str(program), "-o", os.path.join(tmp, "p.o")],
            capture_output=True, text=True)
    if built.returncode != 0:
        return "FAIL", "nvcc cannot build it: " + (built.stdout + built.stderr)[-1500:]
    lint = subprocess.run([tool, "--checks=-*,cuda-*", str(program)],
                          capture_output=True, text=True)
    found = set(re.findall(r"warning: .* \[(cuda-[a-z0-9-]+)\]$", lint.stdout, re.M))
    if not buggy:
        if found:
            return "FAIL", "the fixed program is flagged by " + ", ".join(sorted(found))
        return "PASS", "builds, lint-clean"
    if owner not in checks:
        return "SKIP", f"{owner} is not implemented yet"
    if owner not in found:
        return "FAIL", f"{owner} does not flag the buggy program"
    return "PASS", f"builds, flagged by {owner}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    parser.add_argument("directory")
    args = parser.parse_args()
    checks = registered_checks(args.tool)
    programs = sorted(Path(args.directory).glob("h*.cu"))
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for program, (verdict, why) in zip(
                programs, pool.map(lambda p: examine(p, args.tool, checks), programs)):
            counts[verdict] += 1
            print(f"{verdict} {program.name}: {why}")
    print(f"gpu_validation: {counts['PASS']} passed, {counts['FAIL']} failed, "
          f"{counts['SKIP']} skipped")
    return 1 if counts["FAIL"] or not programs else 0


if __name__ == "__main__":
    sys.exit(main())
