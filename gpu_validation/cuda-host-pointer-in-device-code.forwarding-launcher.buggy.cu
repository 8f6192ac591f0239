// HAZARD: H33  VARIANT: buggy  OWNER: cuda-host-pointer-in-device-code
// EXPECT: a launcher that takes its kernel's arguments as forwarding
// references (Args &&...args, the shape of a sparse linear-algebra
// library's run_kernel) is handed a pointer from new[]: nvcc 13 is silent,
// the kernel fails with cudaErrorIllegalAddress.
#include "common.cuh"
#include <utility>

template <typename T> T as_kernel_argument(T value) { return value; }

template <typename Fn, typename... Args>
__global__ void generic_kernel(int n, Fn fn, Args... args) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    fn(i, args...);
}

template <typename Fn, typename... Args>
void run_on_device(int n, Fn fn, Args &&...args) {
  generic_kernel<<<(n + 255) / 256, 256>>>(
      n, fn, as_kernel_argument(std::forward<Args>(args))...);
}

int main() {
  const int n = 1 << 16;
  float *scale = new float[n];
  for (int i = 0; i < n; ++i)
    scale[i] = 0.5f;
  float *out = nullptr;
  REQUIRE_CUDA(cudaMalloc(&out, n * sizeof(float)));
  run_on_device(
      n, [] __device__(int i, float *o, const float *s) { o[i] = s[i]; }, out,
      scale);
  std::string error = sync_error();
  bool hazard_seen = error == "cudaErrorIllegalAddress";
  report("cuda-host-pointer-in-device-code.forwarding-launcher.buggy",
         "cudaErrorIllegalAddress", error, hazard_seen);
  delete[] scale;
  return hazard_seen ? 0 : 1;
}
