# The plugin for clang-tidy-19 (Debian 12, Ubuntu 24.04), built by the LLVM 22
# build from the same sources: a second configuration of this project with
# -DCUDA_LAMBDA_TIDY_LLVM=19 in build/llvm19, which builds the checks and the
# plugin alone. test/CMakeLists.txt's fixtures-plugin-llvm19 runs every
# fixture through it. Off in the sanitizer build (clang-tidy-19 is not built
# with ASan either) and where LLVM 19 is not installed
# (scripts/install-deps.sh installs it).
set(CUDA_LAMBDA_TIDY_LLVM19_PREFIX /usr/lib/llvm-19)
set(CUDA_LAMBDA_TIDY_LLVM19_FOUND OFF)
if(EXISTS ${CUDA_LAMBDA_TIDY_LLVM19_PREFIX}/lib/cmake/clang/ClangConfig.cmake
   AND EXISTS ${CUDA_LAMBDA_TIDY_LLVM19_PREFIX}/include/clang-tidy/ClangTidyCheck.h
   AND EXISTS ${CUDA_LAMBDA_TIDY_LLVM19_PREFIX}/bin/clang-tidy)
  set(CUDA_LAMBDA_TIDY_LLVM19_FOUND ON)
endif()
include(CMakeDependentOption)
cmake_dependent_option(CUDA_LAMBDA_TIDY_PLUGIN_LLVM19
  "Also build the plugin for clang-tidy-19 (build/llvm19) and test it" ON
  "CUDA_LAMBDA_TIDY_LLVM19_FOUND;NOT CUDA_LAMBDA_TIDY_SANITIZE" OFF)
if(NOT CUDA_LAMBDA_TIDY_PLUGIN_LLVM19)
  if(NOT CUDA_LAMBDA_TIDY_SANITIZE)
    message(STATUS "No LLVM 19 with clang-tidy: the clang-tidy-19 plugin is "
                   "not built (scripts/install-deps.sh installs it)")
  endif()
  return()
endif()

include(ExternalProject)
set(CUDA_LAMBDA_TIDY_LLVM19_PLUGIN
    ${CMAKE_BINARY_DIR}/llvm19/lib/libCudaLambdaTidy.so)
ExternalProject_Add(plugin-llvm19
  SOURCE_DIR ${PROJECT_SOURCE_DIR}
  BINARY_DIR ${CMAKE_BINARY_DIR}/llvm19
  CMAKE_GENERATOR Ninja
  # Unoptimized: this plugin is built for the fixture run alone (users build
  # their own with -DCUDA_LAMBDA_TIDY_LLVM=19 and their build type). Its
  # build, beside the LLVM 22 one, was the larger part of CI's build time
  # at -O3 (the four unity files of the checks: 580 s of compiler time of
  # 1430 in the whole build on this 2-core machine, 5 December 2026);
  # the fixtures spend their time in clang-19's own, optimized, libraries.
  CMAKE_ARGS -DCUDA_LAMBDA_TIDY_LLVM=19 -DCMAKE_BUILD_TYPE=None
             "-DCMAKE_CXX_FLAGS=-O0 -DNDEBUG"
             -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
  BUILD_COMMAND ${CMAKE_COMMAND} --build <BINARY_DIR> --target CudaLambdaTidy
  # Its own ninja decides what a change to a check rebuilds.
  BUILD_ALWAYS ON
  BUILD_BYPRODUCTS ${CUDA_LAMBDA_TIDY_LLVM19_PLUGIN}
  INSTALL_COMMAND ""
  USES_TERMINAL_BUILD ON)
