#!/usr/bin/env python3
"""The cuda-* checks cost next to no memory on a thrust translation unit.

  parent_map_memory.py --tool build/bin/cuda-lambda-tidy FILE

Runs the tool on FILE (device pass) twice: with every cuda-* check, and with
one clang-tidy check that asks for nothing (cppcoreguidelines-avoid-goto),
and compares peak resident memory. A check that makes clang build its
whole-TU parent map (hasAncestor, hasParent, forCallable,
isInTemplateInstantiation, isInstantiated, ASTContext::getParents) adds about
40% on examples/realistic/thrust_pipeline.cu; the limit leaves room for the
checks' own data and for noise. NoParentMapTest (unit tests) says exactly
which file and pass built the map.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from harness import resource_usage  # noqa: E402

LIMIT = 1.08


def peak_kib(cmd):
    code, usage = resource_usage(cmd)
    if code not in (0, 1):
        sys.exit(f"{' '.join(cmd)}: exit status {code}")
    return usage.ru_maxrss


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    parser.add_argument("file")
    args = parser.parse_args()
    base = [args.tool, "--cuda-pass=device", args.file]
    ours = peak_kib(base[:1] + ["--checks=-*,cuda-*"] + base[1:])
    baseline = peak_kib(base[:1] + ["--checks=-*,cppcoreguidelines-avoid-goto"]
                        + base[1:])
    ratio = ours / baseline
    print(f"peak RSS: cuda-* {ours // 1024} MiB, baseline {baseline // 1024} MiB,"
          f" ratio {ratio:.3f} (limit {LIMIT})")
    return 0 if ratio <= LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())
