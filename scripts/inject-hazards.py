#!/usr/bin/env python3
"""Measures recall on real code by injecting hazards (issue 29).

  inject-hazards.py --tidy BIN [--projects FILE] [--root DIR] [--only P,Q]
                    [--files N] [--files-for NAME=N]... [--seed S]
                    [--kinds K,K] [--no-nvcc] [--nvcc-files N]
                    [--nvcc-cache FILE] [-j N] [--timeout S] [--out DIR]
  inject-hazards.py --tidy BIN --corpus DIR [--seed S] [--no-nvcc]
                    [--expect FILE] [--out DIR]
  inject-hazards.py --merge OUT1,OUT2 --out DIR   (one report of two runs)

For each project of FILE (default scripts/real-code-projects.json, checked
out and configured under ROOT, default /work/realcode, by
scripts/real-code-setup.sh) it picks --files N (default 2) files of its
compile database that launch device code in the project's own idiom (the
file's text matches the idiom's regex below; entries whose compiler is nvcc
or an nvcc wrapper and whose command has --extended-lambda (the mutants are
extended lambdas), thrust's CPP-device configurations left out), the same
files for the same seed: the N smallest sha1(seed + ":" + path relative to
the project). For each file and each hazard kind expressible in the idiom it
writes one mutant: the file with, appended at its end (after the file's own
includes and code), a few includes and one small function written in the
project's idiom that contains exactly one hazard (KINDS below). The lines
where the hazard is (one, two for H06) are recorded.

Each mutant is written next to the original (same directory, name
<stem>.clt-inject-<kind><ext>, so quoted includes resolve the same) and
linted through a one-entry copy of the project's database entry with the
file substituted (TMP/db/compile_commands.json): the project's own flags,
nothing in the project's build touched; `BIN --checks=-*,cuda-* -p TMP/db
MUTANT` (both passes, the default; no results cache). The unmodified file is
linted once, through its real database, for the baseline. Mutants are always
deleted, on Ctrl-C too.

Recorded per mutant:
  reported   a finding of the kind's check inside the injected block;
  at line    one at a marked line (counts as caught: recall = at line /
             injected);
  other      cuda-* findings of other checks inside the block;
  new        findings (any check, clang errors included) outside the block
             that the baseline does not have (target: none);
  nvcc       unless --no-nvcc: nvcc's verdict with the project's own command
             (source substituted, object to a temporary directory,
             dependency-file flags dropped); expected: run-time hazards
             compile, compile-time ones are rejected. Cached in --nvcc-cache
             (default <out>/nvcc-cache.json) by sha256 of the mutant's text
             and the command. --nvcc-files N: only the first N files of each
             project get nvcc (default: all).
A lint that crashed or timed out is "lint failed" and counts as a miss,
never as a pass.

--corpus DIR: the self-contained CI sample (test/data/inject): DIR is copied
to a temporary directory, DIR/compile_commands.json.in (@DIR@ = the copy) is
written to <copy>/build/compile_commands.json, DIR/corpus.json names each
file's idiom; every file is used. --expect FILE (default DIR/expected.json
in corpus mode) compares the (file, kind) pairs caught with the
expectation's "caught" and "missed" lists: exit 1 when an expected catch is
missed (a regression), when a listed miss is now caught (update the
expectation), when a mutant is in neither list, or when a lint failed (a
skip is never a pass). --kinds K,K (ids or rules, e.g. H33) limits the kinds.
--checks GLOBS (default -*,cuda-*) is the lint's --checks; the self-test
turns a check off with it to have a miss to detect.

Output (--out, default inject-out/): results.json (every mutant), results.md
(the tables for docs/real-code.md: per framework, framework x kind, the
misses per kind).
"""
import argparse
import concurrent.futures
import datetime
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHECKS = "-*,cuda-*"
NVCC_NAMES = re.compile(r"^(nvcc|nvcc_wrapper|.*-nvcc)$")
LAUNCHERS = {"ccache", "sccache", "env", "distcc", "icecc"}
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "test" / "lib"))
from diagnostics import DIAGNOSTIC as DIAG_RE  # noqa: E402

# --------------------------------------------------------------------------
# Idioms: how a project launches device code. Each gives the includes the
# injected function needs, the set-up of a device output `out` of n floats,
# how an element is written, the lambda introducers (by value, by reference,
# generic host-device), the annotation of a functor's operator(), the launch
# statement ({body}: a lambda or a functor), the extra parameters of the
# injected function, and the regex a file that launches in this idiom
# matches. "hd": the idiom's lambdas are __host__ __device__.

CUDA_SETUP = "float *out = nullptr; cudaMalloc(&out, n * sizeof(float));"
THRUST_INCLUDES = ["#include <thrust/execution_policy.h>",
                   "#include <thrust/for_each.h>",
                   "#include <thrust/iterator/counting_iterator.h>"]
THRUST_LAUNCH = ("thrust::for_each(thrust::device, thrust::counting_iterator<int>(0), "
                 "thrust::counting_iterator<int>(n), {body});")

