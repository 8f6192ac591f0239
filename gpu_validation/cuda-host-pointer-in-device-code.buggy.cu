// HAZARD: H33  VARIANT: buggy  OWNER: cuda-host-pointer-in-device-code
// EXPECT: a kernel writes through a malloc'd host pointer and fails with
// cudaErrorIllegalAddress (the thrust half of H33, a std::vector's data()
// captured in thrust::for_each(thrust::device, ...), is
// cuda-host-pointer-in-device-code.thrust.buggy.cu: after a fault the context
// is lost).
#include "common.cuh"
#include <cstdlib>
#include <vector>

__global__ void fill(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * i;
}

int main() {
  const int n = 1 << 16;
  float *buf = (float *)std::malloc(n * sizeof(float));
  fill<<<(n + 255) / 256, 256>>>(buf, n);
  std::string error = sync_error();
  bool hazard_seen = error == "cudaErrorIllegalAddress";
  report("cuda-host-pointer-in-device-code.buggy",
         "cudaErrorIllegalAddress", error,
         hazard_seen);
  std::free(buf);
  return hazard_seen ? 0 : 1;
}
