// HAZARD: H33  VARIANT: buggy  OWNER: cuda-host-pointer-in-device-code
// EXPECT: a __host__ __device__ lambda captures a std::vector's data() and
// is handed to a forall wrapper that launches it in a kernel when a GPU is
// present: nvcc 13 is silent, the kernel fails with cudaErrorIllegalAddress.
#include "common.cuh"
#include <vector>

int main() {
  const int n = 1 << 16;
  std::vector<float> weights(n, 1.0f);
  float *w = weights.data();
  forall(n, [=] __host__ __device__ (int i) { w[i] *= 0.5f; });
  std::string error = sync_error();
  bool hazard_seen = error == "cudaErrorIllegalAddress";
  report("cuda-host-pointer-in-device-code.launch-wrapper.buggy", "cudaErrorIllegalAddress", error, hazard_seen);
  return hazard_seen ? 0 : 1;
}
