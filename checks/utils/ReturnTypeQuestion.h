//===--- ReturnTypeQuestion.h - cuda-lambda-tidy ------------------------===//
//
// Where host code may ask for the return type of an extended `__device__`
// lambda that nvcc's host pass does not know (H13): the facts the
// cuda-lambda-host-return-type-query check reports from and the drop-in's
// pass probe decides from (checks/probe/PassProbe.h).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_RETURNTYPEQUESTION_H
#define CUDA_LAMBDA_TIDY_UTILS_RETURNTYPEQUESTION_H

#include "clang/AST/ExprCXX.h"
#include "clang/AST/Type.h"
#include <optional>
#include <string>

namespace clang {
class ASTContext;
} // namespace clang

namespace clang::tidy::cuda::utils {

/// The closure class named by \p T: the type itself after references and
/// qualifiers, or the callee of a `result_of<F(Args...)>` function type.
const CXXRecordDecl *closureOrResultCallee(QualType T);

/// Whether the return type of \p Lambda comes from its body, which nvcc's
/// host pass does not see: no trailing return type, or one that mentions a
/// parameter (`-> decltype(x * 2)`).
bool returnTypeHidden(const LambdaExpr &Lambda);

/// The closure whose return type the type \p T asks for, whatever the
/// library calls the question (`std::invoke_result`, libcu++'s
/// `__invoke_of` and `__accumulator_t`, thrust's `result_of_adaptable_function`,
/// a default template argument that asks, as cub's dispatch classes'
/// `AccumT`), with the question's name in \p Name; null when it asks none.
/// \p T, its alias templates and member typedefs are followed one step of
/// sugar at a time, and the template arguments on the way.
const CXXRecordDecl *returnTypeQuestion(QualType T, const ASTContext &Context,
                                        std::string &Name);

/// Whether host code of the user's (outside system headers, outside
/// `__device__` and `__global__` functions and device lambdas) hands an
/// extended `__device__` lambda whose return type is hidden to a library
/// function template whose host code, as instantiated in this pass, asks
/// for that return type (HostLibraryWalk with returnTypeQuestion). Read in
/// the device pass, it tells the drop-in that the host pass has a question
/// to report (thrust::reduce, cub::DeviceReduce::Reduce): std::nullopt when
/// there is none, else "file:line: ..." naming the lambda's line, the
/// library call and the question.
std::optional<std::string> hiddenReturnTypeAskedByLibrary(ASTContext &Context);

} // namespace clang::tidy::cuda::utils

#endif
