// HAZARD: H33  VARIANT: fixed  OWNER: cuda-host-pointer-in-device-code
// EXPECT: the parameter struct holds a device copy of the coefficients
// (cudaMalloc, cudaMemcpy): every output is 0.5.
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
  float *device_coefficients = nullptr;
  REQUIRE_CUDA(cudaMalloc(&device_coefficients, 5 * sizeof(float)));
  REQUIRE_CUDA(cudaMemcpy(device_coefficients, coefficients.data(),
                          5 * sizeof(float), cudaMemcpyHostToDevice));
  float *out = nullptr;
  REQUIRE_CUDA(cudaMalloc(&out, n * sizeof(float)));
  StencilParams params{device_coefficients, 5};
  stencil<<<(n + 255) / 256, 256>>>(params, out, n);
  return report_device_values("cuda-host-pointer-in-device-code.parameter-struct.fixed",
                              out, n, 0.5f);
}
