// HAZARD: H34  VARIANT: fixed  OWNER: cuda-kernel-param-reference-member
// EXPECT: the functor holds the factor by value; it travels with the functor
// and the kernel scales every element.
#include "common.cuh"

struct Scale {
  float factor;
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
  float host[n], expected[n];
  for (int i = 0; i < n; ++i) {
    host[i] = float(i);
    expected[i] = 3.0f * float(i);
  }
  float *d;
  REQUIRE_CUDA(cudaMalloc(&d, n * sizeof(float)));
  REQUIRE_CUDA(cudaMemcpy(d, host, n * sizeof(float), cudaMemcpyHostToDevice));
  float k = 3.0f;
  apply<<<(n + 127) / 128, 128>>>(Scale{k}, d, n);
  std::string error = sync_error();
  REQUIRE_CUDA(cudaMemcpy(host, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = count_mismatches(host, expected, n);
  bool ok = report("cuda-kernel-param-reference-member.fixed",
                   "cudaSuccess, 0 mismatches",
                   error + ", " + std::to_string(bad) + " mismatches",
                   error == "cudaSuccess" && bad == 0);
  return ok ? 0 : 1;
}
