#!/usr/bin/env bash
# Builds the linter if needed and runs it on the bundled example. The example
# is full of hazards on purpose, so this prints findings and exits 0 only if
# the linter ran.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh cuda-lambda-tidy >/dev/null || exit 2
build/bin/cuda-lambda-tidy --checks='-*,cuda-*' examples/quickstart.cu
status=$?
# clang-tidy exits 0 with warnings; anything else is a real failure.
exit $status
