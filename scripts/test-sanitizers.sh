#!/usr/bin/env bash
# The whole test suite again, in an AddressSanitizer + UBSan build
# (build-sanitize/), plus the fuzz smoke tests: the nvcc translator and the
# compile-database reader, each fuzzed for CUDA_LAMBDA_TIDY_FUZZ_SECONDS (20).
# CI runs it after scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
if [ ! -f build-sanitize/build.ninja ]; then
  # Build type "None": no per-type flags, so -O0 is what the objects get (an
  # empty build type becomes Release in CMakeLists.txt, which appended -O3).
  # The sanitized tests spend most of their time parsing in Debian's
  # uninstrumented Clang libraries, so the build is what -O costs here
  # (measured, 4 December 2026, GCC 12 with ASan and UBSan): the largest
  # unity file of the checks compiles in 103 s of CPU at -O0 against 184 s
  # at -O1 (and 80 s against 56 s per check file at -O3 against -O1 before
  # unity builds); the whole sanitizer build took 396 s against 486-600 s;
  # the unit tests run as fast (21.1 s against 21.9 s of CPU on 18 of them),
  # fixtures at most a quarter slower.
  cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=None "-DCMAKE_CXX_FLAGS=-O0 -DNDEBUG" \
    -DCUDA_LAMBDA_TIDY_SANITIZE=ON -DCUDA_LAMBDA_TIDY_FUZZ=ON \
    -DCUDA_LAMBDA_TIDY_FUZZ_SECONDS="${CUDA_LAMBDA_TIDY_FUZZ_SECONDS:-20}" >/dev/null
fi
cmake --build build-sanitize
# Exit codes no test expects, so a sanitizer report never passes for the
# tool's "findings" (1) or "bad input" (2). Leaks are not checked here.
export ASAN_OPTIONS="exitcode=86:detect_leaks=0:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="exitcode=87:print_stacktrace=1"
cd build-sanitize
# Left out: the tests that run none of our code (nvcc's verdicts on the
# fixtures, the fixture runner's self-tests), the database-vs-hand-flags
# comparison, whose fixtures the fixture tests already lint through both
# routes, the parent-map tests (a memory ratio ASan's redzones distort;
# an in-process rerun of every fixture), and two more passes over every
# fixture that run no code of ours the drop-in pass does not: the plugin
# route (the same checks library, loaded into clang-tidy-22) and the
# no-toolkit route (the same checks on other headers; the tool's fallback
# code runs under ASan in without-toolkit), and the packaging tests (label
# packaging: install, cpack, the launcher building a project with nvcc, the
# static binary, which this build does not make), and every fixture through
# cuda-lambda-clangd (the same checks again); the clients' end-to-end tests
# (pre-commit, run-clang-tidy, Neovim: the same lint as the drop-in tests,
# driven by other programs), the hazard-injection corpus (42 lints of
# three small files: the fixtures run the same checks under ASan) and the
# lint of gpu_validation/ (44 programs through the same checks and route as
# the fixtures; 126 s here, for no code path of ours the fixtures miss), and
# the heap's huge pages (tool/HugePageHeap.cpp leaves them out under a
# sanitizer, whose allocator is its own). The normal run has them all.
ctest --output-on-failure -j "$(nproc)" -LE packaging \
  -E '^(fixtures-nvcc-verdicts|runner-rejects-.*|compile-db-vs-hand-flags.*|every-file-both-passes|parent-map-memory|fixtures-plugin|fixtures-without-toolkit|fixtures-clangd|clangd-lsp|pre-commit-end-to-end|run-clang-tidy-end-to-end|neovim-end-to-end|inject-hazards-corpus.*|gpu-validation-lint|huge-page-heap)$' "$@"
# cuda-lambda-clangd's LSP session, with ASan's user poisoning off: clangd's
# own code comes from Debian's uninstrumented static libraries, and
# llvm::BumpPtrAllocator poisons a new slab only in instrumented copies of
# its inline functions (ours), unpoisoning each allocation only there too, so
# clangd's TUScheduler writing into a slab it allocated through an
# uninstrumented copy reads as use-after-poison (HeaderIncluderCache::update,
# on the first preamble). Every other ASan check stays on.
ASAN_OPTIONS="$ASAN_OPTIONS:allow_user_poisoning=0" \
  ctest --output-on-failure -R '^clangd-lsp$' "$@"
