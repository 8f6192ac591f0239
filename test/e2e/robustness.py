#!/usr/bin/env python3
"""cuda-lambda-tidy on hostile and broken input.

Each case runs the tool in a fresh temporary directory and checks:
  - the exit status is the documented one (docs/integration.md, "Exit status");
  - an input error (exit 2) is exactly one line on stderr;
  - no crash: no death by signal, no 'Stack dump' or 'PLEASE submit a bug
    report' on stderr, no time-out;
  - no file in the directory changed, appeared or vanished, except the file a
    successful --fix was meant to change.
Prints 'N passed, N failed' last (skips are listed with their reason).
Python 3 standard library only.
"""

import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

CRASH_MARKERS = ("Stack dump", "PLEASE submit a bug report", "Segmentation fault",
                 "AddressSanitizer", "Assertion")

FIXABLE = """\
void scale_in_place(float *data, int n, float factor) {
  auto scale = [&factor] __device__ (float x) { return x * factor; };
  (void)scale;
}
"""
FIXED_LINE = "auto scale = [factor] __device__ (float x)"

GOOD = """\
template <typename F> __global__ void k(F f) { f(threadIdx.x); }
void launch(int *out) {
  k<<<1, 32>>>([out] __device__ (unsigned i) { out[i] = 2 * i; });
}
"""


def snapshot(directory):
    state = {}
    for base, _, files in os.walk(directory):
        for name in files:
            path = os.path.join(base, name)
            try:
                with open(path, "rb") as f:
                    state[os.path.relpath(path, directory)] = hashlib.sha256(
                        f.read()).hexdigest()
            except OSError:
                state[os.path.relpath(path, directory)] = "unreadable"
    return state


class Skip(Exception):
    pass


class Suite:
    def __init__(self, tool, timeout):
        self.tool = tool
        self.timeout = timeout
        self.passed = 0
        self.failed = 0
        self.skipped = 0

    def case(self, name, setup, args, expect, input_error=False,
             changes=(), check=None):
        """setup(dir) prepares the directory; args(dir) gives the tool's
        arguments; `changes` lists the files allowed (and required) to change."""
        work = tempfile.mkdtemp(prefix="cuda-lambda-tidy-robust-")
        cleanup = []
        try:
            try:
                more = setup(work)
                if callable(more):
                    cleanup.append(more)
            except Skip as why:
                self.skipped += 1
                print("SKIP %s: %s" % (name, why))
                return
            before = snapshot(work)
            cmd = [self.tool] + args(work)
            try:
                proc = subprocess.run(cmd, cwd=work, capture_output=True,
                                      text=True, errors="replace",
                                      timeout=self.timeout)
            except subprocess.TimeoutExpired:
                self.fail(name, "timed out after %ds" % self.timeout, cmd, "")
                return
            problems = []
            if proc.returncode < 0:
                problems.append("killed by signal %d" % -proc.returncode)
            for marker in CRASH_MARKERS:
                if marker in proc.stderr:
                    problems.append("'%s' on stderr" % marker)
            if proc.returncode != expect:
                problems.append("exit %d, expected %d" % (proc.returncode, expect))
            if input_error:
                lines = proc.stderr.strip().splitlines()
                if len(lines) != 1 or not lines[0].startswith(
                        "cuda-lambda-tidy: error: "):
                    problems.append("input error is not one "
                                    "'cuda-lambda-tidy: error: ' line")
            for undo in cleanup:
                undo()
            cleanup = []
            after = snapshot(work)
            changed = sorted(k for k in set(before) | set(after)
                             if before.get(k) != after.get(k))
            if sorted(changes) != changed:
                problems.append("files changed: %s, expected: %s"
                                % (changed or "none", list(changes) or "none"))
            if check and not problems:
                problems.extend(check(work, proc))
            if problems:
                self.fail(name, "; ".join(problems), cmd, proc.stderr)
            else:
                self.passed += 1
                print("PASS %s (exit %d)" % (name, proc.returncode))
        finally:
            for undo in cleanup:
                undo()
            shutil.rmtree(work, ignore_errors=True)

    def fail(self, name, why, cmd, stderr):
        self.failed += 1
        print("FAIL %s: %s" % (name, why))
        print("     command: %s" % " ".join(cmd))
        tail = stderr.strip().splitlines()[-8:]
        for line in tail:
            print("     | %s" % line)


