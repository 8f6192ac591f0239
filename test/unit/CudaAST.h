//===--- CudaAST.h - cuda-lambda-tidy tests -----------------------------===//
//
// Parses a CUDA snippet in-process, as clang-tidy would, for unit tests of
// the AST helpers.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_TEST_CUDAAST_H
#define CUDA_LAMBDA_TIDY_TEST_CUDAAST_H

#include "CudaInvocation.h"
#include "CudaToolkit.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <memory>
#include <string>

namespace cuda_lambda_tidy::test {

enum class Pass { Host, Device };

/// The compiler arguments a test parses CUDA with: the drop-in's own parse
/// setup for the test toolkit (cudaParseFlags: thrust and cub on the include
/// path, the CUDA 13 workarounds), clang's resource directory, C++17 and
/// one pass, then \p Extra.
inline std::vector<std::string>
cudaParseArgs(Pass Side, const std::vector<std::string> &Extra = {}) {
  std::optional<CudaToolkit> Toolkit = toolkitOfNvcc(
      CUDA_TOOLKIT_FOR_TESTS "/bin/nvcc", ToolkitEnvironment::real());
  std::vector<std::string> Args =
      Toolkit ? cudaParseFlags(*Toolkit, {}) : std::vector<std::string>();
  Args.push_back("-resource-dir=" CLANG_RESOURCE_DIR_FOR_TESTS);
  Args.push_back("-std=c++17");
  Args.push_back(Side == Pass::Host ? "--cuda-host-only"
                                    : "--cuda-device-only");
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  return Args;
}

/// The snippet parsed as CUDA against the toolkit's headers, in one pass.
inline std::unique_ptr<clang::ASTUnit> parseCuda(const std::string &Code,
                                                 Pass Side = Pass::Host) {
  return clang::tooling::buildASTFromCodeWithArgs(Code, cudaParseArgs(Side),
                                                  "input.cu");
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
