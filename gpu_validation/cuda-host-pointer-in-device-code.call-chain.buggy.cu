// HAZARD: H33  VARIANT: buggy  OWNER: cuda-host-pointer-in-device-code
// EXPECT: a std::vector's data() is handed through two functions to a
// kernel launch that writes through it: nvcc 13 is silent, the kernel fails
// with cudaErrorIllegalAddress.
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
  halve_weights(weights.data(), n);
  std::string error = sync_error();
  bool hazard_seen = error == "cudaErrorIllegalAddress";
  report("cuda-host-pointer-in-device-code.call-chain.buggy", "cudaErrorIllegalAddress", error, hazard_seen);
  return hazard_seen ? 0 : 1;
}