def write(directory, name, text, mode="w"):
    path = os.path.join(directory, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(text)
    return path


def database(directory, entries):
    write(directory, "build/compile_commands.json", json.dumps(entries, indent=1))


def nvcc_entry(directory, source, flags):
    return {"directory": directory, "file": os.path.join(directory, source),
            "arguments": ["/usr/local/cuda/bin/nvcc"] + flags +
                         ["-c", source, "-o", source + ".o"]}


def large_file(lines):
    out = ["// Generated: a long, correct translation unit.",
           "template <typename F> __global__ void apply(int n, float *d, F f) {",
           "  int i = blockIdx.x * blockDim.x + threadIdx.x;",
           "  if (i < n) d[i] = f(d[i]);",
           "}"]
    fn = 0
    while len(out) < lines - 8:
        out += ["__host__ __device__ inline float poly_%d(float x) {" % fn,
                "  float y = x * %d.0f;" % (fn % 97),
                "  y = y * y + 1.0f;",
                "  return y - x;",
                "}"]
        if fn % 50 == 0:
            out += ["void launch_%d(float *d, int n, float s) {" % fn,
                    "  apply<<<(n + 255) / 256, 256>>>(n, d,",
                    "      [s] __device__ (float x) { return poly_%d(x) * s; });" % fn,
                    "}"]
        fn += 1
    while len(out) < lines:
        out.append("")
    return "\n".join(out) + "\n"


def immutable(path):
    """Makes path unwritable even for root; returns an undo, or raises Skip."""
    if os.geteuid() != 0:
        os.chmod(path, 0o444)
        return lambda: os.chmod(path, 0o644)
    chattr = shutil.which("chattr")
    if not chattr:
        raise Skip("running as root and chattr is not installed: "
                   "a read-only file cannot be made")
    proc = subprocess.run([chattr, "+i", path], capture_output=True, text=True)
    if proc.returncode != 0:
        raise Skip("running as root and 'chattr +i' failed (%s)"
                   % proc.stderr.strip())
    state = {"done": False}

    def undo():
        if not state["done"]:
            subprocess.run([chattr, "-i", path], capture_output=True)
            state["done"] = True
    return undo


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tool", required=True)
    p.add_argument("--timeout", type=int, default=600)
    args = p.parse_args()
    tool = os.path.abspath(args.tool)
    s = Suite(tool, args.timeout)
    checks = "--checks=-*,cuda-*"

    s.case("missing file", lambda d: None,
           lambda d: [checks, os.path.join(d, "nope.cu")], 2, input_error=True)

    s.case("directory", lambda d: os.makedirs(os.path.join(d, "src.cu")),
           lambda d: [checks, os.path.join(d, "src.cu")], 2, input_error=True)

    s.case("empty .cu", lambda d: write(d, "empty.cu", ""),
           lambda d: [checks, "empty.cu"], 0)

    def random_bytes(d):
        rng = random.Random(7)
        write(d, "noise.cu", bytes(rng.randrange(256) for _ in range(64 * 1024)),
              "wb")
    # Random bytes do not compile: clang-tidy's compiler error, exit 1.
    s.case("random bytes in a .cu", random_bytes,
           lambda d: [checks, "noise.cu"], 1)

    s.case("non-CUDA C++ file",
           lambda d: write(d, "plain.cpp",
                           "#include <vector>\nint sum(const std::vector<int> &v)"
                           " {\n  int s = 0;\n  for (int x : v) s += x;\n"
                           "  return s;\n}\n"),
           lambda d: [checks, "plain.cpp"], 0)

    s.case(".cu with syntax errors",
           lambda d: write(d, "broken.cu",
                           "__global__ void k(int *p {\n  p[0] = ;\n}\n"
                           "void f() { auto l = [=] __device__ ( { }; }\n"),
           lambda d: [checks, "broken.cu"], 1)

    s.case(".cu with a missing include",
           lambda d: write(d, "inc.cu", "#include \"no/such/header.cuh\"\n" + GOOD),
           lambda d: [checks, "inc.cu"], 1)

    # nvcc accepts '#pragma' in a macro body, clang does not: one
    # [nvcc-only-syntax] warning for the macro (not an error per expansion),
    # the findings still printed, exit 3; a real error besides it: exit 1.
    pragma_macro = ("#define UNROLL #pragma unroll\n"
                    "__global__ void k(int *out) {\n  int s = 0;\n"
                    "  UNROLL\n  for (int i = 0; i < 4; ++i) s += i;\n"
                    "  UNROLL\n  for (int i = 0; i < 4; ++i) s += i;\n"
                    "  *out = s;\n}\n" + FIXABLE)

    def folded_once(d, proc):
        problems = []
        if proc.stdout.count("[nvcc-only-syntax]") != 1:
            problems.append("not one [nvcc-only-syntax] line")
        if "unroll.cu:1:16: warning: clang cannot parse macro 'UNROLL'" not in proc.stdout:
            problems.append("the warning is not at the macro's '#pragma'")
        if "error: expected expression" in proc.stdout:
            problems.append("clang's errors on the macro were printed")
        if "[cuda-lambda-reference-capture]" not in proc.stdout:
            problems.append("the finding in the same file is missing")
        return problems

    s.case("'#pragma' in a macro body (nvcc-only syntax)",
           lambda d: write(d, "unroll.cu", pragma_macro),
           lambda d: [checks, "unroll.cu"], 3, check=folded_once)
    s.case("'#pragma' in a macro body and a real error",
           lambda d: write(d, "unroll.cu", pragma_macro + "int broken = ;\n"),
           lambda d: [checks, "unroll.cu"], 1)

    s.case("generated 50,000-line .cu",
           lambda d: write(d, "large.cu", large_file(50000)),
           lambda d: [checks, "large.cu"], 0)

    def unreadable(d):
        path = write(d, "secret.cu", GOOD)
        os.chmod(path, 0)
        try:
            open(path, "rb").close()
        except OSError:
            return lambda: os.chmod(path, 0o644)
        os.chmod(path, 0o644)
        raise Skip("running as root: chmod 000 does not prevent reading")
    s.case("unreadable file (chmod 000)", unreadable,
           lambda d: [checks, "secret.cu"], 2, input_error=True)

    def db_setup(text):
        def setup(d):
            write(d, "a.cu", GOOD)
            write(d, "build/compile_commands.json", text)
        return setup
    s.case("empty compile_commands.json (0 bytes)", db_setup(""),
           lambda d: [checks, "-p", os.path.join(d, "build")], 2, input_error=True)
    s.case("empty compile_commands.json ([])", db_setup("[]\n"),
           lambda d: [checks, "-p", os.path.join(d, "build")], 2, input_error=True)
    s.case("malformed compile_commands.json",
           db_setup('[{"directory": "/tmp", "file": "a.cu", "arguments": [\n'),
           lambda d: [checks, "-p", os.path.join(d, "build")], 2, input_error=True)
    s.case("compile_commands.json entry without a command",
           db_setup('[{"directory": "/tmp", "file": "a.cu"}]\n'),
           lambda d: [checks, "-p", os.path.join(d, "build")], 2, input_error=True)

    def unknown_flags(d):
        write(d, "a.cu", GOOD)
        database(d, [nvcc_entry(d, "a.cu", [
            "-std=c++17", "--extended-lambda", "-arch=sm_80",
            "--no-such-nvcc-flag", "-Xno-such", "--frobnicate=3",
            "-Xcompiler=-fno-such-host-flag,-O2", "-gencode",
            "arch=compute_99x,code=bogus"])])
    # Unknown flags are dropped (with one warning where clang does not know a
    # host flag); the file is linted.
    def warned(d, proc):
        return ([] if "cuda-lambda-tidy: warning" in proc.stderr
                else ["no warning about the dropped flags"])
    s.case("database entry with unknown nvcc flags", unknown_flags,
           lambda d: [checks, "-p", os.path.join(d, "build"), "a.cu"], 0,
           check=warned)

    def fixed(d, proc):
        text = open(os.path.join(d, "fix.cu")).read()
        return [] if FIXED_LINE in text else ["--fix did not apply the fix"]
    s.case("--fix on a writable file",
           lambda d: write(d, "fix.cu", FIXABLE),
           lambda d: [checks, "--fix", "fix.cu"], 0, changes=["fix.cu"],
           check=fixed)

    # clang-tidy reports a fix it cannot write on stderr but keeps its exit
    # status (0 here: the finding is a warning); docs/integration.md says so.
    def not_applied(d, proc):
        return ([] if "failed to apply suggested fixes" in proc.stderr
                else ["no 'failed to apply suggested fixes' on stderr"])
    s.case("--fix on a read-only file",
           lambda d: immutable(write(d, "fix.cu", FIXABLE)),
           lambda d: [checks, "--fix", "fix.cu"], 0, check=not_applied)

    print("%d passed, %d failed%s" % (
        s.passed, s.failed, ", %d skipped" % s.skipped if s.skipped else ""))
    return 1 if s.failed else 0


if __name__ == "__main__":
    sys.exit(main())
