//===--- CudaAST.h - cuda-lambda-tidy tests -----------------------------===//
//
// Parses a CUDA snippet in-process, as clang-tidy would, for unit tests of
// the AST helpers.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_TEST_CUDAAST_H
#define CUDA_LAMBDA_TIDY_TEST_CUDAAST_H

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <memory>
#include <string>

namespace cuda_lambda_tidy::test {

enum class Pass { Host, Device };

/// The snippet parsed as CUDA against the toolkit's headers, in one pass.
inline std::unique_ptr<clang::ASTUnit> parseCuda(const std::string &Code,
                                                 Pass Side = Pass::Host) {
  std::vector<std::string> Args = {
      "-x", "cuda", "--cuda-path=" CUDA_TOOLKIT_FOR_TESTS, "-nocudalib",
      "--cuda-gpu-arch=sm_80", "-Wno-unknown-cuda-version",
      "-resource-dir=" CLANG_RESOURCE_DIR_FOR_TESTS, "-Xclang",
      "-target-sdk-version=12.9", "-std=c++17",
      Side == Pass::Host ? "--cuda-host-only" : "--cuda-device-only"};
  return clang::tooling::buildASTFromCodeWithArgs(Code, Args, "input.cu");
}

/// The first node bound to "n" by \p Matcher, or null.
template <typename NodeT, typename MatcherT>
const NodeT *findFirst(clang::ASTUnit &AST, const MatcherT &Matcher) {
  auto Found =
      clang::ast_matchers::match(Matcher.bind("n"), AST.getASTContext());
  return Found.empty() ? nullptr : Found.front().template getNodeAs<NodeT>("n");
}

} // namespace cuda_lambda_tidy::test

#endif
