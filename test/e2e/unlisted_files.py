#!/usr/bin/env python3
"""Issue 29: files the compile database lacks, and what is said about the
entries that are not linted, through `-p` with the drop-in.

  unlisted_files.py --tool build/bin/cuda-lambda-tidy

A temporary project whose compile_commands.json holds nvcc entries only
(nvcc named by path, as CMake writes it; the toolkit need not be there):

1. `src/new.cu`, not in the database, beside `src/a.cu`: linted with the
   command of `src/a.cu` (translated from nvcc), so its `this` capture is
   reported by cuda-lambda-this-capture at its line, with no clang error;
   stderr says once which entry it borrowed (also when the results cache
   replays it); exit status 0, as for a listed file.
2. `kokkos/new.cpp`, not in the database, beside a `.cpp` entry compiled
   with nvcc's `-x cu`: linted as CUDA (the nvcc command is borrowed before
   it is translated, so `-x cu` stays), the same finding, no clang error.
3. Listed files as before: `src/a.cu` and `link/listed.cu` (a copy of
   new.cu, named through a symbolic link to src/, which clang's database
   finds as listed) linted together give listed.cu's finding and borrow
   nothing,
   and say nothing about the flags dropped from the other entries
   (`--bogus-other` of `other/c.cu`), only about their own (`--bogus-a`).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from harness import check, report  # noqa: E402
from diagnostics import findings as diagnostics_found  # noqa: E402

CUDA_PATH = os.environ.get("CUDA_PATH") or "/usr/local/cuda"
HAZARD = """template <class F> __global__ void run(F f) { f(); }
struct Scale {
  float factor = 2.0f;
  void apply(float *data) {
    run<<<1, 1>>>([=] __device__ () { data[0] *= factor; });
  }
};
"""
PLAIN = "__global__ void k() {}\nvoid launch() { k<<<1, 1>>>(); }\n"


def findings(stdout):
    return [(Path(m["file"]).name, int(m["line"]), m["sev"], m["check"])
            for m in diagnostics_found(stdout) if m["check"]]


def lint(tool, root, cache, *files):
    return subprocess.run(
        [tool, "--checks=-*,cuda-*", f"--cache-dir={cache}", "-p",
         str(root / "build"), *files],
        cwd=root, capture_output=True, text=True, timeout=300)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tool", required=True)
    tool = str(Path(parser.parse_args().tool).resolve())
    nvcc = f"{CUDA_PATH}/bin/nvcc"
    with tempfile.TemporaryDirectory(prefix="unlisted-") as tmp:
        root = Path(tmp)
        for d in ("build", "src", "other", "kokkos"):
            (root / d).mkdir()
        (root / "src/a.cu").write_text(PLAIN)
        (root / "src/listed.cu").write_text(HAZARD)
        (root / "src/new.cu").write_text(HAZARD)
        (root / "other/c.cu").write_text(PLAIN)
        (root / "kokkos/a.cpp").write_text(PLAIN)
        (root / "kokkos/new.cpp").write_text(HAZARD)
        build = str(root / "build")
        flags = "-std=c++17 --extended-lambda -arch=sm_80"
        db = [
            {"directory": build, "file": str(root / "other/c.cu"),
             "command": f"{nvcc} {flags} --bogus-other -c {root}/other/c.cu "
                        "-o c.o"},
            {"directory": build, "file": "../src/a.cu",
             "command": f"{nvcc} {flags} --bogus-a -c ../src/a.cu -o a.o"},
            {"directory": build, "file": "../src/listed.cu",
             "command": f"{nvcc} {flags} --bogus-a -c ../src/listed.cu "
                        "-o listed.o"},
            {"directory": build, "file": str(root / "kokkos/a.cpp"),
             "command": f"{nvcc} {flags} -x cu -c {root}/kokkos/a.cpp "
                        "-o k.o"},
        ]
        (root / "build/compile_commands.json").write_text(json.dumps(db))
        cache = root / "cache"
        expected = [("new.cu", 5, "warning", "cuda-lambda-this-capture")]

        # 1. A .cu file beside a .cu entry; twice: the second run replays
        # the results cache, and must say the same.
        for attempt in ("first run", "cached run"):
            r = lint(tool, root, cache, "src/new.cu")
            note = ("note: 'src/new.cu' is not in the compile database; "
                    "using the command of '../src/a.cu'")
            check(findings(r.stdout) == expected,
                  f"src/new.cu ({attempt}): expected {expected}, got "
                  f"{findings(r.stdout)}:\n{r.stdout}{r.stderr}")
            check(r.stderr.splitlines().count(note) == 1,
                  f"src/new.cu ({attempt}): stderr does not say once "
                  f"{note!r}:\n{r.stderr}")
            check(r.returncode == 0,
                  f"src/new.cu ({attempt}): exit status {r.returncode}")
        # 2. A .cpp beside a `-x cu` .cpp entry: linted as CUDA.
        r = lint(tool, root, cache, "kokkos/new.cpp")
        check(findings(r.stdout) ==
              [("new.cpp", 5, "warning", "cuda-lambda-this-capture")],
              "kokkos/new.cpp: expected the this-capture finding and no "
              f"clang error, got:\n{r.stdout}{r.stderr}")
        check("using the command of '" + str(root / "kokkos/a.cpp") + "'"
              in r.stderr,
              f"kokkos/new.cpp: the borrowed entry is not named:\n{r.stderr}")
        check(r.returncode == 0, f"kokkos/new.cpp: exit status {r.returncode}")

        # 3. Listed files: as before, the same finding in listed.cu, no
        # borrowing; what is said about dropped flags is about their
        # entries only.
        (root / "link").symlink_to(root / "src")
        r = lint(tool, root, cache, "src/a.cu", "link/listed.cu")
        check(findings(r.stdout) ==
              [("listed.cu", 5, "warning", "cuda-lambda-this-capture")],
              f"src/listed.cu: expected the same finding, got:\n{r.stdout}")
        check("not in the compile database" not in r.stderr,
              f"a listed file borrowed a command:\n{r.stderr}")
        check("'--bogus-a'" in r.stderr,
              f"src/a.cu: its own dropped flag is not reported:\n{r.stderr}")
        check("--bogus-other" not in r.stderr,
              "src/a.cu: a flag dropped from another entry is reported:\n"
              + r.stderr)
        check(r.returncode == 0, f"listed files: exit status {r.returncode}")
    return report("unlisted files")


if __name__ == "__main__":
    sys.exit(main())
