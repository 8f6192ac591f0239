//===--- KernelBoundary.cpp - cuda-lambda-tidy --------------------------===//

#include "KernelBoundary.h"
#include "ExecutionSpace.h"
#include "ExtendedLambda.h"
#include "NodeDispatch.h"
#include "SourceText.h"
#include "TypeFacts.h"
#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Regex.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda::utils {

namespace {

/// Nesting of template arguments and bases followed to find a device
/// system tag (thrust's deepest iterator adaptors nest about five deep).
constexpr unsigned MaxSystemTagDepth = 8;

/// Whether \p Record or one of its bases is named \p Name (the name as
/// `qualifiedNameWithoutInline` spells it).
bool isOrDerivesFrom(const CXXRecordDecl &Record, llvm::StringRef Name,
                     unsigned Depth = 0) {
  if (Depth > MaxSystemTagDepth)
    return false;
  if (qualifiedNameWithoutInline(Record) == Name)
    return true;
  const CXXRecordDecl *Definition = Record.getDefinition();
  if (!Definition)
    return false;
  for (const CXXBaseSpecifier &Base : Definition->bases())
    if (const CXXRecordDecl *BaseDecl = Base.getType()->getAsCXXRecordDecl())
      if (isOrDerivesFrom(*BaseDecl, Name, Depth + 1))
        return true;
  return false;
}

bool isThrustExecutionPolicy(QualType Type) {
  const CXXRecordDecl *Record =
      Type.getNonReferenceType()->getAsCXXRecordDecl();
  return Record &&
         isOrDerivesFrom(*Record, "thrust::detail::execution_policy_base");
}

bool isDeviceSystemTypeAt(QualType Type, unsigned Depth) {
  if (Depth > MaxSystemTagDepth)
    return false;
  const CXXRecordDecl *Record =
      Type.getNonReferenceType()->getAsCXXRecordDecl();
  if (!Record)
    return false;
  if (isOrDerivesFrom(*Record, "thrust::cuda_cub::execution_policy"))
    return true;
  if (const auto *Specialization =
          dyn_cast<ClassTemplateSpecializationDecl>(Record))
    for (const TemplateArgument &Arg :
         Specialization->getTemplateArgs().asArray())
      if (Arg.getKind() == TemplateArgument::Type &&
          isDeviceSystemTypeAt(Arg.getAsType(), Depth + 1))
        return true;
  if (const CXXRecordDecl *Definition = Record->getDefinition())
    for (const CXXBaseSpecifier &Base : Definition->bases())
      if (isDeviceSystemTypeAt(Base.getType(), Depth + 1))
        return true;
  return false;
}

/// thrust's algorithms that, called without a policy, dispatch on their
/// iterators' system.
bool isThrustAlgorithmName(llvm::StringRef Name) {
  static const llvm::StringSet<> Names = {
      "adjacent_difference", "adjacent_find", "all_of", "any_of",
      "binary_search", "copy", "copy_if", "copy_n", "count", "count_if",
      "equal", "equal_range", "exclusive_scan", "exclusive_scan_by_key",
      "fill", "fill_n", "find", "find_if", "find_if_not", "for_each",
      "for_each_n", "gather", "gather_if", "generate", "generate_n",
      "inclusive_scan", "inclusive_scan_by_key", "inner_product",
      "is_partitioned", "is_sorted", "is_sorted_until", "lower_bound",
      "max_element", "merge", "merge_by_key", "min_element",
      "minmax_element", "mismatch", "none_of", "partition",
      "partition_copy", "partition_point", "reduce", "reduce_by_key",
      "remove", "remove_copy", "remove_copy_if", "remove_if", "replace",
      "replace_copy", "replace_copy_if", "replace_if", "reverse",
      "reverse_copy", "scatter", "scatter_if", "sequence",
      "set_difference", "set_difference_by_key", "set_intersection",
      "set_intersection_by_key", "set_symmetric_difference",
      "set_symmetric_difference_by_key", "set_union", "set_union_by_key",
      "shuffle", "shuffle_copy", "sort", "sort_by_key", "stable_partition",
      "stable_partition_copy", "stable_sort", "stable_sort_by_key",
      "swap_ranges", "tabulate", "transform", "transform_exclusive_scan",
      "transform_if", "transform_inclusive_scan", "transform_reduce",
      "uninitialized_copy", "uninitialized_copy_n", "uninitialized_fill",
      "uninitialized_fill_n", "unique", "unique_by_key",
      "unique_by_key_copy", "unique_copy", "unique_count", "upper_bound"};
  return Names.contains(Name);
}

/// Whether \p Type is `cudaStream_t` (a pointer to `CUstream_st`).
bool isStream(QualType Type) {
  const auto *Pointer = Type.getNonReferenceType()->getAs<PointerType>();
  if (!Pointer)
    return false;
  const RecordDecl *Record = Pointer->getPointeeType()->getAsRecordDecl();
  return Record && Record->getName() == "CUstream_st";
}

/// Whether cub's parameter \p Param stays on the host: the size of the
/// temporary storage, written through a reference, and the stream.
bool staysOnHost(const ParmVarDecl &Param) {
  QualType Type = Param.getType();
  if (Type->isLValueReferenceType() &&
      !Type.getNonReferenceType().isConstQualified())
    return true;
  return isStream(Type);
}

SourceLocation locationOf(const Expr &Value) {
  return Value.getBeginLoc();
}

} // namespace

