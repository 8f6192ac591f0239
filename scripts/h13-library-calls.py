#!/usr/bin/env python3
"""Measure, call by call, what nvcc and cuda-lambda-host-return-type-query say
about thrust and cub algorithms handed a `[] __device__` lambda without a
trailing return type (H13's list of library calls, docs/checks/
cuda-lambda-host-return-type-query.md).

Each line of test/data/h13-library/calls.txt becomes one .cu file; nvcc 13 compiles
it (rejected when libcu++'s static_assert about querying the return type in
host code fires) and the tool lints it. Prints one row per call and the calls
on which the two disagree.

  python3 scripts/h13-library-calls.py --tool build/bin/cuda-lambda-tidy [-j 2]
      [--no-nvcc]   (compare with the verdicts recorded in calls.txt instead)
      [--cuda-pass=both|host|device|default]

The tool lints both passes (--cuda-pass=both) by default here: the check
finds a library's question in the host pass, which the tool's own default
runs where its pass probe asks for it (for these files: where the device
pass shows the lambda handed to a library whose host code asks its return
type); --cuda-pass=default measures that default.
"""

import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CALLS = ROOT / "test" / "h13-library" / "calls.txt"
NVCC = os.path.join(os.environ.get("CUDA_PATH", "/usr/local/cuda"), "bin", "nvcc")
CHECK = "cuda-lambda-host-return-type-query"
REJECTION = "querying its return type in host code"


def expand(body: str) -> str:
    """L1(e) -> one-argument lambda returning e, L2(e) -> two-argument one."""
    out, i = [], 0
    while i < len(body):
        if body.startswith(("L1(", "L2("), i):
            params = "int a" if body[i + 1] == "1" else "int a, int b"
            depth, j = 1, i + 3
            while depth:
                depth += {"(": 1, ")": -1}.get(body[j], 0)
                j += 1
            inner = expand(body[i + 3:j - 1])
            out.append(f"[] __device__ ({params}) {{ return {inner}; }}")
            i = j
        else:
            out.append(body[i])
            i += 1
    return "".join(out)


def source(headers, body):
    includes = "".join(f"#include <{h.strip()}>\n" for h in headers.split(","))
    return (f"{includes}#include <cstddef>\n\n"
            "void call(int *d, int *o, int *k, int *num, int n, void *tmp,\n"
            "          std::size_t bytes, cudaStream_t s) {\n"
            f"  {expand(body.strip())}\n"
            "  (void)d; (void)o; (void)k; (void)num; (void)n; (void)tmp;\n"
            "  (void)bytes; (void)s;\n}\n")


PASS = ["--cuda-pass=both"]


def lint_command(tool, path):
    return [tool, f"--checks=-*,{CHECK}"] + PASS + [str(path)]


def measure(tool, path, recorded=None):
    if recorded:
        lint = subprocess.run(lint_command(tool, path),
                              capture_output=True, text=True)
        return recorded, f"[{CHECK}]" in lint.stdout
    nvcc = subprocess.run([NVCC, "-std=c++17", "--extended-lambda", "-arch=sm_80",
                           "-c", str(path), "-o", os.devnull],
                          capture_output=True, text=True)
    if nvcc.returncode == 0:
        verdict = "accepted"
    elif REJECTION in nvcc.stdout + nvcc.stderr:
        verdict = "rejected"
    else:
        verdict = "error: " + next((l for l in (nvcc.stdout + nvcc.stderr).splitlines()
                                    if "error" in l), "?")[:120]
    lint = subprocess.run(lint_command(tool, path),
                          capture_output=True, text=True)
    warned = f"[{CHECK}]" in lint.stdout
    return verdict, warned


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tool", default=str(ROOT / "build/bin/cuda-lambda-tidy"))
    parser.add_argument("-j", type=int, default=2)
    parser.add_argument("--keep", help="write the .cu files here and keep them")
    parser.add_argument("--no-nvcc", action="store_true",
                        help="take nvcc's verdicts from calls.txt")
    parser.add_argument("--cuda-pass", default="both",
                        choices=["both", "host", "device", "default"],
                        help="the pass(es) the tool lints ('default': its own "
                             "choice); both by default")
    args = parser.parse_args()
    global PASS
    PASS = [] if args.cuda_pass == "default" else [f"--cuda-pass={args.cuda_pass}"]
    rows = []
    for line in CALLS.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            verdict, name, headers, body = (part.strip()
                                            for part in line.split("|", 3))
            rows.append((name, source(headers, body), verdict))
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(args.keep or tmp)
        where.mkdir(parents=True, exist_ok=True)
        paths = []
        for index, (name, text, _) in enumerate(rows):
            path = where / f"call{index:02d}.cu"
            path.write_text(f"// {name}\n{text}")
            paths.append(path)
        def one(index):
            recorded = rows[index][2] if args.no_nvcc else None
            verdict, warned = measure(args.tool, paths[index], recorded)
            agrees = (verdict == "rejected") == warned
            print(f"{rows[index][0]:40} nvcc {verdict:9} tool "
                  f"{'warns' if warned else 'silent':6}"
                  f"{'' if agrees else '  <-- disagree'}", flush=True)
            return verdict, warned
        with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
            results = list(pool.map(one, range(len(rows))))
    disagree = sum((v == "rejected") != w for v, w in results)
    print(f"{len(rows)} calls: {sum(v == 'rejected' for v, _ in results)} rejected by nvcc, "
          f"{sum(w for _, w in results)} reported, {disagree} disagreements")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
