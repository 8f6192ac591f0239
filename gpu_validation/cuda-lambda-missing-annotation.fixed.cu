// HAZARD: H12  VARIANT: fixed  OWNER: cuda-lambda-missing-annotation
// EXPECT: the lambda passed to a kernel template carries '__device__' (the
// fix-it); the kernel squares every element.
#include "common.cuh"
#include <vector>

int main() {
  const int n = 2048;
  int *d;
  REQUIRE_CUDA(cudaMalloc(&d, n * sizeof(int)));
  auto square = [d] __device__ (int i) { d[i] = i * i; };
  launch(n, square);
  std::string error = sync_error();
  std::vector<int> values(n), expected(n);
  REQUIRE_CUDA(cudaMemcpy(values.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    expected[i] = i * i;
  int bad = count_mismatches(values.data(), expected.data(), n, 0.0);
  bool ok = report("cuda-lambda-missing-annotation.fixed",
                   "cudaSuccess, 0 mismatches",
                   error + ", " + std::to_string(bad) + " mismatches",
                   error == "cudaSuccess" && bad == 0);
  return ok ? 0 : 1;
}