bool isDeviceExecutionPolicy(QualType Type) {
  const CXXRecordDecl *Record =
      Type.getNonReferenceType()->getAsCXXRecordDecl();
  if (!Record)
    return false;
  // A policy seen through its base, as generic code passes it on:
  // `execution_policy_base<DerivedPolicy>`.
  if (const auto *Base = dyn_cast<ClassTemplateSpecializationDecl>(Record);
      Base && qualifiedNameWithoutInline(*Base) ==
                  "thrust::detail::execution_policy_base") {
    const TemplateArgumentList &Args = Base->getTemplateArgs();
    return Args.size() == 1 && Args[0].getKind() == TemplateArgument::Type &&
           isDeviceExecutionPolicy(Args[0].getAsType());
  }
  return isOrDerivesFrom(*Record, "thrust::cuda_cub::execution_policy");
}

bool isDeviceSystemType(QualType Type) {
  return isDeviceSystemTypeAt(Type, 0);
}

bool isLibraryType(const CXXRecordDecl &Record) {
  const SourceManager &SM = Record.getASTContext().getSourceManager();
  if (SM.isInSystemHeader(Record.getLocation()))
    return true;
  const NamespaceDecl *Outermost = nullptr;
  for (const DeclContext *C = Record.getDeclContext(); C; C = C->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(C);
        NS && !NS->isInline() && !NS->isAnonymousNamespace())
      Outermost = NS;
  if (!Outermost)
    return false;
  static constexpr llvm::StringLiteral Libraries[] = {
      "std", "thrust", "cub", "cuda", "nv", "cooperative_groups"};
  return llvm::is_contained(Libraries, Outermost->getName());
}

bool isDeviceLambdaClosure(const CXXRecordDecl &Record) {
  if (!Record.isLambda())
    return false;
  const CXXMethodDecl *CallOperator = Record.getLambdaCallOperator();
  if (!CallOperator)
    return false;
  return hasExplicitDeviceAttr(*CallOperator);
}