IDIOMS = {
    "kokkos": dict(
        includes=["#include <Kokkos_Core.hpp>"],
        setup='Kokkos::View<float *> out("clt_inject_out", n);',
        ptr="out.data()", write="out(i) = {};",
        lam="KOKKOS_LAMBDA", lam_ref="[&] __host__ __device__",
        lam_generic="KOKKOS_LAMBDA", attr="KOKKOS_INLINE_FUNCTION",
        launch='Kokkos::parallel_for("clt_inject", n, {body});',
        params="", hd=True,
        regex=[r"parallel_for\s*\(", r"KOKKOS_LAMBDA"]),
    "raja": dict(
        includes=["#include <RAJA/RAJA.hpp>"],
        setup=CUDA_SETUP, ptr="out", write="out[i] = {};",
        lam="[=] RAJA_DEVICE", lam_ref="[&] RAJA_DEVICE",
        lam_generic="[=] RAJA_HOST_DEVICE", attr="RAJA_HOST_DEVICE",
        launch="RAJA::forall<RAJA::cuda_exec<256>>(RAJA::RangeSegment(0, n), {body});",
        params="", hd=False,
        regex=[r"\bforall\s*<", r"RAJA_(HOST_)?DEVICE"]),
    "thrust": dict(
        includes=THRUST_INCLUDES,
        setup=CUDA_SETUP, ptr="out", write="out[i] = {};",
        lam="[=] __device__", lam_ref="[&] __device__",
        lam_generic="[=] __host__ __device__", attr="__host__ __device__",
        launch=THRUST_LAUNCH, params="", hd=False,
        regex=[r"thrust::device\b|__device__"]),
    "gunrock": dict(
        includes=THRUST_INCLUDES,
        setup=CUDA_SETUP, ptr="out", write="out[i] = {};",
        lam="[=] __host__ __device__", lam_ref="[&] __host__ __device__",
        lam_generic="[=] __host__ __device__", attr="__host__ __device__",
        launch=THRUST_LAUNCH, params="", hd=True,
        regex=[r"gunrock::|\[[=&]\]\s*(__host__\s*)?__device__"]),
    "moderngpu": dict(
        includes=["#include <moderngpu/transform.hxx>",
                  "#include <moderngpu/memory.hxx>"],
        setup="mgpu::mem_t<float> out_buf(n, context); float *out = out_buf.data();",
        ptr="out", write="out[i] = {};",
        lam="[=] MGPU_DEVICE", lam_ref="[&] MGPU_DEVICE",
        lam_generic="[=] __host__ __device__", attr="__host__ __device__",
        launch="mgpu::transform({body}, n, context);",
        params=", mgpu::context_t &context", hd=False,
        regex=[r"MGPU_(LAMBDA|DEVICE)", r"\b(transform|cta_launch|cta_transform)\b"]),
    # AMReX: amrex::ParallelFor(n, [=] AMREX_GPU_DEVICE (int i) noexcept
    # {...}) (AMREX_GPU_DEVICE = __device__), device memory from its arena.
    "amrex": dict(
        includes=["#include <AMReX_Gpu.H>", "#include <AMReX_GpuContainers.H>"],
        setup="amrex::Gpu::DeviceVector<float> out_buf(n); float *out = out_buf.data();",
        ptr="out", write="out[i] = {};",
        lam="[=] AMREX_GPU_DEVICE", lam_ref="[&] AMREX_GPU_DEVICE",
        lam_generic="[=] AMREX_GPU_HOST_DEVICE", attr="AMREX_GPU_HOST_DEVICE",
        launch="amrex::ParallelFor(n, {body});", params="", hd=False,
        regex=[r"\bParallelFor\s*\(", r"AMREX_GPU_(HOST_)?DEVICE"]),
    # Ginkgo's generic kernels (common/unified): run_kernel(exec, [] GKO_KERNEL
    # (auto i, ...) {...}, size, args...) (GKO_KERNEL = __device__) launches
    # generic_kernel_1d<<<...>>>(size, fn, map_to_device(args)...); the data
    # is captured, or (H33-launcher-argument, launch_args) passed as
    # run_kernel's arguments, which it takes as `KernelArgs &&...args`.
    "ginkgo": dict(
        includes=['#include "common/unified/base/kernel_launch.hpp"'],
        setup="gko::array<float> out_arr(exec, n); float *out = out_arr.get_data();",
        ptr="out", write="out[i] = {};",
        lam="[=] GKO_KERNEL", lam_ref="[&] GKO_KERNEL",
        lam_generic="[=] GKO_ATTRIBUTES", attr="GKO_ATTRIBUTES",
        launch="gko::kernels::GKO_DEVICE_NAMESPACE::run_kernel(exec, {body}, "
               "static_cast<gko::size_type>(n));",
        launch_args="gko::kernels::GKO_DEVICE_NAMESPACE::run_kernel(exec, "
                    "[] GKO_KERNEL(auto i, auto o, auto s) { o[i] = s[i]; }, "
                    "static_cast<gko::size_type>(n), {args});",
        params=", std::shared_ptr<const gko::CudaExecutor> exec", hd=False,
        regex=[r"\brun_kernel\w*\s*\(", r"\bGKO_KERNEL\b"]),
    # The CI corpus's stand-ins (test/data/inject/include).
    "mini-kokkos": dict(
        includes=['#include "mini_kokkos.hpp"'],
        setup='mk::View<float> out("clt_inject_out", n);',
        ptr="out.data()", write="out(i) = {};",
        lam="MK_LAMBDA", lam_ref="[&] __host__ __device__",
        lam_generic="MK_LAMBDA", attr="MK_INLINE_FUNCTION",
        launch='mk::parallel_for("clt_inject", n, {body});',
        params="", hd=True, regex=[r"parallel_for"]),
    "mini-raja": dict(
        includes=['#include "mini_raja.hpp"'],
        setup=CUDA_SETUP, ptr="out", write="out[i] = {};",
        lam="[=] MR_DEVICE", lam_ref="[&] MR_DEVICE",
        lam_generic="[=] MR_HOST_DEVICE", attr="MR_HOST_DEVICE",
        launch="mr::forall<mr::cuda_exec<256>>(mr::RangeSegment(0, n), {body});",
        params="", hd=False, regex=[r"forall"]),
    "mini-forall": dict(
        includes=['#include "portable_for.hpp"'],
        setup="float *out = pf::device_alloc<float>(n);", ptr="out",
        write="out[i] = {};",
        lam="PF_LAMBDA", lam_ref="[&] PF_HOST_DEVICE",
        lam_generic="PF_LAMBDA", attr="PF_HOST_DEVICE",
        launch="pf::forall(n, {body});", params="", hd=True,
        regex=[r"forall"]),
}

