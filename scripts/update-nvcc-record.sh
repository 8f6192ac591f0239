#!/usr/bin/env bash
# Refreshes test/data/nvcc-record.json, nvcc's results on the fixtures that the
# tests reuse while the fixture, nvcc and its flags are unchanged: compiles
# what changed (the verdicts, and the fixed copies of NVCC-AFTER-FIX
# fixtures after the drop-in's --fix, the gpu_validation/ programs) and
# writes it back. Needs a build.
set -euo pipefail
cd "$(dirname "$0")/.."
record=(--nvcc-record test/data/nvcc-record.json --update-nvcc-record)
python3 test/e2e/run_fixtures.py --mode nvcc "${record[@]}" fixtures examples/realistic
python3 test/e2e/run_fixtures.py "${record[@]}" --route drop-in \
  --tool build/bin/cuda-lambda-tidy fixtures
python3 test/e2e/check_gpu_validation.py "${record[@]}" --tool build/bin/cuda-lambda-tidy \
  gpu_validation
