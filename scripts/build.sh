#!/usr/bin/env bash
# Configures and builds into build/ (installing the dependencies first):
# scripts/build.sh [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
if [ ! -f build/build.ninja ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
# Targets named on the command line only (scripts/lint-example.sh builds the
# linter alone); everything without.
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build build "${targets[@]}"
