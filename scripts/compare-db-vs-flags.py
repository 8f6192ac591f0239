#!/usr/bin/env python3
"""Lints CUDA files three ways and says whether the findings are the same.

  compare-db-vs-flags.py [-I DIR]... [--build DIR] [-j N] PATH...

PATH is a .cu file or a directory (searched recursively for .cu files). The
same files are linted, with `--checks=-*,cuda-*`, both passes (the device and
the host side), through:

  db       an nvcc compile database with no extra flags: a generated CMake
           project (LANGUAGES CXX CUDA, CMAKE_CUDA_COMPILER=<toolkit>/bin/nvcc,
           --extended-lambda, CUDA_ARCHITECTURES <arch>, C++17, one object
           library of the files, CMAKE_EXPORT_COMPILE_COMMANDS=ON) is
           configured in a temporary directory (never built), and each file
           is linted as `cuda-lambda-tidy -p <that build dir> FILE`;
  drop-in  hand-written flags for the drop-in binary:
           `cuda-lambda-tidy FILE -- -std=c++17 -D__CUDACC_EXTENDED_LAMBDA__=1
           -I DIR...` (the tool adds the CUDA setup itself);
  plugin   Debian's clang-tidy-22 with the plugin and every clang flag written
           out: the drop-in's parse flags (`cuda-lambda-tidy
           --print-parse-flags` with CUDA_PATH=<toolkit>), --cuda-gpu-arch=sm_<arch>,
           -include <repo>/tool/compat/cuda_lambda_tidy_nvcc_compat.h
           -std=c++17 -D__CUDACC_EXTENDED_LAMBDA__=1 -I DIR...`, run twice,
           with --cuda-device-only and with --cuda-host-only, the findings
           of both put together.

-D__CUDACC_EXTENDED_LAMBDA__=1 is what nvcc --extended-lambda defines (clang
does not). A finding is (file, line, column, check, message); notes are not
compared. Compiler errors are findings too (check clang-diagnostic-error): a
file with one "does not parse" on that route, and is reported and counted.

Prints one row per file (parse status, number of findings per route, whether
all routes found the same set) and, for each file that differs, what each
route found that another did not. Exit status: 0 when every file gave the
same findings on every route, 1 when one did not (or a route crashed), 2 when
nothing could be compared (no files, cmake failed, a tool is missing).
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECKS = "--checks=-*,cuda-*"
ROUTES = ("db", "drop-in", "plugin")
# clang-tidy's printed diagnostic: file:line:col: severity: message [check]
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "test" / "lib"))
from diagnostics import DIAGNOSTIC as DIAG_RE  # noqa: E402
TIMEOUT = 900


def run(cmd, cwd=None):
    try:
        return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                              timeout=TIMEOUT)
    except subprocess.TimeoutExpired as e:
        return subprocess.CompletedProcess(cmd, -1, e.stdout or "",
                                           f"timed out after {TIMEOUT} s")


def find_sources(paths):
    files = []
    for p in paths:
        p = Path(p).resolve()
        if p.is_dir():
            files += sorted(q for q in p.rglob("*.cu") if q.is_file())
        elif p.is_file():
            files.append(p)
        else:
            print(f"compare-db-vs-flags: no such file or directory: {p}",
                  file=sys.stderr)
            sys.exit(2)
    seen, unique = set(), []
    for f in files:
        if f not in seen:
            seen.add(f)
            unique.append(f)
    return unique


def cmake_quote(path):
    return '"' + str(path).replace("\\", "/").replace('"', '\\"') + '"'


def configure_database(files, includes, args, work):
    """Writes and configures the CMake project; returns its build directory."""
    source = work / "project"
    build = work / "build"
    source.mkdir()
    lines = [
        "cmake_minimum_required(VERSION 3.20)",
        "project(compare_db_vs_flags LANGUAGES CXX CUDA)",
        "set(CMAKE_CUDA_STANDARD 17)",
        "set(CMAKE_CUDA_STANDARD_REQUIRED ON)",
        "add_library(lint_objects OBJECT",
        *(f"  {cmake_quote(f)}" for f in files),
        ")",
        f"set_target_properties(lint_objects PROPERTIES CUDA_ARCHITECTURES {args.arch})",
        "target_compile_options(lint_objects PRIVATE "
        "$<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda>)",
    ]
    if includes:
        lines.append("target_include_directories(lint_objects PRIVATE "
                     + " ".join(cmake_quote(i) for i in includes) + ")")
    (source / "CMakeLists.txt").write_text("\n".join(lines) + "\n")
    nvcc = Path(args.cuda_path) / "bin" / "nvcc"
    result = run(["cmake", "-S", str(source), "-B", str(build), "-G", "Ninja",
                  f"-DCMAKE_CUDA_COMPILER={nvcc}",
                  "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"])
    if result.returncode != 0:
        print("compare-db-vs-flags: cmake could not configure the project:\n"
              + result.stdout + result.stderr, file=sys.stderr)
        sys.exit(2)
    database = json.loads((build / "compile_commands.json").read_text())
    listed = {Path(e["directory"], e["file"]).resolve() for e in database}
    missing = [f for f in files if f not in listed]
    if missing:
        print("compare-db-vs-flags: not in the compile database: "
              + ", ".join(map(str, missing)), file=sys.stderr)
        sys.exit(2)
    return build, database


def clang_flags(includes, args):
    # The drop-in's parse flags, asked of it (--print-parse-flags: the one
    # place they are spelled), for the toolkit and architecture chosen here.
    cuda = Path(args.cuda_path)
    asked = subprocess.run([args.tool, "--print-parse-flags"],
                           capture_output=True, text=True,
                           env={**os.environ, "CUDA_PATH": str(cuda)})
    if asked.returncode != 0:
        sys.exit("compare-db-vs-flags: " + asked.stderr.strip())
    parse = [f for f in asked.stdout.splitlines()
             if not f.startswith("--cuda-gpu-arch=")]
    return [*parse, f"--cuda-gpu-arch=sm_{args.arch}",
            "-include", str(ROOT / "tool" / "compat" /
                            "cuda_lambda_tidy_nvcc_compat.h"), "-std=c++17",
            "-D__CUDACC_EXTENDED_LAMBDA__=1", *(f"-I{i}" for i in includes),
            *args.hand_flags]


def commands(route, source, includes, build, args):
    """The command lines of one route for one file (one, or one per pass)."""
    if route == "db":
        return [[args.tool, CHECKS, "-p", str(build), str(source)]]
    if route == "drop-in":
        return [[args.tool, CHECKS, str(source), "--", "-std=c++17",
                 "-D__CUDACC_EXTENDED_LAMBDA__=1",
                 *(f"-I{i}" for i in includes), *args.hand_flags]]
    flags = clang_flags(includes, args)
    return [[args.clang_tidy, f"--load={args.plugin}", CHECKS, str(source),
             "--", *flags, side] for side in ("--cuda-device-only",
                                                "--cuda-host-only")]


def findings_of(output, cwd):
    """{(file, line, col, check, message)} of the printed non-note diagnostics."""
    found = set()
    for line in output.splitlines():
        m = DIAG_RE.match(line.rstrip("\r"))
        if not m or m["sev"] in ("note", "remark"):
            continue
        path = Path(m["file"])
        if not path.is_absolute():
            path = Path(cwd) / path
        check = (m["check"] or "").split(",")[0] or (
            "clang-diagnostic-error" if "error" in m["sev"] else "")
        found.add((str(path.resolve()), int(m["line"]), int(m["col"]), check,
                   m["msg"]))
    return found


def lint(route, source, includes, build, args):
    """Returns {'findings', 'parsed', 'crashed', 'log'} for one route."""
    found, crashed, log = set(), False, []
    cwd = str(source.parent)
    for cmd in commands(route, source, includes, build, args):
        result = run(cmd, cwd=cwd)
        log.append("$ " + " ".join(cmd) + f"\n[exit {result.returncode}]\n"
                   + result.stdout + result.stderr)
        # 0: clean or warnings; 1: compiler errors (reported as findings);
        # anything else is the tool failing (2: unusable input, <0: signal).
        if result.returncode not in (0, 1):
            crashed = True
        found |= findings_of(result.stdout + "\n" + result.stderr, cwd)
    parsed = not any(f[3] == "clang-diagnostic-error" for f in found)
    return {"findings": found, "parsed": parsed, "crashed": crashed,
            "log": "\n".join(log)}


def compare_file(source, includes, build, args):
    return source, {route: lint(route, source, includes, build, args)
                    for route in args.routes}


def display(path, base):
    try:
        return str(Path(path).relative_to(base))
    except ValueError:
        return str(path)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help=".cu files or directories of them")
    parser.add_argument("-I", dest="includes", action="append", default=[],
                        metavar="DIR", help="an include directory, for every route")
    parser.add_argument("--build", default=str(ROOT / "build"),
                        help="the build directory with bin/cuda-lambda-tidy and "
                             "lib/libCudaLambdaTidy.so (default: build/)")
    parser.add_argument("--tool", help="cuda-lambda-tidy (default: BUILD/bin/...)")
    parser.add_argument("--plugin", help="the plugin (default: BUILD/lib/...)")
    parser.add_argument("--clang-tidy", default="clang-tidy-22")
    parser.add_argument("--cuda-path", default=os.environ.get("CUDA_PATH", "/usr/local/cuda"))
    parser.add_argument("--arch", default="80", help="GPU architecture number (80)")
    parser.add_argument("--hand-flag", dest="hand_flags", action="append",
                        default=[], metavar="FLAG",
                        help="one more flag for the hand-written routes only "
                             "(to see a difference reported)")
    parser.add_argument("--routes", default=",".join(ROUTES),
                        help="which routes to compare (default: db,drop-in,plugin)")
    parser.add_argument("-j", "--jobs", type=int, default=1,
                        help="files linted at the same time (default 1)")
    parser.add_argument("--base", help="print file names relative to this directory")
    parser.add_argument("--keep", action="store_true",
                        help="keep the generated CMake project and print where")
    parser.add_argument("--logs", metavar="DIR",
                        help="write each file's commands and output to DIR")
    parser.add_argument("--json", metavar="FILE", help="write the results as JSON")
    args = parser.parse_args()

    build_dir = Path(args.build)
    args.tool = args.tool or str(build_dir / "bin" / "cuda-lambda-tidy")
    args.plugin = args.plugin or str(build_dir / "lib" / "libCudaLambdaTidy.so")
    args.routes = [r for r in args.routes.split(",") if r]
    if not args.routes or any(r not in ROUTES for r in args.routes):
        parser.error(f"--routes takes some of {','.join(ROUTES)}")
    needed = {"db": [args.tool, "cmake", "ninja",
                     str(Path(args.cuda_path) / "bin" / "nvcc")],
              "drop-in": [args.tool],
              "plugin": [args.clang_tidy, args.plugin]}
    for route in args.routes:
        for program in needed[route]:
            if not (Path(program).exists() or shutil.which(program)):
                print(f"compare-db-vs-flags: {program} not found (route {route})",
                      file=sys.stderr)
                return 2

    files = find_sources(args.paths)
    if not files:
        print("compare-db-vs-flags: no .cu files", file=sys.stderr)
        return 2
    includes = [str(Path(i).resolve()) for i in args.includes]
    base = Path(args.base).resolve() if args.base else (
        Path(args.paths[0]).resolve() if len(args.paths) == 1 and
        Path(args.paths[0]).is_dir() else Path.cwd())

    work = Path(tempfile.mkdtemp(prefix="compare-db-vs-flags-"))
    try:
        build, database = (configure_database(files, includes, args, work)
                           if "db" in args.routes else (None, []))
        if args.keep:
            print(f"CMake project and build directory: {work}")
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            results = dict(pool.map(
                lambda f: compare_file(f, includes, build, args), files))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)

    return report(files, results, database, base, args)


def report(files, results, database, base, args):
    rows, differing, unparsed, crashed = [], [], 0, 0
    for f in files:
        r = results[f]
        sets = [r[route]["findings"] for route in args.routes]
        same = all(s == sets[0] for s in sets)
        any_crash = any(r[route]["crashed"] for route in args.routes)
        parsed = [r[route]["parsed"] for route in args.routes]
        if not all(parsed):
            unparsed += 1
        if any_crash:
            crashed += 1
        if not same or any_crash:
            differing.append(f)
        rows.append([display(f, base),
                     "/".join("yes" if p else "no" for p in parsed),
                     *(str(len(r[route]["findings"])) for route in args.routes),
                     "yes" if same and not any_crash else "NO"])
    header = ["file", "parses (" + "/".join(args.routes) + ")",
              *(f"findings {route}" for route in args.routes), "identical"]
    widths = [max(len(x) for x in col) for col in zip(header, *rows)]
    for row in [header, ["-" * w for w in widths], *rows]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())

    for f in differing:
        r = results[f]
        print(f"\n{display(f, base)}: the routes differ")
        for route in args.routes:
            if r[route]["crashed"]:
                print(f"  {route}: the tool failed:\n" + r[route]["log"])
            others = set().union(*(r[o]["findings"] for o in args.routes if o != route))
            for finding in sorted(r[route]["findings"] - others):
                print(f"  only {route}: " + format_finding(finding, base))
            for finding in sorted(others - r[route]["findings"]):
                print(f"  not {route}: " + format_finding(finding, base))

    if args.logs:
        logs = Path(args.logs)
        logs.mkdir(parents=True, exist_ok=True)
        for f in files:
            name = display(f, base).replace("/", "__") + ".log"
            (logs / name).write_text("\n\n".join(
                f"== {route}\n" + results[f][route]["log"] for route in args.routes))
    if args.json:
        Path(args.json).write_text(json.dumps({
            "routes": args.routes,
            "database": database,
            "files": [{
                "file": str(f),
                **{route: {"parsed": results[f][route]["parsed"],
                           "crashed": results[f][route]["crashed"],
                           "findings": sorted(list(x) for x in results[f][route]["findings"])}
                   for route in args.routes}} for f in files]}, indent=1))

    total = sum(len(results[f][args.routes[0]]["findings"]) for f in files)
    print(f"\n{len(files)} files, {len(files) - unparsed} parse on every route, "
          f"{unparsed} with compiler errors on some route, {crashed} with a tool "
          f"failure; {total} findings ({args.routes[0]}); "
          f"{len(files) - len(differing)} identical, {len(differing)} differ")
    return 1 if differing else 0


def format_finding(finding, base):
    path, line, col, check, message = finding
    return f"{display(path, base)}:{line}:{col}: {message} [{check}]"


if __name__ == "__main__":
    sys.exit(main())
