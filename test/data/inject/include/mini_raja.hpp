// Stand-in for a RAJA-like loop abstraction (written for the
// hazard-injection corpus, issue 29; no RAJA code): forall<Policy>(range,
// body) with a CUDA policy that launches a kernel and a sequential one.
#pragma once
#include <cuda_runtime.h>
#include <type_traits>

#define MR_DEVICE __device__
#define MR_HOST_DEVICE __host__ __device__

namespace mr {

template <int BlockSize>
struct cuda_exec {};
struct seq_exec {};

struct TypedRange {
  int begin, end;
};
inline TypedRange RangeSegment(int b, int e) { return TypedRange{b, e}; }

template <class Body>
__global__ void forall_kernel(int begin, int end, Body body) {
  int i = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < end)
    body(i);
}

template <class Policy>
struct is_cuda : std::false_type {};
template <int B>
struct is_cuda<cuda_exec<B>> : std::true_type {};
template <int B>
constexpr int block_size(cuda_exec<B>) { return B; }

template <class Policy, class Body>
void forall(TypedRange r, Body &&body) {
  if constexpr (is_cuda<Policy>::value) {
    constexpr int B = block_size(Policy{});
    int n = r.end - r.begin;
    forall_kernel<<<(n + B - 1) / B, B>>>(r.begin, r.end, body);
  } else {
    for (int i = r.begin; i < r.end; ++i)
      body(i);
  }
}

} // namespace mr
