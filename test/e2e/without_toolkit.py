#!/usr/bin/env python3
"""The drop-in binary without a CUDA toolkit (--cuda-toolkit=none, which
parses as on a machine that has none).

  without_toolkit.py --tool build/bin/cuda-lambda-tidy

1. The first line on stderr is the fallback notice, once, however the run is
   split (both passes, one pass in-process, -j, --format=sarif, a compile
   database of nvcc commands whose toolkit does not exist).
2. A file that includes <cuda_runtime.h> gets the same findings, the same
   output and the same exit status as with the toolkit.
3. A file that includes <thrust/...> fails with clang's "file not found"
   error, not a crash.
4. No notice where no CUDA is parsed (a C++ file, --list-checks); a value
   other than 'none' is a one-line input error.
5. No temporary directory is left behind, also when clang-tidy's main exits
   on a malformed option.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from harness import check, report

CHECKS = "--checks=-*,cuda-*"
NONE = "--cuda-toolkit=none"
NOTICE = ("cuda-lambda-tidy: --cuda-toolkit=none; parsing with the bundled "
          "fallback header: thrust, cub and CUDA library headers are "
          "unavailable")

# Findings in each pass: the device pass sees the launched lambda (and
# clang's own error about its capture), the host pass also the one under
# #ifndef __CUDA_ARCH__.
RUNTIME_CU = """\
#include <cuda_runtime.h>
#include <cstdio>

template <typename F> __global__ void apply(F f, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = f(i);
}

