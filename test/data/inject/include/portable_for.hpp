// Stand-in for a forall / ParallelFor-style launch wrapper (written for the
// hazard-injection corpus, issue 29; no framework code): forall(n, body)
// decides at run time whether body runs in a kernel or in a host loop, so
// the body must be a __host__ __device__ callable.
#pragma once
#include <cuda_runtime.h>

#define PF_HOST_DEVICE __host__ __device__
#define PF_LAMBDA [=] __host__ __device__

namespace pf {

template <class Body>
__global__ void forall_kernel(int n, Body body) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    body(i);
}

inline bool on_device() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

template <class Body>
void forall(int n, Body body) {
  if (on_device()) {
    forall_kernel<<<(n + 255) / 256, 256>>>(n, body);
    cudaDeviceSynchronize();
  } else {
    for (int i = 0; i < n; ++i)
      body(i);
  }
}

template <class T>
T *device_alloc(int n) {
  T *p = nullptr;
  cudaMallocManaged(&p, n * sizeof(T));
  return p;
}

} // namespace pf
