#!/usr/bin/env bash
# Installs what building and testing cuda-lambda-tidy needs, when missing:
# Debian's LLVM/Clang 22 (headers, static clang-tidy libraries, clang-tidy-22),
# gRPC and protobuf (cuda-lambda-clangd links clangd's remote-index client),
# LLVM/Clang 19's headers and clang-tidy-19 (the second plugin build,
# cmake/PluginLLVM19.cmake), GoogleTest, CMake, Ninja, and the Python modules
# the tests use (PyYAML; jsonschema, which validates the SARIF output), and the clients the
# end-to-end tests drive (pre-commit, Neovim). The CUDA toolkit is expected
# at /usr/local/cuda (or CUDA_PATH); it is not installed from here.
set -euo pipefail

packages=(clang-22 clang-tidy-22 libclang-22-dev llvm-22-dev libclang-rt-22-dev clang-19 clang-tidy-19 libclang-19-dev llvm-19-dev libgrpc++-dev libprotobuf-dev libgtest-dev cmake ninja-build python3 python3-yaml python3-jsonschema pre-commit neovim)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
