// HAZARD: H33  VARIANT: buggy  OWNER: cuda-host-pointer-in-device-code
// EXPECT: a helper returns 'new float[n]' and its caller passes the pointer
// to a kernel that writes through it: nvcc 13 is silent, the kernel fails
// with cudaErrorIllegalAddress.
#include "common.cuh"
#include <vector>

__global__ void halve(float *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    w[i] *= 0.5f;
}

float *make_weights(int n) {
  float *w = new float[n];
  for (int i = 0; i < n; ++i)
    w[i] = 1.0f;
  return w;
}

int main() {
  const int n = 1 << 16;
  float *w = make_weights(n);
  halve<<<(n + 255) / 256, 256>>>(w, n);
  std::string error = sync_error();
  bool hazard_seen = error == "cudaErrorIllegalAddress";
  report("cuda-host-pointer-in-device-code.helper-return.buggy", "cudaErrorIllegalAddress", error, hazard_seen);
  return hazard_seen ? 0 : 1;
}
