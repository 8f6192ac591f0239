// HAZARD: H02  VARIANT: fixed  OWNER: cuda-lambda-this-capture
// EXPECT: both fixes the check suggests compute the right values: '[=, *this]'
// (the fix-it, C++17) copies the object into the closure; copying the member
// into a local first captures only the value.
#include "common.cuh"
#include <vector>

struct Scaler {
  float factor = 3.0f;
  void apply_star_this(float *data, int n) {
    launch(n, [=, *this] __device__ (int i) { data[i] *= factor; });
  }
  void apply_local_copy(float *data, int n) {
    float local_factor = factor;
    launch(n, [=] __device__ (int i) { data[i] *= local_factor; });
  }
};

int main() {
  const int n = 4096;
  std::vector<float> host(n), expected(n);
  for (int i = 0; i < n; ++i) {
    host[i] = 1.0f + i;
    expected[i] = (1.0f + i) * 3.0f * 3.0f;
  }
  float *d;
  REQUIRE_CUDA(cudaMalloc(&d, n * sizeof(float)));
  REQUIRE_CUDA(cudaMemcpy(d, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  Scaler scaler;
  scaler.apply_star_this(d, n);
  std::string first = sync_error();
  scaler.apply_local_copy(d, n);
  std::string second = sync_error();
  REQUIRE_CUDA(cudaMemcpy(host.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = count_mismatches(host.data(), expected.data(), n);
  bool ok = report("cuda-lambda-this-capture.fixed",
                   "cudaSuccess x2, 0 mismatches",
                   first + " " + second + ", " + std::to_string(bad) + " mismatches",
                   first == "cudaSuccess" && second == "cudaSuccess" && bad == 0);
  return ok ? 0 : 1;
}