# --------------------------------------------------------------------------
# Hazard kinds: (id, rule, owning check, nvcc verdict expected: "compiles"
# for run-time hazards, "rejected" for compile-time ones; a callable when it
# depends on the idiom). The code generators below return the lines of the
# injected block; "@MARK@" at the end of a line marks where the hazard is.

KINDS = [
    ("H01-ref-capture", "H01", "cuda-lambda-reference-capture", "rejected"),
    ("H02-this-capture", "H02", "cuda-lambda-this-capture", "compiles"),
    ("H33-vector-data", "H33", "cuda-host-pointer-in-device-code", "compiles"),
    ("H33-new-array", "H33", "cuda-host-pointer-in-device-code", "compiles"),
    ("H33-address-of-local", "H33", "cuda-host-pointer-in-device-code", "compiles"),
    ("H33-helper-new", "H33", "cuda-host-pointer-in-device-code", "compiles"),
    # A functor whose pointer member holds a std::vector's data().
    ("H33-functor-member", "H33", "cuda-host-pointer-in-device-code", "compiles"),
    # A host pointer handed to a launcher that takes the kernel's arguments
    # (idioms with launch_args only: Ginkgo's run_kernel(exec, fn, n,
    # args...), which forwards them as references to its kernel).
    ("H33-launcher-argument", "H33", "cuda-host-pointer-in-device-code", "compiles"),
    ("H16-host-global", "H16", "cuda-host-variable-in-device-code", "rejected"),
    # A std::function called in a __device__ lambda is an error; in a
    # __host__ __device__ one nvcc only warns (#20011-D/#20014-D) and the
    # device side is undefined behaviour (HAZARDS.md H17).
    ("H17-std-function", "H17", "cuda-std-function-in-device-code",
     lambda idiom: "compiles" if idiom["hd"] else "rejected"),
    ("H34-reference-member", "H34", "cuda-kernel-param-reference-member", "compiles"),
    ("H31-owning-by-value", "H31", "cuda-kernel-param-nontrivial-copy", "compiles"),
    ("H32-polymorphic", "H32", "cuda-kernel-param-virtual", "compiles"),
    # A functor whose pointer member holds a polymorphic object made with new
    # on the host; its operator() makes the virtual call.
    ("H32-pointer-member", "H32", "cuda-kernel-param-virtual", "compiles"),
    ("H07-deduced-return", "H07", "cuda-lambda-in-deduced-return-function", "rejected"),
    ("H10-generic-host-device", "H10", "cuda-lambda-generic-host-device", "rejected"),
    # (a) of H06: the number of extended lambdas differs between the passes;
    # nvcc 13 accepts it silently.
    ("H06-arch-macro", "H06", "cuda-lambda-arch-dependent", "compiles"),
]
KIND_BY_ID = {k[0]: k for k in KINDS}


def launch(idiom, body):
    return idiom["launch"].replace("{body}", body)


def kind_applies(kind, idiom):
    """Whether the idiom can express the kind (a launcher's arguments)."""
    return kind != "H33-launcher-argument" or "launch_args" in idiom


def write(idiom, value):
    return idiom["write"].replace("{}", value)


def lam(idiom, intro, body, param="int i"):
    return f"{intro}({param}) {{ {body} }}"


