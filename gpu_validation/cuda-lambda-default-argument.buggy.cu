// HAZARD: H38  VARIANT: buggy  OWNER: cuda-lambda-default-argument
// EXPECT: a __device__ function's function-pointer parameter defaults to a
// lambda. nvcc passes a null pointer for the default on the device; the call
// through it is undefined and the optimizer drops it with the store after it:
// the output keeps its sentinel (-1) instead of 2*i+1, or the kernel faults.
#include "common.cuh"
#include <vector>

typedef int (*transform_fn)(int);

__device__ int transform(int x,
                         transform_fn f = [](int v) { return 2 * v + 1; }) {
  return f(x);
}

__global__ void apply(int n, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = transform(i);
}

int main() {
  const int n = 256;
  int *d;
  REQUIRE_CUDA(cudaMalloc(&d, n * sizeof(int)));
  REQUIRE_CUDA(cudaMemset(d, 0xff, n * sizeof(int)));
  apply<<<(n + 127) / 128, 128>>>(n, d);
  std::string error = sync_error();
  std::vector<int> values(n, -1);
  if (error == "cudaSuccess")
    REQUIRE_CUDA(cudaMemcpy(values.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += values[i] != 2 * i + 1;
  bool hazard_seen = bad > 0;
  report("cuda-lambda-default-argument.buggy",
         "values left at the sentinel -1 (or a fault), not 2*i+1",
         std::to_string(bad) + " of " + std::to_string(n) +
             " values wrong (out[1] == " + std::to_string(values[1]) + "), " + error,
         hazard_seen);
  return hazard_seen ? 0 : 1;
}
