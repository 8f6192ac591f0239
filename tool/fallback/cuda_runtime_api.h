//===--- cuda_runtime_api.h - cuda-lambda-tidy ----------------------------===//
//
// Without a CUDA toolkit, `#include <cuda_runtime_api.h>` finds this file:
// the declarations cuda-lambda-tidy parses instead of the toolkit's.
//
//===----------------------------------------------------------------------===//

#pragma clang system_header
#include "cuda_lambda_tidy_fallback.h"
