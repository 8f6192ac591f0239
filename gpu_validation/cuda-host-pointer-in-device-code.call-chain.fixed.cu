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
  std::string error = sync_error();
  int mismatches = 0;
  if (error == "cudaSuccess") {
    std::vector<float> back(n);
    REQUIRE_CUDA(cudaMemcpy(back.data(), w, n * sizeof(float),
                            cudaMemcpyDeviceToHost));
    for (float v : back)
      mismatches += v != 0.5f;
  }
  bool correct = error == "cudaSuccess" && mismatches == 0;
  report("cuda-host-pointer-in-device-code.call-chain.fixed", "cudaSuccess, 0 mismatches",
         error + ", " + std::to_string(mismatches) + " mismatches", correct);
  return correct ? 0 : 1;
}
