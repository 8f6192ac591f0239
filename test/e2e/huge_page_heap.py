#!/usr/bin/env python3
"""The drop-in's heap with transparent huge pages (tool/HugePageHeap.h).

  huge_page_heap.py --tool build/bin/cuda-lambda-tidy FILE

Lints FILE (both passes, the pass probe deciding; no cache) twice: as the
drop-in runs by default, and with CUDA_LAMBDA_TIDY_NO_HUGE_PAGES=1. The
output and exit status must be the same. Where the kernel gives huge pages
only to memory that asks for them (/sys/kernel/mm/transparent_hugepage/
enabled is `madvise`, the common default), the default run must also take
fewer than 0.75 times the page faults (ru_minflt of the process and the
children it forked) of the run with the advice off: that is what the
advice is for (a lint of examples/quickstart.cu took about 5,000 against
11,500 here). With `always` or `never` the two heaps are alike, and only
the output is compared.
"""

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from harness import check, report, resource_usage  # noqa: E402

THP_ENABLED = Path("/sys/kernel/mm/transparent_hugepage/enabled")


def environment(**extra):
    env = dict(os.environ, CUDA_LAMBDA_TIDY_NO_CACHE="1")
    env.pop("CUDA_LAMBDA_TIDY_NO_HUGE_PAGES", None)
    env.update(extra)
    return env


def command(tool, path):
    return [tool, "--checks=-*,cuda-*", path, "--", "-std=c++17"]


def lint(tool, path, **extra):
    result = subprocess.run(command(tool, path), capture_output=True, text=True,
                            timeout=600, env=environment(**extra))
    return result.returncode, result.stdout, result.stderr


def faults(tool, path, **extra):
    """ru_minflt of one lint, its forked children included."""
    _, usage = resource_usage(command(tool, path), env=environment(**extra))
    return usage.ru_minflt


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    parser.add_argument("file")
    args = parser.parse_args()

    advised = lint(args.tool, args.file)
    plain = lint(args.tool, args.file, CUDA_LAMBDA_TIDY_NO_HUGE_PAGES="1")
    check(advised == plain,
          "the output differs with CUDA_LAMBDA_TIDY_NO_HUGE_PAGES=1:\n"
          f"--- default (exit {advised[0]}):\n{advised[1]}{advised[2]}\n"
          f"--- advice off (exit {plain[0]}):\n{plain[1]}{plain[2]}")
    findings = len(re.findall(r"\[cuda-", advised[1]))
    print(f"same output with and without the advice (exit {advised[0]}, "
          f"{findings} cuda-* findings)")

    setting = THP_ENABLED.read_text() if THP_ENABLED.exists() else ""
    chosen = re.search(r"\[(\w+)\]", setting)
    if not chosen or chosen.group(1) != "madvise":
        print(f"transparent huge pages: {chosen.group(1) if chosen else 'unknown'}; "
              "the page faults are not compared")
        return report("huge-page heap")
    on = faults(args.tool, args.file)
    off = faults(args.tool, args.file, CUDA_LAMBDA_TIDY_NO_HUGE_PAGES="1")
    print(f"page faults: {on} with the advice, {off} without ({on / off:.2f}x)")
    check(on < 0.75 * off, f"the advice saves too few page faults: {on} against {off}")
    return report("huge-page heap")


if __name__ == "__main__":
    sys.exit(main())
