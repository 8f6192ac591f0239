// HAZARD: H33  VARIANT: fixed  OWNER: cuda-host-pointer-in-device-code
// EXPECT: the helper returns device memory (cudaMalloc, filled with
// cudaMemcpy): every weight is halved.
#include "common.cuh"
#include <vector>

__global__ void halve(float *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    w[i] *= 0.5f;
}

float *make_weights(int n) {
  std::vector<float> host(n, 1.0f);
  float *w = nullptr;
  REQUIRE_CUDA(cudaMalloc(&w, n * sizeof(float)));
  REQUIRE_CUDA(cudaMemcpy(w, host.data(), n * sizeof(float),
                          cudaMemcpyHostToDevice));
  return w;
}

int main() {
  const int n = 1 << 16;
  float *w = make_weights(n);
  halve<<<(n + 255) / 256, 256>>>(w, n);
  return report_device_values("cuda-host-pointer-in-device-code.helper-return.fixed", w, n, 0.5f);
}