def gen(kind, idiom, name):
    """The injected block of one hazard kind, in the idiom (lines)."""
    I = idiom
    sig = f"void {name}(int n{I['params']})"
    setup = "  " + I["setup"]
    L = lambda body, intro=None, param="int i": lam(I, intro or I["lam"], body, param)
    if kind == "H01-ref-capture":
        return [sig + " {", setup, "  float scale = 2.0f;",
                "  " + launch(I, L(write(I, "scale"), I["lam_ref"])) + " @MARK@", "}"]
    if kind == "H02-this-capture":
        return [f"struct {name}_t {{", "  float scale = 2.0f;",
                f"  void run(int n{I['params']}) {{", "  " + setup,
                "    " + launch(I, L(write(I, "scale"))) + " @MARK@", "  }", "};"]
    if kind == "H33-vector-data":
        return ["#include <vector>", sig + " {", setup,
                "  std::vector<float> host(n, 1.0f);", "  float *p = host.data();",
                "  " + launch(I, L(write(I, "p[i]"))) + " @MARK@", "}"]
    if kind == "H33-new-array":
        return [sig + " {", setup, "  float *p = new float[n];",
                "  " + launch(I, L(write(I, "p[i]"))) + " @MARK@",
                "  delete[] p;", "}"]
    if kind == "H33-address-of-local":
        return [sig + " {", setup, "  float acc = 1.0f;", "  float *p = &acc;",
                "  " + launch(I, L(write(I, "p[0]"))) + " @MARK@", "}"]
    if kind == "H33-helper-new":
        return [f"static float *{name}_alloc(int n) {{ return new float[n]; }}",
                sig + " {", setup, f"  float *p = {name}_alloc(n);",
                "  " + launch(I, L(write(I, "p[i]"))) + " @MARK@", "}"]
    if kind == "H33-functor-member":
        return ["#include <vector>", f"struct {name}_op {{", "  const float *weights;",
                "  float *out;",
                f"  {I['attr']} void operator()(int i) const {{ out[i] = weights[i]; }}",
                "};", sig + " {", setup, "  std::vector<float> host(n, 1.0f);",
                "  " + launch(I, f"{name}_op{{host.data(), {I['ptr']}}}") + " @MARK@", "}"]
    if kind == "H16-host-global":
        return [f"float {name}_scale = 2.0f;", sig + " {", setup,
                "  " + launch(I, L(write(I, f"{name}_scale"))) + " @MARK@", "}"]
    if kind == "H17-std-function":
        return ["#include <functional>", sig + " {", setup,
                "  std::function<float(float)> f = [](float x) { return 2.0f * x; };",
                "  " + launch(I, L(write(I, "f(1.0f)"))) + " @MARK@", "}"]
    if kind == "H34-reference-member":
        return [f"struct {name}_op {{", "  const float &scale;", "  float *out;",
                f"  {I['attr']} void operator()(int i) const {{ out[i] = scale; }}",
                "};", sig + " {", setup, "  float scale = 2.0f;",
                "  " + launch(I, f"{name}_op{{scale, {I['ptr']}}}") + " @MARK@", "}"]
    if kind == "H31-owning-by-value":
        return [f"struct {name}_buffer {{", "  float *p = nullptr;",
                f"  explicit {name}_buffer(int n) {{ cudaMalloc(&p, n * sizeof(float)); }}",
                f"  ~{name}_buffer() {{ cudaFree(p); }}", "};",
                sig + " {", f"  {name}_buffer buf(n);",
                "  " + launch(I, L("buf.p[i] = 1.0f;")) + " @MARK@", "}"]
    if kind == "H32-polymorphic":
        return [f"struct {name}_base {{",
                f"  {I['attr']} virtual float get() const {{ return 1.0f; }}", "};",
                f"struct {name}_derived : {name}_base {{",
                f"  {I['attr']} float get() const override {{ return 2.0f; }}", "};",
                sig + " {", setup, f"  {name}_derived d;",
                "  " + launch(I, L(write(I, "d.get()"))) + " @MARK@", "}"]
    if kind == "H32-pointer-member":
        return [f"struct {name}_base {{",
                f"  {I['attr']} virtual float get() const {{ return 1.0f; }}", "};",
                f"struct {name}_derived : {name}_base {{",
                f"  {I['attr']} float get() const override {{ return 2.0f; }}", "};",
                f"struct {name}_op {{", f"  const {name}_base *source;", "  float *out;",
                f"  {I['attr']} void operator()(int i) const {{ out[i] = source->get(); }}",
                "};", sig + " {", setup, f"  {name}_base *source = new {name}_derived;",
                "  " + launch(I, f"{name}_op{{source, {I['ptr']}}}") + " @MARK@", "}"]
    if kind == "H07-deduced-return":
        return [f"auto {name}(int n{I['params']}) {{", setup,
                "  " + launch(I, L(write(I, "1.0f"))) + " @MARK@", "  return n;", "}"]
    if kind == "H10-generic-host-device":
        return [sig + " {", setup,
                "  " + launch(I, L(write(I, "1.0f"), I["lam_generic"], "auto i")) + " @MARK@",
                "}"]
    if kind == "H06-arch-macro":
        macro = name.upper() + "_ON_DEVICE"
        return ["#if defined(__CUDA_ARCH__)", f"#define {macro} 1", "#else",
                f"#define {macro} 0", "#endif", sig + " {", setup,
                f"#if {macro}",
                "  " + launch(I, L(write(I, "2.0f"))) + " @MARK@", "#endif",
                "  " + launch(I, L(write(I, "1.0f"))) + " @MARK@", "}"]
    if kind == "H33-launcher-argument":
        return [sig + " {", setup, "  float *p = new float[n];",
                "  " + I["launch_args"].replace("{args}", f"{I['ptr']}, p") + " @MARK@",
                "  delete[] p;", "}"]
    raise ValueError(kind)


def make_mutant(original_text, kind, idiom):
    """(mutant text, first line of the injected block, marked lines)."""
    name = "clt_inject_" + re.sub(r"\W", "_", kind.lower())
    text = original_text if original_text.endswith("\n") else original_text + "\n"
    start = text.count("\n") + 1
    block = [f"// ---- injected by scripts/inject-hazards.py: {kind} ({KIND_BY_ID[kind][2]})"]
    block += idiom["includes"]
    block += gen(kind, idiom, name)
    marks = []
    for k, line in enumerate(block):
        if line.endswith(" @MARK@"):
            block[k] = line[:-len(" @MARK@")]
            marks.append(start + k)
    return text + "\n".join(block) + "\n", start, marks


def expected_nvcc(kind, idiom):
    e = KIND_BY_ID[kind][3]
    return e(idiom) if callable(e) else e

# --------------------------------------------------------------------------
# Compile databases


def entry_args(entry):
    if "arguments" in entry:
        return list(entry["arguments"])
    return shlex.split(entry["command"])


def compiler_of(args):
    i = 0
    while i < len(args) and os.path.basename(args[i]) in LAUNCHERS:
        i += 1
        while args[i:] and "=" in args[i] and not args[i].startswith("-"):
            i += 1
    return os.path.basename(args[i]) if i < len(args) else ""


def abs_file(entry):
    f = entry["file"]
    if not os.path.isabs(f):
        f = os.path.join(entry["directory"], f)
    return os.path.normpath(f)


def substitute(entry, new_file):
    """The entry's arguments with its source file replaced by new_file."""
    args = entry_args(entry)
    orig = abs_file(entry)
    out, hit = [], False
    for a in args:
        p = a if os.path.isabs(a) else os.path.join(entry["directory"], a)
        if not a.startswith("-") and os.path.normpath(p) == orig:
            out.append(new_file)
            hit = True
        else:
            out.append(a)
    if not hit:
        out.append(new_file)
    return out


# --------------------------------------------------------------------------
# Processes: every child in its own group, killed on Ctrl-C; mutants deleted.

_live = set()
_live_lock = threading.Lock()
_stopping = threading.Event()  # set on Ctrl-C: no new child is started
_mutants = set()


def run_proc(cmd, cwd=None, env=None, timeout=600):
    t0 = time.monotonic()
    with _live_lock:
        if _stopping.is_set():
            raise KeyboardInterrupt
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True)
        _live.add(proc)
    try:
        out, _ = proc.communicate(timeout=timeout)
        rc, timed_out = proc.returncode, False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        rc, timed_out = None, True
    finally:
        with _live_lock:
            _live.discard(proc)
    return rc, timed_out, out.decode(errors="replace"), round(time.monotonic() - t0, 1)


