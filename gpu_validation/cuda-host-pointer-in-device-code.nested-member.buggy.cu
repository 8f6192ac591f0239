// HAZARD: H33  VARIANT: buggy  OWNER: cuda-host-pointer-in-device-code
// EXPECT: a kernel's parameter struct holds a member object whose pointer
// is a std::vector's data(), which the kernel reads: nvcc 13 is silent, the
// kernel fails with cudaErrorIllegalAddress.
#include "common.cuh"
#include <vector>

struct Table {
  const float *values;
  int count;
};

struct LookUpParams {
  Table table;
  float *out;
};

__global__ void look_up(LookUpParams params, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    params.out[i] = params.table.values[i % params.table.count];
}

int main() {
  const int n = 1 << 16;
  std::vector<float> values(8, 0.5f);
  float *out = nullptr;
  REQUIRE_CUDA(cudaMalloc(&out, n * sizeof(float)));
  LookUpParams params{{values.data(), 8}, out};
  look_up<<<(n + 255) / 256, 256>>>(params, n);
  std::string error = sync_error();
  bool hazard_seen = error == "cudaErrorIllegalAddress";
  report("cuda-host-pointer-in-device-code.nested-member.buggy",
         "cudaErrorIllegalAddress", error, hazard_seen);
  return hazard_seen ? 0 : 1;
}
