#!/usr/bin/env python3
"""The self-contained binary (CUDA_LAMBDA_TIDY_STATIC=ON) without LLVM 22.

  static_binary.py --static build/bin/cuda-lambda-tidy-static
                   --tool build/bin/cuda-lambda-tidy FILE... [--clean FILE]...

1. `ldd`: no LLVM or Clang library among its dependencies.
2. In a mount namespace where /usr/lib/llvm-22 is an empty directory and
   the libLLVM / libclang-cpp files of the system's library directory are
   empty files: the shared-library binary cannot start (which shows the
   namespace hides LLVM), and the static one lints each FILE with the same
   output and exit status as the shared-library binary gives with LLVM in
   place, and each --clean FILE (thrust, cub: code every check must stay
   silent on, as every-file-both-passes shows for the checks) with exit
   status 0 and no diagnostic; `--version` says it is linked statically.
3. Its preamble cache, LLVM hidden: the first FILE (else --clean FILE)
   linted with --preamble-at-first-lint builds a preamble, and the next
   lint, the body edited, loads it and prints what a lint with --no-cache
   prints (the resource headers it carries go into the cache, which a
   preamble can name).

Exits 77 (skipped, never passed) when the static binary was not built (the
option is OFF) or a mount namespace cannot be made (not root, or unshare
not permitted).
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
import hide_paths  # noqa: E402

from harness import fail

SKIP = 77
LLVM_LIB = re.compile(r"lib(LLVM|clang)[-.\w]*\.so")


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, **kw)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--static", required=True)
    parser.add_argument("--tool", required=True)
    parser.add_argument("files", nargs="*")
    parser.add_argument("--clean", action="append", default=[])
    args = parser.parse_args()
    static = Path(args.static).resolve()
    tool = str(Path(args.tool).resolve())
    if not static.exists():
        print(f"SKIP: {static} was not built (configure with -DCUDA_LAMBDA_TIDY_STATIC=ON)")
        return SKIP
    ok, why = hide_paths.can_hide()
    if not ok:
        print(f"SKIP: cannot make a mount namespace to hide LLVM ({why})")
        return SKIP

    ldd = run(["ldd", str(static)]).stdout
    if LLVM_LIB.search(ldd):
        fail("ldd shows an LLVM or Clang library", ldd)
    print(f"{static.name}: {static.stat().st_size / 1e6:.1f} MB; ldd:")
    print("".join(f"  {l.strip()}\n" for l in ldd.splitlines()), end="")

    hidden = ["/usr/lib/llvm-22"] + sorted(
        glob.glob("/usr/lib/*/libLLVM*.so*") + glob.glob("/usr/lib/*/libclang-cpp*.so*"))
    shared = hide_paths.run_hidden(hidden, [tool, "--version"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True)
    if shared.returncode == 0:
        fail("the shared-library binary still runs: LLVM is not hidden", shared.stdout)
    version = hide_paths.run_hidden(hidden, [str(static), "--version"],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True)
    if version.returncode != 0 or "linked statically" not in version.stdout:
        fail("--version of the static binary, LLVM hidden", version.stdout + version.stderr)
    print(f"LLVM hidden ({len(hidden)} paths): the shared-library binary cannot start; "
          "the static one reports: " + version.stdout.strip().splitlines()[-1].strip())

    with tempfile.TemporaryDirectory(prefix="static-binary-") as tmp:
        for name in args.files + args.clean:
            copy = Path(tmp) / Path(name).name
            shutil.copy(name, copy)
            lint = ["--checks=-*,cuda-*", copy.name]
            alone = hide_paths.run_hidden(hidden, [str(static), *lint], cwd=tmp,
                                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                          text=True)
            count = len(re.findall(r"\[cuda-", alone.stdout))
            if name in args.clean:
                if alone.returncode != 0 or re.search(r": (warning|error): ", alone.stdout):
                    fail(f"{copy.name}: the static binary without LLVM does not lint it "
                         f"cleanly (exit {alone.returncode})", alone.stdout + alone.stderr)
                print(f"{copy.name}: exit 0, no diagnostic")
                continue
            reference = run([tool, *lint], cwd=tmp)
            if alone.returncode != reference.returncode or alone.stdout != reference.stdout:
                fail(f"{copy.name}: the static binary without LLVM differs from the "
                     "shared one",
                     f"--- shared (exit {reference.returncode}):\n{reference.stdout}"
                     f"{reference.stderr}\n--- static, LLVM hidden (exit "
                     f"{alone.returncode}):\n{alone.stdout}{alone.stderr}")
            print(f"{copy.name}: exit {alone.returncode}, {count} cuda-* findings, "
                  "as the shared-library binary with LLVM")
        preamble_round(static, hidden, Path(tmp), args.files or args.clean)
    return 0


PREAMBLE_VERDICT = re.compile(r"^cuda-lambda-tidy: preamble cache (hit|miss|built): .*$", re.M)


def preamble_round(static, hidden, tmp, names):
    """The static binary's preamble cache, LLVM hidden: the resource
    headers it carries are written into the cache, not into the run's
    temporary directory, so a preamble built by one lint is loaded by the
    next (with the body edited), which prints what a lint without the
    cache prints."""
    if not names:
        return
    copy = tmp / ("preamble-" + Path(names[0]).name)
    shutil.copy(names[0], copy)
    env = dict(os.environ, CUDA_LAMBDA_TIDY_EXPLAIN_CACHE="1")
    env.pop("CUDA_LAMBDA_TIDY_NO_CACHE", None)

    def lint(*extra):
        result = hide_paths.run_hidden(
            hidden, [str(static), "--checks=-*,cuda-*", *extra, copy.name], cwd=tmp,
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        return (result.returncode, result.stdout,
                PREAMBLE_VERDICT.sub("", result.stderr).strip(),
                PREAMBLE_VERDICT.findall(result.stderr), result.stderr)

    cache = "--cache-dir=" + str(tmp / "cache")
    built = lint(cache, "--preamble-at-first-lint")
    if not built[3] or set(built[3]) != {"built"}:
        fail(f"{copy.name}: the static binary's first lint did not build its preamble "
             f"({built[3]})", built[4])
    with open(copy, "a") as f:
        f.write("// the body edited\n")
    warm = lint(cache)
    plain = lint("--no-cache")
    if set(warm[3]) != {"hit"}:
        fail(f"{copy.name}: the static binary's second lint did not load its preamble "
             f"({warm[3]})", warm[4])
    if warm[:3] != plain[:3]:
        fail(f"{copy.name}: the static binary prints other output with its cached "
             "preamble than without", f"--- cached:\n{warm[1]}{warm[2]}\n--- "
             f"without:\n{plain[1]}{plain[2]}")
    print(f"{copy.name}: the static binary, LLVM hidden, built its preamble and "
          "loaded it at the next lint, with the same output")


if __name__ == "__main__":
    sys.exit(main())
