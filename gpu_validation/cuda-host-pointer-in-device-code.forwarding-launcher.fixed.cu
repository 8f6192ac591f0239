// HAZARD: H33  VARIANT: fixed  OWNER: cuda-host-pointer-in-device-code
// EXPECT: the launcher that forwards its arguments is handed a device copy
// of the scale factors (cudaMalloc, cudaMemcpy): every output is 0.5.
#include "common.cuh"
#include <utility>
#include <vector>

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
  std::vector<float> host_scale(n, 0.5f);
  float *scale = nullptr;
  REQUIRE_CUDA(cudaMalloc(&scale, n * sizeof(float)));
  REQUIRE_CUDA(cudaMemcpy(scale, host_scale.data(), n * sizeof(float),
                          cudaMemcpyHostToDevice));
  float *out = nullptr;
  REQUIRE_CUDA(cudaMalloc(&out, n * sizeof(float)));
  run_on_device(
      n, [] __device__(int i, float *o, const float *s) { o[i] = s[i]; }, out,
      scale);
  return report_device_values(
      "cuda-host-pointer-in-device-code.forwarding-launcher.fixed", out, n, 0.5f);
}
