// HAZARD: H33  VARIANT: fixed  OWNER: cuda-host-pointer-in-device-code
// EXPECT: the same call chain handed a device copy (cudaMalloc,
// cudaMemcpy): every weight is halved.
#include "common.cuh"
#include <vector>

__global__ void halve(float *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    w[i] *= 0.5f;
}

void launch_halve(float *p, int n) { halve<<<(n + 255) / 256, 256>>>(p, n); }
void halve_weights(float *weights, int n) { launch_halve(weights, n); }

int main() {
  const int n = 1 << 16;
  std::vector<float> weights(n, 1.0f);
  float *w = nullptr;
  REQUIRE_CUDA(cudaMalloc(&w, n * sizeof(float)));
  REQUIRE_CUDA(cudaMemcpy(w, weights.data(), n * sizeof(float),
                          cudaMemcpyHostToDevice));
  halve_weights(w, n);
  return report_device_values("cuda-host-pointer-in-device-code.call-chain.fixed", w, n, 0.5f);
}
