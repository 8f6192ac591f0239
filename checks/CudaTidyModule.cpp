//===--- CudaTidyModule.cpp - cuda-lambda-tidy --------------------------===//
//
// The `cuda` module: registers every check, nothing else.
//
//===----------------------------------------------------------------------===//

#include "LambdaAnnotationFormCheck.h"
#include "LambdaMissingAnnotationCheck.h"
#include "LambdaReferenceCaptureCheck.h"
#include "clang-tidy/ClangTidyModule.h"

namespace clang::tidy {
namespace cuda {

class CudaModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &CheckFactories) override {
    CheckFactories.registerCheck<LambdaAnnotationFormCheck>(
        "cuda-lambda-annotation-form");
    CheckFactories.registerCheck<LambdaMissingAnnotationCheck>(
        "cuda-lambda-missing-annotation");
    CheckFactories.registerCheck<LambdaReferenceCaptureCheck>(
        "cuda-lambda-reference-capture");
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
