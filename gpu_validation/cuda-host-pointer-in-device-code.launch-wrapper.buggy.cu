// HAZARD: H33  VARIANT: buggy  OWNER: cuda-host-pointer-in-device-code
// EXPECT: a __host__ __device__ lambda captures a std::vector's data() and
// is handed to a forall wrapper that launches it in a kernel when a GPU is
// present: nvcc 13 is silent, the kernel fails with cudaErrorIllegalAddress.
#include "common.cuh"
#include <vector>

template <class Body> __global__ void forall_kernel(int n, Body body) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    body(i);
}

// Runs the body in a kernel when a GPU is there, in a host loop otherwise,
// as finite-element and AMR frameworks' forall / ParallelFor do.
template <class Body> void forall(int n, Body body) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0)
    forall_kernel<<<(n + 255) / 256, 256>>>(n, body);
  else
    for (int i = 0; i < n; ++i)
      body(i);
}

int main() {
  const int n = 1 << 16;
  std::vector<float> weights(n, 1.0f);
  float *w = weights.data();
  forall(n, [=] __host__ __device__ (int i) { w[i] *= 0.5f; });
  std::string error = sync_error();
  bool hazard_seen = error == "cudaErrorIllegalAddress";
  report("cuda-host-pointer-in-device-code.launch-wrapper.buggy", "cudaErrorIllegalAddress", error, hazard_seen);
  return hazard_seen ? 0 : 1;
}
