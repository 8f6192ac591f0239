// HAZARD: H34  VARIANT: buggy  OWNER: cuda-kernel-param-reference-member
// EXPECT: a functor holding 'const float &' to a host local is handed to a
// wrapper that wraps it in a bounds-checking object of its own before the
// launch (the shape of cub's __op_wrapper_t under thrust); the device reads
// through the host's stack address and fails with cudaErrorIllegalAddress.
// nvcc compiles this silently.
#include "common.cuh"

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
  const float &factor;
  float *out;
  __device__ void operator()(int i) const { out[i] *= factor; }
};

int main() {
  const int n = 1 << 16;
  float *d = nullptr;
  REQUIRE_CUDA(cudaMalloc(&d, n * sizeof(float)));
  REQUIRE_CUDA(cudaMemset(d, 0, n * sizeof(float)));
  float factor = 0.5f;
  for_n(n, Scale{factor, d});
  std::string error = sync_error();
  bool hazard_seen = error == "cudaErrorIllegalAddress";
  report("cuda-kernel-param-reference-member.wrapping-launcher.buggy", "cudaErrorIllegalAddress", error, hazard_seen);
  return hazard_seen ? 0 : 1;
}
