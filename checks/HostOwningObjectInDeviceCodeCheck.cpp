//===--- HostOwningObjectInDeviceCodeCheck.cpp - cuda-lambda-tidy -------===//

#include "HostOwningObjectInDeviceCodeCheck.h"
#include "utils/AncestorWalk.h"
#include "utils/DeviceReach.h"
#include "utils/ExecutionSpace.h"
#include "utils/ExtendedLambda.h"
#include "utils/KernelBoundary.h"
#include "utils/TypeFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

/// Calls followed from the crossing into the functions device code calls
/// (a helper taking the object by reference, a member function reading it).
constexpr unsigned MaxOwningCallDepth = 4;

/// Whether \p Decl belongs to a library (a system header, or namespace
/// `std`, `thrust`, `cub`...), whose code is not looked into: a call there
/// with the object counts as a use of it.
bool isLibraryOwnCode(const Decl &D) {
  const SourceManager &SM = D.getASTContext().getSourceManager();
  if (SM.isInSystemHeader(D.getLocation()) || D.isInStdNamespace())
    return true;
  const auto *Record = dyn_cast<CXXRecordDecl>(D.getDeclContext());
  return Record && utils::isLibraryType(*Record);
}

/// Whether \p Field lies inside a host-owning class (`std::vector`'s own
/// pointers, in its bases and nested classes): reading it reads the host
/// memory's address.
bool isOwningClassMember(const FieldDecl &Field) {
  for (const DeclContext *C = Field.getDeclContext(); C; C = C->getParent())
    if (const auto *Record = dyn_cast<CXXRecordDecl>(C))
      if (utils::isHostOwningClass(*Record))
        return true;
  return false;
}

/// Whether reading the data members \p Fields (outermost first) of an
/// object reaches its host memory: the last one read holds a host-owning
/// class, or one of them belongs to one.
bool readsHostMemory(llvm::ArrayRef<const FieldDecl *> Fields) {
  for (const FieldDecl *Field : Fields)
    if (isOwningClassMember(*Field))
      return true;
  return !Fields.empty() &&
         utils::findHostOwningPart(Fields.front()->getType()).has_value();
}

/// Finds the first use of an object's host memory in one function's code:
/// a reference to the object (the variable \c Var, or `this` when \c Var is
/// null) other than in an unevaluated operand, other than reading a data
/// member that holds no host memory (`params.n`), and other than passing
/// it to a function of the user's own whose code does not use it either.
class HostMemoryUseFinder : public RecursiveASTVisitor<HostMemoryUseFinder> {
  using Base = RecursiveASTVisitor<HostMemoryUseFinder>;

public:
  HostMemoryUseFinder(HostOwningObjectInDeviceCodeCheck &Check, const ValueDecl *Var,
            unsigned Depth)
      : Check(Check), Var(Var), Depth(Depth) {}

  std::optional<SourceLocation> Found;

  bool shouldVisitTemplateInstantiations() const { return false; }

  // Unevaluated operands read nothing.
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) {
    return true;
  }
  bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *) { return true; }
  bool TraverseDecltypeTypeLoc(DecltypeTypeLoc, bool = true) { return true; }
  bool TraverseTypeOfExprTypeLoc(TypeOfExprTypeLoc, bool = true) {
    return true;
  }
  bool TraverseRequiresExpr(RequiresExpr *) { return true; }
  bool TraverseCXXTypeidExpr(CXXTypeidExpr *E) {
    return E->isPotentiallyEvaluated() ? Base::TraverseCXXTypeidExpr(E) : true;
  }

  bool TraverseMemberExpr(MemberExpr *Member) {
    llvm::SmallVector<const FieldDecl *, 4> Fields;
    if (!fieldsOfObject(Member, Fields))
      return Base::TraverseMemberExpr(Member);
    if (readsHostMemory(Fields))
      found(Member->getBeginLoc());
    return !Found;
  }

  bool TraverseCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    if (memberCall(Call->getImplicitObjectArgument(), Call->getMethodDecl(),
                   Call->getBeginLoc())) {
      for (Expr *Arg : Call->arguments())
        if (!TraverseStmt(Arg))
          return false;
      return !Found;
    }
    return Base::TraverseCXXMemberCallExpr(Call);
  }

  bool TraverseCXXOperatorCallExpr(CXXOperatorCallExpr *Call) {
    const auto *Method =
        dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
    if (Method && Call->getNumArgs() > 0 &&
        memberCall(Call->getArg(0), Method, Call->getBeginLoc())) {
      for (unsigned I = 1; I < Call->getNumArgs(); ++I)
        if (!TraverseStmt(Call->getArg(I)))
          return false;
      return !Found;
    }
    return Base::TraverseCXXOperatorCallExpr(Call);
  }

  bool TraverseCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return Base::TraverseCallExpr(Call);
    const FunctionDecl *Definition = nullptr;
    Callee->hasBody(Definition);
    for (unsigned I = 0, N = Call->getNumArgs(); I < N; ++I) {
      const Expr *Arg = Call->getArg(I);
      // The object itself bound to a reference parameter: what the callee
      // does with it decides.
      if (isObject(Arg) && I < Callee->getNumParams() &&
          Callee->getParamDecl(I)->getType()->isReferenceType()) {
        if (Definition && !isLibraryOwnCode(*Definition) &&
            Depth < MaxOwningCallDepth && I < Definition->getNumParams()) {
          if (Check.firstUse(Definition->getBody(),
                             Definition->getParamDecl(I), Depth + 1))
            found(Arg->getBeginLoc());
        } else {
          found(Arg->getBeginLoc());
        }
        if (Found)
          return false;
        continue;
      }
      if (!TraverseStmt(const_cast<Expr *>(Arg)))
        return false;
    }
    return !Found;
  }

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (Var && Ref->getDecl() == Var)
      found(Ref->getLocation());
    return !Found;
  }
  bool VisitCXXThisExpr(CXXThisExpr *This) {
    if (!Var)
      found(This->getBeginLoc());
    return !Found;
  }

