//===--- StaticLlvmStubs.cpp - cuda-lambda-tidy -------------------------===//
//
// Only in the self-contained binary (CUDA_LAMBDA_TIDY_STATIC). Debian's
// LLVM is built with Z3, which the static analyzer can use to cross-check
// its reports (`-analyzer-config crosscheck-with-z3=true`, off by
// default); linked statically, LLVM's Z3 solver would make the binary need
// libz3 at run time. These definitions stand in for every symbol of LLVM's
// Z3Solver.cpp, so the linker never takes that object from libLLVMSupport.a
// (it would report duplicates if it did): asking for Z3 stops the run with
// a message instead.
//
//===----------------------------------------------------------------------===//

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/SMTAPI.h"
#include "llvm/Support/raw_ostream.h"

namespace llvm {

SMTSolverRef CreateZ3Solver() {
  report_fatal_error("cuda-lambda-tidy-static is built without Z3; the "
                     "static analyzer's Z3 options need cuda-lambda-tidy",
                     /*gen_crash_diag=*/false);
}

void SMTSort::dump() const { print(errs()); }
void SMTExpr::dump() const { print(errs()); }
void SMTSolver::dump() const { print(errs()); }
void SMTSolverStatistics::dump() const { print(errs()); }

} // namespace llvm
