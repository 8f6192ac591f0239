// HAZARD: H13  VARIANT: buggy  OWNER: cuda-lambda-host-return-type-query
// EXPECT: host code asks std::invoke_result_t for the return type of a
// __device__ lambda without a trailing return type; nvcc answers 'int' on the
// host although the lambda returns double. The host then launches
// evaluate<int, ...>, while the device pass built evaluate<double, ...>: the
// launch fails or, where both exist, the values are truncated. Either way the
// host's results are wrong.
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
  auto halve = [] __device__ (int i) { return i * 0.5; };
  using Result = std::invoke_result_t<decltype(halve), int>;
  Result *d;
  REQUIRE_CUDA(cudaMalloc(&d, n * sizeof(Result)));
  evaluate<<<(n + 127) / 128, 128>>>(n, d, halve);
  std::string error = sync_error();
  std::vector<Result> values(n);
  REQUIRE_CUDA(cudaMemcpy(values.data(), d, n * sizeof(Result), cudaMemcpyDeviceToHost));
  std::vector<double> expected(n);
  for (int i = 0; i < n; ++i)
    expected[i] = i * 0.5;
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += double(values[i]) != expected[i];
  bool hazard_seen = sizeof(Result) != sizeof(double) && bad > 0;
  report("cuda-lambda-host-return-type-query.buggy",
         "sizeof(Result) == 4 on the host, wrong values",
         "sizeof(Result) == " + std::to_string(sizeof(Result)) + ", " +
             std::to_string(bad) + " of " + std::to_string(n) + " values wrong, " + error,
         hazard_seen);
  return hazard_seen ? 0 : 1;
}
