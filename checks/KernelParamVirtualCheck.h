//===--- KernelParamVirtualCheck.h - cuda-lambda-tidy -----------===//

#ifndef CUDA_LAMBDA_TIDY_KERNELPARAMVIRTUALCHECK_H
#define CUDA_LAMBDA_TIDY_KERNELPARAMVIRTUALCHECK_H

#include "utils/DeviceReach.h"
#include "utils/SharedDispatch.h"
#include <vector>
#include "utils/KernelBoundaryCheck.h"

namespace clang::tidy::cuda {

/// Flags objects of polymorphic classes that cross to the device (H32): by
/// value (also as a member held by value) passed to a kernel, captured by an
/// extended lambda or handed to a device algorithm, or a pointer to one that
/// was provably constructed on the host. The vtable pointer is the host's.
class KernelParamVirtualCheck : public utils::KernelBoundaryCheck {
public:
  using KernelBoundaryCheck::KernelBoundaryCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// Its registrations of node tests (utils::matchNodes).
  std::vector<utils::SharedRegistration> NodeMatches;
  /// A pointer to an object of polymorphic class \p Record, constructed on
  /// the host at \p Construction, crosses at \p Crossing.
  void reportHostConstructed(const utils::BoundaryCrossing &Crossing,
                             const CXXRecordDecl &Record,
                             const CXXMethodDecl &Virtual,
                             SourceLocation Construction);
  /// The crossings of host function \p Function whose value is a
  /// new-expression: constructed on the host, right at the crossing.
  void checkNewAtCrossings(const FunctionDecl &Function,
                           utils::DeviceReach &Reach);
};

} // namespace clang::tidy::cuda

#endif
