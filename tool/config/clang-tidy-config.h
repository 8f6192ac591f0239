// clang-tidy's ClangTidyForceLinker.h includes this file, which Debian's
// clang-tidy headers do not ship. The values match Debian's clang-tidy-22,
// which is built with the static analyzer and the query-based custom checks.
#ifndef CUDA_LAMBDA_TIDY_CLANG_TIDY_CONFIG_H
#define CUDA_LAMBDA_TIDY_CLANG_TIDY_CONFIG_H
#define CLANG_TIDY_ENABLE_STATIC_ANALYZER 1
#define CLANG_TIDY_ENABLE_QUERY_BASED_CUSTOM_CHECKS 1
#endif
