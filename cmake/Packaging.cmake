# Installation and packages.
#
#   cmake --install build --prefix P     P/bin/cuda-lambda-tidy, ...
#   cd build && cpack                    cuda-lambda-tidy_<v>_<arch>.deb,
#                                        cuda-lambda-tidy-clangd_<v>_<arch>.deb
#                                        and cuda-lambda-tidy-<v>-Linux.tar.gz
#                                        (both packages' files)
#
# Two components, one .deb each: `tidy` (the drop-in, the launcher, the
# plugin, the header, the documentation) needs only LLVM's libraries;
# `clangd` (cuda-lambda-clangd, when built) also needs the gRPC, protobuf and
# abseil libraries its remote-index client links, so that the linter alone
# does not pull them in.
#
# Layout below the prefix:
#   bin/cuda-lambda-tidy                 the drop-in clang-tidy
#   bin/cuda-lambda-tidy-launcher        a symlink to it: the compiler launcher
#   bin/cuda-lambda-clangd               clangd with the cuda-* checks, when
#                                        built (tool/CMakeLists.txt)
#   bin/cuda-lambda-tidy-static          the self-contained binary, only with
#                                        --component static (below)
#   lib/cuda-lambda-tidy/libCudaLambdaTidy.so   the clang-tidy-22 plugin
#   share/cuda-lambda-tidy/cuda_lambda_tidy_nvcc_compat.h
#                                        the nvcc-compatibility layer, for
#                                        plugin users (the binaries carry it)
#   share/doc/cuda-lambda-tidy/          README.md, docs/integration.md,
#                                        docs/hazards.md (the check pages'
#                                        rule links), docs/checks/*.md
#                                        (SARIF's rule help)
#
# The binaries find nothing of the build or source tree: the headers they
# parse with are compiled in, the documentation is found from their own
# place, and the run path is LLVM's library directory alone.

install(TARGETS cuda-lambda-tidy RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        COMPONENT tidy)
# A symlink, installed as one.
install(FILES ${CMAKE_BINARY_DIR}/bin/cuda-lambda-tidy-launcher
        DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tidy)
if(TARGET cuda-lambda-clangd)
  install(TARGETS cuda-lambda-clangd RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
          COMPONENT clangd)
endif()
# One file that needs no LLVM: copy it anywhere, or
#   cmake --install build --component static --prefix P
# Not in a full install or the packages, which depend on LLVM anyway.
if(TARGET cuda-lambda-tidy-static)
  install(TARGETS cuda-lambda-tidy-static RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
          COMPONENT static EXCLUDE_FROM_ALL)
endif()
install(TARGETS CudaLambdaTidy
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/cuda-lambda-tidy
        COMPONENT tidy)
install(FILES tool/compat/cuda_lambda_tidy_nvcc_compat.h
        DESTINATION ${CMAKE_INSTALL_DATADIR}/cuda-lambda-tidy COMPONENT tidy)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT tidy)
install(FILES docs/integration.md docs/hazards.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs COMPONENT tidy)
install(DIRECTORY docs/checks/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs/checks
        COMPONENT tidy FILES_MATCHING PATTERN "*.md")

set(CPACK_PACKAGE_NAME cuda-lambda-tidy)
set(CPACK_PACKAGE_VENDOR cuda-lambda-tidy)
set(CPACK_PACKAGE_CONTACT "cuda-lambda-tidy maintainers <cuda-lambda-tidy@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_GENERATOR DEB TGZ)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# What the binary links (libclang-cpp, libLLVM) and parses with (clang's
# builtin and CUDA wrapper headers: libclang-common), named by hand:
# dpkg-shlibdeps would find libLLVM through the llvm-22-dev symlink the run
# path points at, and ask for the whole development package. The plugin's
# host is clang-tidy-22; a CUDA toolkit is found at run time, or the bundled
# fallback header is used.
set(LLVM_DEB_VERSION "1:${LLVM_VERSION_MAJOR}.${LLVM_VERSION_MINOR}")
set(LLVM_DEB_DEPENDS
    "libclang-cpp${LLVM_VERSION_MAJOR} (>= ${LLVM_DEB_VERSION}), libllvm${LLVM_VERSION_MAJOR} (>= ${LLVM_DEB_VERSION}), libclang-common-${LLVM_VERSION_MAJOR}-dev (>= ${LLVM_DEB_VERSION}), libc6, libstdc++6, libgcc-s1")
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL tidy)
set(CPACK_DEBIAN_TIDY_PACKAGE_NAME cuda-lambda-tidy)
set(CPACK_DEBIAN_TIDY_PACKAGE_DEPENDS "${LLVM_DEB_DEPENDS}")
set(CPACK_DEBIAN_TIDY_PACKAGE_RECOMMENDS "clang-tidy-${LLVM_VERSION_MAJOR}")
set(CPACK_COMPONENT_TIDY_DESCRIPTION
    "the drop-in cuda-lambda-tidy, its compiler launcher, the clang-tidy-22 plugin and the check pages")
# cuda-lambda-clangd: LLVM's libraries, and the gRPC, protobuf and abseil
# runtime packages of the libraries it was linked with (package names from
# their sonames).
if(TARGET cuda-lambda-clangd)
  list(APPEND CPACK_COMPONENTS_ALL clangd)
  set(CPACK_DEBIAN_CLANGD_PACKAGE_NAME cuda-lambda-tidy-clangd)
  set(CPACK_COMPONENT_CLANGD_DESCRIPTION
      "clangd with the cuda-* checks of cuda-lambda-tidy, reading nvcc compile databases")
  set(CPACK_DEBIAN_CLANGD_PACKAGE_DEPENDS "${LLVM_DEB_DEPENDS}")
  foreach(lib GRPCXX GRPC PROTOBUF ABSL_SYNCHRONIZATION)
    get_filename_component(real ${${lib}_LIBRARY} REALPATH)
    get_filename_component(real ${real} NAME)
    if(real MATCHES "^libgrpc\\+\\+\\.so\\.([0-9]+\\.[0-9]+)")
      string(APPEND CPACK_DEBIAN_CLANGD_PACKAGE_DEPENDS ", libgrpc++${CMAKE_MATCH_1}")
    elseif(real MATCHES "^libgrpc\\.so\\.([0-9]+)")
      string(APPEND CPACK_DEBIAN_CLANGD_PACKAGE_DEPENDS ", libgrpc${CMAKE_MATCH_1}")
    elseif(real MATCHES "^libprotobuf\\.so\\.([0-9]+)")
      string(APPEND CPACK_DEBIAN_CLANGD_PACKAGE_DEPENDS ", libprotobuf${CMAKE_MATCH_1}")
    elseif(real MATCHES "^libabsl_synchronization\\.so\\.([0-9]+)")
      string(APPEND CPACK_DEBIAN_CLANGD_PACKAGE_DEPENDS ", libabsl${CMAKE_MATCH_1}")
    endif()
  endforeach()
endif()
include(CPack)
