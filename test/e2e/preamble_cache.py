#!/usr/bin/env python3
"""Issue 15, the preamble cache: a lint that reuses a cached preamble prints
what a lint without one prints.

  preamble_cache.py --tool build/bin/cuda-lambda-tidy [--fixtures DIR] [-j 2]
                    [--only REGEX] [--all]

Fixtures: every fixture under DIR whose first lines are #include lines (the
others have no preamble) is linted as a user runs the drop-in on one file
(both passes by default, the pass probe deciding; the fixture's CHECKS,
TIDY-ARGS and RUN-ARGS), three times: with --no-cache, then into an empty
temporary --cache-dir with --preamble-at-first-lint (the preamble is built),
then again (it must hit for every pass that ran). The three outputs (stdout, stderr without the cache's
own lines, exit status) must be identical. This is what shows that the
preprocessor callbacks of the checks and of the pass probe lose nothing
inside a PCH (PreambleCache.h says what is kept). Without --all (the ctest,
to keep CI short): every such fixture of the checks with preprocessor
callbacks (CHECKS_WITH_PP_CALLBACKS), and of every other directory the first
that includes neither thrust nor cub (a thrust fixture costs three thrust
parses). --all lints all of them (62 fixtures and 22 copies, about 10
minutes of CPU).
The fixtures of cuda-extended-lambda-flag (which reads -D macros of the
command line through the preprocessor; with --all, of every check with
preprocessor callbacks) that start with no #include are linted the same way
as a copy with `#include <type_traits>` put first.

A small project in a temporary directory, for the key:
  - the first lint of a preamble only marks it (no tax on a file linted
    once), the second builds it, the third (the body edited) loads it;
    --preamble-at-first-lint builds at once;
  - a header the preamble includes, touched: still a hit; edited (same
    size): rebuilt, with the findings the edit causes;
  - another compiler flag: built anew, not the old entry;
  - a user header (-I, not a system header) first: no preamble;
  - a relative --cache-dir: built, then a hit (the headers the preamble
    names are kept below it, not in the system's temporary directory);
  - four runs at once into an empty cache: each prints the findings of a
    run without the cache, and the entry is usable afterwards;
  - --no-cache, --no-preamble-cache and CUDA_LAMBDA_TIDY_NO_CACHE=1: no
    preamble cache;
  - a __managed__ variable declared in a system header: no preamble;
  - the pass probe's state: NV_IF_TARGET from <nv/target> in the preamble
    still asks for the host pass when the preamble is cached.
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from harness import check, report, run

HERE = Path(__file__).resolve().parent
from fixture_format import parse_fixture  # noqa: E402

PREAMBLE_LINE = re.compile(
    r"^cuda-lambda-tidy: preamble cache (hit|miss|built): (.+?) \((\w+(?: \w+)?)\)(?:: (.*))?$",
    re.M)
# The checks that watch the preprocessor (registerPPCallbacks).
CHECKS_WITH_PP_CALLBACKS = {
    "cuda-device-deduced-return-on-host", "cuda-extended-lambda-flag",
    "cuda-host-variable-in-device-code", "cuda-lambda-arch-dependent",
    "cuda-static-in-host-device-function"}
HEAVY_INCLUDE = re.compile(r"^\s*#\s*include\s*<(thrust|cub)/", re.M)
INCLUDE_FIRST = re.compile(r"\A(?:\s|//[^\n]*\n|/\*.*?\*/)*#\s*include\s*[<\"]", re.S)


def environment(**extra):
    env = dict(os.environ, CUDA_LAMBDA_TIDY_EXPLAIN_CACHE="1")
    env.pop("CUDA_LAMBDA_TIDY_NO_CACHE", None)
    env.update(extra)
    return env


def lint(tool, args, env=None, cwd=None):
    result = run([tool, *args], env=env or environment(), timeout=900, cwd=cwd)
    lines = PREAMBLE_LINE.findall(result.stderr)
    rest = PREAMBLE_LINE.sub("", result.stderr)
    rest = "\n".join(line for line in rest.splitlines() if line.strip())
    return result.returncode, result.stdout, rest, lines


def fixture_args(path):
    fixture = parse_fixture(path)
    args = [f"--checks={fixture.checks}", *fixture.tidy_args, str(path)]
    if fixture.run_args:
        args += ["--", *fixture.run_args]
    return args


def check_fixture(tool, path, cache_root):
    """None when the three runs agree, else what differs."""
    args = fixture_args(path)
    cache = cache_root / re.sub(r"[^\w]", "_", str(path))
    plain = lint(tool, ["--no-cache", *args])
    cold = lint(tool, [f"--cache-dir={cache}", "--preamble-at-first-lint", *args])
    warm = lint(tool, [f"--cache-dir={cache}", *args])
    verdicts = [line[0] for line in warm[3]]
    problems = []
    if plain[3]:
        problems.append("--no-cache used the preamble cache")
    for name, other in (("cold", cold), ("warm", warm)):
        for what, index in (("exit status", 0), ("stdout", 1), ("stderr", 2)):
            if plain[index] != other[index]:
                problems.append(f"{name} run: {what} differs from --no-cache:\n"
                                f"--- no cache\n{plain[index]}\n--- {name}\n{other[index]}")
    return problems, [line[0] for line in cold[3]], verdicts, [l[3] for l in cold[3]]


def fixtures_test(tool, fixtures_dir, jobs, only, every, cache_root):
    paths = [p for p in sorted(Path(fixtures_dir).rglob("*.cu"))
             if INCLUDE_FIRST.match(p.read_text()) and re.search(only, str(p))]
    prepended = [p for p in sorted(Path(fixtures_dir).rglob("*.cu"))
                 if not INCLUDE_FIRST.match(p.read_text()) and re.search(only, str(p))
                 and (p.parent.name in CHECKS_WITH_PP_CALLBACKS if every
                      else p.parent.name == "cuda-extended-lambda-flag")]
    copies = cache_root / "prepended"
    for p in prepended:
        copy = copies / p.parent.name / p.name
        copy.parent.mkdir(parents=True, exist_ok=True)
        for sibling in list(p.parent.glob("*.cuh")) + list(p.parent.glob("*.h")):
            shutil.copy(sibling, copy.parent / sibling.name)
        copy.write_text("#include <type_traits>\n" + p.read_text())
    if not every:
        chosen, dirs = [], set()
        for p in paths:
            if p.parent.name in CHECKS_WITH_PP_CALLBACKS:
                chosen.append(p)
            elif not HEAVY_INCLUDE.search(p.read_text()) and p.parent not in dirs:
                dirs.add(p.parent)
                chosen.append(p)
        paths = chosen
    paths += [copies / p.parent.name / p.name for p in prepended]
    check(paths, f"no fixture under {fixtures_dir} starts with #include lines")
    hits = 0
    started = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(check_fixture, tool, p, cache_root): p for p in paths}
        for future in concurrent.futures.as_completed(futures):
            path = futures[future]
            problems, cold, warm, reasons = future.result()
            for problem in problems:
                check(False, f"{path}: {problem}")
            if "built" in cold:
                check(warm and all(v == "hit" for v in warm),
                      f"{path}: the second run did not hit: {warm}")
                hits += 1
            state = ("hit" if warm and all(v == "hit" for v in warm)
                     else f"no preamble ({'; '.join(r for r in reasons if r)})")
            print(f"{'FAIL' if problems else 'ok  '} {path}: {state}", flush=True)
    print(f"{len(paths)} fixtures with #include lines first, {hits} with a "
          f"cached preamble, {time.time() - started:.0f} s")
    check(hits >= len(paths) // 2,
          f"only {hits} of {len(paths)} fixtures got a cached preamble")


BODY = """#include <lib.h>

