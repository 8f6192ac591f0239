//===--- HugePageHeap.cpp - cuda-lambda-tidy ----------------------------===//

#include "HugePageHeap.h"
#include <cstdint>
#include <cstdlib>
#include <cstring>

#if defined(__GLIBC__) && defined(__linux__)
#include <fcntl.h>
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) ||    \
    __has_feature(thread_sanitizer)
#define CUDA_LAMBDA_TIDY_SANITIZED_ALLOCATOR 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CUDA_LAMBDA_TIDY_SANITIZED_ALLOCATOR 1
#endif

namespace cuda_lambda_tidy {

#if defined(__GLIBC__) && defined(__linux__)
/// Whether the kernel accounts every private mapping in full
/// (vm.overcommit_memory = 2): there the reservation would be charged once
/// more for each forked child, and -j 16 could run out of commit.
static bool strictOvercommit() {
  int File = open("/proc/sys/vm/overcommit_memory", O_RDONLY | O_CLOEXEC);
  if (File < 0)
    return false;
  char Mode = 0;
  bool Read = read(File, &Mode, 1) == 1;
  close(File);
  return Read && Mode == '2';
}
#endif

bool adviseHugePagesForHeap() {
#if defined(__GLIBC__) && defined(__linux__) &&                               \
    !defined(CUDA_LAMBDA_TIDY_SANITIZED_ALLOCATOR)
  if (const char *Off = std::getenv(NoHugePagesEnvironmentVariable))
    if (*Off && std::strcmp(Off, "0") != 0)
      return false;
  if (strictOvercommit())
    return false;
  // One arena: the heap (brk), which the advice covers; threads would get
  // arenas of their own, mapped apart.
  if (!mallopt(M_ARENA_MAX, 1))
    return false;
  // Blocks below 32 MiB (glibc's largest threshold) come from the heap, not
  // from a mapping of their own; and the top of the heap is never given
  // back, which would end the advised region (a heap grown again is a new
  // region, without the advice).
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 0x7fffffff);
  // The reservation: malloc grows the heap by 512 MiB in blocks it can
  // coalesce; their headers are the only pages touched.
  constexpr size_t Block = 16 << 20, Blocks = 32, HugePage = 2 << 20;
  void *Reserved[Blocks];
  size_t Taken = 0;
  const auto Start = reinterpret_cast<uintptr_t>(sbrk(0));
  for (; Taken < Blocks; ++Taken)
    if (!(Reserved[Taken] = std::malloc(Block)))
      break;
  const auto End = reinterpret_cast<uintptr_t>(sbrk(0));
  const uintptr_t From = (Start + HugePage - 1) & ~(HugePage - 1);
  bool Advised = Start != uintptr_t(-1) && End > From &&
                 madvise(reinterpret_cast<void *>(From), End - From,
                         MADV_HUGEPAGE) == 0;
  // Freed, the blocks are the heap's top, where the next allocations go.
  for (size_t I = 0; I < Taken; ++I)
    std::free(Reserved[I]);
  return Advised;
#else
  return false;
#endif
}

} // namespace cuda_lambda_tidy
