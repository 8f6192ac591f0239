#!/usr/bin/env python3
"""LLVM's run-clang-tidy script (Debian's run-clang-tidy-22, from the
clang-tidy-22 package) driving the drop-in over an nvcc compile database, as
CMake writes one for nvcc (-forward-unknown-to-host-compiler,
--generate-code=..., --extended-lambda, -x cu):

  run_clang_tidy_e2e.py --tool build/bin/cuda-lambda-tidy [--script PATH]

1. `run-clang-tidy-22 -clang-tidy-binary TOOL -p build -quiet
   -warnings-as-errors=cuda-*`: the script's `-list-checks -` probe is
   accepted, the finding in bad.cu is printed, status nonzero; good.cu and
   the host-only .cpp entry are silent.
2. The same with `-checks=-*,cuda-*`, `-use-color`, `-extra-arg=-DUNUSED=1`,
   `-header-filter=.*`, `-export-fixes FILE` and a file regex: FILE holds
   the fix-it for bad.cu.
3. `-fix` (clang-apply-replacements-22 applies the exported fixes), then a
   run with `-warnings-as-errors=cuda-*` passes: status 0, no finding.

Fails (never skips) when the script is missing.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from harness import THIS_CAPTURE, check, fail, report

CUDA_PATH = os.environ.get("CUDA_PATH") or "/usr/local/cuda"
ANSI = re.compile(r"\x1b\[[0-9;]*m")

BAD = THIS_CAPTURE
GOOD = """\
template <typename F> __global__ void each(F f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) f(i);
}

void scale(float *values, float factor, int n) {
  each<<<(n + 255) / 256, 256>>>([=] __device__ (int i) { values[i] *= factor; }, n);
}
"""
HOST = "int host_only(int v) { return v + 1; }\n"
FINDING = "bad.cu:13:35: "


def find_script(given):
    for candidate in ([given] if given else []) + [
            shutil.which("run-clang-tidy-22"), "/usr/lib/llvm-22/bin/run-clang-tidy",
            shutil.which("run-clang-tidy")]:
        if candidate and Path(candidate).exists():
            return candidate
    fail("run-clang-tidy-22 is not installed (clang-tidy-22; bash scripts/install-deps.sh)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    parser.add_argument("--script")
    options = parser.parse_args()
    tool = str(Path(options.tool).resolve())
    script = find_script(options.script)
    start = time.monotonic()

    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        src, build = project / "src", project / "build"
        src.mkdir()
        build.mkdir()
        (src / "bad.cu").write_text(BAD)
        (src / "good.cu").write_text(GOOD)
        (src / "host.cpp").write_text(HOST)
        nvcc = f"{CUDA_PATH}/bin/nvcc"
        common = (f"{nvcc} -forward-unknown-to-host-compiler -O3 -DNDEBUG -std=c++17 "
                  f"--generate-code=arch=compute_80,code=[compute_80,sm_80] "
                  f"--extended-lambda")
        db = [{"directory": str(build),
               "command": f"{common} -x cu -c {src / name} -o CMakeFiles/{name}.o",
               "file": str(src / name)} for name in ("bad.cu", "good.cu")]
        db.append({"directory": str(build),
                   "command": f"/usr/bin/c++ -O3 -c {src / 'host.cpp'} -o host.o",
                   "file": str(src / "host.cpp")})
        (build / "compile_commands.json").write_text(json.dumps(db, indent=2))

        def run_script(*args):
            result = subprocess.run(
                [sys.executable, script, "-clang-tidy-binary", tool,
                 "-clang-apply-replacements-binary",
                 shutil.which("clang-apply-replacements-22")
                 or "/usr/lib/llvm-22/bin/clang-apply-replacements",
                 "-p", str(build), "-j", "2", *args],
                cwd=project, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                text=True, timeout=300)
            return result.returncode, ANSI.sub("", result.stdout)

        status, out = run_script("-quiet", "-warnings-as-errors=cuda-*")
        check("Unable to run clang-tidy" not in out,
              f"the script's probe (-list-checks -) failed:\n{out}")
        check(status != 0, f"a finding with -warnings-as-errors must fail: {status}\n{out}")
        check(FINDING in out and "[cuda-lambda-this-capture" in out,
              f"the finding is not printed:\n{out}")
        check("good.cu:" not in out and "host.cpp:" not in out,
              f"good.cu or host.cpp reported:\n{out}")

        fixes = project / "fixes.yaml"
        status, out = run_script("-checks=-*,cuda-*", "-use-color",
                                 "-extra-arg=-DUNUSED=1", "-header-filter=.*",
                                 "-export-fixes", str(fixes), "bad\\.cu$")
        check(status == 0, f"findings without -warnings-as-errors are warnings: {status}\n{out}")
        check(FINDING in out, f"the finding is not printed with -use-color:\n{out}")
        text = fixes.read_text() if fixes.exists() else ""
        check("cuda-lambda-this-capture" in text and ", *this" in text,
              f"-export-fixes wrote no fix-it:\n{text}\n{out}")

        status, out = run_script("-quiet", "-fix", "bad\\.cu$")
        check("[=, *this] __device__" in (src / "bad.cu").read_text(),
              f"-fix did not apply the fix-it:\n{out}")
        status, out = run_script("-quiet", "-warnings-as-errors=cuda-*")
        check(status == 0 and "[cuda-" not in out,
              f"the fixed project must pass: {status}\n{out}")

    print(f"run-clang-tidy end to end: {time.monotonic() - start:.1f} s")
    return report("run-clang-tidy")


if __name__ == "__main__":
    sys.exit(main())