def kill_children():
    _stopping.set()
    with _live_lock:
        procs = list(_live)
    for p in procs:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def remove_mutants():
    for m in list(_mutants):
        try:
            os.unlink(m)
        except FileNotFoundError:
            pass
        _mutants.discard(m)


def on_signal(signum, frame):
    raise KeyboardInterrupt


# --------------------------------------------------------------------------
# Lint and nvcc


def lint(tidy, db_dir, file, extra, timeout):
    cmd = ["nice", "-n", "10", tidy, f"--checks={CHECKS}", "-p", str(db_dir)] + extra + [file]
    env = dict(os.environ, CUDA_LAMBDA_TIDY_NO_CACHE="1")
    rc, timed_out, out, wall = run_proc(cmd, env=env, timeout=timeout)
    diags = []
    for line in out.splitlines():
        m = DIAG_RE.match(line)
        if m and m["sev"] in ("warning", "error"):
            diags.append(dict(path=os.path.normpath(m["file"]), line=int(m["line"]),
                              col=int(m["col"]), sev=m["sev"],
                              # "[check,-warnings-as-errors]" under -Werror
                              check=(m["check"] or "").split(",")[0], msg=m["msg"]))
    failed = timed_out or rc is None or rc < 0 or rc not in (0, 1, 3)
    return dict(rc=rc, timed_out=timed_out, wall_s=wall, failed=failed,
                diags=diags, output=out[-4000:] if failed else "")


def diag_key(d, mutant, original):
    path = original if d["path"] == mutant else d["path"]
    return (path, d["line"], d["col"], d["check"], d["msg"])


NVCC_DROP_WITH_VALUE = {"-MF", "-MT", "-MQ", "-o"}
NVCC_DROP = {"-MD", "-MMD", "-M", "-MM"}


def nvcc_command(entry, mutant, objdir):
    args = substitute(entry, mutant)
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in NVCC_DROP_WITH_VALUE:
            skip = True
            continue
        if a in NVCC_DROP or a.startswith("-MF") or a.startswith("-o") and len(a) > 2 \
                and not a.startswith("-opt"):
            continue
        out.append(a)
    return out + ["-o", os.path.join(objdir, "mutant.o")]


class NvccCache:
    def __init__(self, path):
        self.path = Path(path)
        self.lock = threading.Lock()
        self.data = json.loads(self.path.read_text()) if self.path.exists() else {}

    def key(self, text, cmd):
        h = hashlib.sha256(text.encode())
        h.update(b"\0" + json.dumps(cmd).encode())
        return h.hexdigest()

    def get(self, k):
        with self.lock:
            return self.data.get(k)

    def put(self, k, v):
        with self.lock:
            self.data[k] = v
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.data, indent=1, sort_keys=True))
            tmp.replace(self.path)


def run_nvcc(entry, mutant, text, cache, timeout, nvcc_dir):
    objdir = tempfile.mkdtemp(prefix="inject-nvcc-")
    try:
        cmd = nvcc_command(entry, mutant, objdir)
        # The key names the object directory generically.
        key = cache.key(text, [c.replace(objdir, "OBJ") for c in cmd])
        hit = cache.get(key)
        if hit:
            return dict(hit, cached=True)
        env = dict(os.environ, PATH=nvcc_dir + ":" + os.environ.get("PATH", ""))
        rc, timed_out, out, wall = run_proc(["nice", "-n", "10"] + cmd,
                                            cwd=entry["directory"], env=env,
                                            timeout=timeout)
        errs = [l.strip() for l in out.splitlines() if re.search(r"\berror\b", l)]
        # Killed (timeout, Ctrl-C) or crashed: no verdict, and nothing cached.
        verdict = (None if timed_out or rc is None or rc < 0
                   else "compiles" if rc == 0 else "rejected")
        res = dict(verdict=verdict, rc=rc, wall_s=wall, first_error=(errs[0][:300] if errs else ""))
        if verdict is not None:
            cache.put(key, res)
        return dict(res, cached=False)
    finally:
        shutil.rmtree(objdir, ignore_errors=True)


# --------------------------------------------------------------------------
# Projects and files


def load_projects(path, root, only):
    data = json.loads(Path(path).read_text())
    out = []
    for p in data["projects"]:
        if p.get("variant") or p["name"] not in IDIOMS:
            continue
        if only and p["name"] not in only:
            continue
        p = dict(p)
        p["src"] = str(Path(root) / p.get("src", p["name"] + "/src"))
        p["build"] = str(Path(root) / p.get("build", p["name"] + "/build"))
        out.append(p)
    return out


def candidates(project):
    """Database entries that compile CUDA with nvcc and whose file launches
    device code in the project's idiom: [(file, entry)], each file once."""
    db = Path(project["build"]) / "compile_commands.json"
    excludes = [re.compile(x) for x in project.get("exclude", [])]
    regexes = [re.compile(r) for r in IDIOMS[project["name"]]["regex"]]
    seen, out = set(), []
    for e in json.loads(db.read_text()):
        f = abs_file(e)
        args = entry_args(e)
        if f in seen or not NVCC_NAMES.match(compiler_of(args)):
            continue
        if any(x.search(f) for x in excludes):
            continue
        if any("THRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CPP" in a for a in args):
            continue
        # The mutants are extended lambdas: without the flag nvcc rejects
        # every one of them (H20), whatever the hazard.
        if not any(re.search(r"^-?-(expt-)?extended-lambda$", a) or
                   re.search(r"(^|,)-?-(expt-)?extended-lambda(,|$)", a) for a in args):
            continue
        seen.add(f)
        try:
            text = Path(f).read_text(errors="replace")
        except OSError:
            continue
        if all(r.search(text) for r in regexes):
            out.append((f, e))
    return out


