#!/usr/bin/env python3
"""Runs .pre-commit-hooks.yaml's hook the way pre-commit does (pre-commit
itself is not needed): in a repository root with build/compile_commands.json,
staged files filtered by the hook's `files` regex (re.search), the `entry`
split like a shell line, the file names appended, the tool found on PATH.

  pre_commit_hook.py --tool build/bin/cuda-lambda-tidy

A file with a cuda-* finding fails the hook (status 1, the finding shown); a
clean .cu file and a clean header pass; files the regex does not match are
never passed.
"""

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from harness import check, report

ROOT = Path(__file__).resolve().parents[2]
CUDA_PATH = os.environ.get("CUDA_PATH") or "/usr/local/cuda"

BAD = """\
int host_side(int v) {
  auto square = [&] __host__ __device__ (int i) { return i * i; };
  return square(v);
}
"""
GOOD = """\
int host_side(int v) {
  auto square = [=] __host__ __device__ (int i) { return i * i; };
  return square(v);
}
"""
HEADER = "inline int twice(int v) { return 2 * v; }\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    tool = Path(parser.parse_args().tool).resolve()
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    hook = next(h for h in hooks if h["id"] == "cuda-lambda-tidy")
    check(hook["language"] == "system", "the hook must be language: system")
    files_re = re.compile(hook["files"])
    for name, wanted in (("a.cu", True), ("a.cuh", True), ("a.cpp", True),
                         ("a.cc", True), ("a.h", True), ("a.hpp", True),
                         ("a.txt", False), ("a.cu.orig", False), ("CMakeLists.txt", False)):
        check(bool(files_re.search(name)) == wanted,
              f"files regex {'misses' if wanted else 'matches'} {name}")

    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp)
        (repo / "src").mkdir()
        (repo / "build").mkdir()
        (repo / "src" / "bad.cu").write_text(BAD)
        (repo / "src" / "good.cu").write_text(GOOD)
        (repo / "src" / "util.h").write_text(HEADER)
        (repo / "notes.txt").write_text("not code\n")
        # The project's own configuration picks the checks, as in real use.
        (repo / ".clang-tidy").write_text("Checks: '-*,cuda-*'\n")
        nvcc = f"{CUDA_PATH}/bin/nvcc"
        db = [{"directory": str(repo / "build"),
               "command": f"{nvcc} -std=c++17 --extended-lambda -arch=sm_80 "
                          f"-c {repo}/src/{name} -o {name}.o",
               "file": str(repo / "src" / name)} for name in ("bad.cu", "good.cu")]
        (repo / "build" / "compile_commands.json").write_text(json.dumps(db))

        env = dict(os.environ, PATH=f"{tool.parent}{os.pathsep}{os.environ['PATH']}")
        # pre-commit runs `entry args… files…` with the tool found on PATH.
        tool_on_path = tool.parent / shlex.split(hook["entry"])[0]
        check(tool_on_path.exists(), f"the entry's program is not {tool.name}")

        def run_hook(staged):
            files = [f for f in staged if files_re.search(f)]
            if not files:
                return None
            cmd = shlex.split(hook["entry"]) + hook.get("args", []) + files
            return subprocess.run(cmd, cwd=repo, env=env, capture_output=True,
                                  text=True, timeout=300)

        bad = run_hook(["src/bad.cu", "notes.txt"])
        check(bad is not None and bad.returncode == 1,
              f"a finding must fail the hook: {bad and bad.returncode}\n"
              f"{bad and bad.stdout[-2000:]}{bad and bad.stderr[-2000:]}")
        check(bad is not None and "[cuda-lambda-reference-capture" in bad.stdout,
              f"the finding is not shown:\n{bad and bad.stdout[-2000:]}")
        good = run_hook(["src/good.cu", "src/util.h"])
        check(good is not None and good.returncode == 0,
              f"clean files must pass: {good and good.returncode}\n"
              f"{good and good.stdout[-2000:]}{good and good.stderr[-2000:]}")
        check(run_hook(["notes.txt"]) is None, "notes.txt must not reach the tool")

    return report("pre-commit hook")


if __name__ == "__main__":
    sys.exit(main())
