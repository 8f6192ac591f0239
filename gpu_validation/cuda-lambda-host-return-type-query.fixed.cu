// HAZARD: H13  VARIANT: fixed  OWNER: cuda-lambda-host-return-type-query
// EXPECT: with a trailing return type ('-> double', the fix-it) the host sees
// double and every value is right.
#include "common.cuh"
#include <type_traits>
#include <vector>

template <typename Out, typename F>
__global__ void evaluate(int n, Out *out, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = f(i);
}

int main() {
  const int n = 256;
  auto halve = [] __device__ (int i) -> double { return i * 0.5; };
  using Result = std::invoke_result_t<decltype(halve), int>;
  static_assert(std::is_same_v<Result, double>);
  Result *d;
  REQUIRE_CUDA(cudaMalloc(&d, n * sizeof(Result)));
  evaluate<<<(n + 127) / 128, 128>>>(n, d, halve);
  std::string error = sync_error();
  std::vector<Result> values(n);
  REQUIRE_CUDA(cudaMemcpy(values.data(), d, n * sizeof(Result), cudaMemcpyDeviceToHost));
  std::vector<double> expected(n);
  for (int i = 0; i < n; ++i)
    expected[i] = i * 0.5;
  int bad = count_mismatches(values.data(), expected.data(), n, 0.0);
  bool ok = report("cuda-lambda-host-return-type-query.fixed",
                   "cudaSuccess, 0 mismatches",
                   error + ", " + std::to_string(bad) + " mismatches",
                   error == "cudaSuccess" && bad == 0);
  return ok ? 0 : 1;
}
