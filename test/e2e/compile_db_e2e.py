#!/usr/bin/env python3
"""End to end: a CMake project configured with nvcc, linted through its
compile_commands.json.

  compile_db_e2e.py --tool build/bin/cuda-lambda-tidy [--nvcc PATH] [--project DIR]

1. Configures examples/cmake-project with nvcc (configure only, no build) and
   runs the tool with `--checks='-*,cuda-*' -p <build dir>` and no files: every
   CUDA entry is linted. The `[cuda-*]` findings, as `file:line:col: check`
   relative to the project, must equal expected-findings.txt there; the tool
   must not drop any flag of CMake's nvcc command lines, and must leave no
   temporary directory behind.
2. A malformed and an empty database: exit 2 and one line on stderr.
3. A clang entry with -fplugin=: the flag is removed with a warning; with
   --allow-plugins it stays, silently, and clang-tidy does not see our option.
4. A database written for Kokkos's nvcc_wrapper (issue 12): a `.cpp` source
   compiled as CUDA, its header found only through `-Xcompiler -isystem,DIR`,
   the host compiler's `-Werror`, `-arch=sm_80`: the file is linted as CUDA
   (its `this` capture is reported, the header's is not: `-isystem` makes it a
   system header), no flag is dropped, no clang diagnostic, exit 0 (the host
   `-Werror` is not applied to our warnings).

Exits 77 (skipped) when nvcc, cmake or ninja is missing.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from diagnostics import DIAGNOSTIC  # noqa: E402


def cuda_finding(line):
    """A cuda-* warning or error on \p line (its first check named
    `check`), or None."""
    m = DIAGNOSTIC.match(line)
    if not m or m["sev"] not in ("warning", "error") or not m["check"] or \
            not m["check"].startswith("cuda-"):
        return None
    return {"file": m["file"], "line": m["line"], "col": m["col"],
            "check": m["check"].split(",")[0]}

SKIP = 77


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def lint_project(tool, nvcc, project, work):
    build = work / "build"
    configure = run(["cmake", "-S", str(project), "-B", str(build), "-G", "Ninja",
                     f"-DCMAKE_CUDA_COMPILER={nvcc}",
                     "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"])
    if configure.returncode != 0:
        fail("cmake configure failed:\n" + configure.stdout + configure.stderr)
    tmp = work / "tmp"
    tmp.mkdir()
    env = dict(os.environ, TMPDIR=str(tmp))
    result = run([tool, "--checks=-*,cuda-*", "-p", str(build)], env=env,
                 cwd=str(work))
    if result.returncode == 2:
        fail("the tool rejected the database:\n" + result.stderr)
    found = set()
    for line in result.stdout.splitlines():
        m = cuda_finding(line)
        if not m:
            continue
        path = Path(m["file"]).resolve()
        try:
            rel = path.relative_to(project.resolve())
        except ValueError:
            rel = path
        found.add(f"{rel}:{m['line']}:{m['col']}: {m['check']}")
    expected = set()
    for line in (project / "expected-findings.txt").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            expected.add(line)
    ok = True
    for missing in sorted(expected - found):
        print(f"missing finding: {missing}")
        ok = False
    for extra in sorted(found - expected):
        print(f"unexpected finding: {extra}")
        ok = False
    dropped = [l for l in result.stderr.splitlines() if "dropped nvcc flag" in l]
    if dropped:
        print("flags of CMake's nvcc command lines were dropped:\n" +
              "\n".join(dropped))
        ok = False
    if any(tmp.iterdir()):
        print(f"temporary files left behind: {list(tmp.iterdir())}")
        ok = False
    if not ok:
        fail("project findings differ\n--- stdout\n" + result.stdout +
             "\n--- stderr\n" + result.stderr)
    print(f"ok: project, {len(found)} findings as expected")


def bad_databases(tool, work):
    for name, text, message in [
            ("malformed", "[{", "malformed compile database"),
            ("empty", "[]", "empty compile database"),
            ("not-an-array", "{}", "not a JSON array"),
            ("no-command", '[{"directory": "/", "file": "a.cu"}]',
             'lacks "command" or "arguments"')]:
        d = work / name
        d.mkdir()
        (d / "compile_commands.json").write_text(text)
        result = run([tool, "-p", str(d)])
        lines = result.stderr.strip().splitlines()
        if result.returncode != 2 or len(lines) != 1 or message not in lines[0]:
            fail(f"{name} database: want exit 2 and one line with "
                 f"'{message}', got {result.returncode}:\n{result.stderr}")
    print("ok: bad databases")


def parse_flags(tool):
    """The flags the drop-in adds to parse a CUDA file (--print-parse-flags)."""
    result = run([tool, "--print-parse-flags"])
    if result.returncode != 0:
        fail("--print-parse-flags failed:\n" + result.stderr)
    return result.stdout.splitlines()


def plugin_flags(tool, work):
    d = work / "plugin"
    d.mkdir()
    src = d / "k.cu"
    src.write_text("__global__ void k(int *p) { *p = 1; }\n")
    evil = d / "evil.so"  # never created
    entry = {
        "directory": str(d),
        "file": str(src),
        # The clang command the drop-in would run (its parse flags, asked of
        # it), with a plugin to load.
        "arguments": ["clang++", *parse_flags(tool),
                      f"-fplugin={evil}", "-c", str(src)],
    }
    (d / "compile_commands.json").write_text(json.dumps([entry]))
    result = run([tool, "--checks=-*,cuda-*", "-p", str(d)])
    if result.returncode != 0 or f"removed '-fplugin={evil}'" not in result.stderr:
        fail("-fplugin= was not removed with a warning:\n" + result.stdout +
             result.stderr)
    # clang-tidy itself does not act on -fplugin=; what shows is no warning.
    kept = run([tool, "--checks=-*,cuda-*", "--allow-plugins", "-p", str(d)])
    if "removed" in kept.stderr or "allow-plugins" in kept.stderr:
        fail("--allow-plugins did not keep -fplugin=:\n" + kept.stdout +
             kept.stderr)
    print("ok: plugin flags")


def nvcc_wrapper_database(tool, work):
    d = work / "wrapper"
    (d / "bin").mkdir(parents=True)
    (d / "include").mkdir()
    # Never run: the tool translates the wrapper's command, as it does nvcc's.
    wrapper = d / "bin" / "nvcc_wrapper"
    wrapper.write_text("#!/bin/sh\nexit 1\n")
    wrapper.chmod(0o755)
    (d / "include" / "scale.hpp").write_text(
        "#pragma once\n"
        "template <class F> __global__ void apply(F f, int *p) { f(p); }\n"
        "struct HeaderScaler {\n"
        "  int k = 2;\n"
        "  void run(int *p) { apply<<<1, 1>>>([=] __device__ (int *q) { *q *= k; }, p); }\n"
        "};\n")
    src = d / "scale.cpp"
    src.write_text(
        "#include <scale.hpp>\n"
        "struct Scaler {\n"
        "  int k = 3;\n"
        "  void run(int *p) { apply<<<1, 1>>>([=] __device__ (int *q) { *q *= k; }, p); }\n"
        "};\n")
    command = (f"{wrapper} -DKOKKOS_DEPENDENCE -Xcompiler -isystem,{d / 'include'}"
               f" -O3 -std=gnu++17 -arch=sm_80 -extended-lambda -Wext-lambda-captures-this"
               f" -Xcompiler -Werror -Xcompiler -Wall -o scale.o -c {src}")
    (d / "compile_commands.json").write_text(json.dumps(
        [{"directory": str(d), "command": command, "file": str(src)}]))
    result = run([tool, "--checks=-*,cuda-*", "-p", str(d)])
    found = [f"{Path(m['file']).name}:{m['line']}:{m['col']}: {m['check']}"
             for m in map(cuda_finding, result.stdout.splitlines()) if m]
    problems = []
    if found != ["scale.cpp:4:39: cuda-lambda-this-capture"]:
        problems.append(f"findings {found}, want the capture in scale.cpp only")
    # A warning: exit 0. A kept host -Werror would make it an error (1).
    if result.returncode != 0:
        problems.append(f"exit status {result.returncode}, want 0")
    if "clang-diagnostic" in result.stdout:
        problems.append("clang reported an error or warning")
    if "dropped nvcc flag" in result.stderr:
        problems.append("a flag was dropped")
    if problems:
        fail("nvcc_wrapper database: " + "; ".join(problems) +
             "\n--- stdout\n" + result.stdout + "\n--- stderr\n" + result.stderr)
    print("ok: nvcc_wrapper database")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tool", required=True)
    parser.add_argument("--nvcc", default=os.path.join(
        os.environ.get("CUDA_PATH") or "/usr/local/cuda", "bin", "nvcc"))
    parser.add_argument("--project", default=str(
        Path(__file__).resolve().parents[2] / "examples" / "cmake-project"))
    args = parser.parse_args()
    if not (os.access(args.nvcc, os.X_OK) and shutil.which("cmake")
            and shutil.which("ninja")):
        print("skipped: needs nvcc, cmake and ninja")
        return SKIP
    tool = str(Path(args.tool).resolve())
    with tempfile.TemporaryDirectory(prefix="compile-db-e2e-") as tmp:
        work = Path(tmp)
        bad_databases(tool, work)
        plugin_flags(tool, work)
        nvcc_wrapper_database(tool, work)
        lint_project(tool, args.nvcc, Path(args.project).resolve(), work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