int main() {
  const int n = 256;
  float *out = nullptr;
  float k = 2.0f;
  if (cudaMalloc(&out, n * sizeof(float)) != cudaSuccess)
    return 1;
  auto scale = [&] __device__ (int i) { return i * k; };
  apply<<<dim3(n / 128), 128>>>(scale, out, n);
#ifndef __CUDA_ARCH__
  auto shift = [&] __device__ (int i) { return i + k; };
  apply<<<1, n>>>(shift, out, n);
#endif
  cudaError_t status = cudaDeviceSynchronize();
  if (status != cudaSuccess)
    std::printf("%s\\n", cudaGetErrorString(status));
  cudaFree(out);
  return 0;
}
"""

THRUST_CU = """\
#include <thrust/device_vector.h>
int main() { thrust::device_vector<int> v(4); return 0; }
"""

PLAIN_CPP = "int main() { return 0; }\n"


class Tool:
    def __init__(self, path, tmp):
        self.path = path
        # Every run's temporary files go here, to be found afterwards.
        self.env = dict(os.environ, TMPDIR=str(tmp))

    def run(self, *args, cwd=None, env=None):
        return subprocess.run([self.path, *args], capture_output=True,
                              text=True, timeout=600, env=env or self.env,
                              cwd=cwd)


def first_line(text):
    return text.splitlines()[0] if text.splitlines() else ""


def notice_first(name, result):
    check(first_line(result.stderr) == NOTICE,
          f"{name}: the first line on stderr is not the notice:\n"
          f"{result.stderr[:2000]}")
    check(result.stderr.count(NOTICE) == 1,
          f"{name}: the notice is not printed once:\n{result.stderr[:2000]}")


def crashed(result):
    return (result.returncode < 0 or "Stack dump" in result.stderr
            or "PLEASE submit" in result.stderr)


def findings_match_the_toolkit(tool, work):
    source = str(work / "runtime.cu")
    for mode in ([], ["--cuda-pass=device"], ["--cuda-pass=host"]):
        name = " ".join(["runtime.cu", *mode]) or "runtime.cu"
        with_toolkit = tool.run(CHECKS, *mode, source)
        without = tool.run(CHECKS, NONE, *mode, source)
        notice_first(name, without)
        check(NOTICE not in with_toolkit.stderr,
              f"{name}: the notice is printed with a toolkit")
        check("[cuda-lambda-reference-capture]" in with_toolkit.stdout,
              f"{name}: no finding with the toolkit:\n{with_toolkit.stdout}"
              f"{with_toolkit.stderr}")
        check(without.stdout == with_toolkit.stdout,
              f"{name}: the findings differ without the toolkit:\n"
              f"--- with the toolkit:\n{with_toolkit.stdout}"
              f"--- without:\n{without.stdout}{without.stderr}")
        check(without.returncode == with_toolkit.returncode,
              f"{name}: exit status {without.returncode} without the "
              f"toolkit, {with_toolkit.returncode} with it")


def notice_in_every_shape(tool, work):
    source = str(work / "runtime.cu")
    copy = str(work / "copy.cu")
    sarif = tool.run(CHECKS, NONE, "--format=sarif", source)
    notice_first("--format=sarif", sarif)
    sarif_with_toolkit = tool.run(CHECKS, "--format=sarif", source)
    try:
        results = json.loads(sarif.stdout)["runs"][0]["results"]
        expected = json.loads(sarif_with_toolkit.stdout)["runs"][0]["results"]
        check(results == expected and results,
              f"--format=sarif: the results differ without the toolkit:\n"
              f"{results}\n{expected}")
    except (json.JSONDecodeError, KeyError, IndexError) as e:
        check(False, f"--format=sarif: stdout is not SARIF ({e}):\n"
                     f"{sarif.stdout[:2000]}")
    jobs = tool.run(CHECKS, NONE, "-j", "2", source, copy)
    notice_first("-j 2", jobs)
    check(jobs.stdout.count("[cuda-lambda-reference-capture]") == 4,
          f"-j 2: two findings per file expected:\n{jobs.stdout}")

    # nvcc commands of a toolkit that does not exist.
    database = work / "db"
    database.mkdir()
    (database / "compile_commands.json").write_text(json.dumps([{
        "directory": str(work),
        "file": source,
        "command": f"/nonexistent/cuda-12.4/bin/nvcc --extended-lambda "
                   f"-arch=sm_80 -c {source} -o runtime.o",
    }]))
    with_toolkit = tool.run(CHECKS, "-p", str(database))
    for mode in ([], ["--cuda-pass=device"], ["-j", "2"]):
        name = " ".join(["compile database", *mode])
        result = tool.run(CHECKS, NONE, *mode, "-p", str(database))
        notice_first(name, result)
        check(result.stdout.count("[cuda-lambda-reference-capture]") ==
              (1 if mode == ["--cuda-pass=device"] else 2),
              f"{name}: findings missing:\n{result.stdout}{result.stderr}")
        if not mode:
            check(result.stdout == with_toolkit.stdout,
                  f"{name}: the findings differ without the toolkit:\n"
                  f"--- with:\n{with_toolkit.stdout}--- without:\n"
                  f"{result.stdout}")

    # A results cache hit prints the notice too, first and once. Here the
    # parent, which translated the database, prints it; a pass that decided
    # on the fallback itself has its reason stored with its output
    # (CachedResult::FallbackReason), which no run of today's shapes needs.
    env = {k: v for k, v in tool.env.items() if k != "CUDA_LAMBDA_TIDY_NO_CACHE"}
    env["CUDA_LAMBDA_TIDY_EXPLAIN_CACHE"] = "1"
    cache = "--cache-dir=" + str(work / "results-cache")
    outputs = []
    for expected in ("miss", "hit"):
        result = tool.run(CHECKS, NONE, cache, "-p", str(database), env=env)
        said = [l for l in result.stderr.splitlines()
                if l.startswith("cuda-lambda-tidy: results cache ")]
        check(said and all(f"results cache {expected}:" in l for l in said),
              f"results cache: every pass should be a {expected}:\n"
              f"{result.stderr[:2000]}")
        rest = "\n".join(l for l in result.stderr.splitlines()
                         if not l.startswith("cuda-lambda-tidy: results cache ")
                         and not l.startswith("cuda-lambda-tidy: preamble cache "))
        notice_first(f"compile database, results cache {expected}",
                     subprocess.CompletedProcess([], result.returncode,
                                                 result.stdout, rest))
        outputs.append(result.stdout)
    check(outputs[0] == outputs[1] == with_toolkit.stdout,
          f"results cache: the replay differs:\n{outputs}")


def thrust_is_a_clear_error(tool, work):
    for mode in ([], ["--cuda-pass=device"]):
        name = " ".join(["thrust.cu", *mode])
        result = tool.run(CHECKS, NONE, *mode, str(work / "thrust.cu"))
        check(not crashed(result), f"{name}: crashed:\n{result.stderr[-3000:]}")
        check(result.returncode > 0, f"{name}: exit status {result.returncode}")
        notice_first(name, result)
        check("thrust.cu:1:10: error: 'thrust/device_vector.h' file not found"
              in result.stdout,
              f"{name}: no 'file not found' error:\n{result.stdout}")


def no_notice_without_cuda(tool, work):
    plain = tool.run(CHECKS, NONE, str(work / "plain.cpp"))
    check(plain.returncode == 0 and NOTICE not in plain.stderr,
          f"plain.cpp: status {plain.returncode}, stderr:\n{plain.stderr}")
    listing = tool.run(CHECKS, NONE, "--list-checks")
    check(listing.returncode == 0 and NOTICE not in listing.stderr,
          f"--list-checks: status {listing.returncode}, stderr:\n"
          f"{listing.stderr}")
    bad = tool.run(CHECKS, "--cuda-toolkit=/usr/local/cuda",
                   str(work / "runtime.cu"))
    check(bad.returncode == 2 and bad.stderr ==
          "cuda-lambda-tidy: error: --cuda-toolkit takes only 'none' "
          "(CUDA_PATH chooses a toolkit), not '/usr/local/cuda'\n",
          f"--cuda-toolkit=/usr/local/cuda: status {bad.returncode}, "
          f"stderr:\n{bad.stderr}")
    # clang-tidy's main exits on an option it does not know.
    unknown = tool.run(CHECKS, NONE, "--cuda-pass=device", "--no-such-option",
                       str(work / "runtime.cu"))
    check(unknown.returncode != 0 and not crashed(unknown),
          f"--no-such-option: status {unknown.returncode}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        work, tmp = Path(scratch) / "work", Path(scratch) / "tmp"
        work.mkdir()
        tmp.mkdir()
        (work / "runtime.cu").write_text(RUNTIME_CU)
        (work / "copy.cu").write_text(RUNTIME_CU)
        (work / "thrust.cu").write_text(THRUST_CU)
        (work / "plain.cpp").write_text(PLAIN_CPP)
        tool = Tool(args.tool, tmp)
        findings_match_the_toolkit(tool, work)
        notice_in_every_shape(tool, work)
        thrust_is_a_clear_error(tool, work)
        no_notice_without_cuda(tool, work)
        left = sorted(p.name for p in tmp.iterdir())
        check(not left, f"temporary files left behind: {left}")
    return report("without a toolkit")


if __name__ == "__main__":
    sys.exit(main())
