#!/usr/bin/env python3
"""Both passes in one run: a hazard only under `#ifdef __CUDA_ARCH__` (device
pass) and one only under `#ifndef __CUDA_ARCH__` (host pass) are both
reported, each once; --cuda-pass=device and =host see one each; the exported
fixes hold both; --fix fixes both sides. And the default prints what the host
pass alone prints about thrust's and cub's own host code (H13's fixtures of
the host pass: the pass probe asks for the host pass there).

  both_passes.py --tool build/bin/cuda-lambda-tidy
"""

import argparse
import re
import shutil
import sys
import tempfile
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from harness import check, report, run
from diagnostics import findings as diagnostics_found  # noqa: E402

HERE = Path(__file__).resolve().parent
FIXTURE = HERE.parent / "data" / "both-passes" / "split.cu"
H13 = HERE.parents[1] / "fixtures" / "cuda-lambda-host-return-type-query"
LIBRARY_QUESTIONS = [H13 / "through-cub.cu", H13 / "through-thrust-transform-reduce.cu"]
CHECKS = "--checks=-*,cuda-*"


def findings(output):
    return [(Path(m["file"]).name, int(m["line"]), int(m["col"]))
            for m in diagnostics_found(output)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    tool = parser.parse_args().tool
    device, host = ("split.cu", 8, 18), ("split.cu", 15, 16)

    default = run([tool, CHECKS, str(FIXTURE)])
    check(default.returncode == 0, f"default run exited {default.returncode}: {default.stderr}")
    check(findings(default.stdout) == [device, host],
          f"default run (both passes) reported {findings(default.stdout)}:\n{default.stdout}")
    both = run([tool, CHECKS, "--cuda-pass=both", str(FIXTURE)])
    check(both.stdout == default.stdout, "--cuda-pass=both differs from the default")
    again = run([tool, CHECKS, str(FIXTURE)])
    check(again.stdout == default.stdout, "two runs printed different output")
    for pass_, expected in (("device", [device]), ("host", [host])):
        one = run([tool, CHECKS, f"--cuda-pass={pass_}", str(FIXTURE)])
        check(findings(one.stdout) == expected,
              f"--cuda-pass={pass_} reported {findings(one.stdout)}")

    with tempfile.TemporaryDirectory() as tmp:
        fixes = Path(tmp) / "fixes.yaml"
        run([tool, CHECKS, f"--export-fixes={fixes}", str(FIXTURE)])
        text = fixes.read_text() if fixes.exists() else ""
        check(text.count("DiagnosticName:") == 2,
              f"exported fixes should hold two diagnostics:\n{text}")
        check(text.count("ReplacementText: '='") == 2 or
              text.count("ReplacementText: =") == 2,
              f"exported fixes should hold two replacements:\n{text}")

        copy = Path(tmp) / "split.cu"
        shutil.copy(FIXTURE, copy)
        fixed = run([tool, CHECKS, "--fix", str(copy)])
        check(fixed.returncode == 0, f"--fix exited {fixed.returncode}: {fixed.stderr}")
        source = copy.read_text()
        check("[&] __host__" not in source and source.count("[=] __host__ __device__") == 2,
              f"--fix did not fix both passes:\n{source}")
        clean = run([tool, CHECKS, str(copy)])
        check(findings(clean.stdout) == [], f"findings left after --fix: {clean.stdout}")

    for fixture in LIBRARY_QUESTIONS:
        h13 = "--checks=-*,cuda-lambda-host-return-type-query"
        # The host pass alone is what sees the library's question (one pass
        # of thrust's headers where --cuda-pass=both would take two).
        default = run([tool, h13, str(fixture)])
        host = run([tool, h13, "--cuda-pass=host", str(fixture)])
        check("[cuda-lambda-host-return-type-query]" in default.stdout,
              f"the default missed the library's question in {fixture.name}:\n"
              f"{default.stdout}")
        check(default.stdout == host.stdout,
              f"the default differs from --cuda-pass=host on {fixture.name}")

    bad = run([tool, "--cuda-pass=all", str(FIXTURE)])
    check(bad.returncode == 2, f"a bad --cuda-pass exited {bad.returncode}")

    return report("both passes")


if __name__ == "__main__":
    sys.exit(main())
