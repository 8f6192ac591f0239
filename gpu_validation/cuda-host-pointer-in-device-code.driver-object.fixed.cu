// HAZARD: H33  VARIANT: fixed  OWNER: cuda-host-pointer-in-device-code
// EXPECT: the lambda in the driver object captures a device copy
// (cudaMalloc, cudaMemcpy): every weight is halved.
#include "common.cuh"
#include <vector>

template <class Driver> __global__ void run_driver(Driver driver) { driver(); }

template <class F> struct DeviceFor {
  int n;
  F f;
  __device__ void operator()() const {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
      f(i);
  }
  void execute() const {
    void (*kernel)(DeviceFor) = run_driver<DeviceFor>;
    kernel<<<(n + 255) / 256, 256>>>(*this);
  }
};

template <class F> void parallel_for(int n, const F &f) {
  DeviceFor<F>{n, f}.execute();
}

int main() {
  const int n = 1 << 16;
  std::vector<float> weights(n, 1.0f);
  float *w = nullptr;
  REQUIRE_CUDA(cudaMalloc(&w, n * sizeof(float)));
  REQUIRE_CUDA(cudaMemcpy(w, weights.data(), n * sizeof(float),
                          cudaMemcpyHostToDevice));
  parallel_for(n, [=] __host__ __device__ (int i) { w[i] *= 0.5f; });
  return report_device_values("cuda-host-pointer-in-device-code.driver-object.fixed", w, n, 0.5f);
}
