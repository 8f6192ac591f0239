// HAZARD: H03  VARIANT: fixed  OWNER: cuda-lambda-init-capture
// EXPECT: instead of an init-capture ('[limit = n / 2]', rejected in a
// __host__ __device__ lambda), the value is computed into a local and captured
// by value; host and device calls agree with the host's reference.
#include "common.cuh"
#include <vector>

int main() {
  const int n = 1000;
  const int limit = n / 2;
  auto clamp = [limit] __host__ __device__ (int i) { return i < limit ? i : limit; };
  int *d;
  REQUIRE_CUDA(cudaMalloc(&d, n * sizeof(int)));
  launch(n, [=] __device__ (int i) { d[i] = clamp(i); });
  std::string error = sync_error();
  std::vector<int> device_values(n), expected(n), host_calls(n);
  REQUIRE_CUDA(cudaMemcpy(device_values.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    expected[i] = i < 500 ? i : 500;
    host_calls[i] = clamp(i);
  }
  int bad = count_mismatches(device_values.data(), expected.data(), n, 0.0) +
            count_mismatches(host_calls.data(), expected.data(), n, 0.0);
  bool ok = report("cuda-lambda-init-capture.fixed",
                   "cudaSuccess, 0 mismatches",
                   error + ", " + std::to_string(bad) + " mismatches",
                   error == "cudaSuccess" && bad == 0);
  return ok ? 0 : 1;
}
