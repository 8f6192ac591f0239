//===--- NoResourceHeaders.cpp - cuda-lambda-tidy -----------------------===//
//
// The cuda-lambda-tidy that links LLVM's shared libraries uses clang's
// resource headers where LLVM installed them (CLANG_RESOURCE_DIR): it
// carries none (ResourceHeaders.cpp is the self-contained binary's).
//
//===----------------------------------------------------------------------===//

#include "FallbackHeaders.h"

namespace cuda_lambda_tidy {

llvm::ArrayRef<FallbackHeader> embeddedResourceHeaders() { return {}; }

} // namespace cuda_lambda_tidy
