// HAZARD: H33  VARIANT: fixed  OWNER: cuda-host-pointer-in-device-code
// EXPECT: the same generic lambda capturing a pointer to device memory
// (cudaMalloc, as the check's message says), copied back: every weight is
// doubled.
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
  float *w = nullptr;
  REQUIRE_CUDA(cudaMalloc(&w, n * sizeof(float)));
  REQUIRE_CUDA(cudaMemcpy(w, weights.data(), n * sizeof(float),
                          cudaMemcpyHostToDevice));
  auto body = [w] __device__ (auto i, auto x) { w[i] *= x; };
  apply_each<<<(n + 255) / 256, 256>>>(body, n);
  std::string error = sync_error();
  int mismatches = 0;
  if (error == "cudaSuccess") {
    REQUIRE_CUDA(cudaMemcpy(weights.data(), w, n * sizeof(float),
                            cudaMemcpyDeviceToHost));
    for (float v : weights)
      mismatches += v != 2.0f;
  }
  cudaFree(w);
  bool correct = error == "cudaSuccess" && mismatches == 0;
  report("cuda-host-pointer-in-device-code.generic-lambda.fixed",
         "cudaSuccess, 0 mismatches",
         error + ", " + std::to_string(mismatches) + " mismatches", correct);
  return correct ? 0 : 1;
}
