#!/bin/bash
# Sets up the scratch copies that scripts/real-code.py lints (issue 12,
# docs/real-code.md): for each project of scripts/real-code-projects.json it
# extracts the recorded commit from a fetched git dir, extracts the pinned
# submodules and the dependencies its CMake would download, applies the
# documented scratch patches (CUDA 13 API changes; never to this repository)
# and configures it with CMake to get compile_commands.json. Nothing is built.
#
#   scripts/real-code-setup.sh [--mirror DIR] [--root DIR] [project...]
#
# --mirror DIR (default /work/.mirror): git dirs named <owner>+<name>/repo
#   (or <owner>+<name>), e.g. `git clone --mirror URL DIR/<owner>+<name>`
#   for each repository named in the projects file.
# --root DIR (default /work/realcode): gets <project>/src, <project>/build
#   and <project>/deps (the "src"/"build"/"deps_dir" fields can move them).
# NVCC (default /usr/local/cuda/bin/nvcc) is CMAKE_CUDA_COMPILER.
# Re-running a project wipes and redoes its src, deps and build.
set -euo pipefail
MIRROR=/work/.mirror ROOT=/work/realcode
while [[ $# -gt 0 ]]; do
  case $1 in
    --mirror) MIRROR=$2; shift 2 ;;
    --root) ROOT=$2; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
PROJECTS_JSON=$HERE/real-code-projects.json
export NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
export ROOT

q() { # python query on the project's record: q NAME EXPR
  python3 - "$PROJECTS_JSON" "$1" "$2" <<'EOF'
import json, sys
p = [p for p in json.load(open(sys.argv[1]))["projects"] if p["name"] == sys.argv[2]][0]
v = eval(sys.argv[3], {"p": p})
if isinstance(v, list):
    print("\n".join("\t".join(x) if isinstance(x, (list, tuple)) else str(x) for x in v))
elif v is not None:
    print(v)
EOF
}

