#!/usr/bin/env bash
# The whole test suite: builds, then runs every ctest (unit tests, fixtures
# through the drop-in binary and the plugin, nvcc verdicts, robustness).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
cd build
ctest --output-on-failure -j "$(nproc)" "$@"
