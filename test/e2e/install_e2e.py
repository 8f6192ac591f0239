#!/usr/bin/env python3
"""`cmake --install` into a temporary prefix, then lint from there with the
build and source trees out of reach.

  install_e2e.py --build BUILD_DIR --source SOURCE_DIR

1. `cmake --install BUILD --prefix P`: the binary, the launcher symlink, the
   plugin, the nvcc-compatibility header and the documentation are where
   cmake/Packaging.cmake says; the prefix is then moved elsewhere (the
   binaries must not depend on where they were installed either).
2. The installed binary's run path names no directory of the build or source
   tree; `--version` reports our version and the LLVM it was built with.
3. examples/quickstart.cu (a copy) linted by the installed binary in a mount
   namespace where the build and source trees are empty directories: the
   same findings as the build tree's binary; `--format=sarif` points the
   rules' help at the installed documentation, which exists. Without
   `unshare` (not root), the run is traced instead (`strace`), and no file
   under either tree may be opened; with neither, this part is skipped,
   saying so.
4. The installed plugin loads into clang-tidy-22 and lists the cuda-* checks.
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
import hide_paths  # noqa: E402

from harness import fail

VERSION_RE = re.compile(r"cuda-lambda-tidy version (\S+)\n\s+built with LLVM (22\.\S+)")


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, **kw)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--version", required=True, help="the project's version")
    args = parser.parse_args()
    build = Path(args.build).resolve()
    source = Path(args.source).resolve()

    with tempfile.TemporaryDirectory(prefix="install-e2e-") as tmp:
        tmp = Path(tmp)
        first = tmp / "first-prefix"
        result = run(["cmake", "--install", str(build), "--prefix", str(first)])
        if result.returncode != 0:
            fail("cmake --install failed", result.stdout + result.stderr)
        prefix = tmp / "moved" / "prefix"
        prefix.parent.mkdir()
        shutil.move(str(first), str(prefix))

        expected = [
            "bin/cuda-lambda-tidy",
            "bin/cuda-lambda-tidy-launcher",
            "lib/cuda-lambda-tidy/libCudaLambdaTidy.so",
            "share/cuda-lambda-tidy/cuda_lambda_tidy_nvcc_compat.h",
            "share/doc/cuda-lambda-tidy/README.md",
            "share/doc/cuda-lambda-tidy/docs/integration.md",
            "share/doc/cuda-lambda-tidy/docs/checks/cuda-lambda-this-capture.md",
        ]
        for rel in expected:
            if not (prefix / rel).exists():
                fail(f"not installed: {rel}")
        launcher = prefix / "bin" / "cuda-lambda-tidy-launcher"
        if not launcher.is_symlink() or os.readlink(launcher) != "cuda-lambda-tidy":
            fail("bin/cuda-lambda-tidy-launcher is not a relative symlink to cuda-lambda-tidy")
        tool = prefix / "bin" / "cuda-lambda-tidy"
        print(f"installed: {', '.join(expected)}")

        # 2. Run path and version.
        dynamic = run(["readelf", "-d", str(tool)]).stdout
        for line in dynamic.splitlines():
            if "RPATH" in line or "RUNPATH" in line:
                if str(build) in line or str(source) in line:
                    fail(f"the installed binary's run path names the build tree: {line}")
                print(f"run path: {line.split('[', 1)[-1].rstrip(']')}")
        version = run([str(tool), "--version"])
        m = VERSION_RE.search(version.stdout)
        if version.returncode != 0 or not m or m[1] != args.version:
            fail(f"--version does not report version {args.version} and LLVM 22",
                 version.stdout + version.stderr)
        print(f"--version: cuda-lambda-tidy {m[1]}, LLVM {m[2]}")

        # 3. Lint the example from the prefix, the trees out of reach.
        work = tmp / "work"
        work.mkdir()
        example = work / "quickstart.cu"
        shutil.copy(source / "examples" / "quickstart.cu", example)
        lint = ["--checks=-*,cuda-*", example.name]
        reference = run([str(build / "bin" / "cuda-lambda-tidy"), *lint], cwd=work)
        if "[cuda-" not in reference.stdout:
            fail("the build tree's binary finds nothing in quickstart.cu",
                 reference.stdout + reference.stderr)
        hidden = [str(build), str(source)]
        ok, why = hide_paths.can_hide()
        sarif_cmd = [str(tool), "--format=sarif", *lint]
        if ok:
            installed = hide_paths.run_hidden(hidden, [str(tool), *lint], cwd=work,
                                              stdout=subprocess.PIPE,
                                              stderr=subprocess.PIPE, text=True)
            sarif = hide_paths.run_hidden(hidden, sarif_cmd, cwd=work,
                                          stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, text=True)
            how = f"with {hide_paths.describe(hidden)} hidden (unshare -m)"
        elif shutil.which("strace"):
            trace = tmp / "trace"
            installed = run(["strace", "-f", "-qq", "-e", "trace=%file", "-o", str(trace),
                             str(tool), *lint], cwd=work)
            opened = [l for l in trace.read_text().splitlines()
                      if any(f'"{p}' in l for p in hidden) and "ENOENT" not in l]
            if opened:
                fail("the installed binary opened files of the build or source tree",
                     "\n".join(opened[:20]))
            sarif = run(sarif_cmd, cwd=work)
            how = f"traced: no file under {hide_paths.describe(hidden)} opened ({why})"
        else:
            print(f"SKIPPED PART: cannot hide the trees ({why}) and no strace")
            installed = run([str(tool), *lint], cwd=work)
            sarif = run(sarif_cmd, cwd=work)
            how = "trees not hidden"
        if installed.stdout != reference.stdout or installed.returncode != reference.returncode:
            fail("the installed binary's findings differ from the build tree's",
                 f"--- build tree (exit {reference.returncode}):\n{reference.stdout}"
                 f"--- installed (exit {installed.returncode}):\n{installed.stdout}{installed.stderr}")
        count = len(re.findall(r"\[cuda-", installed.stdout))
        print(f"quickstart.cu linted from the prefix, {how}: {count} findings, as from build/")
        try:
            log = json.loads(sarif.stdout)
            rules = log["runs"][0]["tool"]["driver"]["rules"]
        except (ValueError, KeyError, IndexError):
            fail("--format=sarif from the prefix gave no SARIF log", sarif.stdout + sarif.stderr)
        docs = prefix / "share" / "doc" / "cuda-lambda-tidy" / "docs" / "checks"
        for rule in rules:
            uri = rule.get("helpUri", "")
            if rule["id"].startswith("cuda-"):
                if not uri.startswith(f"file://{docs}/") or \
                        not Path(uri[len("file://"):]).exists():
                    fail(f"rule {rule['id']}'s help is not the installed page: {uri}")
        print(f"SARIF rule help: {docs}/<check>.md")

        # 4. The plugin from the prefix.
        plugin = prefix / "lib" / "cuda-lambda-tidy" / "libCudaLambdaTidy.so"
        clang_tidy = "/usr/lib/llvm-22/bin/clang-tidy"
        if os.access(clang_tidy, os.X_OK):
            listed = run([clang_tidy, "--load", str(plugin), "--checks=-*,cuda-*",
                          "--list-checks"])
            if "cuda-lambda-this-capture" not in listed.stdout:
                fail("the installed plugin does not list the cuda-* checks",
                     listed.stdout + listed.stderr)
            print("the installed plugin lists the cuda-* checks in clang-tidy-22")
    return 0


if __name__ == "__main__":
    sys.exit(main())
