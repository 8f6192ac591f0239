//===--- TemplateInstantiation.h - cuda-lambda-tidy ---------------------===//
//
// Whether code lies in a template instantiation, read from declaration
// contexts. clang's own matchers (isInTemplateInstantiation(),
// isInstantiated()) answer by climbing the parent map, which the first such
// question builds for the whole translation unit: 140 MB more on a thrust
// translation unit, for a fact every declaration already knows.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_TEMPLATEINSTANTIATION_H
#define CUDA_LAMBDA_TIDY_UTILS_TEMPLATEINSTANTIATION_H

#include "clang/AST/DeclBase.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"

namespace clang::tidy::cuda::utils {

/// Whether \p D is itself an implicit or explicit instantiation: a function,
/// class or variable template specialization, or a member of one that was
/// instantiated with it (clang's isTemplateInstantiation()).
bool isTemplateInstantiation(const Decl &D);

/// Whether \p D is an instantiation or lies inside one (clang's
/// isInstantiated()): \p D and the declarations around it, as written
/// (lexical contexts, so that a friend defined in a class template counts as
/// part of the class; for a closure type, the declaration whose initializer
/// holds its lambda).
bool isInstantiated(const Decl &D);

/// Whether \p Lambda lies inside an instantiation (clang's
/// isInTemplateInstantiation()): in an instantiated function, class or
/// variable template, including a lambda in the initializer of a variable
/// template or of a static data member, which its closure type's context
/// (the namespace, the class) does not show but its context declaration does.
bool isInTemplateInstantiation(const LambdaExpr &Lambda);

/// Matches lambdas inside a template instantiation.
AST_MATCHER(LambdaExpr, isInTemplateInstantiation) {
  return utils::isInTemplateInstantiation(Node);
}

/// Matches declarations that are, or lie inside, a template instantiation.
AST_MATCHER(Decl, isInstantiated) { return utils::isInstantiated(Node); }

} // namespace clang::tidy::cuda::utils

#endif
