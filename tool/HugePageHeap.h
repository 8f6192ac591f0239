//===--- HugePageHeap.h - cuda-lambda-tidy ------------------------------===//
//
// A lint spends about a seventh of its CPU time in the kernel, most of it
// faulting in the pages of its heap (the AST, the instantiations): 30,000 to
// 60,000 faults of 4 KiB for a thrust file. With transparent huge pages one
// fault maps 2 MiB. Linux gives them only to memory that asks
// (transparent_hugepage/enabled = madvise, the common default), and glibc's
// malloc asks only when told at start-up (GLIBC_TUNABLES=
// glibc.malloc.hugetlb=1). So the drop-in asks itself, once, first in main:
// it grows the heap by a reservation, advises it MADV_HUGEPAGE, and keeps
// malloc there. The children it forks inherit the heap. bench/run measures
// what it saves (BENCHMARKS.md).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_LAMBDA_TIDY_TOOL_HUGEPAGEHEAP_H
#define CUDA_LAMBDA_TIDY_TOOL_HUGEPAGEHEAP_H

namespace cuda_lambda_tidy {

/// The environment variable that, set to anything but "" or "0", leaves the
/// heap as glibc makes it.
constexpr const char *NoHugePagesEnvironmentVariable =
    "CUDA_LAMBDA_TIDY_NO_HUGE_PAGES";

/// Asks for transparent huge pages for the heap this process (and every
/// child it forks) allocates from: malloc keeps one arena, in the program's
/// heap (not mmap) for blocks below 32 MiB, and never gives its top back;
/// the heap is grown by a 512 MiB reservation (address space, not memory:
/// a page is only mapped when touched) advised MADV_HUGEPAGE. Call first in
/// main, before the process allocates much, and only in a process that
/// allocates from one thread at a time. Does nothing when
/// NoHugePagesEnvironmentVariable says so, without glibc, under a sanitizer
/// (which brings its own allocator), or where the kernel charges every
/// private mapping in full (vm.overcommit_memory = 2: each forked child
/// would be charged the reservation again). Returns whether the advice was
/// taken.
bool adviseHugePagesForHeap();

} // namespace cuda_lambda_tidy

#endif
