// HAZARD: H33  VARIANT: buggy  OWNER: cuda-host-pointer-in-device-code
// EXPECT: a generic extended lambda ('[w] __device__ (auto i, auto x)', the
// way some linear-algebra libraries write every kernel) captures a
// std::vector's data() and writes through it on the device: nvcc 13 is
// silent, the kernel fails with cudaErrorIllegalAddress.
#include "common.cuh"
#include <vector>

template <typename F> __global__ void apply_each(F f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    f(i, 2.0f);
}

int main() {
  const int n = 1 << 16;
  std::vector<float> weights(n, 1.0f);
  float *w = weights.data();
  auto body = [w] __device__ (auto i, auto x) { w[i] *= x; };
  apply_each<<<(n + 255) / 256, 256>>>(body, n);
  std::string error = sync_error();
  bool hazard_seen = error == "cudaErrorIllegalAddress";
  report("cuda-host-pointer-in-device-code.generic-lambda.buggy",
         "cudaErrorIllegalAddress", error, hazard_seen);
  return hazard_seen ? 0 : 1;
}
