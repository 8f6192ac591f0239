//===--- ChildProcess.h - cuda-lambda-tidy ------------------------------===//
//
// How a parent (PassChildren.h) starts a child: forked from itself, not
// this binary started again. A new process of this binary pays for loading
// LLVM and clang and running their static initializers, about 70 ms of CPU
// on the development machine (`--version`), before it reads its request;
// a lint of one CUDA file starts one child, a database lint one or two per
// file. The forked child starts from the parent's initialized memory and
// runs what the started binary would run (lintAsChild), with the same
// command line, so both ways print the same.
//
// CUDA_LAMBDA_TIDY_EXEC_CHILDREN=1 starts the binary instead, as on
// systems without fork().
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_TOOL_CHILDPROCESS_H
#define CUDA_LAMBDA_TIDY_TOOL_CHILDPROCESS_H

#include "DropInRun.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Program.h"
#include <optional>

namespace cuda_lambda_tidy {

/// Runs \p Body in a child process forked from this one, its stdout and
/// stderr written to \p StdoutFile and \p StderrFile (truncated), and exits
/// it with what Body returns, static destructors included (the child's own
/// temporary directories go; the parent's stay, DropInRun::becomeForkedChild).
/// The parent waits for it with llvm::sys::Wait. std::nullopt where this
/// process does not fork (CUDA_LAMBDA_TIDY_EXEC_CHILDREN, no fork(), or
/// fork() failed): the caller starts the binary instead.
///
/// Call it only while this process runs one thread: the child gets only
/// the thread that forked.
std::optional<llvm::sys::ProcessInfo>
forkChild(DropInRun &Run, llvm::function_ref<int()> Body,
          llvm::StringRef StdoutFile, llvm::StringRef StderrFile);

} // namespace cuda_lambda_tidy

#endif