llvm::SmallVector<BoundaryCrossing, 4>
crossingsOfLaunch(const CUDAKernelCallExpr &Launch) {
  llvm::SmallVector<BoundaryCrossing, 4> Crossings;
  const FunctionDecl *Kernel = Launch.getDirectCallee();
  if (!Kernel)
    return Crossings;
  const unsigned Count =
      std::min<unsigned>(Launch.getNumArgs(), Kernel->getNumParams());
  for (unsigned I = 0; I < Count; ++I) {
    const Expr *Arg = Launch.getArg(I);
    QualType Type = Kernel->getParamDecl(I)->getType();
    if (isa<CXXDefaultArgExpr>(Arg) || Type->isDependentType())
      continue;
    BoundaryCrossing Crossing;
    Crossing.Kind = CrossingKind::KernelArgument;
    Crossing.Value = Arg;
    Crossing.Type = Type;
    Crossing.Loc = locationOf(*Arg);
    Crossing.Call = &Launch;
    Crossing.Callee = Kernel;
    Crossing.ArgIndex = I;
    Crossings.push_back(Crossing);
  }
  return Crossings;
}

llvm::SmallVector<BoundaryCrossing, 4>
crossingsOfCaptures(const LambdaExpr &Lambda) {
  llvm::SmallVector<BoundaryCrossing, 4> Crossings;
  if (!isExtendedLambda(Lambda))
    return Crossings;
  const CXXRecordDecl *Closure = Lambda.getLambdaClass();
  if (!Closure)
    return Crossings;
  llvm::DenseMap<const ValueDecl *, FieldDecl *> Fields;
  FieldDecl *ThisField = nullptr;
  Closure->getCaptureFields(Fields, ThisField);
  const Expr *const *Init = Lambda.capture_init_begin();
  for (const LambdaCapture &Capture : Lambda.captures()) {
    const Expr *Value = *Init++;
    const FieldDecl *Field = nullptr;
    const ValueDecl *Var = nullptr;
    if (Capture.capturesThis())
      Field = ThisField;
    else if (Capture.capturesVariable()) {
      Var = Capture.getCapturedVar();
      Field = Fields.lookup(Var);
    }
    if (!Field || Field->getType()->isReferenceType() ||
        Field->getType()->isDependentType())
      continue;
    BoundaryCrossing Crossing;
    Crossing.Kind = CrossingKind::LambdaCapture;
    Crossing.Value = Value;
    Crossing.Type = Field->getType();
    Crossing.Loc = Capture.getLocation();
    Crossing.Lambda = &Lambda;
    Crossing.Capture = &Capture;
    Crossing.CapturedVar = Var;
    Crossings.push_back(Crossing);
  }
  return Crossings;
}

DeviceAlgorithm deviceAlgorithmOf(const CallExpr &Call) {
  if (isa<CUDAKernelCallExpr>(Call))
    return DeviceAlgorithm::None;
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || !Callee->getIdentifier())
    return DeviceAlgorithm::None;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee)) {
    const CXXRecordDecl *Class = Method->getParent();
    if (Method->isStatic() && Class->getIdentifier() &&
        Class->getName().starts_with("Device") &&
        isDirectlyInNamespace(*Class, "cub"))
      return DeviceAlgorithm::Cub;
    return DeviceAlgorithm::None;
  }
  const llvm::StringRef Name = Callee->getName();
  if (!isDirectlyInNamespace(*Callee, "thrust"))
    return DeviceAlgorithm::None;
  if (Call.getNumArgs() == 0)
    return DeviceAlgorithm::None;
  const QualType First = Call.getArg(0)->IgnoreParenImpCasts()->getType();
  if (isThrustExecutionPolicy(First))
    return isDeviceExecutionPolicy(First)
               ? DeviceAlgorithm::ThrustWithDevicePolicy
               : DeviceAlgorithm::None;
  if (!isThrustAlgorithmName(Name))
    return DeviceAlgorithm::None;
  for (const Expr *Arg : Call.arguments())
    if (isDeviceSystemType(Arg->IgnoreParenImpCasts()->getType()))
      return DeviceAlgorithm::ThrustOnDeviceIterators;
  return DeviceAlgorithm::None;
}

