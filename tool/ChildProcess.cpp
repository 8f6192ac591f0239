//===--- ChildProcess.cpp - cuda-lambda-tidy ----------------------------===//

#include "ChildProcess.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdio>
#include <cstdlib>
#include <string>

#if LLVM_ON_UNIX
#include <csignal>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>
#endif

namespace cuda_lambda_tidy {

std::optional<llvm::sys::ProcessInfo>
forkChild(DropInRun &Run, llvm::function_ref<int()> Body,
          llvm::StringRef StdoutFile, llvm::StringRef StderrFile) {
#if LLVM_ON_UNIX
  if (std::getenv("CUDA_LAMBDA_TIDY_EXEC_CHILDREN"))
    return std::nullopt;
  const std::string Out = StdoutFile.str(), Err = StderrFile.str();
  // What the parent buffered would otherwise be printed twice.
  llvm::outs().flush();
  llvm::errs().flush();
  std::fflush(nullptr);
  // No signal reaches the child before it has let go of the parent's files:
  // LLVM's handler, inherited, would remove them (the other children's
  // output) if a signal came at once. Blocked here, a signal sent to the
  // child waits until becomeForkedChild has run.
  sigset_t All, Before;
  sigfillset(&All);
  pthread_sigmask(SIG_SETMASK, &All, &Before);
  const pid_t Pid = ::fork();
  if (Pid == 0)
    Run.becomeForkedChild();
  pthread_sigmask(SIG_SETMASK, &Before, nullptr);
  if (Pid < 0)
    return std::nullopt;
  if (Pid == 0) {
    const int OutFd = ::open(Out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int ErrFd = ::open(Err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    // The parent reports a status of 127 as a child that failed.
    if (OutFd < 0 || ErrFd < 0 || ::dup2(OutFd, STDOUT_FILENO) < 0 ||
        ::dup2(ErrFd, STDERR_FILENO) < 0)
      ::_exit(127);
    ::close(OutFd);
    ::close(ErrFd);
    const int Status = Body();
    llvm::outs().flush();
    llvm::errs().flush();
    std::exit(Status);
  }
  llvm::sys::ProcessInfo Child;
  Child.Pid = Pid;
  Child.Process = Pid;
  return Child;
#else
  (void)Run;
  (void)Body;
  (void)StdoutFile;
  (void)StderrFile;
  return std::nullopt;
#endif
}

} // namespace cuda_lambda_tidy