private:
  void found(SourceLocation Loc) {
    if (!Found)
      Found = Loc;
  }

  /// Whether \p E is the object itself.
  bool isObject(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    if (Var) {
      const auto *Ref = dyn_cast<DeclRefExpr>(E);
      return Ref && Ref->getDecl() == Var;
    }
    if (const auto *Deref = dyn_cast<UnaryOperator>(E);
        Deref && Deref->getOpcode() == UO_Deref)
      E = Deref->getSubExpr()->IgnoreParenImpCasts();
    return isa<CXXThisExpr>(E);
  }

  /// Whether \p E reads data members of the object (`o.a.b`, `this->a`),
  /// and which, outermost first; true with none for the object itself.
  bool fieldsOfObject(const Expr *E,
                      llvm::SmallVectorImpl<const FieldDecl *> &Fields) const {
    E = E->IgnoreParenImpCasts();
    while (const auto *Member = dyn_cast<MemberExpr>(E)) {
      const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
      if (!Field)
        return false;
      Fields.push_back(Field);
      const Expr *Base = Member->getBase()->IgnoreParenImpCasts();
      if (Member->isArrow())
        return !Var && isa<CXXThisExpr>(Base);
      E = Base;
    }
    return isObject(E);
  }

  /// A call of \p Method on \p Object: true when \p Object is the object or
  /// one of its members, then judged (a use when it reaches host memory and
  /// the method, unless the user's own code shows otherwise, reads it).
  bool memberCall(const Expr *Object, const CXXMethodDecl *Method,
                  SourceLocation Loc) {
    llvm::SmallVector<const FieldDecl *, 4> Fields;
    if (!Object || !fieldsOfObject(Object, Fields))
      return false;
    if (!Fields.empty() && !readsHostMemory(Fields))
      return true;
    const FunctionDecl *Definition = nullptr;
    if (Method && !Method->isStatic() && Method->hasBody(Definition) &&
        !isLibraryOwnCode(*Definition) && Depth < MaxOwningCallDepth &&
        !utils::isHostOwningClass(*Method->getParent())) {
      if (Check.firstUse(Definition->getBody(), nullptr, Depth + 1))
        found(Loc);
    } else if (!Method || !Method->isStatic()) {
      found(Loc);
    }
    return true;
  }

  HostOwningObjectInDeviceCodeCheck &Check;
  const ValueDecl *Var;
  unsigned Depth;
};

/// What a crossing value is called in a diagnostic: the variable it reads,
/// or its text (the logic of HostPointerInDeviceCodeCheck.cpp's nameOf).
std::string owningValueName(const utils::BoundaryCrossing &C, const ASTContext &Ctx) {
  if (C.CapturedVar)
    return C.CapturedVar->getNameAsString();
  if (C.Capture && C.Capture->getCaptureKind() == LCK_StarThis)
    return "*this";
  const Expr *Value = C.Value->IgnoreParenImpCasts();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Value);
      Construct && Construct->getNumArgs() == 1)
    Value = Construct->getArg(0)->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Value))
    return Ref->getDecl()->getNameAsString();
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Text =
      Lexer::getSourceText(SM.getExpansionRange(C.Value->getSourceRange()),
                           SM, Ctx.getLangOpts())
          .str();
  if (Text.size() > 40)
    Text = Text.substr(0, 37) + "...";
  return Text;
}

