//===--- CudaTidyModule.cpp - cuda-lambda-tidy --------------------------===//
//
// The `cuda` module: registers every check, nothing else.
//
//===----------------------------------------------------------------------===//

#include "DeviceDeducedReturnOnHostCheck.h"
#include "ExtendedLambdaFlagCheck.h"
#include "HostOwningObjectInDeviceCodeCheck.h"
#include "HostPointerInDeviceCodeCheck.h"
#include "HostVariableInDeviceCodeCheck.h"
#include "KernelParamNontrivialCopyCheck.h"
#include "KernelParamReferenceMemberCheck.h"
#include "KernelParamVirtualCheck.h"
#include "KernelTemplateArgumentCheck.h"
#include "LambdaAdlPlaceholderCheck.h"
#include "LambdaAnnotationFormCheck.h"
#include "LambdaArchDependentCheck.h"
#include "LambdaCaptureTypeCheck.h"
#include "LambdaClosureTraitCheck.h"
#include "LambdaDefaultArgumentCheck.h"
#include "LambdaEnclosingFunctionCheck.h"
#include "LambdaEnclosingTemplateCheck.h"
#include "LambdaFunctionPointerConversionCheck.h"
#include "LambdaGenericHostDeviceCheck.h"
#include "LambdaHostReturnTypeQueryCheck.h"
#include "LambdaIfConstexprCaptureCheck.h"
#include "LambdaInDeducedReturnFunctionCheck.h"
#include "LambdaInitCaptureCheck.h"
#include "LambdaMissingAnnotationCheck.h"
#include "LambdaReferenceCaptureCheck.h"
#include "LambdaThisCaptureCheck.h"
#include "NvstdFunctionBoundaryCheck.h"
#include "ReservedNamespaceCheck.h"
#include "StaticInHostDeviceFunctionCheck.h"
#include "StdFunctionInDeviceCodeCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/Basic/Version.h"
// Before clang 22 the registry has a header of its own (ClangTidyModule.h
// holds it since, and the old header warns).
#if CLANG_VERSION_MAJOR < 22
#include "clang-tidy/ClangTidyModuleRegistry.h"
#endif

namespace clang::tidy {
namespace cuda {

class CudaModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &CheckFactories) override {
    CheckFactories.registerCheck<DeviceDeducedReturnOnHostCheck>(
        "cuda-device-deduced-return-on-host");
    CheckFactories.registerCheck<ExtendedLambdaFlagCheck>(
        "cuda-extended-lambda-flag");
    CheckFactories.registerCheck<HostOwningObjectInDeviceCodeCheck>(
        "cuda-host-owning-object-in-device-code");
    CheckFactories.registerCheck<HostPointerInDeviceCodeCheck>(
        "cuda-host-pointer-in-device-code");
    CheckFactories.registerCheck<HostVariableInDeviceCodeCheck>(
        "cuda-host-variable-in-device-code");
    CheckFactories.registerCheck<KernelParamNontrivialCopyCheck>(
        "cuda-kernel-param-nontrivial-copy");
    CheckFactories.registerCheck<KernelParamReferenceMemberCheck>(
        "cuda-kernel-param-reference-member");
    CheckFactories.registerCheck<KernelParamVirtualCheck>(
        "cuda-kernel-param-virtual");
    CheckFactories.registerCheck<KernelTemplateArgumentCheck>(
        "cuda-kernel-template-argument");
    CheckFactories.registerCheck<LambdaAdlPlaceholderCheck>(
        "cuda-lambda-adl-placeholder");
    CheckFactories.registerCheck<LambdaAnnotationFormCheck>(
        "cuda-lambda-annotation-form");
    CheckFactories.registerCheck<LambdaArchDependentCheck>(
        "cuda-lambda-arch-dependent");
    CheckFactories.registerCheck<LambdaCaptureTypeCheck>(
        "cuda-lambda-capture-type");
    CheckFactories.registerCheck<LambdaClosureTraitCheck>(
        "cuda-lambda-closure-trait");
    CheckFactories.registerCheck<LambdaDefaultArgumentCheck>(
        "cuda-lambda-default-argument");
    CheckFactories.registerCheck<LambdaEnclosingFunctionCheck>(
        "cuda-lambda-enclosing-function");
    CheckFactories.registerCheck<LambdaEnclosingTemplateCheck>(
        "cuda-lambda-enclosing-template");
    CheckFactories.registerCheck<LambdaFunctionPointerConversionCheck>(
        "cuda-lambda-function-pointer-conversion");
    CheckFactories.registerCheck<LambdaGenericHostDeviceCheck>(
        "cuda-lambda-generic-host-device");
    CheckFactories.registerCheck<LambdaHostReturnTypeQueryCheck>(
        "cuda-lambda-host-return-type-query");
    CheckFactories.registerCheck<LambdaIfConstexprCaptureCheck>(
        "cuda-lambda-if-constexpr-capture");
    CheckFactories.registerCheck<LambdaInDeducedReturnFunctionCheck>(
        "cuda-lambda-in-deduced-return-function");
    CheckFactories.registerCheck<LambdaInitCaptureCheck>(
        "cuda-lambda-init-capture");
    CheckFactories.registerCheck<LambdaMissingAnnotationCheck>(
        "cuda-lambda-missing-annotation");
    CheckFactories.registerCheck<LambdaReferenceCaptureCheck>(
        "cuda-lambda-reference-capture");
    CheckFactories.registerCheck<LambdaThisCaptureCheck>(
        "cuda-lambda-this-capture");
    CheckFactories.registerCheck<NvstdFunctionBoundaryCheck>(
        "cuda-nvstd-function-boundary");
    CheckFactories.registerCheck<ReservedNamespaceCheck>(
        "cuda-reserved-namespace");
    CheckFactories.registerCheck<StaticInHostDeviceFunctionCheck>(
        "cuda-static-in-host-device-function");
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
