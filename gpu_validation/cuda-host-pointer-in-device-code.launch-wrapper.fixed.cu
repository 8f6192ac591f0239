// HAZARD: H33  VARIANT: fixed  OWNER: cuda-host-pointer-in-device-code
// EXPECT: the lambda captures a device copy (cudaMalloc, cudaMemcpy):
// every weight is halved.
#include "common.cuh"
#include <vector>

template <class Body> __global__ void forall_kernel(int n, Body body) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    body(i);
}

// Runs the body in a kernel when a GPU is there, in a host loop otherwise,
// as finite-element and AMR frameworks' forall / ParallelFor do.
template <class Body> void forall(int n, Body body) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0)
    forall_kernel<<<(n + 255) / 256, 256>>>(n, body);
  else
    for (int i = 0; i < n; ++i)
      body(i);
}

int main() {
  const int n = 1 << 16;
  std::vector<float> weights(n, 1.0f);
  float *w = nullptr;
  REQUIRE_CUDA(cudaMalloc(&w, n * sizeof(float)));
  REQUIRE_CUDA(cudaMemcpy(w, weights.data(), n * sizeof(float),
                          cudaMemcpyHostToDevice));
  forall(n, [=] __host__ __device__ (int i) { w[i] *= 0.5f; });
  std::string error = sync_error();
  int mismatches = 0;
  if (error == "cudaSuccess") {
    std::vector<float> back(n);
    REQUIRE_CUDA(cudaMemcpy(back.data(), w, n * sizeof(float),
                            cudaMemcpyDeviceToHost));
    for (float v : back)
      mismatches += v != 0.5f;
  }
  bool correct = error == "cudaSuccess" && mismatches == 0;
  report("cuda-host-pointer-in-device-code.launch-wrapper.fixed", "cudaSuccess, 0 mismatches",
         error + ", " + std::to_string(mismatches) + " mismatches", correct);
  return correct ? 0 : 1;
}
