#!/usr/bin/env python3
"""The compiler launcher end to end: examples/cmake-project configured with
-DDEMO_BUILDABLE=ON (the 'particles' library: src/particles.cu and
src/plain.cu) and CMAKE_CUDA_COMPILER_LAUNCHER=cuda-lambda-tidy-launcher,
built by nvcc with `ninja -j2`.

  launcher_e2e.py --launcher build/bin/cuda-lambda-tidy-launcher [--nvcc PATH] [--project DIR]

1. src/particles.cu as committed: `this` captured through `[=]` in a member
   function, which nvcc compiles without a word. The build fails; the
   finding is printed (particles.cu:15:22, [cuda-lambda-this-capture]) with
   the launcher's error line; particles.cu has no object file; plain.cu,
   clean, is compiled.
2. The fixed file (`[=, *this]`): the build passes and the launcher prints
   nothing.
3. The hazard again with CUDA_LAMBDA_TIDY_LAUNCHER_MODE=warn, chained to
   ccache (CMAKE_CUDA_COMPILER_LAUNCHER="<launcher>;ccache", a private
   CCACHE_DIR): the build passes and prints the finding; a clean rebuild is
   served from ccache's cache and linted again. Without ccache (said so),
   warn mode is shown through the launcher alone.

Exits 77 (skipped) when nvcc, cmake or ninja is missing.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from harness import fail

SKIP = 77
FINDING = re.compile(r"particles\.cu:15:22: (warning|error): .*\[cuda-lambda-this-capture\]")
HAZARD = "[=] __device__(int i) { position[i]"
FIXED = "[=, *this] __device__(int i) { position[i]"


def run(cmd, env=None, cwd=None):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, env=env, cwd=cwd)


def ninja(build, env):
    return run(["ninja", "-C", str(build), "-j2"], env=env)


def configure(project, build, nvcc, launcher, env):
    result = run(["cmake", "-S", str(project), "-B", str(build), "-G", "Ninja",
                  f"-DCMAKE_CUDA_COMPILER={nvcc}", "-DDEMO_BUILDABLE=ON",
                  f"-DCMAKE_CUDA_COMPILER_LAUNCHER={launcher}"], env=env)
    if result.returncode != 0:
        fail("cmake configure failed", result.stdout)


def check_warn(result, particles_obj):
    if result.returncode != 0 or not particles_obj.exists():
        fail("the build failed in warn mode", result.stdout)
    if not FINDING.search(result.stdout) or \
            "cuda-lambda-tidy-launcher: warning: 1 finding in" not in result.stdout:
        fail("the finding is not printed in warn mode", result.stdout)


def ccache_stats(env):
    stats = {}
    out = run(["ccache", "--print-stats"], env=env).stdout
    for line in out.splitlines():
        key, _, value = line.partition("\t")
        if value.strip().isdigit():
            stats[key] = int(value)
    return stats


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--launcher", required=True)
    parser.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    parser.add_argument("--project", default=str(Path(__file__).resolve().parents[2]
                                                 / "examples" / "cmake-project"))
    args = parser.parse_args()
    launcher = os.path.abspath(args.launcher)
    for tool in ("cmake", "ninja"):
        if not shutil.which(tool):
            print(f"SKIP: {tool} not found")
            return SKIP
    if not os.access(args.nvcc, os.X_OK):
        print(f"SKIP: nvcc not found ({args.nvcc})")
        return SKIP

    with tempfile.TemporaryDirectory(prefix="launcher-e2e-") as tmp:
        tmp = Path(tmp)
        project = tmp / "project"
        shutil.copytree(args.project, project)
        source = project / "src" / "particles.cu"
        if HAZARD not in source.read_text():
            fail(f"{source} no longer holds the hazard '{HAZARD}'")
        build = tmp / "build"
        env = dict(os.environ)
        env.pop("CUDA_LAMBDA_TIDY_LAUNCHER_MODE", None)
        env.pop("CUDA_LAMBDA_TIDY_LAUNCHER_ARGS", None)
        env["CCACHE_DISABLE"] = "1"  # a ccache in the user's environment
        configure(project, build, args.nvcc, launcher, env)
        particles_obj = build / "CMakeFiles" / "particles.dir" / "src" / "particles.cu.o"
        plain_obj = build / "CMakeFiles" / "particles.dir" / "src" / "plain.cu.o"

        # 1. The hazard fails the build.
        result = ninja(build, env)
        if result.returncode == 0:
            fail("the build passed with the hazard", result.stdout)
        if not FINDING.search(result.stdout):
            fail("the finding is not in the build's output", result.stdout)
        if "cuda-lambda-tidy-launcher: error: 1 finding in" not in result.stdout:
            fail("the launcher's error line is missing", result.stdout)
        if particles_obj.exists():
            fail("particles.cu was compiled although the lint failed")
        if not plain_obj.exists():
            fail("plain.cu, which is clean, was not compiled", result.stdout)
        print("hazard, --mode=error: build failed with the finding")

        # 2. The fix builds, silently.
        source.write_text(source.read_text().replace(HAZARD, FIXED))
        result = ninja(build, env)
        if result.returncode != 0:
            fail("the fixed file does not build", result.stdout)
        if "cuda-lambda-tidy-launcher" in result.stdout or "warning:" in result.stdout:
            fail("the launcher printed something on the fixed file", result.stdout)
        print("fixed ([=, *this]): built, nothing printed")

        # 3. Warn mode, chained to ccache.
        source.write_text(source.read_text().replace(FIXED, HAZARD))
        warn_env = dict(env, CUDA_LAMBDA_TIDY_LAUNCHER_MODE="warn")
        ccache = shutil.which("ccache")
        if not ccache:
            print("ccache not installed: the chaining part is skipped")
            result = ninja(build, warn_env)
            check_warn(result, particles_obj)
            print("hazard, CUDA_LAMBDA_TIDY_LAUNCHER_MODE=warn: built, finding printed")
            return 0
        cc_env = dict(warn_env, CCACHE_DIR=str(tmp / "ccache"))
        cc_env.pop("CCACHE_DISABLE")
        configure(project, build, args.nvcc, f"{launcher};{ccache}", cc_env)
        for attempt in ("first build", "clean rebuild"):
            run(["ninja", "-C", str(build), "-t", "clean"], env=cc_env)
            check_warn(ninja(build, cc_env), particles_obj)
        stats = ccache_stats(cc_env)
        hits = stats.get("direct_cache_hit", 0) + stats.get("preprocessed_cache_hit", 0)
        misses = stats.get("cache_miss", 0)
        if misses != 2 or hits != 2:
            fail(f"ccache did not serve the rebuild: {misses} misses, {hits} hits "
                 "(2 and 2 expected)")
        print("hazard, CUDA_LAMBDA_TIDY_LAUNCHER_MODE=warn, chained to ccache: built "
              f"and linted twice, the finding printed; ccache {misses} misses, {hits} hits")
    return 0


if __name__ == "__main__":
    sys.exit(main())
