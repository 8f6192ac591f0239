"""What the test scripts need to know about a CUDA parse: where the toolkit
is, the flags the drop-in adds to parse CUDA (asked of the binary), the
nvcc-compatibility header a plugin user force-includes, and nvcc's flags
for the fixtures' verdicts."""

import os
import re
import subprocess
import sys
from pathlib import Path

# The source tree: test/lib/ is two levels below it.
ROOT = Path(__file__).resolve().parents[2]

CUDA_PATH = os.environ.get("CUDA_PATH") or "/usr/local/cuda"

# The drop-in binary of this source tree, which the flags are asked of.
DEFAULT_TOOL = ROOT / "build" / "bin" / "cuda-lambda-tidy"

_PARSE_FLAGS = {}


def cuda_parse_flags(tool=None):
    """What a user of the plugin passes by hand after `--` (the README says
    so) and the drop-in adds by itself: asked of the binary
    (`cuda-lambda-tidy --print-parse-flags`), the one place they are
    spelled (tool/CudaInvocation.cpp's cudaParseFlags)."""
    tool = str(tool or DEFAULT_TOOL)
    if tool not in _PARSE_FLAGS:
        result = subprocess.run([tool, "--print-parse-flags"],
                                capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"{tool} --print-parse-flags failed: {result.stderr.strip()}")
        _PARSE_FLAGS[tool] = result.stdout.splitlines()
    return _PARSE_FLAGS[tool]


# The nvcc-compatibility layer, which the drop-in force-includes by itself:
# a user of the plugin passes it with one flag (the README says so).
NVCC_COMPAT_HEADER = ROOT / "tool" / "compat" / "cuda_lambda_tidy_nvcc_compat.h"
PLUGIN_NVCC_COMPAT_FLAGS = ["-include", str(NVCC_COMPAT_HEADER)]

# What the plugin in a clang-tidy older than 22 (clang-tidy-19 or -16:
# CMakeLists.txt's CUDA_LAMBDA_TIDY_LLVM) needs after those, as
# docs/integration.md says: the newest CUDA SDK that clang knows (given a
# newer one it reads the SDK as unknown and declares the kernel-launch API of
# CUDA 9.1), an empty header for the one CUDA 13 removed that its runtime
# wrapper includes, and, for clang 16, nvcc's C++17 default (clang 16's is
# C++14). It also lints the host pass of a CUDA file unless told
# --cuda-device-only (the runner adds that for the device pass).
OLDER_CLANG_SDK = {19: "12.5", 16: "11.8"}


def older_clang_plugin_flags(major):
    flags = ["-Xclang", f"-target-sdk-version={OLDER_CLANG_SDK[major]}",
             "-isystem", str(ROOT / "tool" / "compat" / "before-clang-22")]
    if major < 17:
        flags.append("-std=c++17")
    return flags


_CLANG_TIDY_MAJOR = {}


def clang_tidy_major(clang_tidy):
    """The LLVM major version of the clang-tidy binary \p clang_tidy."""
    if clang_tidy not in _CLANG_TIDY_MAJOR:
        result = subprocess.run([clang_tidy, "--version"], capture_output=True,
                                text=True)
        m = re.search(r"LLVM version (\d+)", result.stdout)
        if result.returncode != 0 or not m:
            sys.exit(f"{clang_tidy} --version: no LLVM version in its output")
        _CLANG_TIDY_MAJOR[clang_tidy] = int(m[1])
    return _CLANG_TIDY_MAJOR[clang_tidy]


NVCC_FLAGS = ["-std=c++17", "--extended-lambda", "-arch=sm_80", "-c"]

