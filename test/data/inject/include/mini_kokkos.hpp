// Stand-in for a Kokkos-like programming model (written for the
// hazard-injection corpus, issue 29; no Kokkos code): a MK_LAMBDA macro
// that is a whole `[=] __host__ __device__` introducer, a reference-counted
// view and parallel_for(label, n, functor).
#pragma once
#include <cuda_runtime.h>

#define MK_LAMBDA [=] __host__ __device__
#define MK_INLINE_FUNCTION __host__ __device__ inline
#define MK_FUNCTION __host__ __device__

namespace mk {

template <class F>
__global__ void parallel_for_kernel(int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    f(i);
}

template <class F>
void parallel_for(const char *label, int n, const F &f) {
  (void)label;
  parallel_for_kernel<<<(n + 127) / 128, 128>>>(n, f);
}

template <class F>
void parallel_for(int n, const F &f) {
  parallel_for("unnamed", n, f);
}

inline void fence() { cudaDeviceSynchronize(); }

// A view: a device pointer and its extent, copied into kernels by value.
template <class T>
struct View {
  T *ptr = nullptr;
  int extent = 0;
  View() = default;
  View(const char *label, int n) : extent(n) {
    (void)label;
    cudaMalloc(&ptr, n * sizeof(T));
  }
  MK_INLINE_FUNCTION T &operator()(int i) const { return ptr[i]; }
  MK_INLINE_FUNCTION T *data() const { return ptr; }
};

} // namespace mk