llvm::SmallVector<BoundaryCrossing, 4>
crossingsOfAlgorithmCall(const CallExpr &Call) {
  llvm::SmallVector<BoundaryCrossing, 4> Crossings;
  const DeviceAlgorithm Algorithm = deviceAlgorithmOf(Call);
  if (Algorithm == DeviceAlgorithm::None)
    return Crossings;
  const FunctionDecl *Callee = Call.getDirectCallee();
  const unsigned First =
      Algorithm == DeviceAlgorithm::ThrustWithDevicePolicy ? 1 : 0;
  for (unsigned I = First; I < Call.getNumArgs(); ++I) {
    const Expr *Arg = Call.getArg(I);
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    const ParmVarDecl *Param =
        I < Callee->getNumParams() ? Callee->getParamDecl(I) : nullptr;
    if (Algorithm == DeviceAlgorithm::Cub && Param && staysOnHost(*Param))
      continue;
    QualType Type = Param ? Param->getType() : Arg->getType();
    Type = Type.getNonReferenceType().getUnqualifiedType();
    if (Type->isDependentType())
      continue;
    BoundaryCrossing Crossing;
    Crossing.Kind = CrossingKind::AlgorithmArgument;
    Crossing.Value = Arg;
    Crossing.Type = Type;
    Crossing.Loc = locationOf(*Arg);
    Crossing.Call = &Call;
    Crossing.Callee = Callee;
    Crossing.ArgIndex = I;
    Crossings.push_back(Crossing);
  }
  return Crossings;
}

void matchCrossingSites(MatchFinder &Finder, SharedDispatchCallback &Dispatch) {
  Dispatch.NodeRegistrations.push_back(matchNodes<CUDAKernelCallExpr>(
      Finder, &Dispatch,
      [](const CUDAKernelCallExpr &Launch, ASTContext &Context) {
        return !isExpansionInSystemHeader(Launch.getBeginLoc(),
                                          Context.getSourceManager());
      },
      "kb-launch"));
  Dispatch.NodeRegistrations.push_back(matchNodes<LambdaExpr>(
      Finder, &Dispatch,
      [](const LambdaExpr &Lambda, ASTContext &Context) {
        return isExtendedLambda(Lambda) &&
               !isExpansionInSystemHeader(Lambda.getBeginLoc(),
                                          Context.getSourceManager());
      },
      "kb-lambda"));
  Dispatch.NodeRegistrations.push_back(matchNodes<CallExpr>(
      Finder, &Dispatch,
      [](const CallExpr &Call, ASTContext &Context) {
        return isDeviceAlgorithmCallOutsideSystemHeader(Call, Context);
      },
      "kb-algorithm"));
}

bool isDeviceAlgorithmCallOutsideSystemHeader(const CallExpr &Call,
                                              const ASTContext &Context) {
  // The system-header question last: it is the costliest on every call.
  return !isa<CUDAKernelCallExpr>(Call) &&
         deviceAlgorithmOf(Call) != DeviceAlgorithm::None &&
         !utils::isExpansionInSystemHeader(Call.getBeginLoc(),
                                           Context.getSourceManager());
}

llvm::SmallVector<BoundaryCrossing, 4>
crossingsOf(const MatchFinder::MatchResult &Result) {
  for (llvm::StringRef ID : {"kb-launch", "kb-lambda", "kb-algorithm"})
    if (const auto *Site = Result.Nodes.getNodeAs<Stmt>(ID))
      return crossingsOfSite(*Site);
  return {};
}

llvm::SmallVector<BoundaryCrossing, 4> crossingsOfSite(const Stmt &Site) {
  if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(&Site))
    return crossingsOfLaunch(*Launch);
  if (const auto *Lambda = dyn_cast<LambdaExpr>(&Site))
    return crossingsOfCaptures(*Lambda);
  if (const auto *Call = dyn_cast<CallExpr>(&Site))
    return crossingsOfAlgorithmCall(*Call);
  return {};
}

std::string crossingMessage(llvm::StringRef Rest) {
  return ("%select{kernel '%1' receives %3|extended %1 lambda captures '%2' "
          "as %3|device algorithm '%1' receives %3|kernel '%1' receives %3 "
          "(handed on by '%2')|extended %1 lambda captures %3 (handed on by "
          "'%2')|device algorithm '%1' receives %3 (handed on by '%2')}0" +
          Rest)
      .str();
}

