// HAZARD: H01  VARIANT: fixed  OWNER: cuda-lambda-reference-capture
// EXPECT: saxpy with every capture by value ('[=]', the fix-it's rewrite of
// '[&]') computes the same values as the host.
#include "common.cuh"
#include <vector>

int main() {
  const int n = 1 << 16;
  const float a = 2.5f;
  std::vector<float> x(n), y(n), expected(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.5f * i;
    y[i] = 1.0f - i;
    expected[i] = a * x[i] + y[i];
  }
  float *dx, *dy;
  REQUIRE_CUDA(cudaMalloc(&dx, n * sizeof(float)));
  REQUIRE_CUDA(cudaMalloc(&dy, n * sizeof(float)));
  REQUIRE_CUDA(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  REQUIRE_CUDA(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  launch(n, [=] __device__ (int i) { dy[i] = a * dx[i] + dy[i]; });
  std::string error = sync_error();
  REQUIRE_CUDA(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = count_mismatches(y.data(), expected.data(), n);
  bool ok = report("cuda-lambda-reference-capture.fixed",
                   "cudaSuccess, 0 mismatches",
                   error + ", " + std::to_string(bad) + " mismatches",
                   error == "cudaSuccess" && bad == 0);
  return ok ? 0 : 1;
}
