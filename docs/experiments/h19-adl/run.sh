#!/bin/bash
# nvcc 13.0 on each case of adl.cu; verdicts.txt holds the run of 2026-12-01.
cd "$(dirname "$0")"
one() {
  out=$(/usr/local/cuda/bin/nvcc -std=c++17 --extended-lambda -arch=sm_80 -c -DCASE=$1 adl.cu -o /tmp/adl$1.o 2>&1)
  rc=$?
  if [ $rc = 0 ]; then echo "case $1: accepted"; else echo "case $1: rejected: $(echo "$out" | grep -m1 -E 'error' | cut -c1-250)"; fi
}
export -f one
seq 1 17 | xargs -P 16 -I{} bash -c 'one {}' | sort -t' ' -k2 -n