def rel(project, f):
    return f[len(project["src"]) + 1:] if f.startswith(project["src"] + "/") else f


def pick(project, cands, n, seed):
    key = lambda c: hashlib.sha1(f"{seed}:{rel(project, c[0])}".encode()).hexdigest()
    cands = sorted(cands, key=key)
    return cands[:n] if n else cands


# --------------------------------------------------------------------------
# One file: baseline, then each mutant


def mutant_path(f, kind):
    p = Path(f)
    return str(p.with_name(f"{p.stem}.clt-inject-{kind}{p.suffix}"))


def do_mutant(args, project, f, entry, kind, baseline, tmproot, cache, with_nvcc):
    idiom = IDIOMS[project["idiom"]]
    text, start, marks = make_mutant(Path(f).read_text(errors="replace"), kind, idiom)
    mpath = mutant_path(f, kind)
    dbdir = Path(tempfile.mkdtemp(prefix="db-", dir=tmproot))
    e = dict(directory=entry["directory"], file=mpath, arguments=substitute(entry, mpath))
    if "output" in entry:
        e["output"] = entry["output"]
    (dbdir / "compile_commands.json").write_text(json.dumps([e], indent=1))
    _mutants.add(mpath)
    try:
        Path(mpath).write_text(text)
        r = lint(args.tidy, dbdir, mpath, project.get("tidy_args", []), args.timeout)
        nv = None
        if with_nvcc:
            nv = run_nvcc(entry, mpath, text, cache, args.nvcc_timeout, args.nvcc_dir)
    finally:
        try:
            os.unlink(mpath)
        except FileNotFoundError:
            pass
        _mutants.discard(mpath)
        shutil.rmtree(dbdir, ignore_errors=True)
    check = KIND_BY_ID[kind][2]
    base = {diag_key(d, f, f) for d in baseline["diags"]}
    in_block = [d for d in r["diags"] if d["path"] == mpath and d["line"] >= start]
    outside = [d for d in r["diags"] if not (d["path"] == mpath and d["line"] >= start)]
    right = [d for d in in_block if d["check"] == check]
    rec = dict(
        project=project["name"], idiom=project["idiom"], file=rel(project, f),
        kind=kind, rule=KIND_BY_ID[kind][1], check=check,
        block_start=start, marked_lines=marks,
        lint_failed=r["failed"], lint_rc=r["rc"], lint_wall_s=r["wall_s"],
        reported=bool(right) and not r["failed"],
        at_line=any(d["line"] in marks for d in right) and not r["failed"],
        right_check_lines=sorted({d["line"] for d in right}),
        other_in_block=sorted({f'{d["line"]}: {d["check"] or d["sev"]}: {d["msg"][:160]}'
                               for d in in_block if d["check"] != check}),
        new_elsewhere=sorted({f'{diag_key(d, mpath, f)[0]}:{d["line"]}: {d["check"] or d["sev"]}: {d["msg"][:160]}'
                              for d in outside if diag_key(d, mpath, f) not in base}),
        nvcc_expected=expected_nvcc(kind, idiom),
        nvcc=nv,
        lint_output=r["output"],
    )
    rec["nvcc_as_expected"] = (None if not nv or nv["verdict"] is None
                               else nv["verdict"] == rec["nvcc_expected"])
    return rec


# --------------------------------------------------------------------------
# Reports


def md_table(rows, head):
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def frac(a, b):
    return f"{a / b:.2f}" if b else "—"


def write_reports(results, meta, out):
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(dict(meta=meta, mutants=results), indent=1))
    projects = list(dict.fromkeys(r["project"] for r in results))
    kinds = [k[0] for k in KINDS if any(r["kind"] == k[0] for r in results)]
    lines = [f"Run: `{meta['command']}`", "",
             f"Linter: `{meta['tidy']}` (sha1 `{meta['tidy_sha1'][:8]}`), "
             f"{meta['date']}; files per project chosen with seed {meta['seed']}.", ""]
    rows = []
    for p in projects:
        rs = [r for r in results if r["project"] == p]
        nv = [r for r in rs if r["nvcc_as_expected"] is not None]
        rows.append([p, len({r["file"] for r in rs}), len(rs),
                     f"{sum(r['nvcc_as_expected'] for r in nv)} / {len(nv)}" if nv else "not run",
                     sum(r["reported"] for r in rs), sum(r["at_line"] for r in rs),
                     frac(sum(r["at_line"] for r in rs), len(rs)),
                     sum(r["lint_failed"] for r in rs),
                     sum(any(": cuda-" in x for x in r["new_elsewhere"]) for r in rs),
                     sum(any(": cuda-" not in x for x in r["new_elsewhere"]) for r in rs),
                     sum(any(": cuda-" in x for x in r["other_in_block"]) for r in rs)])
    lines += [md_table(rows, ["framework", "files", "mutants injected",
                              "nvcc as expected", "reported by the right check",
                              "at the injected line", "recall",
                              "lint failed", "mutants with new cuda-* findings outside the block",
                              "mutants with new clang errors outside the block",
                              "mutants with other cuda-* checks in the block"]), ""]
    head = ["hazard kind (check)"] + projects
    rows = []
    for k in kinds:
        row = [f"{k} (`{KIND_BY_ID[k][2]}`)"]
        for p in projects:
            rs = [r for r in results if r["project"] == p and r["kind"] == k]
            if not rs:
                row.append("—")
                continue
            caught = sum(r["at_line"] for r in rs)
            cell = f"{caught}/{len(rs)}"
            bad = [r for r in rs if r["nvcc_as_expected"] is False]
            if bad:
                cell += f" (nvcc: {bad[0]['nvcc']['verdict']}, expected {bad[0]['nvcc_expected']})"
            if any(r["reported"] and not r["at_line"] for r in rs):
                cell += " (right check, other line)"
            if any(r["lint_failed"] for r in rs):
                cell += " (lint failed)"
            row.append(cell)
        rows.append(row)
    lines += ["Caught (right check at the injected line) / injected, per kind and framework:", "",
              md_table(rows, head), ""]
    misses = [r for r in results if not r["at_line"]]
    if misses:
        lines += ["Misses:", ""]
        for k in kinds:
            ms = [r for r in misses if r["kind"] == k]
            if ms:
                lines.append(f"- {k}: " + "; ".join(
                    f"{r['project']} `{r['file']}`"
                    + (" (lint failed)" if r["lint_failed"] else "")
                    + (f" (reported at line {r['right_check_lines']}, marked {r['marked_lines']})"
                       if r["reported"] else "")
                    + (f" [other: {r['other_in_block'][0]}]" if r["other_in_block"] else "")
                    for r in ms))
        lines.append("")
    if meta.get("skipped_files"):
        lines += ["Files skipped (their unmodified baseline does not lint cleanly):", ""]
        lines += [f"- {s['project']} `{s['file']}`: {s['why']}" for s in meta["skipped_files"]]
        lines.append("")
    noisy = [r for r in results if r["new_elsewhere"]]
    if noisy:
        lines += ["New findings outside the injected block:", ""]
        for r in noisy:
            lines.append(f"- {r['project']} `{r['file']}` {r['kind']}: " + "; ".join(r["new_elsewhere"][:3]))
        lines.append("")
    (out / "results.md").write_text("\n".join(lines))
    return "\n".join(lines)


