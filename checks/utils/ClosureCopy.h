//===--- ClosureCopy.h - cuda-lambda-tidy -------------------------------===//
//
// Whether an object can travel to the device inside a lambda's closure by
// value: the closure is copied byte for byte into the kernel's parameters,
// so only a small, trivially copyable object with no references arrives
// intact.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_CLOSURECOPY_H
#define CUDA_LAMBDA_TIDY_UTILS_CLOSURECOPY_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"

namespace clang::tidy::cuda::utils {

/// Why a class cannot be captured by copy (`[*this]`, `[x]`) into a device
/// closure, or None when it can.
enum class ClosureCopyBlocker {
  None,
  /// Its copy constructor is user-provided, or a member's is (such as
  /// `std::vector` or `thrust::device_vector`): the host copy deep-copies on
  /// every launch, and device code copying the closure calls a host function.
  NotTriviallyCopyable,
  /// A reference member: the copy still refers to the host's object.
  ReferenceMember,
  /// Larger than the classic 4 KiB of kernel parameters.
  TooLarge,
  /// A member or base whose type depends on a template parameter (other
  /// than a pointer), and no instantiation in this translation unit to
  /// decide by.
  Dependent,
  /// Only declared: nothing is known.
  Incomplete,
};

/// The most kernel-parameter bytes one captured object may take.
constexpr unsigned MaxClosureCopyBytes = 4096;

/// For a class template's pattern, members of dependent type are judged by
/// the class's instantiations in this translation unit: the first blocker
/// any of them has, None when all of them can be copied.
ClosureCopyBlocker closureCopyBlockerOf(const CXXRecordDecl &Record,
                                        const ASTContext &Context);

} // namespace clang::tidy::cuda::utils

#endif
