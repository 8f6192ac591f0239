#!/usr/bin/env python3
"""CI's half of gpu_validation/ (no GPU here): every program must build with
nvcc, every *fixed* program must be clean under all cuda-* checks, and every
*buggy* program must be flagged by the check that owns its hazard (its
'OWNER:' header). A buggy program whose owning check is not registered yet is
reported as SKIP with that reason. Closes with 'N passed, N failed'.

With --nvcc-record, nvcc's result on a program is taken from the committed
record of test/e2e/run_fixtures.py (keyed by nvcc's version, its flags, the
program and gpu_validation/*.cuh) and compiled only when that key is not
there; the build verdict is judged from the recorded output either way.
--update-nvcc-record writes new results back."""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from nvcc_record import NvccRecord

CUDA = os.environ.get("CUDA_PATH") or "/usr/local/cuda"


def registered_checks(tool):
    out = subprocess.run([tool, "--checks=-*,cuda-*", "--list-checks"],
                         capture_output=True, text=True).stdout
    return set(re.findall(r"^\s+(cuda-[a-z0-9-]+)\s*$", out, re.M))


def examine(program: Path, tool, checks, record: NvccRecord):
    header = program.read_text()
    owner = re.search(r"OWNER:\s*(\S+)", header).group(1)
    buggy = "VARIANT: buggy" in header
    program = program.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        returncode, output = record.compile(
            [f"{CUDA}/bin/nvcc", "-std=c++17", "--extended-lambda", "-arch=sm_80",
             "-c", str(program), "-o", os.devnull],
            program, program.parent, tmp)
    if returncode != 0:
        return "FAIL", "nvcc cannot build it: " + output[-1500:]
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
    parser.add_argument("--nvcc-record", metavar="JSON")
    parser.add_argument("--update-nvcc-record", action="store_true")
    parser.add_argument("directory")
    args = parser.parse_args()
    record = NvccRecord(args.nvcc_record)
    checks = registered_checks(args.tool)
    programs = sorted(Path(args.directory).glob("cuda-*.cu"))
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for program, (verdict, why) in zip(
                programs, pool.map(lambda p: examine(p, args.tool, checks, record), programs)):
            counts[verdict] += 1
            print(f"{verdict} {program.name}: {why}")
    if args.nvcc_record:
        print(f"nvcc: {record.reused} results from {args.nvcc_record}, "
              f"{record.compiled} compiled now")
        if args.update_nvcc_record and record.new:
            record.save()
    print(f"gpu_validation: {counts['PASS']} passed, {counts['FAIL']} failed, "
          f"{counts['SKIP']} skipped")
    return 1 if counts["FAIL"] or not programs else 0


if __name__ == "__main__":
    sys.exit(main())
