// HAZARD: H16  VARIANT: fixed  OWNER: cuda-host-variable-in-device-code
// EXPECT: the table the kernel reads is a __constant__ array filled with
// cudaMemcpyToSymbol, and the offset is passed in by value; results match.
#include "common.cuh"
#include <vector>

__constant__ float weights[4];

int main() {
  const float host_weights[4] = {0.5f, 1.0f, 2.0f, 4.0f};
  REQUIRE_CUDA(cudaMemcpyToSymbol(weights, host_weights, sizeof(host_weights)));
  const int n = 1024;
  float offset = 0.25f; // was a host global read in the kernel
  float *d;
  REQUIRE_CUDA(cudaMalloc(&d, n * sizeof(float)));
  launch(n, [=] __device__ (int i) { d[i] = weights[i % 4] * i + offset; });
  std::string error = sync_error();
  std::vector<float> values(n), expected(n);
  REQUIRE_CUDA(cudaMemcpy(values.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    expected[i] = host_weights[i % 4] * i + 0.25f;
  int bad = count_mismatches(values.data(), expected.data(), n);
  bool ok = report("cuda-host-variable-in-device-code.fixed",
                   "cudaSuccess, 0 mismatches",
                   error + ", " + std::to_string(bad) + " mismatches",
                   error == "cudaSuccess" && bad == 0);
  return ok ? 0 : 1;
}