# --------------------------------------------------------------------------


def sha1_file(p):
    h = hashlib.sha1()
    with open(p, "rb") as fh:
        for b in iter(lambda: fh.read(1 << 20), b""):
            h.update(b)
    return h.hexdigest()


def setup_corpus(corpus, tmproot):
    src = Path(tmproot) / "corpus"
    shutil.copytree(corpus, src)
    (src / "build").mkdir(exist_ok=True)
    tmpl = (Path(corpus) / "compile_commands.json.in").read_text()
    (src / "build" / "compile_commands.json").write_text(tmpl.replace("@DIR@", str(src)))
    spec = json.loads((Path(corpus) / "corpus.json").read_text())
    projects = []
    for name, files in spec["frameworks"].items():
        projects.append(dict(name=name, idiom=spec["idioms"][name], src=str(src),
                             build=str(src / "build"), files=files))
    return projects


def check_expectation(results, expect_path):
    exp = json.loads(Path(expect_path).read_text())
    caught = {tuple(x) for x in exp["caught"]}
    missed = {tuple(x[:2]) for x in exp["missed"]}
    problems = []
    for r in results:
        key = (r["file"], r["kind"])
        if r["lint_failed"]:
            problems.append(f"{key}: the lint failed (rc {r['lint_rc']}): a skip is not a pass")
        elif r["at_line"] and key in missed:
            problems.append(f"{key}: now caught, listed as a miss: update {expect_path} "
                            "(move it to \"caught\")")
        elif not r["at_line"] and key in caught:
            problems.append(f"{key}: REGRESSION: no longer reported by {r['check']} at line(s) "
                            f"{r['marked_lines']} (right check at {r['right_check_lines']})")
        elif key not in caught and key not in missed:
            problems.append(f"{key}: not in {expect_path}: add it to "
                            f"\"{'caught' if r['at_line'] else 'missed'}\"")
    seen = {(r["file"], r["kind"]) for r in results}
    run_kinds = {r["kind"] for r in results}
    for key in sorted(k for k in (caught | missed) - seen if k[1] in run_kinds):
        problems.append(f"{key}: in {expect_path} but no mutant was made")
    return problems


