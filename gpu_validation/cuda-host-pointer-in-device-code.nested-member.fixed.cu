// HAZARD: H33  VARIANT: fixed  OWNER: cuda-host-pointer-in-device-code
// EXPECT: the parameter struct's member object holds a device copy of the
// table (cudaMalloc, cudaMemcpy): every output is 0.5.
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
  float *device_values = nullptr;
  REQUIRE_CUDA(cudaMalloc(&device_values, 8 * sizeof(float)));
  REQUIRE_CUDA(cudaMemcpy(device_values, values.data(), 8 * sizeof(float),
                          cudaMemcpyHostToDevice));
  float *out = nullptr;
  REQUIRE_CUDA(cudaMalloc(&out, n * sizeof(float)));
  LookUpParams params{{device_values, 8}, out};
  look_up<<<(n + 255) / 256, 256>>>(params, n);
  return report_device_values("cuda-host-pointer-in-device-code.nested-member.fixed",
                              out, n, 0.5f);
}
