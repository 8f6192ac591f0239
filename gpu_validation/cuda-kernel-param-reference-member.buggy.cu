// HAZARD: H34  VARIANT: buggy  OWNER: cuda-kernel-param-reference-member
// EXPECT: a functor holding 'const float &' to a host local is passed to a
// kernel; the device reads through the host's stack address and fails with
// cudaErrorIllegalAddress. nvcc compiles this silently.
#include "common.cuh"

struct Scale {
  const float &factor;
  __device__ float operator()(float x) const { return x * factor; }
};

template <typename F>
__global__ void apply(F f, float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = f(data[i]);
}

int main() {
  const int n = 1024;
  float *d;
  REQUIRE_CUDA(cudaMalloc(&d, n * sizeof(float)));
  REQUIRE_CUDA(cudaMemset(d, 0, n * sizeof(float)));
  float k = 3.0f;
  apply<<<(n + 127) / 128, 128>>>(Scale{k}, d, n);
  std::string error = sync_error();
  bool ok = report("cuda-kernel-param-reference-member.buggy",
                   "cudaErrorIllegalAddress",
                   error, error == "cudaErrorIllegalAddress");
  return ok ? 0 : 1;
}
