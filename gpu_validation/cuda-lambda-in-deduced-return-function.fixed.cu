// HAZARD: H07  VARIANT: fixed  OWNER: cuda-lambda-in-deduced-return-function
// EXPECT: the factory that returned an extended lambda from an 'auto' function
// returns a named functor instead; the kernel computes the polynomial right.
#include "common.cuh"
#include <vector>

struct Polynomial {
  float a, b, c;
  __device__ float operator()(float x) const { return (a * x + b) * x + c; }
};

// Was: auto make_polynomial(...) { return [=] __device__ (float x) {...}; }
Polynomial make_polynomial(float a, float b, float c) { return {a, b, c}; }

int main() {
  const int n = 512;
  Polynomial p = make_polynomial(1.5f, -2.0f, 0.25f);
  float *d;
  REQUIRE_CUDA(cudaMalloc(&d, n * sizeof(float)));
  launch(n, [=] __device__ (int i) { d[i] = p(i * 0.01f); });
  std::string error = sync_error();
  std::vector<float> device_values(n), expected(n);
  REQUIRE_CUDA(cudaMemcpy(device_values.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    double x = i * 0.01;
    expected[i] = float(1.5 * x * x - 2.0 * x + 0.25);
  }
  int bad = count_mismatches(device_values.data(), expected.data(), n, 1e-4);
  bool ok = report("cuda-lambda-in-deduced-return-function.fixed",
                   "cudaSuccess, 0 mismatches",
                   error + ", " + std::to_string(bad) + " mismatches",
                   error == "cudaSuccess" && bad == 0);
  return ok ? 0 : 1;
}