void use(int y) {
#if LIB_BY_REF
  auto g = [&] __device__ () { return y; };
#else
  auto g = [=] __device__ () { return y; };
#endif
  (void)g;
}
"""


def key_tests(tool, root):
    system = root / "sys"
    system.mkdir()
    header = system / "lib.h"
    header.write_text("#define LIB_BY_REF 0\n")
    source = root / "f.cu"
    source.write_text(BODY)
    cache = root / "cache"
    flags = ["--", "-std=c++17", "-isystem", str(system)]
    args = ["--checks=-*,cuda-*", "--cuda-pass=device", str(source)]

    def verdict(result):
        return [line[0] for line in result[3]]

    plain = lint(tool, ["--no-cache", *args, *flags])
    first = lint(tool, [f"--cache-dir={cache}", *args, *flags])
    check(verdict(first) == ["miss"] and "first sight" in first[3][0][3],
          f"first run: {first[3]}, not a first sight")
    check(first[:3] == plain[:3], "first run: other output than --no-cache")
    check(not list(cache.rglob("*.pch")), "first run: a PCH was written")
    cold = lint(tool, [f"--cache-dir={cache}", *args, *flags])
    check(verdict(cold) == ["built"], f"second run: {verdict(cold)}, not built")
    check("cuda-lambda-reference-capture" not in cold[1], "a finding with LIB_BY_REF 0")
    check(cold[:3] == plain[:3], "second run: other output than --no-cache")

    # The body edited: a hit, the body's findings.
    source.write_text(BODY.replace("return y;", "return y + 1;"))
    warm = lint(tool, [f"--cache-dir={cache}", *args, *flags])
    check(verdict(warm) == ["hit"], f"body edited: {verdict(warm)}, not a hit")
    check(warm[:3] == lint(tool, ["--no-cache", *args, *flags])[:3],
          "body edited: the hit prints other findings than --no-cache")

    # Touched, unchanged: still a hit.
    later = time.time() + 5
    os.utime(header, (later, later))
    touched = lint(tool, [f"--cache-dir={cache}", *args, *flags])
    check(verdict(touched) == ["hit"], f"header touched: {verdict(touched)}, not a hit")

    # Edited, same size: rebuilt, and the edit's finding is there.
    header.write_text("#define LIB_BY_REF 1\n")
    later += 5
    os.utime(header, (later, later))
    edited = lint(tool, [f"--cache-dir={cache}", *args, *flags])
    check(verdict(edited) == ["built"], f"header edited: {verdict(edited)}, not built")
    check(any("lib.h' changed" in line[3] for line in edited[3]),
          f"header edited: the reason is not the header: {edited[3]}")
    check("cuda-lambda-reference-capture" in edited[1],
          "header edited: the rebuilt preamble's lint misses LIB_BY_REF 1's finding")
    check(edited[:3] == lint(tool, ["--no-cache", *args, *flags])[:3],
          "header edited: other findings than --no-cache")

    # Another flag: another entry, first seen, then built; at once with
    # --preamble-at-first-lint.
    other = lint(tool, [f"--cache-dir={cache}", *args, *flags, "-DSOMETHING=1"])
    check(verdict(other) == ["miss"], f"-DSOMETHING=1: {verdict(other)}, not first seen")
    other = lint(tool, [f"--cache-dir={cache}", *args, *flags, "-DSOMETHING=1"])
    check(verdict(other) == ["built"], f"-DSOMETHING=1 again: {verdict(other)}, not built")
    now = lint(tool, [f"--cache-dir={cache}", "--preamble-at-first-lint", *args, *flags,
                      "-DSOMETHING=2"])
    check(verdict(now) == ["built"],
          f"-DSOMETHING=2 with --preamble-at-first-lint: {verdict(now)}, not built")
    again = lint(tool, [f"--cache-dir={cache}", *args, *flags])
    check(verdict(again) == ["hit"], f"first flags again: {verdict(again)}, not a hit")

    # A user header first: no preamble.
    user = root / "user"
    user.mkdir()
    (user / "lib.h").write_text("#define LIB_BY_REF 1\n")
    mine = lint(tool, [f"--cache-dir={cache}", "--preamble-at-first-lint", *args,
                       "--", "-std=c++17", "-I", str(user)])
    check(verdict(mine) == ["miss"] and "user header" in mine[3][0][3],
          f"user header first: {mine[3]}")
    check(mine[:3] == lint(tool, ["--no-cache", *args, "--", "-std=c++17", "-I", str(user)])[:3],
          "user header first: other findings than --no-cache")

    # The pass probe: what it learns inside the preamble (NV_IF_TARGET
    # differs between the passes) is kept with the entry.
    probe = root / "probe.cu"
    probe.write_text("#include <nv/target>\n\n"
                     "__host__ __device__ int where() {\n"
                     "  NV_IF_TARGET(NV_IS_DEVICE, (return 1;), (return 0;))\n"
                     "}\n")
    passes = environment(CUDA_LAMBDA_TIDY_EXPLAIN_PASSES="1")
    probe_args = ["--checks=-*,cuda-*", str(probe), "--", "-std=c++17"]
    expected = lint(tool, ["--no-cache", *probe_args], env=passes)
    check("host pass needed" in expected[2], f"no host pass for NV_IF_TARGET: {expected[2]}")
    for name in ("cold", "warm"):
        result = lint(tool, [f"--cache-dir={cache}", "--preamble-at-first-lint",
                             *probe_args], env=passes)
        check(result[:3] == expected[:3],
              f"NV_IF_TARGET, {name}: other output or pass choice than --no-cache:\n"
              f"{expected[2]}\n---\n{result[2]}")
        if name == "warm":
            check(verdict(result) and all(v == "hit" for v in verdict(result)),
                  f"NV_IF_TARGET, warm: {result[3]}")

    # A __managed__ variable declared in a system header: the check that
    # tells it from a host variable sees the macro's expansion, which a PCH
    # does not replay, so that preamble is not used.
    (system / "managed.h").write_text("__managed__ int lib_counter;\n")
    managed = root / "managed.cu"
    managed.write_text("#include <managed.h>\n\n"
                       "__global__ void bump() { lib_counter += 1; }\n")
    managed_args = ["--checks=-*,cuda-*", "--cuda-pass=device", str(managed), *flags]
    expected = lint(tool, ["--no-cache", *managed_args])
    result = lint(tool, [f"--cache-dir={cache}", "--preamble-at-first-lint", *managed_args])
    check(verdict(result) == ["miss"] and "__managed__" in result[3][0][3],
          f"__managed__ in the preamble: {result[3]}")
    check(result[:3] == expected[:3], "__managed__ in the preamble: other output")

    # Off: --no-cache, --no-preamble-cache, the environment.
    check(not lint(tool, [f"--cache-dir={cache}", "--no-preamble-cache", *args, *flags])[3],
          "--no-preamble-cache still used the preamble cache")
    check(not lint(tool, [f"--cache-dir={cache}", "--no-cache", *args, *flags])[3],
          "--no-cache still used the preamble cache")
    off = lint(tool, [f"--cache-dir={cache}", *args, *flags],
               env=environment(CUDA_LAMBDA_TIDY_NO_CACHE="1"))
    check(not off[3], "CUDA_LAMBDA_TIDY_NO_CACHE=1 still used the preamble cache")

    # A relative --cache-dir: the support headers a preamble names go below
    # it, not below the system's temporary directory, and the next lint of
    # the edited body hits.
    relative = lint(tool, ["--cache-dir=relative-cache", "--preamble-at-first-lint",
                           *args, *flags], cwd=root)
    check(verdict(relative) == ["built"], f"relative --cache-dir: {relative[3]}, not built")
    source.write_text(BODY.replace("return y;", "return y + 2;"))
    relative = lint(tool, ["--cache-dir=relative-cache", *args, *flags], cwd=root)
    check(verdict(relative) == ["hit"], f"relative --cache-dir, body edited: {relative[3]}")
    check(any((root / "relative-cache" / "preambles" / "support").iterdir()),
          "relative --cache-dir: no support headers below it")

    # Four at once into an empty cache, both passes.
    fresh = root / "fresh"
    both = ["--checks=-*,cuda-*", str(source), *flags]
    expected = lint(tool, ["--no-cache", *both])
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        runs = list(pool.map(lambda _: lint(tool, [f"--cache-dir={fresh}",
                                                   "--preamble-at-first-lint", *both]),
                             range(4)))
    for index, result in enumerate(runs):
        check(result[:3] == expected[:3], f"concurrent run {index}: other output than --no-cache")
        check(result[3] and all(v in ("built", "hit") for v in verdict(result)),
              f"concurrent run {index}: {result[3]}")
    after = lint(tool, [f"--cache-dir={fresh}", *both])
    check(after[3] and all(v == "hit" for v in verdict(after)),
          f"after the concurrent runs: {after[3]}")
    check(after[:3] == expected[:3], "after the concurrent runs: other output")
    leftovers = [p.name for p in fresh.rglob("*") if ".tmp-" in p.name or ".use-" in p.name]
    check(not leftovers, f"temporary files left in the cache: {leftovers}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    parser.add_argument("--fixtures", default=str(HERE.parents[1] / "fixtures"))
    parser.add_argument("-j", type=int, default=2)
    parser.add_argument("--only", default="", help="fixtures whose path matches")
    parser.add_argument("--no-fixtures", action="store_true")
    parser.add_argument("--all", action="store_true",
                        help="also the fixtures including thrust or cub")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        started = time.time()
        key_tests(args.tool, root)
        print(f"key tests: {time.time() - started:.0f} s")
        if not args.no_fixtures:
            (root / "fixtures").mkdir()
            fixtures_test(args.tool, args.fixtures, args.j, args.only, args.all,
                          root / "fixtures")
    return report("preamble cache")


if __name__ == "__main__":
    sys.exit(main())
