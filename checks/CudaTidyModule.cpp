//===--- CudaTidyModule.cpp - cuda-lambda-tidy --------------------------===//
//
// The `cuda` module: registers every check, nothing else.
//
//===----------------------------------------------------------------------===//

#include "ExtendedLambdaFlagCheck.h"
#include "HostVariableInDeviceCodeCheck.h"
#include "LambdaClosureTraitCheck.h"
#include "LambdaHostReturnTypeQueryCheck.h"
#include "LambdaReferenceCaptureCheck.h"
#include "StdFunctionInDeviceCodeCheck.h"
#include "clang-tidy/ClangTidyModule.h"

namespace clang::tidy {
namespace cuda {

class CudaModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &CheckFactories) override {
    CheckFactories.registerCheck<ExtendedLambdaFlagCheck>(
        "cuda-extended-lambda-flag");
    CheckFactories.registerCheck<HostVariableInDeviceCodeCheck>(
        "cuda-host-variable-in-device-code");
    CheckFactories.registerCheck<LambdaClosureTraitCheck>(
        "cuda-lambda-closure-trait");
    CheckFactories.registerCheck<LambdaHostReturnTypeQueryCheck>(
        "cuda-lambda-host-return-type-query");
    CheckFactories.registerCheck<LambdaReferenceCaptureCheck>(
        "cuda-lambda-reference-capture");
    CheckFactories.registerCheck<StdFunctionInDeviceCodeCheck>(
        "cuda-std-function-in-device-code");
  }
};

} // namespace cuda

static ClangTidyModuleRegistry::Add<cuda::CudaModule>
    CudaModuleRegistration("cuda-module",
                           "Checks for nvcc extended lambdas and the CUDA "
                           "hazards around them.");

// Referenced by the drop-in binary and the plugin so that the linker keeps
// this object file, and with it the registration above.
volatile int CudaModuleAnchorSource = 0;

} // namespace clang::tidy