std::string deviceCalleeName(const FunctionDecl &Callee) {
  if (const auto *Method = dyn_cast<CXXMethodDecl>(&Callee)) {
    std::string Class = qualifiedNameWithoutInline(*Method->getParent());
    if (!Class.empty())
      return Class + "::" + Method->getNameAsString();
  }
  std::string Name = qualifiedNameWithoutInline(Callee);
  return Name.empty() ? Callee.getNameAsString() : Name;
}

void addCrossingArgs(DiagnosticBuilder &Diag, const BoundaryCrossing &C) {
  std::string Who;
  std::string Captured;
  switch (C.Kind) {
  case CrossingKind::KernelArgument:
    Who = C.Callee->getNameAsString();
    break;
  case CrossingKind::LambdaCapture:
    Who = spelling(extendedLambdaKindOf(*C.Lambda)).str();
    Captured = C.CapturedVar ? C.CapturedVar->getNameAsString() : "*this";
    break;
  case CrossingKind::AlgorithmArgument:
    Who = deviceCalleeName(*C.Callee);
    break;
  }
  unsigned Select = static_cast<unsigned>(C.Kind);
  if (!C.HandedOnBy.empty()) {
    Select += 3;
    Captured = C.HandedOnBy.front().Callee->getNameAsString();
  }
  Diag << Select << Who << Captured << C.Type;
}

AllowedTypeNames::AllowedTypeNames(llvm::StringRef Option) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Option.split(Parts, ';', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Part : Parts) {
    Part = Part.trim();
    if (!Part.empty())
      Patterns.push_back({("^(" + Part + ")$").str(), Part.contains("::")});
  }
}

bool AllowedTypeNames::allows(const CXXRecordDecl &Record) const {
  if (Patterns.empty() || !Record.getIdentifier())
    return false;
  const std::string Qualified = qualifiedNameWithoutInline(Record);
  for (const Pattern &P : Patterns) {
    llvm::Regex Regex(P.Text);
    if (Regex.match(P.Qualified ? llvm::StringRef(Qualified)
                                : Record.getName()))
      return true;
  }
  return false;
}

std::string ByValuePart::memberPath() const {
  std::string Path;
  for (const FieldDecl *Member : Members) {
    if (!Path.empty())
      Path += '.';
    Path += Member->getNameAsString();
  }
  return Path;
}

static bool
findPartIn(QualType Type, ByValuePart &Part, unsigned Depth,
           llvm::function_ref<PartVerdict(const CXXRecordDecl &)> Visit) {
  if (Depth > 16 || Type->isReferenceType() || Type->isDependentType())
    return false;
  const CXXRecordDecl *Record =
      Type->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
  if (!Record)
    return false;
  const CXXRecordDecl *Definition = Record->getDefinition();
  if (!Definition)
    return false;
  switch (Visit(*Definition)) {
  case PartVerdict::Found:
    Part.Record = Definition;
    return true;
  case PartVerdict::Skip:
    return false;
  case PartVerdict::Descend:
    break;
  }
  for (const CXXBaseSpecifier &Base : Definition->bases())
    if (findPartIn(Base.getType(), Part, Depth + 1, Visit))
      return true;
  for (const FieldDecl *Field : Definition->fields()) {
    Part.Members.push_back(Field);
    if (findPartIn(Field->getType(), Part, Depth + 1, Visit))
      return true;
    Part.Members.pop_back();
  }
  return false;
}

std::optional<ByValuePart>
findByValuePart(QualType Type,
                llvm::function_ref<PartVerdict(const CXXRecordDecl &)> Visit) {
  ByValuePart Part;
  if (findPartIn(Type, Part, 0, Visit))
    return Part;
  return std::nullopt;
}

} // namespace clang::tidy::cuda::utils
