// HAZARD: H38  VARIANT: fixed  OWNER: cuda-lambda-default-argument
// EXPECT: the default is a named __device__ function, whose address the
// device knows: every value is 2*i+1.
#include "common.cuh"
#include <vector>

typedef int (*transform_fn)(int);

__device__ int twice_plus_one(int v) { return 2 * v + 1; }

__device__ int transform(int x, transform_fn f = twice_plus_one) {
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
  REQUIRE_CUDA(cudaMemcpy(values.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += values[i] != 2 * i + 1;
  bool ok = bad == 0 && error == "cudaSuccess";
  report("cuda-lambda-default-argument.fixed", "every value 2*i+1",
         std::to_string(bad) + " of " + std::to_string(n) + " values wrong, " + error,
         ok);
  return ok ? 0 : 1;
}
