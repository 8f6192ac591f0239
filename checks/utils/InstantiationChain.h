//===--- InstantiationChain.h - cuda-lambda-tidy ------------------------===//
//
// How a place inside a template instantiation was reached from the code a
// user wrote: the instantiations around it, each with the point where it was
// requested, up to a line outside every instantiation. Read from the
// instantiations clang made (their points of instantiation), gathered while
// the matchers walk the translation unit once: no parent map, no second
// walk.
//
// Only instantiations whose template arguments name a closure type are
// kept, and a chain for a closure only climbs through those that name it.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_UTILS_INSTANTIATIONCHAIN_H
#define CUDA_LAMBDA_TIDY_UTILS_INSTANTIATIONCHAIN_H

#include "SharedDispatch.h"
#include "ExecutionSpace.h"
#include "clang/AST/DeclCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <vector>

namespace clang::tidy::cuda::utils {

/// Adds to \p Out the closure classes named anywhere in \p T (through
/// pointers, references, arrays, function types and the arguments of class
/// template specializations, a few levels deep).
void closuresIn(QualType T, llvm::SmallPtrSetImpl<const CXXRecordDecl *> &Out);

/// One step of a chain: \p Instantiated (a function or class template
/// instantiation) was requested at \p RequestedAt.
struct InstantiationStep {
  const NamedDecl *Instantiated = nullptr;
  SourceLocation RequestedAt;
};

struct InstantiationChain {
  /// The instantiations around the starting place, innermost first.
  llvm::SmallVector<InstantiationStep, 4> Steps;
  /// Where the chain leaves the instantiations: the outermost request.
  SourceLocation Origin;
  /// A function on the way runs only on the device (`__device__`,
  /// `__global__`): nvcc's host pass never instantiates it.
  bool ThroughDeviceCode = false;
  /// A function on the way is host-only code.
  bool ThroughHostOnlyCode = false;
};

/// The function and class template instantiations of a translation unit
/// that name a closure type in their template arguments.
class InstantiationIndex {
public:
  /// Keeps \p D if it is such an instantiation (a definition).
  void add(const Decl &D, const SourceManager &SM);
  /// The chain from \p From for \p Closure: at each step the innermost kept
  /// instantiation that names \p Closure and whose text holds the place,
  /// then the place where that instantiation was requested.
  InstantiationChain climb(SourceLocation From, const CXXRecordDecl &Closure,
                           const SourceManager &SM) const;
  /// The kept class template specializations.
  template <typename Fn> void forEachClass(Fn Visit) const {
    for (const Entry &E : Entries)
      if (!E.Function)
        Visit(*cast<CXXRecordDecl>(E.D), E.Closures);
  }
  void clear() { Entries.clear(); }

private:
  struct Entry {
    const NamedDecl *D;
    FileID File;           ///< where its text is written (expansion)
    unsigned Begin, End;   ///< offsets of that text in File
    SourceLocation RequestedAt;
    llvm::SmallVector<const CXXRecordDecl *, 2> Closures;
    const FunctionDecl *Function; ///< null for a class
  };
  std::vector<Entry> Entries;
};

/// Stretches of source text (of device-only functions, say), to ask whether
/// a location given at the end of the translation unit lies in one.
class TextRanges {
public:
  void add(SourceRange Range, const SourceManager &SM);
  bool contains(SourceLocation Loc, const SourceManager &SM) const;
  void clear() { Ranges.clear(); }

private:
  struct Range {
    FileID File;
    unsigned Begin, End;
  };
  std::vector<Range> Ranges;
};

/// Registers \p Check for every function and class template instantiation,
/// system headers included, bound as "instantiation". The checks of one
/// MatchFinder share the matchers (each declaration is tried once); the
/// check keeps the registration for as long as it is registered.
[[nodiscard]] SharedRegistration
matchInstantiations(ast_matchers::MatchFinder &Finder,
                    ast_matchers::MatchFinder::MatchCallback *Check);

/// The instantiation matchInstantiations() matched, if it matched this time.
const Decl *
matchedInstantiation(const ast_matchers::MatchFinder::MatchResult &Result);

/// \p D's name with the namespaces (inline ones left out) and classes
/// around it, without template arguments: 'cub::DeviceReduce::Reduce'.
std::string instantiatedName(const NamedDecl &D);

/// Where a template instantiation was requested (its point of
/// instantiation); invalid for what is not an instantiation.
SourceLocation pointOfInstantiation(const Decl &D);

} // namespace clang::tidy::cuda::utils

#endif

#ifndef CUDA_LAMBDA_TIDY_UTILS_HOSTLIBRARYWALK
#define CUDA_LAMBDA_TIDY_UTILS_HOSTLIBRARYWALK
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>

namespace clang::tidy::cuda::utils {

/// The code of a library that host code reaches through a call: clang-tidy
/// does not match inside system headers, so a question a library asks about
/// a closure type (in a function template instantiated for it) is found by
/// walking from the user's call into the instantiations it calls, those
/// that name a closure type and that run on the host (host and host-device
/// functions; `__device__` and `__global__` ones are the device pass's).
/// Each function is walked at most once per translation unit.
class HostLibraryWalk {
public:
  /// What a type written in library code asks about a closure: the closure
  /// and a name for the question, or null.
  using Question =
      llvm::function_ref<const CXXRecordDecl *(QualType, std::string &)>;
  struct Site {
    const CXXRecordDecl *Closure = nullptr;
    SourceLocation Loc;
    std::string What;
    /// The functions from the entry down to the one that asks, outermost
    /// first, each with the place it is called from.
    llvm::SmallVector<std::pair<const FunctionDecl *, SourceLocation>, 8> Via;
  };
  /// The questions asked, one per closure, in \p Entry and what it calls.
  const llvm::SmallVector<Site, 1> &sitesOf(const FunctionDecl &Entry,
                                            Question Ask);
  void clear() {
    Memo.clear();
    ClassMemo.clear();
  }

private:
  /// The questions in the member typedefs and bases of a class template
  /// specialization that host code instantiates (nvcc's host pass
  /// instantiates them with the class).
  const llvm::SmallVector<Site, 1> &sitesOf(const CXXRecordDecl &Class,
                                            Question Ask);
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<Site, 1>> Memo;
  llvm::DenseMap<const CXXRecordDecl *, llvm::SmallVector<Site, 1>> ClassMemo;
  llvm::DenseMap<const FunctionDecl *, bool> InProgress;
  int Depth = 0;
};

/// Whether \p Function is a function of a library that host code may call
/// into: a template instantiation (or a member of one) written in a system
/// header, naming a closure type, that is not device-only code.
bool isHostLibraryInstantiation(const FunctionDecl &Function);

} // namespace clang::tidy::cuda::utils
#endif