/// `cub::DeviceReduce::Sum`, `thrust::for_each`.
std::string owningCalleeName(const FunctionDecl &Callee) {
  if (const auto *Method = dyn_cast<CXXMethodDecl>(&Callee)) {
    std::string Class = utils::qualifiedNameWithoutInline(*Method->getParent());
    if (!Class.empty())
      return Class + "::" + Method->getNameAsString();
  }
  std::string Name = utils::qualifiedNameWithoutInline(Callee);
  return Name.empty() ? Callee.getNameAsString() : Name;
}

} // namespace

std::optional<SourceLocation>
HostOwningObjectInDeviceCodeCheck::firstUse(const Stmt *Body,
                                            const ValueDecl *Var,
                                            unsigned Depth) {
  if (!Body)
    return std::nullopt;
  auto [It, Inserted] = UseCache.try_emplace({Body, Var}, std::nullopt);
  if (!Inserted)
    return It->second; // also a recursion in progress: no use found yet
  HostMemoryUseFinder Finder(*this, Var, Depth);
  Finder.TraverseStmt(const_cast<Stmt *>(Body));
  return UseCache[{Body, Var}] = Finder.Found;
}

void HostOwningObjectInDeviceCodeCheck::report(
    const utils::BoundaryCrossing &C, const utils::HostOwningPart &Part,
    SourceLocation Use, const ASTContext &Ctx) {
  markReported(C);
  unsigned Route = 0;
  std::string Where;
  switch (C.Kind) {
  case utils::CrossingKind::LambdaCapture:
    Route = 0;
    Where = utils::spelling(utils::extendedLambdaKindOf(*C.Lambda)).str();
    break;
  case utils::CrossingKind::KernelArgument:
    Route = 1;
    Where = C.Callee->getNameAsString();
    break;
  case utils::CrossingKind::AlgorithmArgument:
    Route = 2;
    Where = owningCalleeName(*C.Callee);
    break;
  }
  diag(C.Loc, "'%0' of type %1 is copied into device code %select{by "
              "extended %3 lambda|as an argument of kernel '%3'|as an "
              "argument of device algorithm '%3'}2 and owns host heap "
              "memory, which the device cannot read; %select{capture|pass|"
              "pass}2 a pointer to device memory (thrust::device_vector's "
              "data, cudaMalloc) or a view of it instead")
      << owningValueName(C, Ctx) << C.Type.getNonReferenceType().getUnqualifiedType()
      << Route << Where;
  noteHandedOn(C);
  if (!Part.isItself()) {
    const utils::HostOwningPart::Step &Last = Part.Steps.back();
    if (Last.Member)
      diag(Last.Member->getLocation(),
           "member '%0' is a %1, which owns host heap memory",
           DiagnosticIDs::Note)
          << Part.memberPath() << Part.OwningType;
    else
      diag(Last.Base->getBeginLoc(),
           "%0 derives from %1, which owns host heap memory",
           DiagnosticIDs::Note)
          << Last.Within << Part.OwningType;
  }
  // An implicit capture is reported at its first use already.
  const SourceManager &SM = Ctx.getSourceManager();
  if (Use.isValid() &&
      SM.getFileLoc(Use) != SM.getFileLoc(C.Loc))
    diag(Use, "used on the device here", DiagnosticIDs::Note);
}

/// Whether the check leaves \p Type to another check or to the project.
static bool ownedElsewhere(QualType Type) {
  // A std::function inside: cuda-std-function-in-device-code's.
  return utils::findStdFunctionIn(Type).has_value();
}

void HostOwningObjectInDeviceCodeCheck::judgeCapture(
    const utils::BoundaryCrossing &C, const ASTContext &Ctx) {
  // A variable, or `[*this]`: a copy of the whole object (its uses in the
  // body are `this`, which then names the copy).
  const bool StarThis =
      C.Capture && C.Capture->getCaptureKind() == LCK_StarThis;
  if ((!C.CapturedVar && !StarThis) || !C.Lambda || alreadyReported(C))
    return;
  std::optional<utils::HostOwningPart> Part =
      utils::findHostOwningPart(C.Type);
  if (!Part || (Part->Owner && allowed(*Part->Owner)) || ownedElsewhere(C.Type))
    return;
  if (const CXXRecordDecl *Record = C.Type->getAsCXXRecordDecl();
      Record && allowed(*Record))
    return;
  std::optional<SourceLocation> Use =
      firstUse(C.Lambda->getBody(), C.CapturedVar, 0);
  if (!Use)
    return;
  report(C, *Part, *Use, Ctx);
}