extract() { # REPO_URL COMMIT DEST [PATH_NOT_EXTRACTED...]
  local name=${1#https://github.com/}
  name=${name/\//+}
  local gd=$MIRROR/$name/repo
  [[ -d $gd ]] || gd=$MIRROR/$name
  git --git-dir="$gd" cat-file -e "$2^{commit}" 2>/dev/null ||
    { echo "real-code-setup: commit $2 of $1 is not in $gd" >&2; exit 1; }
  rm -rf "$3"
  mkdir -p "$3"
  # Paths after DEST are left out (blobs a stored snapshot lacks, e.g. large
  # test data): "not_extracted" in the projects file. git 2.39 still prints
  # "error: invalid object ..." for such a blob, and exits 0 with the rest.
  local spec=() x
  for x in "${@:4}"; do [[ -n $x ]] && spec+=(":(exclude)$x"); done
  if [[ ${#spec[@]} -gt 0 ]]; then
    git --git-dir="$gd" archive "$2" -- . "${spec[@]}" | tar -x -C "$3"
  else
    git --git-dir="$gd" archive "$2" | tar -x -C "$3"
  fi
}

replace() { # FILE OLD NEW: replace exactly one occurrence, else fail
  python3 - "$@" <<'EOF'
import sys
path, old, new = sys.argv[1:4]
s = open(path).read()
n = s.count(old)
if n != 1:
    sys.exit(f"real-code-setup: {path}: expected 1 occurrence of {old!r}, found {n}")
open(path, "w").write(s.replace(old, new))
EOF
}

# ---- scratch patches, one function per project (run in its src dir) -------

patch_kokkos() {
  replace core/src/Cuda/Kokkos_Cuda_Instance.hpp \
    'return cudaGraphAddDependencies(graph, from, to, numDependencies);' \
    '#if CUDART_VERSION >= 13000
    return cudaGraphAddDependencies(graph, from, to, nullptr, numDependencies);
#else
    return cudaGraphAddDependencies(graph, from, to, numDependencies);
#endif'
  replace core/src/Cuda/Kokkos_Cuda_Instance.hpp \
    'return cudaMemPrefetchAsync(devPtr, count, dstDevice, m_stream);' \
    '#if CUDART_VERSION >= 13000
    cudaMemLocation loc{};
    loc.type = cudaMemLocationTypeDevice;
    loc.id   = dstDevice;
    return cudaMemPrefetchAsync(devPtr, count, loc, 0, m_stream);
#else
    return cudaMemPrefetchAsync(devPtr, count, dstDevice, m_stream);
#endif'
  replace bin/nvcc_wrapper $'\ndefault_arch="sm_70"\n' $'\ndefault_arch="sm_80"\n'
}

patch_raja() {
  replace include/RAJA/policy/cuda/MemUtils_CUDA.hpp \
    '    CAMP_CUDA_API_INVOKE_AND_CHECK(cudaMemAdvise, ptr, nbytes,
                                   cudaMemAdviseSetPreferredLocation, device);
    CAMP_CUDA_API_INVOKE_AND_CHECK(cudaMemAdvise, ptr, nbytes,
                                   cudaMemAdviseSetAccessedBy, cudaCpuDeviceId);' \
    '#if CUDART_VERSION >= 13000
    cudaMemLocation dev_loc{};
    dev_loc.type = cudaMemLocationTypeDevice;
    dev_loc.id = device;
    cudaMemLocation host_loc{};
    host_loc.type = cudaMemLocationTypeHost;
    // not CAMP_CUDA_API_INVOKE_AND_CHECK: it prints its arguments, and
    // cudaMemLocation has no operator<<
    if (cudaMemAdvise(ptr, nbytes, cudaMemAdviseSetPreferredLocation,
                      dev_loc) != cudaSuccess ||
        cudaMemAdvise(ptr, nbytes, cudaMemAdviseSetAccessedBy,
                      host_loc) != cudaSuccess) {
      return nullptr;
    }
#else
    CAMP_CUDA_API_INVOKE_AND_CHECK(cudaMemAdvise, ptr, nbytes,
                                   cudaMemAdviseSetPreferredLocation, device);
    CAMP_CUDA_API_INVOKE_AND_CHECK(cudaMemAdvise, ptr, nbytes,
                                   cudaMemAdviseSetAccessedBy, cudaCpuDeviceId);
#endif'
  replace test/unit/resource/tests/test-resource-AsyncTime.hpp \
    '#if defined(__arm__) || defined(__aarch64__)
  return deviceProp.clockRate/1000;
#else
  return deviceProp.clockRate;
#endif' \
    '  int clock_rate = 0;
  CAMP_CUDA_API_INVOKE_AND_CHECK(cudaDeviceGetAttribute, &clock_rate,
                                 cudaDevAttrClockRate, cuda_device);
#if defined(__arm__) || defined(__aarch64__)
  return clock_rate/1000;
#else
  return clock_rate;
#endif'
}

patch_moderngpu() {
  replace CMakeLists.txt 'CUDA_ARCHITECTURES 60 61 70 75 80 # Set required architecture.' \
    'CUDA_ARCHITECTURES 80 # Set required architecture. (scratch patch: nvcc 13 has no sm_60..sm_70)'
}

patch_amrex() {
  # CUDA 13 takes a cudaMemLocation (and, for the prefetch, flags) where
  # CUDA 12 took a device number: six calls in AMReX_GpuDevice.cpp,
  # AMReX_GpuContainers.H and AMReX_BaseFab.H, all through
  # AMREX_CUDA_SAFE_CALL; the old signatures are given back as overloads in
  # the header that defines that macro.
  replace Src/Base/AMReX_GpuError.H \
    '#ifdef AMREX_USE_HIP
#include <hip/hip_runtime.h>
#endif
' \
    '#ifdef AMREX_USE_HIP
#include <hip/hip_runtime.h>
#endif

#if defined(AMREX_USE_CUDA) && defined(CUDART_VERSION) && CUDART_VERSION >= 13000
// scratch patch (cuda-lambda-tidy real-code setup): the CUDA 12 signatures
inline cudaMemLocation amrex_cuda13_location (int device) {
    cudaMemLocation loc{};
    if (device == cudaCpuDeviceId) { loc.type = cudaMemLocationTypeHost; }
    else { loc.type = cudaMemLocationTypeDevice; loc.id = device; }
    return loc;
}
inline cudaError_t cudaMemAdvise (const void* p, size_t n, cudaMemoryAdvise advice, int device) {
    return cudaMemAdvise(p, n, advice, amrex_cuda13_location(device));
}
inline cudaError_t cudaMemPrefetchAsync (const void* p, size_t n, int device, cudaStream_t s) {
    return cudaMemPrefetchAsync(p, n, amrex_cuda13_location(device), 0, s);
}
#endif
'
  # CCCL 3 (CUDA 13) removed cub::Min/Max/Sum and cub::TransformInputIterator/
  # CountingInputIterator; AMReX uses them under __CUDACC_VER_MAJOR__ >= 11
  # (which clang does not define: the linter never sees these lines; the
  # patch is for nvcc, e.g. inject-hazards.py's verdicts).
  replace Src/Base/AMReX_GpuReduce.H 'Reduce(source, cub::Min());' 'Reduce(source, ::cuda::minimum<>{});'
  replace Src/Base/AMReX_GpuReduce.H 'Reduce(source, cub::Max());' 'Reduce(source, ::cuda::maximum<>{});'
  replace Src/Base/AMReX_Scan.H '#  include <cub/cub.cuh>' \
    '#  include <cub/cub.cuh>
#  include <cuda/functional>
#  include <thrust/iterator/counting_iterator.h>
#  include <thrust/iterator/transform_iterator.h>'
  replace Src/Base/AMReX_Scan.H 'cub::TilePrefixCallbackOp<T, cub::Sum, ScanTileState>' \
    'cub::TilePrefixCallbackOp<T, ::cuda::std::plus<>, ScanTileState>'
  replace Src/Base/AMReX_Scan.H 'cub::Sum{}, virtual_block_id' '::cuda::std::plus<>{}, virtual_block_id'
  replace Src/Base/AMReX_Scan.H \
    '        cub::TransformInputIterator<T,decltype(input_lambda),cub::CountingInputIterator<N> >
            input_begin(cub::CountingInputIterator<N>(0), input_lambda);' \
    '        thrust::transform_iterator<decltype(input_lambda),thrust::counting_iterator<N>,T,T>
            input_begin(thrust::counting_iterator<N>(0), input_lambda);'
}

patch_ginkgo() {
  # The stored snapshot lacks these three large test matrices (see
  # "not_extracted"); configure only copies them into the build directory
  # (matrices/CMakeLists.txt, configure_file), so empty files stand in.
  local m
  for m in ani4_lu ani4_chol ani4_amd_lu; do
    [[ -e matrices/test/$m.mtx ]] || : >"matrices/test/$m.mtx"
  done
}

# ---------------------------------------------------------------------------

projects=("$@")
[[ ${#projects[@]} -gt 0 ]] ||
  mapfile -t projects < <(python3 -c 'import json,sys
for p in json.load(open(sys.argv[1]))["projects"]: print(p["name"])' "$PROJECTS_JSON")

# A derived project lints another's checkout through a rewritten database:
# "nvcc-wrapper-show" replaces each nvcc_wrapper command by the nvcc command
# the wrapper runs (`nvcc_wrapper --nvcc-wrapper-show ...`), nvcc made absolute.
derive_nvcc_wrapper_show() { # FROM_BUILD TO_BUILD
  mkdir -p "$2"
  python3 - "$1/compile_commands.json" "$2/compile_commands.json" "$(dirname "$NVCC")" <<'EOF'
import json, os, shlex, subprocess, sys
src, dst, nvcc_dir = sys.argv[1:4]
out = []
for e in json.load(open(src)):
    args = e["arguments"] if "arguments" in e else shlex.split(e["command"])
    if os.path.basename(args[0]) == "nvcc_wrapper":
        env = dict(os.environ, PATH=nvcc_dir + ":" + os.environ["PATH"])
        shown = subprocess.run([args[0], "--nvcc-wrapper-show"] + args[1:],
                               cwd=e["directory"], env=env, check=True,
                               capture_output=True, text=True).stdout.strip()
        args = shlex.split(shown.splitlines()[-1])
        if args[0] == "nvcc":
            args[0] = os.path.join(nvcc_dir, "nvcc")
    out.append({"directory": e["directory"], "file": e["file"],
                "arguments": args, **({"output": e["output"]} if "output" in e else {})})
json.dump(out, open(dst, "w"), indent=1)
EOF
}

for p in "${projects[@]}"; do
  echo "=== $p"
  if [[ -n $(q "$p" 'p.get("same_as")') ]]; then
    echo "$p: lints $(q "$p" 'p["same_as"]')'s checkout and database, nothing to set up"
    continue
  fi
  from=$(q "$p" 'p.get("derived_from")')
  if [[ -n $from ]]; then
    export BUILD=$ROOT/$(q "$p" 'p.get("build", p["name"] + "/build")')
    fbuild=$ROOT/$(q "$from" 'p.get("build", p["name"] + "/build")')
    "derive_$(q "$p" 'p["derive"].replace("-", "_")')" "$fbuild" "$BUILD"
    python3 -c 'import json,sys
print(sys.argv[2] + ":", len(json.load(open(sys.argv[1]))), "entries in", sys.argv[1])' \
      "$BUILD/compile_commands.json" "$p"
    continue
  fi
  export SRC=$ROOT/$(q "$p" 'p.get("src", p["name"] + "/src")')
  export BUILD=$ROOT/$(q "$p" 'p.get("build", p["name"] + "/build")')
  export DEPS=$ROOT/$(q "$p" 'p.get("deps_dir", p["name"] + "/deps")')
  mapfile -t not_extracted < <(q "$p" 'p.get("not_extracted", [])')
  extract "$(q "$p" 'p["repository"]')" "$(q "$p" 'p["commit"]')" "$SRC" "${not_extracted[@]}"
  while IFS=$'\t' read -r path url commit; do
    [[ -n $path ]] && extract "$url" "$commit" "$SRC/$path"
  done < <(q "$p" '[(s["path"], s["repository"], s["commit"]) for s in p.get("submodules", [])]')
  while IFS=$'\t' read -r path url commit; do
    [[ -n $path ]] && extract "$url" "$commit" "$DEPS/$path"
  done < <(q "$p" '[(s["path"], s["repository"], s["commit"]) for s in p.get("deps", [])]')
  if declare -F "patch_$p" >/dev/null; then
    (cd "$SRC" && "patch_$p")
    echo "$p: scratch patches applied"
  fi
  rm -rf "$BUILD"
  mkdir -p "$BUILD"
  configure=$(q "$p" 'p["configure"]')
  (cd "$BUILD" && eval "$configure") >"$BUILD.configure.log" 2>&1 ||
    { echo "real-code-setup: $p: configure failed, see $BUILD.configure.log" >&2; exit 1; }
  python3 -c 'import json,sys
print(sys.argv[2] + ":", len(json.load(open(sys.argv[1]))), "entries in", sys.argv[1])' \
    "$BUILD/compile_commands.json" "$p"
done
