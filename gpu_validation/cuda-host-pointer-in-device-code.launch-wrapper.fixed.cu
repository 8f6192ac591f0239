// HAZARD: H33  VARIANT: fixed  OWNER: cuda-host-pointer-in-device-code
// EXPECT: the lambda captures a device copy (cudaMalloc, cudaMemcpy):
// every weight is halved.
#include "common.cuh"
#include <vector>

int main() {
  const int n = 1 << 16;
  std::vector<float> weights(n, 1.0f);
  float *w = nullptr;
  REQUIRE_CUDA(cudaMalloc(&w, n * sizeof(float)));
  REQUIRE_CUDA(cudaMemcpy(w, weights.data(), n * sizeof(float),
                          cudaMemcpyHostToDevice));
  forall(n, [=] __host__ __device__ (int i) { w[i] *= 0.5f; });
  return report_device_values("cuda-host-pointer-in-device-code.launch-wrapper.fixed", w, n, 0.5f);
}
