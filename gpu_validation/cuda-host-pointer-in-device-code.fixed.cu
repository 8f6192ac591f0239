// HAZARD: H33  VARIANT: fixed  OWNER: cuda-host-pointer-in-device-code
// EXPECT: the kernel writes cudaMalloc'd memory, copied back to the host
// buffer; the lambda in thrust::for_each(thrust::device, ...) captures the
// data() of a thrust::device_vector copied from the std::vector. Both
// compute what the host computes.
#include "common.cuh"
#include <cstdlib>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <vector>

__global__ void fill(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * i;
}

int main() {
  const int n = 1 << 16;
  float *buf = (float *)std::malloc(n * sizeof(float));
  float *d_buf;
  REQUIRE_CUDA(cudaMalloc(&d_buf, n * sizeof(float)));
  fill<<<(n + 255) / 256, 256>>>(d_buf, n);
  std::string error = sync_error();
  REQUIRE_CUDA(cudaMemcpy(buf, d_buf, n * sizeof(float), cudaMemcpyDeviceToHost));
  std::vector<float> expected(n);
  for (int i = 0; i < n; ++i)
    expected[i] = 2.0f * i;
  int bad_kernel = count_mismatches(buf, expected.data(), n);

  std::vector<float> weights(n, 3.0f);
  thrust::device_vector<float> d_weights(weights.begin(), weights.end());
  thrust::device_vector<float> values(n, 1.0f);
  const float *w = thrust::raw_pointer_cast(d_weights.data());
  thrust::for_each(thrust::device, values.begin(), values.end(),
                   [w] __device__ (float &x) { x *= w[0]; });
  std::vector<float> got(n), want(n, 3.0f);
  thrust::copy(values.begin(), values.end(), got.begin());
  int bad_thrust = count_mismatches(got.data(), want.data(), n);

  bool pass = error == "cudaSuccess" && bad_kernel == 0 && bad_thrust == 0;
  report("cuda-host-pointer-in-device-code.fixed",
         "cudaSuccess, 0 mismatches (kernel and thrust)",
         error + ", " + std::to_string(bad_kernel) + " + " +
             std::to_string(bad_thrust) + " mismatches",
         pass);
  cudaFree(d_buf);
  std::free(buf);
  return pass ? 0 : 1;
}
