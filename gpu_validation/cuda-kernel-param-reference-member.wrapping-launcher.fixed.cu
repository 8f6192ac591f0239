// HAZARD: H34  VARIANT: fixed  OWNER: cuda-kernel-param-reference-member
// EXPECT: the functor holds the factor by value: every element, 1 before,
// is halved through the wrapper's bounds-checking object and kernel.
#include "common.cuh"
#include <vector>

template <class F> struct Bounded {
  int n;
  F f;
  __device__ void operator()(int i) const {
    if (i < n)
      f(i);
  }
};
template <class W> __global__ void run_bounded(W w) {
  w(static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x));
}
template <class F> void for_n(int n, F f) {
  run_bounded<<<(n + 255) / 256, 256>>>(Bounded<F>{n, f});
}

struct Scale {
  float factor;
  float *out;
  __device__ void operator()(int i) const { out[i] *= factor; }
};

int main() {
  const int n = 1 << 16;
  std::vector<float> ones(n, 1.0f);
  float *d = nullptr;
  REQUIRE_CUDA(cudaMalloc(&d, n * sizeof(float)));
  REQUIRE_CUDA(cudaMemcpy(d, ones.data(), n * sizeof(float),
                          cudaMemcpyHostToDevice));
  float factor = 0.5f;
  for_n(n, Scale{factor, d});
  return report_device_values("cuda-kernel-param-reference-member.wrapping-launcher.fixed", d, n, 0.5f);
}