def main():
    global CHECKS
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tidy")
    ap.add_argument("--merge", help="DIR,DIR: merge the results.json of earlier runs into --out")
    ap.add_argument("--projects", default=str(HERE / "real-code-projects.json"))
    ap.add_argument("--root", default="/work/realcode")
    ap.add_argument("--only", default="")
    ap.add_argument("--corpus")
    ap.add_argument("--expect")
    ap.add_argument("--files", type=int, default=2)
    ap.add_argument("--files-for", action="append", default=[])
    ap.add_argument("--seed", default="1")
    ap.add_argument("--kinds", default="")
    ap.add_argument("--checks", default=CHECKS)
    ap.add_argument("--no-nvcc", action="store_true")
    ap.add_argument("--nvcc-files", type=int, default=0)
    ap.add_argument("--nvcc-cache")
    ap.add_argument("--nvcc-dir", default="/usr/local/cuda/bin")
    ap.add_argument("--nvcc-timeout", type=int, default=900)
    ap.add_argument("-j", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--out", default="inject-out")
    args = ap.parse_args()
    CHECKS = args.checks
    if args.merge:
        runs = [json.loads((Path(d) / "results.json").read_text()) for d in args.merge.split(",")]
        meta = dict(runs[0]["meta"])
        meta["command"] = "` + `".join(r["meta"]["command"] for r in runs)
        meta["skipped_files"] = [s for r in runs for s in r["meta"].get("skipped_files", [])]
        meta["baselines"] = {f: b for r in runs for f, b in r["meta"].get("baselines", {}).items()}
        meta["date"] = ", ".join(dict.fromkeys(r["meta"]["date"] for r in runs))
        if len({r["meta"]["tidy_sha1"] for r in runs}) != 1:
            sys.exit("inject-hazards: --merge: the runs used different linters")
        print(write_reports([m for r in runs for m in r["mutants"]], meta, args.out))
        return 0
    if not args.tidy:
        ap.error("--tidy BIN is required")
    args.tidy = os.path.abspath(args.tidy)
    if not os.access(args.tidy, os.X_OK):
        sys.exit(f"inject-hazards: {args.tidy} is not an executable")
    kinds = [k[0] for k in KINDS]
    if args.kinds:
        want = args.kinds.split(",")
        kinds = [k for k in kinds if k in want or KIND_BY_ID[k][1] in want]
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)  # also when started with SIGINT ignored
    tmproot = tempfile.mkdtemp(prefix="inject-hazards-")
    cache = NvccCache(args.nvcc_cache or os.path.join(args.out, "nvcc-cache.json"))
    meta = dict(command=" ".join(shlex.quote(a) for a in sys.argv),
                tidy=args.tidy, tidy_sha1=sha1_file(args.tidy), seed=args.seed,
                date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                nvcc=not args.no_nvcc)
    executors = []
    baselines = {}
    skipped_files = []
    try:
        jobs = []  # (project, file, entry, nvcc?)
        if args.corpus:
            projects = setup_corpus(args.corpus, tmproot)
            db = json.loads((Path(projects[0]["build"]) / "compile_commands.json").read_text())
            by_file = {abs_file(e): e for e in db}
            for p in projects:
                for f in p["files"]:
                    path = os.path.join(p["src"], f)
                    jobs.append((p, path, by_file[path], not args.no_nvcc))
        else:
            only = set(args.only.split(",")) if args.only else set()
            per = dict(x.split("=") for x in args.files_for)
            for p in load_projects(args.projects, args.root, only):
                p["idiom"] = p["name"]
                if not (Path(p["build"]) / "compile_commands.json").exists():
                    print(f"inject-hazards: {p['name']}: no database in {p['build']} "
                          "(scripts/real-code-setup.sh)", file=sys.stderr)
                    continue
                cands = pick(p, candidates(p), 0, args.seed)
                want = int(per.get(p["name"], args.files))
                print(f"{p['name']}: {len(cands)} files launch in its idiom", flush=True)
                # In seed order; a file whose unmodified baseline does not
                # lint cleanly (clang errors, a crash) is skipped and said so.
                n = 0
                for f, e in cands:
                    if want and n >= want:
                        break
                    b = lint(args.tidy, p["build"], f, p.get("tidy_args", []), args.timeout)
                    errs = [d for d in b["diags"] if d["sev"] == "error"
                            and not d["check"].startswith("cuda-")]
                    if b["failed"] or errs:
                        why = "lint failed" if b["failed"] else f"{errs[0]['path']}:{errs[0]['line']}: {errs[0]['msg'][:120]}"
                        print(f"{p['name']}: skipped {rel(p, f)}: the unmodified file does not lint cleanly ({why})", flush=True)
                        skipped_files.append(dict(project=p["name"], file=rel(p, f), why=why))
                        continue
                    baselines[f] = b
                    nv = not args.no_nvcc and (not args.nvcc_files or n < args.nvcc_files)
                    jobs.append((p, f, e, nv))
                    print(f"{p['name']}: chosen {rel(p, f)}", flush=True)
                    n += 1
        # Baselines: each unmodified file through its real database.
        def base_job(j):
            p, f, e, _ = j
            return f, lint(args.tidy, p["build"], f, p.get("tidy_args", []), args.timeout)

        results = []
        ex = concurrent.futures.ThreadPoolExecutor(args.j)
        executors.append(ex)
        if True:
            for f, b in ex.map(base_job, [j for j in jobs if j[1] not in baselines]):
                baselines[f] = b
                state = "FAILED" if b["failed"] else f"{len([d for d in b['diags'] if d['check'].startswith('cuda-')])} cuda-* findings"
                print(f"baseline {f}: {state}, {b['wall_s']} s", flush=True)
            work = [(j, k) for j in jobs for k in kinds
                    if kind_applies(k, IDIOMS[j[0]["idiom"]])]

            def mut_job(jk):
                (p, f, e, nv), k = jk
                return do_mutant(args, p, f, e, k, baselines[f], tmproot, cache, nv)

            for r in ex.map(mut_job, work):
                results.append(r)
                # Written as it goes: an interrupted run keeps what it did.
                write_reports(results, dict(meta, partial=True), args.out)
                nvs = (f", nvcc {r['nvcc']['verdict']}{'' if r['nvcc_as_expected'] else ' (expected ' + r['nvcc_expected'] + ')'}"
                       if r["nvcc"] else "")
                print(f"{r['project']} {r['file']} {r['kind']}: "
                      f"{'FAILED ' if r['lint_failed'] else ''}"
                      f"{'caught' if r['at_line'] else 'reported elsewhere' if r['reported'] else 'MISSED'}"
                      f"{nvs}, {r['lint_wall_s']} s"
                      + (f", new elsewhere: {len(r['new_elsewhere'])}" if r["new_elsewhere"] else ""),
                      flush=True)
        meta["baselines"] = {f: dict(failed=b["failed"], rc=b["rc"], wall_s=b["wall_s"],
                                     cuda_findings=[f"{d['path']}:{d['line']}: {d['check']}: {d['msg'][:160]}"
                                                    for d in b["diags"] if d["check"].startswith("cuda-")])
                             for f, b in baselines.items()}
        meta["skipped_files"] = skipped_files
        print(write_reports(results, meta, args.out))
        expect = args.expect or (os.path.join(args.corpus, "expected.json") if args.corpus else None)
        if expect:
            problems = check_expectation(results, expect)
            bad_base = [f for f, b in baselines.items() if b["failed"]]
            problems += [f"baseline lint of {f} failed" for f in bad_base]
            if problems:
                print("\ninject-hazards: the expectation does not hold:\n  " + "\n  ".join(problems))
                return 1
            print(f"\ninject-hazards: {len(results)} mutants as {expect} expects")
        return 0
    except KeyboardInterrupt:
        kill_children()
        print("inject-hazards: interrupted", file=sys.stderr)
        return 130
    finally:
        for ex in executors:
            ex.shutdown(wait=False, cancel_futures=True)
        kill_children()
        for ex in executors:
            ex.shutdown(wait=True)  # running jobs end (their children killed)
        kill_children()
        remove_mutants()
        shutil.rmtree(tmproot, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