void HostOwningObjectInDeviceCodeCheck::judgeArgument(
    const utils::BoundaryCrossing &C, const ASTContext &Ctx) {
  if (alreadyReported(C) || !C.Callee)
    return;
  std::optional<utils::HostOwningPart> Part =
      utils::findHostOwningPart(C.Type);
  if (!Part || (Part->Owner && allowed(*Part->Owner)) || ownedElsewhere(C.Type))
    return;
  const CXXRecordDecl *Record =
      C.Type.getNonReferenceType()->getAsCXXRecordDecl();
  if (Record && allowed(*Record))
    return;
  // A closure inside a functor: its captures are judged at its lambda.
  for (const utils::HostOwningPart::Step &S : Part->Steps)
    if (S.Within->isLambda())
      return;
  std::optional<SourceLocation> Use;
  if (C.Kind == utils::CrossingKind::KernelArgument) {
    const FunctionDecl *Kernel = nullptr;
    if (!C.Callee->hasBody(Kernel) || C.ArgIndex >= Kernel->getNumParams())
      return;
    Use = firstUse(Kernel->getBody(), Kernel->getParamDecl(C.ArgIndex), 0);
  } else {
    // The algorithm runs a functor's call operator on the device, and
    // handles a value of a host-owning type itself.
    if (Part->isItself() || !Record) {
      Use = SourceLocation();
    } else {
      for (const Decl *D : Record->decls()) {
        llvm::SmallVector<const FunctionDecl *, 2> Operators;
        if (const auto *Method = dyn_cast<CXXMethodDecl>(D))
          Operators.push_back(Method);
        else if (const auto *Template = dyn_cast<FunctionTemplateDecl>(D))
          for (const FunctionDecl *Spec : Template->specializations())
            Operators.push_back(Spec);
        for (const FunctionDecl *Operator : Operators) {
          if (Operator->getOverloadedOperator() != OO_Call)
            continue;
          const FunctionDecl *Definition = nullptr;
          if (Operator->hasBody(Definition))
            if ((Use = firstUse(Definition->getBody(), nullptr, 0)))
              break;
        }
        if (Use)
          break;
      }
    }
  }
  if (!Use)
    return;
  report(C, *Part, *Use, Ctx);
}

void HostOwningObjectInDeviceCodeCheck::check(
    const MatchFinder::MatchResult &Result) {
  // The device pass sees what the device compiles: a use in an
  // `#ifndef __CUDA_ARCH__` branch is not there.
  if (!getLangOpts().CUDAIsDevice)
    return;
  const ASTContext &Ctx = *Result.Context;
  for (const utils::BoundaryCrossing &C : crossingsOf(Result)) {
    if (C.Kind == utils::CrossingKind::LambdaCapture) {
      // A __host__ __device__ lambda crosses when it is handed over below,
      // or when a kernel is instantiated with its type (however the host
      // launches it). The type is asked first: the kernels of the unit are
      // indexed on the first question, which reads every declaration of a
      // precompiled preamble.
      if (utils::findHostOwningPart(C.Type) &&
          (utils::extendedLambdaKindOf(*C.Lambda) ==
               utils::ExtendedLambdaKind::Device ||
           reach().kernelInstantiatedWith(*C.Lambda->getLambdaClass())))
        judgeCapture(C, Ctx);
      continue;
    }
    const CXXRecordDecl *Record =
        C.Type.getNonReferenceType()->getAsCXXRecordDecl();
    if (Record && Record->isLambda()) {
      // A __host__ __device__ lambda handed to a kernel or a device
      // algorithm (here, or through a host template such as `apply`): its
      // captures cross now. A __device__ lambda's were judged at it.
      const CXXMethodDecl *Operator = Record->getLambdaCallOperator();
      if (!Operator ||
          utils::executionSpaceOf(*Operator) !=
              utils::ExecutionSpace::HostDevice ||
          !JudgedClosures.insert(Record).second)
        continue;
      // Mostly written at the crossing itself: no search of the function
      // around it then.
      const LambdaExpr *Lambda = utils::lambdaOf(C.Value);
      if (!Lambda || Lambda->getLambdaClass() != Record)
        Lambda = utils::findLambda(*Record).Lambda;
      if (!Lambda || utils::extendedLambdaKindOf(*Lambda) !=
                         utils::ExtendedLambdaKind::HostDevice)
        continue;
      for (const utils::BoundaryCrossing &Capture :
           utils::crossingsOfCaptures(*Lambda))
        judgeCapture(Capture, Ctx);
      continue;
    }
    judgeArgument(C, Ctx);
  }
}

} // namespace clang::tidy::cuda
