// HAZARD: H33  VARIANT: buggy  OWNER: cuda-host-pointer-in-device-code
// EXPECT: a parameter struct passed to a kernel by value holds a
// std::vector's data(), which the kernel reads: nvcc 13 is silent, the
// kernel fails with cudaErrorIllegalAddress.
#include "common.cuh"
#include <vector>

struct StencilParams {
  const float *coefficients;
  int radius;
};

__global__ void stencil(StencilParams params, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = params.coefficients[i % params.radius];
}

int main() {
  const int n = 1 << 16;
  std::vector<float> coefficients(5, 0.5f);
  float *out = nullptr;
  REQUIRE_CUDA(cudaMalloc(&out, n * sizeof(float)));
  StencilParams params{coefficients.data(), 5};
  stencil<<<(n + 255) / 256, 256>>>(params, out, n);
  std::string error = sync_error();
  bool hazard_seen = error == "cudaErrorIllegalAddress";
  report("cuda-host-pointer-in-device-code.parameter-struct.buggy",
         "cudaErrorIllegalAddress", error, hazard_seen);
  return hazard_seen ? 0 : 1;
}
